"""Where things are, and the environment a test's subprocess starts from."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
SAMPLE_TRANSCRIPT = REPO / "examples" / "sample-transcript.jsonl"

# Variables of the client, or of a user's own configuration, that change what the
# toolkit computes; tests start from none of them.
ISOLATED_VARS = (
    "CTX_WINDOW",
    "CTX_BANDS",
    "CTX_LANG",
    "CTX_STATE_DIR",
    "CTX_MAX_SCAN_BYTES",
    "CTX_AUDIT_LAST",
    "CTX_PIN_TOKENS",
    "CTX_MERGE_MIN_HOURS",
    "CTX_MERGE_MIN_SESSIONS",
    "CTX_CRONTAB_USER",
    "CTX_BIN_DIR",
    "XDG_BIN_HOME",
    "CLAUDE_PROJECT_DIR",
    "CLAUDECODE",  # set in the Bash tool of a Claude Code session: ctx-decide's "by"
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_DISABLE_1M_CONTEXT",
    "CLAUDE_CODE_MAX_CONTEXT_TOKENS",
    "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
    "DISABLE_AUTO_COMPACT",
    "DISABLE_COMPACT",
)


def subprocess_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ISOLATED_VARS}
    env["PYTHONPATH"] = str(REPO / "hooks")
    env.update(extra)
    return env


def file_tree(folder: Path, folders: bool = False) -> dict[str, bytes | str]:
    """Every file (its bytes) and link (its target) below ``folder``, by relative path;
    with ``folders``, each folder too (as "folder"): what a test compares before and after
    to show that nothing there changed."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            found[key] = os.readlink(path)
        elif path.is_file():
            found[key] = path.read_bytes()
        elif folders:
            found[key] = "folder"
    return found
