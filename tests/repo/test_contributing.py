"""What a contributor relies on: the licence pyproject.toml names, a changelog entry for the
version, one ruff version for pre-commit and CI, the checks CI runs, the README's
commands for the fast and the full test tiers, and a tree that holds no link out of itself."""

from __future__ import annotations

import posixpath
import re
import subprocess

from context_memory import __version__
from helpers.paths import REPO

PYPROJECT = (REPO / "pyproject.toml").read_text(encoding="utf-8")


def test_the_licence_file_is_the_one_pyproject_names() -> None:
    assert 'license = "MIT"\nlicense-files = ["LICENSE"]\n' in PYPROJECT
    licence = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n\nCopyright (c) ")
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in licence


def test_the_changelog_has_an_entry_for_this_version_and_one_unreleased() -> None:
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", changelog, re.MULTILINE)
    assert headings[0] == ("Unreleased", "")
    assert (__version__, "2026-11-30") in headings
    assert "Keep a Changelog" in changelog


def test_pre_commit_runs_the_ruff_that_ci_pins() -> None:
    pinned = re.search(r'"ruff==([0-9.]+)"', PYPROJECT)
    config = (REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    rev = re.search(r"astral-sh/ruff-pre-commit\n\s+rev: v([0-9.]+)\n", config)
    assert pinned and rev and rev[1] == pinned[1]
    for hook in ("ruff-check", "ruff-format", "end-of-file-fixer", "trailing-whitespace"):
        assert f"- id: {hook}\n" in config


def test_ci_runs_lint_format_types_and_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    for line in (
        "ruff check hooks tests bench\n",
        "ruff format --check hooks tests bench\n",
        "mypy\n",
        "python -m pytest\n",
    ):
        assert line in ci


def test_the_readme_names_the_fast_and_the_full_test_command() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    development = readme.split("## Development\n", 1)[1].split("\n## ", 1)[0]
    lines = [line.split("#", 1)[0].strip() for line in development.splitlines()]
    assert 'python -m pytest -m "not slow"' in lines
    assert "python -m pytest" in lines
    assert "ruff format --check" in development
    assert "[docs/development.md](docs/development.md)" in development


def test_the_markers_are_registered() -> None:
    for marker in ("slow:", "root:", "client:"):
        assert f'    "{marker}' in PYPROJECT


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=REPO, capture_output=True, text=True, check=True, timeout=60
    ).stdout


def test_no_tracked_file_is_a_link_out_of_the_tree() -> None:
    """A committed link to a machine's path (.venv-main -> /work/main/.venv) dangles in every
    clone, and shutil.copytree of the checkout fails on it (issue 25). The link's target
    is read from git (mode 120000: the blob is the target), not from the checkout."""
    outside = []
    for line in git("ls-files", "-s", "-z").split("\0"):
        if not line.startswith("120000 "):
            continue
        meta, name = line.split("\t", 1)
        target = git("cat-file", "blob", meta.split()[1])
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
        if posixpath.isabs(target) or resolved == ".." or resolved.startswith("../"):
            outside.append(f"{name} -> {target}")
    assert outside == []


def test_no_doc_writes_a_count_of_tests() -> None:
    """A count goes stale with the next test added (docs/development.md said "1,293 tests"
    long after; issue 25): the docs say how to count them instead."""
    counts = [
        f"{path.relative_to(REPO)}: {match[0]}"
        for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
        for match in re.finditer(r"\b\d[\d,.]* tests\b", path.read_text(encoding="utf-8"))
    ]
    assert counts == []
