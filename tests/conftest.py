from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "hooks"))
sys.path.insert(0, str(REPO / "tests"))

SAMPLE_TRANSCRIPT = REPO / "examples" / "sample-transcript.jsonl"

# Variables of the client, or of a user's own configuration, that change what the
# toolkit computes; tests start from none of them.
_ISOLATED_VARS = (
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
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_DISABLE_1M_CONTEXT",
    "CLAUDE_CODE_MAX_CONTEXT_TOKENS",
    "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
    "DISABLE_AUTO_COMPACT",
    "DISABLE_COMPACT",
)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    for name in _ISOLATED_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CTX_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project folder, made the current directory."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


def subprocess_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _ISOLATED_VARS}
    env["PYTHONPATH"] = str(REPO / "hooks")
    env.update(extra)
    return env
