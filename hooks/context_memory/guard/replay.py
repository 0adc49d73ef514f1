"""``ctx-guard --replay TRANSCRIPT [--preload] [--json]``: what the guard would have said at
each tool call of a real session.

As recorded (the default), the transcript is read in file order: before each main-chain
assistant row, its tool calls are judged against what was known then: the records
captured (capture.engine.Capturer) from the rows before it, starting from nothing,
superseded ones left out as the store leaves them out; what a turn states comes out of the
engine when the turn is over (the next prompt), as capture writes it at the turn's Stop.
Then the row is fed to the capturer. With ``--preload``, as the next session would see
it: the whole transcript is captured first, and every call is judged against its final
live records. Records are made as the store makes them
(memory.decisions.make_captured_record). Nothing is read from or written to the state
folder: the measurement of the guard on a session, not a run of it.

Not on the hook path: json, gzip and the capture engine are imported here only. The file
is found, checked and read as by every by-hand command (transcript/by_hand): a .jsonl.gz
is decompressed in bounded reads; a file that is no transcript exits USAGE (2).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from context_memory import TYPE_CHECKING
from context_memory.core import bulkjson
from context_memory.core.exit_codes import FAILURE, OK, USAGE
from context_memory.core.hookio import GUARDED_TOOLS
from context_memory.core.safe_text import clip
from context_memory.guard.entries import entries_of
from context_memory.guard.match import ALLOW, ASK, ask_text, judge, remind_text
from context_memory.memory.decisions import RecordError, make_captured_record, superseded_by
from context_memory.transcript.by_hand import (
    NotATranscript,
    check_transcript,
    find_transcript,
    transcript_lines,
)
from context_memory.transcript.facts import tool_uses
from context_memory.transcript.locate import TranscriptNotFound

if TYPE_CHECKING:
    from context_memory.guard.match import GuardEntry


class ReplayError(Exception):
    """The transcript cannot be replayed (missing, unreadable, too big)."""


def read_rows(path: str) -> Iterator[dict[str, Any]]:
    """The transcript's JSON object rows in file order, plain or gzip-compressed, read
    through the by-hand commands' one bounded reader (transcript/by_hand); a line that is
    not a JSON object is skipped, as the client skips it."""
    loads = bulkjson.bulk_loads()
    try:
        for raw in transcript_lines(path):
            try:
                row = loads(raw)
            except (ValueError, RecursionError):
                continue
            if isinstance(row, dict):
                yield row
    except OSError as exc:
        raise ReplayError(f"{path}: {exc.strerror or exc}") from None


def tool_calls(row: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool_use blocks of a main-chain assistant row."""
    return [] if row.get("isSidechain") else tool_uses(row)


class Knowledge:
    """The live records known so far and their index entries, from captured items."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.entries: list[GuardEntry] = []
        self.count = 0

    def add(self, item: dict[str, Any]) -> None:
        self.count += 1
        try:
            record = make_captured_record(
                item, session="replay", ts=str(item.get("row_ts") or "") or None
            )
        except RecordError:
            return
        record["id"] = f"replay-{self.count}"
        # The store's rule at append time (memory.decisions.superseded_by); entries_of
        # applies the typed rule (constraint.live_by_subject) over what is left.
        gone = set(superseded_by(record, list(self.records)))
        self.records = [r for r in self.records if r.get("id") not in gone] + [record]
        self.entries = entries_of(self.records)


def _gist(tool: str, tool_input: object) -> str:
    if not isinstance(tool_input, dict):
        return ""
    for key in ("command", "file_path", "notebook_path", "pattern", "url", "prompt"):
        value = tool_input.get(key)
        if isinstance(value, str):
            return clip(" ".join(value.split()), 160)
    return ""


def _result(
    row: dict[str, Any], block: dict[str, Any], entries: list[GuardEntry]
) -> dict[str, Any]:
    name = block.get("name")
    tool: str = name if isinstance(name, str) else ""
    given = block.get("input")
    tool_input: dict[str, Any] = given if isinstance(given, dict) else {}
    verdict = judge(tool, tool_input, entries)
    text = ""
    if verdict.verdict == ASK:
        text = ask_text(verdict)
    elif verdict.verdict != ALLOW:
        text = remind_text(verdict)
    return {
        "uuid": row.get("uuid", ""),
        "tool_use_id": block.get("id", ""),
        "tool": tool,
        "guarded": tool in GUARDED_TOOLS,
        "input": _gist(tool, tool_input),
        "verdict": verdict.verdict,
        "what": verdict.what,
        "text": text,
        "record": verdict.entry,
    }


def replay(
    rows: Iterable[dict[str, Any]],
    capturer_factory: Callable[[], Any] | None = None,
    *,
    preload: bool = False,
) -> list[dict[str, Any]]:
    """One verdict per main-chain tool call, in order: against what was captured before
    the call (as recorded), or against the transcript's final live records (``preload``)."""
    if capturer_factory is None:
        from context_memory.capture.engine import Capturer

        capturer_factory = Capturer
    capturer = capturer_factory()
    known = Knowledge()
    results: list[dict[str, Any]] = []
    calls: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for row in rows:
        for block in tool_calls(row):
            if preload:
                calls.append((row, block))
            else:
                results.append(_result(row, block, known.entries))
        for item in capturer.feed(row) or ():
            if isinstance(item, dict):
                known.add(item)
        if _compacts(row):
            # PreCompact runs capture: what the turn stated so far is written then.
            end_run = getattr(capturer, "end_run", None)
            for item in (end_run() if callable(end_run) else None) or ():
                if isinstance(item, dict):
                    known.add(item)
    if preload:
        flush = getattr(capturer, "flush", None)
        for item in (flush() if callable(flush) else None) or ():
            if isinstance(item, dict):
                known.add(item)
        results = [_result(row, block, known.entries) for row, block in calls]
    return results


def _compacts(row: object) -> bool:
    return (
        isinstance(row, dict)
        and row.get("type") == "system"
        and row.get("subtype") == "compact_boundary"
    )


def summary(results: list[dict[str, Any]]) -> str:
    guarded = sum(1 for r in results if r["guarded"])
    asks = sum(1 for r in results if r["verdict"] == ASK)
    reminds = sum(1 for r in results if r["verdict"] not in (ASK, ALLOW))
    return f"{len(results)} tool calls, {guarded} guarded: {asks} ask, {reminds} remind"


def render_text(results: list[dict[str, Any]]) -> str:
    lines = []
    for result in results:
        line = f"{result['uuid'][:8] or '-':8} {result['verdict']:6} {result['tool']}"
        if result["input"]:
            line += f": {result['input']}"
        lines.append(line)
        if result["text"]:
            lines.append(f"         {result['text']}")
    lines.append(summary(results))
    return "\n".join(lines) + "\n"


USAGE_LINE = "usage: ctx-guard --replay TRANSCRIPT [--preload] [--json]\n"


def replay_main(args: list[str]) -> int:
    """The --replay command line: TRANSCRIPT [--preload] [--json] (a path or a session
    id). OK; FAILURE (no such transcript, an unreadable one) or USAGE (a file that is no
    transcript, a wrong command line) with one line on stderr."""
    as_json = "--json" in args
    preload = "--preload" in args
    paths = [a for a in args if a not in ("--json", "--preload")]
    if len(paths) != 1 or paths[0].startswith("-"):
        sys.stderr.write(USAGE_LINE)
        return USAGE
    try:
        path = find_transcript(paths[0], os.getcwd())
        check_transcript(path, "ctx-guard --replay", gzip_ok=True, takes_newest=False)
        results = replay(read_rows(path), preload=preload)
    except NotATranscript as exc:  # the command line named the wrong file
        sys.stderr.write(f"ctx-guard: {exc}\n")
        return USAGE
    except TranscriptNotFound as exc:
        sys.stderr.write(f"ctx-guard: {exc}\n")
        return FAILURE
    except (ReplayError, OSError) as exc:
        shown = exc if isinstance(exc, ReplayError) else f"{paths[0]}: {exc.strerror or exc}"
        sys.stderr.write(f"ctx-guard: {shown}\n")
        return FAILURE
    if as_json:
        sys.stdout.write(json.dumps(results, ensure_ascii=False, indent=1) + "\n")
    else:
        sys.stdout.write(render_text(results))
    return OK
