from __future__ import annotations

from pathlib import Path

import pytest

# The session-wide check that no test wrote into the real cache or ~/.claude.
from helpers.home_guard import pytest_sessionfinish, pytest_sessionstart  # noqa: F401
from helpers.installed import installed_for
from helpers.paths import ISOLATED_VARS


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The markers a test's needs imply (pyproject.toml lists them): the throwaway crontab
    user needs root; a real ./install per Python is slow; root and client tests are slow."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "cron_user" in fixtures:
            item.add_marker(pytest.mark.root)
        if "python_label" in fixtures:
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("root") or item.get_closest_marker("client"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    for name in ISOLATED_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CTX_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    # The hooks mirror records into Claude Code's auto memory under HOME; tests that do not
    # give themselves a HOME must not write into the real one (tests/test_native_memory.py
    # turns it on with a throwaway HOME).
    monkeypatch.setenv("CTX_NATIVE_MEMORY", "off")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project folder, made the current directory."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


# -- the installed project, per Python (tests/helpers/installed.py) -------------------------


@pytest.fixture(scope="session", autouse=True)
def _installs_base(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Where tests/helpers/installed.py puts this session's installs (made when a test asks)."""
    from helpers import installed

    installed.set_base(tmp_path_factory.mktemp("installed"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # ``python_label``: one case per supported Python (and the system's own build).
    if "python_label" in metafunc.fixturenames:
        from helpers import installed

        metafunc.parametrize("python_label", installed.matrix_labels(), ids=lambda x: f"py{x}")


@pytest.fixture
def installed_project(python_label: str):
    """The project installed by ./install with the Python ``python_label``."""
    return installed_for(python_label)
