"""``./install --uninstall`` removes exactly what the installs recorded, wherever they were
run from; the settings file comes back byte for byte; backups stay bounded; the dry run and
the reports say what they do (issue 13)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from context_memory.core import exit_codes
from context_memory.core.command_table import HOOKS
from context_memory.setup.install import cli as installer
from context_memory.setup.install import command_links
from context_memory.setup.install import record as install_record
from context_memory.setup.install.command_links import LINKED_COMMANDS
from context_memory.setup.install.venv import STAMP_NAME
from helpers.install_env import ENTRY_MODULES, FOREIGN_SETTINGS, P, run
from helpers.paths import file_tree

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

ODD_LAYOUT = '{"model":\t"opus",   "z": 1e400,\n\n "a": [1,2 ,3]}'  # no trailing newline


def test_uninstall_from_elsewhere_removes_a_project_install_and_restores_its_bytes(
    home: Path, venv: Path, links: Path, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    project = tmp_path / "app"
    (project / ".claude").mkdir(parents=True)
    settings = project / ".claude" / "settings.json"
    settings.write_text(ODD_LAYOUT)
    user_settings = home / ".claude" / "settings.json"
    user_settings.parent.mkdir()
    user_settings.write_text('{\n    "theme": "dark"\n}\n')
    # A backup that was there before (the user's, or an older install's) stays.
    (user_settings.parent / "settings.json.bak-20200101T000000Z").write_text("{}")
    links.mkdir()
    (links / "mine").write_text("#!/bin/sh\n")
    before_home, before_links = file_tree(home), file_tree(links)

    assert run(capsys, "--venv", str(venv), "--project", str(project))[0] == 0
    assert json.loads(settings.read_text().replace("1e400", "0"))["hooks"]
    # The user settings now run the hooks in every project: the project's copy goes.
    code, out, _ = run(capsys, "--venv", str(venv), "--statusline")  # user settings
    assert code == 0
    assert f"{P} removed {len(HOOKS)} hooks from {settings}: {user_settings} runs them in " in out
    assert "hooks" not in json.loads(settings.read_text().replace("1e400", "0"))
    assert (venv / install_record.RECORD_NAME).is_file()

    made = [n for n in os.listdir(settings.parent) if ".bak-" in n]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = run(capsys, "--venv", str(venv), "--uninstall")
    assert (code, err) == (0, "")
    assert f"{P} restored {settings} to its text from before ./install" in out.splitlines()
    assert settings.read_text() == ODD_LAYOUT
    assert file_tree(links) == before_links
    # The backups the installs and the uninstall made are gone with them.
    assert file_tree(home) == before_home
    assert sorted(os.listdir(settings.parent)) == ["settings.json"]
    # The project install's backup, and the one the user install made before removing
    # the project's copy of the hooks.
    assert len(made) == 2
    assert f"{P} removed 2 backups of {settings} that ./install had made" in out.splitlines()
    assert not (venv / install_record.RECORD_NAME).exists()
    # Twice is once: nothing is left to remove.
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall")
    assert code == 0
    assert settings.read_text() == ODD_LAYOUT


def test_a_settings_file_changed_since_the_install_is_kept_as_it_is(
    home: Path, venv: Path, links: Path, capsys: Any
) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(ODD_LAYOUT)
    run(capsys, "--venv", str(venv))
    data = json.loads(settings.read_text().replace("1e400", "0"))
    data["model"] = "sonnet"  # the user changed something meanwhile
    settings.write_text(json.dumps(data).replace('"z": 0', '"z": 1e400'))
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall")
    assert code == 0
    assert "restored" not in out
    assert '"sonnet"' in settings.read_text()
    # Not as before the install: its backups are kept.
    assert [n for n in os.listdir(settings.parent) if ".bak-" in n] != []
    assert "hooks" not in settings.read_text()


def test_records_of_other_homes_are_not_touched(
    home: Path, venv: Path, links: Path, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    run(capsys, "--venv", str(venv))
    other = tmp_path / "other home"
    other.mkdir()
    monkeypatch.setenv("HOME", str(other))
    run(capsys, "--venv", str(venv))
    code, _out, _ = run(capsys, "--venv", str(venv), "--uninstall")
    assert code == 0
    assert not (other / ".claude" / "settings.json").exists()
    assert "hooks" in (home / ".claude" / "settings.json").read_text()
    record = json.loads((venv / install_record.RECORD_NAME).read_text())
    assert len(record["installs"]) == 1


def test_backups_are_bounded(home: Path, venv: Path, capsys: Any, tmp_path: Path) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    for _ in range(5):
        # The user (or another tool) rewrites the file without our hooks; each install
        # then edits it again and backs it up first.
        settings.write_text(json.dumps(FOREIGN_SETTINGS))
        code, out, _ = run(capsys, "--venv", str(venv))
        assert code == 0
        newest = out.split(" to ", 1)[1].split("\n", 1)[0]  # "backed up X to <name>"
        assert newest in os.listdir(settings.parent)  # the one just made is always kept
    names = [n for n in os.listdir(settings.parent) if ".bak-" in n]
    assert len(names) == install_record.KEEP_BACKUPS == 3


def test_prune_keeps_the_newest_by_time_then_number(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    target.write_text("{}")
    for name in ("20250101T000000Z", "20250101T000000Z-2", "20250101T000000Z-10",
                 "20240101T000000Z", "20260101T000000Z"):  # fmt: skip
        (tmp_path / f"settings.json.bak-{name}").write_text("{}")
    (tmp_path / "other.bak-20200101T000000Z").write_text("{}")
    deleted = install_record.prune_backups(target, keep=3)
    assert sorted(p.name for p in deleted) == [
        "settings.json.bak-20240101T000000Z",
        "settings.json.bak-20250101T000000Z",
    ]
    assert sorted(os.listdir(tmp_path)) == [
        "other.bak-20200101T000000Z",
        "settings.json",
        "settings.json.bak-20250101T000000Z-10",
        "settings.json.bak-20250101T000000Z-2",
        "settings.json.bak-20260101T000000Z",
    ]


def test_status_line_only_change_says_so(home: Path, venv: Path, capsys: Any) -> None:
    run(capsys, "--venv", str(venv))
    code, out, _ = run(capsys, "--venv", str(venv), "--statusline")
    assert code == 0
    settings = home / ".claude" / "settings.json"
    assert f"{P} hooks already registered in {settings}; only the status line changed" in (
        out.splitlines()
    )
    assert "registered" not in out.replace("already registered", "")


def test_cron_dry_run_without_crontab_shows_the_line(
    home: Path, venv: Path, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    from context_memory.setup.install import crontab

    monkeypatch.setattr(crontab, "crontab_missing", lambda: True)
    project = tmp_path / "app"
    project.mkdir()
    code, out, err = run(capsys, "--venv", str(venv), "--project", str(project), "--cron",
                         "--dry-run")  # fmt: skip
    assert (code, err) == (0, "")
    lines = out.splitlines()
    at = lines.index(
        f"{P} crontab: the crontab command is not installed (Debian/Ubuntu: sudo apt install "
        "cron), so ./install --cron would stop; the line it would add, for your scheduler:"
    )
    assert lines[at + 1] == "  " + crontab.cron_line(str(venv / "bin"), str(project))


def test_path_note_for_a_debian_profile(tmp_path: Path) -> None:
    home = tmp_path / "h"
    home.mkdir()
    links = home / ".local" / "bin"
    env = {"HOME": str(home)}
    assert command_links.path_note(links, env).startswith(f"{links} is not on your PATH; add it")
    (home / ".profile").write_text(
        'if [ -d "$HOME/.local/bin" ] ; then\n    PATH="$HOME/.local/bin:$PATH"\nfi\n'
    )
    assert command_links.path_note(links, env) == (
        f"{links} is not on your PATH yet; your ~/.profile adds it when the folder exists at "
        "login, so log out and in again (or run: . ~/.profile) to run ctx-usage and "
        "ctx-decide by name"
    )


def test_help_says_what_uninstall_removes(capsys: Any) -> None:
    with pytest.raises(SystemExit) as exit_info:
        installer.main(["--help"])
    assert exit_info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "nothing else" not in text
    assert "the command links, the crontab lines and the CLAUDE.md line" in text


def test_ctx_install_registers_its_own_virtualenv_and_leaves_pipx_links(
    home: Path, venv: Path, links: Path, capsys: Any, monkeypatch: Any
) -> None:
    """Issue 25: ctx-install in pipx's virtualenv (no stamp of ./install) writes its
    launchers into <venv>/context-memory/bin and never rewrites pipx's <venv>/bin; run as
    our own launchers run it (-S: sys.prefix is the base Python's), it still finds the
    virtualenv, from its interpreter's path."""
    from context_memory.commands import install as install_cli

    (venv / STAMP_NAME).unlink()  # pipx's virtualenv, not ./install's
    pipx_bin = file_tree(venv / "bin")
    launchers = venv / "context-memory" / "bin"
    links.mkdir()
    for name in ("ctx-usage", "ctx-install"):  # what pipx linked
        (links / name).symlink_to(venv / "bin" / name)
    monkeypatch.setattr(install_cli.sys, "prefix", "/usr")  # as under -S
    monkeypatch.setattr(install_cli.sys, "base_prefix", "/usr")
    monkeypatch.setattr(install_cli.sys, "executable", str(venv / "bin" / "python"))
    assert install_cli.main(["--purge", "--uninstall"]) == exit_codes.USAGE
    assert install_cli.main(["--venv", "/x"]) == exit_codes.USAGE
    capsys.readouterr()
    assert install_cli.main([]) == 0
    out = capsys.readouterr().out
    settings = home / ".claude" / "settings.json"
    assert out.startswith(f"{P} registered {len(HOOKS)} hooks in {settings}:\n")
    assert (
        json.loads(settings.read_text())["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
        == f'"{launchers}/ctx-budget"'
    )
    assert " link " not in out
    assert file_tree(venv / "bin") == pipx_bin  # pipx's wrappers, byte for byte
    assert sorted(os.listdir(launchers)) == sorted(ENTRY_MODULES)
    assert sorted(os.listdir(links)) == ["ctx-install", "ctx-usage"]
    assert install_cli.main([]) == 0  # again: nothing changes
    assert capsys.readouterr().out == (
        f"{P} hooks already registered in {settings}; nothing to change\n"
    )
    assert install_cli.main(["--uninstall", "--dry-run"]) == 0
    assert f"{P} would remove {len(ENTRY_MODULES)} launchers from {launchers}\n" in (
        capsys.readouterr().out
    )
    assert install_cli.main(["--uninstall"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        f"{P} backed up {settings} to settings.json.bak-20250102T030405Z",
        f"{P} removed {len(HOOKS)} hooks from {settings}",
        # Before: "./install" in these two, after ctx-install had done it.
        f"{P} deleted {settings}, which ctx-install had created",
        f"{P} removed 1 backup of {settings} that ctx-install had made",
        f"{P} removed {len(ENTRY_MODULES)} launchers from {launchers}",
    ]
    # ~/.claude did not exist before: the install made it, the uninstall removes it.
    assert not settings.parent.exists()
    assert not (venv / "context-memory").exists()
    assert file_tree(venv / "bin") == pipx_bin
    assert sorted(os.listdir(links)) == ["ctx-install", "ctx-usage"]  # pipx's, untouched
    monkeypatch.setattr(install_cli.sys, "executable", "/usr/bin/python3")
    assert install_cli.main([]) == exit_codes.FAILURE
    assert "/usr/bin/python3 is not a virtualenv's python" in capsys.readouterr().err


def test_ctx_install_in_the_virtualenv_of_install_does_what_install_does(
    home: Path, venv: Path, links: Path, capsys: Any, monkeypatch: Any
) -> None:
    """ctx-install of ./install's virtualenv (linked on PATH since issue 25): its launchers
    in <venv>/bin, and the command links, as ./install."""
    from context_memory.commands import install as install_cli

    monkeypatch.setattr(install_cli.sys, "prefix", "/usr")
    monkeypatch.setattr(install_cli.sys, "base_prefix", "/usr")
    monkeypatch.setattr(install_cli.sys, "executable", str(venv / "bin" / "python"))
    assert install_cli.main([]) == 0
    settings = home / ".claude" / "settings.json"
    hooks = json.loads(settings.read_text())["hooks"]
    assert hooks["UserPromptSubmit"][0]["hooks"][0]["command"] == f'"{venv}/bin/ctx-budget"'
    assert sorted(os.listdir(links)) == sorted(LINKED_COMMANDS)
    assert not (venv / "context-memory").exists()


def test_the_uninstall_dry_run_shows_what_the_run_does(
    home: Path, venv: Path, links: Path, capsys: Any
) -> None:
    """Issue 25: a settings file the install created is deleted by the uninstall, and the
    dry run says so (it showed the file becoming {}); a file that existed gets its text
    from before back, and the dry run's diff ends there."""
    settings = home / ".claude" / "settings.json"
    assert run(capsys, "--venv", str(venv))[0] == 0
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall", "--dry-run")
    assert code == 0
    assert out.splitlines()[:2] == [
        f"{P} dry run: nothing will be written",
        f"{P} would remove {len(HOOKS)} hooks from {settings}, then delete it: ./install had "
        "created it, and nothing else is in it",
    ]
    assert "+{}" not in out
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall")
    assert f"{P} deleted {settings}, which ./install had created" in out.splitlines()
    assert not settings.exists()

    settings.parent.mkdir(exist_ok=True)
    settings.write_text(ODD_LAYOUT)
    assert run(capsys, "--venv", str(venv))[0] == 0
    installed = settings.read_text()
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall", "--dry-run")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == f"{P} would restore {settings} to its text from before ./install:"
    diff = lines[2 : lines.index(next(x for x in lines[2:] if x.startswith(P)))]
    assert [x[1:] for x in diff if x.startswith("+") and not x.startswith("+++")] == (
        ODD_LAYOUT.splitlines()
    )
    assert settings.read_text() == installed  # a dry run
    run(capsys, "--venv", str(venv), "--uninstall")
    assert settings.read_text() == ODD_LAYOUT
