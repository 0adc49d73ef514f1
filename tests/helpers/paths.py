"""Where things are, and the environment a test's subprocess starts from."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
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


def run_bare_python(
    code: str,
    *args: str,
    env: Mapping[str, str] | Mapping[bytes, bytes] | None = None,
    check: bool = False,
    timeout: float = 60,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -S -c code args``: this interpreter without its site hooks (.pth files
    import what they like), the package importable (``subprocess_env``, unless ``env``),
    output as text: what a hook's interpreter loads, measured apart from the user's Python."""
    return subprocess.run(
        [sys.executable, "-S", "-c", code, *args],
        capture_output=True,
        text=True,
        env=subprocess_env() if env is None else env,  # type: ignore[arg-type]
        timeout=timeout,
        check=check,
        cwd=cwd,
    )


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
