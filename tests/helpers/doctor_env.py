"""What ctx-doctor's tests share (tests/setup/test_doctor.py, test_plugin_doctor.py): a
stand-in virtualenv, a settings file written, the command run in-process, and a healthy
install (the ``healthy`` fixture of tests/conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from context_memory.commands import doctor as doctor_cli
from context_memory.core.command_table import HOOKS
from context_memory.setup.doctor import checks_install, checks_state
from context_memory.setup.install.command_links import LINKED_COMMANDS, apply_links, plan_links
from context_memory.setup.install.settings_edit import register_hooks
from context_memory.setup.install.settings_file import dumps_settings
from helpers.cli_run import invoke as invoke_click

# The programs of a complete install that ctx-doctor checks: every hook's and every linked
# command's (ctx-usage and ctx-doctor among them), from the tables, in a stable order.
PROGRAMS = tuple(dict.fromkeys([*(spec.command for spec in HOOKS), *LINKED_COMMANDS]))


def make_venv(root: Path, programs=PROGRAMS) -> Path:
    venv = root / "context-memory" / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    for name in programs:
        path = venv / "bin" / name
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
    return venv


def write_settings(path: Path, settings: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps_settings(settings))
    return path


def invoke(*args: str):
    return invoke_click(doctor_cli.cli, args)


def healthy_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with the hooks registered in user settings, a complete virtualenv, and its
    commands linked into a folder on PATH."""
    venv = make_venv(tmp_path)
    config = tmp_path / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    write_settings(config / "settings.json", register_hooks({}, HOOKS, venv / "bin"))
    links = tmp_path / "bin dir"
    apply_links(venv / "bin", links, plan_links(venv / "bin", links))
    monkeypatch.setenv("CTX_BIN_DIR", str(links))
    # The machine's PATH without folders that hold our commands already (CI's activated
    # virtualenv, a user's ~/.local/bin): ctx-doctor would find those instead.
    others = [
        folder
        for folder in os.environ.get("PATH", os.defpath).split(os.pathsep)
        if folder and not os.path.exists(os.path.join(folder, "ctx-budget"))
    ]
    monkeypatch.setenv("PATH", os.pathsep.join([str(links), *others]))
    monkeypatch.setattr(checks_install, "expected_programs", lambda: list(PROGRAMS))
    real_check_cron = checks_state.check_cron
    monkeypatch.setattr(
        checks_state,
        "check_cron",
        lambda project, _=None, **kw: real_check_cron(project, str, **kw),
    )
    return venv
