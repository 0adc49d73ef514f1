"""ctx-guard on the typed model, end to end with the real client (issue 27, "Done when").

Session 1: the scripted model runs ``npm install moment``; the user rejects it in the
permission prompt with the reason "too heavy, use date-fns". ``claude -p`` has no
permission prompt, so the call is refused by the client there, and the test answers it as
the user would have: the refused call's tool_result row of the transcript that session
produced is replaced by the row 2.1.332 writes for a rejection with typed feedback
(protocol file section 11: "To tell you how to proceed, the user said:\\n<reason>",
``toolDenialKind: "user-rejected"``, ``sourceToolAssistantUUID``). The installed
``ctx-capture`` then captures that transcript into the project's decisions log (capture at
Stop is off in session 1, so that it does not read the transcript before the answer).

Session 2, NEW (not ``--continue``): the scripted model runs ``yarn add moment``: the hook
asks, which in ``claude -p`` refuses the call and gives the model the user's reason; a
Write of docs/dates.md saying "we use date-fns, not moment" runs with no remark; ``npm
test`` and ``npm install date-fns`` run with no remark. ``npm`` and ``yarn`` are fakes first
on PATH that record their arguments, and both are allowed in the user's settings (Write
too): only the hook can stop a call.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from .conftest import ClaudeRunner, allow, run_command
from .fake_api import FakeMessagesApi, ScriptedTurn, result_text, tool_result, tool_use_block

pytestmark = pytest.mark.client

REASON = "too heavy, use date-fns"
REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). To tell you how to proceed, "
    "the user said:\n"
)
DOC = "# Dates\n\nWe use date-fns, not moment.\n"


def turn(name: str, tool_input: dict[str, Any], tool_id: str) -> ScriptedTurn:
    return ScriptedTurn(blocks=(tool_use_block(name, tool_input, tool_id),))


def fake_programs(folder: Path, calls: Path, *names: str) -> None:
    """Each of ``names`` in ``folder``: records ``<name> <arguments>`` in ``calls``."""
    folder.mkdir()
    for name in names:
        program = folder / name
        program.write_text(
            f'#!/bin/sh\nprintf "%s %s\\n" "{name}" "$*" >> "{calls}"\necho "done: {name}"\n'
        )
        program.chmod(0o755)


def answer_as_rejected(transcript: Path, tool_id: str, reason: str) -> None:
    """The user's answer in the permission prompt: the row that answers ``tool_id`` becomes
    2.1.332's rejection with typed feedback (every other row is left as the client wrote
    it)."""
    rows = [json.loads(line) for line in transcript.read_text().splitlines() if line.strip()]
    calls = {
        block.get("id"): row.get("uuid")
        for row in rows
        if row.get("type") == "assistant"
        for block in (row.get("message") or {}).get("content") or ()
        if isinstance(block, dict) and block.get("type") == "tool_use"
    }
    text = REJECTED + reason
    answered = 0
    for row in rows:
        content = (row.get("message") or {}).get("content")
        if row.get("type") != "user" or not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("tool_use_id") == tool_id:
                block.update(type="tool_result", content=text, is_error=True)
                row.update(
                    toolUseResult=f"Error: {text}",
                    toolDenialKind="user-rejected",
                    sourceToolAssistantUUID=calls[tool_id],
                )
                answered += 1
    assert answered == 1, rows
    transcript.write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_a_rejected_package_is_stopped_in_a_new_session_and_nothing_else_is(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    project_dir: Path,
    tmp_path: Path,
) -> None:
    folder, calls = tmp_path / "fake-bin", tmp_path / "calls.txt"
    fake_programs(folder, calls, "npm", "yarn")
    (project_dir / ".git").mkdir()
    env = {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}

    # Session 1: npm install moment, not allowed: the client refuses it (no prompt in -p).
    fake_api.enqueue(
        turn("Bash", {"command": "npm install moment"}, "toolu_01moment"),
        ScriptedTurn.text("I will wait for your decision."),
    )
    run_claude("Add a date library for the report.", env={**env, "CTX_CAPTURE": "off"})
    assert not calls.exists()  # it did not run
    (transcript,) = run_claude.transcript_files()
    answer_as_rejected(transcript, "toolu_01moment", REASON)
    done = run_command(ctx_venv, "ctx-capture", str(transcript), cwd=project_dir)
    assert done.returncode == 0, done.stderr
    log = project_dir / ".working-state" / "decisions.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    rejected = [r for r in records if r["kind"] == "rejected"]
    assert [(r["by"], r["source"], r["reason"], r["call"]) for r in rejected] == [
        ("user", "tool-rejection", REASON, {"tool": "Bash", "command": "npm install moment"})
    ]

    # Session 2, a new one: yarn add moment is stopped; the rest runs with no remark.
    allow(installed_home, "Bash(npm:*)", "Bash(yarn:*)", "Write")
    doc = project_dir / "docs" / "dates.md"
    (project_dir / "docs").mkdir()
    fake_api.enqueue(
        turn("Bash", {"command": "yarn add moment"}, "toolu_02yarn"),
        turn("Write", {"file_path": str(doc), "content": DOC}, "toolu_03doc"),
        turn("Bash", {"command": "npm test"}, "toolu_04test"),
        turn("Bash", {"command": "npm install date-fns"}, "toolu_05datefns"),
        ScriptedTurn.text("Done."),
    )
    fake_api.clear_requests()
    run_claude("Format the report's dates.", env=env)
    assert len(run_claude.transcript_files()) == 2  # a new session, not a continued one
    assert calls.read_text() == "npm test\nnpm install date-fns\n"  # yarn never ran
    refusal = result_text(tool_result(fake_api, "toolu_02yarn"))
    assert "too heavy, use date-fns" in refusal  # the user's reason
    assert "npm install moment" in refusal and "yarn add moment" in refusal
    assert "ctx-guard" in refusal
    assert doc.read_text() == DOC
    assert "done: npm" in result_text(tool_result(fake_api, "toolu_04test"))
    assert "done: npm" in result_text(tool_result(fake_api, "toolu_05datefns"))
    # No reminder on any of them (remind_text's words), in any request the model got.
    texts = [json.dumps(request.messages) for request in fake_api.main_requests()]
    assert not any("ruled out on" in text or "CONTEXT MEMORY" in text for text in texts)
