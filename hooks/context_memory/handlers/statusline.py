"""ctx-statusline: Claude Code's ``statusLine`` command, one short line about the context.

    █████▋░░░░ 113K/200K 56.5% warn · 54K to auto-compact

Claude Code runs it on every status refresh with a JSON object on stdin (``model``,
``session_id``, ``transcript_path``, ``context_window: {context_window_size,
used_percentage, current_usage, ...}``). Tokens are counted as ctx-usage and ctx-budget
count them (input + cache + output of the last reply); right after a compaction
``used_percentage`` is null and the transcript is read instead, backwards and bounded.

It also records ``context_window_size`` for the session (statusline_cache), which makes
every hook's window exact. Like a hook it stays on the standard library at import time and
never fails the client: on any error it prints nothing of its own and exits 0.

    ctx-statusline [--color | --no-color] [--chain COMMAND]

``--chain COMMAND`` runs the user's own status line command (through the shell, with the
same stdin) and prints its output first, then this line.
"""

from __future__ import annotations

import sys

from context_memory import TYPE_CHECKING
from context_memory.core import lightos
from context_memory.core.hookio import (
    HELP_OPTIONS,
    HOOK_EXIT_STATUS,
    VERSION_OPTION,
    HookInput,
    by_hand_text,
    discard_stdout,
    hook_usage,
    parse_hook_input,
    write_stdout,
)
from context_memory.core.prompt_tables import DEFAULT_BAND_THRESHOLDS
from context_memory.measure.bands import (
    BAND_COLORS,
    BandConfigError,
    band_thresholds,
    classify,
    color_enabled,
    format_percent,
    format_tokens,
)
from context_memory.measure.window import autocompact_threshold, resolve_window
from context_memory.measure.window_cache import valid_window, write_cache

if TYPE_CHECKING:
    from collections.abc import Mapping
    from subprocess import Popen
    from typing import Any

    Chained = tuple[Popen[bytes], bytes]

PROG = "ctx-statusline"
BAR_CELLS = 10
# Eighths of a cell, so a 10-cell bar still moves every 1.25%.
PARTIAL_BLOCKS = " ▏▎▍▌▋▊▉"
FULL_BLOCK = "█"
EMPTY_CELL = "░"
SEPARATOR = " · "
MAX_STDIN_BYTES = 4 * 1024 * 1024
CHAIN_TIMEOUT_SECONDS = 5.0
KILLED_GRACE_SECONDS = 1.0
# Below this size the chained command's stdin fits in a pipe buffer and is written at
# once, so their command runs while ours computes.
PIPE_BUFFER_BYTES = 60_000

DIM = "2"

USAGE = """\
usage: ctx-statusline [--color | --no-color] [--chain COMMAND]

Claude Code statusLine command: reads the status line JSON on stdin and prints one line
(context bar, tokens/window, percent, band, tokens left before auto-compaction).
  --color / --no-color  force colours on or off (default: on unless NO_COLOR is set
                        or TERM is dumb or unset)
  --chain COMMAND       run your own status line COMMAND with the same stdin and print
                        its output first
  --version             print the version and exit
"""


class Options:
    __slots__ = ("chain", "color", "help", "unknown", "version")

    def __init__(self) -> None:
        self.chain: str | None = None
        self.color: bool | None = None
        self.help = False
        self.version = False
        self.unknown: list[str] = []


def parse_args(argv: list[str]) -> Options:
    """Hand-rolled (argparse costs an import per refresh); unknown options are collected in
    ``options.unknown`` (see ``unknown_note``)."""
    options = Options()
    args = iter(argv)
    for arg in args:
        if arg in HELP_OPTIONS:
            options.help = True
        elif arg == VERSION_OPTION:
            options.version = True
        elif arg == "--color":
            options.color = True
        elif arg == "--no-color":
            options.color = False
        elif arg == "--chain":
            options.chain = next(args, None)
        elif arg.startswith("--chain="):
            options.chain = arg[len("--chain=") :]
        else:
            options.unknown.append(arg)
    return options


def unknown_note(options: Options) -> str:
    """An unknown option is a mistake in the statusLine setting. The client ignores a
    status line's stderr and exit status, so the line itself says so (fail open: the
    context bar is still shown, exit 0)."""
    if not options.unknown:
        return ""
    shown = " ".join(options.unknown)[:60]
    return f"{PROG}: unknown option {shown} (see {PROG} --help)"


def paint(text: str, sgr: str, color: bool) -> str:
    return f"\x1b[{sgr}m{text}\x1b[0m" if color and text else text


def bar(percent: float, cells: int = BAR_CELLS) -> tuple[str, str]:
    """(filled part, empty part) of a ``cells``-wide bar, in eighths of a cell."""
    eighths = max(0, min(cells * 8, round(percent * cells * 8 / 100)))
    full, rest = divmod(eighths, 8)
    filled = FULL_BLOCK * full + (PARTIAL_BLOCKS[rest] if rest else "")
    return filled, EMPTY_CELL * (cells - len(filled))


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def model_id(payload: dict[str, Any]) -> str | None:
    model = payload.get("model")
    if isinstance(model, dict):
        model = model.get("id")
    return model if isinstance(model, str) and model else None


class Numbers:
    """What the line shows; a plain class, as dataclasses cost an import per refresh."""

    __slots__ = ("band", "model", "percent", "source", "threshold", "tokens", "window")

    def __init__(
        self,
        tokens: int,
        window: int,
        band: str,
        threshold: int | None,
        source: str,
        model: str | None,
    ) -> None:
        self.tokens = tokens
        self.window = window
        self.percent = round(tokens * 100 / window, 1) if window > 0 else 0.0
        self.band = band
        self.threshold = threshold
        self.source = source
        self.model = model


def context_numbers(payload: dict[str, Any], env: Mapping[str, str]) -> Numbers:
    """Tokens, window, band and threshold from the status line JSON (transcript as fallback)."""
    context = payload.get("context_window")
    context = context if isinstance(context, dict) else {}
    size = valid_window(context.get("context_window_size"))
    model = model_id(payload)
    used = context.get("used_percentage")
    current = context.get("current_usage")
    percent_used = (
        float(used) if isinstance(used, (int, float)) and not isinstance(used, bool) else None
    )
    has_percent = percent_used is not None
    if has_percent and isinstance(current, dict):
        # The client's percentage leaves out the reply's output tokens; ctx-budget counts
        # them (they are in the next request), and the line agrees with ctx-budget.
        tokens = sum(
            _int(current.get(key))
            for key in (
                "input_tokens",
                "cache_creation_input_tokens",
                "cache_read_input_tokens",
                "output_tokens",
            )
        )
        source = "statusline"
    elif percent_used is not None and size:
        tokens = round(percent_used * size / 100)
        source = "statusline"
    else:
        # Right after a compaction (used_percentage is null): the transcript knows.
        tokens, source, model = _from_transcript(payload, model)
    choice = resolve_window(model, tokens=tokens, statusline_window=size, env=env)
    try:
        thresholds = band_thresholds(env)
    except BandConfigError:
        thresholds = DEFAULT_BAND_THRESHOLDS
    percent = round(tokens * 100 / choice.window, 1) if choice.window > 0 else 0.0
    return Numbers(
        tokens,
        choice.window,
        classify(percent, thresholds),
        autocompact_threshold(choice.window, model, env),
        source,
        model,
    )


def _from_transcript(payload: dict[str, Any], model: str | None) -> tuple[int, str, str | None]:
    path = payload.get("transcript_path")
    if not isinstance(path, str) or not path:
        return 0, "none", model
    from context_memory.transcript.reader import scan_transcript

    try:
        reading = scan_transcript(path)
    except OSError:
        return 0, "none", model
    return reading.tokens, reading.source, reading.model or model


def format_line(numbers: Numbers, color: bool = False) -> str:
    """The status line: bar, tokens/window, percent, band, tokens left before auto-compact."""
    filled, empty = bar(numbers.percent)
    sgr = BAND_COLORS.get(numbers.band, "0")
    parts = [
        paint(filled, sgr, color) + paint(empty, DIM, color),
        f"{format_tokens(numbers.tokens)}/{format_tokens(numbers.window)}",
        format_percent(numbers.percent),
        paint(numbers.band, sgr, color),
    ]
    head = " ".join(parts)
    if numbers.threshold is None:
        tail = "auto-compact off"
    elif numbers.tokens >= numbers.threshold:
        tail = paint("auto-compact due", BAND_COLORS["stop"], color)
    else:
        tail = f"{format_tokens(numbers.threshold - numbers.tokens)} to auto-compact"
    if numbers.source == "compaction":
        tail += " (compacted)"
    elif numbers.source == "compaction-estimate":
        tail += " (compacted, estimated)"
    return head + SEPARATOR + tail


def remember_window(payload: dict[str, Any]) -> bool:
    """Record the session's window for the hooks; True when the cache file was written.

    The state folder is HookInput's (``workspace.project_dir``, else ``cwd``): the one the
    hooks read it back from. An unusable session id keeps no cache; the line still shows."""
    context = payload.get("context_window")
    size = valid_window(context.get("context_window_size")) if isinstance(context, dict) else None
    try:
        hook = HookInput(payload)
        if size is None or hook.session_id is None:
            return False
        return write_cache(hook.state_dir, hook.session_id, size, model_id(payload))
    except (OSError, ValueError):  # HookInputError, UnsafeNameError
        return False


def statusline_text(raw: bytes, env: Mapping[str, str], color: bool) -> str:
    """Our line for the status line JSON ``raw`` (raises on unusable input)."""
    payload = parse_hook_input(raw)
    remember_window(payload)
    return format_line(context_numbers(payload, env), color)


def start_chained(command: str, raw: bytes) -> Chained | None:
    """Start the user's own status line command with the same stdin; None if it cannot run."""
    import subprocess

    try:
        proc = subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            # Its own process group: on a timeout the whole group goes, including a child
            # it left behind holding the pipe (else reading waits for that child).
            start_new_session=True,
        )
    except (OSError, ValueError):
        return None
    if len(raw) <= PIPE_BUFFER_BYTES and proc.stdin is not None:
        try:
            proc.stdin.write(raw)
            proc.stdin.close()
        except OSError:
            pass
        # communicate() must not touch the closed pipe again: it only reads from now on.
        proc.stdin = None
        raw = b""
    return proc, raw


def finish_chained(started: Chained | None, timeout: float | None = None) -> str:
    """The chained command's stdout without its final newline ('' on any problem)."""
    if started is None:
        return ""
    import subprocess

    timeout = CHAIN_TIMEOUT_SECONDS if timeout is None else timeout

    proc, pending = started
    try:
        out, _ = proc.communicate(input=pending or None, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        try:  # what it printed before the timeout (a child that left the group: nothing)
            out, _ = proc.communicate(timeout=KILLED_GRACE_SECONDS)
        except (subprocess.TimeoutExpired, OSError, ValueError):
            for stream in (proc.stdout, proc.stdin):
                if stream is not None:
                    stream.close()
            return ""
    except (OSError, ValueError):
        return ""
    return (out or b"").decode("utf-8", errors="replace").rstrip("\r\n")


def _kill_group(proc: Popen[bytes]) -> None:
    import os
    import signal

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        proc.kill()


def read_stdin() -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None or sys.stdin.isatty():
        return b""
    return bytes(stream.read(MAX_STDIN_BYTES))


def main(argv: list[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Print the status line; always exits 0 (a failing status line only loses its text)."""
    env = lightos.environ() if env is None else env
    try:
        options = parse_args(sys.argv[1:] if argv is None else argv)
        if options.help:
            sys.stdout.write(USAGE + "\n" + hook_usage(PROG))
            return HOOK_EXIT_STATUS
        if options.version:
            from context_memory import __version__

            sys.stdout.write(f"{PROG} {__version__}\n")
            return HOOK_EXIT_STATUS
        raw = read_stdin()
        if not raw.strip():
            # A terminal or no input: tried by hand (the client always sends JSON).
            sys.stderr.write(by_hand_text(PROG))
            return HOOK_EXIT_STATUS
        started = start_chained(options.chain, raw) if options.chain else None
        color = color_enabled(env) if options.color is None else options.color
        try:
            ours = statusline_text(raw, env, color)
        except Exception as exc:  # noqa: BLE001 - their line still shows
            sys.stderr.write(f"{PROG}: {type(exc).__name__}: {exc}\n")
            ours = ""
        theirs = finish_chained(started)
        note = unknown_note(options)
        if note:
            sys.stderr.write(note + "\n")
            ours = f"{ours} · {note}" if ours else note
        lines = [text for text in (theirs, ours) if text]
        if lines:
            write_stdout("\n".join(lines) + "\n")
    except BrokenPipeError:
        discard_stdout()  # the client stopped reading: nothing to say, nothing to flush at exit
    except BaseException as exc:  # noqa: BLE001 - the status line must never break the client
        try:
            sys.stderr.write(f"{PROG}: {type(exc).__name__}: {exc}\n")
        except (OSError, ValueError):
            pass
    return HOOK_EXIT_STATUS


if __name__ == "__main__":
    sys.exit(main())
