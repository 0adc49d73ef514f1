"""Run a ``main(argv) -> int`` entry point in-process and capture what it prints."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from typing import NamedTuple


class Result(NamedTuple):
    exit_code: int
    stdout: str
    stderr: str


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
