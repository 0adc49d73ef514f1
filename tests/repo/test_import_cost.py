"""What each hot entry point imports: measured with ``python -X importtime`` at import, and
from sys.modules after a real run that does not need the heavy modules.

Hot entry points run before every prompt, at every stop, on every status refresh: they stay
on the standard library and import click, orjson, filelock (and the slower standard modules
below) only where a write or a by-hand command needs them. ``-S`` keeps site-packages .pth
files out of the measurement.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

from context_memory.core.prompt_tables import AUDIT_PENDING_MARK
from helpers.paths import run_bare_python, subprocess_env
from hostile.harness import ENTRY_POINTS, Entry, Sandbox, entry_for, seeded_sandbox

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

# Third-party modules a hook must not pay for before it needs them.
THIRD_PARTY = ("click", "orjson", "filelock")
# Standard modules this project keeps off the hook paths (each costs a few ms to import).
SLOW_STANDARD = ("typing", "dataclasses", "pathlib", "argparse", "subprocess", "difflib", "uuid")
# Imported only to write a file atomically (fsutil.atomic_write).
WRITE_ONLY = ("tempfile", "shutil")
HOT_MODULES = tuple(dict.fromkeys(entry.module for entry in ENTRY_POINTS))


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    return seeded_sandbox(tmp_path, monkeypatch)


def imported_modules(module: str, *also: str) -> dict[str, int]:
    """Top-level module name -> cumulative import time (µs), from ``-X importtime``."""
    done = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", "-c", "import " + ", ".join((module, *also))],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=60,
        check=True,
    )
    found: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line[len("import time:") :].split("|")
        found.setdefault(name.strip().split(".")[0], int(cumulative))
    assert module.split(".")[0] in found, done.stderr
    return found


def test_importtime_is_parsed() -> None:
    """The parser sees what a module really imports (so the checks below can fail)."""
    found = imported_modules("context_memory.handlers.budget", "argparse", "json")
    assert {"context_memory", "json", "argparse"} <= set(found)
    assert found["context_memory"] > 0


@pytest.mark.parametrize("module", HOT_MODULES)
def test_hot_entry_point_imports_stay_light(module: str) -> None:
    found = imported_modules(module)
    heavy = sorted(set(found) & {*THIRD_PARTY, *SLOW_STANDARD, *WRITE_ONLY})
    assert heavy == [], f"{module} imports {heavy} at import time"


# Before every prompt and every status-line refresh: not even ``re`` (which ``json``
# imports, with ``enum``): in a clean virtualenv it costs 40% of the interpreter's start.
# Nor ``os`` (core/lightos): with _collections_abc, stat and posixpath, 2 ms of CPU.
# ctx-guard: before every tool call, several per turn.
PROMPT_PATH_MODULES = (
    "context_memory.handlers.budget",
    "context_memory.handlers.statusline",
    "context_memory.handlers.guard",
)


@pytest.mark.parametrize("module", PROMPT_PATH_MODULES)
def test_prompt_path_does_not_import_re_or_json(module: str) -> None:
    found = imported_modules(module)
    heavy = {"re", "json", "enum", "os", "stat", "posixpath", "_collections_abc"}
    assert sorted(set(found) & heavy) == [], f"{module} imports {sorted(found)}"


# The package's big modules that the prompt path reaches only through their small parts:
# core/prompt_tables (not tables' audit word lists), core/fsread (not fsutil's writers).
PROMPT_PATH_AVOIDS = ("context_memory.core.tables", "context_memory.core.fsutil")


@pytest.mark.parametrize("module", PROMPT_PATH_MODULES)
def test_prompt_path_imports_neither_tables_nor_fsutil(module: str) -> None:
    code = f"import sys, {module}; print(' '.join(sorted(sys.modules)))"
    done = run_bare_python(code, check=True)
    loaded = set(done.stdout.split())
    assert module in loaded and "context_memory.core.hookio" in loaded  # the check can fail
    assert sorted(loaded & set(PROMPT_PATH_AVOIDS)) == []


RUN_AND_LIST = """
import io, sys
from {module} import {function} as main
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
main([])
sys.stdout.flush()
print("\\nMODULES " + " ".join(sorted(sys.modules)))
"""


def modules_after_run(
    entry: Entry, sandbox: Sandbox, payload: dict[str, object], **env: str
) -> set[str]:
    """The top-level modules loaded by one run (all_modules_after_run: every module)."""
    return {m for m in all_modules_after_run(entry, sandbox, payload, **env) if "." not in m}


def all_modules_after_run(
    entry: Entry, sandbox: Sandbox, payload: dict[str, object], **env: str
) -> set[str]:
    code = RUN_AND_LIST.format(module=entry.module, function=entry.function)
    run_env = subprocess_env(**{**sandbox.env(), **env})
    # -S skips the .pth files (they import what they like); the packages stay importable.
    run_env["PYTHONPATH"] = os.pathsep.join([run_env["PYTHONPATH"], *site.getsitepackages()])
    done = run_bare_python(code, json.dumps(payload), env=run_env, cwd=sandbox.project)
    # No error line: the run did its whole work, it did not fail early.
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return set(done.stdout.rsplit("MODULES ", 1)[1].split())


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
def test_a_real_run_loads_no_third_party_module(entry: Entry, sandbox: Sandbox) -> None:
    """Full work in the seeded sandbox (injections, audits, extracts): still no click or
    orjson, and filelock only where a handoff stage is written under its lock."""
    loaded = modules_after_run(entry, sandbox, sandbox.payload(entry))
    # Writing a handoff stage takes its lock: filelock, and what filelock itself imports.
    allowed = (
        {"filelock", "typing", "dataclasses", "pathlib"}
        if entry.command == "ctx-extract"
        else set()
    )
    assert sorted(loaded & ({*THIRD_PARTY, *SLOW_STANDARD} - allowed)) == []


@pytest.mark.parametrize(
    ("command", "event"),
    [
        ("ctx-budget", "UserPromptSubmit"),
        ("ctx-extract", "Stop"),
        ("ctx-restore", "SessionStart"),
        ("ctx-statusline", "StatusLine"),
    ],
)
def test_a_run_that_writes_nothing_imports_no_writer(
    command: str, event: str, sandbox: Sandbox
) -> None:
    """The common run: a prompt in the free band, a stop between extractions, a status
    refresh that changes nothing. No lock, no temporary files: none of their modules."""
    entry = entry_for(command, event)
    sandbox.write_transcript(sandbox.base_transcript.replace(b"168000", b"8000"))
    for mark in sandbox.state.rglob(AUDIT_PENDING_MARK):
        mark.unlink()  # no compaction audit waiting to be claimed
    payload = sandbox.payload(entry)
    if not entry.is_hook:
        modules_after_run(entry, sandbox, payload)  # the first refresh records the window
    loaded = modules_after_run(entry, sandbox, payload, COMPACTION_EXTRACT_INTERVAL="0")
    assert sorted(loaded & {*THIRD_PARTY, *SLOW_STANDARD, *WRITE_ONLY}) == []


# What the prompt path adds to a bare interpreter's modules (``python -S``: no ``os`` either),
# besides the package itself: ``__future__`` (its annotations import), the C JSON scanner
# behind core/lightjson, and ``errno`` (built in). Not ``os`` (core/lightos stands in for
# it: ``os`` brings _collections_abc, stat and posixpath, an eighth of ``python -c pass``).
PROMPT_PATH_STANDARD = {"__future__", "_json", "errno"}
BARE_MODULES_CODE = "import sys; print(' '.join(m for m in sys.modules if '.' not in m))"


@pytest.mark.parametrize(
    ("command", "event"), [("ctx-budget", "UserPromptSubmit"), ("ctx-statusline", "StatusLine")]
)
def test_the_prompt_path_adds_exactly_these_standard_modules(
    command: str, event: str, sandbox: Sandbox
) -> None:
    """A common run (free band; a status refresh that changes nothing; the session already
    registered): exactly PROMPT_PATH_STANDARD beyond what ``python -S -c pass`` loads."""
    entry = entry_for(command, event)
    sandbox.write_transcript(sandbox.base_transcript.replace(b"168000", b"8000"))
    for mark in sandbox.state.rglob(AUDIT_PENDING_MARK):
        mark.unlink()
    payload = sandbox.payload(entry)
    modules_after_run(entry, sandbox, payload)  # registers the session, records the window
    loaded = modules_after_run(entry, sandbox, payload)
    bare = run_bare_python(BARE_MODULES_CODE, check=True).stdout.split()
    assert "os" not in bare  # the comparison is with an interpreter that has not loaded it
    assert sorted(loaded - set(bare) - {"context_memory"}) == sorted(PROMPT_PATH_STANDARD)


def test_a_prompt_at_the_compaction_threshold_reads_decisions_without_json_or_re(
    sandbox: Sandbox,
) -> None:
    """At the threshold ctx-budget reads decisions.jsonl and writes what it injected: still
    on lightjson, and its own temp-file write (fsutil's tempfile pulls in ``re``)."""
    entry = entry_for("ctx-budget", "UserPromptSubmit")
    for mark in sandbox.state.rglob(AUDIT_PENDING_MARK):
        mark.unlink()  # no compaction audit waiting: that path may load json
    assert b"168000" in sandbox.base_transcript  # above the 167,000 threshold
    loaded = modules_after_run(entry, sandbox, sandbox.payload(entry))
    folder = sandbox.state / "sessions" / sandbox.payload(entry)["session_id"]
    assert (folder / "turn-start-injection.json").exists()  # the path was taken
    heavy = {*THIRD_PARTY, *SLOW_STANDARD, *WRITE_ONLY, "re", "json", "enum"}
    assert sorted(loaded & heavy) == []


# What ctx-guard needs only when a call names something a record rules out (the matcher,
# the shell reader, the tables) or when the log changed (the index builder, the log reader).
GUARD_SLOW_PATH = (
    "context_memory.guard.match",
    "context_memory.calls.shell",
    "context_memory.calls.acts",
    "context_memory.calls.manifests",
    "context_memory.calls.directives",
    "context_memory.core.call_tables",
    "context_memory.core.directive_tables",
    "context_memory.core.prompt_tables",
    "context_memory.core.subject",
    "context_memory.memory.constraint",
    "context_memory.guard.entries",
    "context_memory.core.tables",
    "context_memory.core.fsutil",
    "context_memory.core.decisions_log",
    "context_memory.memory.decisions",
)
# Everything a judged Bash call loads past the fast path (issue 27's ask, 1.3x python -c
# pass at most): the matcher, what a call acts on with its tables, the subject model
# without the record model, the one text rule. One module more is about 0.1 ms.
GUARD_JUDGED_MODULES = {
    "context_memory.calls",
    "context_memory.calls.acts",
    "context_memory.calls.shell",
    "context_memory.core.call_tables",
    "context_memory.core.safe_text",
    "context_memory.guard.match",
    "context_memory.core.subject",
}


def guard_run(sandbox: Sandbox, command: str) -> tuple[set[str], Path]:
    entry = entry_for("ctx-guard", "PreToolUse")
    payload = sandbox.payload(entry)
    payload["tool_input"] = {"command": command}
    return all_modules_after_run(entry, sandbox, payload), sandbox.state / "guard-index.json"


def test_a_guarded_call_that_names_nothing_ruled_out_loads_only_the_fast_path(
    sandbox: Sandbox,
) -> None:
    """The common call, the index fresh: no json, no re, none of the slow path's modules."""
    first, index = guard_run(sandbox, "pip install codis")  # builds the index: slow path
    assert index.exists()
    assert "context_memory.guard.entries" in first  # the check below can fail
    loaded, _ = guard_run(sandbox, "pip install redis-py-cluster")
    heavy = {*THIRD_PARTY, *SLOW_STANDARD, *WRITE_ONLY, "re", "json", "enum"}
    assert sorted(loaded & {*heavy, *GUARD_SLOW_PATH}) == []
    assert {"context_memory.guard.index", "context_memory.handlers.guard"} <= loaded


def test_a_guarded_call_that_is_judged_loads_no_json_or_re(sandbox: Sandbox) -> None:
    guard_run(sandbox, "pip install codis")
    loaded, _ = guard_run(sandbox, "pip install codis")
    assert "context_memory.guard.match" in loaded  # it was judged (a reminder: ctx-decide)
    heavy = {*THIRD_PARTY, *SLOW_STANDARD, *WRITE_ONLY, "re", "json", "enum"}
    assert sorted(loaded & {*heavy, "context_memory.memory.decisions"}) == []


def test_a_judged_call_loads_only_the_matcher_past_the_fast_path(sandbox: Sandbox) -> None:
    """The budget of the guard's ask path, module by module: a judged call loads exactly
    GUARD_JUDGED_MODULES more than a call no record names (no record model, no directive
    tables, no prompt tables, not one module of the standard library)."""
    guard_run(sandbox, "pip install codis")  # builds the index
    fast, _ = guard_run(sandbox, "pip install redis-py-cluster")
    judged, _ = guard_run(sandbox, "pip install codis")
    assert sorted(judged - fast) == sorted(GUARD_JUDGED_MODULES)
    assert fast - judged == set()
