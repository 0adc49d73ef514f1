"""The one place tests run a command from: in-process through its ``main`` or click ``cli``,
or in a fresh process as ``python -m context_memory.<module>`` or as its console script.

- ``run_main(main, args, stdin)``: ``main(argv) -> int`` in-process, stdout and stderr
  captured by redirection (for code that writes text to sys.stdout and sys.stderr).
- ``captured(main)``: a ``run(capsys, *argv)`` for tests that capture with pytest's capsys
  (code that prints, and output pytest must see as the process's own).
- ``run_hook_main(monkeypatch, capsys, main, stdin)``: a hook's ``main`` in-process with
  ``stdin`` (a payload dict as JSON, text, or raw bytes) as its standard input.
- ``invoke(cli, args, stdin)``: a click command through click's CliRunner.
- ``run_module(module, *args, cwd=..., stdin=..., env=...)``: ``python -m
  context_memory.<module>`` in a fresh process, text in and out.
- ``run_console_script(command, *args, cwd=..., env=...)``: the console script of
  pyproject.toml in a fresh process, as its launcher runs it (``sys.exit(main())``).
- ``run_program(argv, cwd=..., env=..., stdin=...)``: any program (an installed launcher,
  ``./install``, ``sh -c``) in a fresh process; text, or bytes when ``stdin`` is bytes.
- ``assert_refused(result, stderr, untouched)``: a command's refusal, exit status 1 with
  exactly ``stderr``, that left the folder ``untouched`` empty.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, NamedTuple

import pytest

FRESH_PROCESS_TIMEOUT = 60


class Result(NamedTuple):
    exit_code: int
    stdout: str
    stderr: str


def assert_refused(result: Any, stderr: str, untouched: Path) -> None:
    """``result`` (this module's Result or click's) is a refusal: exit status 1, exactly
    ``stderr`` on stderr, and nothing written into the folder ``untouched``."""
    assert (result.exit_code, result.stderr) == (1, stderr)
    assert list(untouched.iterdir()) == []


def run_main(main: Callable[[list[str]], int], args: Sequence[str], stdin: str = "") -> Result:
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = saved_stdin
    return Result(code, out.getvalue(), err.getvalue())


def captured(
    main: Callable[[list[str]], int],
) -> Callable[..., Result]:
    """``run(capsys, *argv)``: ``main(argv)`` in-process, what it printed read from capsys."""

    def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Result:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return Result(code, out, err)

    return run


def run_hook_main(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    main: Callable[..., int],
    stdin: object,
    argv: Sequence[str] = (),
    **kwargs: Any,
) -> Result:
    """``main(argv, **kwargs)`` with ``stdin`` on sys.stdin: bytes as they are, text as
    UTF-8, anything else (a payload dict) as JSON."""
    if isinstance(stdin, bytes):
        raw = stdin
    elif isinstance(stdin, str):
        raw = stdin.encode("utf-8")
    else:
        raw = json.dumps(stdin).encode("utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    status = main(list(argv), **kwargs)
    out, err = capsys.readouterr()
    return Result(status, out, err)


def invoke(cli: Any, args: Sequence[str], stdin: str | bytes | None = None, **kwargs: Any) -> Any:
    """``cli`` (a click command) through click's CliRunner; returns click's Result."""
    from click.testing import CliRunner

    return CliRunner().invoke(cli, list(args), input=stdin, **kwargs)


def run_module(
    module: str,
    *args: str,
    cwd: Path | str,
    stdin: str = "",
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m context_memory.<module> ARGS`` in a fresh process (``env``: the whole
    environment, default conftest.subprocess_env())."""
    if env is None:
        from helpers.paths import subprocess_env

        env = subprocess_env()
    return subprocess.run(
        [sys.executable, "-m", f"context_memory.{module}", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(env),
        timeout=FRESH_PROCESS_TIMEOUT,
        check=False,
    )


def run_program(
    argv: Sequence[str],
    *,
    cwd: Path | str,
    env: Mapping[str, str],
    stdin: str | bytes | None = None,
) -> subprocess.CompletedProcess[Any]:
    """``argv`` in a fresh process, its output captured, never raising on its exit code:
    text in and out, or bytes when ``stdin`` is bytes (a hook's payload as the client
    sends it)."""
    return subprocess.run(
        list(argv),
        input=stdin,
        capture_output=True,
        text=not isinstance(stdin, bytes),
        cwd=cwd,
        env=dict(env),
        timeout=FRESH_PROCESS_TIMEOUT,
        check=False,
    )


def run_console_script(
    command: str,
    *args: str,
    cwd: Path | str,
    env: Mapping[str, str] | None = None,
    stdin: int | None = subprocess.DEVNULL,
    input_text: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``command`` (a console script of pyproject.toml) in a fresh process, as its launcher
    runs it: ``sys.exit(main())`` with the arguments in sys.argv; ``input_text`` (a hook's
    JSON) on its stdin instead of ``stdin``."""
    from helpers.paths import subprocess_env
    from hostile.harness import console_scripts

    module, function = console_scripts()[command].split(":")
    code = f"import sys\nfrom {module} import {function}\nsys.exit({function}())"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        env=subprocess_env() if env is None else dict(env),
        **({"input": input_text} if input_text is not None else {"stdin": stdin}),
        capture_output=True,
        text=True,
        timeout=FRESH_PROCESS_TIMEOUT,
        check=False,
    )


def run_in_terminal(
    code: str, *, cwd: Path | str, env: Mapping[str, str]
) -> subprocess.CompletedProcess[str]:
    """``python -c CODE`` in a fresh process whose stdin is a terminal (a pty), as when a
    user types a hook's or command's name by hand; stdout and stderr captured as text."""
    import os
    import pty

    leader, follower = pty.openpty()
    try:
        return subprocess.run(
            [sys.executable, "-c", code],
            stdin=follower,
            capture_output=True,
            text=True,
            cwd=cwd,
            env=dict(env),
            timeout=FRESH_PROCESS_TIMEOUT,
            check=False,
        )
    finally:
        os.close(follower)
        os.close(leader)
