"""The fourteen non-English tables (capture/languages/<code>.txt) against their cases
(tests/helpers/cases_<code>.py, written from the labelling rules and each language's
grammar, never from a labelled line): each case captured with its kind, each text that
states nothing not captured, and a directive the user relays (fenced, quoted, logged, after
a line that says it is relayed) never a record. A language's own cases beyond these:
tests/capture/test_lang_<code>.py."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

from context_memory.capture.language_table import LanguageTable
from context_memory.capture.prompts import classify
from helpers.language_cases import intros_without_example, relayed_forms

CODES = ("de", "es", "fr", "id", "it", "ja", "ko", "nl", "pl", "pt", "ru", "tr", "vi", "zh")


def cases(code: str) -> ModuleType:
    return importlib.import_module(f"helpers.cases_{code}")


def table(code: str) -> LanguageTable:
    from context_memory.capture import cues

    return {t.code: t for t in cues.TABLES}[code]


CAPTURED = [(code, text, kind) for code in CODES for text, kind in cases(code).CAPTURED]
NOT_CAPTURED = [(code, text) for code in CODES for text in cases(code).NOT_CAPTURED]
RELAY_LINES = [(code, line) for code in CODES for line in cases(code).RELAY_LINES]


@pytest.mark.parametrize(("code", "text", "kind"), CAPTURED)
def test_a_directive_is_captured_with_its_kind(code: str, text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind
    assert found.quote == text


@pytest.mark.parametrize(("code", "text"), NOT_CAPTURED)
def test_what_states_nothing_is_not_captured(code: str, text: str) -> None:
    assert classify(text) is None


@pytest.mark.parametrize(("code", "text", "kind"), CAPTURED)
def test_a_directive_the_user_relays_is_not_captured(code: str, text: str, kind: str) -> None:
    for relayed in relayed_forms(cases(code).RELAY_SAID, text):
        assert classify(relayed) is None, relayed


@pytest.mark.parametrize(("code", "intro"), RELAY_LINES)
def test_a_directive_after_a_line_that_relays_is_not_captured(code: str, intro: str) -> None:
    captured = cases(code).CAPTURED
    for text, _ in captured[:3]:
        assert classify(f"{intro}\n{text}") is None, (intro, text)
    # the user's own words before that line still count
    text, kind = captured[0]
    found = classify(f"{text}\n{intro}\n{captured[1][0]}")
    assert found is not None
    assert found.kind == kind


@pytest.mark.parametrize("code", CODES)
def test_every_relay_intro_has_an_example(code: str) -> None:
    assert intros_without_example(table(code), cases(code).RELAY_LINES) == []


def test_every_language_but_english_has_its_cases() -> None:
    from context_memory.capture import cues

    codes = {t.code for t in cues.TABLES} - {"en"}
    assert codes == set(CODES)
