from __future__ import annotations

import os
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
    # give themselves a HOME must not write into the real one (tests/memory/test_native.py
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


# --------------------------------------------------------------------------- the installer's
# For tests/setup/test_install*.py and test_settings_safety (helpers/install_env.py has the rest).
# Imports inside: the package is not loaded for tests that do not ask for these.


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A throwaway HOME without the installer's variables; command links go to a tmp folder
    that is not on PATH (never to the real ~/.local/bin); backups are stamped WHEN."""
    from context_memory.setup.install import settings_edit
    from context_memory.setup.install.command_links import on_path
    from helpers.install_env import INSTALL_VARS, LINKS_NAME, SYSTEM_PATH, WHEN

    home = tmp_path / "home dir"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in INSTALL_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CTX_BIN_DIR", str(tmp_path / LINKS_NAME))
    monkeypatch.setenv("PATH", SYSTEM_PATH)
    assert not on_path(tmp_path / LINKS_NAME, os.environ)
    monkeypatch.setattr(settings_edit, "_now", lambda: WHEN)
    return home


@pytest.fixture
def links(home: Path, tmp_path: Path) -> Path:
    from helpers.install_env import LINKS_NAME

    return tmp_path / LINKS_NAME


@pytest.fixture
def venv(tmp_path: Path) -> Path:
    """A stand-in virtualenv: pyvenv.cfg, a working bin/python and the entry points."""
    from helpers.install_env import stand_in_venv

    return stand_in_venv(tmp_path / "v env")


@pytest.fixture
def healthy(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """ctx-doctor's tests: a project with the hooks registered in user settings, a complete
    virtualenv, and its commands linked into a folder on PATH (helpers/doctor_env.py)."""
    from helpers.doctor_env import healthy_install

    return healthy_install(tmp_path, monkeypatch)
