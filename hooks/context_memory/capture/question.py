"""Source c: ``AskUserQuestion``. The answer the user chose is their decision; the options
not chosen are its alternatives, and its typed subjects (choice_subjects): the label chosen
preferred, the others ruled out (packages when the question asks for a library).

The result row carries ``toolUseResult: {"questions": [{"question", "options": [{"label",
...}], "multiSelect", ...}], "answers": {question: answer}}``: the chosen options'
descriptions are the item's reason (what the choice means, often in the agent's words); its
text reads ``User has answered your questions: "Q"="A", "Q2"="A2". You can now continue
...``, which is parsed when the structured form is missing (older rows, damaged rows) and
the result answers a call known to be an ``AskUserQuestion``. Any other tool's output that
quotes the text (a ``cat`` of a file) is that tool's: ``is_answer`` tells them apart.

What 2.1.332 writes besides (read from the client, its ``mapToolResultToToolResultBlockParam``
of AskUserQuestion): a multi-select answer is a list of labels; ``annotations: {question:
{"notes": ...}}`` holds what the user typed beside an answer (the model reads it as
``notes: ...``), even beside no option selected; ``response`` is a reply the user typed
instead of answering (the model reads ``The user responded: ...`` and no answer);
``afkTimeoutMs`` means the user went idle before submitting (``Before going idle the user
had selected: ...``: nothing was submitted, so nothing is settled); answers given with a
request for more questions (``followUp``) are still the user's answers. The text starts
``Your questions have been answered:`` when every answer is one of the options, else ``The
user answered:``.
"""

from __future__ import annotations

import re

from context_memory import TYPE_CHECKING
from context_memory.capture.cues import cues_for, turns_every_option_down
from context_memory.capture.items import make_item
from context_memory.capture.prompts import classify
from context_memory.capture.result_texts import ANSWER_STARTS, CLARIFY_START
from context_memory.capture.subjects import of_text
from context_memory.capture.text import MAX_SCAN, clip
from context_memory.core.subject import subject
from context_memory.memory.constraint import subject_fields

if TYPE_CHECKING:
    from typing import Any

    from context_memory.capture.items import Item
    from context_memory.core.subject import Subject

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
NOTES_ONLY = "(notes only)"  # 2.1.332's answer where the user wrote notes and chose nothing


def _answer_text(answer: object) -> str:
    """An answer as one string: a multi-select's labels joined, '' for anything else."""
    if isinstance(answer, str):
        return answer
    if isinstance(answer, list):
        return ", ".join(a for a in answer[:8] if isinstance(a, str) and a.strip())
    return ""


def _notes(result: dict[str, Any], question: str) -> str:
    """What the user typed beside the answer to ``question`` (2.1.332's annotations)."""
    annotations = result.get("annotations")
    noted = annotations.get(question) if isinstance(annotations, dict) else None
    notes = noted.get("notes") if isinstance(noted, dict) else None
    return " ".join(notes.split())[:MAX_DESCRIPTION] if isinstance(notes, str) else ""


def _answers(row: dict[str, Any], text: str) -> list[tuple[str, str, dict[str, Any], str]]:
    """(question, answer, the question's entry, the answer without its notes) of each
    question of a result that the answer settles: the client's structured form, else the
    text form (no entry known). The notes typed beside an answer are part of it; an answer
    of notes alone is typed text. Nothing when the user went idle before submitting."""
    result = row.get("toolUseResult")
    pairs: list[tuple[str, str, str]] = []
    entries: dict[str, dict[str, Any]] = {}
    if isinstance(result, dict) and result.get("afkTimeoutMs"):
        return []
    if isinstance(result, dict) and isinstance(result.get("answers"), dict):
        answers = result["answers"]
        noted = result.get("annotations")
        asked = [*answers, *(noted if isinstance(noted, dict) else ())]
        for question in list(dict.fromkeys(asked))[:MAX_QUESTIONS]:
            if not isinstance(question, str):
                continue
            answer = _answer_text(answers.get(question))
            answer = "" if answer == NOTES_ONLY else answer
            notes = _notes(result, question)
            said = f"{answer} ({notes})" if answer and notes else answer or notes
            if said.strip():
                pairs.append((question, said, answer))
        questions = result.get("questions")
        for entry in questions[:MAX_QUESTIONS] if isinstance(questions, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("question"), str):
                entries.setdefault(entry["question"], entry)
    if not pairs:
        found = _PAIR.findall(text[:MAX_SCAN])[:MAX_QUESTIONS]
        pairs = [(question, answer, answer) for question, answer in found]
    every_label = [label for entry in entries.values() for label in _labels(entry)]
    settled: list[tuple[str, str, dict[str, Any], str]] = []
    for question, answer, bare in pairs:
        entry = entries.get(question, {})
        labels = _labels(entry) if entry else every_label
        if not (settles_nothing(answer) or _talk(answer, labels)):
            settled.append((question, answer, entry, bare))
    return settled


def _chosen(entry: dict[str, Any], answer: str) -> tuple[list[str], list[str]]:
    """(labels of the options ``answer`` did not choose, descriptions of those it chose)."""
    others: list[str] = []
    described: list[str] = []
    for option in _options(entry):
        about = option.get("description")
        if option["label"] not in answer:
            others.append(option["label"])
        elif isinstance(about, str) and about.strip():
            described.append(about[:MAX_DESCRIPTION])
    return others, described


def _options(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """A question's options that have a label (at most 8, as the client offers)."""
    options = entry.get("options")
    return [
        option
        for option in (options[:8] if isinstance(options, list) else [])
        if isinstance(option, dict) and isinstance(option.get("label"), str) and option["label"]
    ]


def _labels(entry: dict[str, Any]) -> list[str]:
    return [option["label"] for option in _options(entry)]


_ASKS = re.compile(r"[?？]|[吗嗎呢][。！!]*$|ですか[。]*$|か[？?。]*$")


def settles_nothing(answer: str) -> bool:
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
    remembered) it carries the client's ``{questions, answers}`` and its text."""
    if tool:
        return tool in QUESTION_TOOLS
    return _structured(row) and text.startswith(ANSWER_STARTS)


def talks_it_over(reason: str) -> bool:
    """Whether the user left the question with "Chat about this" (the client wrote its own
    ``CLARIFY_START`` text as the reason): the question was left to talk it over, and the
    client tells the agent to ask what the user would like to clarify."""
    return reason.lstrip().startswith(CLARIFY_START)


# The questions the client lists after CLARIFY_START, each with the answer given before the
# user chose to talk them over: ``- "Q"`` then ``Answer: ...`` or ``(No answer provided)``.
_TALKED_OVER = re.compile(r'^- "(?P<question>[^\n]+)"\n[ \t]+Answer: ', re.MULTILINE)


def answered_before_talk(reason: str) -> frozenset[str]:
    """The questions answered in the dialog before "Chat about this" (``talks_it_over``):
    the question talked over is another one."""
    if not talks_it_over(reason):
        return frozenset()
    return frozenset(m.group("question") for m in _TALKED_OVER.finditer(reason[:MAX_SCAN]))


def users_reason(reason: str) -> str:
    """The reason of a turned-down question, '' where the client wrote it ("Chat about
    this", ``talks_it_over``): nothing typed."""
    return "" if talks_it_over(reason) else reason


def responded(row: dict[str, Any]) -> str:
    """The reply the user typed instead of answering (2.1.332's ``response``), or ''."""
    result = row.get("toolUseResult")
    said = result.get("response") if isinstance(result, dict) else None
    return " ".join(said.split())[:MAX_SCAN] if isinstance(said, str) else ""


def offer_of_result(row: dict[str, Any]) -> dict[str, Any]:
    """The offer of the questions a result carries (``question_offer`` of its
    ``questions``), for a reply typed in their place."""
    result = row.get("toolUseResult")
    return question_offer(result if isinstance(result, dict) else {})


def _option_subject(label: str, library: bool) -> Subject | None:
    """An option label as a subject: a package where the question asks for a library and
    the label is one word, else an approach (which only reminds)."""
    one_word = bool(label.strip()) and " " not in label.strip()
    return subject("package" if library and one_word else "approach", label)


def _entry_subjects(entry: dict[str, Any], chosen: str) -> tuple[list[Subject], list[Subject]]:
    """(ruled_out, preferred) of one single-select question answered with one of its
    labels: the label chosen is preferred and the other labels are ruled out (choosing
    date-fns over moment rules moment out); nothing for free text or several labels."""
    labels = [label for label in _labels(entry) if label.strip()]
    if entry.get("multiSelect") is True or chosen not in labels:
        return [], []
    asked = f" {entry.get('question', '')} {entry.get('header', '')} ".lower()
    library = any(word in asked for word in LIBRARY_WORDS)
    preferred = [_option_subject(chosen, library)]
    out = [_option_subject(label, library) for label in labels if label != chosen]
    fields = subject_fields(out, preferred)
    return fields["ruled_out"], fields["preferred"]


def choice_subjects(row: dict[str, Any]) -> tuple[list[Subject], list[Subject]]:
    """(ruled_out, preferred) of every question of the client's structured answers
    (``_entry_subjects`` of each)."""
    result = row.get("toolUseResult")
    if not isinstance(result, dict):
        return [], []
    answers, questions = result.get("answers"), result.get("questions")
    if not isinstance(answers, dict) or not isinstance(questions, list):
        return [], []
    out: list[Subject] = []
    preferred: list[Subject] = []
    for entry in questions[:MAX_QUESTIONS]:
        question = entry.get("question") if isinstance(entry, dict) else None
        chosen = answers.get(question) if isinstance(question, str) else None
        if isinstance(entry, dict) and isinstance(chosen, str):
            ruled_out, chosen_subjects = _entry_subjects(entry, chosen)
            out.extend(ruled_out)
            preferred.extend(chosen_subjects)
    return out, preferred


def question_offer(tool_input: object, answered: frozenset[str] = frozenset()) -> dict[str, Any]:
    """What a question the user turned down offered: its first question with two or more
    options, as an offer the next prompt may pick from (``{"options": [[n, text]],
    "question": ...}``; empty when it offers none), leaving out the questions ``answered``
    before. The user pressed Esc on the question to type the answer instead; a short reply
    that picks one of its options is the decision (set 2's rules 2 and 3)."""
    questions = tool_input.get("questions") if isinstance(tool_input, dict) else None
    for entry in questions[:MAX_QUESTIONS] if isinstance(questions, list) else []:
        if isinstance(entry, dict) and entry.get("question") in answered:
            continue
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


TYPED_IN_PLACE = "the answer the user typed in place of the question's options"
TYPED_AFTER_TALK = "the user's answer, typed after choosing to talk the question over"


def typed_answer_item(
    row: dict[str, Any], offer: dict[str, Any], answer: str, reason: str = TYPED_IN_PLACE
) -> Item | None:
    """The decision of an answer typed where the question was turned down (its rejection's
    reason, or the prompt typed after "Chat about this"): the answer to the offered
    question, unless it settles nothing or only talks. The options are their labels (an
    offered option reads ``label (description)``)."""
    labels = [option[1].split(" (", 1)[0] for option in offer.get("options", [])]
    down = turns_every_option_down(answer)  # about the options, so never talk
    if not answer.strip() or settles_nothing(answer) or (not down and _talk(answer, labels)):
        return None
    question = offer.get("question", "")
    decision = f"{clip(question, MAX_DECISION // 2)} → {answer}" if question else answer
    return make_item(  # "neither, ...": every option ruled out (_neither_subjects)
        "decided",
        "user",
        "question",
        row,
        decision=clip(decision, MAX_DECISION),
        reason=reason,
        quote=answer,
        alternatives=[label for label in labels if label not in answer],
        choice_text=answer,
        whole=(question, answer),
        tier="structural",
        subjects=_neither_subjects(question, labels, answer),
    )


def _neither_subjects(
    question: str, labels: list[str], answer: str
) -> tuple[list[Subject], list[Subject]] | None:
    """(ruled_out, preferred) of an answer that turns every option down (each language's
    ``NEITHER``: "neither, we use luxon"): the options, as packages where the question asks
    for a library and a label is one word, and what the answer's own words prefer; None
    (the answer's stances alone) for any other answer."""
    if not labels or not turns_every_option_down(answer):
        return None
    library = any(word in f" {question} ".lower() for word in LIBRARY_WORDS)
    _, preferred = of_text(answer)
    fields = subject_fields([_option_subject(label, library) for label in labels], preferred)
    return fields["ruled_out"], fields["preferred"]


def question_items(row: dict[str, Any], text: str) -> list[Item]:
    """The user's decisions in an AskUserQuestion result: one per answered question that
    settles a choice (set 2's rule 2: each is its own item), with that question's options
    not chosen as its alternatives and the chosen options' descriptions as its reason
    (what the choice means, often in the agent's words). A result of one question quotes
    the whole text; one of several quotes the question's own ``"Q"="A"``. A reply the user
    typed instead of answering (2.1.332's ``response``: the model read only that) is the
    answer typed in place of the options (``typed_answer_item``)."""
    said = responded(row)
    if said:
        typed = typed_answer_item(row, offer_of_result(row), said)
        return [typed] if typed else []
    answers = _answers(row, text)
    items: list[Item] = []
    for question, answer, entry, bare in answers:
        others, described = _chosen(entry, answer)
        share = MAX_DECISION - 6
        decision = f"{clip(question, share // 2)} → {clip(answer, share - share // 2)}"
        items.append(
            make_item(
                "decided",
                "user",
                "question",
                row,
                decision=clip(decision, MAX_DECISION),
                reason="; ".join(described),
                quote=text if len(answers) == 1 else f'"{question}"="{answer}"',
                alternatives=others,
                choice_text=answer,
                whole=(f"{question} {answer}", *described),
                tier="structural",
                subjects=_entry_subjects(entry, bare) if entry else ([], []),
            )
        )
    return items
