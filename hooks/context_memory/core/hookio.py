"""Hook plumbing shared by every hook entry point: stdin, stdout, fail-open, circuit breaker.

A hook runs inside someone else's session. Whatever goes wrong, it exits 0 with nothing
on stdout, one line on stderr and one line in ``.working-state/logs/hooks.log`` (if that
folder exists: a failing hook never creates one); it never exits 2 (that erases the
user's prompt or blocks a compaction). Standard library only: the prompt path loads it.
"""

from __future__ import annotations

import sys
import time

from context_memory import TYPE_CHECKING
from context_memory.core import lightjson, lightos
from context_memory.core.session_registry import remember_session
from context_memory.core.state import (
    HOOKS_LOG,
    LOGS_DIR,
    STATE_DIRNAME,
    UnsafeNameError,
    breaker_file,
    resolve_project_dir,
    resolve_state_dir,
    session_dir,
    validate_name,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# What every hook exits with, whatever happened (core/exit_codes.py: hooks fail open, and 2
# would make the client block). Named here, not imported from exit_codes: that module
# would be one more import before every prompt.
HOOK_EXIT_STATUS = 0
# Hook JSON is small; anything past this is not a hook payload and is not worth reading.
MAX_STDIN_BYTES = 16 * 1024 * 1024
BREAKER_LIMIT = 3
# The client's tools that write a file and those ctx-guard judges, the one list: here, in a
# module every hook loads, so ctx-guard's fast path pays no import for it.
EDIT_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
GUARDED_TOOLS = ("Bash", *EDIT_TOOLS)


class HookInputError(ValueError):
    """The hook's stdin is not a usable hook payload."""


def parse_hook_input(raw: bytes) -> dict[str, Any]:
    """Decode the hook's stdin into a dict, or raise HookInputError saying what is wrong."""
    if not raw.strip():
        raise HookInputError("empty stdin: expected the hook JSON from Claude Code")
    try:
        payload = lightjson.loads(raw.decode("utf-8", errors="replace"))
    except lightjson.JSONError as exc:
        raise HookInputError(f"stdin is not JSON ({exc})") from None
    except RecursionError:
        raise HookInputError("stdin JSON is nested too deeply") from None
    if not isinstance(payload, dict):
        raise HookInputError(
            f"stdin is not a JSON object (got {_json_kind(payload)}): "
            "expected the hook JSON from Claude Code"
        )
    return payload


def _json_kind(value: object) -> str:
    """What a decoded JSON value is, in JSON's words (not Python's "NoneType")."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    kinds: dict[type, str] = {str: "a string", list: "an array"}
    return kinds.get(type(value), "a number")


def str_field(payload: dict[str, Any], key: str) -> str | None:
    """A string field of the payload, or None when it is absent or of another type."""
    value = payload.get(key)
    return value if isinstance(value, str) else None


class HookInput:
    """One hook run's input, parsed once at the boundary (run_hook) and handed to the
    hook's handler: the event, the session, the transcript, the folders.

    One rule for each question the handlers used to answer each their own way:

    - The event: ``answers(*events)``. A payload without ``hook_event_name`` is the
      hook's own event when the hook serves exactly one (ctx-budget, ctx-restore); a hook
      that serves several (ctx-extract, ctx-audit) cannot tell which, and does nothing.
    - The session id: absent is allowed (None: what needs a session is skipped); present
      and unsafe (``..``, a slash, a NUL, too long) is refused here (UnsafeNameError), so
      the hook fails open before doing anything (nothing half-done for a bad id; before,
      ctx-budget and ctx-restore went on without the session, the others refused it).
    - The project: the client's ``workspace.project_dir`` when the input has one (the
      status line's), else ``cwd``; then resolve_project_dir (CLAUDE_PROJECT_DIR first).
      The status line and the hooks thus read and write the same state folder.
    - The project and state folders are resolved once, when first asked for.
    """

    __slots__ = ("_project", "_state", "cwd", "event", "payload", "session_id", "transcript_path")

    def __init__(self, payload: dict[str, Any]) -> None:
        self.payload = payload
        event = payload.get("hook_event_name")
        # Absent: None (the rule of answers()); present but not a string: no event of ours.
        self.event = event if isinstance(event, str) or event is None else ""
        session = str_field(payload, "session_id") or None
        self.session_id = None if session is None else validate_name(session)
        self.transcript_path = str_field(payload, "transcript_path") or None
        workspace = payload.get("workspace")
        project = workspace.get("project_dir") if isinstance(workspace, dict) else None
        self.cwd = str_field(payload, "cwd") or None
        self._project = project if isinstance(project, str) and project else self.cwd
        self._state: str | None = None

    def get(self, key: str) -> object:
        """A field of the payload that only one hook reads (``trigger``, ``source``, ...)."""
        return self.payload.get(key)

    def text(self, key: str) -> str | None:
        """A string field of the payload, or None when it is absent or of another type."""
        return str_field(self.payload, key)

    def answers(self, *events: str) -> str | None:
        """The event to handle among ``events`` (the hook's own), or None (see the rule)."""
        if self.event is None:
            return events[0] if len(events) == 1 else None
        return self.event if self.event in events else None

    @property
    def project_dir(self) -> str:
        return resolve_project_dir(self._project)

    @property
    def state_dir(self) -> str:
        """The state folder (raises UnsafeStateDirError for a linked ``.working-state``)."""
        if self._state is None:
            self._state = resolve_state_dir(self._project)
        return self._state

    def session_folder(self) -> str | None:
        """``<state>/sessions/<id>``, or None without a session id (raises for a linked
        ``sessions`` folder, as session_dir does)."""
        if self.session_id is None:
            return None
        return session_dir(self.state_dir, self.session_id)


def as_hook_input(value: HookInput | dict[str, Any]) -> HookInput:
    """``value`` as a HookInput (handlers also take a plain payload dict, as tests pass)."""
    return value if isinstance(value, HookInput) else HookInput(value)


def context_output(event: str, text: str) -> str:
    """The one JSON document that injects ``text`` as additionalContext for ``event``:
    every injected context passes safe_text's rule here (lines kept, no control, bidi or
    zero-width character)."""
    from context_memory.core.safe_text import safe_block

    return lightjson.dumps(
        {"hookSpecificOutput": {"hookEventName": event, "additionalContext": safe_block(text)}}
    )


def write_stdout(text: str) -> None:
    """Write ``text`` to stdout as UTF-8 bytes (what the client reads, whatever the locale
    or PYTHONIOENCODING says: an ASCII stdout must not drop CJK text) and flush it. When
    the reader has gone (a broken pipe), stdout is pointed at /dev/null so that Python's
    own flush at exit does not fail again (exit status 120); the text is dropped."""
    stream = sys.stdout
    if stream is None:
        return
    try:
        stream.flush()
        buffer = getattr(stream, "buffer", None)
        if buffer is None:
            stream.write(text)
            stream.flush()
        else:
            buffer.write(text.encode("utf-8", "backslashreplace"))
            buffer.flush()
    except BrokenPipeError:
        discard_stdout()


def discard_stdout() -> None:
    """Point stdout's descriptor at /dev/null (after a broken pipe; see write_stdout)."""
    import os  # a broken pipe only

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _state_dir_for(payload: dict[str, Any] | None) -> str:
    cwd = str_field(payload, "cwd") if payload else None
    return resolve_state_dir(cwd)


def _remember_project(hook: HookInput) -> None:
    """Record this session's project for the commands the agent runs (session_registry).

    Only when the hook knows the project (CLAUDE_PROJECT_DIR or the payload's cwd): the
    process's own directory is a guess, and a guess must not steer the commands.
    """
    if hook.cwd or lightos.environ().get("CLAUDE_PROJECT_DIR"):
        remember_session(hook.session_id, hook.project_dir, hook.state_dir)


def _one_line(text: str, limit: int = 400) -> str:
    """A log or stderr line by safe_text's rule (imported here: only a log line needs it)."""
    from context_memory.core.safe_text import one_line

    return one_line(text, limit)


def log_line(state_dir: str, hook: str, session: str, message: str) -> None:
    """Append one tab-separated line to the hooks log; never raises.

    Only into a state folder that exists: a hook run from an unexpected directory (no cwd
    in its input) must not leave a ``.working-state`` there, which would then capture
    every project below it that has no ``.git``.
    """
    try:
        if not lightos.isdir(state_dir):
            return
        from context_memory.core.fsread import open_file

        logs = lightos.join(state_dir, LOGS_DIR)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        line = f"{stamp}\t{hook}\t{session or '-'}\t{_one_line(message)}\n"
        # One write on an O_APPEND descriptor: short lines from concurrent hooks do not
        # interleave. Neither logs/ nor the log is written through a link or into a FIFO.
        fd = open_file(
            lightos.join(logs, HOOKS_LOG),
            lightos.O_WRONLY | lightos.O_APPEND | lightos.O_CREAT,
            root=state_dir,
            create_dirs=True,
        )
        try:
            lightos.write(fd, line.encode("utf-8", errors="replace"))
        finally:
            lightos.close(fd)
    except (OSError, ValueError):
        pass


def _breaker_path(state_dir: str, hook: str, session: str | None) -> str | None:
    if not session:
        return None
    try:
        folder = session_dir(state_dir, session)
    except (UnsafeNameError, OSError):  # an unsafe id; a linked session folder
        return None
    return lightos.join(folder, breaker_file(hook))


def breaker_failures(state_dir: str, hook: str, session: str | None) -> int:
    """Consecutive failures recorded for this hook in this session (0 when none)."""
    path = _breaker_path(state_dir, hook, session)
    if path is None or not lightos.lexists(path):
        return 0  # the common case: one lstat, no folder walk
    try:
        from context_memory.core.fsread import read_bytes

        return int(read_bytes(path, 64, root=state_dir).strip() or b"0")
    except (OSError, ValueError):
        return 0


def _record_failure(state_dir: str, hook: str, session: str | None) -> int:
    path = _breaker_path(state_dir, hook, session)
    if path is None:
        return 0
    if not lightos.isdir(state_dir):
        return 0  # a failing hook never creates a state folder
    count = breaker_failures(state_dir, hook, session) + 1
    try:
        from context_memory.core.fsutil import atomic_write

        atomic_write(path, str(count), root=state_dir)  # removes its temporary file on error
    except OSError:
        pass
    return count


def _record_success(state_dir: str, hook: str, session: str | None) -> None:
    path = _breaker_path(state_dir, hook, session)
    if path is not None and lightos.lexists(path):
        try:
            lightos.unlink(path)
        except OSError:
            pass


def read_stdin_bytes() -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None or sys.stdin.isatty():
        return b""
    return bytes(stream.read(MAX_STDIN_BYTES))


HELP_OPTIONS = ("-h", "--help")
VERSION_OPTION = "--version"


def _guide(hook: str) -> tuple[str, str, str]:
    from context_memory.core.command_table import HOOK_GUIDES

    return HOOK_GUIDES[hook]


def _wrap(text: str, width: int = 88) -> str:
    """``text`` folded at spaces into lines of at most ``width`` characters (textwrap would
    cost an import, and ``re`` with it)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join([*lines, line])


def _about(hook: str) -> str:
    """What the hook is, who runs it, and an example run: the heart of --help and of the
    answer to an empty stdin."""
    events, summary, example = _guide(hook)
    what = (
        f"{hook} is Claude Code's {events} hook: {summary}. Claude Code runs it (set up by "
        "./install, ctx-install or the plugin) with the event's JSON on stdin."
    )
    return (
        f"{_wrap(what)}\n"
        "Try it by hand (a transcript is a .jsonl file under ~/.claude/projects/):\n"
        f"  echo '{example}' | {hook}\n"
    )


def by_hand_text(hook: str) -> str:
    """What a hook says on stderr when stdin holds nothing (a terminal, or no input): a usage
    question, not a failure, so it exits 0 and logs nothing."""
    return f"{hook}: no hook input on stdin, so nothing to do.\n{_about(hook)}More: {hook} --help\n"


def hook_usage(hook: str) -> str:
    """The part of ``<hook> --help`` that the status line shares with the hooks."""
    return (
        f"{_about(hook)}It always exits 0; a failure is one line on stderr and one in\n"
        f"{STATE_DIRNAME}/{LOGS_DIR}/{HOOKS_LOG}. ctx-doctor checks the setup.\n"
    )


def hook_help(hook: str) -> str:
    """What ``<hook> --help`` prints."""
    return (
        f"usage: {hook} < HOOK_JSON\n\n{hook_usage(hook)}"
        "  -h, --help  print this help and exit\n"
        "  --version   print the version and exit\n"
    )


def answer_option(hook: str, argv: list[str]) -> bool:
    """``--help`` or ``--version`` typed by hand: answered on stdout, True. Not a run of the
    hook, so not a failure to log (Claude Code never passes arguments; others are ignored)."""
    if argv == [VERSION_OPTION]:
        from context_memory import __version__

        write_stdout(f"{hook} {__version__}\n")
        return True
    if len(argv) == 1 and argv[0] in HELP_OPTIONS:
        write_stdout(hook_help(hook))
        return True
    return False


def run_hook(
    hook: str,
    handler: Callable[[HookInput], str | None],
    *,
    use_breaker: bool = True,
    read_input: Callable[[], bytes] = read_stdin_bytes,
    argv: list[str] | None = None,
) -> int:
    """Run ``handler`` on the hook payload and print what it returns; fail open on any error.

    The handler returns the exact stdout text (a JSON document or plain text) or None
    for no output. Returns the process exit status, which is always 0. ``argv`` (default
    sys.argv[1:]) is only looked at for --help and --version (answer_option).
    """
    payload: dict[str, Any] | None = None
    session: str | None = None
    state_dir: str | None = None
    try:
        if answer_option(hook, sys.argv[1:] if argv is None else argv):
            return HOOK_EXIT_STATUS
        raw = read_input()
        if not raw.strip():
            # Nothing on stdin (a terminal reads as nothing): someone trying the command
            # by hand, as the client always sends the event's JSON. A usage answer on
            # stderr (stdout would reach the model, should a client ever do it), no log.
            sys.stderr.write(by_hand_text(hook))
            return HOOK_EXIT_STATUS
        payload = parse_hook_input(raw)
        hook_input = HookInput(payload)  # the one parse: the handler gets this value
        session = hook_input.session_id
        state_dir = hook_input.state_dir
        _remember_project(hook_input)
        if use_breaker and breaker_failures(state_dir, hook, session) >= BREAKER_LIMIT:
            return HOOK_EXIT_STATUS
        output = handler(hook_input)
        if output:
            write_stdout(output if output.endswith("\n") else output + "\n")
        if use_breaker and state_dir is not None and session:
            _record_success(state_dir, hook, session)
        return HOOK_EXIT_STATUS
    except BrokenPipeError:
        discard_stdout()
        return HOOK_EXIT_STATUS
    except BaseException as exc:  # noqa: BLE001 - a hook must never take the session down
        if isinstance(exc, KeyboardInterrupt):
            return HOOK_EXIT_STATUS
        message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        try:
            sys.stderr.write(f"{hook}: {_one_line(message, 300)}\n")
        except (OSError, ValueError):
            pass
        if state_dir is None:
            try:
                state_dir = _state_dir_for(payload)
            except Exception:  # noqa: BLE001
                return HOOK_EXIT_STATUS
        log_line(state_dir, hook, session or "-", message)
        if use_breaker and session and _record_failure(state_dir, hook, session) == BREAKER_LIMIT:
            log_line(
                state_dir,
                hook,
                session,
                f"circuit breaker open after {BREAKER_LIMIT} consecutive failures; "
                "skipping this hook for the rest of the session",
            )
        return HOOK_EXIT_STATUS
