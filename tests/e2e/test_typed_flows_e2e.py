"""What the user types around the agent's work, in the real client's terminal (2.1.332).

- Esc at the permission dialog of ``npm install moment``, then a typed correction: the
  client writes the bare rejection (``toolDenialKind: "user-rejected"``) and an interrupt
  row, and the correction is the next prompt; capture writes one rejection of the call, the
  package moment ruled out and date-fns preferred, the correction as its reason.
- A message typed while a tool runs: the client writes ``queue-operation`` rows (enqueue,
  then remove: handed to the agent inside the turn) and a ``queued_command`` attachment;
  capture writes the rule it states once, marked as typed while the agent worked (on a slow
  machine the client may send it after the turn instead: dequeue, then a plain prompt).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ClaudeRunner
from .fake_api import FakeMessagesApi, ScriptedTurn, tool_turn
from .terminal import (
    KEY_ESC,
    open_session,
    wait_for_records,
)

pytestmark = pytest.mark.client

API_KEY = "sk-ant-api03-e2e-typed-flows-test-key-00000000"


def test_a_correction_typed_after_esc_at_the_permission_dialog_rejects_the_call(
    installed_home: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    project_dir: Path,
) -> None:
    fake_api.enqueue(
        tool_turn("Bash", {"command": "npm install moment"}, "toolu_01m"),
        ScriptedTurn.text("Understood: date-fns."),
    )
    log = project_dir / ".working-state" / "decisions.jsonl"
    terminal = open_session(run_claude, API_KEY)
    try:
        terminal.send("Add a date library.")
        terminal.wait_for("stay in auto mode", "Do you want to proceed")
        terminal.settle()
        terminal.type(KEY_ESC)
        terminal.settle()
        terminal.send("use date-fns instead, moment is too heavy")
        records = wait_for_records(log, terminal)
        terminal.wait_for("Stop says:")
    finally:
        terminal.close()

    (transcript,) = run_claude.transcript_files()
    rows = run_claude.transcript_rows(transcript.stem)
    typed = [r for r in rows if r.get("type") == "user" and not r.get("toolUseResult")]
    assert [r["message"]["content"] for r in typed][-2:] == [
        [{"type": "text", "text": "[Request interrupted by user for tool use]"}],
        "use date-fns instead, moment is too heavy",
    ]
    denied = [r for r in rows if r.get("toolDenialKind")]
    assert [(r["toolDenialKind"], r["toolUseResult"]) for r in denied] == [
        ("user-rejected", "User rejected tool use")
    ]
    assert [(r["kind"], r["by"], r["source"]) for r in records] == [
        ("rejected", "user", "tool-rejection")
    ]
    (record,) = records
    assert record["decision"] == "Bash: npm install moment"
    assert record["reason"] == "use date-fns instead, moment is too heavy"
    assert record["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert record["preferred"] == [{"kind": "package", "value": "date-fns"}]


def test_a_rule_typed_while_a_tool_runs_is_captured_once(
    installed_home: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    project_dir: Path,
) -> None:
    sleep = tool_turn("Bash", {"command": "sleep 8", "description": "Wait"}, "toolu_01s")
    # A third reply in case the client sends the message after the turn instead (dequeue).
    fake_api.enqueue(sleep, ScriptedTurn.text("Noted: pnpm only."), ScriptedTurn.text("Noted."))
    log = project_dir / ".working-state" / "decisions.jsonl"
    terminal = open_session(run_claude, API_KEY, "--allowedTools", "Bash(sleep:*)")
    try:
        terminal.send("Set up the project.")
        terminal.wait_for("sleep 8")
        terminal.pause(1)
        terminal.send("from now on always use pnpm, never npm")
        records = wait_for_records(log, terminal)
    finally:
        terminal.close()

    (transcript,) = run_claude.transcript_files()
    rows = run_claude.transcript_rows(transcript.stem)
    queue = [r["operation"] for r in rows if r.get("type") == "queue-operation"]
    assert queue[:1] == ["enqueue"] and queue[-1] in ("remove", "dequeue"), queue
    # Handed to the agent inside the turn (remove), or sent as the next prompt once the turn
    # ended (dequeue, on a slow machine): one record either way, said as it was.
    during = "typed while the agent worked" if queue[-1] == "remove" else ""
    assert [(r["kind"], r["by"], r["source"], r["reason"]) for r in records] == [
        ("constraint", "user", "prompt", during)
    ]
    (record,) = records
    assert record["decision"] == "from now on always use pnpm, never npm"
    assert record["ruled_out"] == [{"kind": "command", "value": "npm"}]
    assert record["preferred"] == [{"kind": "command", "value": "pnpm"}]
