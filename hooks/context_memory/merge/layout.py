"""Where the merged record lives (``<state>/merged/`` and its generations), the merge's
settings and gate names, and the two small types every part of the merge shares.
"""

from __future__ import annotations

import os

from context_memory import TYPE_CHECKING
from context_memory.core.record import Record
from context_memory.core.state import (
    MERGE_LOCK_FILE,
    MERGED_DECISIONS_MD,
    MERGED_DIR,
)

if TYPE_CHECKING:
    pass

FORMAT_VERSION = 1
# The names of merged/ and its two records are core/state's (the pointer and the pinned
# digest read them too); what is inside a generation besides them is the merge's own.
STATE_JSON = "state.json"
GENERATION_PREFIX = ".merged-"
# Where a ``merged`` that is not the toolkit's link (a folder or file made by hand) is moved
# the first time a merge meets it. Never removed by the toolkit.
MOVED_ASIDE_PREFIX = "merged.moved-aside-"
# Earlier versions moved such a folder to ".merged-legacy-*": those are never removed either.
LEGACY_PREFIX = GENERATION_PREFIX + "legacy-"
# state.json and decisions.md of a merge: far below this; a bigger one is not ours.
MAX_STATE_BYTES = 1024 * 1024
MAX_MARKDOWN_BYTES = 64 * 1024 * 1024

MIN_HOURS_VAR = "CTX_MERGE_MIN_HOURS"
MIN_SESSIONS_VAR = "CTX_MERGE_MIN_SESSIONS"
DEFAULT_MIN_HOURS = 24.0
DEFAULT_MIN_SESSIONS = 5

LOCK_ATTEMPTS = 10
LOCK_FIRST_DELAY = 0.005
LOCK_MAX_DELAY = 0.1

GATE_TIME = "time"
GATE_SESSIONS = "session"
GATE_LOCK = "lock"


class MergeError(Exception):
    """The merge cannot run as asked; ``str()`` says why and how to fix it."""


class Problem(Record):
    """A handoff (or the merge state) that was skipped, and why."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


# --------------------------------------------------------------------------- locations


def merged_dir(state_dir: str) -> str:
    return os.path.join(state_dir, MERGED_DIR)


def decisions_md_path(state_dir: str) -> str:
    return os.path.join(state_dir, MERGED_DIR, MERGED_DECISIONS_MD)


def lock_path(state_dir: str) -> str:
    return os.path.join(state_dir, MERGE_LOCK_FILE)
