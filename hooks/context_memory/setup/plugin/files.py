"""The plugin's generated files. ``hooks/hooks.json``: the same events, matchers and
timeouts as the table ./install registers (core/command_table.HOOKS), run through the
plugin's launcher, plus the plugin-only PreToolUse hook that lets the toolkit's own commands
run without a prompt. ``.claude-plugin/plugin.json`` and ``marketplace.json``: made from the
one version of the project (``context_memory.__version__``, which pyproject.toml reads too).

``python -m context_memory.setup.plugin.files`` writes the three into the checkout;
tests/setup/test_plugin_files.py checks the committed files against them, so the two ways in
cannot drift apart and a release changes the version in one place. Standard library only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from context_memory import __version__
from context_memory.core.command_table import HOOKS, HookSpec
from context_memory.setup.plugin.venv import HOOKS_FILE, MANIFEST, MARKETPLACE_NAME, PLUGIN_NAME

LAUNCHER = "${CLAUDE_PLUGIN_ROOT}/bin/ctx-run"
ALLOW_COMMAND = "ctx-allow"
ALLOW_TIMEOUT = 10
DESCRIPTION = (
    "Keeps long Claude Code sessions coherent across compactions: context budget, decisions "
    "log, plan, handoffs, compaction audit."
)
AUTHOR = {"name": "context-memory"}


def _group(matcher: str | None, command: str, timeout: int) -> dict[str, object]:
    group: dict[str, object] = {} if matcher is None else {"matcher": matcher}
    # Quoted: the client runs it through a shell and the plugin folder may hold spaces.
    entry = {"type": "command", "command": f'"{LAUNCHER}" {command}', "timeout": timeout}
    group["hooks"] = [entry]
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


def marketplace_manifest(version: str = __version__) -> dict[str, object]:
    # "./": the checkout is both the marketplace and its one plugin.
    entry = {
        "name": PLUGIN_NAME,
        "source": "./",
        "description": DESCRIPTION,
        "version": version,
        "author": AUTHOR,
    }
    return {
        "name": MARKETPLACE_NAME,
        "owner": AUTHOR,
        "description": "The context-memory plugin for Claude Code",
        "plugins": [entry],
    }


def generated_files(version: str = __version__) -> dict[str, str]:
    """Each file's path in the checkout -> its text."""
    plugin = {
        "name": PLUGIN_NAME,
        "version": version,
        "description": DESCRIPTION,
        "author": AUTHOR,
        "license": "MIT",
    }
    documents = {
        HOOKS_FILE: hooks_document(),
        MANIFEST: plugin,
        ".claude-plugin/marketplace.json": marketplace_manifest(version),
    }
    return {path: json.dumps(document, indent=2) + "\n" for path, document in documents.items()}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else Path(__file__).resolve().parents[4]
    for path, text in generated_files().items():
        (root / path).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
