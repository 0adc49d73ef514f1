"""A rejection the user types in the real client's permission prompt, captured as a typed
record (issue 26, "Done when"): in an interactive session the scripted model runs
``npm install moment``; the user answers the prompt with No, Tab, "too heavy, use
date-fns"; the Stop hook's capture writes one record that rules out the package moment
(not npm) and prefers the package date-fns, from the user row the client wrote (its
``api-request-blob`` copy adds nothing).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import DEFAULT_MODEL, ClaudeRunner
from .fake_api import FakeMessagesApi, ScriptedTurn, tool_use_block
from .terminal import KEY_ENTER, KEY_TAB, Terminal, wait_for_records

pytestmark = pytest.mark.client

API_KEY = "sk-ant-api03-e2e-rejection-test-key-0000000000"
FEEDBACK = "too heavy, use date-fns"


def test_a_rejection_typed_in_the_permission_prompt_is_a_typed_record(
    installed_home: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    project_dir: Path,
) -> None:
    fake_api.enqueue(
        ScriptedTurn(
            blocks=(tool_use_block("Bash", {"command": "npm install moment"}, "toolu_01m"),)
        ),
        ScriptedTurn.text("Understood: date-fns, not moment."),
    )
    terminal = Terminal(run_claude, ["--model", DEFAULT_MODEL], env={"ANTHROPIC_API_KEY": API_KEY})
    try:
        terminal.wait_for("auto mode")
        terminal.type("Add a date library.")
        terminal.type(KEY_ENTER)
        if terminal.wait_for("stay in auto mode", "Tab to amend") == "stay in auto mode":
            terminal.answer(KEY_ENTER, until="Tab to amend", unless="Do you want to proceed")
        terminal.settle()
        terminal.type(KEY_TAB)  # on No (the default): amend, then type the feedback
        terminal.type(FEEDBACK)
        terminal.type(KEY_ENTER)
        log = project_dir / ".working-state" / "decisions.jsonl"
        records = wait_for_records(log, terminal)
        terminal.wait_for("date-fns, not moment")
    finally:
        terminal.close()

    (transcript,) = run_claude.transcript_files()
    rows = run_claude.transcript_rows(transcript.stem)
    rejections = [r for r in rows if r.get("type") == "user" and r.get("toolDenialKind")]
    assert [r["toolDenialKind"] for r in rejections] == ["user-rejected"]
    blob_copies = [
        r for r in rows if r.get("type") == "api-request-blob" and "toolu_01m" in json.dumps(r)
    ]
    assert blob_copies, "the client no longer writes the api-request-blob copy"

    assert len(records) == 1, records
    (record,) = records
    assert (record["kind"], record["by"], record["source"], record["tier"]) == (
        "rejected",
        "user",
        "tool-rejection",
        "structural",
    )
    assert record["uuid"] == rejections[0]["uuid"]
    assert record["session"] == transcript.stem
    assert record["decision"] == "Bash: npm install moment"
    assert record["reason"] == FEEDBACK
    assert record["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert record["preferred"] == [{"kind": "package", "value": "date-fns"}]
    assert record["call"] == {"tool": "Bash", "command": "npm install moment"}
