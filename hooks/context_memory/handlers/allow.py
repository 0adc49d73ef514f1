"""ctx-allow: the plugin's PreToolUse hook (matcher Bash) that lets the toolkit's own
commands run without a permission prompt, and nothing else.

A command is allowed only when it is ONE simple command whose first word is one of
ALLOWED (bare, found on the plugin's PATH entry, or the plugin's own ``bin/<name>``) and
whose other words are plain or quoted text: no ``;``, ``&``, ``|``, newline, ``(``, ``)``,
``<``, ``>``, ``$``, backquote, glob or ``#`` outside quotes, no ``$`` or backquote inside
double quotes, no ``NAME=value`` prefix. The one extra form is a here-document with a
quoted delimiter (``ctx-plan <<'EOF'`` ... ``EOF``), which feeds stdin and expands nothing.
Anything else gets no answer: the client's usual permission rules decide. Never "deny".
The words are read by the one shell reader (calls/shell.plain_words), the guard's.

Standard library only.
"""

from __future__ import annotations

import os
import sys

from context_memory import TYPE_CHECKING
from context_memory.calls.shell import plain_words
from context_memory.core.hookio import HookInput, as_hook_input, run_hook, str_field

if TYPE_CHECKING:
    from typing import Any

HOOK_NAME = "ctx-allow"
EVENT = "PreToolUse"
# The commands the agent runs to keep its working memory; all read or append to the
# project's .working-state only. ctx-pin (edits CLAUDE.md) and ctx-merge are not here.
ALLOWED = ("ctx-decide", "ctx-plan", "ctx-handoff", "ctx-usage", "ctx-doctor", "ctx-audit")
MAX_COMMAND_CHARS = 64 * 1024


def plugin_root() -> str:
    """The plugin folder (plugin_run sets CTX_PLUGIN_ROOT; else this file's place)."""
    # hooks/context_memory/handlers/<this file> -> the plugin folder above hooks/.
    here = os.path.abspath(__file__)
    return os.environ.get("CTX_PLUGIN_ROOT") or os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.dirname(here)))
    )


def allowed_program(word: str, root: str) -> bool:
    if word in ALLOWED:
        return True
    if not os.path.isabs(word):
        return False
    folder, name = os.path.split(os.path.normpath(word))
    if name not in ALLOWED:
        return False
    ours = os.path.join(root, "bin")
    try:
        return os.path.samefile(folder, ours)
    except OSError:
        return False


def is_allowed(command: str, root: str) -> bool:
    """True when ``command`` is one plain call of one of the toolkit's commands."""
    if not command or len(command) > MAX_COMMAND_CHARS:
        return False
    words = plain_words(command)
    return words is not None and bool(words) and allowed_program(words[0], root)


def allow_output(payload: HookInput | dict[str, Any]) -> str | None:
    hook = as_hook_input(payload)
    # Strict: no event name, no answer (an "allow" for another event would be a mistake).
    if hook.event != EVENT or hook.get("tool_name") != "Bash":
        return None
    tool_input = hook.get("tool_input")
    command = str_field(tool_input, "command") if isinstance(tool_input, dict) else None
    if command is None or not is_allowed(command, plugin_root()):
        return None  # no opinion: the client asks the user as usual
    from context_memory.core import lightjson

    return lightjson.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": EVENT,
                "permissionDecision": "allow",
                "permissionDecisionReason": "context-memory's own command",
            }
        }
    )


def main(argv: list[str] | None = None) -> int:
    # No circuit breaker: its failures must not turn into prompts the hook would have saved.
    return run_hook(HOOK_NAME, allow_output, use_breaker=False, argv=argv)


if __name__ == "__main__":
    sys.exit(main())
