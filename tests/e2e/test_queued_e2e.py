"""A message the user types while a tool runs, in the real client's terminal (2.1.332): the
client writes ``queue-operation`` rows (enqueue, then remove: handed to the agent inside the
turn) and a ``queued_command`` attachment; capture writes the rule it states once, marked as
typed while the agent worked (on a slow machine the client may send it after the turn
instead: dequeue, then a plain prompt). The permission dialog's Esc is in
test_rejection_e2e.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ClaudeRunner
from .fake_api import FakeMessagesApi, ScriptedTurn, tool_turn
from .terminal import (
    decisions_log,
    session,
    wait_for_records,
)

pytestmark = pytest.mark.client

API_KEY = "sk-ant-api03-e2e-queued-test-key-00000000000000"


def test_a_rule_typed_while_a_tool_runs_is_captured_once(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi, project_dir: Path
) -> None:
    sleep = tool_turn("Bash", {"command": "sleep 8", "description": "Wait"}, "toolu_01s")
    # A third reply in case the client sends the message after the turn instead (dequeue).
    fake_api.enqueue(sleep, ScriptedTurn.text("Noted: pnpm only."), ScriptedTurn.text("Noted."))
    log = decisions_log(project_dir)
    with session(run_claude, API_KEY, "--allowedTools", "Bash(sleep:*)") as terminal:
        terminal.send("Set up the project.")
        terminal.wait_for("sleep 8")
        terminal.pause(1)
        terminal.send("from now on always use pnpm, never npm")
        records = wait_for_records(log, terminal)

    _, rows = run_claude.session_rows()
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
