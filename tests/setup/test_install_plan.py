"""The installer as plan and apply (issue 22): typed options, a plan of typed steps that
--dry-run prints and a run carries out, and an uninstall planned from the install record
(no second run of the installer)."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path
from typing import Any

import pytest

from context_memory.core.command_table import HOOKS
from context_memory.setup.install import plan as install_plan
from context_memory.setup.install.command_links import LinkCommands
from context_memory.setup.install.crontab import CronLine
from context_memory.setup.install.launchers import PreparePrograms
from context_memory.setup.install.options import InstallOptions
from context_memory.setup.install.pin import AutoMemory, PinLine
from context_memory.setup.install.plan import make_plan
from context_memory.setup.install.record import NoteInstall, RestoreRecorded, UninstallVenv
from context_memory.setup.install.settings_edit import (
    EditSettings,
)
from helpers.install_env import run

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "hooks" / "context_memory" / "setup" / "install"


def kinds(steps: list[Any]) -> list[str]:
    return [type(step).__name__ for step in steps]


def test_options_are_frozen() -> None:
    options = InstallOptions(venv=Path("/v"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.dry_run = True  # type: ignore[misc]
    assert options.bin_dir == Path("/v/bin")


def test_no_namespace_below_the_command_line() -> None:
    """argparse only in install/cli.py; ctx-pin passes typed flags, and nothing calls a
    private crontab function from outside crontab.py."""
    for path in INSTALL.glob("*.py"):
        text = path.read_text()
        if path.name != "cli.py":
            assert "import argparse" not in text and "args." not in text, path.name
        if path.name != "crontab.py":
            assert not re.search(r"crontab\._\w", text), path.name
    assert "Namespace" not in (REPO / "hooks/context_memory/commands/pin.py").read_text()
    assert "sys.modules" not in (REPO / "hooks/context_memory/commands/plugin_run.py").read_text()


def test_the_plan_of_a_fresh_install(
    home: Path,
    venv: Path,
    links: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    steps = make_plan(InstallOptions(venv=venv))
    assert kinds(steps) == [
        "PreparePrograms",
        "EditSettings",
        "LinkCommands",
        "CronLine",
        "PinLine",
        "NoteInstall",
    ]
    prepare, edit = steps[0], steps[1]
    assert isinstance(prepare, PreparePrograms) and prepare.venv == venv
    assert isinstance(edit, EditSettings)
    assert edit.path == home / ".claude" / "settings.json"
    assert (edit.text, edit.old, edit.hooks_here) == (None, {}, True)
    assert sorted(edit.new["hooks"]) == [
        "PostCompact", "PreCompact", "PreToolUse", "SessionStart", "Stop", "UserPromptSubmit"
    ]  # fmt: skip
    assert steps[2] == LinkCommands(venv / "bin", links, remove=False)
    assert steps[3] == CronLine(venv / "bin", str(tmp_path), False, False, False)
    assert steps[4] == PinLine(str(tmp_path), None, remove=False)
    note = steps[5]
    assert isinstance(note, NoteInstall)
    assert note.added["settings"][str(edit.path)]["before"] is None
    # The dry run's plan: the same places, nothing to prepare.
    dry = make_plan(InstallOptions(venv=venv, dry_run=True))
    assert kinds(dry) == kinds(steps)[1:]


def test_the_uninstall_is_planned_from_the_record(
    home: Path,
    venv: Path,
    links: Path,
    tmp_path: Path,
    capsys: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = tmp_path / "app"
    project.mkdir()
    assert run(capsys, "--venv", str(venv), "--project", str(project), "--pin-decisions")[0] == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    calls: list[Any] = []
    real = install_plan.make_plan
    monkeypatch.setattr(install_plan, "make_plan", lambda *a: calls.append(a) or real(*a))
    steps = make_plan(InstallOptions(venv=venv, uninstall=True))
    assert calls == []  # the recorded places are steps of this plan, not a second run
    user = home / ".claude" / "settings.json"
    project_settings = project / ".claude" / "settings.json"
    edits = [step for step in steps if isinstance(step, EditSettings)]
    assert [e.path for e in edits] == [user, project_settings]
    assert kinds(steps) == [
        "EditSettings",  # the user settings: no hooks there
        "UninstallVenv",  # kept
        "LinkCommands",
        "CronLine",  # the current folder's
        "PinLine",
        "AutoMemory",  # the toolkit's lines in Claude Code's auto memory, everywhere
        "EditSettings",  # the recorded project's
        "CronLine",
        "PinLine",
        "RestoreRecorded",
    ]
    pins = [step for step in steps if isinstance(step, PinLine)]
    assert [p.project for p in pins] == [str(elsewhere), str(project)]
    assert pins[1].change is not None and pins[1].change.new == ""
    assert isinstance(steps[-1], RestoreRecorded) and steps[-1].tool == "./install"
    assert not any(isinstance(step, UninstallVenv) for step in steps[2:])
    assert [e.path for e in edits].count(user) == 1  # each file's edit (and warnings) once
    memory = [step for step in steps if isinstance(step, AutoMemory)]
    assert [m.projects for m in memory] == [(str(elsewhere), str(project))]
    # Its dry run says so once, for all the places.
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall", "--dry-run")
    assert code == 0 and out.count("dry run: nothing will be written") == 1
    assert f"would remove {len(HOOKS)} hooks from {project_settings}, then delete it" in out
    # Applied: every recorded place is back as before, from the one plan.
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall")
    assert code == 0
    assert f"context-memory: removed {len(HOOKS)} hooks from {project_settings}" in out.splitlines()
    assert not project_settings.exists() and not (project / "CLAUDE.md").exists()
    assert os.listdir(project) == [".working-state"]


def test_the_uninstall_takes_the_toolkits_auto_memory_out_and_nothing_else(
    home: Path,
    venv: Path,
    tmp_path: Path,
    capsys: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from context_memory.memory.decisions import append_record, make_captured_record
    from context_memory.memory.native import sync_native
    from context_memory.transcript.locate import project_folder_name

    monkeypatch.delenv("CTX_NATIVE_MEMORY", raising=False)
    project = tmp_path / "app"
    (project / ".working-state").mkdir(parents=True)
    assert run(capsys, "--venv", str(venv), "--project", str(project))[0] == 0
    record = make_captured_record(
        {"kind": "rejected", "by": "user", "source": "tool-rejection", "uuid": "u1",
         "decision": "npm install moment", "reason": "too big"},
        session="s1",
    )  # fmt: skip
    append_record(str(project / ".working-state"), record)
    folder = home / ".claude" / "projects" / project_folder_name(str(project)) / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- [Mine](feedback_mine.md) — the model's\n")
    (folder / "feedback_mine.md").write_text("the model's file\n")
    assert sync_native(str(project / ".working-state"), str(project)).written == [record["id"]]
    code, out, _ = run(capsys, "--venv", str(venv), "--uninstall")
    assert code == 0
    assert f"removed {folder / ('ctx_feedback_' + str(record['id']) + '.md')}" in out
    assert sorted(p.name for p in folder.iterdir()) == ["MEMORY.md", "feedback_mine.md"]
    assert (folder / "MEMORY.md").read_text() == "- [Mine](feedback_mine.md) — the model's\n"
    assert (folder / "feedback_mine.md").read_text() == "the model's file\n"
