"""Languages as data: the directive and choice patterns of each language, one table per
module (en, zh, ja, ko, es, de, fr, pt, ru), compiled here once.

A table is a module with these tuples of regular-expression sources (case-insensitive):

- ``DIRECTIVES``: ``(pattern, kind)``: a sentence that matches states a rejection
  (``rejected``), a standing instruction (``constraint``) or a choice (``decided``), in the
  labelling rules' sense (the README of tests/fixtures/decision-labels): corrections,
  standing rules and settled choices, never plain task requests, questions or narration;
- ``PROPOSALS``: a question that matches proposes (and may be captured): "could we use X
  instead", "何不", "¿y si usamos";
- ``VETOES``: a sentence that matches is never captured, whatever its cues (thanks, the
  form of one answer, the user describing the code);
- ``PICKS``: a short reply that picks one of the options the agent just offered. The
  pattern matches the whole reply (after trimming); its group ``n`` is the option's label
  (a digit, a letter or one of ``ORDINALS``);
- ``ORDINALS``: words of the language for the first, second, ... option (-> 1, 2, ...);
- ``AFFIRMS``: a short reply that accepts the one option the agent recommended or
  proposed ("yes, do that", "that would be perfect").

What no entry matches is not captured: precision first. Every entry has a test written
from the rule it encodes (tests/test_capture_languages.py), not from a labelled line.
"""

from __future__ import annotations

import re

from context_memory.capture.languages import de, en, es, fr, ja, ko, pt, ru, zh

TABLES = (en, zh, ja, ko, es, de, fr, pt, ru)
_I = re.IGNORECASE
# Kinds in the order a sentence is tested: the first kind that matches is its kind.
KIND_ORDER = ("rejected", "constraint", "decided")

DIRECTIVES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _I), kind)
    for wanted in KIND_ORDER
    for table in TABLES
    for pattern, kind in table.DIRECTIVES
    if kind == wanted
)
PROPOSAL = re.compile("|".join(p for table in TABLES for p in table.PROPOSALS), _I)
VETOES = tuple(re.compile(p, _I) for table in TABLES for p in table.VETOES)
PICKS = tuple(re.compile(p, _I) for table in TABLES for p in table.PICKS)
AFFIRMS = tuple(re.compile(p, _I) for table in TABLES for p in table.AFFIRMS)
ORDINALS: dict[str, int] = {
    word.lower(): number for table in TABLES for word, number in table.ORDINALS.items()
}
