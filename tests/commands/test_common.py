"""commands/common.py: where a by-hand command keeps its state (cli_location). The folder
is found first (CLAUDE_PROJECT_DIR, the session's recorded one, a search upwards), then
core/state's rule decides (state_dir_in: CTX_STATE_DIR wins, a linked folder is refused)."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from context_memory.commands.common import SESSION_ENV, cli_location
from context_memory.core import session_registry

SESSION = "common-session-1"


@pytest.fixture
def recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A session whose hooks recorded a state folder kept apart from the project."""
    for name in ("CLAUDE_PROJECT_DIR", "CTX_STATE_DIR"):
        monkeypatch.delenv(name, raising=False)
    project, state = tmp_path / "project", tmp_path / "state"
    project.mkdir()
    session_registry.remember_session(SESSION, str(project), str(state))
    monkeypatch.setenv(SESSION_ENV, SESSION)
    monkeypatch.chdir(tmp_path)
    return project, state


def test_the_recorded_folder_is_used(recorded: tuple[Path, Path]) -> None:
    project, state = recorded
    assert cli_location() == (str(project), str(state))


def test_the_variable_wins_over_the_recorded_folder(
    recorded: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, _ = recorded
    monkeypatch.setenv("CTX_STATE_DIR", "kept")
    assert cli_location() == (str(project), str(tmp_path / "kept"))


def test_a_recorded_folder_that_is_a_link_is_refused(
    recorded: tuple[Path, Path], tmp_path: Path
) -> None:
    project, state = recorded
    (tmp_path / "real").mkdir()
    state.symlink_to(tmp_path / "real")
    with pytest.raises(click.ClickException) as refused:
        cli_location()
    assert refused.value.message == (
        f"{state} is a symbolic link: nothing is written through it. Set "
        f"CTX_STATE_DIR={tmp_path / 'real'} to keep the state there, or make it a real folder"
    )
    assert cli_location(refuse_link=False) == (str(project), str(state))


def test_the_project_s_own_folder_without_a_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("CLAUDE_PROJECT_DIR", "CTX_STATE_DIR", SESSION_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(tmp_path))
    assert cli_location() == (str(tmp_path), str(tmp_path / ".working-state"))
