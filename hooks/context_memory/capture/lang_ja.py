"""Japanese: directive and choice patterns (no ``\\b``; see zh.py)."""

DIRECTIVES = (
    # refusals and corrections: "…ないで" (don't), "じゃなくて" (not X but), "違う", "やめて"
    # (not "使わないで済む", "入れないでおいた": what could be or was left out)
    (
        r"(?:使わ|やら|入れ|変え|触ら|消さ|追加し|作ら|書か|いじら)ないで"
        r"(?!済|すみ|すむ|おいた|いた|いる|しまっ|も)",
        "rejected",
    ),
    (r"じゃなくて|ではなく|^(?:いや[、,]?\s*)?(?:違います|ちがう|違う)|やめて|止めて", "rejected"),
    (r"いらない|要らない|必要(?:は)?ない|不要です|は不要|元に戻して", "rejected"),
    # "…たくない" (I don't want to …)
    (r"(?:使い|入れ|変え|やり|し|され)たくない", "rejected"),
    # a polite prohibition ("…ないでください"), or one that ends the sentence
    # ("忘れないで", don't forget, is a reminder: below)
    (
        r"(?<!忘れ)ないで(?:ください|下さい|ほしい|欲しい)|(?<!忘れ)ないで[ねよ]?[。！!]*$",
        "rejected",
    ),
    # "そうじゃない" (not like that), "間違ってる" (that's wrong), "…と言ったよね" (I said …),
    # "好きじゃない" (I don't like it); skip it: "スキップして", "飛ばして"
    (
        r"^(?:いや[、,]?\s*)?(?:そう|それ)(?:じゃ|では)(?:ない|なくて|ありません)|"
        r"間違(?:ってる|っている|ってます|っています|えてる|えている|いです|い[。、,])|"
        r"(?:と|って)(?:言った|言いました|お願いした)|好きじゃない|好きではない|気に入らない|"
        r"気に入りません|いまいち|イマイチ|スキップ(?:して|しよう|で)|飛ばして|省略して|"
        r"(?:まだ|また|やっぱり)(?:違う|違います|間違って)|"
        r"なくて(?:も)?(?:いい|良い|大丈夫|OK)(?:です)?[。！!]*$",
        "rejected",
    ),
    # standing instructions
    # always, without fail, every time: only where the sentence asks for it ("ビルドが毎回失敗
    # する" describes)
    (
        r"今後(?!の)|これからは|以後(?!の)|(?:常に|必ず|絶対(?:に)?|毎回)[^。]{0,30}(?:て(?:ください|下さい|ね)?"
        r"[。！!]*$|こと[。！!]*$|しろ|ように|ないで)",
        "constraint",
    ),
    # a rule in the plain negative ("any は使わない", "変更しないこと"), avoid, as far as
    # possible (not "できるだけ早く": impatience), only, don't forget, keep as it is
    (
        r"(?:は|を)(?:使わ|変更し|修正し|削除し|追加し|触ら|入れ|書か|いじら|変え|消さ)ない"
        r"(?:こと|ように)?[。！!]*$|(?:し|使わ|触ら|入れ|変え|消さ|書か|作ら|やら)ないこと|"
        r"(?:は|を)避け(?:て|る|ましょう|てください)|"
        r"(?:なるべく|できるだけ|出来るだけ|極力|可能な限り)(?!早|はやく|すぐ)|"
        r"(?:だけ|のみ)(?:を)?(?:修正|変更|編集|更新)(?:して|すること|しろ)|"
        r"忘れない(?:で|ように|こと)|忘れずに|維持(?:して|すること|しろ)|そのまま(?:に)?して|"
        r"(?<!とい)[うくすつぬむるぐぶ]こと[。！!]*$|統一(?:して|すること|しよう)",
        "constraint",
    ),
    # only: asked for ("だけを使ってください"), not "これだけで動いた" (it worked with just this)
    (
        r"(?:だけ|のみ)(?:を)?(?:使(?:って(?!み|た)|う|用)|に(?:して|する|限定)|"
        r"で(?:お願い|いい|十分|OK|答え|回答|書))",
        "constraint",
    ),
    (r"(?:日本語|英語)で(?:回答|返答|答え|書|説明|話)", "constraint"),
    # "…ようにして" (make it so that …), "…に統一" (the same … everywhere)
    (r"ように(?:して|する|しろ)|(?:に|で)統一", "constraint"),
    # choices
    (
        r"代わりに|に(?:変更|切り替え|変え|置き換え|移行|乗り換え|差し替え)(?:し)?(?:て|よう|ます|る|"
        r"ましょう)",
        "decided",
    ),
    (
        r"(?:を|で)使(?:って(?!み|い|た|も|る)|おう|いましょう)|にしよう|にしましょう|で(?:いこう|行こう|進めて)|採用",
        "decided",
    ),
    # a preference: "…の方がいい" (… is better), "…にしたい" (I want it …)
    (
        r"(?:方|ほう)が(?:いい|良い)(?:です)?[ねよ]?[。！!]*$|にしたい|(?:に|と)して(?:ほしい|欲しい)",
        "decided",
    ),
    # an option named by its place ("2番目の案にします"), "シンプルな方で" (the simpler one)
    (
        r"(?:番目|つ目)の(?:案|方|方法|オプション)(?:に|で)|(?:な|い|の)(?:方|ほう)で"
        r"(?:お願いします|お願い|いこう|進めて(?:ください)?)?[。！!]*$",
        "decided",
    ),
    # "X でお願いします", "X にしてください": the choice of X
    (r"(?:で|に)(?:お願いします|お願い|してください|して下さい)[。！!]*$", "decided"),
    # "提案の通りで" (as you proposed): takes up what the agent proposed
    (
        r"(?:おすすめ|推奨|提案)(?:の|された)?(?:通り|とおり|方法|案)で",
        "decided",
    ),
    # "はい、ただ ..." (yes, but ...): approves the proposal, amended
    (
        r"^(?:はい|いいです|OK|了解(?:です)?)[、,。\s]*(?:ただ|でも|あと|それと)",
        "decided",
    ),
    # "X で大丈夫" (X is fine), "X を優先", "名前は X に", "TypeScript で書いて"
    (
        r"(?:で|が)(?:大丈夫|OK|いい|良い)(?:です)?[。！!]*$|を優先|名前は.{1,30}に|"
        r"で(?:書いて|作って|実装して)(?!み|い|た|も|る)",
        "decided",
    ),
)

AGENT_CHOICES = (r"の代わりに|ではなく|を避ける(?:ため)?|に(?:変更|切り替え)",)
AGENT_ACTS = (
    r"(?:を)?使(?:います|う|用します)|にします|に(?:変更|切り替え)(?:します|しました)|採用します",
)

PROPOSALS = (
    r"ませんか|のはどう|はどう(?:です|でしょう)?か|べきでは|方がいい(?:のでは|かな|んじゃ)",
)

DEFERS = (
    # 検討中, 後で, まだ, 未定, 説明して, 例を見せて, どう思う: nothing settled yet
    r"検討|相談|後で|あとで|まだ決|未定|考え中|わからない|分からない|説明して|例を|どう思",
)

VETOES = (
    r"わからない|分からない|わかりません|分かりません",
    # a question typed without its mark: a question word first, a question ending
    r"^(?:なぜ|どうして|なんで)|どう(?:すれば|したら)(?:いい|良い)?[。]*$|"
    r"(?:ですか|ますか|でしょうか|かな|かい)[。]*$|どう思う",
    # reported speech: a quoted text an error or a tool shows ("「…」と出ている")
    r"(?:」|』)\s*(?:と|って)(?:出|書|表示|言わ|あ)|(?:と|って)(?:出て|書いて|表示され)(?:いる|る|ます)",
)

PICKS = (
    r"^(?:じゃあ|では|それでは)?\s*(?:案|オプション|選択肢|プラン)?\s*(?P<n>[1-9１-９a-fA-F①-⑨])"
    r"\s*(?:番|案|つ目)?\s*(?:で|に|を)?\s*(?:お願いします|お願い|します|しよう|いこう|"
    r"進めて(?:ください)?|ください)?[。！!.]*$",
    r"^(?:じゃあ|では)?\s*(?P<n>最初|一つ目|二つ目|三つ目)の?(?:案|方|もの|やつ|オプション)?\s*"
    r"(?:で|に|を)?\s*(?:お願いします|お願い|します|しよう|ください)?[。！!.]*$",
)
ORDINALS = {
    "最初": 1, "一つ目": 1, "二つ目": 2, "三つ目": 3, "①": 1, "②": 2, "③": 3, "④": 4, "⑤": 5,
    "⑥": 6, "⑦": 7, "⑧": 8, "⑨": 9,
}  # fmt: skip

# A question typed without a question mark (ですか, なぜ, どう): prompts.asks_only.
QUESTIONS = (
    r"(?:ですか|ますか|でしょうか|かな)[。]*$|なぜ|どうして|どう(?:すれば|やって)|どれ|どこ",
)

# A reply that only says go on (続けて): after a call rejected with no reason it
# carries no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:はい|うん)[、,。 ]*)?(?:続けて|続行|進めて)(?:ください)?",)

# A rejection's typed reason that starts by saying yes ("yes and be aware I use nvm",
# "ok but show hidden files too"): unless the rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:はい|いいよ|いいです|大丈夫|OK)[、。,！! ]",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (いい, お願い, にする, それで): prompts.picked_option.
CHOOSES = (r"いい|良い|お願い|にし|にする|を使|はい|それで|賛成|進め",)

AFFIRMS = (
    r"^(?:はい|うん|ええ)?[、。！!\s]*(?:それで|そうして|おすすめ(?:の方)?で|推奨(?:の方)?で)"
    r"(?:いい|いいです|お願いします|お願い|進めて(?:ください)?|ください)?[。！!]*$",
)

# Japanese puts the object before the verb ("npmを使わないで"): no stance cue form reads
# that order, so directives keep an approach subject (they remind, never make the guard ask).
# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    ("回答|コメント|レビュー|指摘|出力|エラー|ログ|結果|返信|提案|報告").split("|")
)

STANCES: tuple[tuple[str, str], ...] = ()
SPACED = False

NAMES = {"日本語": "japanese", "英語": "english", "中国語": "chinese", "韓国語": "korean"}

RANGES: tuple[tuple[str, str], ...] = (
    ("\u3040", "\u30ff"),
    ("\u4e00", "\u9fff"),
    ("\uff10", "\uff19"),
    ("\u2460", "\u2473"),
)
LETTERS = ""
WORDS: frozenset[str] = frozenset()
