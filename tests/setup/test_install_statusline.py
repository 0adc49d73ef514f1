"""./install --statusline: set ctx-statusline, keep or chain the user's own, restore it."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from context_memory.setup.install import crontab, settings_edit
from context_memory.setup.install.cli import main
from context_memory.setup.install.command_links import LINKED_COMMANDS
from context_memory.setup.install.settings_edit import (
    command_for,
    parse_own_statusline,
    refresh_statusline,
    set_statusline,
    statusline_command,
    unset_statusline,
)
from context_memory.setup.install.settings_file import dumps_settings
from helpers.cli_run import captured
from helpers.install_env import stand_in_venv
from helpers.paths import subprocess_env

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

REPO = Path(__file__).resolve().parents[2]
P = "context-memory:"
BIN = "/home/u/.local/share/context-memory/venv/bin"
OURS = f'"{BIN}/ctx-statusline"'
THEIRS_COMMAND = "bash ~/.claude/line.sh \"$(git branch --show-current)\" | sed 's/a/b/'"
THEIRS: dict[str, Any] = {"type": "command", "command": THEIRS_COMMAND, "padding": 2}
ALREADY_SET = "status line: ctx-statusline is already set"
WHEN = datetime(2025, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


# --------------------------------------------------------------------------- pure edits


def test_added_when_there_is_none():
    settings = {"model": "opus"}
    new, outcome = set_statusline(settings, BIN, chain=False)
    assert outcome == "status line: ctx-statusline (context bar after every reply)"
    assert new == {"model": "opus", "statusLine": {"type": "command", "command": OURS}}
    assert settings == {"model": "opus"}  # not mutated
    assert set_statusline(new, BIN, chain=False) == (new, ALREADY_SET)
    assert set_statusline(new, BIN, chain=True) == (new, ALREADY_SET)
    assert unset_statusline(new, BIN) == ({"model": "opus"}, "status line: removed ctx-statusline")


def test_theirs_is_kept_without_chain():
    settings = {"statusLine": dict(THEIRS)}
    assert set_statusline(settings, BIN, chain=False) == (
        settings,
        f"status line: you already have one ({THEIRS_COMMAND}); it was kept. To show both "
        "(yours first, then ctx-statusline), run ./install --statusline=chain",
    )
    assert refresh_statusline(settings, BIN) == settings
    assert unset_statusline(settings, BIN) == (settings, None)


def test_chain_then_unset_restores_theirs_exactly():
    settings = {"statusLine": dict(THEIRS), "model": "opus"}
    chained, outcome = set_statusline(settings, BIN, chain=True)
    assert outcome == f"status line: yours ({THEIRS_COMMAND}) first, then ctx-statusline"
    assert chained["statusLine"] == {
        "type": "command",
        "command": OURS + ' --chain \'bash ~/.claude/line.sh "$(git branch --show-current)"'
        " | sed '\"'\"'s/a/b/'\"'\"''",
        "padding": 2,
    }
    assert parse_own_statusline(chained["statusLine"], BIN) == (True, THEIRS_COMMAND)
    assert set_statusline(chained, BIN, chain=True) == (chained, ALREADY_SET)
    restored, outcome = unset_statusline(chained, BIN)
    assert outcome == f"status line: restored yours ({THEIRS_COMMAND})"
    assert dumps_settings(restored) == dumps_settings(settings)  # key order too


def test_moved_venv_updates_the_path_and_keeps_the_chain():
    chained, _ = set_statusline({"statusLine": dict(THEIRS)}, BIN, chain=True)
    other = "/opt/context-memory/venv/bin"
    moved, outcome = set_statusline(chained, other, chain=False)
    assert outcome == f"status line: ctx-statusline now runs from {other}"
    assert moved["statusLine"]["command"] == statusline_command(other, THEIRS_COMMAND)
    assert refresh_statusline(chained, other) == moved
    # Another context-memory virtualenv's status line is ours too: uninstall restores theirs.
    assert unset_statusline(chained, other)[1] == f"status line: restored yours ({THEIRS_COMMAND})"


@pytest.mark.parametrize(
    "value",
    [
        {"type": "command", "command": "/usr/local/bin/ctx-statusline"},  # not our venv
        {"type": "command", "command": f"{OURS} --verbose"},
        {"type": "command", "command": f"{OURS} --chain 'a' 'b'"},
        {"type": "command", "command": f"{OURS} --chain 'unclosed"},
        {"type": "static", "command": OURS},
        {"type": "command", "command": 5},
        "a string",
    ],
)
def test_not_ours(value):
    assert parse_own_statusline(value, BIN) == (False, None)


@pytest.mark.parametrize(
    "value",
    [{"type": "text", "text": "hi"}, {"type": "command", "command": "  "}, "raw string"],
)
def test_not_chainable(value):
    settings = {"statusLine": value}
    assert set_statusline(settings, BIN, chain=True) == (
        settings,
        "status line: yours is not a command that ctx-statusline can run first; it was kept",
    )


def test_bin_dir_with_special_characters_round_trips():
    odd = '/tmp/my "context-memory" $x/venv/bin'
    chained, _ = set_statusline({"statusLine": dict(THEIRS)}, odd, chain=True)
    assert parse_own_statusline(chained["statusLine"], odd) == (True, THEIRS_COMMAND)
    assert chained["statusLine"]["command"].startswith(command_for(odd, "ctx-statusline"))


# --------------------------------------------------------------------------- the installer


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home dir"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("CTX_VENV", "XDG_DATA_HOME", "CLAUDE_CONFIG_DIR", "XDG_BIN_HOME"):
        monkeypatch.delenv(name, raising=False)
    # Command links into a tmp folder on PATH (so no PATH note), never the real ~/.local/bin.
    monkeypatch.setenv("CTX_BIN_DIR", str(tmp_path / "bin dir"))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin dir'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(settings_edit, "_now", lambda: WHEN)
    # --uninstall also looks for a ctx-merge crontab line: never the real crontab here.
    monkeypatch.setattr(crontab.CronLine, "run", lambda self, would: None)
    return home


@pytest.fixture
def venv(tmp_path: Path) -> Path:
    """A stand-in virtualenv whose ctx-statusline runs this checkout's module."""
    return stand_in_venv(tmp_path / "v env" / "context-memory")


def settings_file(home: Path) -> Path:
    return home / ".claude" / "settings.json"


def link_line(home: Path, venv: Path, *, dry_run: bool = False) -> str:
    """The line after the status line's on a first install: the stand-in venv's commands."""
    names = [name for name in LINKED_COMMANDS if (venv / "bin" / name).exists()]
    verb = "would link" if dry_run else "link"
    return f"{P} {verb} {', '.join(names)} into {home.parent / 'bin dir'}"


run = captured(main)  # run(capsys, *argv) -> (exit code, stdout, stderr)


def test_install_statusline_on_a_fresh_machine(home, venv, capsys):
    code, out, err = run(capsys, "--venv", str(venv), "--statusline")
    assert (code, err) == (0, "")
    settings = json.loads(settings_file(home).read_text())
    assert settings["statusLine"] == {
        "type": "command",
        "command": command_for(venv / "bin", "ctx-statusline"),
    }
    assert out.splitlines()[-2:] == [
        f"{P} status line: ctx-statusline (context bar after every reply)",
        link_line(home, venv),
    ]
    before = settings_file(home).read_text()
    code, out, _ = run(capsys, "--venv", str(venv), "--statusline")
    assert code == 0 and settings_file(home).read_text() == before
    assert out.splitlines()[-1] == f"{P} status line: ctx-statusline is already set"
    assert not list(settings_file(home).parent.glob("settings.json.bak-*"))


def test_plain_install_does_not_add_a_statusline(home, venv, capsys):
    assert run(capsys, "--venv", str(venv))[0] == 0
    assert "statusLine" not in json.loads(settings_file(home).read_text())


def test_existing_statusline_is_kept_and_chaining_is_offered(home, venv, capsys):
    original = dumps_settings({"statusLine": THEIRS, "model": "opus"})
    settings_file(home).parent.mkdir()
    settings_file(home).write_text(original)
    code, out, err = run(capsys, "--venv", str(venv), "--statusline")
    assert (code, err) == (0, "")
    assert json.loads(settings_file(home).read_text())["statusLine"] == THEIRS
    assert out.splitlines()[-2:] == [
        f"{P} status line: you already have one ({THEIRS_COMMAND}); it was kept. To show "
        "both (yours first, then ctx-statusline), run ./install --statusline=chain",
        link_line(home, venv),
    ]


def test_chain_then_uninstall_restores_their_file(home, venv, capsys):
    original = dumps_settings({"statusLine": THEIRS, "model": "opus"})
    settings_file(home).parent.mkdir()
    settings_file(home).write_text(original)
    code, out, _ = run(capsys, "--venv", str(venv), "--statusline=chain")
    assert code == 0
    assert out.splitlines()[-2:] == [
        f"{P} status line: yours ({THEIRS_COMMAND}) first, then ctx-statusline",
        link_line(home, venv),
    ]
    chained = json.loads(settings_file(home).read_text())["statusLine"]
    assert chained["command"] == statusline_command(venv / "bin", THEIRS_COMMAND)
    assert chained["padding"] == 2
    # A plain reinstall keeps the chain.
    assert run(capsys, "--venv", str(venv))[0] == 0
    assert json.loads(settings_file(home).read_text())["statusLine"] == chained
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall")
    assert code == 0
    assert f"{P} status line: restored yours ({THEIRS_COMMAND})" in out.splitlines()
    assert settings_file(home).read_text() == original


def test_uninstall_removes_our_statusline(home, venv, capsys):
    run(capsys, "--venv", str(venv), "--statusline")
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall")
    assert code == 0
    assert f"{P} status line: removed ctx-statusline" in out.splitlines()
    assert not settings_file(home).exists()  # ./install created it


def test_dry_run_names_the_change_and_writes_nothing(home, venv, capsys):
    code, out, _ = run(capsys, "--venv", str(venv), "--statusline", "--dry-run")
    assert code == 0
    assert not settings_file(home).exists()
    assert '+  "statusLine": {' in out
    assert out.splitlines()[-2:] == [
        f"{P} status line: ctx-statusline (context bar after every reply)",
        link_line(home, venv, dry_run=True),
    ]


def test_a_venv_without_ctx_statusline_is_refused(home, venv, capsys):
    (venv / "bin" / "ctx-statusline").unlink()
    code, out, err = run(capsys, "--venv", str(venv), "--statusline")
    assert (code, out) == (1, "")
    assert err == (
        f"{P} error: {venv / 'bin' / 'ctx-statusline'} does not exist: the virtualenv "
        f"{venv} holds an older context-memory. Run ./install --statusline, which updates it.\n"
    )
    assert not settings_file(home).exists()


def test_bad_statusline_value(home, venv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--venv", str(venv), "--statusline=replace"])
    assert exc.value.code == 2


# --------------------------------------------------------------------------- chained, for real


def status_json(project: Path) -> dict[str, Any]:
    return {
        "session_id": "5e6f7a8b-1111-2222-3333-444455556666",
        "transcript_path": str(project / "t.jsonl"),
        "cwd": str(project),
        "model": {"id": "claude-sonnet-4-6", "display_name": "Sonnet 4.6"},
        "workspace": {"current_dir": str(project), "project_dir": str(project)},
        "context_window": {
            "context_window_size": 200_000,
            "used_percentage": 40.0,
            "current_usage": {
                "input_tokens": 1_000,
                "output_tokens": 0,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 79_000,
            },
        },
    }


def test_the_chained_command_runs_theirs_then_ours(home, venv, capsys, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    seen = tmp_path / "seen.json"
    theirs = f"cat > '{seen}'; printf '%s\\n' \"main | $(basename '{project}')\""
    settings_file(home).parent.mkdir()
    settings_file(home).write_text(
        dumps_settings({"statusLine": {"type": "command", "command": theirs}})
    )
    assert run(capsys, "--venv", str(venv), "--statusline=chain")[0] == 0
    command = json.loads(settings_file(home).read_text())["statusLine"]["command"]
    payload = status_json(project)
    # The client runs the statusLine command through the shell, JSON on stdin.
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=subprocess_env(NO_COLOR="1"),
        cwd=project,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode() == (
        "main | project\n████░░░░░░ 80K/200K 40% warn · 87K to auto-compact\n"
    )
    assert json.loads(seen.read_text()) == payload
    cache = project / ".working-state" / "sessions" / payload["session_id"] / "statusline.json"
    assert json.loads(cache.read_text())["context_window_size"] == 200_000
