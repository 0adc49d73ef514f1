"""Korean (capture/lang_ko.py), written from the labelling rules: refusals (～지 마, ～지 말아
줘, 말고), standing instructions (지금부터/앞으로, 항상/반드시/매번/꼭 where they open the
sentence or it asks for something, 금지, ～지 않도록, 피해 줘, 가능하면, 만 바꿔 줘, 잊지 마),
corrections (그게 아니야, 틀렸어, ～라고 했잖아, 안 써도 돼), skips, choices (X가 더 나아,
두 번째 방안으로, 간단한 쪽으로). What states nothing (a question with or without its mark,
a request for work, narration: "빌드가 항상 실패해", impatience: "최대한 빨리", thanks) and
what the user relays is never a record."""

from __future__ import annotations

import pytest

from context_memory.capture import lang_ko
from context_memory.capture.prompts import classify
from helpers.cases_ko import CAPTURED, NOT_CAPTURED, RELAY_LINES
from helpers.language_cases import intros_without_example, relayed_forms


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_korean_directive_is_captured_with_its_kind(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind
    assert found.quote == text


@pytest.mark.parametrize("text", NOT_CAPTURED)
def test_what_states_nothing_in_korean_is_not_captured(text: str) -> None:
    assert classify(text) is None


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_korean_directive_the_user_relays_is_not_captured(text: str, kind: str) -> None:
    for relayed in relayed_forms("로그에 이렇게 나와", text):
        assert classify(relayed) is None, relayed


@pytest.mark.parametrize("intro", RELAY_LINES)
def test_a_korean_directive_after_a_line_that_relays_is_not_captured(intro: str) -> None:
    for text, _ in CAPTURED[:3]:
        assert classify(f"{intro}\n{text}") is None, (intro, text)
    # the user's own words before that line still count
    text, kind = CAPTURED[0]
    found = classify(f"{text}\n{intro}\n{CAPTURED[1][0]}")
    assert found is not None
    assert found.kind == kind


def test_every_korean_relay_intro_has_an_example() -> None:
    assert intros_without_example(lang_ko, RELAY_LINES) == []
