"""The context of a session over time: tokens per turn, compactions, and the biggest jumps.

``ctx-usage --timeline`` draws it in the terminal; ``--json`` gives the series. Unlike the
hooks, this needs every reply of the session, so it reads the whole transcript once,
forwards, in blocks. Most of a transcript is tool results and system-prompt snapshots
that say nothing about the context size: a byte search finds the few rows worth parsing
(assistant replies and compact boundaries) and only those go through the JSON parser.

One point per main-chain assistant reply: the client writes one row per content block,
all sharing ``message.id``, and the last row carries the final usage. Tokens are counted
as ctx-usage counts them (transcript.usage_tokens).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from context_memory.core.tables import BAND_NAMES
from context_memory.measure.bands import band_thresholds, format_tokens
from context_memory.measure.report import ContextReport
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

# Chart characters: eighths of a cell, threshold lines, compaction marker.
VERTICAL_BLOCKS = " ▁▂▃▄▅▆▇█"
BAND_LINE = "┄"
AUTOCOMPACT_LINE = "━"
COMPACTION_MARK = "▲"
CHART_HEIGHT = 12
AXIS_WIDTH = 6  # "1000K " fits; labels are right-aligned in it
MIN_COLUMNS = 10


class Point:
    """One main-chain assistant reply: its turn number (1-based) and context tokens."""

    __slots__ = ("turn", "tokens", "message_id", "timestamp", "tools")

    def __init__(self, turn: int, tokens: int, message_id: str | None, timestamp: str | None):
        self.turn = turn
        self.tokens = tokens
        self.message_id = message_id
        self.timestamp = timestamp
        self.tools: list[str] = []

    def as_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "tokens": self.tokens,
            "message_id": self.message_id,
            "timestamp": self.timestamp,
            "tools": list(self.tools),
        }


class Compaction:
    """A compact boundary, placed after ``after_turn`` replies (0 = before the first)."""

    __slots__ = ("after_turn", "trigger", "pre_tokens", "post_tokens", "timestamp")

    def __init__(
        self,
        after_turn: int,
        trigger: str | None,
        pre_tokens: int | None,
        post_tokens: int | None,
        timestamp: str | None,
    ):
        self.after_turn = after_turn
        self.trigger = trigger
        self.pre_tokens = pre_tokens
        self.post_tokens = post_tokens
        self.timestamp = timestamp

    def as_dict(self) -> dict[str, Any]:
        return {
            "after_turn": self.after_turn,
            "trigger": self.trigger,
            "pre_tokens": self.pre_tokens,
            "post_tokens": self.post_tokens,
            "timestamp": self.timestamp,
        }


class Jump:
    """Tokens added between the previous reply (or compaction) and ``turn``."""

    __slots__ = ("turn", "added", "before", "after", "tools", "after_compaction")

    def __init__(
        self,
        turn: int,
        added: int,
        before: int,
        after: int,
        tools: list[str],
        after_compaction: bool,
    ):
        self.turn = turn
        self.added = added
        self.before = before
        self.after = after
        self.tools = tools
        self.after_compaction = after_compaction

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
    __slots__ = ("points", "compactions", "bytes_read")

    def __init__(self) -> None:
        self.points: list[Point] = []
        self.compactions: list[Compaction] = []
        self.bytes_read = 0


def _loader() -> Callable[[bytes], Any]:
    try:
        import orjson
    except ImportError:  # the package depends on orjson; plain json still works
        return json.loads
    return orjson.loads


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
                target = " ".join(value.split())
                if len(target) > TARGET_CHARS:
                    target = target[: TARGET_CHARS - 1] + "…"
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
    loads = _loader()
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
                Compaction(
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
                len(timeline.points) + 1, 0, message_id, _str_or_none(row.get("timestamp"))
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


# --------------------------------------------------------------------------- drawing


def _paint(text: str, sgr: str | None, color: bool) -> str:
    return f"\x1b[{sgr}m{text}\x1b[0m" if color and sgr and text else text


def chart_columns(timeline: Timeline, max_columns: int) -> tuple[list[int], set[int], int]:
    """(tokens per column, columns marked as compacted, turns per column).

    One column per reply while they fit; otherwise each column holds ``k`` consecutive
    replies and shows their peak. A compaction after the last reply adds a column with
    its postTokens, so the chart ends where the context is now.
    """
    values = [point.tokens for point in timeline.points]
    trailing = [c for c in timeline.compactions if c.after_turn >= len(values)]
    tail_value = trailing[-1].post_tokens if trailing else None
    slots = max(max_columns - (1 if trailing else 0), 1)
    per_column = max(1, -(-len(values) // slots))
    columns = [max(values[i : i + per_column]) for i in range(0, len(values), per_column)]
    marks = {c.after_turn // per_column for c in timeline.compactions if c.after_turn < len(values)}
    if trailing:
        marks.add(len(columns))
        columns.append(tail_value or 0)
    return columns, marks, per_column


def threshold_lines(
    window: int, band_bounds: tuple[float, ...], autocompact: int | None
) -> list[tuple[int, str, bool]]:
    """(tokens, label, is auto-compact) of the lines drawn across the chart."""
    lines = [
        (round(window * bound / 100), f"{name} {bound:g}%", False)
        for bound, name in zip(band_bounds, BAND_NAMES[1:], strict=False)
    ]
    if autocompact is not None:
        lines.append((autocompact, f"auto-compact {format_tokens(autocompact)}", True))
    return lines


def render_timeline(
    timeline: Timeline,
    *,
    window: int,
    band_bounds: tuple[float, ...],
    autocompact: int | None,
    width: int = 100,
    height: int = CHART_HEIGHT,
    color: bool = False,
    band_colors: dict[str, str] | None = None,
) -> tuple[list[str], int]:
    """(chart lines, turns per column): bars, band and auto-compact lines, compaction marks."""
    lines = threshold_lines(window, band_bounds, autocompact)
    label_width = max(len(label) for _, label, _ in lines) + 1
    max_columns = max(MIN_COLUMNS, width - AXIS_WIDTH - 1 - label_width)
    columns, marks, per_column = chart_columns(timeline, max_columns)
    top = max([window, *columns])
    step = top / height
    row_lines: dict[int, list[tuple[int, str, bool]]] = {}
    for tokens, label, is_autocompact in lines:
        row = height - 1 - min(height - 1, int(tokens / step))
        row_lines.setdefault(row, []).append((tokens, label, is_autocompact))
    colors = band_colors or {}

    def band_of(tokens: int) -> str:
        band = BAND_NAMES[0]
        for bound, name in zip(band_bounds, BAND_NAMES[1:], strict=False):
            if tokens * 100 >= bound * window:
                band = name
        return band

    column_colors = [colors.get(band_of(value)) for value in columns]
    out: list[str] = []
    for row in range(height):
        low = (height - 1 - row) * step
        here = row_lines.get(row, [])
        autocompact_row = any(is_ac for _, _, is_ac in here)
        filler = (AUTOCOMPACT_LINE if autocompact_row else BAND_LINE) if here else " "
        cells = []
        for index, value in enumerate(columns):
            eighths = min(round((value - low) * 8 / step), 8) if value > low else 0
            if row == height - 1 and value > 0 and eighths == 0:
                eighths = 1  # a non-empty context never draws as nothing
            if eighths:
                cells.append(_paint(VERTICAL_BLOCKS[eighths], column_colors[index], color))
            else:
                cells.append(_paint(filler, "2", color) if here else filler)
        if here:
            axis = f"{format_tokens(min(t for t, _, _ in here)):>{AXIS_WIDTH - 1}} ┤"
        elif row == 0:
            axis = f"{format_tokens(top):>{AXIS_WIDTH - 1}} ┤"
        else:
            axis = " " * AXIS_WIDTH + "│"
        label = ", ".join(text for _, text, _ in here)
        out.append((axis + "".join(cells) + (" " + label if label else "")).rstrip())
    out.append(f"{'0':>{AXIS_WIDTH - 1}} └" + "─" * len(columns))
    if marks:
        mark_row = "".join(COMPACTION_MARK if i in marks else " " for i in range(len(columns)))
        out.append(" " * (AXIS_WIDTH + 1) + mark_row.rstrip())
    out.append(" " * (AXIS_WIDTH + 1) + turn_axis(len(timeline.points), per_column))
    return out, per_column


def turn_axis(replies: int, per_column: int) -> str:
    """ "turn 1" under the first column, the last turn's number under its column."""
    if replies == 0:
        return "no replies yet"
    first, last = "turn 1", str(replies)
    data_columns = -(-replies // per_column)
    gap = data_columns - len(first) - len(last)
    return first + " " * gap + last if gap >= 1 else f"turns 1-{replies}"


def _tools_text(tools: list[str]) -> str:
    if not tools:
        return ""
    shown = ", ".join(tools[:MAX_TOOLS_SHOWN])
    more = len(tools) - MAX_TOOLS_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def format_jump(jump: Jump) -> str:
    if jump.after_compaction:
        cause = "first reply after the compaction"
    elif jump.tools:
        cause = f"after {_tools_text(jump.tools)}"
    else:
        cause = "after a user message"
    added = f"+{jump.added:,}"
    return f"  turn {jump.turn:<6}{added:>10}  ({jump.before:,} -> {jump.after:,})  {cause}"


def format_timeline(
    timeline: Timeline,
    *,
    window: int,
    window_source: str,
    band_bounds: tuple[float, ...],
    autocompact: int | None,
    transcript: str,
    width: int = 100,
    height: int = CHART_HEIGHT,
    color: bool = False,
    band_colors: dict[str, str] | None = None,
) -> str:
    """The whole ``ctx-usage --timeline`` text: header, chart, legend, biggest jumps."""
    replies = len(timeline.points)
    compactions = len(timeline.compactions)
    header = (
        f"Context per turn: {replies} {'reply' if replies == 1 else 'replies'}, "
        f"{compactions} {'compaction' if compactions == 1 else 'compactions'}, "
        f"window {format_tokens(window)} (from {window_source})"
    )
    lines = [header, transcript, ""]
    if replies == 0 and compactions == 0:
        lines.append("No assistant reply in this transcript yet: nothing to draw.")
        return "\n".join(lines)
    chart, per_column = render_timeline(
        timeline,
        window=window,
        band_bounds=band_bounds,
        autocompact=autocompact,
        width=width,
        height=height,
        color=color,
        band_colors=band_colors,
    )
    lines.extend(chart)
    legend = []
    if per_column > 1:
        legend.append(f"1 column = {per_column} turns (peak)")
    if compactions:
        legend.append(f"{COMPACTION_MARK} compaction")
    legend.append(f"{BAND_LINE} band thresholds")
    if autocompact is not None:
        legend.append(f"{AUTOCOMPACT_LINE} auto-compact")
    lines.append("")
    lines.append("   ".join(legend))
    jumps = biggest_jumps(timeline)
    if jumps:
        lines.append("")
        lines.append("Biggest jumps:")
        lines.extend(format_jump(jump) for jump in jumps)
    return "\n".join(lines)


def timeline_data(
    timeline: Timeline,
    *,
    window: int,
    window_source: str,
    model: str | None,
    band_bounds: tuple[float, ...],
    autocompact: int | None,
    transcript: str,
) -> dict[str, Any]:
    """The ``--timeline --json`` object."""
    return {
        "transcript": transcript,
        "window": window,
        "window_source": window_source,
        "model": model,
        "autocompact_threshold": autocompact,
        "band_thresholds": {
            name: {"percent": bound, "tokens": round(window * bound / 100)}
            for bound, name in zip(band_bounds, BAND_NAMES[1:], strict=False)
        },
        "turns": [point.as_dict() for point in timeline.points],
        "compactions": [compaction.as_dict() for compaction in timeline.compactions],
        "jumps": [jump.as_dict() for jump in biggest_jumps(timeline)],
    }


def timeline_report(
    transcript: str,
    report: ContextReport,
    *,
    as_json: bool,
    width: int | None = None,
    env: Mapping[str, str] | None = None,
    color: bool | None = None,
) -> str:
    """``ctx-usage --timeline`` output for ``transcript``, drawn against ``report``'s window.

    ``color`` None: colours when stdout is a terminal that has them (statusline's rules:
    NO_COLOR, FORCE_COLOR, TERM=dumb).
    """
    env = os.environ if env is None else env
    timeline = build_timeline(transcript)
    bounds = band_thresholds(env)
    if as_json:
        data = timeline_data(
            timeline,
            window=report.window,
            window_source=report.window_source,
            model=report.model,
            band_bounds=bounds,
            autocompact=report.autocompact_threshold,
            transcript=transcript,
        )
        return json.dumps(data, ensure_ascii=False)
    if width is None:
        width = shutil.get_terminal_size((100, 24)).columns
    from context_memory.measure.bands import BAND_COLORS, color_enabled

    if color is None:
        color = color_enabled(env) and (sys.stdout.isatty() or bool(env.get("FORCE_COLOR")))

    return format_timeline(
        timeline,
        window=report.window,
        window_source=report.window_source,
        band_bounds=bounds,
        autocompact=report.autocompact_threshold,
        transcript=transcript,
        width=width,
        color=color,
        band_colors=BAND_COLORS,
    )
