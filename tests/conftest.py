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


# -- the installed project, per Python (tests/installed.py) -----------------------------------


@pytest.fixture(scope="session", autouse=True)
def _installs_base(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Where tests/installed.py puts this session's installs (made only when a test asks)."""
    import installed

    installed.set_base(tmp_path_factory.mktemp("installed"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # ``python_label``: one case per supported Python (and the system's own build).
    if "python_label" in metafunc.fixturenames:
        import installed

        metafunc.parametrize("python_label", installed.matrix_labels(), ids=lambda x: f"py{x}")


def installed_for(label: str):
    """The real install for ``label``; a missing Python skips, or fails in CI."""
    import installed

    try:
        return installed.get(label)
    except LookupError:
        reason = installed.missing_reason(label)
        if installed.in_ci() and label != "system":
            pytest.fail(f"CI must run every supported Python: {reason}")
        pytest.skip(reason)


@pytest.fixture
def installed_project(python_label: str):
    """The project installed by ./install with the Python ``python_label``."""
    return installed_for(python_label)
