"""ctx-usage: how full a session's context is, counted as the client counts it.

argparse, not click: people and scripts (status bars, shell prompts) run this often, and
importing click alone costs three bare interpreter starts (measured: 80 ms over a 21 ms
floor in a clean virtualenv), which would break the 4x budget before any work is done.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

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

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2

SOURCE_NOTES = {
    "usage": "from the last assistant reply",
    "compaction": "compaction summary, no reply since",
    "none": "no assistant reply yet",
}


class UsageError(Exception):
    """Something the user can fix; printed as one ``Error:`` line, exit 1."""


def resolve_transcript_argument(argument: str | None, stdin_text: str | None = None) -> str:
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
        return path
    candidate = os.path.expanduser(argument)
    if os.path.exists(candidate) or not looks_like_session_id(argument):
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ctx-usage",
        allow_abbrev=False,
        description="Show how full a Claude Code session's context is.",
        epilog="TRANSCRIPT is a transcript path, a session id, or '-' for hook JSON on stdin. "
        "Without it: the newest transcript of the current directory's project.",
    )
    parser.add_argument("transcript", nargs="?", metavar="TRANSCRIPT")
    parser.add_argument("--json", dest="as_json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--window",
        type=_positive_int,
        metavar="N",
        help="context window in tokens (overrides every other rule; env CTX_WINDOW likewise)",
    )
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="chart the context per turn, with compactions and the biggest jumps (reads the "
        "whole transcript once; with --json: the series)",
    )
    return parser


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number of tokens")
    return value


def usage_output(args: argparse.Namespace, stdin_text: str | None) -> str:
    """What ctx-usage prints for ``args``; raises UsageError with a one-line message."""
    path = ""
    try:
        path = resolve_transcript_argument(args.transcript, stdin_text)
        # The window ctx-statusline recorded for this session (window_source: statusline).
        cached = window_for_transcript(path)
        report = measure_context(path, window_override=args.window, statusline_window=cached)
        if args.timeline:
            from context_memory.timeline import timeline_report  # reads the whole file anyway

            return timeline_report(path, report, as_json=args.as_json)
        compactions = count_compactions(path)
    except TranscriptNotFound as exc:
        raise UsageError(str(exc)) from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a directory, not a transcript file") from None
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except PermissionError:
        raise UsageError(f"{path}: permission denied") from None
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror or exc}") from None
    if args.as_json:
        data = report.as_dict()
        data["compactions"] = compactions
        return json.dumps(data, ensure_ascii=False)
    return format_report(report, compactions)


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status: 0, 1 for an error, 2 for a usage error."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2), already printed
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    stdin_text = sys.stdin.read() if args.transcript == "-" else None
    try:
        output = usage_output(args, stdin_text)
    except UsageError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        print(output)
    except BrokenPipeError:  # ctx-usage | head
        pass
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
