"""Issue 11, item 1: one state folder per project, the same for the hooks and for the
commands the agent runs through Bash (which get CLAUDE_CODE_SESSION_ID but no
CLAUDE_PROJECT_DIR, and may run in another directory).

The four reproduced cases run as fresh processes in real folders: a project without
.git under a HOME holding .claude; Claude Code started in app/frontend of a repository
app/; the agent in a submodule (.git is a file); a hook with no cwd in its input.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from context_memory.core import session_registry
from context_memory.core.state import find_project_root, search_project_root
from helpers import cli_run
from helpers.paths import subprocess_env

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

SESSION = "aaaaaaaa-1111-2222-3333-444444444444"


def run_module(
    module: str, args: list[str], cwd: Path, home: Path, stdin: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    """``python -m context_memory.<module>`` as the console script would run it."""
    env_all = subprocess_env(HOME=str(home), **env)
    return cli_run.run_module(module, *args, cwd=cwd, stdin=stdin, env=env_all)


def session_start(project: Path, home: Path, tmp_path: Path) -> None:
    """The SessionStart hook of a session started in ``project``, as the client runs it."""
    payload = {
        "session_id": SESSION,
        "transcript_path": str(tmp_path / f"{SESSION}.jsonl"),
        "cwd": str(project),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    done = run_module(
        "handlers.restore",
        [],
        project,
        home,
        json.dumps(payload),
        CLAUDE_PROJECT_DIR=str(project),
        CLAUDE_CODE_SESSION_ID=SESSION,
    )
    assert (done.returncode, done.stderr) == (0, "")


def started_in_frontend(home: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A repository ~/app and a session started in its subfolder app/frontend."""
    app = home / "app"
    (app / ".git").mkdir(parents=True)
    frontend = app / "frontend"
    frontend.mkdir()
    session_start(frontend, home, tmp_path)
    return app, frontend


def agent_decides(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """ctx-decide as the agent runs it: the session id, no CLAUDE_PROJECT_DIR."""
    return run_module("commands.decide", list(args), cwd, home, CLAUDE_CODE_SESSION_ID=SESSION)


def decisions_in(state: Path) -> list[str]:
    lines = (state / "decisions.jsonl").read_text().splitlines()
    return [json.loads(line)["decision"] for line in lines]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A home folder with the client's ~/.claude, as every user of Claude Code has."""
    folder = tmp_path / "home"
    (folder / ".claude").mkdir(parents=True)
    return folder


def test_project_without_git_under_home_keeps_its_own_state(home, tmp_path):
    project = home / "notes"
    (project / "docs").mkdir(parents=True)
    session_start(project, home, tmp_path)

    done = agent_decides(project / "docs", home, "Use SQLite", "--reason", "one file")
    state = project / ".working-state"
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("recorded decided ") and done.stdout.endswith(
        f" in {state / 'decisions.jsonl'}\n"
    )
    assert decisions_in(state) == ["Use SQLite"]
    assert not (home / ".working-state").exists()

    # The project's own hooks now see it: ctx-restore points at the decisions.
    payload = json.dumps(
        {
            "session_id": "next",
            "cwd": str(project),
            "hook_event_name": "SessionStart",
            "source": "startup",
            "transcript_path": "",
        }
    )
    restored = run_module(
        "handlers.restore", [], project, home, payload, CLAUDE_PROJECT_DIR=str(project)
    )
    context = json.loads(restored.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Read .working-state/decisions.jsonl first." in context


def test_by_hand_outside_a_session_home_claude_is_no_marker(home, tmp_path):
    project = home / "notes"
    (project / "docs").mkdir(parents=True)
    done = run_module("commands.decide", ["by hand"], project / "docs", home)
    assert (done.returncode, done.stderr) == (0, "")
    assert decisions_in(project / "docs" / ".working-state") == ["by hand"]
    assert not (home / ".working-state").exists()

    # A .claude folder of the project itself still marks it, and the command says so.
    (project / ".claude").mkdir()
    (project / "src").mkdir()
    done = run_module("commands.decide", ["second"], project / "src", home)
    state = project / ".working-state"
    assert done.returncode == 0
    assert done.stderr == (
        f"ctx-decide: using {state} (the nearest folder above with .working-state/.claude/.git)\n"
    )
    assert decisions_in(state) == ["second"]


def test_started_in_a_subfolder_of_a_repository(home, tmp_path):
    app, frontend = started_in_frontend(home, tmp_path)

    assert agent_decides(frontend, home, "first").returncode == 0
    assert agent_decides(app, home, "second, after cd ..").returncode == 0
    assert decisions_in(frontend / ".working-state") == ["first", "second, after cd .."]
    assert not (app / ".working-state").exists()


def test_the_agent_in_a_submodule(home, tmp_path):
    app = home / "app"
    (app / ".git" / "modules" / "vendor" / "lib").mkdir(parents=True)
    lib = app / "vendor" / "lib"
    lib.mkdir(parents=True)
    (lib / ".git").write_text("gitdir: ../../.git/modules/vendor/lib\n")
    session_start(app, home, tmp_path)

    done = agent_decides(lib, home, "--rejected", "Vendor a fork", "--reason", "upstream fix")
    assert (done.returncode, done.stderr) == (0, "")
    assert decisions_in(app / ".working-state") == ["Vendor a fork"]
    assert not (lib / ".working-state").exists()

    # By hand, outside any session: the submodule's .git file is no project root either.
    done = run_module("commands.decide", ["by hand in the submodule"], lib, home)
    assert done.returncode == 0 and f"using {app / '.working-state'} " in done.stderr
    assert decisions_in(app / ".working-state")[-1] == "by hand in the submodule"


@pytest.mark.parametrize(
    ("module", "event"),
    [
        ("handlers.budget", "UserPromptSubmit"),
        ("handlers.extract", "PreCompact"),
        ("handlers.restore", "SessionStart"),
        ("handlers.audit", "PostCompact"),
    ],
)
def test_a_failing_hook_without_cwd_creates_no_state_folder(home, tmp_path, module, event):
    somewhere = tmp_path / "tmp"
    somewhere.mkdir()
    # Each fails: no session_id, or no transcript_path (ctx-budget), or no JSON at all.
    payloads = (
        json.dumps({"hook_event_name": event, "transcript_path": 7}),
        json.dumps({"session_id": SESSION, "hook_event_name": event, "transcript_path": 7}),
        "not json",
    )
    for stdin in payloads if module == "handlers.budget" else (payloads[0], payloads[2]):
        done = run_module(module, [], somewhere, home, stdin)
        assert done.returncode == 0 and done.stdout == ""
        assert done.stderr.count("\n") <= 1
    assert sorted(os.listdir(somewhere)) == []
    # Nor did the hook record a project for the session: it did not know one.
    assert session_registry.recorded_location(SESSION) is None


def test_a_failing_hook_logs_into_an_existing_state_folder(home, tmp_path):
    project = tmp_path / "project"
    (project / ".working-state").mkdir(parents=True)
    done = run_module("handlers.budget", [], project, home, "not json")
    assert done.returncode == 0 and done.stderr.startswith("ctx-budget: HookInputError")
    log = (project / ".working-state" / "logs" / "hooks.log").read_text()
    assert log.count("\n") == 1 and "\tctx-budget\t-\tHookInputError: stdin is not JSON" in log


def test_handoff_and_plan_follow_the_session(home, tmp_path):
    app, _ = started_in_frontend(home, tmp_path)
    done = run_module(
        "commands.plan", [], app, home, "- [ ] ship\n", CLAUDE_CODE_SESSION_ID=SESSION
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "wrote frontend/.working-state/current-plan.md (1 line)\n"
    handoff = (
        "## Decided\n- none\n## Rejected\n- none\n## Risks\n- none\n"
        "## Files Modified\n- none\n## Remaining\n- ship\n"
    )
    done = run_module("commands.handoff", [], app, home, handoff, CLAUDE_CODE_SESSION_ID=SESSION)
    assert done.returncode == 0, done.stderr
    stage = f"frontend/.working-state/sessions/{SESSION}/handoffs/stage-1.md"
    assert done.stdout == f"wrote {stage}\n"


# --------------------------------------------------------------------------- in-process


def test_registry_entry_is_written_once_and_read_back(tmp_path):
    project = tmp_path / "p"
    project.mkdir()
    state = str(project / ".working-state")
    session_registry.remember_session(SESSION, str(project), state)
    path = Path(session_registry.entry_path(SESSION))
    before = path.stat()
    session_registry.remember_session(SESSION, str(project), state)
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert session_registry.recorded_location(SESSION) == (str(project), state)
    assert sorted(os.listdir(path.parent)) == [SESSION]
    other = tmp_path / "q"
    other.mkdir()
    session_registry.remember_session(SESSION, str(other), str(other / ".working-state"))
    assert session_registry.recorded_location(SESSION) == (
        str(other),
        str(other / ".working-state"),
    )


def test_stale_registry_entries_are_pruned_when_a_new_one_is_written(tmp_path):
    """One entry per session would pile up forever: entries untouched for 30 days go when
    a new session's entry is written; links are neither followed nor removed."""
    folder = Path(session_registry.entry_path(SESSION)).parent
    folder.mkdir(parents=True)
    month_ago = time.time() - session_registry.STALE_ENTRY_SECONDS - 60
    stale = folder / "0f0e0d0c-1111-4222-8333-944445555666"
    stale.write_text("{}")
    leftover = folder / f"{stale.name}.123.tmp"
    leftover.write_text("{")
    recent = folder / "aaaaaaaa-1111-4222-8333-944445555666"
    recent.write_text("{}")
    outside = tmp_path / "outside.json"
    outside.write_text("keep me")
    link = folder / "bbbbbbbb-1111-4222-8333-944445555666"
    link.symlink_to(outside)
    for path in (stale, leftover, outside):
        os.utime(path, (month_ago, month_ago))
    project = tmp_path / "p"
    project.mkdir()
    session_registry.remember_session(SESSION, str(project), str(project / ".working-state"))
    assert sorted(os.listdir(folder)) == sorted([SESSION, recent.name, link.name])
    assert outside.read_text() == "keep me"
    # An entry rewritten only when it changes: nothing to prune on an unchanged one.
    assert session_registry.prune_stale_entries(str(folder)) == 0


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        b"[1]",
        b'{"project": "relative", "state_dir": "/x"}',
        b'{"project": "/no/such/folder/at/all", "state_dir": "/x"}',
        b'{"project": 5, "state_dir": "/x"}',
        b"[" * 100_000,
        b" " * (session_registry.MAX_ENTRY_BYTES + 1),
    ],
)
def test_bad_registry_entries_are_ignored(content):
    path = Path(session_registry.entry_path(SESSION))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    assert session_registry.recorded_location(SESSION) is None


def test_registry_entry_that_is_a_link_is_ignored(tmp_path):
    target = tmp_path / "elsewhere.json"
    target.write_text(json.dumps({"project": str(tmp_path), "state_dir": str(tmp_path)}))
    path = Path(session_registry.entry_path(SESSION))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    assert session_registry.recorded_location(SESSION) is None
    assert session_registry.recorded_location("../etc") is None


def test_markers(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    (tmp_path / ".claude").mkdir()  # above the home folder: no project either
    inside = home / "a" / "b"
    inside.mkdir(parents=True)
    assert search_project_root(str(inside)) is None
    assert find_project_root(str(inside)) == str(inside)
    worktree = home / "wt"
    worktree.mkdir()
    (worktree / ".git").write_text("gitdir: /src/repo/.git/worktrees/wt\n")
    (worktree / "src").mkdir()
    assert search_project_root(str(worktree / "src")) == str(worktree)
