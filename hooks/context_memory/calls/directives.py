"""The subjects a user's directive names, and its stance on each: what capture types a
prompt's directive with (``"use pnpm, not npm"`` -> ruled out command npm, preferred
command pnpm; ``"don't touch migrations/"`` -> ruled out path migrations/; ``"never
force-push"`` -> ruled out command git push --force; ```npm install moment``` -> package
moment; a backticked identifier -> name).

The stance cue words are data (core/directive_tables.STANCE_CUES, one tuple per language):
capture passes its own table for other languages. A phrase a cue names ends at the next
cue, at the clause's end or at a word like "because"; it holds items ("npm, yarn or bun").
An item is a command when it is a known program or a command phrase, a path when it has
a ``/`` or a file extension, a name when it is an identifier with capitals or ``_``, a
package when it is one plain lowercase word, else an approach (free text, which the guard
only reminds of). Standard library only, no ``re``.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.calls.acts import bash_acts, family_of
from context_memory.calls.shell import commands_of
from context_memory.core.directive_tables import (
    COMMAND_PHRASES,
    FILE_EXTENSIONS,
    KNOWN_PROGRAMS,
    NOT_PACKAGES,
    PHRASE_END_WORDS,
    PHRASE_ITEM_SEPARATORS,
    PHRASE_LEAD_WORDS,
    PROSE_AMBIGUOUS_PROGRAMS,
    STANCE_CUES,
)
from context_memory.core.subject import same_subject, subject

if TYPE_CHECKING:
    from collections.abc import Mapping

    from context_memory.core.subject import Subject

MAX_TEXT_CHARS = 4000
_CLAUSE_ENDS = (". ", "; ", "! ", "? ", "\n", ".\t")
_TRIM = " \t,.;:!?\"'()[]"
_WORD_BOUNDARY = frozenset(" \t\n,.;:!?\"'()[]`")
MAX_ITEM_WORDS = 3  # an item longer than this after the first is prose, not a subject


def _add(found: list[Subject], item: Subject | None) -> None:
    if item is not None and not any(same_subject(item, other) for other in found):
        found.append(item)


def _path_like(word: str) -> bool:
    if "/" in word and not word.startswith(("http://", "https://")) and " " not in word:
        return any(c.isalnum() for c in word)
    stem, dot, ext = word.rpartition(".")
    return bool(dot and stem and ext.lower() in FILE_EXTENSIONS)


def _identifier_shaped(word: str) -> bool:
    bare = word.removesuffix("()")
    if not bare or not (bare[0].isalpha() or bare[0] == "_"):
        return False
    if not all(c.isalnum() or c == "_" for c in bare):
        return False
    has_upper_inside = any(c.isupper() for c in bare[1:]) and not bare.isupper()
    return "_" in bare.strip("_") or has_upper_inside or word.endswith("()")


def _package_shaped(word: str) -> bool:
    text = word.lower()
    if not text or text in NOT_PACKAGES or not text.isascii():
        return False
    if text.startswith("@"):
        return "/" in text
    return text[0].isalnum() and all(c.isalnum() or c in "-_." for c in text)


def classify(phrase: str, code: bool = False, stance: bool = False) -> list[Subject]:
    """The subjects one phrase names (module docstring). ``code``: it was backticked;
    ``stance``: a cue named it (a bare word may then be a package or an approach)."""
    text = phrase.strip().strip(_TRIM).strip("`").strip()
    found: list[Subject] = []
    if not text:
        return found
    lower = " ".join(text.lower().split())
    for said, command in COMMAND_PHRASES.items():
        if lower == said or lower.startswith(said + " "):
            _add(found, subject("command", command))
            return found
    words = text.split()
    if len(words) > 1 or (code and commands_of(text) and commands_of(text)[0].words):
        first = words[0].lower()
        if first in KNOWN_PROGRAMS or code:
            packages = [a["subject"] for a in bash_acts(text) if a["verb"] == "add-package"]
            if packages:
                for item in packages:
                    _add(found, item)
                return found
            if first in KNOWN_PROGRAMS and len(words) <= 4:
                parsed = commands_of(text)
                if parsed:
                    first_command = parsed[0]
                    value = family_of(first_command.program, first_command.words, first_command.raw)
                    _add(found, subject("command", value))
                    return found
        if stance and len(words) <= 12:
            _add(found, subject("approach", text))
        return found
    word = words[0]
    if _path_like(word):
        _add(found, subject("path", word))
    elif word.lower() in KNOWN_PROGRAMS:
        _add(found, subject("command", word.lower()))
    elif _identifier_shaped(word):
        _add(found, subject("name", word.removesuffix("()")))
    elif (code or stance) and _package_shaped(word):
        _add(found, subject("package", word))
    elif stance:
        _add(found, subject("approach", word))
    return found


def _backticked(text: str) -> list[str]:
    spans: list[str] = []
    start = text.find("`")
    while start >= 0:
        close = text.find("`", start + 1)
        if close < 0:
            break
        span = text[start + 1 : close]
        if span.strip() and "\n" not in span:
            spans.append(span)
        start = text.find("`", close + 1)
    return spans


def subjects_in_text(text: str) -> list[Subject]:
    """The things ``text`` names that a call can act on: backticked spans, command phrases
    ("force-push"), known programs, paths and file names, identifiers; each once."""
    text = text[:MAX_TEXT_CHARS]
    found: list[Subject] = []
    for span in _backticked(text):
        for item in classify(span, code=True):
            _add(found, item)
    lower = text.lower()
    for said, command in COMMAND_PHRASES.items():
        # One plain word ("amend") names a command only where a cue names it (stance_split).
        if (" " in said or "-" in said) and _find_word(lower, said, 0) >= 0:
            _add(found, subject("command", command))
    outside = "".join(part for i, part in enumerate(text.split("`")) if i % 2 == 0)
    for raw in outside.split():
        word = raw.strip(_TRIM)
        if not word:
            continue
        program = word.lower() in KNOWN_PROGRAMS and word.lower() not in PROSE_AMBIGUOUS_PROGRAMS
        if _path_like(word) or program or _identifier_shaped(word):
            if word[0].isupper() and word[1:].islower() and not _path_like(word):
                continue  # a capitalised English word ("Use", "Never")
            for item in classify(word):
                _add(found, item)
    return found


def _find_word(text: str, cue: str, start: int) -> int:
    """Where ``cue`` occurs in ``text`` from ``start`` as whole words (-1: nowhere)."""
    at = text.find(cue, start)
    while at >= 0:
        before = at == 0 or text[at - 1] in _WORD_BOUNDARY or cue[0] in _WORD_BOUNDARY
        end = at + len(cue)
        after = end >= len(text) or text[end] in _WORD_BOUNDARY
        if before and after:
            return at
        at = text.find(cue, at + 1)
    return -1


def _clauses(text: str) -> list[str]:
    clauses = [text]
    for mark in _CLAUSE_ENDS:
        clauses = [piece for clause in clauses for piece in clause.split(mark)]
    return [c.strip() for c in clauses if c.strip()]


def _cue_places(lower: str, cues: tuple[tuple[str, str], ...]) -> list[tuple[int, int, str]]:
    """(start, end, form) of the cues of a clause, longest first at a place, in order."""
    places: list[tuple[int, int, str]] = []
    for cue, form in cues:
        at = _find_word(lower, cue, 0)
        while at >= 0:
            places.append((at, at + len(cue), form))
            at = _find_word(lower, cue, at + 1)
    places.sort(key=lambda p: (p[0], -(p[1] - p[0])))
    kept: list[tuple[int, int, str]] = []
    for place in places:
        if kept and place[0] < kept[-1][1]:
            continue
        kept.append(place)
    return kept


def _phrase_items(phrase: str) -> list[str]:
    words = phrase.split()
    while words and words[0].lower().strip(_TRIM) in PHRASE_LEAD_WORDS:
        words = words[1:]
    for at, word in enumerate(words):
        if at and word.lower().strip(_TRIM) in PHRASE_END_WORDS:
            words = words[:at]
            break
    text = " ".join(words)
    items = [text]
    for separator in PHRASE_ITEM_SEPARATORS:
        items = [piece for item in items for piece in item.split(separator)]
    kept = [i.strip(_TRIM) for i in items if i.strip(_TRIM)]
    return kept[:1] + [i for i in kept[1:] if len(i.split()) <= MAX_ITEM_WORDS]


def _subjects_of_phrase(phrase: str) -> list[Subject]:
    found: list[Subject] = []
    spans = _backticked(phrase)
    for item in spans or _phrase_items(phrase):
        for made in classify(item, code=bool(spans), stance=True):
            _add(found, made)
    return found


def stance_split(
    text: str, cues: Mapping[str, tuple[tuple[str, str], ...]] | None = None
) -> tuple[list[Subject], list[Subject]]:
    """(ruled_out, preferred) of a directive: "X instead of Y", "use X, not Y", "don't /
    never / no X", "X over Y", "avoid X" (English cues of core/directive_tables.STANCE_CUES, or
    ``cues``: {language: ((cue, form), ...)}); a subject in both lists stays ruled out."""
    table = tuple(pair for pairs in (cues or STANCE_CUES).values() for pair in pairs)
    ruled_out: list[Subject] = []
    preferred: list[Subject] = []
    for clause in _clauses(text[:MAX_TEXT_CHARS]):
        lower = clause.lower()
        places = _cue_places(lower, table)
        for number, (start, end, form) in enumerate(places):
            stop = places[number + 1][0] if number + 1 < len(places) else len(clause)
            after = clause[end:stop]
            if form == "pref-out":
                begin = places[number - 1][1] if number else 0
                before = clause[begin:start]
                left, right = _subjects_of_phrase(before), _subjects_of_phrase(after)
                if lower[start:end] == "over" and not (
                    any(s["kind"] != "approach" for s in left)
                    and any(s["kind"] != "approach" for s in right)
                ):
                    continue  # "go over the plan": no choice between two things
                for item in left:
                    _add(preferred, item)
                for item in right:
                    _add(ruled_out, item)
            elif form in ("out", "out-named"):
                named = form == "out-named" and not _backticked(after)
                for item in _subjects_of_phrase(after):
                    if not (named and item["kind"] in ("package", "approach")):
                        _add(ruled_out, item)
            elif form == "pref":
                for item in _subjects_of_phrase(after):
                    _add(preferred, item)
    preferred = [p for p in preferred if not any(same_subject(p, o) for o in ruled_out)]
    return ruled_out, preferred
