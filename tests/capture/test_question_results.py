"""AskUserQuestion results in the shapes 2.1.332 writes them, read from the real client
(its AskUserQuestion tool's ``call`` and ``mapToolResultToToolResultBlockParam``): a
multi-select answer is a list of labels; ``annotations`` holds the notes typed beside an
answer (``"(notes only)"`` as the answer where no option was chosen); ``response`` is a reply
typed instead of answering; ``afkTimeoutMs`` is an idle user who submitted nothing; the
text the model reads starts ``Your questions have been answered:`` (every answer an
option), ``The user answered:`` (some typed) or ``The user responded:``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from context_memory.capture.dialogue import MAX_OPEN_PROMPTS, bounded_offer
from context_memory.capture.engine import Capturer
from helpers.question_rows import (
    ANSWERED,
    CHECKS,
    LIBRARY,
    STORE,
    TYPED,
    answered_rows,
    question_call,
    question_result,
)
from helpers.transcript_rows import assistant, tool_use, usage, user


def capture(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    capturer = Capturer()
    items = [item for row in rows for item in capturer.feed(row)]
    return items + capturer.flush()


def test_a_multi_select_answer_is_one_decision_naming_every_label_chosen() -> None:
    rows = answered_rows(
        [CHECKS],
        {"answers": {CHECKS["question"]: ["lint", "types"]}},
        ANSWERED.format(pairs=f'"{CHECKS["question"]}"="lint,types"'),
    )
    (item,) = capture(rows)
    assert (item["kind"], item["by"], item["source"]) == ("decided", "user", "question")
    assert item["decision"] == "Which checks should CI run? → lint, types"
    assert item["alternatives"] == ["e2e"]
    # Several labels chosen rule none of the others out.
    assert (item["ruled_out"], item["preferred"]) == ([], [])


def test_notes_typed_beside_an_answer_are_part_of_it_and_the_label_still_types_it() -> None:
    question = LIBRARY["question"]
    rows = answered_rows(
        [LIBRARY],
        {
            "answers": {question: "date-fns"},
            "annotations": {question: {"notes": "and only import the functions we use"}},
        },
        TYPED.format(pairs=f'"{question}"="date-fns" notes: and only import the functions we use'),
    )
    (item,) = capture(rows)
    assert item["decision"] == (
        "Which date library should the app use? → date-fns (and only import the functions we use)"
    )
    assert item["alternatives"] == ["moment"]
    assert [s["value"] for s in item["preferred"]] == ["date-fns"]
    assert [(s["kind"], s["value"]) for s in item["ruled_out"]] == [("package", "moment")]


@pytest.mark.parametrize(
    ("notes", "decision"),
    [
        (
            "Luxon instead of both, we already use it in the admin app",
            "Which date library should the app use? → "
            "Luxon instead of both, we already use it in the admin app",
        ),
        ("I would first like you to walk me through what each of these costs us", None),
    ],
)
def test_notes_with_no_option_chosen_are_an_answer_typed_as_text(
    notes: str, decision: str | None
) -> None:
    question = LIBRARY["question"]
    rows = answered_rows(
        [LIBRARY],
        {"answers": {question: "(notes only)"}, "annotations": {question: {"notes": notes}}},
        TYPED.format(pairs=f'"{question}"="(notes only)" notes: {notes}'),
    )
    assert [item["decision"] for item in capture(rows)] == ([decision] if decision else [])


def test_a_reply_typed_instead_of_answering_is_the_answer_and_the_answers_are_not() -> None:
    question = LIBRARY["question"]
    said = "date-fns, but check the bundle size first"
    rows = answered_rows(
        [LIBRARY],
        {"answers": {question: "moment"}, "response": said},
        f"The user responded: {said}",
    )
    (item,) = capture(rows)
    assert item["decision"] == f"{question} → {said}"
    assert item["reason"] == "the answer the user typed in place of the question's options"
    assert item["alternatives"] == ["moment"]


def test_an_idle_user_who_submitted_nothing_settled_nothing() -> None:
    question = LIBRARY["question"]
    rows = answered_rows(
        [LIBRARY],
        {"answers": {question: "moment"}, "afkTimeoutMs": 300000},
        f'The user went idle. Before going idle the user had selected: "{question}"="moment".',
    )
    assert capture(rows) == []


@pytest.mark.parametrize(
    "text",
    [
        ANSWERED.format(pairs='"Which date library should the app use?"="date-fns"'),
        TYPED.format(pairs='"Which date library should the app use?"="date-fns"'),
        'The user asked for more questions before you proceed. So far they answered: "Which '
        'date library should the app use?"="date-fns". Call AskUserQuestion again with '
        "follow-up questions that build on these answers (do not repeat these); do not start "
        "the task yet.",
    ],
)
def test_with_the_call_forgotten_the_newer_texts_are_still_an_answer(text: str) -> None:
    _, result = answered_rows([LIBRARY], {"answers": {LIBRARY["question"]: "date-fns"}}, text)
    (item,) = capture([result])  # an older state: the call is not remembered
    assert item["decision"] == "Which date library should the app use? → date-fns"
    # The same text printed by a tool, with no structured result, is that tool's output.
    printed = {**result, "toolUseResult": {"stdout": text, "stderr": ""}}
    assert capture([printed]) == []


def test_questions_left_unanswered_settle_nothing() -> None:
    unanswered = "The user did not answer the questions."
    rows = answered_rows([LIBRARY, CHECKS], {"answers": {}}, unanswered)
    assert capture(rows) == []


CLARIFY = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). To tell you how to proceed, "
    "the user said:\nThe user wants to clarify these questions.\n    This means they may have "
    "additional information, context or questions for you.\n    Take their response into "
    "account and then reformulate the questions if appropriate.\n    Start by asking them what "
    "they would like to clarify.\n\n    Questions asked:\n"
    '- "{question}"\n  {answer}'
)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Which date library should the app use?", "(No answer provided)"),
        ("Which date library should the app use?", "Answer: date-fns"),
        ("Pick the date library for the app", "Answer: date-fns"),  # no question mark
    ],
)
def test_chat_about_this_is_the_clients_text_and_settles_nothing(
    question: str, answer: str
) -> None:
    """ "Chat about this" in the question dialog: the client writes its own text where the
    user's words go (seen in 2.1.332, ``holdsPersonsWords: true`` notwithstanding), with the
    answers given so far; the user chose to talk it over, so nothing is settled."""
    text = CLARIFY.format(question=question, answer=answer)
    rejected = question_result(
        "q1",
        text,
        f"Error: {text}",
        is_error=True,
        toolDenialKind="user-rejected",
        userFeedback=text.split("the user said:\n", 1)[1],
        holdsPersonsWords=True,
    )
    call = question_call("q1", [{**LIBRARY, "question": question}])
    assert capture([call, rejected]) == []


def talked_over(*turns: str) -> list[dict[str, Any]]:
    """A question left with "Chat about this", then the agent's and the user's turns in
    turn (agent first: the client tells it to ask what the user would like to clarify)."""
    text = CLARIFY.format(question=LIBRARY["question"], answer="(No answer provided)")
    rows = [
        question_call("q1", [LIBRARY]),
        question_result("q1", text, f"Error: {text}", is_error=True,
                        toolDenialKind="user-rejected"),
    ]  # fmt: skip
    for index, said in enumerate(turns):
        rows.append(assistant(f"msg_{index}", usage(), text=said) if index % 2 == 0 else user(said))
    return rows


ASKED_BACK = "What would you like to know about them?"
EXPLAINED = "date-fns is smaller: you import only the functions you use."


def test_an_answer_typed_after_chat_about_this_answers_the_question() -> None:
    rows = talked_over(ASKED_BACK, "which one is smaller?", EXPLAINED,
                       "neither, we use luxon everywhere")  # fmt: skip
    (item,) = capture(rows)
    assert (item["kind"], item["by"], item["source"], item["tier"]) == (
        "decided", "user", "question", "structural",
    )  # fmt: skip
    assert item["decision"] == (
        "Which date library should the app use? → neither, we use luxon everywhere"
    )
    assert item["reason"] == "the user's answer, typed after choosing to talk the question over"
    assert item["alternatives"] == ["date-fns", "moment"]
    assert item["uuid"] == rows[-1]["uuid"]


def test_an_option_named_after_chat_about_this_is_the_choice_of_it() -> None:
    (item,) = capture(talked_over(ASKED_BACK, "which one is smaller?", EXPLAINED, "date-fns then"))
    assert item["decision"] == "chose option 1: date-fns (Tree-shakable functions)"
    assert item["reason"] == (
        "the user's reply to the options the agent offered: Which date library should the app use?"
    )


def test_new_options_the_agent_offers_replace_the_question_talked_over() -> None:
    offered = "Two other ways:\n1. luxon\n2. dayjs\n\nWhich one do you prefer?"
    (item,) = capture(talked_over(ASKED_BACK, "any others?", offered, "2"))
    assert item["decision"] == "chose option 2: dayjs"


def test_the_question_talked_over_closes_after_the_prompts_it_stays_open_for() -> None:
    turns = [ASKED_BACK]
    for index in range(MAX_OPEN_PROMPTS):
        turns += [f"is it still maintained in {2024 + index}?", EXPLAINED]
    assert capture(talked_over(*turns, "neither, we use luxon everywhere")) == []


def test_the_first_answer_closes_the_question_talked_over() -> None:
    rows = talked_over(ASKED_BACK, "neither, we use luxon everywhere", "Noted.",
                       "also update the readme")  # fmt: skip
    assert [item["quote"] for item in capture(rows)] == ["neither, we use luxon everywhere"]


def test_a_prompt_after_a_question_left_with_esc_only_picks() -> None:
    """Esc on the question (no feedback) ends the turn: the next prompt may pick one of its
    options, but words that name none are not taken for its answer (the user may have
    moved on)."""
    text = "The user doesn't want to proceed with this tool use. The tool use was rejected."
    rows = [
        question_call("q1", [LIBRARY]),
        question_result("q1", text, f"Error: {text}", is_error=True,
                        toolDenialKind="user-rejected"),
        user("neither, we use luxon everywhere"),
    ]  # fmt: skip
    assert capture(rows) == []


def test_the_question_talked_over_is_carried_between_hook_runs() -> None:
    rows = talked_over(ASKED_BACK, "which one is smaller?", EXPLAINED,
                       "neither, we use luxon everywhere")  # fmt: skip
    first = Capturer()
    assert [item for row in rows[:-1] for item in first.feed(row)] == []
    state = first.to_state()
    assert state["dialogue"]["offer"]["open"] == MAX_OPEN_PROMPTS - 1
    second = Capturer(json.loads(json.dumps(state)))
    (item,) = second.feed(rows[-1]) + second.flush()
    assert item["quote"] == "neither, we use luxon everywhere"


@pytest.mark.parametrize("carried", [0, -1, MAX_OPEN_PROMPTS + 1, "3", True])
def test_an_open_count_out_of_bounds_in_a_carried_state_is_dropped(carried: object) -> None:
    offer = bounded_offer({"options": [["1", "a"], ["2", "b"]], "open": carried})
    assert offer == {"options": [["1", "a"], ["2", "b"]]}


def test_after_chat_about_this_the_answer_is_to_the_first_question_not_answered() -> None:
    """Of several questions, those answered in the dialog before "Chat about this" are
    listed with their ``Answer:``; what the user types next answers the one they talk over
    (as the real client writes it: tests/e2e/test_question_e2e.py)."""
    text = CLARIFY.format(question=LIBRARY["question"], answer="Answer: date-fns") + (
        f'\n- "{STORE["question"]}"\n  (No answer provided)'
    )
    rows = [
        question_call("q1", [LIBRARY, STORE]),
        question_result("q1", text, f"Error: {text}", is_error=True,
                        toolDenialKind="user-rejected"),
        assistant("msg_0", usage(), text=ASKED_BACK),
        user("neither, we keep them in postgres"),
    ]  # fmt: skip
    (item,) = capture(rows)
    assert item["decision"] == (
        "Where should the invoices be stored? → neither, we keep them in postgres"
    )
    assert item["alternatives"] == ["SQLite", "JSON files"]


@pytest.mark.parametrize(
    "answer",
    [
        "neither, we use luxon everywhere",
        "None of them: we already ship luxon",
        "都不要，我们用 luxon",
        "どちらも使わない。luxon を使う",
        "둘 다 아니야, luxon 써",
        "Ninguno, usamos luxon",
        "Keins davon, wir nehmen luxon",
        "Aucun des deux, on utilise luxon",
        "Nenhum, usamos luxon",
        "Ни то ни другое, берём luxon",
    ],
)
def test_an_answer_that_turns_every_option_down_rules_them_all_out(answer: str) -> None:
    """Each language's NEITHER: the typed answer turns down every option offered, so both
    are ruled out (packages: the question asks for a library), whatever it prefers."""
    rows = talked_over(ASKED_BACK, answer)
    (item,) = capture(rows)
    assert item["decision"] == f"{LIBRARY['question']} → {answer}"
    assert item["ruled_out"] == [
        {"kind": "package", "value": "date-fns"},
        {"kind": "package", "value": "moment"},
    ]


def test_neither_later_in_an_answer_rules_no_option_out() -> None:
    """Only an answer that starts by turning every option down rules them all out."""
    answer = "date-fns, but neither of the locale plugins"
    (item,) = capture(talked_over(ASKED_BACK, answer))
    assert item["decision"] == f"{LIBRARY['question']} → {answer}"
    assert (item["ruled_out"], item["preferred"]) == ([], [])


@pytest.mark.parametrize(
    ("call", "closed"),
    [
        (("WebSearch", {"query": "date-fns vs moment bundle size"}), False),
        (("Read", {"file_path": "/src/package.json"}), False),
        (("Edit", {"file_path": "/src/a.ts", "old_string": "a", "new_string": "b"}), True),
        (("AskUserQuestion", {"questions": [STORE]}), True),
    ],
)
def test_a_call_that_moves_the_work_on_closes_the_question_talked_over(
    call: tuple[str, dict[str, Any]], closed: bool
) -> None:
    """A lookup while the question is talked over leaves it open; an edit or a new question
    moves the work on, and the next prompt ("now the auth page") answers nothing."""
    tool, tool_input = call
    rows = talked_over(ASKED_BACK, "which one is smaller?")
    rows.append(assistant("msg_call", usage(), content=[tool_use(tool, tool_input)]))
    rows.append(assistant("msg_after", usage(), text=EXPLAINED))
    rows.append(user("luxon"))
    items = capture(rows)
    assert [item["quote"] for item in items] == ([] if closed else ["luxon"])


@pytest.mark.parametrize("prompt", ["continue", "go on", "ok, carry on"])
def test_go_on_after_chat_about_this_answers_nothing(prompt: str) -> None:
    assert capture(talked_over(ASKED_BACK, prompt)) == []
