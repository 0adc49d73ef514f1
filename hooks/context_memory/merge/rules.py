"""The text rules of the merge: an entry's subject (the text before the first '(', ':',
' - ' or ' — ', normalised with NFKC, case and CJK spacing folded, then the option it names:
without a lead-in such as "Use", "Switch to", "Not", "使用" or "不要", and without what follows
"instead of" or "而不是") and its reason; and the times of handoffs (ISO 8601 UTC, to the
second; parsing them is core/isotime.py).
"""

from __future__ import annotations

import re
import time
import unicodedata

from context_memory import TYPE_CHECKING
from context_memory.core import tables

if TYPE_CHECKING:
    from collections.abc import Iterable

    from context_memory.memory.handoff import SectionName

DECIDED = "decided"
REJECTED = "rejected"
DECISION_SECTIONS: tuple[tuple[str, SectionName], ...] = (
    (DECIDED, "Decided"),
    (REJECTED, "Rejected"),
)

# Where an entry's subject ends. NFKC has already turned '（' and '：' into '(' and ':';
# the full-width forms stay listed so the rule reads as documented.
SUBJECT_SEPARATORS = ("(", "（", ":", "：", " - ", " — ", " – ")
# Stripped from the end of an entry before comparing (after NFKC width folding).
TRAILING_PUNCTUATION = ".,;:!?。、…‥ \t"
_CJK = "\u2e80-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
# A space next to a Chinese or Japanese character is a matter of style ("使用 Redis" and
# "使用Redis" say the same); between two Latin words it separates words and stays.
_CJK_SPACE = re.compile(f"(?<=[{_CJK}]) | (?=[{_CJK}])")
_CJK_CHAR = re.compile(f"[{_CJK}]")


def _either(phrases: Iterable[str]) -> str:
    """A regex alternation of the phrases, longest first (so "do not" is tried before "do")."""
    return "|".join(re.escape(phrase) for phrase in sorted(set(phrases), key=len, reverse=True))


def _forms(verbs: Iterable[tuple[str, ...]]) -> str:
    return _either(form for forms in verbs for form in forms)


# The patterns of core/tables.py's grammar of decisions and rejections, matched against a
# normalised subject (lower case, one space between words, none beside CJK characters).
_EN_WHO = (
    f"(?:(?:{_either(tables.MERGE_EN_WHO)}) )?(?:(?:{_either(tables.MERGE_EN_MODALS)}) ){{0,2}}"
)
_EN_LEAD = re.compile(
    f"{_EN_WHO}(?:(?:{_either(tables.MERGE_EN_NEGATIONS)}) )?(?:{_forms(tables.MERGE_EN_VERBS)}) "
    f"(?!(?:{_either(tables.MERGE_EN_NOT_AN_OPTION)})\\b)"
    f"|(?:{_either(tables.MERGE_EN_BARE_NEGATIONS)}) "
)
_EN_MOVE = re.compile(f"{_EN_WHO}(?:{_forms(tables.MERGE_EN_MOVES)}) from .+? to (.+)")
_EN_ARTICLE = re.compile(f"(?:{_either(tables.MERGE_EN_ARTICLES)}) ")
_CN_WHO = f"(?:{_either(tables.MERGE_CN_WHO)})?(?:{_either(tables.MERGE_CN_MODALS)}){{0,2}}"
_CN_LEAD = re.compile(
    f"{_CN_WHO}(?:(?:(?:{_either(tables.MERGE_CN_NEGATIONS)})?(?:{_either(tables.MERGE_CN_VERBS)}))"
    f"|(?:{_either(tables.MERGE_CN_BARE_NEGATIONS)}))"
)
_CN_MOVE = re.compile(
    f"{_CN_WHO}(?:{_either(tables.MERGE_CN_MOVE_FROM)}).+?(?:{_either(tables.MERGE_CN_MOVE_TO)})(.+)"
    f"|{_CN_WHO}(?:{_either(tables.MERGE_CN_REPLACE)}).+?"
    f"(?:{_either(tables.MERGE_CN_REPLACE_WITH)})(.+)"
)
_CONNECTORS = (*tables.MERGE_EN_CONNECTORS, *tables.MERGE_CN_CONNECTORS)
# --------------------------------------------------------------------------- text rules


def fold(text: str) -> str:
    """NFKC (full-width letters, digits and punctuation become their usual forms) and
    runs of whitespace collapsed to one space."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def normalise(text: str) -> str:
    """The form two entries share when they say the same thing: width, case, whitespace
    (including the optional space beside CJK characters) and trailing punctuation folded."""
    folded = _CJK_SPACE.sub("", fold(text)).casefold()
    return folded.rstrip(TRAILING_PUNCTUATION)


def _split_subject(folded: str) -> tuple[str, str, str]:
    """(text before the first separator, the separator, the rest); no separator: (text, '', '')."""
    cut = -1
    found = ""
    for separator in SUBJECT_SEPARATORS:
        index = folded.find(separator)
        if index != -1 and (cut == -1 or index < cut):
            cut, found = index, separator
    if cut == -1:
        return folded, "", ""
    return folded[:cut], found, folded[cut + len(found) :]


def option_of(subject: str) -> str:
    """The option a normalised subject names: "use mongodb", "not mongodb", "switch from
    mysql to mongodb", "mongodb instead of mysql", "不要mongodb" and "改用mongodb" name
    "mongodb". A subject without a lead-in or a connector is its own option; a lead-in with
    nothing after it ("use") stays."""
    text = subject.replace("\u2019", "'")  # "don’t" as "don't"
    moved = _EN_MOVE.fullmatch(text) or _CN_MOVE.fullmatch(text)
    if moved:
        text = moved.group(1) or moved.group(2) or text
    else:
        lead = _EN_LEAD.match(text)
        if lead is None:
            lead = _CN_LEAD.match(text)
            rest = text[lead.end() :] if lead else ""
            if rest.startswith(tables.MERGE_CN_NOT_AN_OPTION) or (
                lead
                and lead.group(0) in tables.MERGE_CN_SHORT_VERBS
                and _CJK_CHAR.match(rest)  # "用户表" is no "用 户表"
            ):
                lead = None
        if lead:
            text = text[lead.end() :]
    article = _EN_ARTICLE.match(text)
    if article:
        text = text[article.end() :]
    for connector in _CONNECTORS:
        cut = text.find(connector)
        if cut > 0:
            text = text[:cut]
    return text.strip().rstrip(TRAILING_PUNCTUATION) or subject


def subject_of(text: str) -> str:
    """What an entry is about: the option named by its text before the first '(', '（',
    ':', '：', ' - ' or ' — ', normalised (option_of). An entry that starts with a separator
    is its own subject."""
    head, _, _ = _split_subject(fold(text))
    return option_of(normalise(head) or normalise(text))


def reason_of(text: str) -> str:
    """The part after the subject ('Codis (unmaintained)' -> 'unmaintained'), or ''."""
    _, separator, rest = _split_subject(fold(text))
    rest = rest.strip()
    if separator in ("(", "（") and rest.endswith((")", "）")):
        rest = rest[:-1].rstrip()
    return rest


# --------------------------------------------------------------------------- times


def iso_time(stamp: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp))


_DATES: dict[float, str] = {}


def iso_date(stamp: float) -> str:
    """The UTC date; remembered, as thousands of entries share a few hundred handoff times."""
    date = _DATES.get(stamp)
    if date is None:
        if len(_DATES) > 100_000:
            _DATES.clear()
        date = _DATES[stamp] = time.strftime("%Y-%m-%d", time.gmtime(stamp))
    return date
