"""The plugin's ``hooks/hooks.json``: the same events, matchers and timeouts as the table
./install registers (core/command_table.HOOKS), run through the plugin's launcher, plus the
plugin-only PreToolUse hook that lets the toolkit's own commands run without a prompt.

``python -m context_memory.setup.plugin.hooks`` prints the file; tests/setup/test_plugin_files.py
checks the committed file against it, so the two ways in cannot drift apart. Standard
library only.
"""

from __future__ import annotations

import json
import sys

from context_memory.core.command_table import HOOKS, HookSpec

LAUNCHER = "${CLAUDE_PLUGIN_ROOT}/bin/ctx-run"
ALLOW_COMMAND = "ctx-allow"
ALLOW_TIMEOUT = 10


def plugin_command(command: str) -> str:
    # Quoted: the client runs it through a shell and the plugin folder may hold spaces.
    return f'"{LAUNCHER}" {command}'


def _group(matcher: str | None, command: str, timeout: int) -> dict[str, object]:
    group: dict[str, object] = {} if matcher is None else {"matcher": matcher}
    group["hooks"] = [{"type": "command", "command": plugin_command(command), "timeout": timeout}]
    return group


def hooks_document(specs: tuple[HookSpec, ...] = HOOKS) -> dict[str, object]:
    events: dict[str, list[dict[str, object]]] = {}
    for spec in specs:
        events.setdefault(spec.event, []).append(_group(spec.matcher, spec.command, spec.timeout))
    events.setdefault("PreToolUse", []).insert(0, _group("Bash", ALLOW_COMMAND, ALLOW_TIMEOUT))
    return {
        "description": "context-memory: context budget, working memory, compaction audit",
        "hooks": events,
    }


def hooks_json() -> str:
    return json.dumps(hooks_document(), indent=2) + "\n"


if __name__ == "__main__":
    sys.stdout.write(hooks_json())
