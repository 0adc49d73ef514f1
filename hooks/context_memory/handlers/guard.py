"""ctx-guard: the PreToolUse hook that asks before a tool call redoes what the user rejected.

Before every Bash, Write, Edit, MultiEdit and NotebookEdit call it matches the call against
the live rejections and constraints of the decisions log (through guard-index.json):
a call that does what the user ruled out gets ``permissionDecision: "ask"`` with the
record's words and date; a weaker match, or the agent's own rejection, a reminder
(additionalContext, which the model reads after the call); anything else nothing.
It never denies. CTX_GUARD=ask (default), remind (no questions) or off.

By hand: ``ctx-guard --replay TRANSCRIPT [--preload] [--json]`` replays a transcript,
capturing as it goes (``--preload``: against its final live records, as the next session
sees them), and prints each tool call's verdict (writes nothing). Standard library only on the
hook path: the replay's imports load only for --replay.
"""

from __future__ import annotations

import sys

from context_memory import TYPE_CHECKING
from context_memory.core import lightos
from context_memory.core.hookio import (
    GUARDED_TOOLS,
    HELP_OPTIONS,
    HookInput,
    as_hook_input,
    hook_help,
    log_line,
    run_hook,
    write_stdout,
)
from context_memory.guard.index import entries_for_call

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

HOOK_NAME = "ctx-guard"
# Here, not in core/tables.py: the hook's fast path does not import the tables.
GUARD_ENV = "CTX_GUARD"
GUARD_MODES = ("ask", "remind", "off")
EVENT = "PreToolUse"
REPLAY_OPTION = "--replay"
REPLAY_HELP = (
    "\nBy hand:\n"
    "  ctx-guard --replay TRANSCRIPT [--preload] [--json]\n"
    "              replay a transcript (.jsonl or .jsonl.gz), capturing as it goes, and\n"
    "              print each main-chain tool call's verdict (allow, remind, ask);\n"
    "              --preload: judge every call against the transcript's final live\n"
    "              records, as the next session would; --json: a JSON list. Writes\n"
    "              nothing.\n"
)


def guard_mode(env: Mapping[str, str]) -> str:
    """ask, remind or off (an unknown value: ask, the default)."""
    value = env.get(GUARD_ENV, "").strip().lower()
    return value if value in GUARD_MODES else "ask"


def output_for(ask: bool, text: str) -> str:
    from context_memory.core import lightjson

    specific: dict[str, str] = {"hookEventName": EVENT}
    if ask:
        specific["permissionDecision"] = "ask"
        specific["permissionDecisionReason"] = text
    else:
        specific["additionalContext"] = text
    return lightjson.dumps({"hookSpecificOutput": specific})


def guard_output(
    payload: HookInput | dict[str, Any], env: Mapping[str, str] | None = None
) -> str | None:
    env = lightos.environ() if env is None else env
    hook = as_hook_input(payload)
    mode = guard_mode(env)
    if mode == "off" or hook.event != EVENT:
        return None
    tool = hook.get("tool_name")
    tool_input = hook.get("tool_input")
    if tool not in GUARDED_TOOLS or not isinstance(tool_input, dict):
        return None
    state_dir = hook.state_dir
    entries = entries_for_call(
        state_dir,
        tool_input,
        log=lambda message: log_line(state_dir, HOOK_NAME, hook.session_id or "-", message),
        project_dir=hook.project_dir,
    )
    if not entries:  # most calls: nothing in them any record names
        return None
    from context_memory.guard.match import ASK, REMIND, ask_text, judge, remind_text

    verdict = judge(str(tool), tool_input, entries)
    if verdict.verdict == ASK and mode == "ask":
        return output_for(True, ask_text(verdict))
    if verdict.verdict in (ASK, REMIND):
        return output_for(False, remind_text(verdict))
    return None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == REPLAY_OPTION:
        from context_memory.guard.replay import replay_main

        return replay_main(args[1:])
    if len(args) == 1 and args[0] in HELP_OPTIONS:
        write_stdout(hook_help(HOOK_NAME) + REPLAY_HELP)
        return 0
    return run_hook(HOOK_NAME, guard_output, argv=args)


if __name__ == "__main__":
    sys.exit(main())
