"""ctx-capture, ctx-decide --list/--drop on captured records, the Stop hook's capture, and
what the readers take from captured and retired records. Real rows: a transcript of
client 1.0.x (tests/fixtures/real-transcripts); the oracle for what it captures is the
engine fed the same rows.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from context_memory.audit.check import audit_decisions, injection_text
from context_memory.capture.engine import Capturer
from context_memory.capture.notice import notice_text
from context_memory.commands.capture import cli as capture_cli
from context_memory.commands.decide import cli as decide_cli
from context_memory.core.tables import TURN_START_TEXTS
from context_memory.handlers.extract import main as extract_main
from context_memory.handlers.extract import steering_text
from context_memory.measure.turn_start import session_decisions
from context_memory.memory.decisions import (
    append_record,
    make_captured_record,
    make_mark_record,
    make_record,
)
from context_memory.memory.handoff_draft import section_item, session_facts
from context_memory.memory.pointer import recovery_pointer
from helpers.cli_run import invoke, run_hook_main
from helpers.hook_payloads import decisions_log, stop_payload
from helpers.installed import installed_for, installed_with_project

REAL = (
    Path(__file__).parents[1]
    / "fixtures"
    / "real-transcripts"
    / "daaain__claude-code-log__test_test_data_real_projects_-Users-dain-workspace-"
    "JSSoundRecorder_7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl.gz"
)
SESSION = "7acd37a8-2745-4b58-a8a9-46164b22ad9e"


def real_transcript(folder: Path) -> Path:
    path = folder / f"{SESSION}.jsonl"
    path.write_bytes(gzip.decompress(REAL.read_bytes()))
    return path


def engine_items(path: Path, flush: bool = True) -> list[dict[str, Any]]:
    capturer = Capturer()
    items: list[dict[str, Any]] = []
    for line in path.read_bytes().splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            items.extend(capturer.feed(row))
    # A hook's run ends with end_run (held items out, rejected calls still pending); by hand,
    # flush (pending ones too).
    return items + (capturer.flush() if flush else capturer.end_run())


def identities(items: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(i["uuid"], i["kind"], i["source"]) for i in items]


def test_ctx_capture_adds_what_the_engine_finds_once(project: Path, monkeypatch) -> None:
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ada")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "ada@example.com")
    transcript = real_transcript(project)
    expected = identities(engine_items(transcript))
    assert len(expected) == 8
    result = invoke(capture_cli, [str(transcript), "--json"])
    assert result.exit_code == 0, result.stderr
    printed = json.loads(result.stdout)
    assert identities(printed) == expected
    assert printed == decisions_log(project)
    assert {r["author"] for r in printed} == {"Ada <ada@example.com>"}
    again = invoke(capture_cli, [SESSION + ".jsonl"])
    assert again.exit_code == 0, again.stderr
    assert again.stdout == "added 0 record(s) to .working-state/decisions.jsonl\n"
    assert len(decisions_log(project)) == 8


def test_ctx_capture_dry_run_writes_nothing(project: Path) -> None:
    transcript = real_transcript(project)
    result = invoke(capture_cli, [str(transcript), "--dry-run"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "would add 8 record(s) to .working-state/decisions.jsonl"
    assert len([line for line in lines if line.startswith("  ")]) >= 8
    assert not (project / ".working-state").exists()


def test_ctx_capture_unknown_transcript(project: Path) -> None:
    result = invoke(capture_cli, [str(project / "missing.jsonl")])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {project / 'missing.jsonl'}: no such file (give a transcript path or a "
        "session id)\n"
    )


@pytest.mark.slow  # a real ./install
def test_installed_ctx_capture_in_a_fresh_process(tmp_path: Path) -> None:
    from helpers import installed

    install = installed_for(installed.primary_label())
    project = tmp_path / "project"
    project.mkdir()
    transcript = real_transcript(project)
    done = install.run_program("ctx-capture", [str(transcript), "--json"], cwd=project)
    assert done.returncode == 0, done.stderr
    assert identities(json.loads(done.stdout)) == identities(engine_items(transcript))
    assert identities(decisions_log(project)) == identities(engine_items(transcript))


@pytest.mark.slow  # a real ./install
def test_the_installed_stop_hook_captures_and_ctx_capture_off_stops_it(tmp_path: Path) -> None:
    install, project = installed_with_project(tmp_path)
    transcript = real_transcript(project)
    payload = json.dumps(stop_payload(SESSION, project, transcript)).encode()
    off = install.run_registered(
        "ctx-extract", payload, event="Stop", cwd=project, env={"CTX_CAPTURE": "off"}
    )
    assert (off.returncode, off.stdout, off.stderr) == (0, b"", b"")
    assert decisions_log(project) == []
    assert not (project / ".working-state" / "capture").exists()
    done = install.run_registered("ctx-extract", payload, event="Stop", cwd=project)
    assert (done.returncode, done.stderr) == (0, b"")
    # The hook leaves pending what the next prompt may still explain: no flush.
    assert identities(decisions_log(project)) == identities(engine_items(transcript, flush=False))
    # What it captured is shown to the user (capture/notice.py), not to the model.
    assert json.loads(done.stdout) == {"systemMessage": notice_text(decisions_log(project))}
    position = json.loads((project / ".working-state" / "capture" / f"{SESSION}.json").read_text())
    assert position["offset"] == transcript.stat().st_size
    again = install.run_registered("ctx-extract", payload, event="Stop", cwd=project)
    assert (again.returncode, again.stdout) == (0, b"")
    assert identities(decisions_log(project)) == identities(engine_items(transcript, flush=False))


def test_pre_compact_captures_before_the_steering_text(project: Path, monkeypatch, capsys) -> None:
    transcript = project / f"{SESSION}.jsonl"
    row = {
        "type": "user",
        "uuid": "u-moment",
        "timestamp": "2026-01-02T03:04:05Z",
        "isSidechain": False,
        "message": {
            "role": "user",
            "content": "Don't use moment for the dates, it is far too heavy for our bundle. "
            "Use date-fns instead.",
        },
    }
    transcript.write_text(json.dumps(row) + "\n", encoding="utf-8")
    result = run_hook_main(
        monkeypatch, capsys, extract_main, stop_payload(SESSION, project, transcript, "PreCompact")
    )
    assert (result.exit_code, result.stderr) == (0, "")
    out = result.stdout
    assert "- Constraint: Don't use moment for the dates" in out
    assert "(stated by the user)" in out
    [record] = decisions_log(project)
    assert (record["uuid"], record["by"]) == ("u-moment", "user")


# -- ctx-decide --list / --drop -----------------------------------------------------------


def captured(state: Path, uuid: str, text: str, **extra: Any) -> dict[str, Any]:
    item = {
        "kind": "constraint",
        "by": "user",
        "source": "prompt",
        "uuid": uuid,
        "decision": text,
        "quote": text,
        "anchors": extra.pop("anchors", []),
        **extra,
    }
    record = make_captured_record(item, session=SESSION, ts="2026-01-02T03:04:05Z")
    append_record(str(state), record)
    return record


def test_decide_list_marks_captured_and_retired_records(project: Path) -> None:
    state = project / ".working-state"
    state.mkdir()
    old = captured(state, "u1", "use pnpm, not npm", anchors=["pnpm", "npm"])
    new = captured(state, "u2", "use npm after all", anchors=["npm"])
    append_record(
        str(state), make_mark_record("supersede", old["id"], session=SESSION, by_record=new["id"])
    )
    result = invoke(decide_cli, ["--list"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"2026-01-02T03:04:05Z  {old['id']}  constraint  use pnpm, not npm (stated by the user)"
        f"  [captured, user, {SESSION}]  superseded",
        f"2026-01-02T03:04:05Z  {new['id']}  constraint  use npm after all (stated by the user)"
        f"  [captured, user, {SESSION}]",
    ]
    as_json = json.loads(invoke(decide_cli, ["--list", "--json"]).stdout)
    assert [r.get("status") for r in as_json] == ["superseded", None]


def test_decide_drop(project: Path, monkeypatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", SESSION)
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ada")
    monkeypatch.delenv("GIT_AUTHOR_EMAIL", raising=False)
    state = project / ".working-state"
    state.mkdir()
    record = captured(state, "u1", "never push to main")
    result = invoke(decide_cli, ["--drop", record["id"]])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        f"dropped {record['id']} never push to main (stated by the user); "
        "it is no longer injected\n"
    )
    mark = decisions_log(project)[-1]
    assert {k: mark[k] for k in ("kind", "target", "session", "author")} == {
        "kind": "drop",
        "target": record["id"],
        "session": SESSION,
        "author": "Ada",
    }
    again = invoke(decide_cli, ["--drop", record["id"]])
    assert (
        again.stdout == f"already dropped: {record['id']} never push to main (stated by the user)\n"
    )
    assert len(decisions_log(project)) == 2
    listed = invoke(decide_cli, ["--list"]).stdout
    assert listed.rstrip("\n").endswith("  dropped")
    unknown = invoke(decide_cli, ["--drop", "NOPE"])
    assert unknown.exit_code == 1
    assert unknown.stderr == (
        "Error: no decision with id 'NOPE' in .working-state/decisions.jsonl; "
        "ctx-decide --list shows the ids (second column)\n"
    )
    both = invoke(decide_cli, ["--drop", record["id"], "--list"])
    assert both.exit_code == 1 and "--drop goes alone; drop --list" in both.stderr


# -- readers --------------------------------------------------------------------------------


def retired_and_live(state: Path) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    dropped = captured(state, "u1", "never use moment", anchors=["moment"])
    superseded = captured(state, "u2", "use pnpm, not npm", anchors=["pnpm", "npm"])
    live = captured(state, "u3", "use npm after all", anchors=["npm"])
    append_record(str(state), make_mark_record("drop", dropped["id"], session=SESSION))
    append_record(
        str(state),
        make_mark_record("supersede", superseded["id"], session=SESSION, by_record=live["id"]),
    )
    return dropped, superseded, live


def test_readers_skip_retired_records_and_show_the_user(tmp_path: Path) -> None:
    state = tmp_path / ".working-state"
    state.mkdir()
    retired_and_live(state)
    append_record(str(state), make_record("rejected", "Codis", session=SESSION, reason="old"))
    lines, _used, more = session_decisions(str(state), SESSION, "en")
    assert (lines, more) == (
        [
            "- Rejected: Codis (why: old) Do not propose it again.",
            "- Constraint: use npm after all (stated by the user)",
        ],
        False,
    )
    facts = session_facts(str(state), SESSION, None)
    assert [section_item(r) for r in facts.records] == [
        "Constraint: use npm after all (stated by the user)",
        "Codis (old)",
    ]
    steering = steering_text(facts, str(state), str(tmp_path))
    assert steering is not None
    assert steering.splitlines()[1:3] == [
        "- Constraint: use npm after all (stated by the user)",
        "- Rejected: Codis (old)",
    ]
    pointer = recovery_pointer(str(state))
    assert pointer is not None
    assert "Rejected, do not propose again: Codis (old)." in pointer
    assert "Constraints: use npm after all (user)." in pointer
    assert "moment" not in pointer and "pnpm" not in pointer
    results = audit_decisions(facts.records, "nothing about it")
    text = injection_text(results, None)
    assert text is not None
    assert "- Constraint: use npm after all (stated by the user)" in text.splitlines()
    assert TURN_START_TEXTS["zh"]["by_user"]
