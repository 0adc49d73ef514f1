"""Portuguese (capture/languages/pt.txt), written from the labelling rules: standing instructions in
the language's real negative imperative (the subjunctive: "não corrija", "nunca apague"),
typed with or without accents; refusals and corrections; choices. What states nothing (a
question with or without its mark, a request for work, narration, thanks, impatience) and
what the user relays is never a record."""

from __future__ import annotations

import pytest

from context_memory.capture.prompts import classify


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
