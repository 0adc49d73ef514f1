"""German (capture/lang_de.py), written from the labelling rules: standing instructions in
the language's real word orders (the imperative first and "nicht" after it: "ändere die
Tests nicht"; "nicht" before the infinitive: "bitte nicht die API ändern"; "kein X"),
immer/nie where they instruct; refusals, corrections and skips; choices. What states nothing
(a question with or without its mark, a request for work, narration, "kein Problem",
thanks, impatience) and what the user relays is never a record."""

from __future__ import annotations

import pytest

from context_memory.capture.prompts import classify
from helpers.cases_de import CAPTURED, NOT_CAPTURED
from helpers.language_cases import relayed_forms


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
