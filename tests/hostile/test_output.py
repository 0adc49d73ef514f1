"""Where the output goes wrong: a reader that has gone, a stdout that is not UTF-8, a closed
or terminal stdin, a chained status line that leaves a child behind, an absurd CTX_WINDOW.

Every case is a fresh process started the way the client starts it, with PYTHONUNBUFFERED
unset (a user's shell does not set it; with it set, the broken-pipe bug never shows).
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import time
from pathlib import Path

import pytest

from context_memory.core.hookio import by_hand_text
from helpers.cli_run import run_module
from helpers.paths import SAMPLE_TRANSCRIPT, subprocess_env
from hostile.harness import Entry, Sandbox, console_command, entry_for

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

STATUSLINE = entry_for("ctx-statusline", "StatusLine")
RESTORE = entry_for("ctx-restore", "SessionStart")
STEERING = entry_for("ctx-extract", "PreCompact")


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Sandbox:
    box = Sandbox(tmp_path_factory.mktemp("faults") / "box").build()
    box.reset()
    return box


def env_for(box: Sandbox, **extra: str) -> dict[str, str]:
    env = subprocess_env(**box.env(), **extra)
    env.pop("PYTHONUNBUFFERED", None)
    return env


def start(entry: Entry, box: Sandbox, *args: str, **popen: object) -> subprocess.Popen[bytes]:
    command = console_command(entry)
    # The installed command line, run through sh -c: arguments go at its end, quoted.
    command[-1] += "".join(" " + shlex.quote(arg) for arg in args)
    env = popen.pop("env", None) or env_for(box)
    return subprocess.Popen(command, cwd=box.project, env=env, **popen)  # type: ignore[call-overload]


def output_of(entry: Entry, box: Sandbox, **extra: str) -> subprocess.CompletedProcess[bytes]:
    box.reset()
    return subprocess.run(
        console_command(entry),
        input=json.dumps(box.payload(entry)).encode(),
        cwd=box.project,
        env=env_for(box, **extra),
        capture_output=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("entry", [STATUSLINE, RESTORE, STEERING], ids=lambda e: e.command)
def test_a_reader_that_went_away_is_exit_0(box: Sandbox, entry: Entry) -> None:
    """Before: 120 (the flush error was caught, the buffer kept, Python's flush at exit
    failed again)."""
    assert output_of(entry, box).stdout, "the case must have output to lose"
    box.reset()
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone
    try:
        proc = start(entry, box, stdin=subprocess.PIPE, stdout=write_end, stderr=subprocess.PIPE)
    finally:
        os.close(write_end)
    _, err = proc.communicate(json.dumps(box.payload(entry)).encode(), timeout=60)
    assert proc.returncode == 0, err
    assert b"Traceback" not in err


@pytest.mark.parametrize("entry", [STATUSLINE, STEERING], ids=lambda e: e.command)
@pytest.mark.parametrize(
    "setting", [{"PYTHONIOENCODING": "ascii"}, {"LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0"}]
)
def test_a_stdout_that_is_not_utf8_still_gets_the_text(
    box: Sandbox, entry: Entry, setting: dict[str, str]
) -> None:
    """The client reads UTF-8 whatever the hook's locale: the same bytes as in a UTF-8
    locale, CJK text included. Before: an ASCII stdout dropped the line (UnicodeEncodeError,
    failed open)."""
    utf8 = output_of(entry, box, CTX_LANG="zh", PYTHONIOENCODING="utf-8")
    assert utf8.returncode == 0
    text = utf8.stdout.decode("utf-8")
    if entry is STEERING:
        assert any(0x4E00 <= ord(ch) <= 0x9FFF for ch in text), text  # CJK steering text
    else:
        assert any(ord(ch) > 0x7F for ch in text), text  # the bar's block characters
    other = output_of(entry, box, CTX_LANG="zh", **setting)
    assert (other.returncode, other.stderr) == (0, b"")
    assert other.stdout == utf8.stdout


def test_ctx_audit_with_stdin_closed_is_the_hook_and_typed_in_a_terminal_by_hand(
    box: Sandbox,
) -> None:
    """stdin closed: the hook, which says how to try it (exit 0). stdin a terminal: the
    client always pipes its JSON, so a person typed it: the by-hand audit of the newest
    session of the folder (issue 25, item 12): the sandbox's transcript, exit 1 (lost)."""
    audit = entry_for("ctx-audit", "PostCompact")
    message = by_hand_text("ctx-audit").encode()  # the guide of a hook tried by hand
    command = console_command(audit)
    command[-1] += " <&-"  # stdin closed, as a shell does it
    closed = subprocess.run(
        command,
        cwd=box.project,
        env=env_for(box),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert (closed.returncode, closed.stdout, closed.stderr) == (0, b"", message)
    controller, terminal = os.openpty()
    try:
        proc = start(audit, box, stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(terminal)
        os.close(controller)
    assert (proc.returncode, err) == (1, b""), out  # the sandbox's session lost decisions
    assert out.startswith(b"Compaction "), out


def test_chain_timeout_holds_when_a_child_keeps_the_pipe(box: Sandbox, tmp_path: Path) -> None:
    """The chained command prints, then leaves a child holding its stdout. Before: reading
    waited for that child (60 s here), far past the 5 s timeout."""
    marker = tmp_path / "child.pid"
    chained = f"echo theirs; sleep 60 & echo $! > '{marker}'; exit 0"
    box.reset()
    proc = start(
        STATUSLINE,
        box,
        "--chain",
        chained,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        out, err = proc.communicate(json.dumps(box.payload(STATUSLINE)).encode(), timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    lines = out.decode().splitlines()
    assert lines[0] == "theirs" and len(lines) == 2, lines
    # It returned while the child still held the pipe: it did not wait for the child.
    child = int(marker.read_text())
    try:
        os.kill(child, 0)
    finally:
        try:
            os.kill(child, signal.SIGKILL)
        except ProcessLookupError:
            pass
    child = int(marker.read_text())
    time.sleep(0.2)
    assert (
        not os.path.exists(f"/proc/{child}")
        or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]
    )


def test_an_infinite_ctx_window_is_ignored_with_a_message(tmp_path: Path) -> None:
    """Before: CTX_WINDOW=1.0e999 made ctx-usage die with an OverflowError."""
    env = subprocess_env(CTX_WINDOW="1.0e999")
    env.pop("PYTHONUNBUFFERED", None)
    done = run_module("commands.usage", str(SAMPLE_TRANSCRIPT), cwd=tmp_path, env=env)
    plain = run_module(
        "commands.usage",
        str(SAMPLE_TRANSCRIPT),
        cwd=tmp_path,
        env={k: v for k, v in env.items() if k != "CTX_WINDOW"},
    )
    assert (done.returncode, done.stdout) == (0, plain.stdout)
    assert done.stderr == (
        "ctx-usage: CTX_WINDOW='1.0e999' is not a usable number of tokens (a whole number "
        "such as 200000); ignored\n"
    )
