"""ctx-restore: the SessionStart hook (startup, resume, clear) that points a new session at
the working memory on disk.

It injects a pointer, not the content: a few lines naming the plan, the decisions log, the
latest handoff and the merged decisions, so the agent reads them itself. This text is paid
for in every new session, so it stays short, and a project without working state gets
nothing at all. Standard library only.
"""

from __future__ import annotations

import sys

from context_memory import TYPE_CHECKING
from context_memory.core.hookio import HookInput, as_hook_input, context_output, run_hook
from context_memory.memory.pointer import recovery_pointer

if TYPE_CHECKING:
    from typing import Any

HOOK_NAME = "ctx-restore"
EVENT = "SessionStart"
# SessionStart sources this hook answers; "compact" has its own post-compaction injection.
SOURCES = ("startup", "resume", "clear")


def mirrored_ids(hook: HookInput, source: str) -> frozenset[str]:
    """The ids whose lines MEMORY.md held when this session started and still holds: the
    client loaded those (the pointer does not repeat them). Then mirror the user's records
    into Claude Code's auto memory (memory/native.py) for the sessions to come: the client
    reads MEMORY.md before SessionStart hooks finish (2.1.332), so what this run adds
    reaches the next session, and the pointer still names it now. Fails open: on any error
    the pointer names everything, as before."""
    from context_memory.core.hookio import log_line
    from context_memory.memory.native import memory_ids, sync_native

    session = hook.session_id or ""
    try:
        loaded = memory_ids(hook.project_dir)
        sync_native(hook.state_dir, hook.project_dir, session=session)
        return loaded & memory_ids(hook.project_dir)
    except Exception as exc:  # noqa: BLE001 - fail open: a folder of the client's, untrusted
        log_line(hook.state_dir, HOOK_NAME, session, f"auto memory skipped ({source}): {exc}")
        return frozenset()


def restore_output(payload: HookInput | dict[str, Any]) -> str | None:
    """The hook's stdout: one SessionStart additionalContext document, or None."""
    hook = as_hook_input(payload)
    if hook.answers(EVENT) is None:
        return None  # registered for another event: JSON for ours would be rejected
    source = hook.text("source")
    if source is not None and source not in SOURCES:
        return None
    text = recovery_pointer(
        hook.state_dir, base=hook.project_dir, in_memory=mirrored_ids(hook, source or "startup")
    )
    return context_output(EVENT, text) if text else None


def main(argv: list[str] | None = None) -> int:
    # A hook takes no arguments (everything comes on stdin) but answers --help, --version.
    return run_hook(HOOK_NAME, restore_output, argv=argv)


if __name__ == "__main__":
    sys.exit(main())
