"""The timeline drawn in the terminal (``ctx-usage --timeline``): a bar chart of the context
per turn with the band and auto-compact lines and the compactions marked, the biggest
jumps listed; or the series as JSON (``--json``).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Mapping
from typing import Any

from context_memory.core.prompt_tables import BAND_NAMES
from context_memory.measure.bands import band_thresholds, format_tokens
from context_memory.measure.report import ContextReport
from context_memory.measure.timeline import (
    MAX_TOOLS_SHOWN,
    Jump,
    Timeline,
    biggest_jumps,
    build_timeline,
)

# Chart characters: eighths of a cell, threshold lines, compaction marker.
VERTICAL_BLOCKS = " ▁▂▃▄▅▆▇█"
BAND_LINE = "┄"
AUTOCOMPACT_LINE = "━"
COMPACTION_MARK = "▲"
CHART_HEIGHT = 12
AXIS_WIDTH = 6  # "1000K " fits; labels are right-aligned in it
MIN_COLUMNS = 10
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
