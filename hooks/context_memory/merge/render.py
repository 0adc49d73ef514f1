"""The merged files' contents: decisions.md (by section, newest last), decisions.json and
state.json, rendered the same bytes on every clone for the same handoffs.
"""

from __future__ import annotations

import json

from context_memory import TYPE_CHECKING
from context_memory.core.safe_text import one_line
from context_memory.merge.layout import FORMAT_VERSION, Problem
from context_memory.merge.merge import Entry, MergeResult
from context_memory.merge.rules import DECIDED, REJECTED, iso_date, iso_time
from context_memory.merge.sources import HandoffFile

if TYPE_CHECKING:
    from collections.abc import Mapping

    from context_memory.memory.handoff import SectionName


# --------------------------------------------------------------------------- rendering


def _date(stamp: float | None, future: bool = False) -> str:
    if stamp is not None:
        return iso_date(stamp)
    return "future-dated" if future else "undated"


def _source(entry: Entry) -> str:
    return f"session {entry.session}, stage {entry.stage}, {_date(entry.time, entry.future)}"


def _kind_label(kind: str) -> str:
    return {DECIDED: "Decided", REJECTED: "Rejected"}.get(kind, kind)


def _claimed(handoff: HandoffFile) -> str:
    return iso_time(handoff.claimed_time) if handoff.claimed_time is not None else "?"


def future_line(handoff: HandoffFile) -> str:
    # No merge time here: clones merging at different times write the same bytes.
    line = f"{handoff.path}: dated {_claimed(handoff)}, after the merge time; ranked as undated"
    if handoff.time is not None:
        line += f", at its session's {handoff.time_source} time ({iso_time(handoff.time)})"
    return line


def render_markdown(
    result: MergeResult,
    skipped: list[Problem],
    future: list[HandoffFile] | None = None,
) -> str:
    """decisions.md: Decided, Rejected, Overridden, Risks, then each session's newest
    Remaining and Files Modified; then the handoffs dated in the future and the skipped."""
    when = ""
    if result.first_time is not None and result.last_time is not None:
        when = f", written {iso_date(result.first_time)} to {iso_date(result.last_time)}"
        if result.undated:
            when += f" ({result.undated} undated)"
    elif result.undated:
        when = ", all undated"
    handoff_noun = "handoff" if result.handoffs == 1 else "handoffs"
    session_noun = "session" if len(result.sessions) == 1 else "sessions"
    lines = [
        "# Merged decisions",
        "",
        # No time of the merge here: every clone must render the same handoffs to the same
        # bytes. It is in state.json.
        f"Merged by ctx-merge from {result.handoffs} {handoff_noun} "
        f"of {len(result.sessions)} {session_noun}{when}.",
        "A later entry overrides an earlier one on the same subject (its text before the "
        "first '(', ':', ' - ' or ' — ', without a lead-in such as 'Use' or 'Not': 'Use X', "
        "'Not X' and 'X instead of Y' are about X); what it replaced is listed under "
        "Overridden.",
        "",
    ]

    def section(title: str, items: list[str]) -> None:
        lines.append(f"## {title}")
        lines.append("")
        lines.extend(one_line(item) for item in items or ["- none"])
        lines.append("")

    section("Decided", [f"- {e.text} — {_source(e)}" for e in result.decided])
    section("Rejected", [f"- {e.text} — {_source(e)}" for e in result.rejected])
    section(
        "Overridden",
        [
            f"- {_kind_label(o.entry.kind)}: {o.entry.text} — {_source(o.entry)}; "
            f"{'reversed' if o.reversed else 'replaced'} by {_kind_label(o.by.kind)}: "
            f"{o.by.text} — {_source(o.by)}"
            for o in result.overridden
        ],
    )
    section("Risks", [f"- {e.text} — {_source(e)}" for e in result.risks])
    titles: tuple[SectionName, ...] = ("Remaining", "Files Modified")
    for title in titles:
        items: list[str] = []
        for handoff in result.latest:
            values = handoff.sections.get(title, [])
            if values:
                items.append(
                    one_line(
                        f"### Session {handoff.session} (stage {handoff.stage}, "
                        f"{_date(handoff.time, handoff.claimed_time is not None)})"
                    )
                )
                items.extend(one_line(f"- {value}") for value in values)
        lines.append(f"## {title}")
        lines.append("")
        if items:
            lines.append("From the newest handoff of each session, newest first.")
            lines.append("")
        lines.extend(items or ["- none"])
        lines.append("")
    if future:
        section("Handoffs dated in the future", [f"- {future_line(h)}" for h in future])
    if skipped:
        section("Skipped handoffs", [f"- {problem}" for problem in skipped])
    return "\n".join(lines)


def _time(stamp: float | None) -> str | None:
    return iso_time(stamp) if stamp is not None else None


def result_data(
    result: MergeResult,
    skipped: list[Problem],
    future: list[HandoffFile] | None = None,
) -> dict[str, object]:
    """decisions.json: the same record as data (the merge time is in state.json only); a
    ``time`` of null is an undated handoff."""
    data: dict[str, object] = {
        "version": FORMAT_VERSION,
        "handoffs": result.handoffs,
        "sessions": len(result.sessions),
        "decided": [entry.as_dict() for entry in result.decided],
        "rejected": [entry.as_dict() for entry in result.rejected],
        "overridden": [override.as_dict() for override in result.overridden],
        "risks": [entry.as_dict() for entry in result.risks],
        "latest": [
            {
                "session": handoff.session,
                "stage": handoff.stage,
                "time": _time(handoff.time),
                "remaining": handoff.sections.get("Remaining", []),
                "files_modified": handoff.sections.get("Files Modified", []),
            }
            for handoff in result.latest
        ],
        "skipped": [problem.as_dict() for problem in skipped],
    }
    if future:
        data["future_dated"] = [
            {
                "path": handoff.path,
                "claimed_time": _claimed(handoff),
                "time": _time(handoff.time),
                "from": handoff.time_source,
            }
            for handoff in future
        ]
    return data


def state_data(result: MergeResult, merged_at: float) -> dict[str, object]:
    """state.json: when the last successful merge ran and what it took in."""
    return {
        "version": FORMAT_VERSION,
        "merged_at": iso_time(merged_at),
        "handoffs": result.handoffs,
        "sessions": len(result.sessions),
        "sessions_merged": result.sessions,
    }


def dumps(data: Mapping[str, object]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
