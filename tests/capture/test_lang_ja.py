"""Japanese (capture/lang_ja.py), written from the labelling rules: refusals (～ないで,
～ないでください, じゃなくて), standing instructions (今後, 必ず/常に/毎回 where the sentence
asks for it, the plain negative of a rule: ～は使わない, ～しないこと; 避けて, なるべく, だけ
修正して, 忘れないで, 維持して), corrections (そうじゃない, 間違ってる, ～と言った), skips,
choices (～番目の案に, ～な方で). What states nothing (a question with or without its mark, a
request for work, narration: "ビルドが毎回失敗する", impatience: "できるだけ早く", thanks)
and what the user relays is never a record."""

from __future__ import annotations

import pytest

from context_memory.capture import lang_ja
from context_memory.capture.prompts import classify
from helpers.cases_ja import CAPTURED, NOT_CAPTURED, RELAY_LINES
from helpers.language_cases import intros_without_example, relayed_forms


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_japanese_directive_is_captured_with_its_kind(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind
    assert found.quote == text


@pytest.mark.parametrize("text", NOT_CAPTURED)
def test_what_states_nothing_in_japanese_is_not_captured(text: str) -> None:
    assert classify(text) is None


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_japanese_directive_the_user_relays_is_not_captured(text: str, kind: str) -> None:
    for relayed in relayed_forms("ログにこう出ている", text):
        assert classify(relayed) is None, relayed


@pytest.mark.parametrize("intro", RELAY_LINES)
def test_a_japanese_directive_after_a_line_that_relays_is_not_captured(intro: str) -> None:
    for text, _ in CAPTURED[:3]:
        assert classify(f"{intro}\n{text}") is None, (intro, text)
    # the user's own words before that line still count
    text, kind = CAPTURED[0]
    found = classify(f"{text}\n{intro}\n{CAPTURED[1][0]}")
    assert found is not None
    assert found.kind == kind


def test_every_japanese_relay_intro_has_an_example() -> None:
    assert intros_without_example(lang_ja, RELAY_LINES) == []
