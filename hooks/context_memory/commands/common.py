"""What the click commands (ctx-usage, ctx-decide, ctx-plan, ctx-handoff, ctx-audit, ...)
share: the main() wrapper around a click command, the session they act for, and how they
show paths.

They are run by people and by the agent through its Bash tool. Those commands get
CLAUDE_CODE_SESSION_ID but no CLAUDE_PROJECT_DIR, and the agent may have changed
directory: the state folder is the one the session's hooks recorded (session_registry),
and only without one is it found by searching upwards (then the command says which).
"""

from __future__ import annotations

import os
import sys

import click
import filelock  # noqa: F401 - loaded: core/filelocks locks with it (portable)

from context_memory import __version__
from context_memory.core import exit_codes
from context_memory.core.session_registry import recorded_location
from context_memory.core.state import (
    PROJECT_MARKERS,
    UnsafeNameError,
    relative_path,
    search_project_root,
    state_dir_in,
    state_dir_override,
    usual_state_dir,
    validate_name,
)
from context_memory.memory.identity import MANUAL_SESSION_PREFIX, manual_session
from context_memory.transcript.by_hand import NotATranscript, check_transcript, find_transcript
from context_memory.transcript.locate import TranscriptNotFound

UNKNOWN_SESSION = "unknown"  # what records written by hand said before manual sessions
SESSION_ENV = "CLAUDE_CODE_SESSION_ID"
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


def run_click(
    command: click.Command,
    argv: list[str] | None,
    prog_name: str,
    *,
    failure: int = exit_codes.FAILURE,
) -> int:
    """Run ``command`` and return its exit status: what its callback returns when that is
    an int (ctx-audit's 0/1), else 0; ClickException exits ``failure`` (1, ctx-audit's
    "could not run" 2) with one ``Error:`` line, and click's own usage errors stay at 2.
    ``--version`` prints ``<prog_name> <version>``, as the installed launchers do."""
    add_version_option(command)
    try:
        result = command.main(args=argv, prog_name=prog_name, standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return failure if exc.exit_code == exit_codes.FAILURE else exc.exit_code
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return failure
    return result if isinstance(result, int) and not isinstance(result, bool) else exit_codes.OK


def add_version_option(command: click.Command) -> None:
    """Give ``command`` a ``--version`` option (once: main() may run many times in-process)."""
    if not any(param.name == "version" for param in command.params):
        click.version_option(__version__, "--version", message="%(prog)s %(version)s")(command)


# Claude Code sets CLAUDECODE=1 in the environment of the commands its Bash tool runs
# (client 2.1.332, tests/e2e/test_claudecode_env_e2e.py): a command that sees it was run by
# the agent; one that does not was typed by a person.
CLAUDECODE_ENV = "CLAUDECODE"


def run_by_agent() -> bool:
    """Whether the command runs under Claude Code's Bash tool (CLAUDECODE set, not "0")."""
    return os.environ.get(CLAUDECODE_ENV, "") not in ("", "0")


def first_surrogate(text: str) -> int | None:
    """The index of the first lone surrogate of ``text`` (what Python makes of argv bytes
    that are not UTF-8), or None."""
    for index, char in enumerate(text):
        if "\ud800" <= char <= "\udfff":
            return index
    return None


def utf8_text(ctx: click.Context, param: click.Parameter, value: object) -> object:
    """The click callback of a text option or argument (one value, or a tuple of them for
    a repeatable option): each must be valid Unicode. Bytes of the command line that are
    not UTF-8 reach Python as lone surrogates, which no file can hold: refused as a usage
    error (exit 2) that says which byte, never a traceback later."""
    for text in value if isinstance(value, tuple) else (value,):
        index = first_surrogate(text) if isinstance(text, str) else None
        if index is None:
            continue
        assert isinstance(text, str)
        byte = ord(text[index]) - 0xDC00  # surrogateescape: U+DC80..U+DCFF stand for bytes
        shown = f"byte 0x{byte:02x}" if 0x80 <= byte <= 0xFF else "a lone surrogate"
        raise click.BadParameter(
            f"not UTF-8 text ({shown} at character {index + 1}); nothing recorded. Type it "
            "again in a UTF-8 terminal (LANG/LC_ALL such as C.UTF-8)",
            ctx=ctx,
            param=param,
        )
    return value


def session_for(option: str | None) -> str:
    """``--session``, else CLAUDE_CODE_SESSION_ID, else this machine's ``manual-<tag>``
    (identity.manual_session: unique per machine, so two clones of a shared project never
    write the same handoff file); refused if unsafe."""
    session = option or os.environ.get(SESSION_ENV) or manual_session()
    try:
        return validate_name(session)
    except UnsafeNameError as exc:
        source = "--session" if option else SESSION_ENV
        raise click.ClickException(f"{source}: {exc}") from None


def _say(note: str) -> None:
    context = click.get_current_context(silent=True)
    prog = context.find_root().info_name if context is not None else None
    click.echo(f"{prog or 'context-memory'}: {note}", err=True)


def cli_location(*, refuse_link: bool = True) -> tuple[str, str]:
    """(project folder, state folder) for a command, first found of:

    CLAUDE_PROJECT_DIR; the project the hooks of this session (CLAUDE_CODE_SESSION_ID)
    recorded; the nearest folder at or above the current one holding .working-state,
    .claude (not ~/.claude) or .git (not a submodule's), said on stderr when it is above;
    else the current folder. CTX_STATE_DIR overrides the state folder in every case. A state
    folder that is a symbolic link is refused (unless ``refuse_link`` is False: ctx-doctor
    reports it itself).
    """
    env_dir = os.environ.get("CLAUDE_PROJECT_DIR")
    recorded = None if env_dir else recorded_location(os.environ.get(SESSION_ENV))
    if env_dir:
        project = os.path.abspath(env_dir)
        folder = usual_state_dir(project)
    elif recorded is not None:
        project, folder = recorded
    else:
        here = os.getcwd()
        found = search_project_root(here)
        project = found or here
        folder = usual_state_dir(project)
        if found is not None and found != here and not state_dir_override():
            # Not the folder the user is in: say which one, so a stray marker shows.
            markers = "/".join(PROJECT_MARKERS)
            _say(f"using {folder} (the nearest folder above with {markers})")
    try:
        return project, state_dir_in(folder, refuse_link=refuse_link)
    except UnsafeNameError as exc:  # a symlinked state folder
        raise click.ClickException(str(exc)) from None


def cli_state_dir() -> str:
    """The state folder a command reads and writes (see cli_location)."""
    return cli_location()[1]


def shown_path(path: str) -> str:
    """``path`` relative to the current directory when below it, else absolute."""
    return relative_path(path, os.getcwd())


# The plan and a handoff are read back at most 4 MiB each (memory.handoff_draft,
# memory.handoff): a larger text is refused here rather than written and then skipped. The
# bound also keeps `ctx-plan --file /dev/zero` (or an endless pipe) from eating memory.
MAX_TEXT_INPUT_BYTES = 4 * 1024 * 1024


def read_text_input(file: str | None, what: str, example: str) -> str:
    """UTF-8 text from ``file`` or stdin; refuses an interactive stdin, non-UTF-8 bytes and
    more than MAX_TEXT_INPUT_BYTES."""
    if file is None:
        if sys.stdin is None or sys.stdin.isatty():
            raise click.ClickException(f"give the {what} on stdin ({example}) or with --file PATH")
        raw = sys.stdin.buffer.read(MAX_TEXT_INPUT_BYTES + 1)
        where = "stdin"
    else:
        try:
            with open(file, "rb") as handle:
                raw = handle.read(MAX_TEXT_INPUT_BYTES + 1)
        except OSError as exc:
            raise click.ClickException(f"{file}: {exc.strerror or exc}") from None
        where = file
    if len(raw) > MAX_TEXT_INPUT_BYTES:
        raise click.ClickException(
            f"the {what} from {where} is larger than {MAX_TEXT_INPUT_BYTES} bytes; nothing "
            "written. Shorten it"
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise click.ClickException(
            f"{where} is not UTF-8 text (byte {exc.start}); nothing written"
        ) from None


def is_manual_session(session: str) -> bool:
    """A session name given to commands run outside Claude Code (no transcript of its own)."""
    return session == UNKNOWN_SESSION or session.startswith(MANUAL_SESSION_PREFIX)


class WrongTranscript(click.ClickException):
    """TRANSCRIPT names a file that is no transcript the command can read: the command
    line's mistake, exit USAGE (2) in every command."""

    exit_code = exit_codes.USAGE


def transcript_by_hand(argument: str | None, command: str, *, takes_newest: bool = True) -> str:
    """The transcript a by-hand command reads (transcript/by_hand: a path, a session id,
    else the newest of this folder), checked: exit 1 when there is none, 2 when the file
    is no (plain .jsonl) transcript. ``takes_newest``: the command takes the newest one
    without an argument (what the refusal says)."""
    path = argument or ""
    try:
        path = find_transcript(argument, os.getcwd())
        check_transcript(path, command, takes_newest=takes_newest)
    except TranscriptNotFound as exc:
        raise click.ClickException(str(exc)) from None
    except NotATranscript as exc:
        raise WrongTranscript(str(exc)) from None
    except FileNotFoundError:
        raise click.ClickException(
            f"{path}: no such file (give a transcript path or a session id)"
        ) from None
    except OSError as exc:
        raise click.ClickException(f"{path}: {exc.strerror or exc}") from None
    return path
