"""ctx-restore as the plugin runs it: the usual pointer to the working state
(handlers/restore.py), preceded by one line naming the exact commands the agent records its
working memory with (a plugin-only install puts nothing on PATH but the plugin's bin/ in the
agent's Bash), and
the start of the plugin virtualenv's build in the background when it is missing or stale.

Standard library only; the text is a few hundred characters, paid for once per session.
"""

from __future__ import annotations

import os
import sys

from context_memory import TYPE_CHECKING
from context_memory.core.hookio import (
    HookInput,
    as_hook_input,
    context_output,
    log_line,
    run_hook,
)
from context_memory.core.safe_text import one_line
from context_memory.handlers.restore import EVENT, HOOK_NAME, SOURCES
from context_memory.memory.pointer import recovery_pointer

if TYPE_CHECKING:
    from typing import Any

COMMANDS_PREFIX = "[CONTEXT MEMORY]"
SKILL = "context-memory:context-memory"
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@%,=")


def plugin_root() -> str:
    # hooks/context_memory/handlers/<this file> -> the plugin folder above hooks/.
    here = os.path.abspath(__file__)
    return os.environ.get("CTX_PLUGIN_ROOT") or os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.dirname(here)))
    )


def shell_word(text: str) -> str:
    """``text`` as one shell word: bare when plain, else in single quotes."""
    if text and set(text) <= _PLAIN:
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def command_path(name: str, root: str | None = None) -> str:
    """The shell word that runs the plugin's command ``name``."""
    return shell_word(os.path.join(os.path.abspath(root or plugin_root()), "bin", name))


def commands_text(root: str | None = None) -> str:
    decide = command_path("ctx-decide", root)
    plan = command_path("ctx-plan", root)
    handoff = command_path("ctx-handoff", root)
    return one_line(
        f"{COMMANDS_PREFIX} Keep this project's working memory with these commands (they run "
        f"without a permission prompt; the skill {SKILL} says when): "
        f'a decision: {decide} "<decision>" --reason "<why>"; '
        f'a rejected option: {decide} --rejected "<option>" --reason "<why>"; '
        f"the plan (Markdown on stdin): {plan} <<'EOF' ... EOF; "
        f"a stage handoff: {handoff} --draft; list decisions: {decide} --list."
    )


def _start_venv_build(state_dir: str, session: str) -> None:
    """The by-hand commands' packages: built in the background, never waited for."""
    from context_memory.setup.plugin import venv as plugin_venv

    try:
        plugin_venv.start_background_build(plugin_venv.data_dir(), plugin_root())
    except OSError as exc:  # the session goes on; the command builds it when first run
        log_line(state_dir, HOOK_NAME, session, f"plugin virtualenv build not started: {exc}")


def plugin_restore_output(payload: HookInput | dict[str, Any]) -> str | None:
    hook = as_hook_input(payload)
    if hook.answers(EVENT) is None:
        return None
    source = hook.text("source")
    if source is not None and source not in SOURCES:
        return None
    state_dir = hook.state_dir
    _start_venv_build(state_dir, hook.session_id or "")
    pointer = recovery_pointer(state_dir, base=hook.project_dir)
    text = commands_text() if pointer is None else commands_text() + "\n" + pointer
    return context_output(EVENT, text)


def main(argv: list[str] | None = None) -> int:
    return run_hook(HOOK_NAME, plugin_restore_output, argv=argv)


if __name__ == "__main__":
    sys.exit(main())
