"""What the click commands (ctx-usage, ctx-decide, ctx-plan, ctx-handoff, ctx-audit, ...)
share: the main() wrapper around a click command, the session they act for, and how they
show paths.

They are run by people and by the agent through its Bash tool. Those commands get
CLAUDE_CODE_SESSION_ID but no CLAUDE_PROJECT_DIR, and the agent may have changed
directory, so the state folder is found by searching upwards.
"""

from __future__ import annotations

import os
import sys

import click

from context_memory.identity import MANUAL_SESSION_PREFIX, manual_session
from context_memory.state import UnsafeNameError, resolve_state_dir, validate_name

EXIT_OK = 0
EXIT_ERROR = 1
UNKNOWN_SESSION = "unknown"  # what records written by hand said before manual sessions
SESSION_ENV = "CLAUDE_CODE_SESSION_ID"
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


def run_click(command: click.Command, argv: list[str] | None, prog_name: str) -> int:
    """Run ``command`` and return its exit status: what its callback returns when that is
    an int (ctx-audit's 0/1), else 0; ClickException exits 1 with one ``Error:`` line, and
    click's own usage errors stay at 2."""
    try:
        result = command.main(args=argv, prog_name=prog_name, standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return EXIT_ERROR
    return result if isinstance(result, int) and not isinstance(result, bool) else EXIT_OK


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


def cli_state_dir() -> str:
    """CTX_STATE_DIR, else ``.working-state`` of the nearest project root above the cwd."""
    try:
        return resolve_state_dir(search_up=True)
    except UnsafeNameError as exc:  # a symlinked state folder
        raise click.ClickException(str(exc)) from None


def shown_path(path: str) -> str:
    """``path`` relative to the current directory when below it, else absolute."""
    path = os.path.abspath(path)
    here = os.getcwd()
    return os.path.relpath(path, here) if path.startswith(here + os.sep) else path


def read_text_input(file: str | None, what: str, example: str) -> str:
    """UTF-8 text from ``file`` or stdin; refuses an interactive stdin and non-UTF-8 bytes."""
    if file is None:
        if sys.stdin is None or sys.stdin.isatty():
            raise click.ClickException(f"give the {what} on stdin ({example}) or with --file PATH")
        raw = sys.stdin.buffer.read()
        where = "stdin"
    else:
        try:
            with open(file, "rb") as handle:
                raw = handle.read()
        except OSError as exc:
            raise click.ClickException(f"{file}: {exc.strerror or exc}") from None
        where = file
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise click.ClickException(
            f"{where} is not UTF-8 text (byte {exc.start}); nothing written"
        ) from None


def is_manual_session(session: str) -> bool:
    """A session name given to commands run outside Claude Code (no transcript of its own)."""
    return session == UNKNOWN_SESSION or session.startswith(MANUAL_SESSION_PREFIX)
