"""The tests' own layout (docs/development.md, "Layout of the tests"): the test of
``<package>/<module>.py`` is found in ``tests/<package>/``, so no test module lies flat in
tests/, every folder of test modules is a package named after a package of
hooks/context_memory/ or one of the folders for what spans them, and no test module
imports another (what two share is in tests/helpers/ or tests/conftest.py). No test bounds
a wall time from above (bench/ measures time; a busy machine made such tests flake)."""

from __future__ import annotations

import ast
from itertools import pairwise
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


# -- no wall-time bounds (bench/ measures time; a test on a busy machine must not flake) ----

CLOCKS = {"monotonic", "perf_counter", "time", "monotonic_ns", "perf_counter_ns", "time_ns"}
# (test module, the assert) -> why it may bound a wall time.
TIMED_ALLOWED = {
    (
        "tests/hostile/test_untrusted_state.py",
        "assert time.monotonic() - started < 10, entry.id",
    ): "the documented bound of a hook on a hostile state folder (docs/hostile-inputs.md: a "
    "hook that takes 10 s fails), in a slow test",
    (
        "tests/merge/test_clock.py",
        "assert abs(merged_at(state) - time.time()) < 120",
    ): "not a duration: the merge's stamp is the real time, within two minutes",
}


def is_time(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "time"


def _reads_a_clock(node: ast.AST, timed: set[str]) -> bool:
    for inner in ast.walk(node):
        func = inner.func if isinstance(inner, ast.Call) else None
        if isinstance(func, ast.Attribute) and func.attr in CLOCKS and is_time(func.value):
            return True
        if isinstance(inner, ast.Name) and inner.id in timed:
            return True
    return False


def wall_time_bounds(source: str) -> list[str]:
    """The asserts of ``source`` (their text) that bound from above a time read from a
    clock (``assert time.monotonic() - t0 < 5``, ``seconds = ...; assert seconds < 3``)."""
    tree = ast.parse(source)
    timed: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _reads_a_clock(node.value, set()):
            timed |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        for compare in (n for n in ast.walk(node.test) if isinstance(n, ast.Compare)):
            sides = [compare.left, *compare.comparators]
            for op, (left, right) in zip(compare.ops, pairwise(sides), strict=True):
                if not isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE):
                    continue
                smaller = left if isinstance(op, ast.Lt | ast.LtE) else right
                if _reads_a_clock(smaller, timed):
                    found.append(ast.get_source_segment(source, node) or "")
    return sorted(set(found))


def test_the_wall_time_scan_finds_an_upper_bound_only() -> None:
    source = (
        "started = time.monotonic()\n"
        "assert time.monotonic() - started < 5\n"
        "seconds = time.perf_counter() - started\n"
        "assert 4.5 < seconds < 8\n"
        "assert 10 > seconds\n"
        "assert seconds >= 0.5\n"
        "assert len(items) < 3\n"
    )
    assert wall_time_bounds(source) == [
        "assert 10 > seconds",
        "assert 4.5 < seconds < 8",
        "assert time.monotonic() - started < 5",
    ]


def test_no_unit_test_bounds_a_wall_time() -> None:
    found = {
        (path.relative_to(REPO).as_posix(), bound)
        for path in modules_of_tests()
        if path.parent.name != "e2e"  # the real client: its own waits and deadlines
        for bound in wall_time_bounds(path.read_text(encoding="utf-8"))
    }
    assert found - set(TIMED_ALLOWED) == set(), "measure time in bench/, not in a test"
    assert set(TIMED_ALLOWED) <= found, "an allowance no longer needed: take it out"
