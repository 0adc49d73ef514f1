"""The tables the prompt path reads (ctx-budget, ctx-statusline): model windows, output
limits, budget bands and their texts, the marks ctx-budget looks for, the interruption
rows. Apart from core/tables.py (each name is importable from here only), so that a hook
before every prompt does not load (and build) the audit's word lists and the other texts.

Windows and output limits are those of the Claude Code client 2.1.332
(see docs/claude-code-protocol.md, section 4).
"""

from __future__ import annotations

WINDOW_200K = 200_000
WINDOW_1M = 1_000_000
BETA_1M = "context-1m-2025-08-07"

# Keyed by "<family>-<major>-<minor>" as canonical_model_key() spells it.
MODEL_WINDOWS: dict[str, int] = {
    "sonnet-3-5": WINDOW_200K,
    "haiku-3-5": WINDOW_200K,
    "opus-3-5": WINDOW_200K,
    "sonnet-3-7": WINDOW_200K,
    "haiku-4-5": WINDOW_200K,
    "sonnet-4-0": WINDOW_200K,
    "sonnet-4-5": WINDOW_200K,
    "sonnet-4-6": WINDOW_200K,
    "opus-4-0": WINDOW_200K,
    "opus-4-1": WINDOW_200K,
    "opus-4-5": WINDOW_200K,
    "opus-4-6": WINDOW_200K,
    "opus-4-7": WINDOW_1M,
    "opus-4-8": WINDOW_1M,
    "opus-5-0": WINDOW_1M,
    "opus-5-5": WINDOW_1M,
    "sonnet-5-0": WINDOW_1M,
    "sonnet-5-5": WINDOW_1M,
    "haiku-5-5": WINDOW_1M,
}

# Max output tokens; only values below 20,000 change the auto-compact threshold.
MODEL_MAX_OUTPUT: dict[str, int] = {
    "sonnet-3-5": 8_192,
    "haiku-3-5": 8_192,
    "opus-3-5": 8_192,
    "opus-4-6": 64_000,
    "opus-5-5": 128_000,
    "sonnet-5-5": 128_000,
    "haiku-5-5": 128_000,
}
DEFAULT_MAX_OUTPUT = 32_000

# The client's auto-compaction arithmetic.
OUTPUT_RESERVE_CAP = 20_000
AUTOCOMPACT_BUFFER = 13_000

# Budget bands: (lower bound in percent, band name), ascending.
BAND_NAMES = ("free", "warn", "prefer-subagent", "must-subagent", "stop")
DEFAULT_BAND_THRESHOLDS = (40.0, 60.0, 80.0, 95.0)

BUDGET_PREFIX = "[CONTEXT BUDGET]"

# {usage} is "~150K/200K (75%)". "free" injects nothing, so it has no text.
BAND_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "warn": (
            "{prefix} {usage}. Context is filling up: prefer Grep and targeted reads "
            "(offset/limit) over reading whole files."
        ),
        "prefer-subagent": (
            "{prefix} {usage}. Context is getting tight: prefer Grep and subagents (Task) for "
            "exploration; avoid reading large files directly. Record decisions with ctx-decide."
        ),
        "must-subagent": (
            "{prefix} {usage}. Context is nearly full: you MUST delegate all file reading and "
            "searching to subagents (Task); do not read files directly. Record decisions with "
            "ctx-decide and keep answers short."
        ),
        "stop": (
            "{prefix} {usage}. Context is about to run out: wrap up now. Write the stage "
            "handoff (ctx-handoff --draft), record open decisions with ctx-decide, tell the "
            "user what remains, and stop."
        ),
    },
    "zh": {
        "warn": (
            "{prefix} {usage}。上下文开始变满：优先使用 Grep 和定位读取（offset/limit），"
            "不要整文件读取。"
        ),
        "prefer-subagent": (
            "{prefix} {usage}。上下文已偏紧：优先使用 Grep 和子代理（Task）做探索，"
            "避免直接读取大文件。用 ctx-decide 记录决策。"
        ),
        "must-subagent": (
            "{prefix} {usage}。上下文接近满：必须把所有文件读取和搜索委派给子代理（Task），"
            "不要直接读文件。用 ctx-decide 记录决策，回答保持简短。"
        ),
        "stop": (
            "{prefix} {usage}。上下文即将耗尽：立即收尾。写阶段交接（ctx-handoff --draft），"
            "用 ctx-decide 记录未落盘的决策，告诉用户剩余工作，然后停止。"
        ),
    },
}

# Rows whose only text is one of these are interruptions, not model replies.
INTERRUPTION_TEXTS = frozenset(
    {
        "[Request interrupted by user]",
        "[Request interrupted by user for tool use]",
        "No response requested.",
    }
)

# In sessions/<id>/ while an audit with lost decisions waits to be injected (ctx-budget
# stats it before every prompt; ctx-audit writes it).
AUDIT_PENDING_MARK = ".compact-audit.pending"
# Left in the session folder by ctx-budget the first time the context reaches the
# must-subagent band; ctx-extract acts on the next Stop.
CROSSED_MARK = ".crossed-80"

# Auto-compaction stopped (the client gives up after 3 failed attempts): replaces the band
# text. {usage} as for the bands, {threshold} like "167K".
AUTOCOMPACT_STOPPED_TEXTS: dict[str, str] = {
    "en": (
        "{prefix} {usage}. Auto-compaction seems to have stopped: the context has been above "
        "the auto-compact threshold ({threshold}) for {turns} replies in a row with no "
        "compaction. Tell the user plainly: run /compact now, or write the handoff "
        "(ctx-handoff --draft) and start a new session, before the API refuses the request."
    ),
    "zh": (
        "{prefix} {usage}。自动压缩似乎已停止：上下文已连续 {turns} 次回复超过自动压缩阈值"
        "（{threshold}）且没有发生压缩。请直接告诉用户：立即运行 /compact，或写好交接"
        "（ctx-handoff --draft）后开启新会话，以免 API 拒绝请求。"
    ),
}
# Replies in a row above the threshold, with no compaction between them, that mean the
# client has stopped compacting (it compacts before sending once one reply is above).
AUTOCOMPACT_STOPPED_TURNS = 2
