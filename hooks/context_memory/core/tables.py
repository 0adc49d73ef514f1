"""Data tables, kept in one place, but for the prompt path's (model windows, output limits,
budget bands and their texts, the marks ctx-budget looks for: core/prompt_tables.py; what a
tool call acts on and the guard's word lists: core/call_tables.py). Each name is importable
from one module.
"""

from __future__ import annotations

from context_memory.core.state import DECISIONS_FILE, STATE_DIRNAME

# --- Compaction audit (ctx-audit): term extraction and the texts it injects -----------------

# Words that say nothing about WHICH decision was taken: English function words plus the
# vocabulary every decision record uses to frame itself ("decided to use", "rejected").
AUDIT_STOP_WORDS = frozenset(
    """
    a about above after again against all also although am an and any are aren around as at
    be because been before being below between both but by can cannot could did didn do does
    doesn doing don done down during each either else even ever every few for from further
    get gets got had hadn has hasn have haven having he her here hers herself him himself his
    how however i if in into is isn it its itself just least less let like made make makes
    many may me might more most much must mustn my myself need needs neither no nor not now of
    off on once one only onto or other ought our ours ourselves out over own per rather same
    shall shan she should shouldn since so some still such than that the their theirs them
    themselves then there these they this those though through thus to too under until up
    upon us very via was wasn we were weren what when where whether which while who whom whose
    why will with within without won would wouldn yet you your yours yourself yourselves
    e.g i.e etc vs ok
    use used uses using usage adopt adopted adopting choose chose chosen choosing choice
    decide decided decides deciding decision decisions reject rejected rejecting rejection
    prefer preferred prefers instead option options alternative alternatives approach
    go going goes went keep keeps kept stay stays stick sticks switch switched set
    want wanted agree agreed agreement settle settled pick picked picking favor favour
    consider considered considering ruled rule over run runs
    """.split()
)

# Two-character CJK pieces that frame a decision rather than name it (Chinese and Japanese).
AUDIT_CJK_STOP_BIGRAMS = frozenset(
    """
    否决 决定 确定 采用 使用 选用 选择 不用 放弃 弃用 改用 继续 保持 方案 因为 由于 所以 但是
    如果 我们 你们 他们 这个 那个 一个 以及 或者 还是 可以 需要 应该 不要 没有 已经 进行 理由
    原因 鉴于 考虑 同意 拒绝 不再 决策 结论 最终 目前 当前 暂时 作为 设为 定为 改为
    必须 一律 所有 全部 一定 总是 尽量
    採用 使用 決定 却下 選択 理由 原因 方針 検討 今回
    """.split()
)

# Single characters that glue Chinese words together; a run of CJK text is cut at them (and
# at the stop bigrams) before it is split into bigrams, so no bigram straddles them.
AUDIT_CJK_STOP_CHARS = frozenset("的了是在和与及或把被将做走只都也就而又并让给着吗呢吧啊以")

# Units that make a number a distinctive term ("+2ms", "64 GB", "3 nodes", "2毫秒").
AUDIT_UNITS = tuple(
    """
    ms us µs ns s sec secs second seconds min mins minute minutes h hr hrs hour hours
    d day days week weeks month months b kb mb gb tb kib mib gib tib k m x
    qps rps tps ops rpm px nodes node replicas replica shards shard threads workers cores
    retries partitions
    毫秒 微秒 秒 分钟 小时 天 周 个月 个 台 节点 副本 分片 次 倍 万 亿 点 点钟
    ミリ秒 分 時間 日 時 件
    """.split()
)

# Spellings of one unit: "300 s", "300 sec" and "300 seconds" are the same term.
AUDIT_UNIT_ALIASES: dict[str, tuple[str, ...]] = {
    "ms": ("ms", "msec", "millisecond", "milliseconds", "毫秒", "ミリ秒"),
    "s": ("s", "sec", "secs", "second", "seconds", "秒"),
    "min": ("min", "mins", "minute", "minutes", "分钟"),
    "h": ("h", "hr", "hrs", "hour", "hours", "小时", "時間"),
    "d": ("d", "day", "days", "天", "日"),
    "week": ("week", "weeks", "周"),
    "month": ("month", "months", "个月"),
    "node": ("node", "nodes", "节点"),
    "replica": ("replica", "replicas", "副本"),
    "shard": ("shard", "shards", "分片"),
}

# Where the name of a decision ends and its justification starts. Only the name is matched
# when it has terms enough: a summary keeps "rejected Codis" far more often than the reason.
AUDIT_REASON_MARKERS = (
    "(",
    "[",
    " because ",
    " since ",
    " due to ",
    " so that ",
    " as it ",
    " — ",
    " – ",
    " -- ",
    "因为",
    "由于",
    "鉴于",
    "理由",
    "原因",
    "，因",
    "ため",
    "ので",
)

# A decision counts as present when at least this share of its terms is.
AUDIT_PRESENT_FRACTION = 0.6
# How many of the most recent decisions an audit checks (CTX_AUDIT_LAST overrides).
AUDIT_DEFAULT_LAST = 5

# How a recorded decision reads in a text injected for the model, the compaction audit's
# and the turn start's alike (core/decisions_log.decision_line): a line for each kind
# (another kind reads as "decided"), then the reason and who stated it in {why}.
DECISION_LINE_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "decided": "- Decided: {decision}{why}",
        "rejected": "- Rejected: {decision}{why} Do not propose it again.",
        "constraint": "- Constraint: {decision}{why}",
        "why": " (why: {reason})",
        "by_user": " (stated by the user)",
    },
    "zh": {
        "decided": "- 已决定：{decision}{why}",
        "rejected": "- 已否决：{decision}{why} 不要再提议。",
        "constraint": "- 约束：{decision}{why}",
        "why": "（理由：{reason}）",
        "by_user": "（用户所说）",
    },
}

AUDIT_PREFIX = "[COMPACT AUDIT]"

AUDIT_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "header": (
            "{prefix} Decisions lost in compaction: the summary no longer mentions these "
            "recorded decisions, and they still hold."
        ),
        **DECISION_LINE_TEXTS["en"],
        "fallback_pointer": f"Full record: {STATE_DIRNAME}/{DECISIONS_FILE}.",
        "more": (
            "- ... and {more} more lost decisions, not shown (this text is capped at {cap} "
            "characters): all of them are in {record}."
        ),
        "user_lost": (
            "ctx-audit: {lost} of {total} recorded decisions lost in compaction ({names}); "
            "they will be put back into the agent's context."
        ),
        "user_ok": "ctx-audit: all {total} recorded decisions survived compaction.",
    },
    "zh": {
        "header": "{prefix} 压缩后丢失的决策：摘要中不再提到以下已记录的决策，它们依然有效。",
        **DECISION_LINE_TEXTS["zh"],
        "fallback_pointer": f"完整记录：{STATE_DIRNAME}/{DECISIONS_FILE}。",
        "more": "- ……另有 {more} 条丢失的决策未列出（本文上限 {cap} 个字符）：全部见 {record}。",
        "user_lost": (
            "ctx-audit: 压缩丢失了 {total} 条已记录决策中的 {lost} 条（{names}），"
            "将重新注入到上下文。"
        ),
        "user_ok": "ctx-audit: {total} 条已记录决策全部在压缩后保留。",
    },
}

# Rows the client writes for a slash command (/compact) rather than for the conversation:
# they echo the command and its hooks' output, ctx-audit's own "Codis lost" line included,
# so they never count as keeping a decision.
COMMAND_ECHO_PREFIXES = (
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<command-name>",
    "<command-message>",
)

# How the client frames the summary row it writes to the transcript (2.1.332); only the
# text between these is the summary itself. Without them the whole text is used.
SUMMARY_START_MARKER = "Summary:\n"
SUMMARY_END_MARKERS = (
    "\n\nIf you need specific details from before compaction",
    "\nIf you need specific details from before compaction",
    "\n\nContinue the conversation from where it left off",
    "\n\nThe messages after this summary are the most recent messages",
    # Clients 2.0.x close the row with this line instead.
    "\nPlease continue the conversation from where we left it off",
)
# The first line of the summary row; the client's framing, not part of what was summarised.
SUMMARY_ROW_INTRO = "This session is being continued from a previous conversation"

# Turn-start auto-compaction (ctx-budget at or above the threshold): the client runs
# UserPromptSubmit, then compacts, then sends the hook's text in the new, small context.
# So the text names what must survive instead of a band that the compaction makes stale.
TURN_START_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "header": (
            "{prefix} {usage}: at the auto-compact threshold ({threshold}), so the client "
            "compacts the context now."
        ),
        "list": "Recorded decisions of this session, newest first; they still hold:",
        "none": "Record decisions that must survive with ctx-decide.",
        **DECISION_LINE_TEXTS["en"],
        "more": "More in {path} (ctx-decide --list).",
    },
    "zh": {
        "header": "{prefix} {usage}：已达到自动压缩阈值（{threshold}），客户端正在压缩上下文。",
        "list": "本会话已记录的决策（最新在前），依然有效：",
        "none": "请用 ctx-decide 记录必须保留的决策。",
        **DECISION_LINE_TEXTS["zh"],
        "more": "更多见 {path}（ctx-decide --list）。",
    },
}
# Bounds of that text: all decision lines together, one decision or reason, and how much
# of the end of decisions.jsonl is read for them.
TURN_START_MAX_CHARS = 2_000
TURN_START_ITEM_CHARS = 300
TURN_START_TAIL_BYTES = 256 * 1024
# sessions/<id>/turn-start-injection.json (core/state.TURN_START_FILE) says which records
# ctx-budget put into the context at a turn start, so the compaction audit that follows
# does not inject them again. A turn-start compaction follows its prompt within this many
# seconds (summarising a full context takes a minute or two); an older record belongs to
# no compaction.
TURN_START_FRESH_SECONDS = 900.0
# The toolkit's token estimate for a text it writes (core/safe_text.estimate_tokens):
# UTF-8 bytes / 4, the client's own offline estimate of four characters per token.
CHARS_PER_TOKEN = 4

# The SessionStart pointer names every rejection of the decisions log that fits in this
# many tokens (estimate_tokens), newest first, then says how many more and where.
POINTER_REJECTION_TOKENS = 600

# --- Claude Code's auto memory (memory/native.py): the toolkit's block in MEMORY.md ---------
# The block's marker lines: what lies between them is the toolkit's, everything else the
# model's or the user's (never changed). The texts say how to retract a line.
NATIVE_BLOCK_BEGIN = (
    "<!-- context-memory: begin. Lines the toolkit mirrors from what the user said; delete "
    "a line (or run ctx-decide --drop ID) to retract it -->"
)
NATIVE_BLOCK_END = "<!-- context-memory: end -->"
# The client cuts MEMORY.md after this many lines; pointer lines should stay under ~150
# characters (the client's own instructions to the model, 2.1.332).
NATIVE_CLIENT_LINES = 200
NATIVE_POINTER_CHARS = 150
# The block's own budget: at most this many pointer lines and characters (markers included),
# newest records first; what does not fit stays in decisions.jsonl (ctx-doctor counts it).
NATIVE_BLOCK_LINES = 25
NATIVE_BLOCK_CHARS = 3500
# The toolkit's memory files: ``ctx_<type>_<record id>.md``; their frontmatter says so too.
NATIVE_FILE_PREFIX = "ctx_"
NATIVE_FILE_MARK = "context-memory"

# --- The merge (ctx-merge): what an entry is about ------------------------------------------

# Decisions are written "Use X", "Switch to X", "X instead of Y", rejections "X" or "Not X":
# an entry's subject is the option X alone, so "Use MongoDB" decided and "MongoDB" rejected
# later are one subject (merge/rules.py builds its patterns from these tables). The forms are
# the grammar of such sentences, not phrases of any labelled text: a lead-in of who, modals,
# a negation and a verb of choosing before the option, a connector after it. Lower case, as
# the subject is compared after NFKC and case folding; an apostrophe is "'".
MERGE_EN_WHO = (
    "we", "we'll", "we'd", "we're", "we are", "we've", "we have", "let's", "let us",
    "i", "i'll", "i'm", "i am", "i've", "i have",
)  # fmt: skip
MERGE_EN_MODALS = (
    "will", "would", "should", "must", "shall", "can", "now", "still", "always", "also",
    "decided to", "decide to", "chose to", "choose to", "agreed to", "agree to", "plan to",
    "want to", "are going to", "going to", "need to",
)  # fmt: skip
MERGE_EN_NEGATIONS = (
    "don't", "do not", "doesn't", "does not", "didn't", "did not", "won't", "will not",
    "shouldn't", "should not", "mustn't", "must not", "can't", "cannot", "never", "not",
    "no longer", "stop", "stopped",
)  # fmt: skip
# Verbs of choosing or ruling out, in their base, -ing and past forms.
MERGE_EN_VERBS = (
    ("use", "using", "used"),
    ("adopt", "adopting", "adopted"),
    ("choose", "choosing", "chose"),
    ("pick", "picking", "picked"),
    ("prefer", "preferring", "preferred"),
    ("keep", "keeping", "kept"),
    ("add", "adding", "added"),
    ("introduce", "introducing", "introduced"),
    ("go with", "going with", "went with"),
    ("stick with", "sticking with", "stuck with"),
    ("stay with", "staying with", "stayed with"),
    ("stay on", "staying on", "stayed on"),
    ("switch to", "switching to", "switched to"),
    ("move to", "moving to", "moved to"),
    ("migrate to", "migrating to", "migrated to"),
    ("opt for", "opting for", "opted for"),
    ("settle on", "settling on", "settled on"),
    ("rely on", "relying on", "relied on"),
    ("standardise on", "standardising on", "standardised on"),
    ("standardize on", "standardizing on", "standardized on"),
    ("avoid", "avoiding", "avoided"),
    ("drop", "dropping", "dropped"),
    ("remove", "removing", "removed"),
    ("reject", "rejecting", "rejected"),
)
# A rejection written as the option after a bare negation: "Not X", "No X".
MERGE_EN_BARE_NEGATIONS = ("not", "no", "never", "without")
# Verbs of moving between options: "Switch from Y to X" is about X.
MERGE_EN_MOVES = (
    ("switch", "switching", "switched"),
    ("move", "moving", "moved"),
    ("migrate", "migrating", "migrated"),
    ("change", "changing", "changed"),
    ("go", "going", "went"),
)
# After a verb, these make "use" a noun ("Use of X", "Use case: ..."): nothing is stripped.
MERGE_EN_NOT_AN_OPTION = ("of", "case", "cases")
MERGE_EN_ARTICLES = ("the", "a", "an")
# "X instead of Y": the subject is X, the text before the connector.
MERGE_EN_CONNECTORS = (" instead of ", " rather than ", " in place of ", ", not ")
# Chinese: [who][modals][negation] verb, or a bare negation, before the option; no spaces
# (normalise drops the optional space beside CJK characters).
MERGE_CN_WHO = ("我们", "咱们", "我", "团队")
MERGE_CN_MODALS = (
    "决定", "统一", "继续", "还是", "仍然", "仍", "暂时", "先", "将", "会", "应该", "应",
    "要", "必须", "一律", "只",
)  # fmt: skip
MERGE_CN_NEGATIONS = ("不再", "不要", "不必", "不需要", "无需", "不", "别", "禁止", "避免", "停止")
MERGE_CN_VERBS = (
    "使用", "采用", "改用", "选用", "选择", "换用", "换成", "改成", "改为", "切换到", "切换为",
    "迁移到", "沿用", "引入", "保留", "用",
)  # fmt: skip
# "用" alone starts words too (用户 user, 用例 use case): first in an entry, it is a verb
# only before a name that is not written in CJK ("用 pnpm").
MERGE_CN_SHORT_VERBS = ("用",)
# After a verb, these make it part of a noun (使用率 usage rate, 使用者 user, 选择题): nothing
# is stripped.
MERGE_CN_NOT_AN_OPTION = ("率", "量", "者", "方法", "方式", "说明", "场景", "范围", "情况", "题")
MERGE_CN_BARE_NEGATIONS = ("不要", "避免", "禁止", "放弃", "弃用", "禁用", "去掉", "舍弃", "拒绝")
# "从Y改用X", "由Y换成X" (from Y to X) and "把Y换成X", "将Y替换为X" (replace Y with X): about
# X. Not "把Y改成X": that changes a setting Y ("把超时改成30秒"), Y is the subject.
MERGE_CN_MOVE_FROM = ("从", "由")
MERGE_CN_MOVE_TO = (
    "改用", "改为", "改成", "换成", "换用", "迁移到", "切换到", "切换为", "转向", "转到", "转为",
)  # fmt: skip
MERGE_CN_REPLACE = ("把", "将")
MERGE_CN_REPLACE_WITH = ("换成", "替换为", "替换成")
# "用X代替Y", "X而不是Y", "X，不用Y": the subject is X.
MERGE_CN_CONNECTORS = (
    "来代替",
    "来取代",
    "而不是",
    "而非",
    "代替",
    "取代",
    ",不用",
    ",不要",
    ",不是",
)
