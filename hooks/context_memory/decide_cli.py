"""ctx-decide: record a decision, a rejected option or a risk in ``decisions.jsonl``, or list them.

    ctx-decide "Use Redis Cluster, 6 nodes" --reason "needs sharding" --alt Codis --alt Sentinel
    ctx-decide --rejected "Codis" --reason "unmaintained, proxy adds 2 ms"
    ctx-decide --risk "resharding under load is untested" --keywords resharding
    ctx-decide --list [--last N] [--json] [--session ID] [--author NAME]

The agent calls it through its Bash tool; people can too. Each record is one line appended
under a lock, so parallel writers never interleave or lose lines. Each record carries its
author (git's user.name and user.email, else user@host) and an id unique across clones.
"""

from __future__ import annotations

import json
import sys

import click

from context_memory.cli_common import (
    CONTEXT_SETTINGS,
    cli_state_dir,
    run_click,
    session_for,
    shown_path,
)
from context_memory.fsutil import LOCK_TIMEOUT_SECONDS
from context_memory.handoff_draft import record_item
from context_memory.identity import record_author
from context_memory.records import (
    RecordError,
    append_record,
    decisions_path,
    make_record,
    read_records,
)
from context_memory.state import resolve_project_dir

KIND_WIDTH = len("rejected")


def split_keywords(values: tuple[str, ...]) -> list[str]:
    """``--keywords a,b --keywords c`` -> ["a", "b", "c"]."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def format_record(record: dict[str, object]) -> str:
    """One line per record: time, kind, text (reason; alternatives), session, author."""
    line = (
        f"{record.get('ts', '?')}  {str(record.get('kind')):<{KIND_WIDTH}}  {record_item(record)}"
    )
    session = record.get("session")
    author = record.get("author")
    tags = [str(session)] if session else []
    if isinstance(author, str) and author:
        tags.append(f"by {author}")
    return f"{line}  [{', '.join(tags)}]" if tags else line


def by_author(record: dict[str, object], name: str) -> bool:
    """``--author NAME``: NAME appears in the record's author (name or e-mail), any case."""
    author = record.get("author")
    return isinstance(author, str) and name.casefold() in author.casefold()


def time_order(records: list[dict[str, object]]) -> list[dict[str, object]]:
    """Oldest first by recorded time: after a union merge a teammate's records may sit
    anywhere in the file. Records of one second keep their file order."""
    return sorted(records, key=lambda record: str(record.get("ts", "")))


def _warn_problems(problems: list) -> None:
    for problem in problems:
        click.echo(f"warning: {problem} (line skipped)", err=True)


def list_records(
    state_dir: str,
    session: str | None,
    last: int | None,
    as_json: bool,
    author: str | None = None,
) -> None:
    records, problems = read_records(state_dir)
    _warn_problems(problems)
    records = time_order(records)
    if session is not None:
        records = [r for r in records if r.get("session") == session]
    if author is not None:
        records = [r for r in records if by_author(r, author)]
    if last is not None:
        records = records[-last:]
    if as_json:
        click.echo(json.dumps(records, ensure_ascii=False, indent=2))
    elif not records:
        click.echo(f"no decisions recorded in {shown_path(decisions_path(state_dir))}", err=True)
    else:
        for record in records:
            click.echo(format_record(record))


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("decision", required=False)
@click.option("--rejected", metavar="TEXT", help="Record an option that was rejected.")
@click.option("--risk", metavar="TEXT", help="Record a risk.")
@click.option("--reason", default="", metavar="TEXT", help="Why (for any kind).")
@click.option(
    "--alt",
    "alternatives",
    multiple=True,
    metavar="TEXT",
    help="An alternative considered (repeatable).",
)
@click.option(
    "--keywords",
    multiple=True,
    metavar="WORDS",
    help="Terms a later audit should look for (repeatable, or comma-separated).",
)
@click.option(
    "--session",
    metavar="ID",
    help="Session id (default: $CLAUDE_CODE_SESSION_ID, else this machine's manual-<tag>).",
)
@click.option("--list", "list_", is_flag=True, help="Show the recorded decisions.")
@click.option(
    "--last", type=click.IntRange(min=1), metavar="N", help="With --list: only the last N."
)
@click.option("--json", "as_json", is_flag=True, help="With --list: print a JSON array.")
@click.option(
    "--author",
    metavar="NAME",
    help="With --list: only records whose author (name or e-mail) contains NAME.",
)
def cli(
    decision: str | None,
    rejected: str | None,
    risk: str | None,
    reason: str,
    alternatives: tuple[str, ...],
    keywords: tuple[str, ...],
    session: str | None,
    list_: bool,
    last: int | None,
    as_json: bool,
    author: str | None,
) -> None:
    """Record DECISION (or --rejected / --risk) in .working-state/decisions.jsonl.

    The log lives in the project's .working-state folder (the nearest folder upwards
    holding .working-state, .claude or .git; CTX_STATE_DIR overrides).
    """
    state_dir = cli_state_dir()
    given = [
        name
        for name, value in (("DECISION", decision), ("--rejected", rejected), ("--risk", risk))
        if value is not None
    ]
    if list_:
        if given:
            raise click.ClickException(f"--list does not record anything; drop {given[0]}")
        list_records(state_dir, session_for(session) if session else None, last, as_json, author)
        return
    if last is not None or as_json or author is not None:
        raise click.ClickException("--last, --json and --author only go with --list")
    if len(given) != 1:
        raise click.ClickException(
            "give exactly one of DECISION, --rejected TEXT, --risk TEXT (or --list); got "
            + (", ".join(given) if given else "none")
        )
    kind, text = (
        ("decided", decision)
        if decision is not None
        else ("rejected", rejected)
        if rejected is not None
        else ("risk", risk)
    )
    try:
        record = make_record(
            kind,
            text or "",
            session=session_for(session),
            reason=reason,
            alternatives=alternatives,
            keywords=split_keywords(keywords),
            author=record_author(resolve_project_dir(search_up=True), state_dir),
        )
        append_record(state_dir, record)
    except RecordError as exc:
        raise click.ClickException(f"{exc}; nothing recorded") from None
    # Before OSError: filelock's Timeout is a TimeoutError, which is an OSError.
    except TimeoutError:
        raise click.ClickException(
            f"{decisions_path(state_dir)} stayed locked by another writer for "
            f"{LOCK_TIMEOUT_SECONDS:g} s; nothing recorded. Run the command again"
        ) from None
    except OSError as exc:
        where = exc.filename or decisions_path(state_dir)
        raise click.ClickException(f"{where}: {exc.strerror or exc}; nothing recorded") from None
    click.echo(f"recorded {kind} {record['id']} in {shown_path(decisions_path(state_dir))}")


def main(argv: list[str] | None = None) -> int:
    return run_click(cli, argv, "ctx-decide")


if __name__ == "__main__":
    sys.exit(main())
