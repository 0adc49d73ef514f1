"""French (capture/lang_fr.py), written from the labelling rules: standing instructions in
the language's real negative imperative ("ne/n' + verb + pas/jamais/rien", with no subject
before it; "ne pas + infinitive"; the spoken form without "ne": "touche pas"), typed with
either apostrophe; toujours/jamais where they instruct; refusals, corrections and skips;
choices. What states nothing (a question with or without its mark, a request for work,
narration: "il n'utilise pas le mock", "pas de souci", thanks, impatience) and what the
user relays is never a record."""

from __future__ import annotations

import pytest

from context_memory.capture import lang_fr
from context_memory.capture.prompts import classify
from helpers.cases_fr import CAPTURED, NOT_CAPTURED, RELAY_LINES
from helpers.language_cases import intros_without_example, relayed_forms


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_french_directive_is_captured_with_its_kind(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind
    assert found.quote == text


@pytest.mark.parametrize("text", NOT_CAPTURED)
def test_what_states_nothing_in_french_is_not_captured(text: str) -> None:
    assert classify(text) is None


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_french_directive_the_user_relays_is_not_captured(text: str, kind: str) -> None:
    for relayed in relayed_forms("le log affiche ceci", text):
        assert classify(relayed) is None, relayed


def test_an_english_text_with_a_french_word_keeps_its_english_reading() -> None:
    # "comment" opens a French question, and an English order
    found = classify("Comment out the debug lines and never commit them")
    assert found is not None
    assert found.kind == "constraint"


@pytest.mark.parametrize("intro", RELAY_LINES)
def test_a_french_directive_after_a_line_that_relays_is_not_captured(intro: str) -> None:
    for text, _ in CAPTURED[:3]:
        assert classify(f"{intro}\n{text}") is None, (intro, text)
    # the user's own words before that line still count
    text, kind = CAPTURED[0]
    found = classify(f"{text}\n{intro}\n{CAPTURED[1][0]}")
    assert found is not None
    assert found.kind == kind


def test_every_french_relay_intro_has_an_example() -> None:
    assert intros_without_example(lang_fr, RELAY_LINES) == []
