"""Every command of the README's Development block works as written after its own first
line, `pip install -e '.[dev]'` (issue 25: `pre-commit install` was "command not found",
pre-commit was not in the dev extra).

The tests run in that install (.ci/run and docs/development.md make it so): each program
the block runs must be on this virtualenv's PATH, each `python -m` module importable here,
each extra it installs declared in pyproject.toml; then `pre-commit install` runs for real
in a fresh copy of the tracked files made a git repository, as a plain user (see
plain_user), and the test commands collect the suite there (running it would run this test
again)."""

from __future__ import annotations

import os
import pwd
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
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


def open_to_others(path: Path) -> bool:
    """Whether another user can reach ``path``: it and every folder above it searchable."""
    return all(part.stat().st_mode & stat.S_IXOTH for part in [path, *path.parents])


def plain_user() -> tuple[int, int] | None:
    """(uid, gid) of the plain user the block runs as: Debian's "nobody" when the tests run
    as root (CI) and the virtualenv is open to other users; None: as the user running the
    tests (not root: a plain user already; or a virtualenv under /root that nobody else
    can reach)."""
    if os.geteuid() != 0 or not (open_to_others(BIN) and open_to_others(RESOLVED_PYTHON)):
        return None
    entry = pwd.getpwnam("nobody")
    return entry.pw_uid, entry.pw_gid


RESOLVED_PYTHON = Path(sys.executable).resolve()
SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"  # util-linux


class Clone:
    """A fresh copy of the tracked files, the HOME and environment it runs in, and the user."""

    def __init__(self, root: Path, env: dict[str, str], user: tuple[int, int] | None) -> None:
        self.root = root
        self.env = env
        self.user = user

    def run(self, line: str) -> subprocess.CompletedProcess[str]:
        argv = ["/bin/bash", "-c", line]
        if self.user is not None:
            uid, gid = self.user
            argv = [SETPRIV, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--", *argv]
        return subprocess.run(
            argv, cwd=self.root, env=self.env, capture_output=True, text=True,
            stdin=subprocess.DEVNULL, timeout=600, check=False,
        )  # fmt: skip


@pytest.fixture
def fresh_clone() -> Iterator[Clone]:
    """The tracked files of this checkout (as they are in the working tree) in a new git
    repository owned by the plain user, with a throwaway HOME, and the virtualenv's bin/
    first on PATH. Not under pytest's tmp_path: as root, that is closed to other users."""
    base = Path(tempfile.mkdtemp(prefix="ctx-development-block-"))
    try:
        base.chmod(0o755)
        clone, home = base / "clone", base / "home"
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True,
            timeout=60,
        ).stdout.split("\0")  # fmt: skip
        for name in filter(None, listed):
            source = REPO / name
            if source.is_file():  # a file deleted in the working tree is not in the copy
                (clone / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, clone / name)
        home.mkdir()
        user = plain_user()
        if user is not None:
            for folder, _, files in os.walk(base):
                for path in [folder, *(os.path.join(folder, f) for f in files)]:
                    os.chown(path, *user)
        env = subprocess_env(HOME=str(home), PRE_COMMIT_HOME=str(home / ".cache" / "pre-commit"))
        env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', os.defpath)}"
        env.pop("PYTHONPATH")  # the clone's own pyproject says where its code is
        made = Clone(clone, env, user)
        done = made.run("git -c init.defaultBranch=main init -q")
        assert done.returncode == 0, done.stderr
        yield made
    finally:
        shutil.rmtree(base)


def test_pre_commit_install_and_the_test_commands_work_in_a_fresh_clone(
    fresh_clone: Clone,
) -> None:
    _, install, fast, full = development_lines()
    done = fresh_clone.run(install)
    assert (done.returncode, done.stdout) == (0, "pre-commit installed at .git/hooks/pre-commit\n")
    assert "pre-commit" in (fresh_clone.root / ".git" / "hooks" / "pre-commit").read_text()
    for line in (fast, full):
        done = fresh_clone.run(f"{line} --collect-only -q")
        assert done.returncode == 0, f"{line}\n{done.stdout}{done.stderr}"
        assert re.search(r"^\d+(/\d+)? tests collected", done.stdout, re.MULTILINE), done.stdout
    if fresh_clone.user is not None:  # what the plain user made is theirs
        hook = (fresh_clone.root / ".git" / "hooks" / "pre-commit").stat()
        assert (hook.st_uid, hook.st_gid) == fresh_clone.user
