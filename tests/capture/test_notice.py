"""The capture notice (issue 26 item 8): when capture adds records at Stop, ctx-extract prints
``{"systemMessage": ...}`` with one line per record and the id ``ctx-decide --drop`` takes;
``CTX_CAPTURE_NOTICE=off`` silences it. In process (main) and installed, in a fresh process.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from context_memory.capture.notice import MAX_NOTICE_RECORDS, notice_enabled, notice_text
from context_memory.commands.decide import cli as decide_cli
from context_memory.handlers.extract import main as extract_main
from context_memory.memory.decisions import make_captured_record, make_record
from helpers import transcript_rows as tr
from helpers.cli_run import invoke, run_hook_main
from helpers.hook_payloads import decisions_log, stop_payload
from helpers.installed import installed_with_project

SESSION = tr.SESSION
REJECTION = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). To tell you how to proceed, "
    "the user said:\ntoo heavy, use date-fns"
)
HEAD = "context-memory captured {} (ctx-decide --drop ID retracts one):"


def rejected_moment(project: Path) -> Path:
    """A 2.1.332 turn: the agent runs ``npm install moment``, the user rejects it with a reason
    typed in the permission prompt (protocol file section 11)."""
    call, call_id = tr.tool_call("Bash", {"command": "npm install moment"})
    result = tr.tool_result(call_id, REJECTION, is_error=True)
    result.update(toolUseResult="Error: " + REJECTION, toolDenialKind="user-rejected")
    rows = [tr.user("format the invoice dates"), call, result, *tr.bookkeeping()]
    return tr.write_transcript(project / f"{SESSION}.jsonl", rows)


def stop(project: Path, transcript: Path) -> dict[str, Any]:
    return stop_payload(SESSION, project, transcript)


def expected_lines(records: list[dict[str, Any]]) -> list[str]:
    lines = []
    for r in records:
        reason = f" ({r['reason']})" if r["reason"] else ""
        lines.append(f"{r['id']} {r['kind']} ({r['by']}): {r['decision']}{reason}")
    return lines


def captured(text: str, kind: str = "constraint", **extra: Any) -> dict[str, Any]:
    item = {"kind": kind, "by": "user", "source": "prompt", "uuid": "u1", "decision": text}
    item.update(extra)
    return make_captured_record(item, session=SESSION, ts="2026-01-02T03:04:05Z")


def test_one_line_per_record_with_its_id() -> None:
    first = captured("use pnpm, not npm")
    second = make_record("decided", "keep the cache in SQLite", session="s", reason="one file")
    assert notice_text([first, second]) == "\n".join(
        [
            HEAD.format("2 records"),
            f"{first['id']} constraint (user): use pnpm, not npm",
            f"{second['id']} decided (agent): keep the cache in SQLite (one file)",
        ]
    )
    assert notice_text([first]) == (
        f"{HEAD.format('1 record')}\n{first['id']} constraint (user): use pnpm, not npm"
    )


def test_nothing_captured_no_notice() -> None:
    assert notice_text([]) is None
    assert notice_text([{"kind": "pin", "target": "x"}]) is None


def test_the_notice_is_bounded_and_safe() -> None:
    records = [captured(f"rule {n} " + "x" * 400) for n in range(MAX_NOTICE_RECORDS + 3)]
    records[0]["decision"] = "evil\x1b[2J\u202e text"
    text = notice_text(records)
    assert text is not None
    lines = text.splitlines()
    assert lines[0] == HEAD.format(f"{MAX_NOTICE_RECORDS + 3} records")
    assert len(lines) == 1 + MAX_NOTICE_RECORDS + 1
    assert lines[-1] == "... and 3 more (ctx-decide --list)"
    assert lines[1] == f"{records[0]['id']} constraint (user): evil\\x1b[2J\\u202e text"
    assert all(len(line) <= 200 for line in lines[1:])
    assert lines[2].endswith("...")


@pytest.mark.parametrize(
    ("value", "enabled"),
    [("", True), ("on", True), ("off", False), ("0", False), (" OFF ", False), ("no", False)],
)
def test_ctx_capture_notice_env(value: str, enabled: bool) -> None:
    assert notice_enabled({"CTX_CAPTURE_NOTICE": value}) is enabled


def test_the_stop_hook_shows_what_it_captured(project: Path, monkeypatch, capsys) -> None:
    transcript = rejected_moment(project)
    result = run_hook_main(monkeypatch, capsys, extract_main, stop(project, transcript))
    assert (result.exit_code, result.stderr) == (0, "")
    records = decisions_log(project)
    assert records, "capture wrote nothing"
    assert records[0]["decision"] == "Bash: npm install moment"
    assert records[0]["reason"] == "too heavy, use date-fns"
    count = f"{len(records)} record{'s' if len(records) != 1 else ''}"
    assert json.loads(result.stdout) == {
        "systemMessage": "\n".join([HEAD.format(count), *expected_lines(records)])
    }
    # The id in the line is the one ctx-decide --drop takes.
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", SESSION)
    dropped = invoke(decide_cli, ["--drop", records[0]["id"]])
    assert dropped.exit_code == 0, dropped.stderr
    assert dropped.stdout.startswith(f"dropped {records[0]['id']} Bash: npm install moment")
    # Nothing new since: the next stop says nothing.
    again = run_hook_main(monkeypatch, capsys, extract_main, stop(project, transcript))
    assert (again.exit_code, again.stdout, again.stderr) == (0, "", "")


def test_ctx_capture_notice_off_silences_the_stop_hook(project: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("CTX_CAPTURE_NOTICE", "off")
    transcript = rejected_moment(project)
    result = run_hook_main(monkeypatch, capsys, extract_main, stop(project, transcript))
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert decisions_log(project)  # captured all the same


def test_a_subagent_stop_says_nothing(project: Path, monkeypatch, capsys) -> None:
    transcript = rejected_moment(project)
    payload = {**stop(project, transcript), "hook_event_name": "SubagentStop", "agent_id": "a1"}
    result = run_hook_main(monkeypatch, capsys, extract_main, payload)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


@pytest.mark.slow  # a real ./install
def test_the_installed_stop_hook_prints_the_notice(tmp_path: Path) -> None:
    install, project = installed_with_project(tmp_path)
    transcript = rejected_moment(project)
    payload = json.dumps(stop(project, transcript)).encode()
    off = install.run_registered(
        "ctx-extract", payload, event="Stop", cwd=project, env={"CTX_CAPTURE_NOTICE": "off"}
    )
    assert (off.returncode, off.stdout, off.stderr) == (0, b"", b"")
    records = decisions_log(project)
    assert records and records[0]["decision"] == "Bash: npm install moment"
    (project / ".working-state" / "decisions.jsonl").unlink()
    (project / ".working-state" / "capture" / f"{SESSION}.json").unlink()
    done = install.run_registered("ctx-extract", payload, event="Stop", cwd=project)
    assert (done.returncode, done.stderr) == (0, b"")
    records = decisions_log(project)
    count = f"{len(records)} record{'s' if len(records) != 1 else ''}"
    assert json.loads(done.stdout) == {
        "systemMessage": "\n".join([HEAD.format(count), *expected_lines(records)])
    }
