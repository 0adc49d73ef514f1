"""Source d: corrections, rejections and standing instructions in the user's prompts.

A prompt is read as the user typed it: the client's wrappers (<ide_selection>, system
reminders) are removed and the analysis stops at the first line of a paste (a log, a
traceback, code, data), so "This is annoying, maybe we should use the https address?"
followed by a build log is read as its first line; a prompt that opens with a markdown
heading is the user's brief and is read whole, less its code, tables and relayed sections
(``brief_part``). Each sentence is matched against the
cue table (cues.py); a question counts only when it proposes. The prompt gives at most
one item: the kind of its strongest cue, the matching sentences as its text, the start of
the prompt as its quote.
"""

from __future__ import annotations

import re

from context_memory import TYPE_CHECKING
from context_memory.calls.directives import stance_split
from context_memory.capture.cues import (
    ORDINALS,
    PASTE_INTRO,
    PASTE_LINE,
    SKIP_PREFIXES,
    cues_for,
    stances,
    unspaced_cues,
)
from context_memory.capture.cues import language_names as names_of_languages
from context_memory.capture.text import MAX_SCAN, sentences, strip_wrappers
from context_memory.core.directive_tables import STANCE_CUES
from context_memory.core.subject import subject

if TYPE_CHECKING:
    from context_memory.capture.cues import Cues
    from context_memory.core.subject import Subject

# A list item's marker ("- ", "* ", "2. ", "• "): the sentence is what follows it.
_LIST_MARK = re.compile(r"^(?:[-*•+]|\d{1,2}[.)、])\s+")
KIND_RANK = {"rejected": 0, "constraint": 1, "decided": 2}
# A typed part longer than this is a paste or a document, not an instruction.
MAX_TYPED = 2500
MAX_SENTENCES = 3
MAX_ITEM_CHARS = 300  # a record's one line (memory/decisions.MAX_CAPTURED_TEXT)
MAX_PROMPT_ITEMS = 3  # items one prompt gives at most
# A typed part of more lines and characters than these is a document (a pasted design,
# another AI's answer): only its first paragraph, when short, is the user's.
MAX_DOCUMENT_LINES = 8
MAX_DOCUMENT_CHARS = 600
MAX_FIRST_PARAGRAPH = 300


class PromptItem:
    """What one prompt states (a plain class: dataclasses costs an import on the Stop path)."""

    __slots__ = ("kind", "quote", "text")

    def __init__(self, kind: str, text: str, quote: str) -> None:
        self.kind = kind
        self.text = text  # the cue sentences, joined
        self.quote = (
            quote  # verbatim from the prompt, from its start or from the first cue sentence
        )


def prompt_text(content: object) -> str:
    """The text a user row's ``message.content`` holds (text blocks joined), bounded."""
    if isinstance(content, str):
        return content[: MAX_SCAN * 4]
    if not isinstance(content, list):
        return ""
    parts = []
    for block in content[:30]:
        if isinstance(block, dict) and block.get("type") == "text":
            text = block.get("text")
            if isinstance(text, str):
                parts.append(text[: MAX_SCAN * 4])
    return "\n".join(parts)


def is_skipped(text: str) -> bool:
    """A prompt the user did not type as an instruction (wrapper, marker, summary)."""
    head = text.lstrip()[:200]
    return not head or head.startswith(SKIP_PREFIXES)


# A markdown heading ("# Task", "## Requirements"): its text is what follows the marks.
_HEADING = re.compile(r"^\s*#{1,6}\s+(\S.*)$")
_FENCE = ("```", "~~~")
MAX_OPENER = 200  # characters of the first line a role opener is looked for in


def is_brief(text: str) -> bool:
    """``text`` opens with a markdown heading, or with a line that casts the agent in a role
    (each language's ``BRIEF_OPENERS``: "Act as a senior python developer ..."): the whole
    prompt is a document written for the agent. Attributed to no one else (no line
    introduces it as relayed, set 2's README, rule 5), it is the user's brief for the work."""
    for line in text[:MAX_SCAN].split("\n"):
        if line.strip():
            # A role line counts in a prompt longer than a first paragraph (a shorter one
            # reads the same, and the openers cost a fresh process ~3 ms to compile).
            opening = line.strip()[:MAX_OPENER]
            return bool(_HEADING.match(line)) or (
                len(text) > MAX_FIRST_PARAGRAPH
                and any(p.match(opening) for p in cues_for(opening).brief_openers)
            )
    return False


def brief_part(text: str) -> str:
    """The user's prose of a brief (``is_brief``), of all prompt_text keeps: heading texts as
    lines; fenced blocks, tables and paste lines left out (rules after a long one stay within
    MAX_SCAN) instead of ending the reading; a section whose heading names relayed text
    ("## Error output", "## Codex review", as ``PASTE_INTRO`` reads) left out whole."""
    kept: list[str] = []
    fenced = relayed = False
    for line in text[: MAX_SCAN * 4].split("\n"):
        if line.lstrip().startswith(_FENCE):
            fenced = not fenced
            continue
        heading = None if fenced else _HEADING.match(line)
        if heading:
            title = heading.group(1).strip().rstrip(":：")
            relayed = bool(PASTE_INTRO.search(title + ":"))
            if not relayed:
                kept.append(title)
            continue
        if fenced or relayed or PASTE_LINE.match(line):
            continue
        kept.append(line)
    return "\n".join(kept).strip()


def typed_part(text: str) -> str:
    """``text`` up to the first line that starts a paste, or after a line that introduces
    relayed text (bounded). A long document (many lines) keeps only its first paragraph:
    the user's own words around a pasted design or another AI's answer. A brief (a prompt
    that opens with a heading, ``is_brief``) is read whole: ``brief_part``."""
    if is_brief(text):
        return brief_part(text)
    kept: list[str] = []
    for line in text[:MAX_SCAN].split("\n"):
        if PASTE_LINE.match(line):
            break
        kept.append(line)
        if PASTE_INTRO.search(line):
            break
    typed = "\n".join(kept).strip()
    lines = [line for line in typed.split("\n") if line.strip()]
    if len(lines) > MAX_DOCUMENT_LINES and len(typed) > MAX_DOCUMENT_CHARS:
        first = typed.split("\n\n", 1)[0].strip()
        typed = first if len(first) <= MAX_FIRST_PARAGRAPH else ""
    return typed


def _sentence_kind(sentence: str, cues: Cues) -> str:
    """The kind a sentence states, or ''. A question counts when it proposes; a statement
    before the question in the same sentence ("I renamed X to Y, can you check it?")
    counts as a statement."""
    if any(veto.search(sentence) for veto in cues.vetoes):
        return ""
    asks = sentence.rstrip().endswith(("?", "？"))
    if asks and not cues.proposals.search(sentence):
        head, comma, _ = sentence.rpartition(", ")
        if not comma or head.rstrip().endswith(("?", "？")):
            return ""
        return _sentence_kind(head, cues)
    for pattern, kind in cues.directives:
        if pattern.search(sentence):
            return kind
    return ""


def asks_only(typed: str) -> bool:
    """``typed`` (the user's own words) is a question that proposes nothing ("is any
    symlink to update?", and one typed without its mark: "how does it pick the port",
    "如何确定端口", each language's QUESTIONS). After a call rejected with no reason, one
    that names nothing the call acted on is unrelated to the rejection, which the
    labelling rules do not count (set 2's README, rule 3)."""
    text = " ".join(typed.split())
    cues = cues_for(text)
    asks = text.endswith(("?", "？")) or any(p.search(text) for p in cues.questions)
    return asks and not cues.proposals.search(text)


def goes_on_only(typed: str) -> bool:
    """``typed`` says nothing but go on ("continue", "继续", "ok, carry on"): after a call
    rejected with no reason it carries no instruction (set 2's README, rule 3)."""
    text = " ".join(typed.split()).rstrip(".!。！ ")
    return bool(text) and any(p.fullmatch(text) for p in cues_for(text).goes_on)


MAX_DEFERRAL = 80  # characters: a longer reply says more than "not now"


def defers_only(typed: str) -> bool:
    """``typed`` only puts the work off ("not now", "later", "not yet", "先不要", each
    language's DEFERS) and states no directive: said about a rejected call, it turns down
    nothing for good (the labelling rules count no deferral). A reason that asks for
    something first ("wait, copy the favicon too") is still a rejection, one that rules
    nothing out (rejections.only_defers)."""
    text = " ".join(typed.split())
    if not text or len(text) > MAX_DEFERRAL:
        return False
    if not any(pattern.search(text) for pattern in cues_for(text).defers):
        return False
    return classify(text) is None


def accepted_rest(reason: str) -> str | None:
    """The rest of a rejected call's typed reason that starts by saying yes ("yes and be
    aware I use nvm" -> "be aware I use nvm"), or None when it does not (each language's
    ACCEPTS): the user let the call be, in words, and said something more."""
    text = " ".join(reason.split())
    for pattern in cues_for(text).accepts:
        match = pattern.match(text)
        if match:
            rest = text[match.end() :].strip(" ,.!，。！、")
            for lead in ("and ", "but ", "just ", "also ", "though ", "please "):
                rest = rest.removeprefix(lead)
            return rest
    return None


def classify(text: str) -> PromptItem | None:
    """The item one prompt states, or None (a question, a plain request, a paste, ...)."""
    found = classify_all(text)
    return found[0] if found else None


def classify_all(text: str) -> list[PromptItem]:
    """The items one prompt states, in order: its directive sentences in groups that fit a
    record's one line (MAX_ITEM_CHARS, at most MAX_SENTENCES each; at most MAX_PROMPT_ITEMS),
    so that a prompt stating several rules keeps each; none for a question, a plain
    request, a paste, ..."""
    text = strip_wrappers(text)
    if is_skipped(text):
        return []
    typed = typed_part(text)
    # A brief is the user's document however long (typed_part bounds it by MAX_SCAN).
    if not typed or (len(typed) > MAX_TYPED and not is_brief(text)):
        return []
    found: list[tuple[str, str]] = []
    cues = cues_for(typed)
    for sentence in sentences(typed):
        sentence = _LIST_MARK.sub("", sentence)
        kind = _sentence_kind(sentence, cues)
        if kind:
            found.append((kind, sentence))
    groups: list[list[tuple[str, str]]] = []
    for kind, sentence in found:
        last = groups[-1] if groups else []
        size = sum(len(s) + 3 for _, s in last) + len(sentence)
        if not last or len(last) >= MAX_SENTENCES or size > MAX_ITEM_CHARS:
            if len(groups) >= MAX_PROMPT_ITEMS:
                break
            groups.append([])
        groups[-1].append((kind, sentence))
    flat = " ".join(text.replace("\\\n", "\n").split())
    items: list[PromptItem] = []
    for index, group in enumerate(groups):
        kind = min((k for k, _ in group), key=KIND_RANK.__getitem__)
        chosen = [s for _, s in group]
        at = flat.find(chosen[0])
        quote = flat if index == 0 and at < 150 else flat[max(at, 0) :]
        items.append(PromptItem(kind=kind, text=" … ".join(chosen), quote=quote[:MAX_SCAN]))
    return items


_IMPERATIVE = (
    "use ",
    "keep ",
    "prefer ",
    "switch ",
    "stick ",
    "go with ",
    "try ",
    "always ",
    "never ",
    "don't ",
    "do not ",
    "dont ",
    "stop ",
    "avoid ",
    "only ",
    "no ",
    "not ",
    "instead ",
)


def is_instruction(reason: str) -> bool:
    """A rejection's typed reason that also binds later work ("use pnpm", "keep the name")."""
    head = " ".join(reason.split()).lower()
    for lead in ("please ", "let's ", "lets ", "just "):
        head = head.removeprefix(lead)
    if head.startswith(_IMPERATIVE):
        return True
    found = classify(reason)
    return found is not None and found.kind == "constraint"


# --- a reply to what the agent offered ------------------------------------------------------

MAX_PICK_CHARS = 100  # a reply longer than this says more than which option
_NEGATION = re.compile(
    r"\b(?:not|no|don'?t|never|but|instead|neither|nor)\b|不|没|沒|ない|아니|말고|\bnicht\b|"
    r"\bpas\b|\bnão\b|\bnao\b|\bне\b",
    re.IGNORECASE,
)


_AMENDS = re.compile(r"^\W*but\b", re.IGNORECASE)


def _option_index(raw: str, count: int) -> str:
    """The label an option reference names: "2", "b", or from an ordinal word."""
    word = " ".join(raw.lower().split())
    if word in ORDINALS:
        number = ORDINALS[word]
        return str(count if number == -1 else number)
    digits = [c for c in word if c.isdigit()]
    if digits:
        return str(int(digits[0]))  # fullwidth digits too
    return word[:1]


# An option's name: the words before its description ("Nested layout: packages under
# src/" -> "Nested layout"), else its opening words.
_NAME_END = re.compile(r"\s*(?::|：|\s[-–—]\s|[(（])")
MAX_NAME_WORDS = 6
# Words that name no option ("the flat one", "that layout"): left over, the reply is only
# the option's name.
_FILLER = frozenset(
    "the a an one option approach way version please then that this it its go with".split()
)
_NAME_WORD = re.compile(r"[^\W_][\w.+#-]*")


def _option_name(text: str) -> str:
    head = _NAME_END.split(text, 1)[0]
    return " ".join(head.split()[:MAX_NAME_WORDS]).casefold()


def _named_option(reply: str, labels: dict[str, str], cues: Cues) -> str:
    """The label of the one option a short reply names by its own words ("nested is good,
    let's start with that", "the flat one"): the whole name in the reply, else a word of
    its name that no other option's name has. The reply names it and approves or chooses
    (the CHOOSES of its languages), or says nothing but the name; a negation ("not the
    flat one", "but") names nothing (the directive reading takes over). '' when none."""
    if _NEGATION.search(reply):
        return ""
    low = reply.casefold()
    names = {label: _option_name(text) for label, text in labels.items()}
    hits = [label for label, name in names.items() if len(name) >= 2 and name in low]
    if len(hits) != 1:
        words = set(_NAME_WORD.findall(low))
        own = {label: set(_NAME_WORD.findall(name)) - _FILLER for label, name in names.items()}
        hits = []
        for label, mine in own.items():
            others = set().union(*(w for other, w in own.items() if other != label))
            if any(len(word) >= 3 and word in words for word in mine - others):
                hits.append(label)
        if len(hits) != 1:
            return ""
    (label,) = hits
    name_words = set(_NAME_WORD.findall(names[label]))
    rest = [w for w in _NAME_WORD.findall(low) if w not in name_words and w not in _FILLER]
    if rest and not cues.chooses.search(reply):
        return ""
    return label


def picked_option(typed: str, offer: dict[str, object]) -> tuple[str, str] | None:
    """(label, option text) of the option the user's short reply picks, or None."""
    reply = " ".join(typed.split()).strip()
    if not reply or len(reply) > MAX_PICK_CHARS or reply.endswith(("?", "？")):
        return None
    options = offer.get("options")
    options = options if isinstance(options, list) else []
    labels = {str(o[0]): str(o[1]) for o in options if isinstance(o, list) and len(o) == 2}
    cues = cues_for(reply)
    if labels:
        for pattern in cues.picks:
            match = pattern.match(reply)
            if match is None:
                continue
            rest = match.groupdict().get("rest") or ""
            # "2 but with compression" amends the pick; "2 but not the index" turns part down
            if _NEGATION.search(_AMENDS.sub("", rest, count=1)):
                return None
            label = _option_index(match.group("n"), len(labels))
            if label in labels:
                return label, labels[label]
        named = _named_option(reply, labels, cues)
        if named:
            return named, labels[named]
    if any(pattern.match(reply) for pattern in cues.affirms):
        rec = offer.get("rec")
        if isinstance(rec, str) and rec in labels:
            return rec, labels[rec]
        proposal = offer.get("proposal")
        if isinstance(proposal, str) and proposal:
            return "", proposal
    return None


# --- typed subjects of a stated directive ---------------------------------------------------

_CJK_PUNCTUATION = str.maketrans({"，": ", ", "。": ". ", "；": "; ", "！": "! ", "？": "? ",
                                  "、": ", ", "：": ": "})  # fmt: skip


# The unspaced languages' cues as one pattern, compiled for the first text that is not ASCII.
_UNSPACED: list[re.Pattern[str] | None] = []


def _spaced(text: str) -> str:
    """``text`` with the stance cues of unspaced languages set apart by spaces (one pass,
    longest cue first) and their punctuation made ASCII, so a split that reads whole words
    finds them."""
    if text.isascii():
        return text
    if not _UNSPACED:
        cues = unspaced_cues()
        _UNSPACED.append(re.compile("|".join(map(re.escape, cues))) if cues else None)
    unspaced = _UNSPACED[0]
    if unspaced is None:
        return text
    return unspaced.sub(lambda m: f" {m.group(0)} ", text.translate(_CJK_PUNCTUATION))


def stated_subjects(kind: str, text: str) -> tuple[list[Subject], list[Subject]]:
    """(ruled_out, preferred) of a directive typed in a prompt: the things it names, typed
    (calls.directives.stance_split, with every language's stance cues); a directive that names
    nothing a call can act on gets one approach subject (it reminds, never makes the
    guard ask): ruled out for a rejection, preferred otherwise."""
    ruled_out, preferred = stance_split(_spaced(text), {"en": STANCE_CUES["en"], **stances()})
    if not ruled_out and not preferred:
        approach = subject("approach", text)
        if approach is not None:
            (ruled_out if kind == "rejected" else preferred).append(approach)
    return ruled_out, preferred


def language_names(text: str) -> list[str]:
    """The English names of the languages ``text`` names in its own language ("한글로" ->
    korean): what a handoff would say, so a record carries it."""
    lower = text.lower()
    return sorted({english for word, english in names_of_languages().items() if word in lower})
