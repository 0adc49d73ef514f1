"""Chinese (simplified and traditional): directive and choice patterns. No ``\\b``: Han
characters are all word characters, so patterns name whole phrases instead."""

DIRECTIVES = (
    # refusals and corrections ("不要" but not "要不要" or "不要紧"; "不用" but not "不用谢")
    # "不要忘了" (don't forget) is a reminder, below; "不用"/"不需要" after a subject other
    # than the work ("用户不需要登录" states a fact) is no refusal
    (r"(?<!要)不要(?!紧|緊|忘)|别再|別再|别用|別用|不对|不對", "rejected"),
    (
        r"(?:^|[，,、；;：: ]|这个|這個|那个|那個|这些|這些|这里|這裡|也|就|都|完全|根本|暂时|暫時|"
        r"已经|已經|现在|現在|我们|我們|你|您)(?:不用(?!谢|謝|客气|客氣)|不需要|不必(?!要)|用不着|"
        r"用不著)|不需要了|算了",
        "rejected",
    ),
    # "错了" (wrong) where it opens the reply or says who got it wrong ("报错了" is an error),
    # "不是这样", "我说的是 X" (what I said is X), "没必要" (no need)
    (
        r"^(?:不对|不對)?[，, ]*(?:错了|錯了)|(?:理解|搞|弄|写|寫|改)(?:错|錯)了|"
        r"不是(?:这样|這樣|这个|這個|那个|那個|我要的|我想要的)|^不[，,！!]|^不是[，,！!。]|"
        r"(?:还是|還是|又)(?:不对|不對|错了|錯了)|"
        r"我(?:刚才|剛才|之前|已经|已經)?(?:说|說)(?:的是|过|過)|我不是(?:说|說)了|"
        r"没(?:有)?必要|沒(?:有)?必要|多余|多餘",
        "rejected",
    ),
    # "别 + a verb" where it opens or follows an adverb of insistence ("千万别往 main 上推";
    # not 特别, 区别, 识别, 别人)
    (
        r"(?:^|[，,、 ]|千万|千萬|请|請|你|也|就|都|先|可|最好)(?:别|別)"
        r"(?:往|在|把|给|給|再|去|随便|隨便|乱|亂|直接|自己|提交|推|上传|上傳|写|寫|装|裝|"
        r"安装|安裝|引入|删除|刪除|修改|重构|重構|"
        r"生成|创建|創建|覆盖|覆蓋|运行|運行|跑|执行|執行|管|搞|弄|让|讓)",
        "rejected",
    ),
    # skip it, undo it: "跳过 X", "改回去", "恢复原样"
    (
        r"^(?:请|請)?(?:先)?(?:跳过|跳過)|改回(?:去|来|來|原来|原來)|"
        r"(?:恢复|恢復)(?:成|到)?原(?:来|來|样|樣)|撤回",
        "rejected",
    ),
    # "I don't like it": the option shown is turned down
    (r"不喜欢|不喜歡|不满意|不滿意", "rejected"),
    (r"别(?:改|动|碰|删|加)|別(?:改|動|碰|刪|加)", "rejected"),
    (r"不是.{1,30}而是|[，,]\s*(?:不是|而非)\s?[A-Za-z][\w.+#-]*[。！!]*$", "rejected"),
    (
        r"(?:撤销|撤銷|回滚|回滾|还原|還原)(?:刚才|剛才|之前|这个|這個|那个|那個)?的?"
        r"(?:修改|改动|改動|更改)",
        "rejected",
    ),
    # standing instructions
    (
        r"一律|以后都|以後都|之后都|之後都|今后(?!的)|今後(?!的|の)|从现在开始|從現在開始|从今以后|從今以後",
        "constraint",
    ),
    # always where it leads or says what to do ("构建总是失败" describes)
    (
        r"(?:^|[，,、 ]|请|請|要|你|都)(?:总是|總是|始终|始終|永远|永遠)"
        r"(?!同一|一样|一樣|这样|這樣|那样|那樣|这个|這個|报错|報錯|失败|失敗|出错|出錯)|"
        r"(?:总是|總是|始终|始終|永远|永遠)(?:要|都要|先|用|使用|保持|记得|記得)|"
        r"必须|必須|务必|務必|禁止",
        "constraint",
    ),
    (
        r"每次(?:都)?(?:要|用|先|只|必须|必須)|只(?:能(?:用|使用|改|修改|在)|用|针对|針對|改|保留|需要)|只要.{1,30}就(?:好|行|够|夠|可以)",
        "constraint",
    ),
    # "以后提交前都要 ..." (from now on, before committing ...), "每次改完都跑测试"
    (
        r"(?:以后|以後|今后|今後)[^，。,]{0,15}(?:都要|都得|都用|都先|一律)|"
        r"每次[^，。,]{0,15}都(?:要|得|跑|先|用|检查|檢查|运行|運行|测试|測試)",
        "constraint",
    ),
    (
        r"不(?:能|可以|准|许|許|得)(?:再)?(?:用|使用|改|修改|删|刪|删除|刪除|动|動|碰|提交|推送|"
        r"上传|上傳|引入|添加|安装|安裝)",
        "constraint",
    ),
    # remember, make sure of something checkable (not "保证运行顺畅", a wish), as far as
    # possible, avoid; the language the answers or comments are in
    (
        r"^(?:请|請)?(?:记得|記得|别忘了|別忘了|不要忘了|不要忘记|不要忘記|别忘记|別忘記)|"
        r"^(?:请|請)?(?:确保|確保|保证|保證)[^，。,]{0,20}(?:不|没有|沒有|都|所有|每个|每個|兼容|一致)|"
        r"(?:尽量|儘量|尽可能|盡可能)(?:不要|别|別|不|用|使用|保持|少|避免|减少|減少)|"
        r"^(?:请|請|尽量|儘量)?避免|避免(?:使用|用|引入|修改)|"
        r"(?:回答|回复|回覆|输出|輸出|注释|註釋|文档|文檔|提交信息)[^，。,]{0,6}(?:用|使用)"
        r"(?:中文|英文|英语|英語|繁体|繁體|简体|簡體)",
        "constraint",
    ),
    # keep: where it opens or follows an insistence ("页面保持空白", "我保留了" describe)
    (
        r"(?:^|[，,、 ]|请|請|要|都|一定|务必|務必|尽量|儘量|继续|繼續)(?:保持|保留)|"
        r"保持(?:一致|不变|不變|原样|原樣)|全部用|都用|统一用|統一用",
        "constraint",
    ),
    # "I don't want ...": a standing wish about how the work goes
    (r"不希望|不想(?:要|用|让|讓|被)", "constraint"),
    # an order to keep: "先测试再提交" (test first, then commit)
    (r"先.{1,20}再(?:提交|推送|发布|發布|合并|合併|上线|上線|push|commit|merge)", "constraint"),
    (
        r"(?:用|以)(?:中文|英文|繁体|繁體|简体|簡體)(?:回复|回覆|回答|沟通|溝通|交流|输出|輸出)",
        "constraint",
    ),
    # the language of the conversation: "汉语和我聊", "跟我说英文"
    (
        r"(?:中文|汉语|漢語|英文|英语|英語)(?:和|跟|与|與)我(?:聊|说|說|沟通|溝通|交流)|"
        r"(?:和|跟)我(?:说|說|聊)(?:中文|汉语|漢語|英文|英语|英語)",
        "constraint",
    ),
    # choices
    (
        r"改成|改用|改为|改為|换成|換成|换用|換用|用\s?\S{1,20}\s?(?:代替|替代|取代|替换|替換)|而不是",
        "decided",
    ),
    # a preference ("我倾向于 X", "更喜欢 X"); an option chosen by its number ("选第二个",
    # "用方案二"); "用 X 吧" (let's use X)
    (
        r"(?:倾向于|傾向於|倾向|傾向|更喜欢|更喜歡|偏向|首选|首選)|"
        r"(?:我觉得|我覺得)[^，。,]{1,30}(?:更好|比较好|比較好|好一些|好一点|好一點)|"
        # "就它了" (that one), "定了，..." (settled), "那就 X 吧" (then X)
        r"就(?:它|这个|這個|那个|那個)(?:了|吧)|^(?:定了|决定了|決定了)[，,]|"
        r"^(?:那|那么|那麼)?就\s?[A-Za-z][\w.+#-]*\s?吧|"
        r"^(?:那)?(?:就)?(?:选|選|用)(?:第[一二三四五六七八九\d]+(?:个|個|种|種)?|"
        r"方案\s?[一二三四五六七八九\dA-Za-z])|^(?:那)?(?:就|还是|還是)?用\s?[A-Za-z][\w.+#-]*\s?吧",
        "decided",
    ),
    (r"借鉴|借鑒|照搬|复刻|復刻|預設|预设|默认用|默認用", "decided"),
    # "你可以分多个消息发送" (you may send it in several messages): a way allowed or told, not a
    # request for help or an answer ("你可以帮我…", "你可以告诉我…"; one ending in 吗 asks)
    (
        r"你可以(?!帮|幫|告诉|告訴|给我|給我|解释|解釋|看看|介绍|介紹|说说|說說|回答|了解)"
        r"[\u4e00-\u9fff]",
        "decided",
    ),
    (r"就用|就按|采用|採用|(?:还是|還是)(?:用|按)|决定用|決定用|选择用|選擇用", "decided"),
    # the form the work takes: "做成一个 skill" (make it a skill), "拆成两个文件"
    (
        r"做成|包装成|包裝成|封装成|封裝成|打包成|拆成|拆分成|合并成|合併成|改造成|设为|設為|"
        r"设置为|設置為",
        "decided",
    ),
    # "希望用 X" (I'd like X used): a preference between ways
    (r"希望(?:你)?(?:能|可以)?(?:用|使用|采用|採用|按照|改用)", "decided"),
    # "好，那帮我 ..." (ok, then ...): a reply that settles what was discussed
    (r"^(?:好的?|行|嗯|可以)?[，,、 ]*那(?:就|麼|么)?(?:请|請)?(?:帮我|幫我)", "decided"),
    # "你可以先 ..." (you can ... first): the user says how, as a statement
    (r"^(?:那)?你可以(?:直接|先|用|把|启动|啟動|改|换|換|在)", "decided"),
    # "我选择方案一" (I choose option 1): a choice named in a longer reply
    (
        r"我?(?:选择|選擇|选定|選定)(?:了)?(?:方案|选项|選項|第)",
        "decided",
    ),
    # "按你上面说的 B" (as you said above): takes up what the agent proposed
    (
        r"(?:按照?|照)(?:你|您)(?:上面|刚才|剛才|之前|前面)?(?:说|說|提|推荐|推薦|建议|建議)的",
        "decided",
    ),
    # "同意，但 ..." (agreed, but ...): approves the proposal, amended
    (
        r"^(?:同意|可以|好的?|行|没问题|沒問題)[，,、 ]*"
        r"(?:但|不过|不過|同时|同時|另外|并且|並且|还要|還要)",
        "decided",
    ),
    # "用 X 就行" (X will do), "X 就可以了"; a name chosen ("名字叫 X", "改名为 X"); what
    # comes first ("优先考虑性能"); what it is written in ("用 TypeScript 写")
    (
        r"(?:用|使用).{1,30}就(?:行|好|可以)|\S\s?就(?:行|好|可以)了?[。！!]*$|"
        r"(?:名字|名称)(?:就)?(?:叫|为|是)|命名为|改名为|改名成|叫做|"
        r"优先(?:考虑|用|使用|做|处理)|^(?:请)?用\s?[A-Za-z][\w.+#-]*\s?(?:写|做|实现|开发)",
        "decided",
    ),
)

AGENT_CHOICES = (
    # "用 X 来代替 Y", "而不是", "改用", "换成", "比 X 更可靠"
    r"(?:来|來)?代替|而不是|改用|换成|換成|改为|改為|比.{1,20}更(?:可靠|简单|簡單|稳定|穩定|安全)",
)
AGENT_ACTS = (r"^(?:让我|讓我|我(?:会|會|将|將|来|來|改|先))|使用|采用|採用|改用|换成|換成",)

PROPOSALS = (
    r"要不|不如|何不|能不能(?:直接|改|用|不)|可不可以(?:直接|改|用|不)|是不是可以|是否可以",
    r"为什么不|為什麼不|还是说|還是說",
    # "可以把 X 做成 Y 吗" (could you make X into Y?): asks for one way of doing it
    r"(?:可以|能|能否|可否)把.{1,40}(?:做成|改成|换成|換成|改为|改為|放在|放到|合并|合併|拆)",
)

DEFERS = (
    # 不确定, 以后再说, 需要讨论, 先看看, 给我一个示例, 你觉得呢: nothing settled yet
    r"讨论|討論|再说|再說|再定|不确定|不確定|不知道|不清楚|疑问|疑問|没了解|沒了解|不明白|不懂|"
    r"示例|例子|先看|看看再|解释|解釋|你觉得|你覺得|你推荐|你推薦|怎么样|怎麼樣",
)

VETOES = (
    # a "no" that only reports the work still fails: nothing turned down
    # ("不，还是报错")
    r"^不[，,]\s*(?:还是|還是|仍然|依然|又)",
    # "I don't know", "not sure": no rule
    r"不知道|不确定|不確定|不清楚",
    # reported speech: what someone else, an error or a tool says ("报错说：...", "他说不要 ...")
    r"(?<!我)(?:说|說)[：:]|(?:他|她|他们|他們|对方|對方|同事|文档|文檔|官方)(?:说|說)|"
    r"(?:报错|報錯|错误|錯誤|日志|日誌|终端|終端|lint|eslint|编译器|編譯器)\s?(?:说|說|提示|显示|顯示|"
    r"写着|寫著)|提示[：:]",
    # a question typed without its mark: a question word first ("怎么才能不用缓存"), or a
    # final 吗 (not "可以把 X 做成 Y 吗", which proposes; not "我不是说了 X 吗", which corrects)
    r"^(?:请问|請問)?(?:怎么|怎麼|怎样|怎樣|如何|为什么|為什麼|为何|為何)|"
    r"^(?!.*(?:可以|能|能否|可否)把)(?!.*我不是(?:说|說))(?!.*不是.{0,20}而是).*[吗嗎][。！!]*$",
    # "not yet" defers, it turns nothing down
    r"先不|暂时不|暫時不|等一下再",
)

PICKS = (
    r"^(?:那?就|好的?[，,]?\s*|我?选|我?選|用|按)?\s*(?:第\s*)?(?:方案|选项|選項|选择|選擇)?\s*"
    r"(?P<n>[1-9一二三四五六七八九a-fA-F])\s*(?:个|個|种|種|号|號)?\s*(?:方案|选项|選項|吧|好了|"
    r"就好|就行|即可|可以)?[。！!.]*$",
)
ORDINALS = {
    "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
}  # fmt: skip

# A question typed without a question mark (如何, 怎么, 为什么, 吗): prompts.asks_only.
QUESTIONS = (
    r"[吗嗎呢][。！!]*$|如何|怎么|怎样|怎樣|怎麼|为什么|為什麼|为何|為何|什么|什麼|哪些|哪个|哪個|"
    r"哪里|哪裡|是否|有没有|有沒有",
)

# A reply that only says go on (继续): after a call rejected with no reason it
# carries no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:好的?|嗯|可以)[，,。 ]*)?(?:请|請)?(?:继续|繼續)(?:吧|执行|執行)?",)

# A rejection's typed reason that starts by saying yes ("yes and be aware I use nvm",
# "ok but show hidden files too"): unless the rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:好的?|可以|行|是的|对|對|嗯)[，,。！!、 ]",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (好, 就, 用, 选, 吧): prompts.picked_option.
CHOOSES = (r"好|行|可以|就|用|选|選|吧|不错|不錯|同意|按",)

AFFIRMS = (
    r"^(?:好的?|行|可以|没问题|沒問題|嗯|对|對)?[，,！!。 ]*(?:就)?(?:这样|這樣|照这样|照這樣)"
    r"(?:做|办|辦|来|來)?吧?[。！!]*$",
    r"^(?:好的?|行|可以)?[，,！!。 ]*(?:就)?(?:按|照)(?:你|您)(?:说|說|推荐|推薦|建议|建議)的"
    r"(?:来|來|做|办|辦)?吧?[。！!]*$",
)

# Stance cues for calls.directives.stance_split (see core/directive_tables.STANCE_CUES):
# "out" before what is ruled out, "pref" before what is preferred, "pref-out" between the
# two.
# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    (
        "回答|(?<!我)说(?!明)|(?<!我)說(?!明)|写道|寫道|评论|評論|审查|審查|意见|意見|反馈|反饋|结果|結果|错误|錯誤|建议|建議|报告|報告"
    ).split("|")
)

STANCES = (
    ("不要用", "out"), ("别用", "out"), ("別用", "out"), ("不要", "out"), ("别再", "out"),
    ("別再", "out"), ("不用", "out"), ("禁止", "out"),
    ("改成", "pref"), ("改用", "pref"), ("改为", "pref"), ("改為", "pref"), ("换成", "pref"),
    ("換成", "pref"), ("就用", "pref"), ("采用", "pref"), ("採用", "pref"),
    ("而不是", "pref-out"), ("代替", "pref-out"), ("替代", "pref-out"), ("取代", "pref-out"),
)  # fmt: skip
# Written without spaces between words: cues are spaced out before stance_split reads them.
SPACED = False

NAMES = {
    "中文": "chinese", "汉语": "chinese", "漢語": "chinese", "英文": "english", "英语": "english",
    "英語": "english", "繁体": "traditional chinese", "繁體": "traditional chinese",
    "简体": "simplified chinese", "簡體": "simplified chinese", "日文": "japanese",
    "日语": "japanese", "韩文": "korean", "韓文": "korean",
}  # fmt: skip

RANGES: tuple[tuple[str, str], ...] = (("\u4e00", "\u9fff"), ("\u3400", "\u4dbf"))
LETTERS = "，。；：！？、"
WORDS: frozenset[str] = frozenset()
