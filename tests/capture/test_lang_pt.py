"""Portuguese (capture/lang_pt.py), written from the labelling rules: standing instructions in
the language's real negative imperative (the subjunctive: "não corrija", "nunca apague"),
typed with or without accents; refusals and corrections; choices. What states nothing (a
question with or without its mark, a request for work, narration, thanks, impatience) and
what the user relays is never a record."""

from __future__ import annotations

import pytest

from context_memory.capture import lang_pt
from context_memory.capture.prompts import classify
from helpers.cases_pt import CAPTURED, NOT_CAPTURED, RELAY_LINES
from helpers.language_cases import intros_without_example, relayed_forms


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_portuguese_directive_is_captured_with_its_kind(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind
    assert found.quote == text


@pytest.mark.parametrize("text", NOT_CAPTURED)
def test_what_states_nothing_in_portuguese_is_not_captured(text: str) -> None:
    assert classify(text) is None


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_portuguese_directive_the_user_relays_is_not_captured(text: str, kind: str) -> None:
    for relayed in relayed_forms("o log mostrou isto", text):
        assert classify(relayed) is None, relayed


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # a Spanish text the Portuguese table also reads (shared words and letters)
        ("Como te dije, el código está en src", "rejected"),
        # "porque" (because) opens no question
        ("porque o cache quebra, não use redis", "constraint"),
        # informal: no punctuation, an English identifier
        ("nao usa o axios usa fetch", "constraint"),
    ],
)
def test_portuguese_cues_read_neighbouring_and_informal_texts(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind


def test_let_us_go_again_is_no_choice_in_either_language() -> None:
    assert classify("vamos de novo") is None
    assert classify("vamos de nuevo") is None


@pytest.mark.parametrize("intro", RELAY_LINES)
def test_a_portuguese_directive_after_a_line_that_relays_is_not_captured(intro: str) -> None:
    for text, _ in CAPTURED[:3]:
        assert classify(f"{intro}\n{text}") is None, (intro, text)
    # the user's own words before that line still count
    text, kind = CAPTURED[0]
    found = classify(f"{text}\n{intro}\n{CAPTURED[1][0]}")
    assert found is not None
    assert found.kind == kind


def test_every_portuguese_relay_intro_has_an_example() -> None:
    assert intros_without_example(lang_pt, RELAY_LINES) == []
