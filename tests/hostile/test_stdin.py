"""Hostile stdin for every entry point, in-process (fast): property tests and the awkward
transcript paths one by one."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile.harness import (
    ENTRY_POINTS,
    HOOK_ENTRIES,
    SPECIAL_PATH_NAMES,
    Entry,
    Sandbox,
    check_invariants,
    run_in_process,
    snapshot,
)
from hostile.strategies import hostile_stdin

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

# Moderate, so the suite stays quick; HOSTILE_EXAMPLES=1000 for a deeper search.
EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "50"))
SUPPRESS = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]


def run_case(sandbox: Sandbox, entry: Entry, raw: bytes) -> object:
    sandbox.reset()
    before = snapshot(sandbox.root)
    run = run_in_process(entry, raw)
    return check_invariants(sandbox, entry, raw, run, before)


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SUPPRESS)
@given(data=st.data())
def test_any_stdin_keeps_the_invariants(entry: Entry, sandbox: Sandbox, data: st.DataObject):
    raw = data.draw(hostile_stdin(entry, sandbox), label="stdin")
    run_case(sandbox, entry, raw)


# Paths a hook must refuse or skip without hanging, each named in the error line.
FAILING_PATHS = ("missing", "directory", "fifo", "dev-zero", "dev-null", "symlink-loop")


@pytest.mark.parametrize("name", SPECIAL_PATH_NAMES)
@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
def test_awkward_transcript_paths(entry: Entry, sandbox: Sandbox, name: str) -> None:
    path = sandbox.special_paths()[name]
    raw = json.dumps(sandbox.payload(entry, transcript_path=path)).encode()
    sandbox.reset()
    before = snapshot(sandbox.root)
    run = run_in_process(entry, raw)
    check_invariants(sandbox, entry, raw, run, before)
    if entry.command == "ctx-budget":
        # Before the client writes <session>.jsonl (first prompt) the context is empty:
        # silence. An unusable transcript is one clear line, never a hang or a traceback.
        if name in FAILING_PATHS:
            assert run.stdout == b"" and run.stderr.startswith(b"ctx-budget: "), run.stderr
        if name == "first-prompt":
            assert (run.stdout, run.stderr) == (b"", b"")
        if name in ("fifo", "dev-zero", "dev-null"):
            assert b"not a regular file" in run.stderr


@pytest.mark.parametrize("entry", HOOK_ENTRIES, ids=lambda e: e.id)
@pytest.mark.parametrize(
    "session", ["../../etc", "..", "/etc", "a/../../b", ".hidden", "x" * 300, "nul\x00id"]
)
def test_unsafe_session_ids_write_nothing_outside(entry: Entry, sandbox: Sandbox, session: str):
    raw = json.dumps(sandbox.payload(entry, session_id=session)).encode()
    run_case(sandbox, entry, raw)
    for escaped in (sandbox.project / "etc", sandbox.root / "etc", sandbox.root / "b"):
        assert not escaped.exists()


@pytest.mark.parametrize("entry", HOOK_ENTRIES, ids=lambda e: e.id)
def test_a_hook_run_for_another_event_stays_silent(entry: Entry, sandbox: Sandbox) -> None:
    """JSON for the wrong event would be discarded and shown as a hook error."""
    for event in ("SessionEnd", "SubagentStop", "PreToolUse", "Notification"):
        if event == entry.event:
            continue  # ctx-guard's own event
        raw = json.dumps(sandbox.payload(entry, hook_event_name=event)).encode()
        document = run_case(sandbox, entry, raw)
        assert document is None, (event, document)


def test_statusline_survives_a_huge_stdin(sandbox: Sandbox) -> None:
    entry = ENTRY_POINTS[-1]
    payload = sandbox.payload(entry, padding="x" * (5 * 1024 * 1024))
    run_case(sandbox, entry, json.dumps(payload).encode())


@pytest.mark.parametrize("entry", HOOK_ENTRIES, ids=lambda e: e.id)
def test_stdin_beyond_the_hook_limit_is_one_error_line(entry: Entry, sandbox: Sandbox) -> None:
    payload = sandbox.payload(entry, padding="x" * (17 * 1024 * 1024))
    raw = json.dumps(payload).encode()
    sandbox.reset()
    before = snapshot(sandbox.root)
    run = run_in_process(entry, raw)
    check_invariants(sandbox, entry, raw, run, before)
    assert run.stdout == b""
    # Cut off at the limit, the payload is not JSON: one line says so.
    assert run.stderr.startswith(f"{entry.command}: HookInputError: stdin is not JSON".encode())
