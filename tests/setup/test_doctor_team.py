"""ctx-doctor --team: what it writes, that it writes it once, and what it refuses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from context_memory.commands.doctor import main
from context_memory.memory.team import ATTRIBUTE_LINES, IGNORE_LINES
from helpers.cli_run import assert_refused, run_main
from helpers.paths import subprocess_env

if shutil.which("git") is None:
    if os.environ.get("CI"):
        raise RuntimeError("git is required for the team-sharing tests (.ci/run installs it)")
    pytest.skip("git is not installed", allow_module_level=True)


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, env=subprocess_env()
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def repo(project: Path) -> Path:
    git(project, "init", "-q")
    return project


def test_sets_up_once_and_keeps_the_users_lines(repo: Path) -> None:
    state = repo / ".working-state"
    state.mkdir()
    mine = b"# my own\n*.bak"  # no final newline
    (state / ".gitignore").write_bytes(mine)
    result = run_main(main, ["--team"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Set up {state} for sharing through git:"
    assert lines[1] == (
        "  changed .working-state/.gitattributes: added 'decisions.jsonl merge=union' (git's "
        "union merge keeps both sides' new records: no merge conflict in the decisions log)"
    )
    assert lines[2].startswith("  changed .working-state/.gitignore: added 12 lines for ")
    assert "  checked git check-attr merge .working-state/decisions.jsonl: union" in lines
    assert "Not shared:" in lines
    assert (state / ".gitattributes").read_text() == "\n".join(ATTRIBUTE_LINES) + "\n"
    assert (state / ".gitignore").read_bytes() == (
        mine + b"\n\n" + "\n".join(IGNORE_LINES).encode() + b"\n"
    )
    # Git applies them where they are.
    assert git(repo, "check-attr", "merge", ".working-state/decisions.jsonl") == (
        ".working-state/decisions.jsonl: merge: union\n"
    )
    for ignored in (
        "logs/hooks.log",
        "decisions.jsonl.lock",
        "merged",
        ".merged-20261130T000000Z-1-abc/decisions.md",
        "pinned.md",
        "pinned-index.json",  # issue 15's per-machine files: derived or this machine's lock
        "pinned.md.lock",
        "sessions/s1/pinned-at-compact.json",
        ".decisions.jsonl.x1.tmp",
        ".author-cache.json",
        "sessions/s1/statusline.json",
        "sessions/s1/.crossed-80",
        "sessions/s1/.handoffs.lock",
    ):
        assert git(repo, "check-ignore", "--no-index", f".working-state/{ignored}").strip(), ignored
    for shared in ("decisions.jsonl", "sessions/s1/handoffs/stage-1.md", ".gitignore"):
        done = subprocess.run(
            ["git", "check-ignore", "--no-index", f".working-state/{shared}"], cwd=repo
        )
        assert done.returncode == 1, shared

    before = {p.name: p.read_bytes() for p in state.iterdir()}
    again = run_main(main, ["--team"])
    assert again.exit_code == 0
    assert again.stdout.splitlines()[0] == (
        f"{state} is already set up for sharing through git: nothing changed."
    )
    assert {p.name: p.read_bytes() for p in state.iterdir()} == before


def test_only_the_missing_lines_are_added(repo: Path) -> None:
    state = repo / ".working-state"
    state.mkdir()
    (state / ".gitattributes").write_text("*.md text\ndecisions.jsonl merge=union\n")
    (state / ".gitignore").write_text("/logs/\n*.lock\n")
    result = run_main(main, ["--team", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["merge_attribute"] == "union"
    assert data["changed"] == [
        ".working-state/.gitignore: added 10 lines for per-machine and derived files: *.tmp, "
        "/.author-cache.json, /merged, /.merged-*, /pinned.md, /pinned-index.json, "
        "/pinned.md.lock, /current-plan.md, /sessions/*/*, !/sessions/*/handoffs/"
    ]
    assert (state / ".gitattributes").read_text() == "*.md text\ndecisions.jsonl merge=union\n"
    assert (state / ".gitignore").read_text().startswith("/logs/\n*.lock\n\n# context-memory")


def test_warns_when_git_ignores_the_state_folder_or_tracks_per_machine_files(repo: Path) -> None:
    (repo / ".gitignore").write_text(".working-state/\n")
    result = run_main(main, ["--team"])
    assert result.exit_code == 0
    assert (
        "  WARN: .working-state/decisions.jsonl is ignored by git (.gitignore:1:.working-state/): "
        "nothing in the state folder is shared until you remove that line"
    ) in result.stdout.splitlines()
    (repo / ".gitignore").unlink()
    logs = repo / ".working-state" / "logs"
    logs.mkdir()
    (logs / "hooks.log").write_text("x\n")
    git(repo, "add", "-f", ".working-state/logs/hooks.log")
    result = run_main(main, ["--team"])
    assert (
        "  WARN: 1 per-machine file(s) are already committed and stay tracked until you run: "
        "git rm -r --cached -- .working-state/logs/hooks.log"
    ) in result.stdout.splitlines()


def test_refuses_outside_git_and_files_it_cannot_read(project: Path) -> None:
    assert_refused(
        run_main(main, ["--team"]),
        f"Error: {project / '.working-state'} is not inside a git work tree: sharing goes "
        "through git. Run 'git init' in the project (or clone it), then ctx-doctor --team "
        "again; nothing changed\n",
        project,
    )
    git(project, "init", "-q")
    (project / ".working-state").mkdir()
    odd = b"\xff\xfe not utf-8\n"
    (project / ".working-state" / ".gitattributes").write_bytes(odd)
    result = run_main(main, ["--team"])
    assert result.exit_code == 1
    assert "is not UTF-8 text; left as it is" in result.stderr
    assert (project / ".working-state" / ".gitattributes").read_bytes() == odd


def test_fresh_process(repo: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "context_memory.commands.doctor", "--team"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=subprocess_env(),
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"Set up {repo / '.working-state'} for sharing through git:\n")
    assert done.stdout.endswith(
        "Commit them: git add .working-state && git commit -m 'Share context-memory'\n"
    )


def test_files_of_the_state_folder_are_not_written_through_a_link(repo: Path) -> None:
    """--team reads and writes the state folder with fsutil: a link is refused, its target
    left as it was."""
    state = repo / ".working-state"
    state.mkdir()
    elsewhere = repo / "elsewhere.txt"
    elsewhere.write_text("mine\n")
    (state / ".gitignore").symlink_to(elsewhere)
    result = run_main(main, ["--team"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {state / '.gitignore'}: a symbolic link: not followed")
    assert elsewhere.read_text() == "mine\n"
    assert (state / ".gitignore").is_symlink()
