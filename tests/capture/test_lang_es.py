"""Spanish (capture/lang_es.py), written from the labelling rules: standing instructions in
the language's real negative imperative ("no" + the subjunctive: "no uses", "no hagas", "no
lo toques"), always/never where they instruct; refusals, corrections and skips; choices.
What states nothing (a question with or without its marks, a request for work, narration,
thanks, impatience) and what the user relays is never a record."""

from __future__ import annotations

import pytest

from context_memory.capture import lang_es
from context_memory.capture.prompts import classify
from helpers.cases_es import CAPTURED, NOT_CAPTURED, RELAY_LINES
from helpers.language_cases import intros_without_example, relayed_forms


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_spanish_directive_is_captured_with_its_kind(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind
    assert found.quote == text


@pytest.mark.parametrize("text", NOT_CAPTURED)
def test_what_states_nothing_in_spanish_is_not_captured(text: str) -> None:
    assert classify(text) is None


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_spanish_directive_the_user_relays_is_not_captured(text: str, kind: str) -> None:
    for relayed in relayed_forms("el log muestra esto", text):
        assert classify(relayed) is None, relayed


@pytest.mark.parametrize("intro", RELAY_LINES)
def test_a_spanish_directive_after_a_line_that_relays_is_not_captured(intro: str) -> None:
    for text, _ in CAPTURED[:3]:
        assert classify(f"{intro}\n{text}") is None, (intro, text)
    # the user's own words before that line still count
    text, kind = CAPTURED[0]
    found = classify(f"{text}\n{intro}\n{CAPTURED[1][0]}")
    assert found is not None
    assert found.kind == kind


def test_every_spanish_relay_intro_has_an_example() -> None:
    assert intros_without_example(lang_es, RELAY_LINES) == []
