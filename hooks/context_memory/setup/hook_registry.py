"""Which hooks the installer registers, for which events: one table, read by the installer,
the example settings test and ctx-doctor.

Each entry: (event, matcher or None, entry-point command, timeout in seconds).
UserPromptSubmit and Stop ignore matchers; SessionStart matches ``source``,
PreCompact/PostCompact match ``trigger``.
"""

from __future__ import annotations

from typing import NamedTuple


class HookSpec(NamedTuple):
    event: str
    matcher: str | None
    command: str
    timeout: int


HOOKS: tuple[HookSpec, ...] = (
    HookSpec("UserPromptSubmit", None, "ctx-budget", 10),
    HookSpec("Stop", None, "ctx-extract", 30),
    HookSpec("PreCompact", None, "ctx-extract", 30),
    HookSpec("SessionStart", "startup|resume|clear", "ctx-restore", 10),
    HookSpec("PostCompact", None, "ctx-audit", 30),
    HookSpec("SessionStart", "compact", "ctx-audit", 30),
    HookSpec("PreToolUse", "Bash|Write|Edit|MultiEdit|NotebookEdit", "ctx-guard", 10),
)
