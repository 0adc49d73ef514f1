"""Damaged transcripts for every entry point: cut at any byte, random bytes spliced in,
CRLF, no final newline, invalid UTF-8, lines of 10 MB and more; and the byte bound every
hook puts on its reading."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from context_memory.transcript.rows import BLOCK_SIZE, MAX_LINE_BYTES
from helpers import transcript_rows as tr
from hostile.harness import (
    ENTRY_POINTS,
    Entry,
    Sandbox,
    check_invariants,
    entry_for,
    run_in_process,
    snapshot,
    transcript_bytes,
)
from hostile.strategies import damaged_transcript

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "40"))
SUPPRESS = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]
MB = 1024 * 1024


def run_on(sandbox: Sandbox, entry: Entry, transcript: bytes) -> object:
    sandbox.reset()
    sandbox.write_transcript(transcript)
    raw = json.dumps(sandbox.payload(entry)).encode()
    before = snapshot(sandbox.root)
    run = run_in_process(entry, raw)
    return check_invariants(sandbox, entry, raw, run, before)


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SUPPRESS)
@given(data=st.data())
def test_any_damaged_transcript_keeps_the_invariants(
    entry: Entry, sandbox: Sandbox, data: st.DataObject
) -> None:
    transcript = data.draw(damaged_transcript(sandbox.base_transcript), label="transcript")
    run_on(sandbox, entry, transcript)


def budget_context(document: object) -> str:
    assert isinstance(document, dict), document
    return str(document["hookSpecificOutput"]["additionalContext"])


def long_row(size: int) -> dict[str, object]:
    """A tool result row of about ``size`` bytes (a huge file read back)."""
    _, tool_id = tr.tool_call("Read", {"file_path": "/var/log/huge.log"})
    return tr.tool_result(tool_id, "y" * size)


@pytest.mark.parametrize(
    ("name", "tail"),
    [
        ("a 10 MB row last", lambda: [long_row(10 * MB)]),
        ("a 10 MB row without its newline", lambda: [long_row(10 * MB)]),
        ("a row longer than the line bound", lambda: [long_row(MAX_LINE_BYTES + MB)]),
        ("10 MB of garbage without a newline", None),
    ],
)
@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
def test_huge_last_lines(entry: Entry, sandbox: Sandbox, name: str, tail) -> None:
    """The reply before the huge line is still found (and the line never read whole twice)."""
    base = sandbox.base_transcript
    if tail is None:
        transcript = base + b"\x8f{garbage" * (MB + 1)
    else:
        transcript = base + transcript_bytes(tail())
        if "without" in name:
            transcript = transcript.rstrip(b"\n")
    document = run_on(sandbox, entry, transcript)
    if entry.command == "ctx-budget":
        assert "[CONTEXT BUDGET] ~171K/200K (85.4%)" in budget_context(document)


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
def test_crlf_and_no_final_newline_read_as_usual(entry: Entry, sandbox: Sandbox) -> None:
    transcript = sandbox.base_transcript.replace(b"\n", b"\r\n").rstrip(b"\r\n")
    document = run_on(sandbox, entry, transcript)
    if entry.command == "ctx-budget":
        assert "[CONTEXT BUDGET] ~171K/200K (85.4%)" in budget_context(document)


# -- the byte bound --------------------------------------------------------------------------


def rchar() -> int:
    """Bytes this process has read through read() calls (page cache included)."""
    with open("/proc/self/io", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


def bytes_read(entry: Entry, sandbox: Sandbox) -> int:
    sandbox.reset()
    raw = json.dumps(sandbox.payload(entry)).encode()
    run_in_process(entry, raw)  # warm: lazy imports read their files once
    sandbox.reset()
    before_snapshot = snapshot(sandbox.root)
    start = rchar()
    run = run_in_process(entry, raw)
    read = rchar() - start
    check_invariants(sandbox, entry, raw, run, before_snapshot)
    return read


def far_back_transcript(sandbox: Sandbox, filler_bytes: int) -> bytes:
    """The only reply at the start, then ``filler_bytes`` of rows a scan must pass over."""
    head = sandbox.base_transcript
    filler = transcript_bytes([tr.user("more " * 200), *tr.bookkeeping()])
    return head + filler * (filler_bytes // len(filler) + 1)


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
def test_every_hook_bounds_its_reading(
    entry: Entry, sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CTX_MAX_SCAN_BYTES bounds each scan: a 24 MB transcript costs ~1 MB per scan."""
    limit = 1 * MB
    sandbox.write_transcript(far_back_transcript(sandbox, 24 * MB))
    monkeypatch.setenv("CTX_MAX_SCAN_BYTES", str(limit))
    read = bytes_read(entry, sandbox)
    # A hook scans the transcript at most three times (context, facts, compaction).
    assert read <= 3 * (limit + BLOCK_SIZE) + MB, f"{entry.id} read {read:,} bytes"


def test_the_bound_is_what_stops_the_budget_scan(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a tight bound ctx-budget reads back to the reply: the bound does the work."""
    budget = entry_for("ctx-budget", "UserPromptSubmit")
    sandbox.write_transcript(far_back_transcript(sandbox, 24 * MB))
    assert bytes_read(budget, sandbox) > 24 * MB
    monkeypatch.setenv("CTX_MAX_SCAN_BYTES", str(MB))
    assert bytes_read(budget, sandbox) <= MB + 2 * BLOCK_SIZE + MB


def test_past_the_bound_the_budget_gives_up_quietly(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    budget = entry_for("ctx-budget", "UserPromptSubmit")
    sandbox.write_transcript(far_back_transcript(sandbox, 4 * MB))
    monkeypatch.setenv("CTX_MAX_SCAN_BYTES", str(MB))
    sandbox.reset()
    raw = json.dumps(sandbox.payload(budget)).encode()
    run = run_in_process(budget, raw)
    # No reply within the bound: no measurement, no instruction, no error; only the
    # pending compaction audit (its own bounded read) is injected.
    assert run.stderr == b""
    context = json.loads(run.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("[COMPACT AUDIT]") and "[CONTEXT BUDGET]" not in context
