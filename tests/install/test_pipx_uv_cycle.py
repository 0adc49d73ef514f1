"""The pipx and uv ways in, whole, as a plain user does them (issue 25, items 1 and 2):
``pipx install <copy of the source>`` (or ``uv tool install``), ``ctx-install``,
``ctx-install`` again, ``ctx-doctor``, ``ctx-install --uninstall``, ``pipx uninstall``
(``uv tool uninstall``): settings.json is byte for byte what it was, and pipx's and uv's
own wrappers in ``<venv>/bin`` were never rewritten.

The user is a throwaway one that this module creates with ``useradd`` (and deletes with
``userdel``), as tests/setup/test_crontab.py does, so this needs root (CI runs as root; on a
developer's machine the test is skipped, in CI it fails). Its home is a fresh folder; pipx
and uv are pip-installed from PyPI into a tools virtualenv there, by that user, with
Debian's ``/usr/bin/python3`` (the Python a new user has).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from context_memory.core.command_table import HOOKS
from helpers.installed import SYSTEM_PYTHON, clean_env, copy_source
from helpers.needs import missing
from helpers.paths import file_tree
from helpers.throwaway_user import throwaway_user

pytestmark = pytest.mark.root  # a throwaway user (useradd); root implies slow (conftest)

P = "context-memory:"
TIMEOUT = 900
# The user's own settings, in their own layout: what must come back byte for byte.
SETTINGS_BEFORE = (
    '{\n    "model": "opus",\n    "hooks": {"Stop": [{"hooks": [{"type": "command",'
    ' "command": "notify-send done"}]}]},\n    "z": 1e400\n}'
)


@dataclass(frozen=True)
class PlainUser:
    name: str
    uid: int
    gid: int
    home: Path
    tools: Path  # the virtualenv holding pipx and uv

    def env(self) -> dict[str, str]:
        path = f"{self.home / '.local' / 'bin'}:{self.tools / 'bin'}:/usr/bin:/bin"
        drop = ("XDG_", "PIPX_", "UV_", "USER", "LOGNAME")
        env = {k: v for k, v in clean_env().items() if not k.startswith(drop)}
        env.update(HOME=str(self.home), PATH=path, USER=self.name, LOGNAME=self.name)
        # uv: the Python a new user has; never a download of its own.
        env.update(UV_PYTHON=SYSTEM_PYTHON, UV_PYTHON_DOWNLOADS="never")
        return env

    def run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv,
            user=self.uid,
            group=self.gid,
            extra_groups=[],
            env=self.env(),
            cwd=self.home,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def ok(self, *argv: str, timeout: float = 120) -> str:
        done = self.run(*argv, timeout=timeout)
        assert done.returncode == 0, f"{argv} exited {done.returncode}:\n{done.stdout}{done.stderr}"
        return done.stdout


@pytest.fixture(scope="module")
def plain_user() -> Iterator[PlainUser]:
    """A throwaway user with a home of its own and pipx and uv installed from PyPI."""
    if not os.path.exists(SYSTEM_PYTHON):
        missing(f"{SYSTEM_PYTHON} is missing: the plain user's Python")
    base = Path(tempfile.mkdtemp(prefix="ctx-pipx-uv-"))
    base.chmod(0o755)
    home = base / "home"
    home.mkdir()
    try:
        with throwaway_user(
            "ctxplain", "--no-create-home", "--home-dir", str(home), "--shell", "/bin/sh",
            "--user-group",
            reason_for_root=(
                "tests/install/test_pipx_uv_cycle.py runs pipx and uv as a throwaway plain "
                "user, and creating that user (useradd) needs root; run the tests as root "
                "(as CI does)"
            ),
        ) as name:  # fmt: skip
            import pwd

            entry = pwd.getpwnam(name)
            os.chown(home, entry.pw_uid, entry.pw_gid)
            user = PlainUser(name, entry.pw_uid, entry.pw_gid, home, home / "tools")
            user.ok(SYSTEM_PYTHON, "-m", "venv", str(user.tools))
            pip = str(user.tools / "bin" / "pip")
            user.ok(pip, "install", "--quiet", "pipx", "uv", timeout=TIMEOUT)
            yield user
    finally:
        shutil.rmtree(base, ignore_errors=True)


# (install command, uninstall command, where the package manager puts the virtualenv)
MANAGERS = {
    "pipx": (("pipx", "install"), ("pipx", "uninstall"), ".local/share/pipx/venvs"),
    "uv": (("uv", "tool", "install"), ("uv", "tool", "uninstall"), ".local/share/uv/tools"),
}


@pytest.mark.parametrize("manager", sorted(MANAGERS))
def test_the_whole_cycle_leaves_settings_as_they_were(manager: str, plain_user: PlainUser) -> None:
    install, uninstall, venvs = MANAGERS[manager]
    user = plain_user
    source = user.home / f"context-memory-{manager}"
    copy_source(source)
    for folder, _dirs, files in os.walk(source):
        os.chown(folder, user.uid, user.gid)
        for name in files:
            os.chown(os.path.join(folder, name), user.uid, user.gid)
    claude = user.home / ".claude"
    user.ok("mkdir", "-p", str(claude))
    settings = claude / "settings.json"
    user.ok("sh", "-c", f"printf '%s' '{SETTINGS_BEFORE}' > '{settings}'")
    before = file_tree(claude)
    assert settings.read_text() == SETTINGS_BEFORE

    user.ok(*install, str(source), timeout=TIMEOUT)
    venv = user.home / venvs / "context-memory"
    theirs = file_tree(venv / "bin")  # pipx's (uv's) wrappers and links
    assert theirs, f"{manager} made no {venv / 'bin'}"

    out = user.ok("ctx-install")
    launchers = venv / "context-memory" / "bin"
    assert f"{P} registered {len(HOOKS)} hooks in {settings}:" in out.splitlines()
    hooks = json.loads(settings.read_text().replace("1e400", "0"))["hooks"]
    assert hooks["UserPromptSubmit"][0]["hooks"][0]["command"] == f'"{launchers}/ctx-budget"'
    assert file_tree(venv / "bin") == theirs  # never rewritten
    # Each registered hook runs as the client runs it (sh -c), as that user.
    for spec in HOOKS:
        done = user.ok("sh", "-c", f'"{launchers}/{spec.command}" --version')
        assert done.startswith(f"{spec.command} ")
    after_install = settings.read_bytes()

    assert user.ok("ctx-install") == (
        f"{P} hooks already registered in {settings}; nothing to change\n"
    )
    assert settings.read_bytes() == after_install
    assert user.ok("ctx-install", "--help").startswith("usage: ctx-install ")

    # ctx-doctor checks this install, not ~/.local/share/context-memory/venv.
    doctor = user.run("ctx-doctor", "--json")
    data = json.loads(doctor.stdout)
    assert data["venv"] == str(venv)
    failed = [c for c in data["checks"] if c["status"] == "FAIL"]
    assert (failed, doctor.returncode) == ([], 0), doctor.stdout

    out = user.ok("ctx-install", "--uninstall")
    assert f"{P} removed {len(HOOKS)} hooks from {settings}" in out.splitlines()
    assert not (venv / "context-memory").exists()
    assert file_tree(venv / "bin") == theirs
    user.ok(*uninstall, "context-memory", timeout=TIMEOUT)
    assert not venv.exists()
    assert settings.read_text() == SETTINGS_BEFORE
    assert file_tree(claude) == before
