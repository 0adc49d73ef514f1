"""Native Windows is refused in one line, and nothing changes (issue 25, item 16): the
``./install`` script, the installer, ``ctx-install``, and the plugin's dispatcher and
virtualenv build. The platform is faked: ``sys.platform`` for the Python entry points (read
by setup/platforms.unsupported, the one check), a ``uname`` on PATH for the script."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from context_memory.commands import install as ctx_install
from context_memory.commands import plugin_run
from context_memory.setup import platforms
from context_memory.setup.install import cli as installer
from context_memory.setup.plugin import venv as plugin_venv
from helpers.cli_run import run_program
from helpers.paths import REPO, file_tree

P = "context-memory:"
LINE = f"{P} error: {platforms.NATIVE_WINDOWS}\n"


@pytest.mark.parametrize(
    ("platform", "os_name", "refused"),
    [
        ("win32", "nt", True),
        ("win32", "posix", True),
        ("linux", "posix", False),
        ("darwin", "posix", False),
        ("cygwin", "posix", False),
    ],
)
def test_only_native_windows_is_refused(platform: str, os_name: str, refused: bool) -> None:
    found = platforms.unsupported(platform, os_name)
    assert found == (platforms.NATIVE_WINDOWS if refused else None)


def test_this_machine_is_supported() -> None:
    assert platforms.unsupported() is None


@pytest.fixture
def windows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """sys.platform says native Windows; HOME and every folder the tools write are in a
    fresh tmp home, whose tree the tests compare."""
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text('{"model": "opus"}')
    for name in ("CTX_VENV", "XDG_DATA_HOME", "CLAUDE_CONFIG_DIR", "CTX_BIN_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(home / "plugin-data"))
    monkeypatch.chdir(home)
    monkeypatch.setattr(sys, "platform", "win32")
    return home


def test_the_installer_refuses(windows: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = file_tree(windows, folders=True)
    for argv in ([], ["--uninstall", "--purge"], ["--statusline", "--cron"], ["--dry-run"]):
        assert installer.main([*argv, "--venv", str(windows / "venv")]) == 1
        captured = capsys.readouterr()
        assert (captured.out, captured.err) == ("", LINE)
    assert file_tree(windows, folders=True) == before


def test_ctx_install_refuses(windows: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = file_tree(windows, folders=True)
    for argv in ([], ["--uninstall"], ["--help"]):
        assert ctx_install.main(argv) == 1
        captured = capsys.readouterr()
        assert (captured.out, captured.err) == (
            "",
            f"ctx-install: error: {platforms.NATIVE_WINDOWS}\n",
        )
    assert file_tree(windows, folders=True) == before


def test_the_plugin_refuses(windows: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = file_tree(windows, folders=True)
    # A hook: one line, exit 0 (it never breaks the session); a command by hand: exit 1.
    assert plugin_run.run(["ctx-budget"]) == 0
    assert capsys.readouterr().err == f"{P} ctx-budget: {platforms.NATIVE_WINDOWS}\n"
    assert plugin_run.run(["ctx-extract"]) == 0
    assert capsys.readouterr().err == f"{P} ctx-extract: {platforms.NATIVE_WINDOWS}\n"
    assert plugin_run.run(["ctx-decide", "--list"]) == 1
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", f"{P} ctx-decide: {platforms.NATIVE_WINDOWS}\n")
    data = str(windows / "plugin-data")
    with pytest.raises(plugin_venv.BuildError) as refused:
        plugin_venv.build(data)
    assert str(refused.value) == platforms.NATIVE_WINDOWS
    assert plugin_venv.start_background_build(data) is False
    assert file_tree(windows, folders=True) == before  # no plugin data folder, no virtualenv


def test_the_install_script_refuses(tmp_path: Path) -> None:
    """Git Bash and MSYS2 say MINGW64_NT-... / MSYS_NT-... in uname -s."""
    home = tmp_path / "home"
    home.mkdir()
    fake = tmp_path / "fake bin"
    fake.mkdir()
    (fake / "uname").write_text("#!/bin/sh\necho MINGW64_NT-10.0-19045\n")
    (fake / "uname").chmod(0o755)
    env = {
        "HOME": str(home),
        "PATH": f"{fake}{os.pathsep}{os.environ.get('PATH', os.defpath)}",
    }
    for argv in ([], ["--uninstall"], ["--dry-run"]):
        done = run_program([str(REPO / "install"), *argv], cwd=home, env=env)
        assert (done.returncode, done.stdout, done.stderr) == (1, "", LINE)
    assert file_tree(home, folders=True) == {}
