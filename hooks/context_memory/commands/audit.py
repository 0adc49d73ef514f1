"""ctx-audit [TRANSCRIPT]: audit a session's compactions against the decisions log, by hand.

The click layer of ctx-audit (context_memory.handlers.audit:main hands over to it when it
is given arguments). Exit 0 when nothing was lost, 1 when something was (it can gate scripts), 2
when it could not tell: a usage error such as a transcript that does not exist or a file
that is no (plain .jsonl) transcript, or a file it could not read (core/exit_codes.py).
Without TRANSCRIPT: the newest session of this folder (transcript/by_hand).
"""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path
from typing import Any

import click

from context_memory.audit.check import audit_decisions, epoch_of, mark_pinned, select_decisions
from context_memory.audit.compactions import Compaction, all_compactions, last_compaction
from context_memory.audit.config import KINDS_AUDITED, audit_last
from context_memory.commands.common import (
    CONTEXT_SETTINGS,
    cli_state_dir,
    run_click,
    shown_path,
    transcript_by_hand,
)
from context_memory.core import exit_codes
from context_memory.core.decisions_log import live_records
from context_memory.core.hookio import hook_usage
from context_memory.core.safe_text import CLIP_MARK, one_line
from context_memory.core.state import UnsafeNameError, decisions_path, session_dir
from context_memory.memory.decisions import stated_at
from context_memory.transcript.by_hand import session_of
from context_memory.transcript.compaction_count import count_compactions

DECISION_WIDTH = 40
TERMS_WIDTH = 28


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _fit(text: str, width: int) -> str:
    """``text`` cut and padded to ``width`` terminal columns (CJK characters take two)."""
    text = one_line(text)
    if _width(text) > width:  # safe_text.clip's mark, but cut by columns, not characters
        while _width(text) > width - len(CLIP_MARK):
            text = text[:-1]
        text += CLIP_MARK
    return text + " " * (width - _width(text))


def _terms(terms: list[str]) -> str:
    return ", ".join(terms) if terms else "-"


def format_compaction(report: dict[str, Any]) -> str:
    """One compaction's table: a heading, then one row per decision."""
    when = report["timestamp"] or "time unknown"
    heading = (
        f"Compaction {report['number']} of {report['of']} ({report['trigger'] or 'unknown'}, "
        f"{when}): {report['lost']} of {len(report['decisions'])} decisions lost"
    )
    if not report["summary_found"]:
        heading += " (no summary row in the transcript: nothing of the summary survives)"
    lines = [
        heading,
        "  "
        + "  ".join(
            [
                _fit("STATUS", 8),
                _fit("KIND", 8),
                _fit("FOUND IN", 13),
                _fit("DECISION", DECISION_WIDTH),
                _fit("TERMS FOUND", TERMS_WIDTH),
                "TERMS MISSING",
            ]
        ),
    ]
    for item in report["decisions"]:
        lines.append(
            "  "
            + "  ".join(
                [
                    _fit(item["status"], 8),
                    _fit(str(item["kind"]), 8),
                    _fit(item["where"] or "-", 13),
                    _fit(str(item["decision"]), DECISION_WIDTH),
                    _fit(_terms(item["found"]), TERMS_WIDTH),
                    _terms(item["missing"]),
                ]
            ).rstrip()
        )
    return "\n".join(lines)


def audit_compaction(
    compaction: Compaction,
    records: list[dict[str, Any]],
    session: str,
    last: int,
    of: int,
    state_dir: str | None = None,
) -> dict[str, Any]:
    decisions = select_decisions(records, session, last, recorded_by=compaction.timestamp)
    results = audit_decisions(decisions, compaction.given, compaction.kept)
    when = epoch_of(compaction.timestamp)
    if state_dir is not None and when is not None:
        try:
            mark_pinned(results, session_dir(state_dir, session), when)
        except (UnsafeNameError, OSError):
            pass  # a session id that names no folder of ours has no snapshot
    return {
        "number": compaction.number,
        "of": of,
        "boundary_uuid": compaction.boundary_uuid,
        "timestamp": compaction.timestamp,
        "trigger": compaction.trigger,
        "summary_found": compaction.summary is not None,
        "lost": sum(1 for item in results if item["status"] == "lost"),
        "survived": sum(1 for item in results if item["status"] == "survived"),
        "decisions": results,
    }


@click.command(
    context_settings=CONTEXT_SETTINGS,
    # \b: click keeps these lines as they are (the example payload must not be rewrapped).
    epilog="\b\nAs a hook (no arguments):\n" + hook_usage("ctx-audit"),
)
@click.argument("transcript", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--all", "every", is_flag=True, help="Audit every compaction, not only the last.")
@click.option(
    "--last",
    type=click.IntRange(min=1),
    help="How many of the most recent decisions to check (default: CTX_AUDIT_LAST, else 5).",
)
def cli(transcript: str | None, as_json: bool, every: bool, last: int | None) -> int:
    """Check what a compaction kept of the recorded decisions.

    TRANSCRIPT is a transcript path or a session id (default: the newest session of this
    folder, as for ctx-usage and ctx-capture). The most recent decisions and every
    rejection of the session are looked up in what survived the compaction: the summary
    and the messages the client kept verbatim. Exit 0 when nothing was lost, 1 when
    something was, 2 when it could not tell.
    """
    path = Path(transcript_by_hand(transcript, "ctx-audit"))
    state_dir = cli_state_dir()
    records, problems = live_records(state_dir)
    for problem in problems:
        click.echo(f"Warning: {problem} (skipped)", err=True)
    try:
        total = count_compactions(path, use_cache=False)
        if every:
            compactions = all_compactions(os.fspath(path))
        else:
            # By hand the whole file may be read: no byte bound.
            found = last_compaction(os.fspath(path), max_bytes=max(os.path.getsize(path), 1))
            compactions = [found] if found is not None else []
            if found is not None:
                found.number = total
    except PermissionError:
        raise click.ClickException(f"{path}: permission denied") from None
    except OSError as exc:
        raise click.ClickException(f"{path}: {exc.strerror or exc}") from None
    session = _session_of(compactions, path)
    limit = last or audit_last()
    reports = [audit_compaction(c, records, session, limit, total, state_dir) for c in compactions]
    lost = sum(report["lost"] for report in reports)
    if as_json:
        data = {
            "transcript": os.fspath(path),
            "decisions_log": decisions_path(state_dir),
            "session": session,
            "compactions": reports,
            "lost": lost,
        }
        click.echo(json.dumps(data, ensure_ascii=False))
    elif not compactions:
        click.echo(f"No compaction in {shown_path(os.fspath(path))}: nothing to audit.")
    elif not any(report["decisions"] for report in reports):
        click.echo(no_decisions_message(records, compactions, decisions_path(state_dir)))
    else:
        click.echo("\n\n".join(format_compaction(report) for report in reports))
    return exit_codes.AUDIT_LOST if lost else exit_codes.AUDIT_NOTHING_LOST


def no_decisions_message(
    records: list[dict[str, Any]], compactions: list[Compaction], log: str
) -> str:
    """Why nothing was audited: no records at all, or only records stated after the
    compaction(s) (a captured one: when its row was written), which the summary could not
    have held and which are therefore skipped."""
    latest = max((c.timestamp for c in compactions if c.timestamp), default=None)
    audited_kinds = [r for r in records if r.get("kind") in KINDS_AUDITED]
    newer = [r for r in audited_kinds if latest and stated_at(r) > latest]
    if newer and len(newer) == len(audited_kinds):
        noun = "decision was" if len(newer) == 1 else "decisions were"
        return (
            f"Nothing to audit: the {len(newer)} {noun} recorded after the last compaction "
            f"({latest}), so its summary could not hold them and the audit skips them "
            f"(the next compaction is audited against them; see {shown_path(log)})."
        )
    return f"No recorded decisions to audit in {shown_path(log)} (record them with ctx-decide)."


def _session_of(compactions: list[Compaction], path: Path) -> str:
    """The compaction rows' session, else the one the transcript's rows name, else (no
    row names a usable one) the file name."""
    for compaction in compactions:
        if compaction.session:
            return compaction.session
    try:
        return session_of(os.fspath(path))
    except UnsafeNameError:
        return path.stem


def run_cli(argv: list[str]) -> int:
    """Run the command; the exit status says 0 nothing lost, 1 lost, 2 could not run
    (exit_codes.AUDIT_*)."""
    return run_click(cli, argv, "ctx-audit", failure=exit_codes.AUDIT_COULD_NOT_RUN)
