"""A rejection the user types in the real client's permission prompt, captured as a typed
record (issue 26, "Done when"): in an interactive session the scripted model runs
``npm install moment``; the user answers the prompt with No, Tab, "too heavy, use
date-fns"; the Stop hook's capture writes one record that rules out the package moment
(not npm) and prefers the package date-fns, from the user row the client wrote (its
``api-request-blob`` copy adds nothing). And the same call stopped with Esc at the dialog,
then a correction typed: the client writes the bare rejection (``toolDenialKind:
"user-rejected"``) and an interrupt row, the correction is the next prompt, and capture
writes one rejection of the call with the correction as its reason. And the other way:
the call approved with words (Tab on Yes, "Yes, and tell Claude what to do next"): the
client writes them as a text block beside the tool's result in the same user row, and
capture reads them as the user's prompt (a standing rule here).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import ClaudeRunner
from .fake_api import FakeMessagesApi, ScriptedTurn, tool_turn
from .terminal import (
    KEY_ENTER,
    KEY_ESC,
    KEY_TAB,
    Terminal,
    answering_row,
    decisions_log,
    session,
    wait_for_records,
)

pytestmark = pytest.mark.client

API_KEY = "sk-ant-api03-e2e-rejection-test-key-0000000000"
FEEDBACK = "too heavy, use date-fns"
CORRECTION = "use date-fns instead, moment is too heavy"


@contextlib.contextmanager
def installing_moment(run_claude: ClaudeRunner, fake_api: FakeMessagesApi) -> Iterator[Terminal]:
    """A session whose scripted model answers "Add a date library." with ``npm install
    moment`` (then "Understood: date-fns, not moment."): the terminal once the prompt is
    sent."""
    fake_api.enqueue(
        tool_turn("Bash", {"command": "npm install moment"}, "toolu_01m"),
        ScriptedTurn.text("Understood: date-fns, not moment."),
    )
    with session(run_claude, API_KEY) as terminal:
        terminal.send("Add a date library.")
        yield terminal


def assert_moment_rejected(record: dict[str, object], reason: str) -> None:
    assert (record["kind"], record["by"], record["source"], record["tier"]) == (
        "rejected",
        "user",
        "tool-rejection",
        "structural",
    )
    assert record["decision"] == "Bash: npm install moment"
    assert record["reason"] == reason
    assert record["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert record["preferred"] == [{"kind": "package", "value": "date-fns"}]


def test_a_rejection_typed_in_the_permission_prompt_is_a_typed_record(
    installed_home: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    project_dir: Path,
) -> None:
    log = decisions_log(project_dir)
    with installing_moment(run_claude, fake_api) as terminal:
        if terminal.wait_for("stay in auto mode", "Tab to amend") == "stay in auto mode":
            terminal.answer(KEY_ENTER, until="Tab to amend", unless="Do you want to proceed")
        terminal.settle()
        terminal.type(KEY_TAB)  # on No (the default): amend, then type the feedback
        terminal.type(FEEDBACK)
        terminal.type(KEY_ENTER)
        records = wait_for_records(log, terminal)
        terminal.wait_for("date-fns, not moment")

    session_id, rows = run_claude.session_rows()
    rejections = [r for r in rows if r.get("type") == "user" and r.get("toolDenialKind")]
    assert [r["toolDenialKind"] for r in rejections] == ["user-rejected"]
    blob_copies = [
        r for r in rows if r.get("type") == "api-request-blob" and "toolu_01m" in json.dumps(r)
    ]
    assert blob_copies, "the client no longer writes the api-request-blob copy"

    assert len(records) == 1, records
    (record,) = records
    assert_moment_rejected(record, FEEDBACK)
    assert record["uuid"] == rejections[0]["uuid"]
    assert record["session"] == session_id
    assert record["call"] == {"tool": "Bash", "command": "npm install moment"}


def test_a_correction_typed_after_esc_at_the_permission_dialog_rejects_the_call(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi, project_dir: Path
) -> None:
    log = decisions_log(project_dir)
    with installing_moment(run_claude, fake_api) as terminal:
        terminal.wait_for("stay in auto mode", "Do you want to proceed")
        terminal.settle()
        terminal.type(KEY_ESC)
        terminal.settle()
        terminal.send(CORRECTION)
        records = wait_for_records(log, terminal)
        terminal.wait_for("Stop says:")

    _, rows = run_claude.session_rows()
    typed = [r for r in rows if r.get("type") == "user" and not r.get("toolUseResult")]
    assert [r["message"]["content"] for r in typed][-2:] == [
        [{"type": "text", "text": "[Request interrupted by user for tool use]"}],
        CORRECTION,
    ]
    denied = [r for r in rows if r.get("toolDenialKind")]
    assert [(r["toolDenialKind"], r["toolUseResult"]) for r in denied] == [
        ("user-rejected", "User rejected tool use")
    ]
    (record,) = records
    assert_moment_rejected(record, CORRECTION)


APPROVAL_WORDS = "ok, but from now on always use pnpm"


def test_words_typed_with_an_approval_are_the_users_prompt(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi, project_dir: Path
) -> None:
    log = decisions_log(project_dir)
    fake_api.enqueue(
        tool_turn("Bash", {"command": "echo hi > out.txt"}, "toolu_01e"),
        ScriptedTurn.text("Done, and noted: pnpm from now on."),
    )
    with session(run_claude, API_KEY, "--permission-mode", "default", ready="❯") as terminal:
        terminal.pause(2.0)
        terminal.send("Write hi to out.txt.")
        terminal.wait_for("Tab to amend")
        terminal.settle()
        terminal.type(KEY_TAB)  # on Yes (the default in manual mode)
        terminal.wait_for("tell Claude what to do next")
        terminal.type(APPROVAL_WORDS)
        terminal.type(KEY_ENTER)
        (record,) = wait_for_records(log, terminal)
        terminal.wait_for("Stop says:")

    _, rows = run_claude.session_rows()
    approved = answering_row(rows, "toolu_01e")
    assert [block["type"] for block in approved["message"]["content"]] == ["tool_result", "text"]
    assert approved["message"]["content"][1]["text"] == APPROVAL_WORDS
    assert approved["message"]["content"][0]["is_error"] is False
    kind = (record["kind"], record["by"], record["source"], record["tier"])
    assert kind == ("constraint", "user", "prompt", "stated")
    assert record["decision"] == APPROVAL_WORDS
    assert record["uuid"] == approved["uuid"]
    assert record["preferred"] == [{"kind": "command", "value": "pnpm"}]
