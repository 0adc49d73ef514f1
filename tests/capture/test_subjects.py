"""Typed subjects of a rejected plan and of an answered question (capture/subjects.py,
capture/question.py): a plan is rejected for what the feedback names among the packages its
shell lines add; choosing one option of a library question rules the others out."""

from __future__ import annotations

from context_memory.capture.question import choice_subjects
from context_memory.capture.subjects import named_in, plan_packages

PKG = "package"


def test_plan_packages_reads_numbered_bulleted_and_backticked_shell_lines() -> None:
    plan = (
        "# Plan\n1. npm install moment\n2) `pnpm add lodash@4`\n- $ pip install requests\n"
        "* Run yarn add left-pad later\n```\nnpm i dayjs\n```\nFormat dates with moment()."
    )
    assert plan_packages(plan) == [
        {"kind": PKG, "value": "moment"},
        {"kind": PKG, "value": "lodash"},
        {"kind": PKG, "value": "requests"},
        {"kind": PKG, "value": "dayjs"},
    ]


def test_plan_packages_of_a_plan_without_install_lines_is_empty() -> None:
    assert plan_packages("1. Edit src/app.ts\n2. npm test\n3. Mention moment in the docs") == []


def test_named_in_takes_whole_words_only() -> None:
    items = [{"kind": PKG, "value": "moment"}, {"kind": PKG, "value": "react"}]
    assert named_in(items, "not moment: too heavy") == [items[0]]  # type: ignore[arg-type]
    assert named_in(items, "keep momentum, use preact") == []  # type: ignore[arg-type]
    assert named_in(items, "No React, no MOMENT.") == items  # type: ignore[arg-type]


def _answer(
    question: str, labels: list[str], chosen: str, multi: bool = False
) -> dict[str, object]:
    questions = [
        {
            "question": question,
            "header": "Pick",
            "multiSelect": multi,
            "options": [{"label": label, "description": ""} for label in labels],
        }
    ]
    return {"toolUseResult": {"questions": questions, "answers": {question: chosen}}}


def test_a_library_question_rules_out_the_labels_not_chosen_as_packages() -> None:
    row = _answer(
        "Which date library should the invoice page use?", ["moment", "date-fns"], "date-fns"
    )
    assert choice_subjects(row) == (
        [{"kind": PKG, "value": "moment"}],
        [{"kind": PKG, "value": "date-fns"}],
    )


def test_a_question_about_something_else_gives_approaches_only() -> None:
    row = _answer("How should errors be shown?", ["Toast", "Inline message"], "Toast")
    assert choice_subjects(row) == (
        [{"kind": "approach", "value": "Inline message"}],
        [{"kind": "approach", "value": "Toast"}],
    )


def test_a_library_label_of_several_words_is_an_approach() -> None:
    row = _answer("Which 依赖 should we add?", ["date fns v3", "dayjs"], "dayjs")
    assert choice_subjects(row) == (
        [{"kind": "approach", "value": "date fns v3"}],
        [{"kind": PKG, "value": "dayjs"}],
    )


def test_free_text_and_multi_select_answers_name_no_subject() -> None:
    assert choice_subjects(_answer("Which library?", ["a", "b"], "neither, write our own")) == (
        [],
        [],
    )
    assert choice_subjects(_answer("Which libraries?", ["a", "b"], "a", multi=True)) == ([], [])
    assert choice_subjects({"toolUseResult": "Error: x"}) == ([], [])
