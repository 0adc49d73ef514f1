"""The state-location rule lives in core/state alone (docs/layout.md): which folder is the
state folder (CTX_STATE_DIR, else ``<project>/.working-state``, a link refused), the name
of every file and folder in it, and how a path in it is shown.

A source scan fails when another module spells one of those names in its code, so that
moving the state folder or renaming a file in it touches core/state only. Prose is not
code: docstrings (click shows a command's docstring as its help, like docs/ they describe
the usual layout) and comments are not scanned. Then the API itself, on real folders.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from context_memory.core import state
from helpers.paths import REPO

PACKAGE = REPO / "hooks" / "context_memory"
STATE_MODULE = PACKAGE / "core" / "state.py"
# The constants of core/state that name the folder, its variable, and what it holds.
NAME_SUFFIXES = ("_FILE", "_DIR", "_DIRNAME", "_ENV", "_LOG", "_MD", "_JSON")
NAMES = {
    name: value
    for name, value in vars(state).items()
    if name.isupper() and name.endswith(NAME_SUFFIXES) and isinstance(value, str)
}
# A name with a dot, a dash or an underscore ("decisions.jsonl", ".working-state",
# "CTX_STATE_DIR") is spelled nowhere else, in any string; a plain word ("sessions",
# "logs", "merged") is also a JSON key or a word of a message, so it counts only where it
# builds a path: an argument of a join call or an operand of ``/``.
DISTINCT = sorted({v for v in NAMES.values() if any(c in v for c in ".-_")}, key=len)
WORDS = {v for v in NAMES.values() if v not in DISTINCT}

# (module, the string) -> why it may spell a state name itself.
ALLOWED = {
    # The cache folder (~/.cache/context-memory, core/session_registry), not the state
    # folder: its "sessions" is a folder of its own that happens to share the word.
    ("core/session_registry.py", "sessions"): "the cache folder's sessions/, not the state's",
    # The by-hand guides of two hooks name where they keep things. core/command_table
    # imports nothing (bin/ctx-run reads the registry before anything else is loaded): a
    # help text, like a docstring, says the usual place.
    (
        "core/command_table.py",
        "after each reply and before a compaction it keeps the session's facts (files, "
        "decisions) in the handoff draft under .working-state/",
    ): "a help text of the import-free registry",
    (
        "core/command_table.py",
        "at the start of a session it points the model at the working state (plan, "
        "handoff, decisions) under .working-state/",
    ): "a help text of the import-free registry",
}


def module_docstrings(tree: ast.Module) -> set[int]:
    """ids of the docstring nodes: prose, not code."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def path_words(tree: ast.Module) -> set[int]:
    """ids of the string constants that build a path: join(...) arguments, ``/`` operands,
    the items of a tuple of path parts handed to join(*...)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        parts: list[ast.expr] = []
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("join", "joinpath", "Path", "PurePath"):
                parts = list(node.args)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            parts = [node.left, node.right]
        found.update(id(part) for part in parts if isinstance(part, ast.Constant))
    return found


def named_words(tree: ast.Module) -> set[int]:
    """ids of the strings a constant named like core/state's is set to (``CAPTURE_DIR =
    "capture"``): a second table of the state folder's names."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            if any(t.isupper() and t.endswith(NAME_SUFFIXES) for t in targets):
                found.add(id(node.value))
    return found


def spellings(path: Path) -> list[tuple[int, str]]:
    """(line, string) for each state name this module's code spells."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = module_docstrings(tree)
    builds_path = path_words(tree) | named_words(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if id(node) in prose:
            continue
        text = node.value
        if any(name in text for name in DISTINCT) or (text in WORDS and id(node) in builds_path):
            found.append((node.lineno, text))
    return found


def test_the_scan_sees_what_it_looks_for() -> None:
    """The names come from core/state, and a spelled one is found (so the scan can fail)."""
    assert {".working-state", "CTX_STATE_DIR", "decisions.jsonl", "current-plan.md"} <= set(
        DISTINCT
    )
    assert {"sessions", "logs", "handoffs", "merged", "capture"} <= WORDS
    assert spellings(STATE_MODULE)  # the one module that spells them
    sample = ast.parse('x = os.path.join(d, "sessions")\ny = {"logs": 1}\nLOGS_DIR = "logs"')
    assert [n.value for n in ast.walk(sample) if id(n) in path_words(sample)] == ["sessions"]
    assert [n.value for n in ast.walk(sample) if id(n) in named_words(sample)] == ["logs"]


def test_only_core_state_spells_the_state_folder_and_its_names() -> None:
    spelled: dict[str, list[tuple[int, str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if path == STATE_MODULE:
            continue
        found = [(line, text) for line, text in spellings(path) if (module, text) not in ALLOWED]
        if found:
            spelled[module] = found
    assert spelled == {}, "ask core/state for these names (or allow one with the reason)"


def test_every_allowed_spot_is_still_there() -> None:
    """An allowance whose string is gone would hide the next real spelling: kept exact."""
    for module, text in ALLOWED:
        assert text in [t for _, t in spellings(PACKAGE / module)], (module, text)


# -- the API ---------------------------------------------------------------------------------


@pytest.fixture
def no_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(state.STATE_DIR_ENV, raising=False)


def test_state_dir_of_a_project(tmp_path: Path, no_override: None) -> None:
    assert state.state_dir_of(str(tmp_path)) == str(tmp_path / ".working-state")
    assert state.usual_state_dir(str(tmp_path / "a" / "..")) == str(tmp_path / ".working-state")


def test_the_variable_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CTX_STATE_DIR", "elsewhere")
    assert state.state_dir_override() == str(tmp_path / "elsewhere")
    assert state.state_dir_of("/nowhere") == str(tmp_path / "elsewhere")
    assert state.resolve_state_dir("/nowhere") == str(tmp_path / "elsewhere")
    monkeypatch.setenv("CTX_STATE_DIR", "")
    assert state.state_dir_override() is None


def test_a_linked_state_folder_is_refused_unless_asked_not_to(
    tmp_path: Path, no_override: None
) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / ".working-state").symlink_to(tmp_path / "real")
    with pytest.raises(state.UnsafeStateDirError, match=r"CTX_STATE_DIR=.*real"):
        state.state_dir_of(str(tmp_path))
    assert state.state_dir_of(str(tmp_path), refuse_link=False) == str(tmp_path / ".working-state")


def test_paths_are_shown_from_the_project_for_the_usual_folder(tmp_path: Path) -> None:
    usual = str(tmp_path / "p" / ".working-state")
    log = os.path.join(usual, "decisions.jsonl")
    assert state.usual_project(usual + "/") == str(tmp_path / "p")
    assert state.shown_state_path(usual, log) == ".working-state/decisions.jsonl"
    assert state.shown_state_path(usual) == ".working-state"
    elsewhere = str(tmp_path / "kept")
    assert state.usual_project(elsewhere) is None
    assert state.shown_state_path(elsewhere, elsewhere + "/decisions.jsonl") == (
        elsewhere + "/decisions.jsonl"
    )
    assert state.shown_state_path(elsewhere) == elsewhere


def test_relative_path_only_below_the_base(tmp_path: Path) -> None:
    assert state.relative_path(str(tmp_path / "a" / "b"), str(tmp_path)) == "a/b"
    assert state.relative_path(str(tmp_path / "ab"), str(tmp_path / "a")) == str(tmp_path / "ab")
    assert state.relative_path(str(tmp_path), str(tmp_path)) == str(tmp_path)
    assert state.relative_path(str(tmp_path / "x"), None) == str(tmp_path / "x")


def test_state_dir_in_a_given_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule for a folder already chosen (a session's recorded one, ctx-* by hand):
    CTX_STATE_DIR wins, else the folder, refused when it is a link."""
    monkeypatch.delenv(state.STATE_DIR_ENV, raising=False)
    recorded = tmp_path / "recorded"
    assert state.state_dir_in(str(recorded)) == str(recorded)  # need not exist yet
    (tmp_path / "real").mkdir()
    linked = tmp_path / "linked"
    linked.symlink_to(tmp_path / "real")
    with pytest.raises(state.UnsafeStateDirError, match=r"linked is a symbolic link"):
        state.state_dir_in(str(linked))
    assert state.state_dir_in(str(linked), refuse_link=False) == str(linked)
    monkeypatch.setenv("CTX_STATE_DIR", str(tmp_path / "kept"))
    assert state.state_dir_in(str(linked)) == str(tmp_path / "kept")


def test_the_decisions_log_s_path(tmp_path: Path) -> None:
    assert state.decisions_path(str(tmp_path)) == str(tmp_path / "decisions.jsonl")
    assert state.decisions_path(tmp_path / "s") == str(tmp_path / "s" / "decisions.jsonl")
