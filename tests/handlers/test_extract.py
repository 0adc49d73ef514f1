from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from context_memory.core.hookio import BREAKER_LIMIT
from context_memory.handlers import extract
from context_memory.memory.decisions import append_record, make_record
from context_memory.memory.extract import MAX_EXTRACT_RECORDS, extract_document
from context_memory.memory.handoff import parse_handoff
from context_memory.memory.handoff_draft import SessionFacts
from helpers import transcript_rows as tr
from helpers.cli_run import run_hook_main
from helpers.paths import subprocess_env

SESSION = "ec02a1e1-95f7-4797-b360-0048899b56dd"


def session_folder(project: Path) -> Path:
    return project / ".working-state" / "sessions" / SESSION


def extract_file(project: Path) -> Path:
    return session_folder(project) / "compaction-extract.json"


def transcript(project: Path) -> Path:
    write_row, write_id = tr.tool_call("Write", {"file_path": f"{project}/src/cache.py"})
    edit_row, edit_id = tr.tool_call("Edit", {"file_path": f"{project}/src/cache.py"})
    todo_row, _ = tr.tool_call(
        "TodoWrite", {"todos": [{"content": "wire the config", "status": "pending"}]}
    )
    rows = [
        tr.user("go"),
        write_row,
        tr.tool_result(write_id),
        edit_row,
        tr.tool_result(edit_id),
        todo_row,
        tr.api_request("claude-sonnet-4-6"),
        tr.assistant("msg_9", tr.usage(120_000, 0, 0, 1_000)),
        *tr.bookkeeping(),
    ]
    # The edits were made ten minutes ago by the clock the hook writes its handoff with
    # (the rows' own fixed date would be after it with a clock set before that date).
    earlier = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - 600))
    for row in rows:
        if "timestamp" in row:
            row["timestamp"] = earlier
    return tr.write_transcript(project / "session.jsonl", rows)


def decide(project: Path, kind: str, text: str, reason: str = "", session: str = SESSION):
    append_record(
        project / ".working-state", make_record(kind, text, session=session, reason=reason)
    )


def payload(project: Path, event: str = "Stop", **extra) -> dict:
    data = {
        "session_id": SESSION,
        "transcript_path": str(project / "session.jsonl"),
        "cwd": str(project),
        "hook_event_name": event,
    }
    if event == "Stop":
        data.update(stop_hook_active=False, background_tasks=[], session_crons=[])
    if event == "PreCompact":
        data.update(trigger="manual", custom_instructions=None)
    data.update(extra)
    return data


def run_main(monkeypatch, capsys, data: dict | str):
    return run_hook_main(monkeypatch, capsys, extract.main, data)


def test_precompact_always_acts_and_steers_the_summary(project, monkeypatch, capsys):
    transcript(project)
    decide(project, "decided", "Use Redis Cluster, 6 nodes", "needs sharding")
    decide(project, "rejected", "Codis", "unmaintained, proxy adds 2 ms")
    decide(project, "risk", "resharding untested")
    decide(project, "decided", "Another session's call", session="other")
    status, out, err = run_main(monkeypatch, capsys, payload(project, "PreCompact"))
    assert (status, err) == (0, "")
    assert out == (
        "Keep these recorded decisions and rejections, with their reasons, in the summary "
        "(they are also on disk):\n"
        "- Decided: Use Redis Cluster, 6 nodes (needs sharding)\n"
        "- Rejected: Codis (unmaintained, proxy adds 2 ms)\n"
        "Also state that the full decision log is .working-state/decisions.jsonl "
        "(ctx-decide --list).\n"
    )
    data = json.loads(extract_file(project).read_text())
    assert [r["decision"] for r in data["decisions"]] == ["Use Redis Cluster, 6 nodes"]
    assert [r["reason"] for r in data["rejections"]] == ["unmaintained, proxy adds 2 ms"]
    assert [r["decision"] for r in data["risks"]] == ["resharding untested"]
    assert data["files_modified"] == ["src/cache.py"]
    assert (data["pending"], data["pending_source"]) == (["wire the config"], "todos")
    assert (data["tokens"], data["trigger"]) == (121_000, "pre-compact-manual")
    assert data["handoff"] == f"sessions/{SESSION}/handoffs/stage-1.md"
    assert (
        data["time"]
        == parse_handoff((project / ".working-state" / data["handoff"]).read_text()).meta["time"]
    )
    handoff = parse_handoff((project / ".working-state" / data["handoff"]).read_text())
    assert handoff.meta["tokens"] == "121000"
    assert handoff.sections == {
        "Decided": ["Use Redis Cluster, 6 nodes (needs sharding)"],
        "Rejected": ["Codis (unmaintained, proxy adds 2 ms)"],
        "Risks": ["resharding untested"],
        "Files Modified": ["src/cache.py"],
        "Remaining": ["wire the config"],
    }
    # Nothing new since: the extract is refreshed, no second stage is written.
    status, out2, _ = run_main(monkeypatch, capsys, payload(project, "PreCompact", trigger="auto"))
    assert out2 == out
    data = json.loads(extract_file(project).read_text())
    assert (data["trigger"], data["handoff"]) == ("pre-compact-auto", None)
    assert sorted(p.name for p in (session_folder(project) / "handoffs").iterdir()) == [
        "stage-1.md"
    ]


def test_extract_document_is_the_facts_key_for_key(tmp_path):
    """The document alone, from given facts: every key, records cut to their kind and the
    newest MAX_EXTRACT_RECORDS, paths shown relative to the project and the state folder."""
    facts = SessionFacts()
    rejected = make_record("rejected", "Codis", session=SESSION, reason="unmaintained")
    choices = [make_record("decided", f"choice {n}", session=SESSION) for n in range(205)]
    facts.records = [rejected, *choices, {"kind": "decided"}]  # the last: no text, no record
    facts.edits = [(f"{tmp_path}/src/a.py", "2026-11-25T09:00:00Z")]
    facts.subagent_edits = [("/elsewhere/b.py", "2026-11-25T09:01:00Z")]
    facts.transcript_note = "transcript read only partly"
    state = tmp_path / ".working-state"
    document = extract_document(
        facts,
        session=SESSION,
        trigger="stop-interval",
        time="2026-11-25T09:02:00Z",
        tokens=1234,
        tokens_source="usage",
        pending=(["wire the config"], "todos"),
        handoff=str(state / "sessions" / SESSION / "handoffs" / "stage-2.md"),
        state_dir=str(state),
        project_dir=str(tmp_path),
        transcript="/t/session.jsonl",
    )
    decisions = document.pop("decisions")
    assert len(decisions) == MAX_EXTRACT_RECORDS == 200
    assert [r["decision"] for r in decisions[:2]] == ["choice 5", "choice 6"]
    assert decisions[-1] == {
        key: choices[-1][key] for key in ("id", "ts", "session", "kind", "decision", "reason")
    } | {"alternatives": [], "keywords": []}
    assert [r["decision"] for r in document.pop("rejections")] == ["Codis"]
    assert document == {
        "session": SESSION,
        "trigger": "stop-interval",
        "time": "2026-11-25T09:02:00Z",
        "tokens": 1234,
        "tokens_source": "usage",
        "risks": [],
        "constraints": [],
        "files_modified": ["src/a.py", "/elsewhere/b.py (subagent)"],
        "pending": ["wire the config"],
        "pending_source": "todos",
        "handoff": f"sessions/{SESSION}/handoffs/stage-2.md",
        "transcript": "/t/session.jsonl",
        "transcript_note": "transcript read only partly",
    }


def test_precompact_without_decisions_prints_nothing_but_still_extracts(
    project, monkeypatch, capsys
):
    assert run_main(monkeypatch, capsys, payload(project, "PreCompact")) == (0, "", "")
    data = json.loads(extract_file(project).read_text())
    assert (data["decisions"], data["files_modified"], data["tokens"]) == ([], [], 0)
    assert data["transcript_note"].startswith(f"transcript {project}/session.jsonl unreadable")
    assert data["handoff"] is None


def test_steering_list_is_bounded(project, monkeypatch, capsys):
    for n in range(25):
        decide(project, "decided", f"choice {n}", "x" * 400 if n == 24 else "")
    _, out, _ = run_main(monkeypatch, capsys, payload(project, "PreCompact"))
    lines = out.splitlines()
    assert len(lines) == 1 + extract.MAX_STEERING_ITEMS + 1
    assert lines[1] == "- Decided: choice 5"
    assert len(lines[-2]) == len("- Decided: ") + extract.MAX_STEERING_ITEM_CHARS
    assert lines[-2].endswith("...")
    assert lines[-1].endswith("(ctx-decide --list); 5 older ones are only there.")


def test_stop_acts_every_nth_stop(project, monkeypatch, capsys):
    monkeypatch.setenv("COMPACTION_EXTRACT_INTERVAL", "3")
    transcript(project)
    decide(project, "decided", "D")
    for n in (1, 2):
        assert run_main(monkeypatch, capsys, payload(project)) == (0, "", "")
        assert not extract_file(project).exists(), n
    assert run_main(monkeypatch, capsys, payload(project)) == (0, "", "")
    assert json.loads(extract_file(project).read_text())["trigger"] == "stop-interval"
    assert (session_folder(project) / "handoffs" / "stage-1.md").is_file()
    assert (session_folder(project) / ".stop-count").read_text() == "3"


def test_default_interval_is_15(project, monkeypatch, capsys):
    for _ in range(14):
        run_main(monkeypatch, capsys, payload(project))
    assert not extract_file(project).exists()
    run_main(monkeypatch, capsys, payload(project))
    assert extract_file(project).exists()


@pytest.mark.parametrize(
    ("value", "expected"), [("", 15), ("x", 15), ("0", 0), ("-4", 0), ("7", 7)]
)
def test_interval_setting(value, expected):
    assert extract.extract_interval({"COMPACTION_EXTRACT_INTERVAL": value}) == expected


def test_acts_once_at_the_first_stop_after_the_80_percent_mark(project, monkeypatch, capsys):
    transcript(project)
    folder = session_folder(project)
    folder.mkdir(parents=True)
    (folder / ".crossed-80").touch()  # what ctx-budget leaves
    run_main(monkeypatch, capsys, payload(project))
    assert json.loads(extract_file(project).read_text())["trigger"] == "stop-crossed-80"
    extract_file(project).unlink()
    run_main(monkeypatch, capsys, payload(project))
    assert not extract_file(project).exists()  # acted once
    assert (folder / ".crossed-80").exists()  # so ctx-budget does not leave it again
    # A compaction starts over: the next crossing is acted on again.
    run_main(monkeypatch, capsys, payload(project, "PreCompact"))
    assert not (folder / ".crossed-80").exists()
    assert not (folder / ".crossed-80.handled").exists()


@pytest.mark.parametrize(
    "data",
    [
        {"agent_id": "a1", "agent_type": "general-purpose"},
        {"stop_hook_active": True},
        {"hook_event_name": "SubagentStop", "agent_id": "a1"},
        {"hook_event_name": "UserPromptSubmit"},
    ],
)
def test_skipped_events_do_nothing(project, monkeypatch, capsys, data):
    monkeypatch.setenv("COMPACTION_EXTRACT_INTERVAL", "1")
    assert run_main(monkeypatch, capsys, payload(project, **data)) == (0, "", "")
    assert not (project / ".working-state").exists()


def test_unsafe_session_writes_nothing_outside(project, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COMPACTION_EXTRACT_INTERVAL", "1")
    for bad in ["../../escape", "/tmp/abs", "a/b"]:
        status, out, err = run_main(monkeypatch, capsys, payload(project, session_id=bad))
        assert (status, out) == (0, "")
        assert err.startswith("ctx-extract: UnsafeNameError: session id")
    assert not (project / ".working-state" / "sessions").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["project"]


def test_corrupt_log_line_is_logged_and_skipped(project, monkeypatch, capsys):
    decide(project, "decided", "kept")
    log = project / ".working-state" / "decisions.jsonl"
    with log.open("ab") as handle:
        handle.write(b"{not json\n")
    decide(project, "rejected", "also kept")
    raw = log.read_bytes()
    _, out, err = run_main(monkeypatch, capsys, payload(project, "PreCompact"))
    assert err == ""
    assert "- Decided: kept\n- Rejected: also kept\n" in out
    hooks_log = (project / ".working-state" / "logs" / "hooks.log").read_text()
    assert (
        f"\tctx-extract\t{SESSION}\tskipped unreadable lines: {log}:2: not valid JSON" in hooks_log
    )
    assert log.read_bytes() == raw


def test_circuit_breaker_after_three_failures(project, monkeypatch, capsys):
    # A broken state folder: the extract cannot be replaced by a file.
    (project / ".working-state" / "sessions" / SESSION / "compaction-extract.json").mkdir(
        parents=True
    )
    for n in range(BREAKER_LIMIT):
        status, out, err = run_main(monkeypatch, capsys, payload(project, "PreCompact"))
        assert (status, out) == (0, "")
        assert err.startswith("ctx-extract: IsADirectoryError"), n
    hooks_log = project / ".working-state" / "logs" / "hooks.log"
    lines = hooks_log.read_text().splitlines()
    assert len(lines) == BREAKER_LIMIT + 1
    assert lines[-1].endswith(
        "circuit breaker open after 3 consecutive failures; skipping this hook for the rest "
        "of the session"
    )
    # Open: the hook does nothing more for this session, not even a log line.
    assert run_main(monkeypatch, capsys, payload(project, "PreCompact")) == (0, "", "")
    assert run_main(monkeypatch, capsys, payload(project)) == (0, "", "")
    assert hooks_log.read_text().splitlines() == lines


def test_whole_process_never_blocks(project):
    """As the client runs it: exit 0 always; stdout is plain text or nothing, never JSON."""
    transcript(project)
    decide(project, "decided", '{"decision": "block"} is not a hook answer here')
    cases = [
        json.dumps(payload(project, "PreCompact")),
        json.dumps(payload(project, "Stop")),
        "",
        "{",
        json.dumps(payload(project, "PreCompact", session_id="..")),
    ]
    for stdin in cases:
        result = subprocess.run(
            [sys.executable, "-m", "context_memory.handlers.extract"],
            input=stdin.encode(),
            capture_output=True,
            env=subprocess_env(),
            cwd=project,
            timeout=30,
        )
        assert result.returncode == 0
        assert not result.stdout.startswith(b"{")
        assert b"Traceback" not in result.stderr
