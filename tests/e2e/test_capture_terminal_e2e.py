"""The issue's end-to-end case in the real client's interactive terminal: the agent runs
``npm install moment``, the user picks No in the permission prompt, presses Tab and types
"too heavy, use date-fns"; at Stop, capture records the rejection with that reason and the
terminal shows its line (``Stop says: ...``) with the id ``ctx-decide --drop`` takes.

``--permission-mode default``: behind the fake API the client's auto mode cannot run its
server-side check (protocol file section 11), and the prompt is the same one it asks then.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import DEFAULT_MODEL, ClaudeRunner, ctx_decide
from .fake_api import FakeMessagesApi, ScriptedTurn, tool_use_block
from .terminal import KEY_DOWN, KEY_ENTER, KEY_TAB, Terminal, squeezed

pytestmark = pytest.mark.client

REASON = "too heavy, use date-fns"


def test_a_rejection_typed_in_the_prompt_is_captured_and_shown(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    fake_api.enqueue(
        ScriptedTurn(
            blocks=(
                tool_use_block(
                    "Bash", {"command": "npm install moment", "description": "Install moment"}
                ),
            )
        )
    )
    fake_api.enqueue_text("OK, I will use date-fns instead.")
    terminal = Terminal(run_claude, ["--model", DEFAULT_MODEL, "--permission-mode", "default"])
    try:
        terminal.wait_for("❯")
        terminal.pause(2.0)
        terminal.type("format the invoice dates")
        terminal.press(KEY_ENTER)
        terminal.wait_for("Do you want to proceed?")
        terminal.wait_for("Tab to amend")
        mark = terminal.mark()
        terminal.press(KEY_DOWN, KEY_DOWN, KEY_DOWN)  # Yes, don't ask again, auto mode, No
        terminal.wait_for("❯ 4. No", since=mark)  # the cursor on No, as the screen renders it
        terminal.press(KEY_TAB)
        terminal.wait_for("tell Claude what to do differently")
        terminal.type(REASON)
        terminal.press(KEY_ENTER)
        terminal.wait_for("Stop says:", timeout=60.0)
        terminal.pause(1.0)
    finally:
        terminal.close()

    log = run_claude.project_dir / ".working-state" / "decisions.jsonl"
    (record,) = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert (record["kind"], record["by"], record["source"]) == (
        "rejected",
        "user",
        "tool-rejection",
    )
    assert (record["decision"], record["reason"], record["quote"]) == (
        "Bash: npm install moment",
        REASON,
        REASON,
    )
    assert record["call"] == {"tool": "Bash", "command": "npm install moment"}
    (transcript,) = run_claude.transcript_files()
    rows = run_claude.transcript_rows(transcript.stem)
    assert any(row.get("toolDenialKind") == "user-rejected" for row in rows)

    screen = squeezed(terminal.screen)
    said = squeezed(
        "Stop says: context-memory captured 1 record (ctx-decide --drop ID retracts one):"
    )
    line = squeezed(f"{record['id']} rejected (user): Bash: npm install moment ({REASON})")
    assert said in screen
    assert line in screen[screen.index(said) :]
    # The id shown is the one ctx-decide --drop takes.
    dropped = ctx_decide(ctx_venv, run_claude.project_dir, transcript.stem, "--drop", record["id"])
    assert dropped.startswith(f"dropped {record['id']} Bash: npm install moment ({REASON}")
