"""./install and context_memory.setup.install.cli: virtualenv, hook registration, uninstall.

Most cases call ``installer.main`` directly with a stand-in virtualenv (fast). The cases at
the end run the real ``install`` script from a snapshot of this repository in a folder with
a space in its name; the first of them does a real ``pip install`` into a shared virtualenv,
the others reuse it (the stamp makes them skip pip).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from context_memory.core.command_table import HOOKS
from context_memory.setup.install import settings_edit
from context_memory.setup.install.cli import main
from context_memory.setup.install.command_links import LINKED_COMMANDS
from context_memory.setup.install.settings_edit import command_for, register_hooks
from context_memory.setup.install.settings_file import dumps_settings
from context_memory.setup.install.venv import (
    PLAN_CREATE,
    PLAN_CURRENT,
    PLAN_RECREATE,
    PLAN_UPDATE,
    STAMP_NAME,
    InstallError,
    default_venv,
    settings_path_for,
    source_hash,
    venv_plan,
)

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

from helpers.install_env import (  # noqa: E402 - (pytestmark first)
    BAK,
    FIX,
    FOREIGN_SETTINGS,
    INSTALL_VARS,
    PROGRAMS,
    REPO,
    SYSTEM_PATH,
    P,
    run,
    stand_in_venv,
)


def registered_lines(settings: Path, bin_dir: Path) -> list[str]:
    noun = "hook" if len(HOOKS) == 1 else "hooks"
    lines = [f"{P} registered {len(HOOKS)} {noun} in {settings}:"]
    for spec in HOOKS:
        label = spec.event if spec.matcher is None else f"{spec.event} [{spec.matcher}]"
        command = command_for(bin_dir, spec.command)
        lines.append(f"  {label}: {command} (timeout {spec.timeout} s)")
    lines.append(f"{P} done; restart running Claude Code sessions to load the hooks")
    return lines


def linked_lines(
    links: Path,
    commands: tuple[str, ...] | list[str] = LINKED_COMMANDS,
    *,
    dry_run: bool = False,
    path_note: bool = True,
) -> list[str]:
    """What an install prints after linking ``commands`` into ``links``; ``path_note`` when
    ``links`` is not on PATH."""
    verb = "would link" if dry_run else "link"
    lines = [f"{P} {verb} {', '.join(commands)} into {links}"]
    if path_note:
        lines.append(
            f"{P} note: {links} is not on your PATH; add it (for example "
            f'export PATH="{links}:$PATH" in ~/.profile) to run ctx-usage and ctx-decide by name'
        )
    return lines


def unlinked_line(links: Path, count: int = len(LINKED_COMMANDS), dry_run: bool = False) -> str:
    return f"{P} {'would remove' if dry_run else 'removed'} {count} command links from {links}"


def assert_linked(
    links: Path, bin_dir: Path, commands: tuple[str, ...] | list[str] = LINKED_COMMANDS
) -> None:
    """``links`` holds exactly ``commands``, each a symlink to the program in ``bin_dir``."""
    assert sorted(os.listdir(links)) == sorted(commands)
    for name in commands:
        assert os.readlink(links / name) == str(bin_dir / name)
        assert (links / name).resolve() == (bin_dir / name).resolve()


def text_of(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def budget_entry(bin_dir: Path) -> dict[str, Any]:
    return {"type": "command", "command": f'"{bin_dir}/ctx-budget"', "timeout": 10}


# --------------------------------------------------------------------------- locations


def test_default_venv() -> None:
    assert default_venv({"HOME": "/h"}) == "/h/.local/share/context-memory/venv"
    assert default_venv({"HOME": "/h", "XDG_DATA_HOME": ""}) == (
        "/h/.local/share/context-memory/venv"
    )
    assert default_venv({"HOME": "/h", "XDG_DATA_HOME": "/x"}) == "/x/context-memory/venv"
    assert default_venv({"HOME": "/h", "XDG_DATA_HOME": "/x", "CTX_VENV": "/v"}) == "/v"


def test_settings_path() -> None:
    assert settings_path_for(None, {"HOME": "/h"}) == Path("/h/.claude/settings.json")
    assert settings_path_for(None, {"HOME": "/h", "CLAUDE_CONFIG_DIR": "/c"}) == Path(
        "/c/settings.json"
    )
    assert settings_path_for("/p", {"HOME": "/h", "CLAUDE_CONFIG_DIR": "/c"}) == Path(
        "/p/.claude/settings.json"
    )


# --------------------------------------------------------------------------- install


def test_install_on_a_fresh_machine(home: Path, venv: Path, links: Path, capsys: Any) -> None:
    settings = home / ".claude" / "settings.json"
    code, out, err = run(capsys, "--venv", str(venv))
    assert (code, err) == (0, "")
    assert out == text_of([*registered_lines(settings, venv / "bin"), *linked_lines(links)])
    assert_linked(links, venv / "bin")
    assert settings.read_text() == dumps_settings(register_hooks({}, HOOKS, venv / "bin"))
    written = json.loads(settings.read_text())
    assert written["hooks"]["UserPromptSubmit"] == [{"hooks": [budget_entry(venv / "bin")]}]
    assert os.listdir(home / ".claude") == ["settings.json"]


def test_install_twice_is_install_once(home: Path, venv: Path, links: Path, capsys: Any) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(FOREIGN_SETTINGS))
    assert run(capsys, "--venv", str(venv))[0] == 0
    first = settings.read_bytes()
    first_stat = settings.stat()
    first_links = {name: (links / name).lstat() for name in LINKED_COMMANDS}
    code, out, err = run(capsys, "--venv", str(venv))
    assert (code, err) == (0, "")
    # The links are there already: no link line, and so no PATH note either.
    assert out == f"{P} hooks already registered in {settings}; nothing to change\n"
    assert settings.read_bytes() == first
    assert settings.stat().st_mtime_ns == first_stat.st_mtime_ns
    assert sorted(os.listdir(settings.parent)) == ["settings.json", BAK]
    assert_linked(links, venv / "bin")
    for name, before in first_links.items():
        after = (links / name).lstat()
        assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def foreign_user_settings(home: Path, indent: int) -> tuple[Path, str]:
    """~/.claude/settings.json holding FOREIGN_SETTINGS in the user's own layout (``indent``
    spaces): its path and its text."""
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = json.dumps(FOREIGN_SETTINGS, indent=indent) + "\n"
    settings.write_text(original)
    return settings, original


def test_install_keeps_every_setting_and_foreign_hook_and_backs_up(
    home: Path, venv: Path, links: Path, capsys: Any
) -> None:
    settings, original = foreign_user_settings(home, indent=4)
    settings.chmod(0o600)
    code, out, err = run(capsys, "--venv", str(venv))
    assert (code, err) == (0, "")
    assert out == text_of(
        [
            f"{P} backed up {settings} to {BAK}",
            *registered_lines(settings, venv / "bin"),
            *linked_lines(links),
        ]
    )
    assert (settings.parent / BAK).read_text() == original
    written = json.loads(settings.read_text())
    assert written == register_hooks(FOREIGN_SETTINGS, HOOKS, venv / "bin")
    assert written["hooks"]["UserPromptSubmit"] == [
        {
            "hooks": [
                {"type": "command", "command": "~/bin/log-prompt.sh", "timeout": 5},
                budget_entry(venv / "bin"),
            ]
        }
    ]
    # The foreign Stop hook stays first in its group (our Stop entry, if any, joins after it).
    foreign_stop = FOREIGN_SETTINGS["hooks"]["Stop"][0]["hooks"][0]
    assert written["hooks"]["Stop"][0]["hooks"][0] == foreign_stop
    assert settings.read_text().startswith('{\n    "model": "opus",\n')  # indent kept
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600


def test_claude_config_dir_is_honoured(
    home: Path,
    venv: Path,
    links: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "conf dir"))
    code, out, _ = run(capsys, "--venv", str(venv))
    assert code == 0
    settings = tmp_path / "conf dir" / "settings.json"
    assert out == text_of([*registered_lines(settings, venv / "bin"), *linked_lines(links)])
    assert settings.is_file()
    assert not (home / ".claude").exists()


def test_project_settings(home: Path, venv: Path, links: Path, tmp_path: Path, capsys: Any) -> None:
    project = tmp_path / "my project"
    project.mkdir()
    code, out, _ = run(capsys, "--venv", str(venv), "--project", str(project))
    settings = project / ".claude" / "settings.json"
    assert code == 0
    # The commands are the user's whichever settings file the hooks go to.
    assert out == text_of([*registered_lines(settings, venv / "bin"), *linked_lines(links)])
    assert_linked(links, venv / "bin")
    assert json.loads(settings.read_text()) == register_hooks({}, HOOKS, venv / "bin")
    assert not (home / ".claude").exists()


def test_project_must_exist(home: Path, venv: Path, tmp_path: Path, capsys: Any) -> None:
    code, out, err = run(capsys, "--venv", str(venv), "--project", str(tmp_path / "nope"))
    assert (code, out) == (1, "")
    assert err == f"{P} error: --project {tmp_path / 'nope'}: no such directory\n"


def test_a_path_that_is_not_utf_8_is_refused(home: Path, tmp_path: Path, capsys: Any) -> None:
    """A folder name of bytes that are not UTF-8 (os.fsdecode keeps them as surrogates)
    cannot go into settings.json: refused before anything is written."""
    venv = os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9 venv")
    code, out, err = run(capsys, "--venv", venv)
    assert (code, out) == (1, "")
    assert err == (
        f"{P} error: the virtualenv path {venv!r} is not UTF-8 text, which settings.json "
        "cannot hold. Set CTX_VENV (or CLAUDE_CONFIG_DIR) to a UTF-8 path, then run "
        "./install again. Nothing was changed.\n"
    )
    assert not (home / ".claude").exists()


def test_venv_defaults_to_ctx_venv(
    home: Path, venv: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setenv("CTX_VENV", str(venv))
    assert run(capsys)[0] == 0
    text = (home / ".claude" / "settings.json").read_text()
    assert command_for(venv / "bin", "ctx-budget").replace('"', '\\"') in text


def test_a_missing_venv_is_refused(home: Path, links: Path, tmp_path: Path, capsys: Any) -> None:
    code, out, err = run(capsys, "--venv", str(tmp_path / "none"))
    assert (code, out) == (1, "")
    first = tmp_path / "none" / "bin" / HOOKS[0].command
    assert err == (
        f"{P} error: {first} does not exist: the virtualenv {tmp_path / 'none'} is missing or "
        "incomplete. Run ./install, which creates it and installs the package into it.\n"
    )
    assert not (home / ".claude").exists()
    assert not links.exists()


def test_an_entry_of_another_venv_is_kept_and_mentioned(
    home: Path, venv: Path, capsys: Any
) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    other = {"type": "command", "command": '"/opt/old venv/bin/ctx-budget"', "timeout": 10}
    settings.write_text(json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [other]}]}}))
    code, _, err = run(capsys, "--venv", str(venv))
    assert code == 0
    assert err == (
        f"{P} warning: {settings} also runs /opt/old venv/bin/ctx-budget for UserPromptSubmit; "
        "that entry is not this install's, so it was left alone (delete it by hand if it is "
        "left over from an older install)\n"
    )
    hooks = json.loads(settings.read_text())["hooks"]["UserPromptSubmit"][0]["hooks"]
    assert hooks == [other, budget_entry(venv / "bin")]


# --------------------------------------------------------------------------- command links


def test_links_default_to_local_bin_and_no_note_when_it_is_on_path(
    home: Path, venv: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.delenv("CTX_BIN_DIR")
    local_bin = home / ".local" / "bin"
    monkeypatch.setenv("PATH", f"{SYSTEM_PATH}{os.pathsep}{local_bin}")
    code, out, err = run(capsys, "--venv", str(venv))
    assert (code, err) == (0, "")
    settings = home / ".claude" / "settings.json"
    assert out == text_of(
        [*registered_lines(settings, venv / "bin"), *linked_lines(local_bin, path_note=False)]
    )
    assert_linked(local_bin, venv / "bin")


def test_links_go_to_xdg_bin_home(
    home: Path, venv: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.delenv("CTX_BIN_DIR")
    xdg_bin = tmp_path / "xdg bin"
    monkeypatch.setenv("XDG_BIN_HOME", str(xdg_bin))
    code, out, _ = run(capsys, "--venv", str(venv))
    assert code == 0
    assert out.endswith(text_of(linked_lines(xdg_bin)))
    assert_linked(xdg_bin, venv / "bin")
    assert not (home / ".local").exists()


def test_only_the_programs_the_venv_has_are_linked(
    home: Path, tmp_path: Path, links: Path, capsys: Any
) -> None:
    """An older virtualenv without ctx-plan and ctx-doctor: the others are linked."""
    older = tuple(name for name in PROGRAMS if name not in ("ctx-plan", "ctx-doctor"))
    venv = stand_in_venv(tmp_path / "old venv", older)
    code, out, err = run(capsys, "--venv", str(venv))
    assert (code, err) == (0, "")
    present = [name for name in LINKED_COMMANDS if name not in ("ctx-plan", "ctx-doctor")]
    assert out.endswith(text_of(linked_lines(links, present)))
    assert_linked(links, venv / "bin", present)


def test_a_foreign_command_of_the_same_name_is_left_alone(
    home: Path, venv: Path, links: Path, capsys: Any
) -> None:
    links.mkdir()
    (links / "ctx-usage").write_text("#!/bin/sh\necho mine\n")
    (links / "ctx-merge").symlink_to("/opt/tools/bin/ctx-merge")
    code, out, err = run(capsys, "--venv", str(venv))
    assert code == 0
    assert err == text_of(
        [
            f"{P} warning: {links / name} exists and is not ours; left alone "
            f"(run {venv / 'bin' / name} directly)"
            for name in ("ctx-usage", "ctx-merge")
        ]
    )
    ours = [name for name in LINKED_COMMANDS if name not in ("ctx-usage", "ctx-merge")]
    assert out.endswith(text_of(linked_lines(links, ours)))
    assert (links / "ctx-usage").read_text() == "#!/bin/sh\necho mine\n"
    assert os.readlink(links / "ctx-merge") == "/opt/tools/bin/ctx-merge"
    for name in ours:
        assert os.readlink(links / name) == str(venv / "bin" / name)

    code, out, err = run(capsys, "--venv", str(venv), "--uninstall")
    assert code == 0
    settings = home / ".claude" / "settings.json"
    assert out.endswith(
        text_of(
            [
                unlinked_line(links, len(ours)),
                f"{P} deleted {settings}, which ./install had created",
                f"{P} removed 1 backup of {settings} that ./install had made",
            ]
        )
    )
    assert not settings.exists()
    assert sorted(os.listdir(links)) == ["ctx-merge", "ctx-usage"]
    assert (links / "ctx-usage").read_text() == "#!/bin/sh\necho mine\n"
    assert os.readlink(links / "ctx-merge") == "/opt/tools/bin/ctx-merge"


def test_links_of_a_moved_venv_are_updated(
    home: Path, venv: Path, links: Path, tmp_path: Path, capsys: Any
) -> None:
    old = tmp_path / "old" / "context-memory" / "venv" / "bin"
    links.mkdir()
    for name in LINKED_COMMANDS:
        (links / name).symlink_to(old / name)  # dangling: that virtualenv was deleted
    code, out, err = run(capsys, "--venv", str(venv))
    assert (code, err) == (0, "")
    assert out.endswith(text_of(linked_lines(links)))
    assert_linked(links, venv / "bin")


def test_uninstall_keeps_the_links_of_another_venv(
    home: Path, venv: Path, links: Path, tmp_path: Path, capsys: Any
) -> None:
    other = tmp_path / "other" / "context-memory" / "venv" / "bin"
    links.mkdir()
    (links / "ctx-usage").symlink_to(other / "ctx-usage")
    code, out, err = run(capsys, "--venv", str(venv), "--uninstall")
    assert (code, err) == (0, "")
    assert "command links" not in out
    assert os.listdir(links) == ["ctx-usage"]
    assert os.readlink(links / "ctx-usage") == str(other / "ctx-usage")


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("uninstall", [False, True])
def test_invalid_json_is_refused_and_left_untouched(
    home: Path, venv: Path, capsys: Any, uninstall: bool
) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'{"model": "opus",}\n')
    argv = ["--venv", str(venv)] + (["--uninstall"] if uninstall else [])
    code, out, err = run(capsys, *argv)
    assert (code, out) == (1, "")
    assert err == (
        f"{P} error: {settings} is not valid JSON: Expecting property name enclosed in "
        "double quotes (line 1, column 18). Fix the file by hand (or move it aside to start "
        f"from an empty one), {FIX}\n"
    )
    assert settings.read_bytes() == b'{"model": "opus",}\n'
    assert os.listdir(settings.parent) == ["settings.json"]


def test_hooks_of_the_wrong_shape_are_refused(home: Path, venv: Path, capsys: Any) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"hooks": [{"matcher": "x"}]}')
    code, out, err = run(capsys, "--venv", str(venv))
    assert (code, out) == (1, "")
    assert err == (
        f'{P} error: {settings}: "hooks" must be an object ({{"EventName": [...]}}), but it is '
        "a list. Fix that part of the file by hand (settings.example.json shows the expected "
        f"shape), {FIX}\n"
    )
    assert settings.read_text() == '{"hooks": [{"matcher": "x"}]}'


def test_purge_needs_uninstall(home: Path, venv: Path, capsys: Any) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--venv", str(venv), "--purge"])
    assert caught.value.code == 2
    assert capsys.readouterr().err.endswith("install: error: --purge only goes with --uninstall\n")


def test_options_are_not_abbreviated(home: Path, venv: Path, capsys: Any) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--venv", str(venv), "--dry"])
    assert caught.value.code == 2
    assert not (home / ".claude").exists()


def test_an_unwritable_settings_folder_is_reported(
    home: Path, venv: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(path: Path, based_on: str | None, text: str) -> bool:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(settings_edit, "replace_if_unchanged", refuse)
    code, out, err = run(capsys, "--venv", str(venv))
    settings = home / ".claude" / "settings.json"
    assert (code, out) == (1, "")
    assert err == f"{P} error: {settings}: Permission denied\n"


# --------------------------------------------------------------------------- dry run


def test_dry_run_prints_the_diff_and_writes_nothing(
    home: Path, venv: Path, links: Path, tmp_path: Path, capsys: Any
) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "model": "opus"\n}\n')
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")}
    code, out, err = run(capsys, "--venv", str(venv), "--dry-run")
    assert (code, err) == (0, "")
    body = json.dumps(register_hooks({}, HOOKS, venv / "bin"), indent=2).splitlines()[1:-1]
    assert out == text_of(
        [
            f"{P} dry run: nothing will be written",
            f"{P} the virtualenv {venv} is up to date; pip would be skipped",
            f"{P} would change {settings} (after backing it up):",
            f"--- {settings}",
            f"+++ {settings}",
            f"@@ -1,3 +1,{len(body) + 3} @@",
            " {",
            '-  "model": "opus"',
            '+  "model": "opus",',
            *("+" + line for line in body),
            " }",
            *linked_lines(links, dry_run=True),
        ]
    )
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")} == before
    assert not links.exists()


def test_dry_run_on_a_fresh_machine(home: Path, tmp_path: Path, capsys: Any) -> None:
    venv = tmp_path / "new venv"
    code, out, err = run(capsys, "--venv", str(venv), "--dry-run")
    assert (code, err) == (0, "")
    settings = home / ".claude" / "settings.json"
    lines = dumps_settings(register_hooks({}, HOOKS, venv / "bin")).splitlines()
    assert out == text_of(
        [
            f"{P} dry run: nothing will be written",
            f"{P} would create the virtualenv {venv} and pip-install context-memory into it",
            f"{P} would create {settings}:",
            "--- /dev/null",
            f"+++ {settings}",
            f"@@ -0,0 +1,{len(lines)} @@",
            *("+" + line for line in lines),
            *linked_lines(tmp_path / "bin dir", dry_run=True),
        ]
    )
    assert list(tmp_path.rglob("*")) == [home]


def test_dry_run_when_installed(home: Path, venv: Path, capsys: Any) -> None:
    run(capsys, "--venv", str(venv))
    code, out, _ = run(capsys, "--venv", str(venv), "--dry-run")
    assert code == 0
    assert out == text_of(
        [
            f"{P} dry run: nothing will be written",
            f"{P} the virtualenv {venv} is up to date; pip would be skipped",
            f"{P} hooks already registered in {home / '.claude' / 'settings.json'}; "
            "nothing would change",
        ]
    )


def test_dry_run_uninstall(home: Path, venv: Path, links: Path, capsys: Any) -> None:
    settings = home / ".claude" / "settings.json"
    run(capsys, "--venv", str(venv))
    installed = settings.read_text()
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall", "--purge", "--dry-run")
    assert code == 0
    # The install created the settings file: the run deletes it (issue 25: the dry run
    # showed it becoming {}).
    assert out == text_of(
        [
            f"{P} dry run: nothing will be written",
            f"{P} would remove {len(HOOKS)} hooks from {settings}, then delete it: ./install "
            "had created it, and nothing else is in it",
            f"{P} would delete the virtualenv {venv}",
            unlinked_line(links, dry_run=True),
            f"{P} would delete the cache folder {os.environ['CTX_CACHE_DIR']}",
        ]
    )
    assert settings.read_text() == installed
    assert (venv / "bin" / "python").exists()
    assert_linked(links, venv / "bin")


# --------------------------------------------------------------------------- uninstall


def test_uninstall_removes_exactly_what_install_added(
    home: Path, venv: Path, links: Path, capsys: Any
) -> None:
    settings, original = foreign_user_settings(home, indent=2)
    run(capsys, "--venv", str(venv))
    os.rename(settings.parent / BAK, settings.parent / "first.bak")
    code, out, err = run(capsys, "--venv", str(venv), "--uninstall")
    assert (code, err) == (0, "")
    assert out == text_of(
        [
            f"{P} backed up {settings} to {BAK}",
            f"{P} removed {len(HOOKS)} hook{'s' if len(HOOKS) != 1 else ''} from {settings}",
            f"{P} kept the virtualenv {venv} (./install --uninstall --purge deletes it)",
            unlinked_line(links),
            # Its backup (BAK) and the install's: first.bak was renamed by the user.
            f"{P} removed 1 backup of {settings} that ./install had made",
        ]
    )
    assert settings.read_text() == original
    assert not links.exists()  # ./install created the folder
    # Twice is once here too.
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall")
    assert out.startswith(f"{P} no context-memory hooks in {settings}; nothing to change\n")
    assert "command links" not in out
    assert settings.read_text() == original
    # The second uninstall found nothing to change, so it made no backup either.
    assert sorted(os.listdir(settings.parent)) == sorted(["first.bak", "settings.json"])


def test_uninstall_without_a_settings_file(
    home: Path, venv: Path, links: Path, capsys: Any
) -> None:
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall")
    assert code == 0
    assert out == text_of(
        [
            f"{P} no context-memory hooks in {home / '.claude' / 'settings.json'}; "
            "nothing to change",
            f"{P} kept the virtualenv {venv} (./install --uninstall --purge deletes it)",
        ]
    )
    assert not (home / ".claude").exists()
    assert not links.exists()


def test_purge_deletes_our_venv(home: Path, venv: Path, links: Path, capsys: Any) -> None:
    run(capsys, "--venv", str(venv))
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall", "--purge")
    assert code == 0
    # The links dangle once the virtualenv is gone; they are still this install's to remove.
    settings = home / ".claude" / "settings.json"
    assert out.endswith(
        text_of(
            [
                f"{P} deleted the virtualenv {venv}",
                unlinked_line(links),
                f"{P} deleted {settings}, which ./install had created",
                f"{P} removed 1 backup of {settings} that ./install had made",
                f"{P} deleted the cache folder {os.environ['CTX_CACHE_DIR']}",
            ]
        )
    )
    assert not venv.exists()
    assert not links.exists()
    assert not settings.exists()
    assert not os.path.exists(os.environ["CTX_CACHE_DIR"])


def test_purge_deletes_the_default_venv_s_folder_once_empty(
    home: Path, links: Path, capsys: Any
) -> None:
    """Before: ~/.local/share/context-memory stayed behind, empty."""
    venv = stand_in_venv(Path(default_venv(os.environ)))
    run(capsys, "--venv", str(venv))
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall", "--purge")
    assert code == 0
    assert (
        text_of(
            [
                f"{P} deleted the virtualenv {venv}",
                f"{P} deleted the folder {venv.parent}, now empty",
            ]
        )
        in out
    )
    assert sorted(os.listdir(home / ".local" / "share")) == []
    # A folder holding something else of the user's stays.
    venv = stand_in_venv(Path(default_venv(os.environ)))
    (venv.parent / "notes.txt").write_text("mine\n")
    run(capsys, "--venv", str(venv))
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall", "--purge")
    assert code == 0 and "now empty" not in out
    assert os.listdir(venv.parent) == ["notes.txt"]


def test_purge_refuses_a_folder_that_is_not_ours(
    home: Path, venv: Path, links: Path, capsys: Any
) -> None:
    run(capsys, "--venv", str(venv))
    settings = (home / ".claude" / "settings.json").read_text()
    (venv / STAMP_NAME).unlink()
    code, out, err = run(capsys, "--venv", str(venv), "--uninstall", "--purge")
    assert (code, out) == (1, "")
    assert err == (
        f"{P} error: {venv} does not look like a context-memory virtualenv (no {STAMP_NAME}), "
        "so --purge will not delete it. Run without --purge, then delete it yourself.\n"
    )
    assert venv.exists()
    assert (home / ".claude" / "settings.json").read_text() == settings
    assert_linked(links, venv / "bin")  # refused before anything was removed


# --------------------------------------------------------------------------- venv plan


def test_venv_plan_states(venv: Path, tmp_path: Path) -> None:
    assert venv_plan(venv, REPO) == PLAN_CURRENT
    (venv / STAMP_NAME).write_text("0" * 64 + "\n")
    assert venv_plan(venv, REPO) == PLAN_UPDATE
    (venv / STAMP_NAME).write_text(source_hash(REPO))
    (venv / "bin" / HOOKS[0].command).unlink()
    assert venv_plan(venv, REPO) == PLAN_UPDATE
    (venv / "bin" / "python").unlink()
    assert venv_plan(venv, REPO) == PLAN_RECREATE
    (venv / STAMP_NAME).unlink()
    with pytest.raises(InstallError) as caught:
        venv_plan(venv, REPO)
    assert str(caught.value) == (
        f"{venv} is a virtualenv whose python does not run, and not one that ./install made, "
        "so it is left alone. Remove it or set CTX_VENV to another folder, then run ./install "
        "again."
    )
    assert venv_plan(tmp_path / "missing", REPO) == PLAN_CREATE
    (tmp_path / "empty").mkdir()
    assert venv_plan(tmp_path / "empty", REPO) == PLAN_CREATE


def test_venv_plan_never_takes_over_a_foreign_folder(tmp_path: Path) -> None:
    (tmp_path / "stuff").mkdir()
    (tmp_path / "stuff" / "notes.txt").write_text("mine")
    with pytest.raises(InstallError) as caught:
        venv_plan(tmp_path / "stuff", REPO)
    assert str(caught.value) == (
        f"{tmp_path / 'stuff'} exists but is not a virtualenv (no pyvenv.cfg), so it is left "
        "alone. Set CTX_VENV to another folder, or remove that one, then run ./install again."
    )


def test_venv_plan_option(home: Path, venv: Path, tmp_path: Path, capsys: Any) -> None:
    digest = source_hash(REPO)
    assert run(capsys, "--venv", str(venv), "--venv-plan") == (0, f"current {digest}\n", "")
    fresh = str(tmp_path / "fresh")
    assert run(capsys, "--venv", fresh, "--venv-plan") == (0, f"create {digest}\n", "")
    for extra in ("--dry-run", "--uninstall"):
        assert run(capsys, "--venv", fresh, "--venv-plan", extra) == (0, f"skip {digest}\n", "")
    # An unusable settings file is refused before the script would spend time on pip.
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text("{")
    code, out, err = run(capsys, "--venv", fresh, "--venv-plan")
    assert (code, out) == (1, "")
    assert "is not valid JSON" in err


def test_source_hash_covers_the_package_and_ignores_build_litter(tmp_path: Path) -> None:
    (tmp_path / "hooks" / "pkg").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text("[project]\n")
    (tmp_path / "hooks" / "pkg" / "a.py").write_text("x = 1\n")
    digest = source_hash(tmp_path)
    (tmp_path / "hooks" / "pkg" / "__pycache__").mkdir()
    (tmp_path / "hooks" / "pkg" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    (tmp_path / "hooks" / "pkg.egg-info").mkdir()
    (tmp_path / "hooks" / "pkg.egg-info" / "PKG-INFO").write_text("x")
    (tmp_path / "README.md").write_text("not part of it")
    assert source_hash(tmp_path) == digest
    (tmp_path / "hooks" / "pkg" / "a.py").write_text("x = 2\n")
    assert source_hash(tmp_path) != digest
    (tmp_path / "hooks" / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert source_hash(tmp_path) != digest


# --------------------------------------------------------------------------- the real script


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A snapshot of this repository in a folder with a space in its name (the package
    is being edited while tests run; the snapshot keeps the source hash still)."""
    from helpers.installed import copy_source

    return copy_source(tmp_path_factory.mktemp("install") / "src copy")


@pytest.fixture(scope="module")
def shared_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("venvs") / "shared venv"


def script(
    source: Path, *args: str, home: Path, cwd: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    environment = {
        k: v for k, v in os.environ.items() if k not in INSTALL_VARS and not k.startswith("CLAUDE")
    }
    environment["HOME"] = str(home)
    # Command links: $HOME/.local/bin unless a test passes CTX_BIN_DIR; neither is on PATH.
    environment["PATH"] = SYSTEM_PATH
    environment.update(env)
    return subprocess.run(
        [str(source / "install"), *args],
        cwd=cwd or home,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


@pytest.fixture(scope="module")
def first_install(
    source: Path, shared_venv: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[subprocess.CompletedProcess[str], float, Path]:
    home = tmp_path_factory.mktemp("first") / "home"
    home.mkdir()
    started = time.monotonic()
    result = script(source, home=home, cwd=home.parent, CTX_VENV=str(shared_venv))
    return result, time.monotonic() - started, home


def fresh_home(tmp_path: Path) -> Path:
    home = tmp_path / "home dir"
    home.mkdir()
    return home


def test_script_first_install_then_repeat(
    first_install: tuple[subprocess.CompletedProcess[str], float, Path],
    source: Path,
    shared_venv: Path,
) -> None:
    result, seconds, home = first_install
    settings = home / ".claude" / "settings.json"
    bin_dir = shared_venv / "bin"
    local_bin = home / ".local" / "bin"
    assert result.returncode == 0, result.stderr
    assert result.stdout == text_of(
        [
            f"{P} creating virtualenv {shared_venv}",
            f"{P} installing context-memory into {shared_venv} (pip, this takes a minute the "
            "first time)",
            *registered_lines(settings, bin_dir),
            *linked_lines(local_bin),
        ]
    )
    # pip made every linked program, so all are linked, and they run by name.
    assert_linked(local_bin, bin_dir)
    by_name = subprocess.run(
        ["sh", "-c", "command -v ctx-usage && ctx-usage --help && ctx-doctor --help"],
        env={**os.environ, "HOME": str(home), "PATH": f"{local_bin}{os.pathsep}{SYSTEM_PATH}"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert (by_name.returncode, by_name.stderr) == (0, "")
    assert by_name.stdout.startswith(f"{local_bin / 'ctx-usage'}\nusage: ctx-usage [-h] [--json]")
    assert "\nUsage: ctx-doctor [OPTIONS]" in by_name.stdout
    print(f"first install: {seconds:.1f} s")
    assert json.loads(settings.read_text()) == register_hooks({}, HOOKS, bin_dir)
    assert (shared_venv / STAMP_NAME).read_text() == source_hash(source) + "\n"
    for spec in HOOKS:
        command = command_for(bin_dir, spec.command)
        found = subprocess.run(
            ["sh", "-c", f"command -v {command}"], capture_output=True, text=True, check=False
        )
        assert found.stdout == f"{bin_dir / spec.command}\n"  # the shell finds it, spaces and all

    before = settings.read_bytes()
    # A repeat is quick because it skips pip (its first line says so): the time itself is
    # measured in bench/ (docs/benchmarks.md, install times), not bounded here.
    again = script(source, home=home, CTX_VENV=str(shared_venv))
    assert (again.returncode, again.stderr) == (0, "")
    assert again.stdout == text_of(
        [
            f"{P} virtualenv {shared_venv} is up to date; skipping pip",
            f"{P} hooks already registered in {settings}; nothing to change",
        ]
    )
    assert settings.read_bytes() == before
    assert os.listdir(settings.parent) == ["settings.json"]
    assert_linked(local_bin, bin_dir)


def test_script_dry_run_writes_nothing(source: Path, tmp_path: Path) -> None:
    home = fresh_home(tmp_path)
    result = script(source, "--dry-run", home=home)
    venv = home / ".local" / "share" / "context-memory" / "venv"
    settings = home / ".claude" / "settings.json"
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith(
        text_of(
            [
                f"{P} dry run: nothing will be written",
                f"{P} would create the virtualenv {venv} and pip-install context-memory into it",
                f"{P} would create {settings}:",
                "--- /dev/null",
                f"+++ {settings}",
            ]
        )
    )
    assert f'+            "command": "\\"{venv}/bin/ctx-budget\\"",\n' in result.stdout
    assert list(home.iterdir()) == []

    xdg = tmp_path / "xdg data"
    result = script(source, "--dry-run", home=home, XDG_DATA_HOME=str(xdg))
    assert f"would create the virtualenv {xdg}/context-memory/venv and" in result.stdout
    assert list(tmp_path.iterdir()) == [home]


def test_script_project_and_uninstall(
    first_install: Any, source: Path, shared_venv: Path, tmp_path: Path
) -> None:
    home = fresh_home(tmp_path)
    project = tmp_path / "a project"
    (project / ".claude").mkdir(parents=True)
    settings = project / ".claude" / "settings.json"
    original = json.dumps(FOREIGN_SETTINGS, indent=2) + "\n"
    settings.write_text(original)
    # From another folder, by a relative path to the script.
    other = tmp_path / "elsewhere"
    other.mkdir()
    relative = os.path.relpath(source, other)
    links = tmp_path / "bin dir"
    result = script(
        Path(relative),
        "--project",
        str(project),
        home=home,
        cwd=other,
        CTX_VENV=str(shared_venv),
        CTX_BIN_DIR=str(links),
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith(
        f"{P} virtualenv {shared_venv} is up to date; skipping pip\n"
        f"{P} backed up {settings} to settings.json.bak-"
    )
    assert result.stdout.endswith(
        text_of([*registered_lines(settings, shared_venv / "bin"), *linked_lines(links)])
    )
    assert_linked(links, shared_venv / "bin")
    assert json.loads(settings.read_text()) == register_hooks(
        FOREIGN_SETTINGS, HOOKS, shared_venv / "bin"
    )
    assert list(home.iterdir()) == []

    result = script(
        source,
        "--project",
        str(project),
        "--uninstall",
        home=home,
        CTX_VENV=str(shared_venv),
        CTX_BIN_DIR=str(links),
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.endswith(
        text_of(
            [
                f"{P} kept the virtualenv {shared_venv} (./install --uninstall --purge deletes it)",
                unlinked_line(links),
                f"{P} removed 2 backups of {settings} that ./install had made",
            ]
        )
    )
    assert not links.exists()
    assert settings.read_text() == original
    assert list(settings.parent.glob("settings.json.bak-*")) == []
    assert (shared_venv / "bin" / "python").exists()


def test_script_refuses_invalid_json_before_touching_anything(source: Path, tmp_path: Path) -> None:
    home = fresh_home(tmp_path)
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b"{\n  'model': 'opus'\n}\n")
    venv = tmp_path / "never created"
    result = script(source, home=home, CTX_VENV=str(venv))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"{P} error: {settings} is not valid JSON: Expecting property name enclosed in double "
        "quotes (line 2, column 3). Fix the file by hand (or move it aside to start from an "
        f"empty one), {FIX}\n"
    )
    assert settings.read_bytes() == b"{\n  'model': 'opus'\n}\n"
    assert os.listdir(settings.parent) == ["settings.json"]
    assert not venv.exists()


def test_script_honours_claude_config_dir(
    first_install: Any, source: Path, shared_venv: Path, tmp_path: Path
) -> None:
    home = fresh_home(tmp_path)
    config = tmp_path / "claude config"
    links = tmp_path / "bin dir"
    # The note goes away when the links folder is on PATH.
    result = script(
        source,
        home=home,
        CTX_VENV=str(shared_venv),
        CLAUDE_CONFIG_DIR=str(config),
        CTX_BIN_DIR=str(links),
        PATH=f"{SYSTEM_PATH}{os.pathsep}{links}",
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == text_of(
        [
            f"{P} virtualenv {shared_venv} is up to date; skipping pip",
            *registered_lines(config / "settings.json", shared_venv / "bin"),
            *linked_lines(links, path_note=False),
        ]
    )
    assert_linked(links, shared_venv / "bin")
    assert list(home.iterdir()) == []


def script_creating_nothing(
    source: Path, tmp_path: Path, *args: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """./install ARGS run in a fresh HOME, which it must leave empty."""
    home = fresh_home(tmp_path)
    result = script(source, *args, home=home, **env)
    assert list(home.iterdir()) == [], result.stdout + result.stderr
    return result


def test_script_help_creates_nothing(source: Path, tmp_path: Path) -> None:
    result = script_creating_nothing(source, tmp_path, "--help")
    assert result.returncode == 0
    assert result.stdout.startswith("usage: install [-h] [--project DIR] [--dry-run]")


def test_script_bad_option_creates_nothing(source: Path, tmp_path: Path) -> None:
    result = script_creating_nothing(source, tmp_path, "--no-such-option")
    assert result.returncode == 2
    assert result.stderr.endswith("install: error: unrecognized arguments: --no-such-option\n")


def test_script_needs_python_3_10(source: Path, tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    for tool in ("bash", "dirname", "env"):
        found = shutil.which(tool)
        assert found
        (fake / tool).symlink_to(found)
    old_python = fake / "python3"
    old_python.write_text(
        '#!/bin/sh\nif [ "$1" = --version ]; then echo "Python 3.8.10"; exit 0; fi\nexit 1\n'
    )
    old_python.chmod(0o755)
    result = script_creating_nothing(source, tmp_path, PATH=str(fake))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"{P} error: context-memory needs Python 3.10 or newer, and none was found on PATH "
        "(python3: Python 3.8.10). Install Python 3.10+ (your package manager, or "
        "https://www.python.org/downloads/), or point CTX_PYTHON at one, then run "
        "./install again.\n"
    )


def test_purge_leaves_nothing_of_the_toolkit_behind(
    home: Path, links: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25: --uninstall --purge left ~/.cache/context-memory, and the ~/.local/share
    (and ~/.local) that the install script had created, empty. The script passes the
    folders it creates (--made-folder, deepest first); the purge removes those that are
    empty then, and the toolkit's cache folder; nothing else."""
    monkeypatch.delenv("CTX_CACHE_DIR")
    (home / ".cache" / "pip").mkdir(parents=True)  # someone else's cache stays
    before = sorted(str(p.relative_to(home)) for p in home.rglob("*"))
    venv = Path(default_venv(os.environ))
    made = [venv, venv.parent, venv.parent.parent, venv.parent.parent.parent]
    stand_in_venv(venv)
    made_args = [arg for folder in made for arg in ("--made-folder", str(folder))]
    assert run(capsys, "--venv", str(venv), *made_args)[0] == 0
    cache = home / ".cache" / "context-memory"
    (cache / "sessions").mkdir(parents=True)  # what the hooks write as they run
    (cache / "sessions" / "abc").write_text("{}\n")
    (cache / "compactions").mkdir()
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall", "--purge", "--dry-run")
    assert code == 0
    assert out.endswith(
        text_of(
            [
                f"{P} would delete the cache folder {cache}",
                *(
                    f"{P} would delete the folder {folder} (./install made it) if it is empty then"
                    for folder in made
                ),
            ]
        )
    )
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall", "--purge")
    assert code == 0
    assert out.endswith(
        text_of(
            [
                f"{P} deleted the cache folder {cache}",
                f"{P} deleted the folder {home / '.local' / 'share'}, which ./install had "
                "made, now empty",
                f"{P} deleted the folder {home / '.local'}, which ./install had made, now empty",
            ]
        )
    )
    assert sorted(str(p.relative_to(home)) for p in home.rglob("*")) == before
