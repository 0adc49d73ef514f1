"""ctx-capture [TRANSCRIPT]: capture by hand what a session decided, rejected or required.

    ctx-capture                  the newest session of this folder (as ctx-usage finds it)
    ctx-capture SESSION_ID       that session's transcript
    ctx-capture PATH --json      print the records added as a JSON list (a plain .jsonl:
                                 a .jsonl.gz is refused by name, gunzip it first)
    ctx-capture --dry-run        say what would be added; write nothing, not even the position

The Stop and PreCompact hooks do the same on their own (capture/store.py); by hand it reads
from the session's last captured position too, and also emits what the engine holds
pending (an interrupted call whose reason never came). Rows already captured add nothing.
"""

from __future__ import annotations

import json
import sys

import click

from context_memory.capture.store import CaptureResult, capture_session
from context_memory.commands.common import (
    CONTEXT_SETTINGS,
    cli_location,
    run_click,
    shown_path,
    transcript_by_hand,
)
from context_memory.core.bulkjson import bulk_loads
from context_memory.core.safe_text import one_line
from context_memory.core.state import UnsafeNameError, decisions_path
from context_memory.memory.decisions import stated_by
from context_memory.memory.handoff_draft import record_item
from context_memory.memory.identity import record_author
from context_memory.transcript.by_hand import session_of


def record_line(record: dict[str, object]) -> str:
    """``kind  id  text (reason; stated by the user)  [source]``."""
    return (
        f"{one_line(record.get('kind'))}  {one_line(record.get('id'))}  {record_item(record)}"
        f"  [{one_line(record.get('source'))}, {stated_by(record)}]"
    )


def report_lines(result: CaptureResult, log: str, dry_run: bool) -> list[str]:
    """What the run added (or would add), what it superseded, what it skipped."""
    verb = "would add" if dry_run else "added"
    lines = [f"{verb} {len(result.added)} record(s) to {log}"]
    lines.extend(f"  {record_line(record)}" for record in result.added)
    for old, new in result.superseded.items():
        lines.append(f"  {old} {'would be' if dry_run else 'is'} superseded by {new}")
    if result.duplicates:
        lines.append(f"{result.duplicates} already captured before (not added again)")
    if result.damaged_rows:
        lines.append(f"{result.damaged_rows} damaged transcript row(s) skipped")
    if result.skipped_bytes:
        lines.append(f"only the newest part was read ({result.skipped_bytes} bytes skipped)")
    return lines


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("transcript", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the records as a JSON list.")
@click.option("--dry-run", is_flag=True, help="Write nothing anywhere (no record, no position).")
def cli(transcript: str | None, as_json: bool, dry_run: bool) -> None:
    """Capture decisions, rejections and constraints from TRANSCRIPT (a path or a session
    id; default: the newest session of this folder) into .working-state/decisions.jsonl,
    for the session its rows name. CTX_CAPTURE=off turns off the hooks' capture, not this
    command. Exit 2 for a file that is no (plain .jsonl) transcript.
    """
    # The hooks' rule for the position: the absolute path, the session its rows name.
    path = transcript_by_hand(transcript, "ctx-capture")
    try:
        session = session_of(path)
    except UnsafeNameError as exc:
        raise click.ClickException(str(exc)) from None
    project, state_dir = cli_location()
    try:
        result = capture_session(
            state_dir,
            session,
            path,
            author=lambda: record_author(project, state_dir),
            dry_run=dry_run,
            flush=True,
            loads=bulk_loads(),  # a catch-up reads the whole transcript
        )
    except OSError as exc:
        where = exc.filename or path
        raise click.ClickException(f"{where}: {exc.strerror or exc}; nothing captured") from None
    if as_json:
        click.echo(json.dumps(result.added, ensure_ascii=False, indent=2))
        return
    for line in report_lines(result, shown_path(decisions_path(state_dir)), dry_run):
        click.echo(line)


def main(argv: list[str] | None = None) -> int:
    return run_click(cli, argv, "ctx-capture")


if __name__ == "__main__":
    sys.exit(main())
