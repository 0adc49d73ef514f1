"""The plugin's manifests, ``.claude-plugin/plugin.json`` and ``marketplace.json``, made from
the one version of the project (``context_memory.__version__``, which pyproject.toml reads
too) and the plugin's names.

``python -m context_memory.setup.plugin.manifests`` writes both files;
tests/setup/test_plugin_files.py checks the committed files against them, so a release changes
the version in one place. Standard library only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from context_memory import __version__
from context_memory.setup.plugin.venv import MARKETPLACE_NAME, PLUGIN_NAME

DESCRIPTION = (
    "Keeps long Claude Code sessions coherent across compactions: context budget, decisions "
    "log, plan, handoffs, compaction audit."
)
AUTHOR = {"name": "context-memory"}
MANIFEST_DIR = ".claude-plugin"


def plugin_manifest(version: str = __version__) -> dict[str, object]:
    return {
        "name": PLUGIN_NAME,
        "version": version,
        "description": DESCRIPTION,
        "author": AUTHOR,
        "license": "MIT",
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


def manifest_texts(version: str = __version__) -> dict[str, str]:
    """File name (in .claude-plugin/) -> its text."""
    return {
        "plugin.json": json.dumps(plugin_manifest(version), indent=2) + "\n",
        "marketplace.json": json.dumps(marketplace_manifest(version), indent=2) + "\n",
    }


def main(argv: list[str] | None = None) -> int:
    """Write both manifests into the checkout's .claude-plugin/ (or the folder given)."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else Path(__file__).resolve().parents[4]
    folder = root / MANIFEST_DIR
    for name, text in manifest_texts().items():
        (folder / name).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
