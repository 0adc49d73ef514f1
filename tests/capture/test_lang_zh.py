"""Chinese (capture/lang_zh.py), written from the labelling rules: refusals (不要, 别, 不用 and
不需要 where no other subject owns them), standing instructions (必须, 禁止, 以后 ... 都要,
每次 ... 都, 记得, 尽量, 避免, 不准 + a verb, the language answers or comments are in),
corrections (错了, 不是这样, 我说的是 ...), skips and undo, choices (倾向于, 用 X 吧, 选第二个).
What states nothing (a question with or without its mark, a request for work, narration:
"构建总是失败", "用户不需要登录", thanks, impatience) and what the user relays is never a
record."""

from __future__ import annotations

import pytest

from context_memory.capture import lang_zh
from context_memory.capture.prompts import classify
from helpers.cases_zh import CAPTURED, NOT_CAPTURED, RELAY_LINES
from helpers.language_cases import intros_without_example, relayed_forms


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_chinese_directive_is_captured_with_its_kind(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind
    assert found.quote == text


@pytest.mark.parametrize("text", NOT_CAPTURED)
def test_what_states_nothing_in_chinese_is_not_captured(text: str) -> None:
    assert classify(text) is None


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_chinese_directive_the_user_relays_is_not_captured(text: str, kind: str) -> None:
    for relayed in relayed_forms("日志里是这样的", text):
        assert classify(relayed) is None, relayed


@pytest.mark.parametrize("intro", RELAY_LINES)
def test_a_chinese_directive_after_a_line_that_relays_is_not_captured(intro: str) -> None:
    for text, _ in CAPTURED[:3]:
        assert classify(f"{intro}\n{text}") is None, (intro, text)
    # the user's own words before that line still count
    text, kind = CAPTURED[0]
    found = classify(f"{text}\n{intro}\n{CAPTURED[1][0]}")
    assert found is not None
    assert found.kind == kind


def test_every_chinese_relay_intro_has_an_example() -> None:
    assert intros_without_example(lang_zh, RELAY_LINES) == []


def test_a_line_that_only_labels_the_users_notes_relays_nothing() -> None:
    # "说明：" (notes:) is the user's own heading, not someone else's words
    found = classify("说明：\n以后都用 pnpm")
    assert found is not None
    assert found.kind == "constraint"
