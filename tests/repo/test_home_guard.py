"""The session-wide guard (tests/helpers/home_guard.py): a test run that writes into the
user's real cache or ~/.claude fails (issue 25, item 13: a ``monkeypatch.undo()`` in
tests/audit/test_audit.py sent a session registry entry to ~/.cache/context-memory)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.home_guard import HomeGuard, changes, real_folders, snapshot
from helpers.paths import REPO

SESSION = "11111111-2222-3333-4444-555555555555"


def test_real_folders_follow_the_environment_the_run_started_with(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert real_folders({"HOME": str(home)}) == [
        home / ".cache" / "context-memory",
        home / ".claude",
    ]
    assert real_folders(
        {
            "HOME": str(home),
            "XDG_CACHE_HOME": str(tmp_path / "xdg"),
            "CLAUDE_CONFIG_DIR": str(tmp_path / "config"),
        }
    ) == [tmp_path / "xdg" / "context-memory", tmp_path / "config"]
    assert real_folders({"HOME": str(home), "CTX_CACHE_DIR": str(tmp_path / "c")})[0] == (
        tmp_path / "c"
    )


def test_a_new_entry_a_changed_file_and_a_link_are_changes(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    (cache / "sessions").mkdir(parents=True)
    (cache / "sessions" / "old").write_text("a")
    guard = HomeGuard({"HOME": str(tmp_path / "home"), "CTX_CACHE_DIR": str(cache)})
    assert guard.violations() == []
    (cache / "sessions" / SESSION).symlink_to(tmp_path / "pytest-of-someone")
    (cache / "sessions" / "old").write_text("ab")
    assert guard.violations() == [
        f"added sessions/{SESSION} under {cache}",
        f"changed sessions/old under {cache}",
    ]


def test_a_missing_folder_that_appears_is_a_change(tmp_path: Path) -> None:
    home = tmp_path / "home"
    guard = HomeGuard({"HOME": str(home)})
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text("{}")
    assert guard.violations() == [
        f"added . under {home / '.claude'}",
        f"added settings.json under {home / '.claude'}",
    ]


def test_inside_a_claude_code_session_the_clients_own_writes_are_left_out(tmp_path: Path) -> None:
    claude = tmp_path / "home" / ".claude"
    (claude / "projects" / "-work").mkdir(parents=True)
    env = {"HOME": str(tmp_path / "home"), "CLAUDECODE": "1"}
    guard = HomeGuard(env)
    (claude / "projects" / "-work" / f"{SESSION}.jsonl").write_text("{}\n")
    (claude / "projects" / "-work" / SESSION / "subagents").mkdir(parents=True)
    (claude / "todos").mkdir()
    (claude / "history.jsonl").write_text("{}\n")
    assert guard.violations() == []
    # What the toolkit writes there still counts: the auto-memory folder, settings.json.
    (claude / "projects" / "-work" / "memory").mkdir()
    (claude / "settings.json").write_text("{}")
    assert guard.violations() == [
        f"added projects/-work/memory under {claude}",
        f"added settings.json under {claude}",
    ]
    # Outside a session the same transcript is a change.
    assert snapshot(claude, skip_client_own=False).keys() > guard.before[claude].keys()


def test_changes_lists_removed_entries() -> None:
    before = {".": ("dir", 0, 0, ""), "a": ("file", 1, 5, "")}
    assert changes(before, {".": ("dir", 0, 0, "")}) == ["removed a"]


def _nested_run(tmp_path: Path, body: str, **extra: str) -> subprocess.CompletedProcess[str]:
    """A pytest run of one test file with only the guard as plugin, in a throwaway HOME
    that stands for the user's real one."""
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "test_nested.py").write_text(body)
    dropped = ("CTX_CACHE_DIR", "XDG_CACHE_HOME", "CLAUDE_CONFIG_DIR", "CLAUDECODE", "CI")
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in dropped and name != "CTX_HOME_GUARD"
    }
    env.update(HOME=str(home), PYTHONPATH=str(REPO / "tests"), **extra)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "helpers.home_guard",
            "-p",
            "no:cacheprovider",
            "test_nested.py",
        ],
        cwd=tmp_path / "run",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


WRITES_INTO_THE_CACHE = (
    "import os\n"
    "def test_writes():\n"
    "    folder = os.path.expanduser('~/.cache/context-memory/sessions')\n"
    "    os.makedirs(folder)\n"
)


def test_a_run_whose_test_writes_into_the_real_cache_fails(tmp_path: Path) -> None:
    result = _nested_run(tmp_path, WRITES_INTO_THE_CACHE)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 passed" in result.stdout
    cache = tmp_path / "home" / ".cache" / "context-memory"
    assert f"added sessions under {cache}" in result.stdout


def test_a_run_that_keeps_to_its_tmp_folders_passes(tmp_path: Path) -> None:
    body = "def test_writes(tmp_path):\n    (tmp_path / 'x').write_text('x')\n"
    result = _nested_run(tmp_path, body)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "real home touched" not in result.stdout


@pytest.mark.parametrize(("ci", "code"), [("", 0), ("true", 1)])
def test_warn_reports_without_failing_except_under_ci(tmp_path: Path, ci: str, code: int) -> None:
    """CTX_HOME_GUARD=warn, for a machine whose HOME other runs write to at the same time."""
    result = _nested_run(tmp_path, WRITES_INTO_THE_CACHE, CTX_HOME_GUARD="warn", CI=ci)
    assert result.returncode == code, result.stdout + result.stderr
    assert "real home touched" in result.stdout
    cache = tmp_path / "home" / ".cache" / "context-memory"
    assert f"added sessions under {cache}" in result.stdout
