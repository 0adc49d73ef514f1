"""Source e: the agent's own settled choices, where its text says so (``by: agent``).

A sentence of the agent's text (main chain) is a choice when it names one option over
another ("instead of", "rather than", "in favour of", "switching to", "a cleaner
approach", "to avoid") and says the agent acts on it ("I'll use", "Let me use", "Used",
"Replaced", "Now uses", "Switched"). Diagnosis ("The issue is that X returns Y instead of
Z"), proposals still open (options, questions) and narration are not.
"""

from __future__ import annotations

import re

from context_memory.capture.text import sentences

_I = re.IGNORECASE
_CHOICE = re.compile(
    r"\binstead of\b|\brather than\b|\bin favou?r of\b|\bswitch(?:ing|ed)? to\b|"
    r"\b(?:cleaner|better|simpler|safer) (?:approach|way|solution|fix)\b|\bto avoid\b",
    _I,
)
_ACTING = re.compile(
    r"^(?:[-*\d.\s]*(?:\*\*[^*]{1,80}\*\*:?\s*)?)(?:I'll|I will|Let me|I've|We'll|Now|Used|Using|"
    r"Replaced|Switched|Switching|Changed|Removed|Moved|Renamed|Migrated|Chose|Went with)\b|"
    r"\b(?:I'll use|I will use|let me use|I've (?:used|replaced|switched|moved|changed|removed)|"
    r"I used|I replaced|I switched|I chose|I went with|now uses?|I'm going to use|"
    r"we'll use|I decided)\b",
    _I,
)
_NARRATION = re.compile(
    r"^(?:The (?:issue|problem|error|test|reason)|It (?:seems|looks)|This (?:means|is)|I see|"
    r"Looking at|Options?\b|Which|Would you)|\b(?:is|are|was|were) (?:returning|being|still)\b|"
    r"\bfalling back\b|\bcould\b|\bwould\b|\bmight\b",
    _I,
)


# A settled technical choice names a thing: a backticked span, an identifier, a file.
_NAMES = re.compile(r"`[^`\n]{1,80}`|\b\w+[._]\w+|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*")


def settled_choice(text: str) -> str:
    """The first sentence of ``text`` that states a choice the agent acts on, or ''."""
    for sentence in sentences(text):
        if sentence.endswith("?") or len(sentence) < 20:
            continue
        if not (_CHOICE.search(sentence) and _ACTING.search(sentence)):
            continue
        if _NAMES.search(sentence) and not _NARRATION.search(sentence):
            return sentence
    return ""
