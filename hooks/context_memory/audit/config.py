"""What an audit checks and how much: its names, bounds and CTX_AUDIT_LAST."""

from __future__ import annotations

import os

from context_memory import TYPE_CHECKING
from context_memory.core.prompt_tables import AUDIT_PENDING_MARK
from context_memory.core.tables import AUDIT_DEFAULT_LAST

if TYPE_CHECKING:
    from collections.abc import Mapping

HOOK_NAME = "ctx-audit"
# Present while an audit with lost decisions waits to be injected; holds the audit id.
# ctx-budget looks for it before every prompt, so it is a plain file, cheap to stat.
PENDING_MARK = AUDIT_PENDING_MARK
AUDIT_VERSION = 1
# A PostCompact result (or a compaction in the transcript) younger than this belongs to
# the compaction a SessionStart "compact" event announces.
FRESH_SECONDS = 120.0
# Right after a compaction the new boundary sits near the end of the transcript; the hooks
# look no further back than this for it (a miss only means fewer messages count as kept).
RECENT_COMPACTION_BYTES = 8 * 1024 * 1024
KINDS_AUDITED = ("decided", "rejected", "constraint")
TEAM_REJECTIONS_AUDITED = 10
SOURCE_SUMMARY = "summary"
SOURCE_KEPT = "kept messages"
SOURCE_TURN_START = "turn-start injection"
SOURCE_PINNED = "pinned digest"
# Its line is in the toolkit's block of Claude Code's MEMORY.md (or the model's own line
# points at it): the client loads it after every compaction by itself (memory/native.py).
SOURCE_AUTO_MEMORY = "auto memory (MEMORY.md)"
MAX_DECISION_CHARS = 500
MAX_NAMES_CHARS = 160
# The [COMPACT AUDIT] injection, header and pointer included, never exceeds this; the
# decisions that do not fit are counted and pointed to (compact-audit.json lists them all).
MAX_INJECTION_CHARS = 4000
# compact-audit.json holds at most CTX_AUDIT_LAST decisions and the session's rejections,
# read from at most decisions.MAX_LOG_BYTES of log; a bigger file is not one the hook wrote.
MAX_AUDIT_BYTES = 48 * 1024 * 1024
# -- configuration ---------------------------------------------------------------------------


def audit_last(env: Mapping[str, str] | None = None) -> int:
    """How many of the most recent decisions to audit: CTX_AUDIT_LAST, default 5."""
    env = os.environ if env is None else env
    raw = env.get("CTX_AUDIT_LAST", "").strip()
    try:
        value = int(raw)
    except ValueError:
        return AUDIT_DEFAULT_LAST
    return value if value > 0 else AUDIT_DEFAULT_LAST
