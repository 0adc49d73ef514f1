"""AskUserQuestion as Claude Code 2.1.332 writes it: the questions the tests ask, the texts
the client answers with, and the call and result rows around them.

The texts are the client's (its AskUserQuestion tool's ``mapToolResultToToolResultBlockParam``;
tests/e2e/test_question_e2e.py sees them written by the real client): ``ANSWERED`` when every
answer is one of the options, ``TYPED`` when one is typed; the structured result is
``toolUseResult: {"questions", "answers", "annotations", ...}``.
"""

from __future__ import annotations

from typing import Any

VERSION = "2.1.332"


def question(
    text: str, header: str, *options: tuple[str, str], multi: bool = False
) -> dict[str, Any]:
    """One question as the agent's AskUserQuestion call asks it: (label, description)
    options."""
    return {
        "question": text,
        "header": header,
        "options": [{"label": label, "description": about} for label, about in options],
        "multiSelect": multi,
    }


LIBRARY = question(
    "Which date library should the app use?",
    "Library",
    ("date-fns", "Tree-shakable functions"),
    ("moment", "One big object, heavy"),
)
STORE = question(
    "Where should the invoices be stored?",
    "Storage",
    ("SQLite", "One file next to the app"),
    ("JSON files", "One file per invoice"),
)
CHECKS = question(
    "Which checks should CI run?",
    "CI",
    ("lint", "ruff"),
    ("types", "mypy"),
    ("e2e", "slow"),
    multi=True,
)


def with_previews(asked: dict[str, Any]) -> dict[str, Any]:
    """``asked`` with a ``preview`` on each option: the dialog then shows the focused
    option's preview beside the list, and ``n`` adds notes on it ("Add notes on this
    design")."""
    options = [
        {**option, "preview": f"import {{ format }} from '{option['label']}'"}
        for option in asked["options"]
    ]
    return {**asked, "options": options}


ANSWERED = (
    "Your questions have been answered: {pairs}. You can now continue with these answers in mind."
)
TYPED = (
    "The user answered: {pairs}. Read the answers carefully \u2014 they may request "
    "clarification, changes, or that you not proceed \u2014 and follow what they actually say."
)


def question_call(call_id: str, questions: list[dict[str, Any]]) -> dict[str, Any]:
    """The assistant row that asks ``questions``."""
    block = {
        "type": "tool_use",
        "id": call_id,
        "name": "AskUserQuestion",
        "input": {"questions": questions},
    }
    return {
        "type": "assistant",
        "isSidechain": False,
        "uuid": f"a-{call_id}",
        "version": VERSION,
        "message": {"role": "assistant", "content": [block]},
    }


def question_result(
    call_id: str, text: str, tool_use_result: object, *, is_error: bool = False, **extra: Any
) -> dict[str, Any]:
    """The user row the client writes in answer: ``text`` for the model, the structured
    ``tool_use_result`` beside it (a rejection's ``Error: ...`` with ``is_error``)."""
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": text}
    if is_error:
        block["is_error"] = True
    return {
        "type": "user",
        "isSidechain": False,
        "uuid": f"r-{call_id}",
        "version": VERSION,
        "timestamp": "2026-11-30T09:10:51.029Z",
        "sourceToolAssistantUUID": f"a-{call_id}",
        "message": {"role": "user", "content": [block]},
        "toolUseResult": tool_use_result,
        **extra,
    }


def answered_rows(
    questions: list[dict[str, Any]], result: dict[str, Any], text: str, call_id: str = "q1"
) -> list[dict[str, Any]]:
    """A call asking ``questions`` and its answer: ``text``, and ``result`` with the
    questions as the structured result."""
    answer = question_result(call_id, text, {"questions": questions, **result})
    return [question_call(call_id, questions), answer]
