"""The tests' own layout (docs/development.md, "Layout of the tests"): the test of
``<package>/<module>.py`` is found in ``tests/<package>/``, so no test module lies flat in
tests/, every folder of test modules is a package named after a package of
hooks/context_memory/ or one of the folders for what spans them, and no test module
imports another (what two share is in tests/helpers/ or tests/conftest.py)."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers.paths import REPO

TESTS = REPO / "tests"
PACKAGES = {p.name for p in (REPO / "hooks" / "context_memory").iterdir() if p.is_dir()} - {
    "__pycache__"
}
# Folders for what spans packages: whole installs, the repository's own rules, the real
# client, hostile input.
CROSS_CUTTING = {"install", "repo", "e2e", "hostile"}


def modules_of_tests() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


def test_no_test_module_lies_flat_in_tests() -> None:
    assert sorted(p.name for p in TESTS.glob("*.py")) == ["conftest.py"]


def test_every_folder_of_tests_is_a_package_named_after_what_it_tests() -> None:
    folders = {p.parent for p in modules_of_tests()}
    assert folders, "no test module found"
    for folder in sorted(folders):
        assert folder.parent == TESTS, f"{folder.relative_to(REPO)}: one folder level only"
        assert folder.name in PACKAGES | CROSS_CUTTING, folder.relative_to(REPO)
        assert (folder / "__init__.py").is_file(), f"{folder.relative_to(REPO)}/__init__.py"
    untested = PACKAGES - {folder.name for folder in folders}
    assert untested == set(), "packages of hooks/context_memory/ without a folder of tests"


def test_no_test_module_imports_another() -> None:
    offenders = []
    for path in modules_of_tests():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(alias.name for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(part.startswith("test_") for name in names for part in name.split(".")):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert offenders == []
