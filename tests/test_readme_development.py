"""Every command of the README's Development block works as written after its own first
line, `pip install -e '.[dev]'` (issue 25: `pre-commit install` was "command not found",
pre-commit was not in the dev extra).

The tests run in that install (.ci/run and docs/development.md make it so): each program
the block runs must be on this virtualenv's PATH, each `python -m` module importable here,
each extra it installs declared in pyproject.toml; then `pre-commit install` runs for real
in a fresh copy of the tracked files made a git repository, and the test commands collect
the suite there (running it would run this test again)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

from helpers.paths import REPO, subprocess_env

pytestmark = pytest.mark.slow  # a copy of the tree, git, pre-commit and pytest processes

README = (REPO / "README.md").read_text(encoding="utf-8")
PYPROJECT = (REPO / "pyproject.toml").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent  # the virtualenv's bin/, as `. .venv/bin/activate` sets it


def command_lines(text: str) -> list[str]:
    """The command lines of the first sh block of ``text``, comments dropped."""
    block = re.search(r"^```sh[^\n]*\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    assert block, "a sh block"
    lines = [re.sub(r"\s+#\s.*$", "", line).strip() for line in block[1].splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def development_lines() -> list[str]:
    """The command lines of the README's Development section."""
    return command_lines(README.split("\n## Development\n", 1)[1].split("\n## ", 1)[0])


def segments(line: str) -> list[list[str]]:
    """The simple commands of a line (split at && || ; |), each as its words."""
    return [shlex.split(part) for part in re.split(r"&&|\|\||;|\|", line) if part.strip()]


def extras() -> set[str]:
    table = PYPROJECT.split("[project.optional-dependencies]\n", 1)[1].split("\n[", 1)[0]
    return set(re.findall(r"^([a-z][a-z0-9-]*) = \[", table, re.MULTILINE))


def problems_of(words: list[str]) -> list[str]:
    """What would fail in this one command, run in this virtualenv after the block's first
    line."""
    program, args = words[0], words[1:]
    if program in (".", "source"):
        activate = Path(args[0])
        if activate.parts[-2:] != ("bin", "activate") or not (BIN / "activate").is_file():
            return [f"{' '.join(words)}: no {BIN / 'activate'}"]
        return []
    if program == "python3":  # the interpreter the block starts from, before the venv
        found = shutil.which("python3", path=os.defpath + os.pathsep + os.environ["PATH"])
        return [] if found else ["python3: not on PATH"]
    found = shutil.which(program, path=str(BIN))
    if found is None:
        return [f"{program}: command not found in {BIN} after pip install -e '.[dev]'"]
    problems = []
    if args[:1] == ["-m"] and find_spec(args[1]) is None:
        problems.append(f"{program} -m {args[1]}: no module {args[1]}")
    if program == "pip" and args[:1] == ["install"]:
        for wanted in re.findall(r"\.\[([a-z0-9,-]+)\]", " ".join(args)):
            problems += [f"pip: no extra {x}" for x in wanted.split(",") if x not in extras()]
    return problems


def test_the_block_is_what_this_test_reads() -> None:
    assert development_lines() == [
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[dev]'",
        "pre-commit install",
        'python -m pytest -m "not slow"',
        "python -m pytest",
    ]
    # docs/development.md's setup block says the same, so this test checks it too.
    guide = (REPO / "docs" / "development.md").read_text(encoding="utf-8")
    assert set(command_lines(guide)) <= set(development_lines())


def test_every_program_of_the_block_is_there_after_its_install() -> None:
    problems = [p for line in development_lines() for w in segments(line) for p in problems_of(w)]
    assert problems == []


@pytest.fixture
def fresh_clone(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """The tracked files of this checkout (as they are in the working tree) in a new git
    repository, with a throwaway HOME, and the virtualenv's bin/ first on PATH."""
    clone = tmp_path / "clone"
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True,
        timeout=60,
    ).stdout.split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():  # a file deleted in the working tree is not in the copy
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / name)
    home = tmp_path / "home"
    home.mkdir()
    env = subprocess_env(HOME=str(home), PRE_COMMIT_HOME=str(home / ".cache" / "pre-commit"))
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', os.defpath)}"
    env.pop("PYTHONPATH")  # the clone's own pyproject says where its code is
    git = ["git", "-c", "init.defaultBranch=main", "init", "-q"]
    subprocess.run(git, cwd=clone, env=env, check=True, timeout=60)
    return clone, env


def run(line: str, clone: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["/bin/bash", "-c", line], cwd=clone, env=env, capture_output=True, text=True,
        stdin=subprocess.DEVNULL, timeout=600, check=False,
    )  # fmt: skip


def test_pre_commit_install_and_the_test_commands_work_in_a_fresh_clone(
    fresh_clone: tuple[Path, dict[str, str]],
) -> None:
    clone, env = fresh_clone
    _, install, fast, full = development_lines()
    done = run(install, clone, env)
    assert (done.returncode, done.stdout) == (0, "pre-commit installed at .git/hooks/pre-commit\n")
    assert "pre-commit" in (clone / ".git" / "hooks" / "pre-commit").read_text()
    for line in (fast, full):
        done = run(f"{line} --collect-only -q", clone, env)
        assert done.returncode == 0, f"{line}\n{done.stdout}{done.stderr}"
        assert re.search(r"^\d+(/\d+)? tests collected", done.stdout, re.MULTILINE), done.stdout
