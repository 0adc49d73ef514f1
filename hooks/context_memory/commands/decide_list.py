"""ctx-decide --list: one line (or a JSON entry) per record, in the order they were stated,
with the model's own auto memories marked; split from ctx-decide's command line."""

from __future__ import annotations

import json

import click

from context_memory.commands.common import shown_path
from context_memory.core.decisions_log import LogProblem, read_records, retired_ids
from context_memory.core.safe_text import one_line
from context_memory.core.state import decisions_path
from context_memory.memory.decisions import stated_at, stated_by
from context_memory.memory.handoff_draft import record_item
from context_memory.memory.native_read import listed_auto_memory
from context_memory.pinned.digest import pinned_ids

KIND_WIDTH = len("rejected")
AUTO_MEMORY = "auto-memory"  # the source of the model's own memories (memory/native_read.py)


def _warn_problems(problems: list[LogProblem]) -> None:
    for problem in problems:
        click.echo(f"warning: {problem} (line skipped)", err=True)


def format_record(
    record: dict[str, object], pinned: bool = False, retired: str = "", in_memory: bool = False
) -> str:
    """One line per record: when it was stated (stated_at), id, kind, text (reason;
    alternatives), then in brackets "captured, user" (or agent) for a record captured from
    the transcript, the session and author; "pinned" for an entry kept at the top of the
    pinned digest, and "superseded" or "dropped" (``retired``) for one that is no longer
    injected; "in MEMORY.md" (``in_memory``) for one mirrored into Claude Code's auto
    memory."""
    # record_item is one safe line already; the other fields come from the file as well.
    kind = one_line(record.get("kind"))
    line = (
        f"{one_line(shown_time(stated_at(record)))}  {one_line(record.get('id', '?'))}  "
        f"{kind:<{KIND_WIDTH}}  {record_item(record)}"
    )
    session = record.get("session")
    author = record.get("author")
    tags = [f"captured, {stated_by(record)}"] if record.get("source") else []
    if record.get("source") == AUTO_MEMORY:
        tags = [f"auto memory, {stated_by(record)}"]
    if in_memory:
        tags.append("in MEMORY.md")
    if session:
        tags.append(one_line(session))
    if isinstance(author, str) and author:
        tags.append(f"by {one_line(author)}")
    line = f"{line}  [{', '.join(tags)}]" if tags else line
    line = f"{line}  pinned" if pinned else line
    return f"{line}  {retired}" if retired else line


def shown_time(stamp: str) -> str:
    """A record's time as --list shows it: to the second, as ctx-decide writes ``ts``
    (a transcript row's ``row_ts`` has milliseconds); "?" for none."""
    if len(stamp) > 20 and stamp[19] == "." and stamp.endswith("Z"):
        return stamp[:19] + "Z"
    return stamp or "?"


def by_author(record: dict[str, object], name: str) -> bool:
    """``--author NAME``: NAME appears in the record's author (name or e-mail), any case."""
    author = record.get("author")
    return isinstance(author, str) and name.casefold() in author.casefold()


def time_order(records: list[dict[str, object]]) -> list[dict[str, object]]:
    """Oldest first by the time each was stated (a captured record: its transcript row's,
    memory.decisions.stated_at): after a union merge a teammate's records may sit anywhere
    in the file, and a capture by hand writes old statements late. Records of one second
    keep their file order."""
    return sorted(records, key=stated_at)


def nothing_listed(shown: str, total: int, session: str | None, author: str | None) -> str:
    """What --list says when no record is listed: none at all, or none that the filters
    let through (and how many there are in all, so a typo in a name is not taken for an
    empty log)."""
    if total == 0:
        return f"no decisions recorded in {shown}"
    which = "".join(
        [
            f" of session {one_line(session)}" if session is not None else "",
            f" by an author matching {one_line(author)!r}" if author is not None else "",
        ]
    )
    noun = "record" if total == 1 else "records"
    return f"no decisions{which} in {shown} ({total} {noun} in all; --list shows them)"


def list_records(
    state_dir: str,
    session: str | None,
    last: int | None,
    as_json: bool,
    author: str | None = None,
    project: str | None = None,
) -> None:
    pins: list[dict[str, object]] = []
    marks: list[dict[str, object]] = []
    records, problems = read_records(state_dir, pins, marks)
    _warn_problems(problems)
    pinned = pinned_ids(pins)
    retired = retired_ids(marks)
    in_memory: frozenset[str] = frozenset()
    if project is not None:
        own, in_memory = auto_memory_of(project)
        records = [*records, *own]
    records = time_order(records)
    total = len(records)
    if session is not None:
        records = [r for r in records if r.get("session") == session]
    if author is not None:
        records = [r for r in records if by_author(r, author)]
    if last is not None:
        records = records[-last:]
    if as_json:
        shown = [
            json_entry(r, r.get("id") in pinned, retired.get(str(r.get("id"))), in_memory)
            for r in records
        ]
        click.echo(json.dumps(shown, ensure_ascii=False, indent=2))
    elif not records:
        click.echo(nothing_listed(shown_path(decisions_path(state_dir)), total, session, author),
                   err=True)  # fmt: skip
    else:
        for record in records:
            ident = str(record.get("id"))
            click.echo(
                format_record(record, ident in pinned, retired.get(ident, ""), ident in in_memory)
            )


def auto_memory_of(project: str) -> tuple[list[dict[str, object]], frozenset[str]]:
    try:
        return listed_auto_memory(project)
    except OSError as exc:
        click.echo(f"warning: auto memory not read: {exc}", err=True)
        return [], frozenset()


def json_entry(
    record: dict[str, object],
    pinned: bool,
    retired: str | None,
    in_memory: frozenset[str] = frozenset(),
) -> dict[str, object]:
    """A record as --list --json shows it: "pinned": true and "status": "superseded" or
    "dropped" added when they apply; "in_memory_md": true for one whose line is in
    Claude Code's MEMORY.md."""
    entry = dict(record)
    if entry.get("id") in in_memory:
        entry["in_memory_md"] = True
    if pinned:
        entry["pinned"] = True
    if retired:
        entry["status"] = retired
    return entry
