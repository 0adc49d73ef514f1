"""Japanese (capture/lang_ja.py), written from the labelling rules: refusals (～ないで,
～ないでください, じゃなくて), standing instructions (今後, 必ず/常に/毎回 where the sentence
asks for it, the plain negative of a rule: ～は使わない, ～しないこと; 避けて, なるべく, だけ
修正して, 忘れないで, 維持して), corrections (そうじゃない, 間違ってる, ～と言った), skips,
choices (～番目の案に, ～な方で). What states nothing (a question with or without its mark, a
request for work, narration: "ビルドが毎回失敗する", impatience: "できるだけ早く", thanks)
and what the user relays is never a record."""

from __future__ import annotations

import pytest

from capture.test_languages import EXAMPLES
from context_memory.capture import lang_ja
from context_memory.capture.prompts import classify
from helpers.language_cases import entries_without_example, relayed_forms

CAPTURED: list[tuple[str, str]] = [
    # refusals
    ("テストを修正しないで", "rejected"),
    ("新しい依存を追加しないでください", "rejected"),
    # always, without fail, every time, where the sentence asks for it
    ("常に型を付けて", "constraint"),
    ("コミット前に必ずテストを通すこと", "constraint"),
    ("毎回 lint を実行して", "constraint"),
    # the plain negative of a rule, avoid, as far as possible, only, don't forget, keep
    ("any は使わない", "constraint"),
    ("テストは変更しないこと", "constraint"),
    ("グローバル変数は避けて", "constraint"),
    ("なるべく標準ライブラリを使って", "constraint"),
    ("main.py だけ修正して", "constraint"),
    ("changelog の更新を忘れないで", "constraint"),
    ("API はそのまま維持して", "constraint"),
    ("pnpm を使うこと", "constraint"),
    ("コードスタイルは統一して", "constraint"),
    # corrections and skips
    ("そうじゃない", "rejected"),
    ("まだ違う", "rejected"),
    ("間違ってる、ポートは 8080", "rejected"),
    ("pnpm を使ってと言ったよね", "rejected"),
    ("このデザインは好きじゃない", "rejected"),
    ("キャッシュの部分はスキップして", "rejected"),
    # choices
    ("2番目の案にします", "decided"),
    ("シンプルな方で", "decided"),
    ("vite に置き換えて", "decided"),
    ("webpack から vite に移行しよう", "decided"),
]

NOT_CAPTURED = [
    # questions, with and without their mark
    "このテストを直してもらえますか？",
    "このテストを直してもらえますか",
    "キャッシュを使わないにはどうすればいい",
    "なぜ pnpm を使わなかったの？",
    "redis を使うのはどう思う",
    # requests for work with no rule in them, impatience
    "ログインのバグを直して",
    "保存ボタンを追加して",
    "できるだけ早く直して",
    "早くして",
    # narration: every time / always describing, a plain negative in a reason
    "CI でビルドが毎回失敗する",
    "必ず落ちる",
    "モックを使わないからテストが落ちる",
    "まだ動かない",
    "axios を使ってみたけど動かない",
    "間違いないです",
    "つまりバグということ",
    # reported speech: a quoted text an error shows
    "エラーに「このバージョンを使わないで」と出ている",
    # fillers
    "問題ない",
    "ありがとう！",
]


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


def test_every_japanese_entry_has_an_example() -> None:
    assert entries_without_example(lang_ja, CAPTURED + EXAMPLES["ja"]) == []
