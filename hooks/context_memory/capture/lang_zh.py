"""Chinese (simplified and traditional): directive and choice patterns. No ``\\b``: Han
characters are all word characters, so patterns name whole phrases instead."""

DIRECTIVES = (
    # refusals and corrections ("不要" but not "要不要" or "不要紧"; "不用" but not "不用谢")
    (r"(?<!要)不要(?!紧|緊)|别再|別再|别用|別用|不用(?!谢|謝|客气|客氣)|不对|不對", "rejected"),
    (r"不需要|不必(?!要)|用不着|用不著|算了", "rejected"),
    (r"别(?:改|动|碰|删|加)|別(?:改|動|碰|刪|加)", "rejected"),
    (r"不是.{1,30}而是", "rejected"),
    (
        r"(?:撤销|撤銷|回滚|回滾|还原|還原)(?:刚才|剛才|之前|这个|這個|那个|那個)?的?"
        r"(?:修改|改动|改動|更改)",
        "rejected",
    ),
    # standing instructions
    (
        r"一律|以后都|以後都|之后都|之後都|今后|今後|从现在开始|從現在開始|从今以后|從今以後",
        "constraint",
    ),
    (r"永远|永遠|总是|總是|始终|始終|必须|必須|务必|務必|禁止", "constraint"),
    (
        r"每次(?:都)?(?:要|用|先|只|必须|必須)|只(?:能|用|针对|針對|改|保留|需要)|只要.{1,30}就(?:好|行|够|夠|可以)",
        "constraint",
    ),
    (r"不(?:能|可以|准|许|許)(?:用|使用|改|删|刪|动|動|碰)", "constraint"),
    (r"保持|保留|全部用|都用|统一用|統一用", "constraint"),
    # an order to keep: "先测试再提交" (test first, then commit)
    (r"先.{1,20}再(?:提交|推送|发布|發布|合并|合併|上线|上線|push|commit|merge)", "constraint"),
    (
        r"(?:用|以)(?:中文|英文|繁体|繁體|简体|簡體)(?:回复|回覆|回答|沟通|溝通|交流|输出|輸出)",
        "constraint",
    ),
    # choices
    (r"改成|改用|改为|改為|换成|換成|换用|換用|用\S{1,20}(?:代替|替代|取代)|而不是", "decided"),
    (r"借鉴|借鑒|照搬|复刻|復刻|預設|预设|默认用|默認用", "decided"),
    (r"就用|就按|采用|採用|(?:还是|還是)(?:用|按)|决定用|決定用|选择用|選擇用", "decided"),
)

PROPOSALS = (
    r"要不|不如|何不|能不能(?:直接|改|用|不)|可不可以(?:直接|改|用|不)|是不是可以|是否可以",
    r"为什么不|為什麼不|还是说|還是說",
)

VETOES = (
    # "I don't know", "not sure": no rule
    r"不知道|不确定|不確定|不清楚",
    # "not yet" defers, it turns nothing down
    r"先不|暂时不|暫時不|等一下再",
)

PICKS = (
    r"^(?:那?就|好的?[，,]?\s*|我?选|我?選|用|按)?\s*(?:第\s*)?(?:方案|选项|選項|选择|選擇)?\s*"
    r"(?P<n>[1-9一二三四五六七八九a-fA-F])\s*(?:个|個|种|種|号|號)?\s*(?:方案|选项|選項|吧|好了|"
    r"就好|就行|即可|可以)?[。！!.]*$",
)
ORDINALS = {
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}

AFFIRMS = (
    r"^(?:好的?|行|可以|没问题|沒問題|嗯|对|對)?[，,！!。 ]*(?:就)?(?:这样|這樣|照这样|照這樣)"
    r"(?:做|办|辦|来|來)?吧?[。！!]*$",
    r"^(?:好的?|行|可以)?[，,！!。 ]*(?:就)?(?:按|照)(?:你|您)(?:说|說|推荐|推薦|建议|建議)的"
    r"(?:来|來|做|办|辦)?吧?[。！!]*$",
)

# Stance cues for calls.directives.stance_split (see core/directive_tables.STANCE_CUES):
# "out" before what is ruled out, "pref" before what is preferred, "pref-out" between the
# two.
STANCES = (
    ("不要用", "out"),
    ("别用", "out"),
    ("別用", "out"),
    ("不要", "out"),
    ("别再", "out"),
    ("別再", "out"),
    ("不用", "out"),
    ("禁止", "out"),
    ("改成", "pref"),
    ("改用", "pref"),
    ("改为", "pref"),
    ("改為", "pref"),
    ("换成", "pref"),
    ("換成", "pref"),
    ("就用", "pref"),
    ("采用", "pref"),
    ("採用", "pref"),
    ("而不是", "pref-out"),
    ("代替", "pref-out"),
    ("替代", "pref-out"),
    ("取代", "pref-out"),
)
# Written without spaces between words: cues are spaced out before stance_split reads them.
SPACED = False

# The language's words for languages ("answer in Korean"), with their English name:
# a directive naming one also carries the English name, the word a handoff uses.
NAMES = {
    "中文": "chinese",
    "汉语": "chinese",
    "漢語": "chinese",
    "英文": "english",
    "英语": "english",
    "英語": "english",
    "繁体": "traditional chinese",
    "繁體": "traditional chinese",
    "简体": "simplified chinese",
    "簡體": "simplified chinese",
    "日文": "japanese",
    "日语": "japanese",
    "韩文": "korean",
    "韓文": "korean",
}

# What shows a text may be in this language (capture/cues.languages_in): its script's
# character ranges, letters of its alphabet, or its common words; its patterns are compiled
# only for such a text.
RANGES: tuple[tuple[str, str], ...] = (("\u4e00", "\u9fff"), ("\u3400", "\u4dbf"))
LETTERS = "，。；：！？、"
WORDS: frozenset[str] = frozenset()
