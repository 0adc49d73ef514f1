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


HOOKS: tuple[HookSpec, ...] = (HookSpec("UserPromptSubmit", None, "ctx-budget", 10),)
