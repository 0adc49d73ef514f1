"""ctx-decide: record a decision, a rejected option or a risk in ``decisions.jsonl``, or list them.

    ctx-decide "Use Redis Cluster, 6 nodes" --reason "needs sharding" --alt Codis --alt Sentinel
    ctx-decide --rejected "Codis" --reason "unmaintained, proxy adds 2 ms" [--by user|agent]
    ctx-decide --risk "resharding under load is untested" --keywords resharding
    ctx-decide --list [--last N] [--json] [--session ID] [--author NAME]
    ctx-decide --pin ID | --unpin ID    keep a decision at the top of the pinned digest
    ctx-decide --drop ID                retract a record (kept in the log, never injected)

--list also shows the model's own feedback and project memories of Claude Code's auto
memory (marked ``auto memory``), and marks ``in MEMORY.md`` the records whose lines the
toolkit mirrored there (memory/native.py); --drop takes a dropped record's line out of it.

The agent calls it through its Bash tool; people can too. Each record says who stated it
(``by``): "agent" when Claude Code's Bash tool runs the command (CLAUDECODE=1 in its
environment), "user" when a person types it, or what ``--by`` says; a rejection of the
user's makes ctx-guard ask before a call that does it. Each record is one line appended
under a lock, so parallel writers never interleave or lose lines. Each record carries its
author (git's user.name and user.email, else user@host) and an id unique across clones.
"""

from __future__ import annotations

import sys

import click

from context_memory.commands.common import (
    CONTEXT_SETTINGS,
    cli_location,
    run_by_agent,
    run_click,
    session_for,
    shown_path,
    utf8_text,
)
from context_memory.commands.decide_list import list_records
from context_memory.core.decisions_log import LogProblem, read_records, retired_ids
from context_memory.core.fsutil import LOCK_TIMEOUT_SECONDS
from context_memory.core.state import PINNED_FILE, STATE_DIRNAME, decisions_path
from context_memory.memory.decisions import (
    BY_VALUES,
    RecordError,
    append_record,
    make_mark_record,
    make_pin_record,
    make_record,
)
from context_memory.memory.handoff_draft import record_item
from context_memory.memory.identity import record_author
from context_memory.pinned.digest import pinned_ids
from context_memory.pinned.snapshots import index_ids
from context_memory.pinned.store import digest_path, enabled, refresh


def split_keywords(values: tuple[str, ...]) -> list[str]:
    """``--keywords a,b --keywords c`` -> ["a", "b", "c"]."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _warn_problems(problems: list[LogProblem]) -> None:
    for problem in problems:
        click.echo(f"warning: {problem} (line skipped)", err=True)


def find_record(state_dir: str, records: list[dict[str, object]], target: str) -> dict[str, object]:
    """The record with id ``target`` (the last line of it), or an error that says where the
    ids are."""
    matches = [r for r in records if r.get("id") == target]
    if not matches:
        raise click.ClickException(
            f"no decision with id {target!r} in {shown_path(decisions_path(state_dir))}; "
            "ctx-decide --list shows the ids (second column)"
        )
    return matches[-1]


def drop_record(
    state_dir: str, target: str, session: str, author: str = "", project: str | None = None
) -> None:
    """--drop ID: append a drop mark (unless the record is dropped already), rebuild."""
    marks: list[dict[str, object]] = []
    records, problems = read_records(state_dir, None, marks)
    _warn_problems(problems)
    record = find_record(state_dir, records, target)
    if retired_ids(marks).get(target) == "dropped":
        click.echo(f"already dropped: {target} {record_item(record)}")
        return
    append_or_explain(state_dir, make_mark_record("drop", target, session=session, author=author))
    click.echo(f"dropped {target} {record_item(record)}; it is no longer injected")
    if enabled(state_dir):
        echo_refresh(state_dir)
    if project is not None:
        sync_auto_memory(state_dir, project, session)


def sync_auto_memory(state_dir: str, project: str, session: str) -> None:
    """Bring Claude Code's auto memory in line with the log now (memory/native.py): a
    dropped record's line and file leave at once. A failure is a warning: the next hook
    run syncs again."""
    from context_memory.memory.native import sync_native

    try:
        result = sync_native(state_dir, project, session=session, force=True)
    except OSError as exc:
        click.echo(f"warning: auto memory not updated: {exc}", err=True)
        return
    if not result.skipped:
        click.echo(f"auto memory: {len(result.written)} line(s) in {result.folder}/MEMORY.md")


def echo_refresh(state_dir: str) -> None:
    """Rebuild the pinned digest if the project uses one, and say so."""
    for line in refresh(state_dir, shown_path):
        click.echo(line, err=line.startswith("warning:"))


def append_or_explain(state_dir: str, record: dict[str, object]) -> None:
    """Append ``record`` to the log, or fail with what went wrong and that nothing was
    recorded."""
    try:
        append_record(state_dir, record)
    except RecordError as exc:  # too long once written as a line
        raise click.ClickException(f"{exc}; nothing recorded") from None
    # Before OSError: the lock's Timeout is a TimeoutError, which is an OSError.
    except TimeoutError:
        raise click.ClickException(
            f"{decisions_path(state_dir)} stayed locked by another writer for "
            f"{LOCK_TIMEOUT_SECONDS:g} s; nothing recorded. Run the command again"
        ) from None
    except OSError as exc:
        where = exc.filename or decisions_path(state_dir)
        raise click.ClickException(f"{where}: {exc.strerror or exc}; nothing recorded") from None


def change_pin(state_dir: str, kind: str, target: str, session: str, author: str = "") -> None:
    """--pin / --unpin ID: append a pin record (unless nothing would change), rebuild."""
    pins: list[dict[str, object]] = []
    records, problems = read_records(state_dir, pins)
    _warn_problems(problems)
    record = find_record(state_dir, records, target)
    verb = "pinned" if kind == "pin" else "unpinned"
    if (target in pinned_ids(pins)) == (kind == "pin"):
        click.echo(f"already {verb}: {target} {record_item(record)}")
        return
    append_or_explain(state_dir, make_pin_record(kind, target, session=session, author=author))
    click.echo(f"{verb} {target} {record_item(record)}")
    if enabled(state_dir):
        echo_refresh(state_dir)
        if kind == "pin" and target not in index_ids(state_dir):
            click.echo(
                f"note: {target} is not in the digest: a later entry on the same subject "
                "overrides it, or the pinned entries alone fill the cap (CTX_PIN_TOKENS)"
            )
    else:
        click.echo(
            f"note: this project has no pinned digest ({shown_path(digest_path(state_dir))}); "
            "./install --project DIR --pin-decisions turns it on"
        )


# What the text of each recording option records.
RECORD_KINDS = {"DECISION": "decided", "--rejected": "rejected", "--risk": "risk"}


def chosen_mode(
    given: list[str],
    actions: list[str],
    *,
    list_: bool,
    by_given: bool,
    list_options_given: bool,
) -> str:
    """The one mode the options ask for: an action (``--pin``, ``--unpin``, ``--drop``,
    ``--pin-rebuild``), ``--list``, or the recording option given (``DECISION``,
    ``--rejected``, ``--risk``); a ClickException naming what to leave out otherwise.

    ``given``: the recording options given; ``actions``: the actions given, in that order.
    """
    if by_given and not given:
        raise click.ClickException(
            "--by says who stated a record: give it with DECISION, --rejected TEXT or --risk TEXT"
        )
    if actions:
        if len(actions) > 1 or given or list_:
            others = actions[1:] + given + (["--list"] if list_ else [])
            raise click.ClickException(f"{actions[0]} goes alone; drop {others[0]}")
        return actions[0]
    if list_:
        if given:
            raise click.ClickException(f"--list does not record anything; drop {given[0]}")
        return "--list"
    if list_options_given:
        raise click.ClickException("--last, --json and --author only go with --list")
    if len(given) != 1:
        raise click.ClickException(
            "give exactly one of DECISION, --rejected TEXT, --risk TEXT (or --list); got "
            + (", ".join(given) if given else "none")
        )
    return given[0]


def rebuild_digest(state_dir: str) -> None:
    """--pin-rebuild: rebuild the pinned digest, or say how to turn it on."""
    if not enabled(state_dir):
        raise click.ClickException(
            f"this project has no pinned digest ({shown_path(digest_path(state_dir))}); "
            "./install --project DIR --pin-decisions turns it on"
        )
    echo_refresh(state_dir)


def record_text(
    state_dir: str,
    project: str,
    kind: str,
    text: str,
    *,
    session: str | None,
    reason: str,
    alternatives: tuple[str, ...],
    keywords: tuple[str, ...],
    by: str | None,
) -> None:
    """DECISION, --rejected or --risk: make the record (stated by ``by``, else by the agent
    when Claude Code's Bash tool runs this, else by the user), append it, rebuild."""
    try:
        record = make_record(
            kind,
            text,
            session=session_for(session),
            reason=reason,
            alternatives=alternatives,
            keywords=split_keywords(keywords),
            author=record_author(project, state_dir),
            by=by or ("agent" if run_by_agent() else "user"),
        )
    except RecordError as exc:
        raise click.ClickException(f"{exc}; nothing recorded") from None
    append_or_explain(state_dir, record)
    click.echo(f"recorded {kind} {record['id']} in {shown_path(decisions_path(state_dir))}")
    echo_refresh(state_dir)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("decision", required=False, callback=utf8_text)
@click.option(
    "--rejected", callback=utf8_text, metavar="TEXT", help="Record an option that was rejected."
)
@click.option("--risk", callback=utf8_text, metavar="TEXT", help="Record a risk.")
@click.option(
    "--reason", callback=utf8_text, default="", metavar="TEXT", help="Why (for any kind)."
)
@click.option(
    "--alt",
    "alternatives",
    multiple=True,
    callback=utf8_text,
    metavar="TEXT",
    help="An alternative considered (repeatable).",
)
@click.option(
    "--keywords",
    multiple=True,
    callback=utf8_text,
    metavar="WORDS",
    help="Terms a later audit should look for (repeatable, or comma-separated).",
)
@click.option(
    "--by",
    type=click.Choice(BY_VALUES),
    help="Who stated it (default: agent when Claude Code's Bash tool runs this, as "
    "CLAUDECODE=1 says; else user). A rejection by the user makes ctx-guard ask.",
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
@click.option("--pin", metavar="ID", help="Keep decision ID at the top of the pinned digest.")
@click.option("--unpin", metavar="ID", help="Undo --pin ID.")
@click.option(
    "--drop",
    metavar="ID",
    help="Retract record ID (a captured one, say): kept in the log, never injected again.",
)
@click.option(
    "--pin-rebuild",
    is_flag=True,
    help=f"Rebuild {STATE_DIRNAME}/{PINNED_FILE} (after a git pull).",
)
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
    by: str | None,
    session: str | None,
    list_: bool,
    last: int | None,
    as_json: bool,
    pin: str | None,
    unpin: str | None,
    drop: str | None,
    pin_rebuild: bool,
    author: str | None,
) -> None:
    """Record DECISION (or --rejected / --risk) in .working-state/decisions.jsonl.

    The log lives in the .working-state folder of this session's project (as its hooks
    recorded it; run by hand: the nearest folder upwards holding .working-state, .claude
    or .git). CTX_STATE_DIR overrides.
    """
    project, state_dir = cli_location()
    texts = {"DECISION": decision, "--rejected": rejected, "--risk": risk}
    given = [name for name, value in texts.items() if value is not None]
    actions = {"--pin": pin, "--unpin": unpin, "--drop": drop, "--pin-rebuild": pin_rebuild}
    mode = chosen_mode(
        given,
        [name for name, value in actions.items() if value],
        list_=list_,
        by_given=by is not None,
        list_options_given=last is not None or as_json or author is not None,
    )
    if mode == "--pin-rebuild":
        rebuild_digest(state_dir)
    elif mode == "--drop":
        drop_record(
            state_dir,
            drop or "",
            session_for(session),
            record_author(project, state_dir),
            project=str(project),
        )
    elif mode in ("--pin", "--unpin"):
        change_pin(
            state_dir,
            mode.removeprefix("--"),
            pin or unpin or "",
            session_for(session),
            record_author(project, state_dir),
        )
    elif mode == "--list":
        list_records(
            state_dir,
            session_for(session) if session else None,
            last,
            as_json,
            author,
            project=str(project),
        )
    else:
        record_text(
            state_dir,
            project,
            RECORD_KINDS[mode],
            texts[mode] or "",
            session=session,
            reason=reason,
            alternatives=alternatives,
            keywords=keywords,
            by=by,
        )


def main(argv: list[str] | None = None) -> int:
    return run_click(cli, argv, "ctx-decide")


if __name__ == "__main__":
    sys.exit(main())
