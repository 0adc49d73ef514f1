"""Vietnamese (capture/lang_vi.py), written from the labelling rules, typed with tone marks
and without them (many users type unmarked: "dung" is then both "đừng", don't, and "dùng",
use): standing instructions (đừng, không được + a verb, cấm, luôn where it leads the
sentence, từ giờ, mỗi lần ... thì ..., nhớ, tránh, "chạy test trước đi"); refusals,
corrections and skips; choices. What states nothing (a question with or without its mark,
a request for work, narration: "vẫn không được", "build luôn lỗi", thanks, impatience) and
what the user relays is never a record."""

from __future__ import annotations

import pytest

from context_memory.capture import lang_vi
from context_memory.capture.prompts import classify
from helpers.cases_vi import CAPTURED, NOT_CAPTURED, RELAY_LINES
from helpers.language_cases import intros_without_example, relayed_forms


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_vietnamese_directive_is_captured_with_its_kind(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind
    assert found.quote == text


@pytest.mark.parametrize("text", NOT_CAPTURED)
def test_what_states_nothing_in_vietnamese_is_not_captured(text: str) -> None:
    assert classify(text) is None


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_vietnamese_directive_the_user_relays_is_not_captured(text: str, kind: str) -> None:
    for relayed in relayed_forms("log hiện ra thế này", text):
        assert classify(relayed) is None, relayed


@pytest.mark.parametrize("intro", RELAY_LINES)
def test_a_vietnamese_directive_after_a_line_that_relays_is_not_captured(intro: str) -> None:
    for text, _ in CAPTURED[:3]:
        assert classify(f"{intro}\n{text}") is None, (intro, text)
    # the user's own words before that line still count
    text, kind = CAPTURED[0]
    found = classify(f"{text}\n{intro}\n{CAPTURED[1][0]}")
    assert found is not None
    assert found.kind == kind


def test_every_vietnamese_relay_intro_has_an_example() -> None:
    assert intros_without_example(lang_vi, RELAY_LINES) == []
