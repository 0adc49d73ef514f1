"""The text rules of the merge: an entry's subject (the text before the first '(', ':',
' - ' or ' — ', normalised with NFKC, case and CJK spacing folded) and its reason; and
the times of handoffs (ISO 8601 UTC, to the second; parsing them is core/isotime.py).
"""

from __future__ import annotations

import re
import time
import unicodedata

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass

DECIDED = "decided"
REJECTED = "rejected"
DECISION_SECTIONS = ((DECIDED, "Decided"), (REJECTED, "Rejected"))

# Where an entry's subject ends. NFKC has already turned '（' and '：' into '(' and ':';
# the full-width forms stay listed so the rule reads as documented.
SUBJECT_SEPARATORS = ("(", "（", ":", "：", " - ", " — ", " – ")
# Stripped from the end of an entry before comparing (after NFKC width folding).
TRAILING_PUNCTUATION = ".,;:!?。、…‥ \t"
_CJK = "\u2e80-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
# A space next to a Chinese or Japanese character is a matter of style ("使用 Redis" and
# "使用Redis" say the same); between two Latin words it separates words and stays.
_CJK_SPACE = re.compile(f"(?<=[{_CJK}]) | (?=[{_CJK}])")
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


def subject_of(text: str) -> str:
    """What an entry is about: its text before the first '(', '（', ':', '：', ' - ' or
    ' — ', normalised. An entry that starts with a separator is its own subject."""
    head, _, _ = _split_subject(fold(text))
    return normalise(head) or normalise(text)


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
