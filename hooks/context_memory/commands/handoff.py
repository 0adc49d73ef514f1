"""ctx-handoff: write a stage handoff, ``sessions/<id>/handoffs/stage-N.md``.

    ctx-handoff < handoff.md        validate and write the Markdown on stdin
    ctx-handoff --draft             assemble it from decisions.jsonl, the transcript and the plan
    ctx-handoff --draft --dry-run   print the draft, write nothing

A handoff has exactly five sections, in this order: ``## Decided``, ``## Rejected``,
``## Risks``, ``## Files Modified``, ``## Remaining`` (an empty one says ``- none``), under a
front matter with the session, stage, UTC time and the tokens in context.
"""

from __future__ import annotations

import os
import sys

import click

from context_memory.commands.common import (
    CONTEXT_SETTINGS,
    cli_location,
    is_manual_session,
    read_text_input,
    run_click,
    session_for,
    shown_path,
)
from context_memory.core.state import UnsafeNameError
from context_memory.measure.report import measure_context
from context_memory.memory.decisions import utc_now_iso
from context_memory.memory.handoff import (
    MAX_STAGE,
    HandoffFormatError,
    parse_handoff,
    render_handoff,
)
from context_memory.memory.handoff_draft import (
    StageExistsError,
    StageRangeError,
    draft_sections,
    session_facts,
    write_stage,
)
from context_memory.transcript.locate import TranscriptNotFound, transcript_for_session

EXAMPLE = "ctx-handoff < handoff.md, or ctx-handoff --draft"
EXAMPLE_FILE = "ctx-handoff < handoff.md"


def find_transcript(option: str | None, session: str, project_dir: str) -> str | None:
    """``--transcript`` (must exist), else the session's file under the client's projects
    folder, else None."""
    if option is not None:
        if not os.path.isfile(option):
            raise click.ClickException(f"--transcript {option}: no such file")
        return option
    if is_manual_session(session):
        return None
    try:
        return os.fspath(transcript_for_session(session, project_dir))
    except TranscriptNotFound:
        return None


def tokens_in(transcript: str | None) -> int:
    if transcript is None:
        return 0
    try:
        return measure_context(transcript).tokens
    except OSError:
        return 0


@click.command(context_settings=CONTEXT_SETTINGS)
@click.option("--draft", is_flag=True, help="Assemble the five sections instead of reading stdin.")
@click.option(
    "--session",
    metavar="ID",
    help="Session id (default: $CLAUDE_CODE_SESSION_ID, else this machine's manual-<tag>).",
)
@click.option(
    "--stage",
    type=click.IntRange(min=1, max=MAX_STAGE),
    metavar="N",
    help="Stage number (default: the next free one).",
)
@click.option(
    "--transcript",
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="The session's transcript (default: found under the client's projects folder).",
)
@click.option(
    "--file", type=click.Path(dir_okay=False), metavar="PATH", help="Read the handoff from PATH."
)
@click.option("--force", is_flag=True, help="Replace the stage if it already exists.")
@click.option("--dry-run", is_flag=True, help="Print the handoff instead of writing it.")
def cli(
    draft: bool,
    session: str | None,
    stage: int | None,
    transcript: str | None,
    file: str | None,
    force: bool,
    dry_run: bool,
) -> None:
    """Write a stage handoff for this session to
    .working-state/sessions/<id>/handoffs/stage-N.md.

    The Markdown on stdin (or --file) must have exactly five sections, in this order:
    ## Decided, ## Rejected, ## Risks, ## Files Modified, ## Remaining (an empty one
    says "- none"). --draft assembles them from this session's ctx-decide records since
    its last handoff, the files its transcript shows edited, and the open to-do items
    (else the unchecked items of current-plan.md).
    """
    # Outside Claude Code this is the machine's manual-<tag>, as for ctx-decide: people's own
    # records, and a handoff folder no other clone writes to.
    session_id = session_for(session)
    project_dir, state_dir = cli_location()
    transcript_path = find_transcript(transcript, session_id, project_dir)
    if draft:
        if file is not None:
            raise click.ClickException("--draft assembles the handoff itself; drop --file")
        facts = session_facts(state_dir, session_id, transcript_path)
        for problem in facts.problems:
            click.echo(f"warning: {problem} (skipped)", err=True)
        if facts.transcript_note:
            click.echo(
                f"warning: {facts.transcript_note}: Files Modified may be incomplete", err=True
            )
        sections = draft_sections(facts, state_dir, session_id, project_dir)
    else:
        text = read_text_input(file, "handoff Markdown", EXAMPLE)
        if not text.strip():
            raise click.ClickException(
                f"{file or 'stdin'} is empty: give the handoff Markdown ({EXAMPLE_FILE}), or "
                "let ctx-handoff --draft assemble it from this session's decisions, "
                "transcript and plan; nothing written"
            )
        try:
            sections = parse_handoff(text).sections
        except HandoffFormatError as exc:
            raise click.ClickException(f"{exc}; nothing written") from None
    tokens = tokens_in(transcript_path)
    if dry_run:
        meta = {
            "session": session_id,
            "stage": str(stage or "next"),
            "time": utc_now_iso(),
            "tokens": str(tokens),
        }
        click.echo(render_handoff(meta, sections), nl=False)
        return
    try:
        path = write_stage(
            state_dir, session_id, sections, tokens=tokens, stage=stage, overwrite=force
        )
    except StageExistsError:
        raise click.ClickException(
            f"stage {stage} of session {session_id} already exists; pass --force to replace "
            "it, or leave out --stage to write the next one"
        ) from None
    except (UnsafeNameError, StageRangeError) as exc:
        raise click.ClickException(f"{exc}; nothing written") from None
    except TimeoutError:
        raise click.ClickException(
            "another ctx-handoff is writing this session's handoffs; nothing written. "
            "Run the command again"
        ) from None
    except OSError as exc:
        raise click.ClickException(
            f"{exc.filename or state_dir}: {exc.strerror or exc}; nothing written"
        ) from None
    click.echo(f"wrote {shown_path(path)}")


def main(argv: list[str] | None = None) -> int:
    return run_click(cli, argv, "ctx-handoff")


if __name__ == "__main__":
    sys.exit(main())
