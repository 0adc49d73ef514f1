"""ctx-usage: how full a session's context is, counted as the client counts it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from context_memory.cli_common import run_click
from context_memory.compaction_count import count_compactions
from context_memory.context_report import ContextReport, measure_context
from context_memory.hookio import HookInputError, parse_hook_input, str_field
from context_memory.locate import (
    TranscriptNotFound,
    looks_like_session_id,
    newest_transcript,
    transcript_for_session,
)
from context_memory.statusline_cache import window_for_transcript
from context_memory.timeline import timeline_report

SOURCE_NOTES = {
    "usage": "from the last assistant reply",
    "compaction": "compaction summary, no reply since",
    "none": "no assistant reply yet",
}


def resolve_transcript_argument(argument: str | None, stdin_text: str | None = None) -> Path:
    """Turn the TRANSCRIPT argument (path, session id, '-' or nothing) into a file path."""
    if argument is None:
        return newest_transcript(os.getcwd())
    if argument == "-":
        try:
            payload = parse_hook_input((stdin_text or "").encode("utf-8"))
        except HookInputError as exc:
            raise TranscriptNotFound(f"'-' reads hook JSON on stdin: {exc}") from None
        path = str_field(payload, "transcript_path")
        if not path:
            raise TranscriptNotFound("the hook JSON on stdin has no transcript_path")
        return Path(path)
    candidate = Path(argument).expanduser()
    if candidate.exists() or not looks_like_session_id(argument):
        return candidate
    return transcript_for_session(argument, os.getcwd())


def _number(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def format_report(report: ContextReport, compactions: int) -> str:
    """The human report: one screen, most important line first."""
    if report.autocompact_threshold is None:
        autocompact = "off (DISABLE_AUTO_COMPACT / DISABLE_COMPACT)"
    else:
        autocompact = (
            f"at {_number(report.autocompact_threshold)} tokens, "
            f"{_number(report.tokens_to_autocompact)} to go"
        )
    lines = [
        f"{report.tokens:,} / {report.window:,} tokens ({report.percent:.1f}%)"
        f"  band: {report.band}",
        f"  tokens        {report.tokens:,} ({SOURCE_NOTES.get(report.source, report.source)})",
        f"  window        {report.window:,} (from {report.window_source})",
        f"  model         {report.model or 'unknown'}",
        f"  auto-compact  {autocompact}",
        f"  compactions   {compactions}",
        f"  transcript    {report.transcript}",
    ]
    return "\n".join(lines)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("transcript", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--window",
    type=click.IntRange(min=1),
    help="Context window in tokens (overrides every other rule; env CTX_WINDOW likewise).",
)
@click.option(
    "--timeline",
    is_flag=True,
    help="Chart the context per turn, with compactions and the biggest jumps "
    "(reads the whole transcript once; with --json: the series).",
)
def cli(transcript: str | None, as_json: bool, window: int | None, timeline: bool) -> None:
    """Show how full a Claude Code session's context is.

    TRANSCRIPT is a transcript path, a session id, or '-' for hook JSON on stdin.
    Without it: the newest transcript of the current directory's project.
    """
    stdin_text = sys.stdin.read() if transcript == "-" else None
    try:
        path = resolve_transcript_argument(transcript, stdin_text)
        # The window ctx-statusline recorded for this session (window_source: statusline).
        cached = window_for_transcript(os.fspath(path))
        report = measure_context(os.fspath(path), window_override=window, statusline_window=cached)
        if timeline:
            click.echo(timeline_report(os.fspath(path), report, as_json=as_json))
            return
        compactions = count_compactions(path)
    except TranscriptNotFound as exc:
        raise click.ClickException(str(exc)) from None
    except IsADirectoryError:
        raise click.ClickException(f"{path} is a directory, not a transcript file") from None
    except FileNotFoundError:
        raise click.ClickException(f"{path}: no such file") from None
    except PermissionError:
        raise click.ClickException(f"{path}: permission denied") from None
    except OSError as exc:
        raise click.ClickException(f"{path}: {exc.strerror or exc}") from None
    if as_json:
        data = report.as_dict()
        data["compactions"] = compactions
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        click.echo(format_report(report, compactions))


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (click's own usage errors stay at 2)."""
    return run_click(cli, argv, "ctx-usage")


if __name__ == "__main__":
    sys.exit(main())
