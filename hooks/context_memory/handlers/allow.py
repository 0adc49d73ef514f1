"""ctx-allow: the plugin's PreToolUse hook (matcher Bash) that lets the toolkit's own
commands run without a permission prompt, and nothing else.

A command is allowed only when it is ONE simple command whose first word is one of
ALLOWED (bare, found on the plugin's PATH entry, or the plugin's own ``bin/<name>``) and
whose other words are plain or quoted text: no ``;``, ``&``, ``|``, newline, ``(``, ``)``,
``<``, ``>``, ``$``, backquote, glob or ``#`` outside quotes, no ``$`` or backquote inside
double quotes, no ``NAME=value`` prefix. The one extra form is a here-document with a
quoted delimiter (``ctx-plan <<'EOF'`` ... ``EOF``), which feeds stdin and expands nothing.
Anything else gets no answer: the client's usual permission rules decide. Never "deny".

Standard library only.
"""

from __future__ import annotations

import os
import sys

from context_memory.core.hookio import HookInput, as_hook_input, run_hook, str_field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HOOK_NAME = "ctx-allow"
EVENT = "PreToolUse"
# The commands the agent runs to keep its working memory; all read or append to the
# project's .working-state only. ctx-pin (edits CLAUDE.md) and ctx-merge are not here.
ALLOWED = ("ctx-decide", "ctx-plan", "ctx-handoff", "ctx-usage", "ctx-doctor", "ctx-audit")
MAX_COMMAND_CHARS = 64 * 1024
_SPECIAL = frozenset(";&|<>()$`*?[]{}#\n\r\t\\'\"")
_BLANKS = frozenset(" \t")


class Unsafe(Exception):
    """The command is not one plain call of an allowed program."""


def split_words(line: str) -> list[str]:
    """The words of one simple command, quotes removed; Unsafe for anything a shell would
    expand, redirect, chain or run in a subshell."""
    words: list[str] = []
    current: list[str] = []
    in_word = False
    i, end = 0, len(line)
    while i < end:
        char = line[i]
        if char in _BLANKS:
            if in_word:
                words.append("".join(current))
                current, in_word = [], False
            i += 1
            continue
        if char == "'":
            close = line.find("'", i + 1)
            if close < 0:
                raise Unsafe("unclosed single quote")
            current.append(line[i + 1 : close])
            in_word, i = True, close + 1
            continue
        if char == '"':
            i += 1
            while True:
                if i >= end:
                    raise Unsafe("unclosed double quote")
                char = line[i]
                if char == '"':
                    break
                if char in "$`":
                    raise Unsafe("expansion inside double quotes")
                if char == "\\" and i + 1 < end and line[i + 1] in '"\\':
                    current.append(line[i + 1])
                    i += 2
                    continue
                if char == "\\" and i + 1 < end and line[i + 1] in "$`\n":
                    raise Unsafe("escape inside double quotes")
                current.append(char)
                i += 1
            in_word, i = True, i + 1
            continue
        if char == "\\":
            if i + 1 >= end or line[i + 1] in "\n\r":
                raise Unsafe("line continuation")
            current.append(line[i + 1])
            in_word, i = True, i + 2
            continue
        if char in _SPECIAL or (char == "~" and not in_word) or ord(char) < 32 or char == "\x7f":
            raise Unsafe(f"shell character {char!r}")
        current.append(char)
        in_word, i = True, i + 1
    if in_word:
        words.append("".join(current))
    return words


def _split_heredoc(command: str) -> str:
    """The command line of ``cmd <<'END'`` + body + ``END``; the command itself when it
    holds no newline. Unsafe for anything else with a newline."""
    if "\n" not in command and "\r" not in command:
        return command
    first, _, rest = command.partition("\n")
    head, sep, delimiter = first.rpartition("<<")
    if not sep or head.endswith("<") or "\r" in command:
        raise Unsafe("a newline outside a quoted here-document")
    delimiter = delimiter.strip()
    if delimiter.startswith("-"):
        delimiter = delimiter[1:].strip()
    if len(delimiter) < 3 or delimiter[0] not in "'\"" or delimiter[-1] != delimiter[0]:
        raise Unsafe("here-document delimiter not quoted")
    word = delimiter[1:-1]
    if not word or any(c in _SPECIAL or c in _BLANKS for c in word):
        raise Unsafe("odd here-document delimiter")
    body = rest.split("\n")
    while body and body[-1] == "":
        body.pop()
    # The delimiter closes the document on the LAST line: nothing may follow it.
    if not body or body[-1].lstrip("\t") != word or word in (b.lstrip("\t") for b in body[:-1]):
        raise Unsafe("here-document not closed on its last line")
    return head


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
    try:
        words = split_words(_split_heredoc(command))
    except Unsafe:
        return False
    return bool(words) and allowed_program(words[0], root)


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
