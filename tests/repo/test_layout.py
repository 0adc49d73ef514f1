"""The package layout as docs/layout.md states it: packages in rank (each imports only
packages ranked below it, so the library never imports the entry points commands/ and
handlers/), no import cycle, package ``__init__`` files stay empty, no
module grows past ~450 lines without saying why; and every command answers ``--version``,
every hook ``--help`` and ``--version`` without running (nothing logged as a failure)."""

from __future__ import annotations

import ast
import os
import subprocess
from pathlib import Path

import pytest

from context_memory import __version__
from context_memory.core import exit_codes
from context_memory.core.command_table import COMMANDS, HOOKS
from helpers.cli_run import run_console_script
from helpers.paths import REPO, SAMPLE_TRANSCRIPT, subprocess_env
from hostile.harness import console_scripts

PACKAGE = REPO / "hooks" / "context_memory"
ENTRY_PACKAGES = ("commands", "handlers")
# The rank of every package, as docs/layout.md's table states it: a package imports only
# packages of a lower rank (top-level, lazy and TYPE_CHECKING imports alike); packages of
# the same rank do not import each other.
RANK = {
    "core": 0,
    "transcript": 1,
    "measure": 2,
    "memory": 2,
    "calls": 3,
    "capture": 4,
    "merge": 4,
    "pinned": 5,
    "guard": 5,
    "audit": 6,
    "setup": 7,
    "commands": 8,
    "handlers": 9,
}
LIBRARY_PACKAGES = tuple(name for name in RANK if name not in ENTRY_PACKAGES)
# setup/ is split by job: installing, ctx-doctor's checks, what the plugin runs at hook time.
SUBPACKAGES = ("setup/install", "setup/doctor", "setup/plugin")
MAX_LINES = 450
SIZE_REASON = "Size:"  # the docstring paragraph that says why a module is longer
# The hooks run as console scripts, from the one registry (a new hook is not listed here):
# each command with a by-hand guide that is a script (ctx-allow is the plugin's own).
HOOK_COMMANDS = tuple(c.name for c in COMMANDS if c.guide is not None and c.script)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(path: Path) -> set[str]:
    return imports_in(path.read_text(encoding="utf-8"))


def imports_in(source: str) -> set[str]:
    """The project modules ``source`` imports: at the top, inside a function, or under
    ``if TYPE_CHECKING:`` (ast.walk visits every statement)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("context_memory"):
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                found.add(name if name in MODULES else str(node.module))
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("context_memory."))
    return found - {"context_memory"}


GRAPH = {name: imports_of(path) for name, path in MODULES.items()}


def package_of(module: str) -> str:
    """``core`` for context_memory.core and context_memory.core.fsutil."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


PACKAGES = {package_of(name) for name in MODULES if name != "context_memory"}


def test_every_module_is_in_a_known_package() -> None:
    """The tree reads as the architecture: nothing at the top but the package's __init__,
    and every package has its rank."""
    assert set(RANK) == PACKAGES
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert top == ["__init__.py"]


def test_library_packages_never_import_entry_points() -> None:
    crossing = sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if package_of(name) in LIBRARY_PACKAGES
        for target in targets
        if package_of(target) in ENTRY_PACKAGES
    )
    assert crossing == []


def imports_against_rank(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a package of the same or a higher rank, as 'module imports target'."""
    return sorted(
        f"{name} imports {target}"
        for name, targets in graph.items()
        for target in targets
        if package_of(target) != package_of(name)
        if RANK.get(package_of(target), 99) >= RANK.get(package_of(name), -1)
    )


def test_packages_are_in_rank() -> None:
    assert imports_against_rank(GRAPH) == []


def test_rank_check_sees_a_break() -> None:
    """A package that imports one of the same rank, or one above it, is named."""
    graph = {
        "context_memory.memory.handoff": {"context_memory.merge.rules"},
        "context_memory.merge.sources": {"context_memory.memory.handoff"},
        "context_memory.audit.check": {"context_memory.memory.decisions"},
    }
    assert imports_against_rank(graph) == [
        "context_memory.memory.handoff imports context_memory.merge.rules",
    ]
    assert imports_against_rank({"context_memory.merge.run": {"context_memory.capture.x"}}) == [
        "context_memory.merge.run imports context_memory.capture.x"
    ]


def test_layout_doc_states_the_ranks() -> None:
    """docs/layout.md's rank table is this one: '| 2 | `measure`, `memory` | ... |' rows."""
    rows: dict[str, int] = {}
    for line in (REPO / "docs" / "layout.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and cells[0].isdigit():
            for name in cells[1].split(","):
                rows[name.strip().strip("`").rstrip("/")] = int(cells[0])
    assert rows == RANK


def test_the_graph_is_read_as_it_is_written() -> None:
    """The checks above can fail: a known edge is seen, including a lazy one and one under
    TYPE_CHECKING."""
    assert "context_memory.core.fsutil" in GRAPH["context_memory.memory.decisions"]
    assert "context_memory.commands.audit" in GRAPH["context_memory.handlers.audit"]
    source = (
        "TYPE_CHECKING = False\n"
        "if TYPE_CHECKING:\n    from context_memory.merge.rules import fold\n"
        "def f():\n    from context_memory.capture import store\n"
    )
    assert imports_in(source) == {"context_memory.merge.rules", "context_memory.capture.store"}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                found.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, path)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    return found


def test_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b", "a"]]


def test_no_import_cycle() -> None:
    assert cycles(GRAPH) == []


def test_package_init_files_stay_empty() -> None:
    """Each package on the prompt path costs an import; an empty one costs the least."""
    inits = [path for path in PACKAGE.rglob("__init__.py") if path.parent != PACKAGE]
    assert len(inits) == len(PACKAGES) + len(SUBPACKAGES)
    assert [str(path) for path in inits if path.read_text() != ""] == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_modules_stay_small_or_say_why(name: str) -> None:
    path = MODULES[name]
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if lines > MAX_LINES:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        assert any(line.startswith(SIZE_REASON) for line in doc.splitlines()), (
            f"{name}: {lines} lines; split it along its sections, or say why it is one "
            f"module in a '{SIZE_REASON}' paragraph of its docstring"
        )


SCRIPTS = console_scripts()


def run_entry(command: str, *args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``command`` (a console script of pyproject.toml) in a fresh process, as its launcher
    runs it: ``sys.exit(main())`` with the arguments in sys.argv."""
    return run_console_script(command, *args, cwd=cwd, env=subprocess_env(**env))


def test_every_hook_is_a_console_script() -> None:
    assert set(HOOK_COMMANDS) <= set(SCRIPTS)
    # Each registered hook, and the status line (a setting, not a hook event), has a guide.
    assert {spec.command for spec in HOOKS} | {"ctx-statusline"} == set(HOOK_COMMANDS)


@pytest.mark.parametrize("command", sorted(SCRIPTS))
def test_every_command_answers_version(command: str, tmp_path: Path) -> None:
    done = run_entry(command, "--version", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{command} {__version__}\n", "")


def test_install_answers_version_before_any_work(tmp_path: Path) -> None:
    """No virtualenv is made or checked: the answer comes first."""
    venv = tmp_path / "venv"
    done = subprocess.run(
        [str(REPO / "install"), "--version"],
        env=subprocess_env(CTX_VENV=str(venv), HOME=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    expected = f"install (context-memory) {__version__}\n"
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")
    assert not venv.exists()


@pytest.mark.parametrize("command", [c for c in HOOK_COMMANDS if c != "ctx-statusline"])
@pytest.mark.parametrize("option", ["--help", "-h", "--version"])
def test_hooks_answer_help_and_version_without_logging(
    command: str, option: str, tmp_path: Path
) -> None:
    """Typed by hand in a project with working state: an answer, exit 0, nothing in the
    hooks' log and no circuit-breaker count. Before: ctx-budget --help logged 'empty
    stdin' as a failed run."""
    project = tmp_path / "project"
    logs = project / ".working-state" / "logs"
    logs.mkdir(parents=True)
    done = run_entry(command, option, cwd=project, CLAUDE_PROJECT_DIR=str(project))
    assert (done.returncode, done.stderr) == (0, "")
    if option == "--version":
        assert done.stdout == f"{command} {__version__}\n"
    elif command == "ctx-audit":  # by hand it is also a command: click's help
        assert done.stdout.startswith("Usage: ctx-audit [OPTIONS] [TRANSCRIPT]")
    else:
        assert done.stdout.startswith(f"usage: {command} < HOOK_JSON\n\n")
        assert "always exits 0" in done.stdout
    assert sorted(os.listdir(logs)) == []
    assert sorted(os.listdir(project / ".working-state")) == ["logs"]


def test_statusline_help(tmp_path: Path) -> None:
    done = run_entry("ctx-statusline", "--help", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: ctx-statusline [--color | --no-color]")
    assert "  --version             print the version and exit\n" in done.stdout


def test_ctx_audit_tells_lost_from_could_not_run(tmp_path: Path) -> None:
    """1 means a decision was lost and nothing else: a transcript it cannot read is 2
    (before: 1, as for a loss)."""
    assert (exit_codes.AUDIT_LOST, exit_codes.AUDIT_COULD_NOT_RUN) == (1, 2)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (project / ".working-state").symlink_to(tmp_path / "elsewhere")  # refused: a link
    transcript = project / "t.jsonl"
    transcript.write_bytes(SAMPLE_TRANSCRIPT.read_bytes())
    done = run_entry("ctx-audit", str(transcript), cwd=project)
    assert (done.returncode, done.stdout) == (exit_codes.AUDIT_COULD_NOT_RUN, "")
    assert done.stderr == (
        f"Error: {project / '.working-state'} is a symbolic link: nothing is written through "
        f"it. Set CTX_STATE_DIR={tmp_path / 'elsewhere'} to keep the state there, or make it "
        "a real folder\n"
    )
