"""Plan mode in the real client (2.1.332), a plan rejected then another approved, captured.

The scripted model writes its plan to the plan file the client names in plan mode's
reminder and calls ExitPlanMode with an empty input (its ``plan`` is deprecated there); the
client writes the call into the transcript with the file's text as ``plan`` and its path as
``planFilePath``. The user answers the client's dialog with "Tell Claude what to change":
"use SQLite instead of JSON files"; the model rewrites the plan file and asks again; the
user approves. The Stop hook's capture writes the plan rejection with the typed reason, the
rule that reason states, and the approval, which supersedes both. And a plan approved with
words typed in "Tell Claude what to change" (shift+tab: "approve with this feedback"): the
client writes the approval and a text block of the words in one user row; capture writes
the approved plan and the words as the user's. And a plan dialog left with Esc: a bare
rejection (then the client's interrupt row); the prompt typed next is its reason.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import ClaudeRunner
from .fake_api import FakeMessagesApi, RecordedRequest, ScriptedTurn, tool_turn, tool_use_block
from .terminal import (
    KEY_DOWN,
    KEY_ENTER,
    KEY_ESC,
    KEY_SHIFT_TAB,
    Terminal,
    answering_row,
    decisions_log,
    records_of,
    session,
    wait_for_records,
)

pytestmark = pytest.mark.client

API_KEY = "sk-ant-api03-e2e-plan-mode-test-key-0000000000"
PLAN_PATH = re.compile(r"create your plan at (\S+\.md)")
FIRST = "# Plan: invoice storage\n\n1. Store each invoice as a JSON file under data/invoices/.\n"
SECOND = "# Plan: invoice storage\n\n1. Store the invoices in SQLite (data/invoices.db).\n"
FEEDBACK = "use SQLite instead of JSON files"
FIRST_SHOWN = "JSON file under data/invoices/"
PROCEED = "Would you like to proceed?"  # the plan dialog's question


def writing(plan: str) -> Callable[[RecordedRequest], ScriptedTurn]:
    """A reply that writes ``plan`` to the plan file the request's reminder names."""

    def reply(request: RecordedRequest) -> ScriptedTurn:
        found = PLAN_PATH.search(request.body_json())
        assert found, "no plan file path in plan mode's reminder"
        write = tool_use_block("Write", {"file_path": found.group(1), "content": plan})
        return ScriptedTurn(blocks=(write,))

    return reply


@dataclass
class Planning:
    """A test's client in plan mode: the runner, its scripted model, the project's log."""

    run_claude: ClaudeRunner
    fake_api: FakeMessagesApi
    log: Path

    @contextlib.contextmanager
    def session(self, *plans: str, then: str, shown: str) -> Iterator[Terminal]:
        """A session whose scripted model answers "Plan the invoice storage." by writing
        each of ``plans`` in turn to the plan file and calling ExitPlanMode (the calls
        ``toolu_01p``, ``toolu_02p``, ...), then replies ``then``: the terminal once the
        prompt is sent and ``shown`` is drawn."""
        for index, plan in enumerate(plans, 1):
            self.fake_api.enqueue_builder(writing(plan))
            self.fake_api.enqueue(tool_turn("ExitPlanMode", {}, f"toolu_0{index}p"))
        self.fake_api.enqueue_text(then)
        args = ("--permission-mode", "plan")
        with session(self.run_claude, API_KEY, *args, ready="plan mode on") as terminal:
            terminal.send("Plan the invoice storage.")
            terminal.wait_for(shown)
            terminal.settle()
            yield terminal


@pytest.fixture
def planning(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi, project_dir: Path
) -> Planning:
    return Planning(run_claude, fake_api, decisions_log(project_dir))


def test_a_plan_rejected_in_the_dialog_then_another_approved_is_captured(
    planning: Planning,
) -> None:
    done = "Done: SQLite it is."
    with planning.session(FIRST, SECOND, then=done, shown=FIRST_SHOWN) as terminal:
        terminal.wait_for("Tell Claude what to change")
        terminal.settle()
        mark = terminal.mark()
        terminal.press(KEY_DOWN, KEY_DOWN)  # the dialog's third entry: Tell Claude what to change
        terminal.settle()
        terminal.send(FEEDBACK)
        terminal.wait_for("SQLite (data/invoices.db)", since=mark)
        terminal.wait_for(PROCEED, since=mark)
        terminal.settle()
        terminal.type(KEY_ENTER)  # the first entry: yes, and use auto mode
        wait_for_records(planning.log, terminal, 5)  # with the two supersede records

    _, rows = planning.run_claude.session_rows()
    calls = [
        block
        for row in rows
        if row.get("type") == "assistant"
        for block in row["message"]["content"]
        if block.get("type") == "tool_use" and block["name"] == "ExitPlanMode"
    ]
    assert [call["input"]["plan"] for call in calls] == [FIRST, SECOND]  # the client's copy
    assert len({call["input"]["planFilePath"] for call in calls}) == 1

    records = records_of(planning.log)
    assert [(r["kind"], r.get("by"), r.get("source")) for r in records] == [
        ("rejected", "user", "plan"),
        ("constraint", "user", "plan"),
        ("decided", "user", "plan"),
        ("supersede", None, None),
        ("supersede", None, None),
    ], records
    rejection, rule, approval, *superseded = records
    assert rejection["decision"] == (
        "ExitPlanMode: # Plan: invoice storage 1. Store each invoice as a JSON file under "
        "data/invoices/."
    )
    assert rejection["reason"] == FEEDBACK
    assert rule["decision"] == FEEDBACK
    assert approval["decision"] == (
        "approved plan: Plan: invoice storage 1. Store the invoices in SQLite (data/invoices.db)."
    )
    assert [(s["target"], s["by_record"]) for s in superseded] == [
        (rejection["id"], approval["id"]),
        (rule["id"], approval["id"]),
    ]


AMENDMENT = "and turn on WAL mode for the database"


def test_a_plan_approved_with_feedback_is_the_plan_and_the_users_words(planning: Planning) -> None:
    amended = "Implementing: SQLite, with WAL."
    with planning.session(SECOND, then=amended, shown="approve with this feedback") as terminal:
        terminal.press(KEY_DOWN, KEY_DOWN)  # Tell Claude what to change
        terminal.settle()
        terminal.type(AMENDMENT)
        terminal.settle()
        terminal.type(KEY_SHIFT_TAB)  # approve with this feedback
        records = wait_for_records(planning.log, terminal, 2)

    _, rows = planning.run_claude.session_rows()
    approval = answering_row(rows, "toolu_01p")
    result, words = approval["message"]["content"]
    assert result["content"].startswith("User has approved your plan.")
    assert words == {"type": "text", "text": AMENDMENT}
    assert [(r["kind"], r["by"], r["source"], r["uuid"]) for r in records] == [
        ("decided", "user", "plan", approval["uuid"]),
        ("decided", "user", "prompt", approval["uuid"]),
    ]
    assert [r["decision"] for r in records] == [
        "approved plan: Plan: invoice storage 1. Store the invoices in SQLite (data/invoices.db).",
        AMENDMENT,
    ]


def test_a_plan_left_with_esc_takes_the_next_prompt_as_its_reason(planning: Planning) -> None:
    with planning.session(FIRST, then="OK, SQLite then.", shown=PROCEED) as terminal:
        terminal.type(KEY_ESC)
        terminal.settle()
        terminal.send(FEEDBACK)
        (record,) = wait_for_records(planning.log, terminal)

    _, rows = planning.run_claude.session_rows()
    rejection = answering_row(rows, "toolu_01p")
    assert (rejection["toolDenialKind"], rejection["toolUseResult"]) == (
        "user-rejected",
        "User rejected tool use",
    )
    assert (record["kind"], record["by"], record["source"]) == ("rejected", "user", "plan")
    assert record["decision"] == (
        "ExitPlanMode: # Plan: invoice storage 1. Store each invoice as a JSON file under "
        "data/invoices/."
    )
    assert record["reason"] == FEEDBACK
    assert record["uuid"] == rejection["uuid"]
