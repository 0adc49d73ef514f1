"""The real console path: each entry point as a whole process, as the client starts it
(exit status, stdout and stderr as the client sees them)."""

from __future__ import annotations

import json
import subprocess

import pytest

from helpers.paths import subprocess_env
from hostile.harness import (
    ENTRY_POINTS,
    Entry,
    Sandbox,
    check_invariants,
    console_command,
    run_console,
    snapshot,
)

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

CASES = (
    "empty",
    "not-json",
    "json-array",
    "wrong-types",
    "valid",
    "fifo-transcript",
    "dev-zero-transcript",
    "directory-transcript",
    "unsafe-session",
    "20-mb-of-junk",
)


def stdin_for(case: str, entry: Entry, sandbox: Sandbox) -> bytes:
    paths = sandbox.special_paths()
    payloads = {
        "valid": {},
        "fifo-transcript": {"transcript_path": paths["fifo"]},
        "dev-zero-transcript": {"transcript_path": paths["dev-zero"]},
        "directory-transcript": {"transcript_path": paths["directory"]},
        "unsafe-session": {"session_id": "../../etc"},
    }
    if case in payloads:
        return json.dumps(sandbox.payload(entry, **payloads[case])).encode()
    return {
        "empty": b"",
        "not-json": b"this is not json\n",
        "json-array": b"[1, 2, 3]",
        "wrong-types": b'{"session_id": 5, "transcript_path": [], "cwd": null}',
        "20-mb-of-junk": b"\xff{" * (10 * 1024 * 1024),
    }[case]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
def test_console_run(entry: Entry, sandbox: Sandbox, case: str) -> None:
    raw = stdin_for(case, entry, sandbox)
    sandbox.reset()
    before = snapshot(sandbox.root)
    run = run_console(entry, raw, sandbox)
    document = check_invariants(sandbox, entry, raw, run, before)
    if case == "valid":
        assert run.stderr == b""
        # Every entry point answers its valid payload, except Stop (it only writes files).
        assert (document is None) == (entry.event == "Stop")
    if case in ("not-json", "json-array", "20-mb-of-junk") and entry.is_hook:
        assert run.stdout == b""
        assert run.stderr.startswith(f"{entry.command}: HookInputError: ".encode())
    if case == "empty" and entry.is_hook:  # tried by hand: how to use it, not an error
        assert run.stdout == b""
        assert run.stderr.startswith(
            f"{entry.command}: no hook input on stdin, so nothing to do.\n".encode()
        )


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
def test_a_reader_that_went_away_is_not_an_error(entry: Entry, sandbox: Sandbox) -> None:
    """stdout closed before the hook writes (a client that gave up): still exit 0, quietly."""
    raw = json.dumps(sandbox.payload(entry)).encode()
    env = subprocess_env(**sandbox.env())
    process = subprocess.Popen(
        console_command(entry),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=sandbox.project,
        env=env,
    )
    assert process.stdout is not None and process.stdin is not None
    process.stdout.close()
    _, stderr = process.communicate(raw, timeout=60)
    assert process.returncode == 0, stderr
    assert b"Traceback" not in stderr and b"Exception ignored" not in stderr, stderr
