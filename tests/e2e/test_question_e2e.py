"""AskUserQuestion answered in the real client's own dialog (2.1.332), captured at Stop.

The scripted model asks two questions, one after the other: the user picks the first
option of one ("date-fns" over "moment") and types an answer to the other in the dialog's
"Type something." line. The client writes the results as ``Your questions have been
answered: ...`` and ``The user answered: ...`` with ``toolUseResult: {questions, answers,
annotations}``; the Stop hook's capture writes one decision per answer (the option chosen
rules the other out as a package; the typed answer is the user's words), and the terminal
shows their capture line. After "Chat about this" the answer typed once the agent has asked
what to clarify is the decision on the question. A multi-select answer, submitted from the
dialog's Submit tab, is written as one string of the labels chosen, and rules none of the
others out. Before
session 16 the store's byte filter knew only the older ``User has answered your question``
and skipped these rows unread.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.question_rows import CHECKS, LIBRARY, STORE, with_previews

from .conftest import ClaudeRunner
from .fake_api import FakeMessagesApi, ScriptedTurn, tool_turn
from .terminal import (
    KEY_DOWN,
    KEY_ENTER,
    KEY_ESC,
    KEY_RIGHT,
    Terminal,
    decisions_log,
    session,
    tool_result_texts,
    wait_for_records,
)

pytestmark = pytest.mark.client

API_KEY = "sk-ant-api03-e2e-question-test-key-00000000000"
TYPED = "Postgres instead of both, we already run it for billing"
TALKED_OVER = "neither, we use luxon everywhere"
NOTE = "pin it to v3, the v4 beta breaks our locale imports"
POSTGRES = "neither, we keep them in postgres"


@contextlib.contextmanager
def asked(
    run_claude: ClaudeRunner, fake_api: FakeMessagesApi, prompt: str, *questions: dict[str, Any]
) -> Iterator[Terminal]:
    """A session whose scripted model asks each of ``questions`` in turn after ``prompt``,
    then replies; the terminal once the first question's dialog is drawn."""
    fake_api.enqueue(
        *(
            tool_turn("AskUserQuestion", {"questions": [question]}, f"toolu_q{index}")
            for index, question in enumerate(questions)
        ),
        ScriptedTurn.text("Understood."),
    )
    with session(run_claude, API_KEY) as terminal:
        terminal.send(prompt)
        terminal.wait_for(questions[0]["question"])
        terminal.settle()
        yield terminal


@contextlib.contextmanager
def asked_at_once(
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    questions: list[dict[str, Any]],
    *replies: str,
) -> Iterator[Terminal]:
    """A session whose scripted model asks ``questions`` in one AskUserQuestion call after
    "Set up the invoice page.", then answers with each of ``replies`` in turn; the terminal
    once the first question's dialog is drawn."""
    fake_api.enqueue(
        tool_turn("AskUserQuestion", {"questions": questions}, "toolu_q0"),
        *(ScriptedTurn.text(reply) for reply in replies),
    )
    with session(run_claude, API_KEY) as terminal:
        terminal.send("Set up the invoice page.")
        terminal.wait_for(questions[0]["question"])
        terminal.settle()
        yield terminal


def results_of(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The structured AskUserQuestion results of a session's rows."""
    return [
        row["toolUseResult"]
        for row in rows
        if row.get("type") == "user" and isinstance(row.get("toolUseResult"), dict)
    ]


def test_answers_given_in_the_clients_question_dialog_are_captured(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi, project_dir: Path
) -> None:
    log = decisions_log(project_dir)
    with asked(run_claude, fake_api, "Set up the invoice page.", LIBRARY, STORE) as terminal:
        terminal.type(KEY_ENTER)  # the cursor is on the first option: date-fns
        terminal.wait_for(STORE["question"])
        terminal.settle()
        terminal.press(KEY_DOWN, KEY_DOWN)  # to "Type something."
        terminal.settle()
        terminal.send(TYPED)
        records = wait_for_records(log, terminal, 2)
        terminal.wait_for("Stop says:")

    session_id, rows = run_claude.session_rows()
    texts = tool_result_texts(rows)
    assert [text.split(":", 1)[0] for text in texts] == [
        "Your questions have been answered",
        "The user answered",
    ]
    assert [sorted(result) for result in results_of(rows)] == [
        ["annotations", "answers", "questions"],
        ["annotations", "answers", "questions"],
    ]

    assert [(r["kind"], r["by"], r["source"], r["tier"]) for r in records] == [
        ("decided", "user", "question", "structural"),
        ("decided", "user", "question", "structural"),
    ]
    chosen, typed = records
    assert chosen["decision"] == "Which date library should the app use? → date-fns"
    assert chosen["alternatives"] == ["moment"]
    assert chosen["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert chosen["preferred"] == [{"kind": "package", "value": "date-fns"}]
    assert typed["decision"] == f"Where should the invoices be stored? → {TYPED}"
    assert typed["alternatives"] == ["SQLite", "JSON files"]
    assert {chosen["session"], typed["session"]} == {session_id}
    assert terminal.seen("Stop says: context-memory captured 2 records")


def test_a_multi_select_answer_in_the_dialog_is_one_decision_ruling_nothing_out(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi, project_dir: Path
) -> None:
    log = decisions_log(project_dir)
    with asked(run_claude, fake_api, "Set up CI.", CHECKS) as terminal:
        terminal.type(KEY_ENTER)  # lint
        terminal.settle()
        terminal.press(KEY_DOWN, KEY_ENTER)  # types
        terminal.settle()
        terminal.type(KEY_RIGHT)  # the Submit tab
        terminal.wait_for("Review your answers")
        terminal.settle()
        terminal.type(KEY_ENTER)  # Submit answers
        (record,) = wait_for_records(log, terminal)

    _, rows = run_claude.session_rows()
    answers = [result["answers"] for result in results_of(rows)]
    assert answers == [{"Which checks should CI run?": "lint, types"}]  # one string, joined
    assert (record["kind"], record["source"]) == ("decided", "question")
    assert record["decision"] == "Which checks should CI run? → lint, types"
    assert record["alternatives"] == ["e2e"]
    assert (record["ruled_out"], record["preferred"]) == ([], [])  # several chosen: none out


def test_an_answer_typed_after_chat_about_this_is_the_users_decision(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi, project_dir: Path
) -> None:
    """ "Chat about this" leaves the question to talk it over: the client writes its own
    text as the rejection's feedback and tells the agent to ask what to clarify. The user's
    question back answers nothing; the answer typed after the agent's reply is the user's
    decision on the question, with its options as the alternatives."""
    log = decisions_log(project_dir)
    replies = (
        "Sure. What would you like to know about them?",
        "date-fns is smaller: you import only the functions you use.",
        "Understood, luxon it is.",
    )
    with asked_at_once(run_claude, fake_api, [LIBRARY], *replies) as terminal:
        terminal.press(KEY_DOWN, KEY_DOWN, KEY_DOWN)  # past "Type something." to the last
        terminal.wait_for("Chat about this")
        terminal.type(KEY_ENTER)
        terminal.wait_for("What would you like to know")
        terminal.settle()
        terminal.send("which one is smaller?")
        terminal.wait_for("only the functions you use")
        terminal.settle()
        terminal.send(TALKED_OVER)
        (record,) = wait_for_records(log, terminal)
        terminal.wait_for("Stop says:")

    _, rows = run_claude.session_rows()
    feedback = tool_result_texts(rows)
    assert len(feedback) == 1
    assert "the user said:\nThe user wants to clarify these questions." in feedback[0]
    assert (record["kind"], record["by"], record["source"]) == ("decided", "user", "question")
    assert record["decision"] == f"Which date library should the app use? → {TALKED_OVER}"
    assert record["reason"] == "the user's answer, typed after choosing to talk the question over"
    assert record["alternatives"] == ["date-fns", "moment"]
    assert record["ruled_out"] == [  # "neither": both, as packages (a library question)
        {"kind": "package", "value": "date-fns"},
        {"kind": "package", "value": "moment"},
    ]
    assert record["quote"] == TALKED_OVER
    assert terminal.seen("Stop says: context-memory captured 1 record")


@pytest.mark.parametrize(
    ("leave_notes", "answer", "decision", "alternatives"),
    [
        # Esc leaves the notes' line; Enter then chooses the option they were written on
        (KEY_ESC, '"date-fns" selected preview:', f"date-fns ({NOTE})", ["moment"]),
        # Enter in the notes' line submits the notes alone, no option chosen
        ("", "(no option selected) notes:", NOTE, ["date-fns", "moment"]),
    ],
)
def test_notes_written_on_an_options_preview_are_part_of_the_answer(
    installed_home: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    project_dir: Path,
    leave_notes: str,
    answer: str,
    decision: str,
    alternatives: list[str],
) -> None:
    """Options with a ``preview`` show it beside the list; ``n`` opens "Add notes on this
    design". The client writes the notes into ``annotations`` (and the model reads
    ``notes: ...``); capture keeps them in the decision, and notes with no option chosen
    are the answer (here a version pinned: a directive, not talk)."""
    log = decisions_log(project_dir)
    with asked(
        run_claude, fake_api, "Set up the invoice page.", with_previews(LIBRARY)
    ) as terminal:
        terminal.type("n")
        terminal.wait_for("Add notes on this design")
        terminal.type(NOTE)
        terminal.settle()
        if leave_notes:
            terminal.type(leave_notes)
            terminal.settle()
        terminal.type(KEY_ENTER)
        (record,) = wait_for_records(log, terminal)

    _, rows = run_claude.session_rows()
    (result,) = results_of(rows)
    assert result["annotations"][LIBRARY["question"]]["notes"] == NOTE
    (text,) = tool_result_texts(rows)
    assert text.startswith(f'The user answered: "{LIBRARY["question"]}"={answer}')
    assert f"notes: {NOTE}." in text
    assert (record["kind"], record["by"], record["source"]) == ("decided", "user", "question")
    assert record["decision"] == f"{LIBRARY['question']} → {decision}"
    assert record["alternatives"] == alternatives


def test_after_chat_about_this_on_a_second_question_the_answer_is_to_that_one(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi, project_dir: Path
) -> None:
    """Two questions in one dialog: the user picks date-fns for the first, then "Chat about
    this" on the second. The client lists both with what was answered (``Answer: date-fns``,
    ``(No answer provided)``); the words typed after the agent's reply answer the second."""
    log = decisions_log(project_dir)
    replies = ("Sure. What would you like to know?", "Understood, Postgres.")
    with asked_at_once(run_claude, fake_api, [LIBRARY, STORE], *replies) as terminal:
        terminal.type(KEY_ENTER)  # date-fns
        terminal.wait_for(STORE["question"])
        terminal.settle()
        terminal.press(KEY_DOWN, KEY_DOWN, KEY_DOWN)  # Chat about this
        terminal.settle()
        terminal.type(KEY_ENTER)
        terminal.wait_for("What would you like to know")
        terminal.settle()
        terminal.send(POSTGRES)
        (record,) = wait_for_records(log, terminal)

    _, rows = run_claude.session_rows()
    (text,) = tool_result_texts(rows)
    assert f'- "{LIBRARY["question"]}"\n  Answer: date-fns\n' in text
    assert text.endswith(f'- "{STORE["question"]}"\n  (No answer provided)')
    assert record["decision"] == f"{STORE['question']} → {POSTGRES}"
    assert record["alternatives"] == ["SQLite", "JSON files"]
    assert record["ruled_out"] == [
        {"kind": "approach", "value": "SQLite"},
        {"kind": "approach", "value": "JSON files"},
    ]
