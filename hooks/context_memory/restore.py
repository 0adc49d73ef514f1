"""ctx-restore: the SessionStart hook (startup, resume, clear) that points a new session at
the working memory on disk.

It injects a pointer, not the content: a few lines naming the plan, the decisions log, the
latest handoff and the merged decisions, so the agent reads them itself. This text is paid
for in every new session, so it stays short, and a project without working state gets
nothing at all. Standard library only.
"""

from __future__ import annotations

import os
import stat
import sys

from context_memory.handoff import latest_handoff
from context_memory.hookio import context_output, run_hook, str_field
from context_memory.records import DECISIONS_FILE
from context_memory.safe_text import one_line
from context_memory.state import STATE_DIRNAME, resolve_project_dir, resolve_state_dir

TYPE_CHECKING = False  # typing costs an import; mypy still reads the block
if TYPE_CHECKING:
    from typing import Any

HOOK_NAME = "ctx-restore"
EVENT = "SessionStart"
# SessionStart sources this hook answers; "compact" has its own post-compaction injection.
SOURCES = ("startup", "resume", "clear")
PLAN_FILE = "current-plan.md"
MERGED_DECISIONS = os.path.join("merged", "decisions.md")
POINTER_PREFIX = "[WORKING STATE]"


def _has_content(path: str) -> bool:
    """A regular file (not a link: the agent is never pointed through one) with content."""
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size > 0


def _shown(path: str, base: str | None) -> str:
    """``path`` relative to ``base`` when it lies inside it (shorter), else absolute."""
    path = os.path.abspath(path)
    if base:
        base = os.path.abspath(base)
        if path.startswith(base + os.sep):
            return os.path.relpath(path, base)
    return path


def recovery_pointer(state_dir: str, base: str | None = None) -> str | None:
    """The short pointer to the working state in ``state_dir``, or None when there is none.

    Paths are shown relative to ``base`` (default: the project, when the state folder is
    the usual ``<project>/.working-state``) and absolute otherwise.
    """
    if base is None and os.path.basename(os.path.normpath(state_dir)) == STATE_DIRNAME:
        base = os.path.dirname(os.path.abspath(state_dir))
    first = [
        path
        for path in (os.path.join(state_dir, PLAN_FILE), os.path.join(state_dir, DECISIONS_FILE))
        if _has_content(path)
    ]
    handoff = latest_handoff(state_dir)
    merged = os.path.join(state_dir, MERGED_DECISIONS)
    if not _has_content(merged):
        merged = ""
    if not first and not handoff and not merged:
        return None
    sentences = [f"{POINTER_PREFIX} This project keeps its working memory on disk."]
    if first:
        sentences.append("Read " + " and ".join(_shown(p, base) for p in first) + " first.")
    if handoff:
        sentences.append(f"Latest handoff: {_shown(handoff, base)}.")
    if merged:
        sentences.append(f"Merged decisions: {_shown(merged, base)}.")
    sentences.append("Record new decisions with ctx-decide.")
    # Paths hold folder names nobody checked: one line, no control characters.
    return one_line(" ".join(sentences))


def restore_output(payload: dict[str, Any]) -> str | None:
    """The hook's stdout: one SessionStart additionalContext document, or None."""
    if payload.get("hook_event_name", EVENT) != EVENT:
        return None  # registered for another event: JSON for ours would be rejected
    source = str_field(payload, "source")
    if source is not None and source not in SOURCES:
        return None
    cwd = str_field(payload, "cwd")
    text = recovery_pointer(resolve_state_dir(cwd), base=resolve_project_dir(cwd))
    return context_output(EVENT, text) if text else None


def main(argv: list[str] | None = None) -> int:
    del argv  # a hook takes no arguments; everything comes on stdin
    return run_hook(HOOK_NAME, restore_output)


if __name__ == "__main__":
    sys.exit(main())
