"""No dead code (issue 28): every function, class and constant a module of the package
defines at its top level is named somewhere else in the package, in bin/ or in
pyproject.toml. A name only tests call is dead code kept alive by its test (issue 28 found
``memory/handoff.next_free_stage``, ``guard/index.load_entries``,
``settings_file.load_settings``): the test then tests what the package uses instead."""

from __future__ import annotations

import ast
import re
from collections import Counter

from helpers.paths import REPO

PACKAGE = REPO / "hooks" / "context_memory"
# Entry points: a console script's target (pyproject.toml) or run as ``python -m``.
ENTRY_NAMES = {"main", "cli"}
# (module, name) -> why it stays although nothing in the package names it.
ALLOWED: dict[tuple[str, str], str] = {}


def defined_names(tree: ast.Module) -> list[str]:
    """The names a module defines at its top level: functions, classes, constants."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [target.id for target in node.targets if isinstance(target, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return names


def unnamed(sources: dict[str, str], others: str) -> list[tuple[str, str]]:
    """(module, name) of each top-level name that no text but its own definition names."""
    words = Counter(re.findall(r"\w+", "\n".join([*sources.values(), others])))
    found = []
    for module, source in sorted(sources.items()):
        for name in defined_names(ast.parse(source)):
            if name in ENTRY_NAMES or name.startswith("__"):
                continue
            if words[name] <= 1:
                found.append((module, name))
    return found


def test_the_scan_finds_a_name_nothing_uses() -> None:
    sources = {
        "a.py": "def used():\n    pass\n\ndef unused():\n    pass\nLIMIT = 3\n",
        "b.py": "from a import used\n\nclass Kept:\n    pass\n",
    }
    assert unnamed(sources, "x = Kept()") == [("a.py", "unused"), ("a.py", "LIMIT")]


def test_every_top_level_name_of_the_package_is_used_by_it() -> None:
    sources = {
        path.relative_to(PACKAGE).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    others = "\n".join(
        path.read_text(encoding="utf-8")
        for path in [*sorted((REPO / "bin").iterdir()), REPO / "pyproject.toml"]
        if path.is_file()
    )
    found = [spot for spot in unnamed(sources, others) if spot not in ALLOWED]
    assert found == [], "dead code: delete it (and test what the package uses instead)"


def test_every_allowed_name_is_still_unused_elsewhere() -> None:
    """An allowance that is no longer needed is taken out, so it hides nothing later."""
    for module, name in ALLOWED:
        source = (PACKAGE / module).read_text(encoding="utf-8")
        assert name in defined_names(ast.parse(source)), (module, name)
        others = [
            path.read_text(encoding="utf-8")
            for path in PACKAGE.rglob("*.py")
            if path != PACKAGE / module
        ]
        assert not any(re.search(rf"\b{name}\b", text) for text in others), (module, name)
