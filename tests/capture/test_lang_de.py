"""German (capture/lang_de.py), written from the labelling rules: standing instructions in
the language's real word orders (the imperative first and "nicht" after it: "ändere die
Tests nicht"; "nicht" before the infinitive: "bitte nicht die API ändern"; "kein X"),
immer/nie where they instruct; refusals, corrections and skips; choices. What states nothing
(a question with or without its mark, a request for work, narration, "kein Problem",
thanks, impatience) and what the user relays is never a record."""

from __future__ import annotations

import pytest

from context_memory.capture import lang_de
from context_memory.capture.prompts import classify
from helpers.cases_de import CAPTURED, NOT_CAPTURED, RELAY_LINES
from helpers.language_cases import intros_without_example, relayed_forms


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_german_directive_is_captured_with_its_kind(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind
    assert found.quote == text


@pytest.mark.parametrize("text", NOT_CAPTURED)
def test_what_states_nothing_in_german_is_not_captured(text: str) -> None:
    assert classify(text) is None


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_german_directive_the_user_relays_is_not_captured(text: str, kind: str) -> None:
    for relayed in relayed_forms("das Log zeigt das hier", text):
        assert classify(relayed) is None, relayed


@pytest.mark.parametrize("intro", RELAY_LINES)
def test_a_german_directive_after_a_line_that_relays_is_not_captured(intro: str) -> None:
    for text, _ in CAPTURED[:3]:
        assert classify(f"{intro}\n{text}") is None, (intro, text)
    # the user's own words before that line still count
    text, kind = CAPTURED[0]
    found = classify(f"{text}\n{intro}\n{CAPTURED[1][0]}")
    assert found is not None
    assert found.kind == kind


def test_every_german_relay_intro_has_an_example() -> None:
    assert intros_without_example(lang_de, RELAY_LINES) == []
