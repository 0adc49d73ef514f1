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

from context_memory import TYPE_CHECKING
from context_memory.commands.common import (
    CONTEXT_SETTINGS,
    SESSION_ENV,
    cli_location,
    is_manual_session,
    read_text_input,
    run_click,
    session_for,
    shown_path,
    transcript_by_hand,
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
from context_memory.transcript.by_hand import session_of
from context_memory.transcript.locate import TranscriptNotFound, transcript_for_session

if TYPE_CHECKING:
    from context_memory.memory.handoff import HandoffMeta

EXAMPLE = "ctx-handoff < handoff.md, or ctx-handoff --draft"
EXAMPLE_FILE = "ctx-handoff < handoff.md"


def given_transcript(option: str) -> str:
    """``--transcript``: a path or a session id, checked as every by-hand command checks
    its transcript (transcript/by_hand)."""
    try:
        return transcript_by_hand(option, "ctx-handoff", takes_newest=False)
    except click.ClickException as exc:
        # Same class, so the same exit code (WrongTranscript: 2).
        raise type(exc)(f"--transcript {exc.message}") from None


def session_and_transcript(
    option_session: str | None, option_transcript: str | None, project_dir: str
) -> tuple[str, str | None]:
    """The session a handoff is for, and its transcript (None: none found).

    ``--session``, else CLAUDE_CODE_SESSION_ID (the agent's Bash tool), with its file under
    the client's projects folder unless ``--transcript`` names one. By hand (neither): the
    session of ``--transcript``, else of the newest transcript of this folder, as
    ctx-usage and ctx-capture take it, said on stderr; without any, this machine's
    ``manual-<tag>`` (identity.manual_session), with no transcript.
    """
    transcript = given_transcript(option_transcript) if option_transcript is not None else None
    if option_session is None and not os.environ.get(SESSION_ENV):
        if transcript is None:
            try:
                transcript = transcript_by_hand(None, "ctx-handoff")
            except click.ClickException:
                return session_for(None), None
            click.echo(
                f"ctx-handoff: the newest session of this folder ({shown_path(transcript)}); "
                "--session ID picks another",
                err=True,
            )
        try:
            return session_of(transcript), transcript
        except UnsafeNameError:
            return session_for(None), transcript
    session = session_for(option_session)
    if transcript is not None or is_manual_session(session):
        return session, transcript
    try:
        return session, os.fspath(transcript_for_session(session, project_dir))
    except TranscriptNotFound:
        return session, None


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
    help="Session id (default: $CLAUDE_CODE_SESSION_ID; by hand: the newest session of this "
    "folder, else this machine's manual-<tag>).",
)
@click.option(
    "--stage",
    type=click.IntRange(min=1, max=MAX_STAGE),
    metavar="N",
    help="Stage number (default: the next free one).",
)
@click.option(
    "--transcript",
    metavar="PATH",
    help="The session's transcript, a path or a session id (default: found under the "
    "client's projects folder).",
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
    # By hand: the newest session of this folder, else the machine's manual-<tag> (as for
    # ctx-decide: people's own records, and a handoff folder no other clone writes to).
    project_dir, state_dir = cli_location()
    session_id, transcript_path = session_and_transcript(session, transcript, project_dir)
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
        meta: HandoffMeta = {
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
