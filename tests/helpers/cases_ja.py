"""Japanese prompts for capture/languages/ja.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "ログにこう出ている"

CAPTURED: list[tuple[str, str]] = [
    # the tool a part is managed with, a value chosen, the place chosen, a rule for every
    # one (session 18)
    ("uvで管理してください", "decided"),
    ("タイトルを青にして", "decided"),
    ("設定はconfigフォルダに置いて", "decided"),
    ("すべての時刻はUTCで", "constraint"),
    ("Fastify でサーバーを作る", "decided"),
    ("pytest で書く（tests/ 配下）", "decided"),
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
    # "X, not Y"; more negative imperatives
    ("テストは書かなくていい", "rejected"),
]

NOT_CAPTURED: list[str] = [
    # asked, not settled (session 18's entries must not read them)
    "Dockerで管理していますか？",
    "設定はどこに置いてありますか",
    "すべての時刻はUTCですか？",
    "ここで止まる",
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
    # what could be or was done: narration
    "axios を使わないで済む",
    "設定は入れないでおいた",
    "今後の予定を教えて",
    "これだけで動いた",
    "Python で書いてみたけど遅い",
    # reported speech: a quoted text an error shows
    "エラーに「このバージョンを使わないで」と出ている",
    # fillers
    "問題ない",
    "ありがとう！",
    # a "no" that only reports the work still fails
    "いや、まだ動かない",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex の回答：",
    "レビューのコメント：",
    "Codex のレビュー：",
    "レビュアーの指摘：",
    "ビルドの出力：",
    "エラー内容：",
    "CI のログ：",
    "実行結果：",
    "ChatGPT からの返信：",
    "Copilot の提案：",
    "テストの報告：",
]
