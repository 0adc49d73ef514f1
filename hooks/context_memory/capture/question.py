"""Source c: ``AskUserQuestion``. The answer the user chose is their decision; the options
not chosen are its alternatives, and its typed subjects (choice_subjects): the label chosen
preferred, the others ruled out (packages when the question asks for a library).

The result row carries ``toolUseResult: {"questions": [{"question", "options": [{"label",
...}], ...}], "answers": {question: answer}}``: the chosen options' descriptions are the
item's reason (what the choice means, often in the agent's words); its text reads
``User has answered your questions: "Q"="A", "Q2"="A2". You can now continue ...``, which
is parsed when the structured form is missing (older rows, damaged rows) and the result
answers a call known to be an ``AskUserQuestion``. Any other tool's output that quotes the
text (a ``cat`` of a file) is that tool's: ``is_answer`` tells them apart.
"""

from __future__ import annotations

import re

from context_memory import TYPE_CHECKING
from context_memory.capture.cues import cues_for
from context_memory.capture.items import make_item
from context_memory.capture.prompts import classify
from context_memory.capture.text import MAX_SCAN, clip
from context_memory.core.subject import subject
from context_memory.memory.constraint import subject_fields

if TYPE_CHECKING:
    from typing import Any

    from context_memory.capture.items import Item
    from context_memory.core.subject import Subject

ANSWER_START = "User has answered your question"
# Words of a question that asks which library (package, dependency, framework) to use: its
# one-word option labels are packages then. Lowercase; matched as parts of the question.
LIBRARY_WORDS = (
    "librar", "package", "dependenc", "framework", "module", " lib ", " lib?",
    "库", "包", "依赖", "框架", "ライブラリ", "パッケージ", "라이브러리", "패키지",
    "biblioteca", "paquete", "bibliothèque", "bibliothek", "paket", "библиотек", "пакет",
)  # fmt: skip
_PAIR = re.compile(r'"([^"\n]{1,400})"="([^"\n]{0,400})"')
MAX_QUESTIONS = 8
MAX_DECISION = 300  # the record's one line (decisions' MAX_CAPTURED_TEXT)
MAX_DESCRIPTION = 1000  # characters of a chosen option's description read
# A free-text answer longer than this (one that names none of the options) is read as a
# message: it settles a choice only where it states one. Latin characters; a letter of
# another script counts as three (a Han character says what three or four Latin ones do).
MAX_PLAIN_ANSWER = 40
MAX_OFFERED = 200  # characters of an offered option or question a turned-down question keeps


def _answers(row: dict[str, Any], text: str) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """([(question, answer)], alternatives not chosen, descriptions of the chosen options)."""
    result = row.get("toolUseResult")
    pairs: list[tuple[str, str]] = []
    others: list[str] = []
    described: list[str] = []
    labels: list[str] = []
    if isinstance(result, dict) and isinstance(result.get("answers"), dict):
        answers = result["answers"]
        for question, answer in list(answers.items())[:MAX_QUESTIONS]:
            if isinstance(question, str) and isinstance(answer, str):
                pairs.append((question, answer))
        questions = result.get("questions")
        for entry in questions[:MAX_QUESTIONS] if isinstance(questions, list) else []:
            if not isinstance(entry, dict):
                continue
            asked = entry.get("question")
            chosen = answers.get(asked, "") if isinstance(asked, str) else ""
            chosen = chosen if isinstance(chosen, str) else ""
            options = entry.get("options")
            for option in options[:8] if isinstance(options, list) else []:
                label = option.get("label") if isinstance(option, dict) else None
                if not isinstance(label, str) or not label:
                    continue
                labels.append(label)
                if label not in chosen:
                    others.append(label)
                elif not _settles_nothing(chosen):
                    about = option.get("description") if isinstance(option, dict) else None
                    if isinstance(about, str) and about.strip():
                        described.append(about[:MAX_DESCRIPTION])
    if not pairs:
        pairs = _PAIR.findall(text[:MAX_SCAN])[:MAX_QUESTIONS]
    settled = [(q, a) for q, a in pairs if not _settles_nothing(a) and not _talk(a, labels)]
    return settled, others, described


_ASKS = re.compile(r"[?？]|[吗嗎呢][。！!]*$|ですか[。]*$|か[？?。]*$")


def _settles_nothing(answer: str) -> bool:
    """An answer that settles no choice: a question back (a question mark anywhere, a
    question particle at its end), or unsure, deferred, to be discussed, "show me first"
    (the DEFERS of its languages' tables), typed as free text or chosen as an option
    ("需要讨论"): the labelling rules label no deferral."""
    if _ASKS.search(answer.strip()):
        return True
    return any(pattern.search(answer) for pattern in cues_for(answer).defers)


def _talk(answer: str, labels: list[str]) -> bool:
    """A free-text answer that goes on talking instead of choosing: longer than
    MAX_PLAIN_ANSWER, naming none of the options, stating no directive in its language
    ("I need you to talk it through with me first", "all three of the above are what I
    need"): the labelling rules count an answer where it settles a distinct choice, and
    not the facts or thoughts it states."""
    if not labels:  # the options are not known (the text form): nothing to tell it from
        return False
    text = answer.strip()
    size = len(text) + 2 * sum(1 for c in text if c.isalpha() and not c.isascii())
    if size <= MAX_PLAIN_ANSWER or any(label in answer for label in labels):
        return False
    return classify(answer) is None


QUESTION_TOOLS = ("AskUserQuestion",)


def _structured(row: dict[str, Any]) -> bool:
    result = row.get("toolUseResult")
    return (
        isinstance(result, dict)
        and isinstance(result.get("answers"), dict)
        and isinstance(result.get("questions"), list)
    )


def is_answer(row: dict[str, Any], text: str, tool: str) -> bool:
    """An AskUserQuestion result: it answers a call of that tool, or (its call no longer
    remembered) it carries the client's ``{questions, answers}``."""
    if tool:
        return tool in QUESTION_TOOLS
    return _structured(row) and text.startswith(ANSWER_START)


def _option_subject(label: str, library: bool) -> Subject | None:
    """An option label as a subject: a package where the question asks for a library and
    the label is one word, else an approach (which only reminds)."""
    one_word = bool(label.strip()) and " " not in label.strip()
    return subject("package" if library and one_word else "approach", label)


def choice_subjects(row: dict[str, Any]) -> tuple[list[Subject], list[Subject]]:
    """(ruled_out, preferred) of the client's structured answers: per single-select
    question answered with one of its labels, the label chosen is preferred and the other
    labels are ruled out (choosing date-fns over moment rules moment out)."""
    result = row.get("toolUseResult")
    if not isinstance(result, dict):
        return [], []
    answers, questions = result.get("answers"), result.get("questions")
    if not isinstance(answers, dict) or not isinstance(questions, list):
        return [], []
    out: list[Subject | None] = []
    preferred: list[Subject | None] = []
    for entry in questions[:MAX_QUESTIONS]:
        if not isinstance(entry, dict) or entry.get("multiSelect") is True:
            continue
        question = entry.get("question")
        chosen = answers.get(question) if isinstance(question, str) else None
        options = entry.get("options")
        labels = [
            o["label"]
            for o in (options[:8] if isinstance(options, list) else [])
            if isinstance(o, dict) and isinstance(o.get("label"), str) and o["label"].strip()
        ]
        if not isinstance(chosen, str) or chosen not in labels:
            continue  # free text, or several labels: nothing to match on
        asked = f" {question} {entry.get('header', '')} ".lower()
        library = any(word in asked for word in LIBRARY_WORDS)
        preferred.append(_option_subject(chosen, library))
        out.extend(_option_subject(label, library) for label in labels if label != chosen)
    fields = subject_fields(out, preferred)
    return fields["ruled_out"], fields["preferred"]


def question_offer(tool_input: object) -> dict[str, Any]:
    """What a question the user turned down offered: its first question with two or more
    options, as an offer the next prompt may pick from (``{"options": [[n, text]],
    "question": ...}``; empty when it offers none). The user pressed Esc on the question to
    type the answer instead; a short reply that picks one of its options is the decision
    (set 2's rules 2 and 3)."""
    questions = tool_input.get("questions") if isinstance(tool_input, dict) else None
    for entry in questions[:MAX_QUESTIONS] if isinstance(questions, list) else []:
        options = entry.get("options") if isinstance(entry, dict) else None
        found: list[list[str]] = []
        for option in options[:8] if isinstance(options, list) else []:
            label = option.get("label") if isinstance(option, dict) else None
            if not isinstance(label, str) or not label.strip():
                continue
            about = option.get("description")
            text = f"{label} ({about})" if isinstance(about, str) and about.strip() else label
            found.append([str(len(found) + 1), clip(" ".join(text.split()), MAX_OFFERED)])
        if len(found) >= 2:
            asked = entry.get("question")
            return (
                {"options": found, "question": clip(asked, MAX_OFFERED)}
                if isinstance(asked, str)
                else {"options": found}
            )
    return {}


def typed_answer_item(row: dict[str, Any], offer: dict[str, Any], answer: str) -> Item | None:
    """The decision of an answer typed where the question was turned down (its rejection's
    reason): the answer to the offered question, unless it settles nothing or only talks."""
    labels = [option[1] for option in offer.get("options", [])]
    if not answer.strip() or _settles_nothing(answer) or _talk(answer, labels):
        return None
    question = offer.get("question", "")
    decision = f"{clip(question, MAX_DECISION // 2)} → {answer}" if question else answer
    return make_item(
        "decided",
        "user",
        "question",
        row,
        decision=clip(decision, MAX_DECISION),
        reason="the answer the user typed in place of the question's options",
        quote=answer,
        alternatives=[label for label in labels if label not in answer],
        choice_text=answer,
        whole=(question, answer),
        tier="structural",
    )


def question_item(row: dict[str, Any], text: str) -> dict[str, Any] | None:
    pairs, others, described = _answers(row, text)
    if not pairs:
        return None
    # Every answer keeps its place in the one-line decision: the budget is shared.
    share = max(24, MAX_DECISION // len(pairs) - 6)
    decision = "; ".join(f"{clip(q, share // 2)} → {clip(a, share - share // 2)}" for q, a in pairs)
    answers = " ".join(a for _, a in pairs)
    return make_item(
        "decided",
        "user",
        "question",
        row,
        decision=decision,
        reason="; ".join(described),  # what the chosen options said they do
        quote=text,
        alternatives=others,
        choice_text=answers,
        whole=(*(f"{q} {a}" for q, a in pairs), *described),
        tier="structural",
        subjects=choice_subjects(row),
    )
