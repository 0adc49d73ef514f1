"""The plugin's dispatcher: ``bin/ctx-run COMMAND [ARGS]`` runs this file with the Python
it found, and this runs COMMAND from the plugin folder.

- Hooks and the status line (standard library only) run at once, whatever the state of the
  plugin's virtualenv; ctx-extract and ctx-audit get the venv's packages when the venv is
  ready, and run on the standard library alone (its file locks included) when it is not.
- The SessionStart hook (ctx-restore) starts the venv build in the background when it is
  missing or stale (plugin_venv), so it is usually ready before anyone needs it.
- Commands that need click (ctx-decide, ctx-plan, ctx-handoff, ctx-doctor, ...) use the
  venv, building it first when needed (once, under a lock; a line on stderr says so).

Run as a script (not ``-m``), isolated (``-I -S``, see bin/ctx-run): the first thing it does
is put the plugin's ``hooks/`` first on sys.path (in place of its own folder, when a run
without -I put that there). Standard library only.
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":
    # The package's parent (hooks/) goes first; hooks/context_memory/commands/ must not
    # shadow anything (sys.path[0] without -I; -I leaves the script's folder out).
    _own = os.path.dirname(os.path.abspath(__file__))
    _hooks = os.path.dirname(os.path.dirname(_own))
    if sys.path[:1] == [_own]:
        sys.path[0] = _hooks
    else:
        sys.path.insert(0, _hooks)

# command -> (module:function, what it needs): core/command_table, the one registry.
from context_memory.core.command_table import (
    HOOK,
    HOOK_VENV,
    PLUGIN_COMMANDS,
    VENV,
)

PREFIX = "context-memory:"
# hooks/context_memory/commands/plugin_run.py -> the plugin folder.
_HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(_HERE))))


def _fail(message: str) -> int:
    print(f"{PREFIX} {message}", file=sys.stderr)
    return 1


def run(argv: list[str]) -> int:
    if not argv or argv[0] not in PLUGIN_COMMANDS:
        known = ", ".join(sorted(PLUGIN_COMMANDS))
        return _fail(f"ctx-run needs a command, one of: {known}")
    command, args = argv[0], argv[1:]
    target, needs = PLUGIN_COMMANDS[command]
    from context_memory.setup.platforms import unsupported

    refusal = unsupported()
    if refusal is not None:
        # One line, nothing done; a hook still exits 0 (it never breaks the session).
        _fail(f"{command}: {refusal}")
        return 0 if needs in (HOOK, HOOK_VENV) and not args else 1
    os.environ["CTX_PLUGIN_ROOT"] = ROOT  # ctx-doctor and ctx-restore tell a plugin run
    if needs != HOOK or (command == "ctx-audit" and args):
        from context_memory.setup.plugin import venv as plugin_venv

        data = plugin_venv.data_dir()
        # ctx-audit with arguments is the by-hand report (click): it needs the venv.
        if needs == VENV or args:
            if not plugin_venv.use_venv(data):
                print(
                    f"{PREFIX} preparing the plugin's Python packages in "
                    f"{plugin_venv.venv_dir(data)} (first use; about a minute)...",
                    file=sys.stderr,
                )
                try:
                    plugin_venv.build(data)
                except (plugin_venv.BuildError, OSError) as exc:
                    return _fail(f"{command} needs click, orjson and filelock: {exc}")
                plugin_venv.use_venv(data)
        else:
            # A hook before the venv is built runs on the standard library alone (its locks
            # too: core/filelocks.py), so a PreCompact or Stop extract still does its work.
            plugin_venv.use_venv(data)
    module_name, function = target.split(":")
    module = __import__(module_name, fromlist=[function])
    sys.argv[0] = command
    result = getattr(module, function)(args)
    return result if isinstance(result, int) else 0


def remember_python(found: str, data: str) -> None:
    """bin/ctx-run searched PATH for a Python (a fork per candidate): keep what it found in
    ``$CLAUDE_PLUGIN_DATA/python`` so the next hooks start it at once. Best effort."""
    if not found or not data or "\n" in found:
        return
    try:
        from context_memory.core.fsutil import atomic_write

        os.makedirs(data, mode=0o700, exist_ok=True)
        atomic_write(os.path.join(data, "python"), found + "\n")
    except OSError:
        pass


def main() -> int:
    found = os.environ.pop("CTX_PLUGIN_PYTHON_FOUND", "")
    if found:
        remember_python(found, os.environ.get("CLAUDE_PLUGIN_DATA", ""))
    return run(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
