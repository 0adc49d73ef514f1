"""French (capture/languages/fr.txt), written from the labelling rules: standing instructions in
the language's real negative imperative ("ne/n' + verb + pas/jamais/rien", with no subject
before it; "ne pas + infinitive"; the spoken form without "ne": "touche pas"), typed with
either apostrophe; toujours/jamais where they instruct; refusals, corrections and skips;
choices. What states nothing (a question with or without its mark, a request for work,
narration: "il n'utilise pas le mock", "pas de souci", thanks, impatience) and what the
user relays is never a record."""

from __future__ import annotations

from context_memory.capture.prompts import classify


def test_an_english_text_with_a_french_word_keeps_its_english_reading() -> None:
    # "comment" opens a French question, and an English order
    found = classify("Comment out the debug lines and never commit them")
    assert found is not None
    assert found.kind == "constraint"
