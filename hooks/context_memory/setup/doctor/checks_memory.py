"""ctx-doctor's check of Claude Code's auto memory: the folder, the toolkit's block in
MEMORY.md and its budget (memory/native.py)."""

from __future__ import annotations

import os

from context_memory.core.tables import (
    NATIVE_BLOCK_CHARS,
    NATIVE_BLOCK_LINES,
    NATIVE_CLIENT_LINES,
)
from context_memory.memory.native import INDEX_FILE, Index, read_index, read_state
from context_memory.memory.native_folder import native_location
from context_memory.setup.doctor.check import OK, WARN, Check

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

NAME = "auto memory"


def check_auto_memory(project: str, state_dir: str, environ: Mapping[str, str]) -> Check:
    """Where the client's auto memory is, whether the toolkit writes there, and the block:
    its lines and characters against the budget, the whole MEMORY.md against the client's
    200-line cut."""
    location = native_location(project, environ)
    folder = location.folder
    if not location.on:
        return Check(NAME, OK, f"{folder}: nothing mirrored ({location.why})")
    try:
        index = Index(read_index(folder))
    except OSError as exc:
        return Check(
            NAME,
            WARN,
            f"{os.path.join(folder, INDEX_FILE)}: {exc.strerror or exc}",
            "make it a regular file the user can read, or set CTX_NATIVE_MEMORY=off",
        )
    block = index.block or []
    chars = sum(len(line) + 1 for line in block)
    total = index.own_lines() + (len(block) + 2 if index.block is not None else 0)
    state = read_state(state_dir)
    written = state.get("folder") == folder
    unlisted = state.get("unlisted") if written else 0
    message = (
        f"{folder}: the toolkit's block {len(block)} of {NATIVE_BLOCK_LINES} lines, "
        f"{chars} of {NATIVE_BLOCK_CHARS} characters; MEMORY.md {total} of "
        f"{NATIVE_CLIENT_LINES} lines ({location.why})"
    )
    if isinstance(unlisted, int) and unlisted > 0:
        message += f"; {unlisted} more of the user's records left out (newest first)"
    if not written and index.block is None:
        message += "; nothing mirrored yet (the next Stop or session start does it)"
    if total > NATIVE_CLIENT_LINES:
        return Check(
            NAME,
            WARN,
            message + f"; lines past {NATIVE_CLIENT_LINES} are cut by the client",
            f"shorten {os.path.join(folder, INDEX_FILE)} (/memory in Claude Code)",
        )
    return Check(NAME, OK, message)
