"""Turn-start auto-compaction: ctx-budget's note with the session's decisions, its bounds,
and the compaction audit that follows leaving out what the note carried."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from context_memory.audit.config import PENDING_MARK
from context_memory.core.state import TURN_START_FILE
from context_memory.core.tables import TURN_START_MAX_CHARS, TURN_START_TAIL_BYTES
from context_memory.handlers import audit, budget
from context_memory.measure.turn_start import take_injected
from context_memory.memory.decisions import append_record, make_record
from helpers import transcript_rows as tr
from helpers.cli_run import run_hook_main
from helpers.hook_payloads import prompt_payload

SESSION = "11111111-2222-3333-4444-555555555555"
OTHER = "99999999-2222-3333-4444-555555555555"
HEADER = (
    "[CONTEXT BUDGET] ~170K/200K (85%): at the auto-compact threshold (167K), so the client "
    "compacts the context now."
)
# Names Redis Cluster, not Codis.
SUMMARY = "<summary>\n1. Primary Request: design a cache layer. Chose Redis Cluster.\n</summary>"


def transcript(project: Path, *tokens: int) -> Path:
    rows: list[dict] = [tr.user("go"), tr.api_request("claude-sonnet-4-6")]
    for number, count in enumerate(tokens):
        rows.append(tr.assistant(f"msg_{number}", tr.usage(count)))
        rows.extend(tr.bookkeeping())
    return tr.write_transcript(project / "session.jsonl", rows)


def record(state: Path, kind: str, text: str, reason: str = "", session: str = SESSION) -> dict:
    entry = make_record(kind, text, session=session, reason=reason, ts="2026-11-30T09:00:00Z")
    append_record(state, entry)
    return entry


def hook(monkeypatch, capsys, module, payload: dict) -> str:
    status, out, _ = run_hook_main(monkeypatch, capsys, module.main, payload)
    assert status == 0
    return out


def prompt(monkeypatch, capsys, project: Path, path: Path) -> str:
    payload = prompt_payload(SESSION, path, project)
    out = hook(monkeypatch, capsys, budget, payload)
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


def post_compact(monkeypatch, capsys, project: Path, path: Path, trigger: str = "auto") -> str:
    payload = {
        "session_id": SESSION,
        "transcript_path": str(path),
        "cwd": str(project),
        "hook_event_name": "PostCompact",
        "trigger": trigger,
        "compact_summary": SUMMARY,
    }
    return hook(monkeypatch, capsys, audit, payload)


def folder(project: Path) -> Path:
    return project / ".working-state" / "sessions" / SESSION


def cache_decisions(project: Path) -> Path:
    state = project / ".working-state"
    record(state, "decided", "use Redis Cluster", "sharding built in")
    record(state, "rejected", "Codis", "unmaintained")
    record(state, "risk", "resharding under load is untested")
    record(state, "rejected", "Twemproxy", "no resharding", session=OTHER)
    return state


def test_the_note_lists_this_sessions_decisions_newest_first(project, monkeypatch, capsys):
    cache_decisions(project)
    path = transcript(project, 170_000)
    assert prompt(monkeypatch, capsys, project, path) == (
        f"{HEADER}\n"
        "Recorded decisions of this session, newest first; they still hold:\n"
        "- Rejected: Codis (why: unmaintained) Do not propose it again.\n"
        "- Decided: use Redis Cluster (why: sharding built in)"
    )
    written = json.loads((folder(project) / TURN_START_FILE).read_text(encoding="utf-8"))
    records = (project / ".working-state" / "decisions.jsonl").read_text().splitlines()
    ids = [json.loads(line)["id"] for line in records]
    assert written["keys"] == [ids[1], ids[0]]
    assert written["reply"] == "msg_0"


def test_without_decisions_the_note_asks_for_them(project, monkeypatch, capsys):
    path = transcript(project, 170_000)
    assert prompt(monkeypatch, capsys, project, path) == (
        f"{HEADER}\nRecord decisions that must survive with ctx-decide."
    )
    assert not (folder(project) / TURN_START_FILE).exists()


def test_the_decisions_are_capped_newest_kept(project, monkeypatch, capsys):
    state = project / ".working-state"
    for number in range(40):
        record(state, "decided", f"decision number {number:02d} " + "x" * 80, "because")
    text = prompt(monkeypatch, capsys, project, transcript(project, 170_000))
    lines = text.splitlines()
    items = [line for line in lines if line.startswith("- Decided: ")]
    assert items[0].startswith("- Decided: decision number 39 ")
    assert 10 < len(items) < 40
    assert sum(len(line) + 1 for line in items) <= TURN_START_MAX_CHARS
    assert lines[-1] == "More in .working-state/decisions.jsonl (ctx-decide --list)."
    written = json.loads((folder(project) / TURN_START_FILE).read_text(encoding="utf-8"))
    assert len(written["keys"]) == len(items)


def test_only_the_end_of_a_large_log_is_read(project, monkeypatch, capsys):
    state = project / ".working-state"
    record(state, "rejected", "an old rejection", "long ago")
    filler = 0
    while (state / "decisions.jsonl").stat().st_size <= TURN_START_TAIL_BYTES:
        record(state, "decided", f"elsewhere {filler}", session=OTHER)
        filler += 1
    record(state, "rejected", "Codis", "unmaintained")
    text = prompt(monkeypatch, capsys, project, transcript(project, 170_000))
    assert text.splitlines()[2:] == [
        "- Rejected: Codis (why: unmaintained) Do not propose it again.",
        "More in .working-state/decisions.jsonl (ctx-decide --list).",
    ]


def test_the_audit_after_it_does_not_repeat_the_injected_decisions(project, monkeypatch, capsys):
    cache_decisions(project)
    path = transcript(project, 170_000)
    prompt(monkeypatch, capsys, project, path)
    line = post_compact(monkeypatch, capsys, project, path)
    # Twemproxy (another session's rejection, among the last 5) was not in the note.
    assert line.startswith("ctx-audit: 1 of 3 recorded decisions lost in compaction (Twemproxy)")
    written = json.loads((folder(project) / "compact-audit.json").read_text(encoding="utf-8"))
    assert [(d["decision"], d["status"], d["where"]) for d in written["decisions"]] == [
        ("use Redis Cluster", "survived", "summary"),
        ("Codis", "survived", "turn-start injection"),
        ("Twemproxy", "lost", None),
    ]
    assert "Twemproxy" in written["injection"]
    assert "Codis" not in written["injection"]
    assert (folder(project) / PENDING_MARK).exists()
    assert not (folder(project) / TURN_START_FILE).exists()


@pytest.mark.parametrize("case", ["manual", "reply-after", "stale", "no-note"])
def test_the_audit_injects_the_loss_when_the_note_was_not_just_before(
    project, monkeypatch, capsys, case
):
    cache_decisions(project)
    path = transcript(project, 170_000)
    if case != "no-note":
        prompt(monkeypatch, capsys, project, path)
    if case == "reply-after":  # a later, mid-turn compaction
        path = transcript(project, 170_000, 171_000)
    if case == "stale":
        record_file = folder(project) / TURN_START_FILE
        data = json.loads(record_file.read_text(encoding="utf-8"))
        data["at"] = time.time() - 3600
        record_file.write_text(json.dumps(data), encoding="utf-8")
    line = post_compact(
        monkeypatch, capsys, project, path, "manual" if case == "manual" else "auto"
    )
    assert line.startswith(
        "ctx-audit: 2 of 3 recorded decisions lost in compaction (Codis; Twemproxy)"
    )
    written = json.loads((folder(project) / "compact-audit.json").read_text(encoding="utf-8"))
    assert "- Rejected: Codis (why: unmaintained) Do not propose it again." in written["injection"]
    assert (folder(project) / PENDING_MARK).exists()
    assert not (folder(project) / TURN_START_FILE).exists()


def test_a_damaged_record_counts_for_nothing(tmp_path):
    (tmp_path / TURN_START_FILE).write_bytes(b'{"version":1,"at":')
    assert take_injected(str(tmp_path), None) == set()
    assert not (tmp_path / TURN_START_FILE).exists()


def test_a_linked_record_is_not_followed(tmp_path):
    target = tmp_path / "elsewhere.json"
    target.write_text(json.dumps({"at": time.time(), "keys": ["abc"]}), encoding="utf-8")
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / TURN_START_FILE).symlink_to(target)
    assert take_injected(str(tmp_path / "s"), None) == set()
    assert target.exists()
