"""What the per-language capture tests share (tests/capture/test_lang_cases.py): the forms
in which a sentence that states a rule is not the user's word (pasted, quoted, logged), and
the entries of a language table that no example exercises.

Each language's cases are one module, tests/helpers/cases_<code>.py, for the table
capture/languages/<code>.txt: prompts written from the labelling rules (never copied from a
labelled line), shared by test_lang_cases.py and the per-entry check of test_languages.py.
Its fields: ``RELAY_SAID``, what a relayed text is said to be ("the log shows this"), the
lead of the relayed forms (``relayed_forms``); ``CAPTURED``, (prompt, kind) pairs;
``NOT_CAPTURED``, prompts that state nothing; ``RELAY_LINES``, lines that introduce relayed
text (``intros_without_example``)."""

from __future__ import annotations

import re

from context_memory.capture.language_table import LanguageTable
from context_memory.capture.text import sentences


def relayed_forms(intro: str, text: str) -> list[str]:
    """``text`` as something the user relays rather than says: fenced after an ``intro`` line
    of their own (which states nothing), quoted as an e-mail reply, or as a log line."""
    return [
        f"{intro}\n```\n{text}\n```",
        f"> {text}",
        f"ERROR: {text}",
        f"{intro}\n    {text}",
    ]


def entries_without_example(table: LanguageTable, examples: list[tuple[str, str]]) -> list[str]:
    """The DIRECTIVES patterns of ``table`` that no example of their kind matches."""
    missing = []
    for pattern, kind in table.DIRECTIVES:
        compiled = re.compile(pattern, re.IGNORECASE)
        texts = [text for text, want in examples if want == kind]
        if not any(compiled.search(s) for text in texts for s in sentences(text)):
            missing.append(pattern)
    return missing


def intros_without_example(table: LanguageTable, lines: list[str]) -> list[str]:
    """The RELAY_INTROS entries of ``table`` that no line of ``lines`` contains."""
    return [
        word
        for word in table.RELAY_INTROS
        if not any(re.search(word, line, re.IGNORECASE) for line in lines)
    ]


def unexampled(patterns: tuple[str, ...], texts: list[str], how: str = "search") -> list[str]:
    """The patterns of a table field that no text matches (``how``: the ``re.Pattern``
    method the field is read with: ``search``, ``match`` or ``fullmatch``)."""
    return [
        pattern
        for pattern in patterns
        if not any(getattr(re.compile(pattern, re.IGNORECASE), how)(t) for t in texts)
    ]
