"""The context of a session over time: tokens per turn, compactions, and the biggest jumps.

``ctx-usage --timeline`` draws it in the terminal (timeline_chart.py); ``--json`` gives the
series. Unlike the
hooks, this needs every reply of the session, so it reads the whole transcript once,
forwards, in blocks. Most of a transcript is tool results and system-prompt snapshots
that say nothing about the context size: a byte search finds the few rows worth parsing
(assistant replies and compact boundaries) and only those go through the JSON parser.

One point per main-chain assistant reply: the client writes one row per content block,
all sharing ``message.id``, and the last row carries the final usage. Tokens are counted
as ctx-usage counts them (transcript/rows.usage_tokens).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from context_memory.core import bulkjson
from context_memory.core.record import Record
from context_memory.core.safe_text import clip
from context_memory.transcript.rows import (
    eligible_assistant_usage,
    is_compact_boundary,
    open_transcript,
    usage_tokens,
)

READ_BLOCK = 1024 * 1024
# The byte needles: an assistant row's own "type" key, and compact boundaries. Inside
# JSON strings quotes are escaped, so these raw bytes only occur as real keys (or in
# nested objects of other rows, which the parsed row's own type rules out). The client
# writes compact JSON; a file re-serialised with ", " / ": " separators gets the spaced
# needles (decided once, from the first line: each needle costs a pass over the bytes).
COMPACT_NEEDLES = (b'"type":"assistant"', b'"subtype":"compact_boundary"')
SPACED_NEEDLES = (b'"type": "assistant"', b'"subtype": "compact_boundary"')
TARGET_KEYS = ("file_path", "notebook_path", "path", "pattern", "command", "url", "query")
TARGET_CHARS = 48
MAX_TOOLS_SHOWN = 3
JUMPS_SHOWN = 5


class Point(Record):
    """One main-chain assistant reply: its turn number (1-based) and context tokens."""

    turn: int
    tokens: int
    message_id: str | None
    timestamp: str | None
    tools: list[str]  # named by the reply's tool calls, each once


class CompactionMark(Record):
    """A compact boundary, placed after ``after_turn`` replies (0 = before the first)."""

    after_turn: int
    trigger: str | None
    pre_tokens: int | None
    post_tokens: int | None
    timestamp: str | None


class Jump(Record):
    """Tokens added between the previous reply (or compaction) and ``turn``."""

    turn: int
    added: int
    before: int
    after: int
    tools: list[str]
    after_compaction: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "added": self.added,
            "from": self.before,
            "to": self.after,
            "tools": list(self.tools),
            "after_compaction": self.after_compaction,
        }


class Timeline:
    __slots__ = ("bytes_read", "compactions", "points")

    def __init__(self) -> None:
        self.points: list[Point] = []
        self.compactions: list[CompactionMark] = []
        self.bytes_read = 0


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def needles_for(first_block: bytes) -> tuple[bytes, ...]:
    """The needles matching the JSON style of the file's first line."""
    end = first_block.find(b"\n")
    first_line = first_block if end == -1 else first_block[:end]
    if b'":"' not in first_line and b'": ' in first_line:
        return SPACED_NEEDLES
    return COMPACT_NEEDLES


def _candidate_starts(block: bytes, end: int, needles: tuple[bytes, ...]) -> list[int]:
    """Start offsets of the lines in ``block[:end]`` that hold one of ``needles``."""
    starts: set[int] = set()
    for needle in needles:
        position = block.find(needle, 0, end)
        while position != -1:
            line_start = block.rfind(b"\n", 0, position) + 1
            starts.add(line_start)
            # The rest of that line needs no second look.
            line_end = block.find(b"\n", position, end)
            if line_end == -1:
                break
            position = block.find(needle, line_end, end)
    return sorted(starts)


def candidate_lines(path: str | os.PathLike[str], block_size: int = READ_BLOCK) -> Iterator[bytes]:
    """The lines of ``path``, in file order, that may be an assistant row or a boundary.

    Reads forwards in ``block_size`` blocks; a block is cut at its last newline and the
    rest is read again with the next block, so lines longer than a block still come whole.
    A last line without a newline (being written) is yielded too: its parse may fail.
    """
    needles: tuple[bytes, ...] | None = None
    with open_transcript(path, buffering=0) as handle:
        size = block_size
        while True:
            start = handle.tell()
            block = handle.read(size)
            if not block:
                return
            cut = block.rfind(b"\n")
            at_eof = len(block) < size
            if cut == -1 and not at_eof:
                size *= 2  # one line longer than the block: read more of it at once
                handle.seek(start)
                continue
            if needles is None:
                needles = needles_for(block)
            end = len(block) if at_eof else cut
            for line_start in _candidate_starts(block, end, needles):
                line_end = block.find(b"\n", line_start, end)
                yield block[line_start : end if line_end == -1 else line_end]
            if at_eof:
                return
            handle.seek(start + cut + 1)
            size = block_size


def _tool_label(block: dict[str, Any]) -> str | None:
    name = block.get("name")
    if not isinstance(name, str) or not name:
        return None
    tool_input = block.get("input")
    if isinstance(tool_input, dict):
        for key in TARGET_KEYS:
            value = tool_input.get(key)
            if isinstance(value, str) and value.strip():
                target = clip(" ".join(value.split()), TARGET_CHARS)
                return f"{name} {target}"
        description = tool_input.get("description")
        if isinstance(description, str) and description.strip():
            return f"{name} ({' '.join(description.split())[:TARGET_CHARS]})"
    return name


def _tools_of(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if not isinstance(content, list):
        return []
    labels = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_use":
            label = _tool_label(block)
            if label:
                labels.append(label)
    return labels


def build_timeline(path: str | os.PathLike[str]) -> Timeline:
    """Read ``path`` once and return its replies and compactions (raises OSError)."""
    loads = bulkjson.bulk_loads()
    timeline = Timeline()
    by_id: dict[str, Point] = {}
    last_usage: dict[Point, dict[str, Any]] = {}
    for line in candidate_lines(path):
        try:
            row = loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(row, dict):
            continue
        if is_compact_boundary(row):
            metadata = row.get("compactMetadata")
            metadata = metadata if isinstance(metadata, dict) else {}
            timeline.compactions.append(
                CompactionMark(
                    len(timeline.points),
                    _str_or_none(metadata.get("trigger")),
                    _int_or_none(metadata.get("preTokens")),
                    _int_or_none(metadata.get("postTokens")),
                    _str_or_none(row.get("timestamp")),
                )
            )
            # A reply id seen before the boundary starts a new point after it.
            by_id.clear()
            continue
        usage = eligible_assistant_usage(row)
        if usage is None:
            continue
        message = row["message"]
        message_id = _str_or_none(message.get("id"))
        point = by_id.get(message_id) if message_id else None
        if point is None:
            point = Point(
                len(timeline.points) + 1, 0, message_id, _str_or_none(row.get("timestamp")), []
            )
            timeline.points.append(point)
            if message_id:
                by_id[message_id] = point
        # The last row of a reply carries its final usage; counted once, at the end.
        last_usage[point] = usage
        for label in _tools_of(message):
            if label not in point.tools:
                point.tools.append(label)
    for point, usage in last_usage.items():
        point.tokens = usage_tokens(usage)
    try:
        timeline.bytes_read = os.path.getsize(path)
    except OSError:
        pass
    return timeline


def biggest_jumps(timeline: Timeline, limit: int = JUMPS_SHOWN) -> list[Jump]:
    """The replies whose context grew most since the reply before (largest first).

    The growth between two replies is what the first one's tool calls brought back (their
    results) plus the next user message; the tools named are those of the reply before.
    After a compaction the growth counts from the compaction's postTokens, when known.
    """
    compaction_after = {c.after_turn: c for c in timeline.compactions}
    jumps: list[Jump] = []
    previous: Point | None = None
    for point in timeline.points:
        compaction = compaction_after.get(point.turn - 1)
        if compaction is not None:
            if compaction.post_tokens is not None:
                jumps.append(
                    Jump(
                        point.turn,
                        point.tokens - compaction.post_tokens,
                        compaction.post_tokens,
                        point.tokens,
                        [],
                        True,
                    )
                )
        elif previous is not None:
            jumps.append(
                Jump(
                    point.turn,
                    point.tokens - previous.tokens,
                    previous.tokens,
                    point.tokens,
                    list(previous.tools),
                    False,
                )
            )
        previous = point
    growing = [jump for jump in jumps if jump.added > 0]
    growing.sort(key=lambda jump: (-jump.added, jump.turn))
    return growing[:limit]
