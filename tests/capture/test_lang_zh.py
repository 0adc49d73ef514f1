"""Chinese (capture/languages/zh.txt), written from the labelling rules: refusals (不要, 别,
不用 and 不需要 where no other subject owns them), standing instructions (必须, 禁止, 以后 ... 都要,
每次 ... 都, 记得, 尽量, 避免, 不准 + a verb, the language answers or comments are in),
corrections (错了, 不是这样, 我说的是 ...), skips and undo, choices (倾向于, 用 X 吧, 选第二个).
What states nothing (a question with or without its mark, a request for work, narration:
"构建总是失败", "用户不需要登录", thanks, impatience) and what the user relays is never a
record."""

from __future__ import annotations

from context_memory.capture.prompts import classify


def test_a_line_that_only_labels_the_users_notes_relays_nothing() -> None:
    # "说明：" (notes:) is the user's own heading, not someone else's words
    found = classify("说明：\n以后都用 pnpm")
    assert found is not None
    assert found.kind == "constraint"
