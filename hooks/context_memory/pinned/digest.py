"""What the pinned digest holds and how it reads: the entries still in force (the merge's
override rule across the decisions log and the merged record), in sections (rejected
first, then decided, open risks, open plan items), pinned entries first then newest
first, one line each, cut at the token cap with a footer that says how many were left
out and where they are.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core.isotime import parse_time
from context_memory.core.record import Record
from context_memory.core.safe_text import estimate_tokens, one_line
from context_memory.core.state import (
    DECISIONS_FILE,
    MERGED_DECISIONS_MD,
    MERGED_DIR,
    PLAN_FILE,
    STATE_DIRNAME,
)
from context_memory.core.tables import CHARS_PER_TOKEN
from context_memory.memory.constraint import constraint_of, live_by_subject
from context_memory.memory.decisions import str_list
from context_memory.memory.handoff_draft import CONSTRAINT_PREFIX, RECORD_SECTIONS, constraint_item
from context_memory.memory.identity import is_new_style_id
from context_memory.merge.merge import merge_handoffs
from context_memory.merge.sources import HandoffFile

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from typing import Any

    from context_memory.memory.handoff import HandoffSections, SectionName


DEFAULT_CAP_TOKENS = 1500
MAX_ITEM_CHARS = 300
REJECTED = "rejected"
DECIDED = "decided"
RISK = "risk"
PLAN = "plan"
SECTION_ORDER = (REJECTED, DECIDED, RISK, PLAN)
SECTION_TITLES = {
    REJECTED: "Rejected (do not propose again)",
    DECIDED: "Decided",
    RISK: "Open risks",
    PLAN: "Open plan items",
}
TITLE = "# Pinned decisions"
# The digest is the team's channel (CLAUDE.md and the state folder travel through git);
# one person's standing instructions go to Claude Code's auto memory (memory/native.py).
INTRO = (
    "The team's record, through git: rebuilt by context-memory when the decisions log, "
    "plan or merged record change; do not edit. Pinned, then newest."
)
EMPTY = "No decisions, risks or open plan items recorded yet."
# Handoff section names of merge/merge.py, by the kinds used here.
_MERGED_KEYS: tuple[tuple[str, SectionName], ...] = (
    ("decided", "Decided"),
    ("rejected", "Rejected"),
    ("risks", "Risks"),
)


# --------------------------------------------------------------------------- in force


class Item(Record):
    """One line of the digest: its section, text, time (newest first) and record id."""

    section: str
    text: str
    time: float
    order: int
    record_id: str | None
    pinned: bool = False


def pinned_ids(pins: Iterable[Mapping[str, Any]]) -> set[str]:
    """The record ids whose latest pin record is a pin: by time, then by id when both are
    ULID-style (their first characters are the milliseconds: the same order on every clone,
    whatever order git's union merge left the lines in), then by log order."""
    latest: dict[str, tuple[str, str, int, str]] = {}
    for index, pin in enumerate(pins):
        target = pin.get("target")
        ts = pin.get("ts")
        if not isinstance(target, str):
            continue
        ident = pin.get("id")
        key = (
            ts if isinstance(ts, str) else "",
            ident if isinstance(ident, str) and is_new_style_id(ident) else "",
            index,
            str(pin.get("kind")),
        )
        if target not in latest or key[:3] >= latest[target][:3]:
            latest[target] = key
    return {target for target, key in latest.items() if key[3] == "pin"}


def _stamp(value: object) -> float:
    stamp = parse_time(value) if isinstance(value, str) and value.strip() else None
    return stamp if stamp is not None else 0.0


def _merged_handoffs(merged: Mapping[str, Any] | None) -> list[HandoffFile]:
    """The merged record's current entries, one pseudo-handoff per original handoff (the
    entries of one handoff never override each other)."""
    if not isinstance(merged, dict):
        return []
    groups: dict[tuple[str, int, str], HandoffFile] = {}
    for key, section in _MERGED_KEYS:
        entries = merged.get(key)
        if not isinstance(entries, list):
            continue
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
                continue
            session = entry.get("session")
            stage = entry.get("stage")
            when = entry.get("time")
            group = (
                session if isinstance(session, str) else "?",
                stage if isinstance(stage, int) else 0,
                when if isinstance(when, str) else "",
            )
            handoff = groups.get(group)
            if handoff is None:
                handoff = groups[group] = HandoffFile(
                    MERGED_DIR, group[0], group[1], _stamp(group[2]), "merged", {}
                )
            handoff.sections.setdefault(section, []).append(entry["text"])
    return list(groups.values())


def items_in_force(
    records: Sequence[Mapping[str, Any]],
    merged: Mapping[str, Any] | None = None,
) -> list[Item]:
    """The log's and the merged record's entries still in force, by the merge's rule.

    Log records are read through the typed model (memory/constraint.py): a record a later
    one supersedes by subject is out before the merge's rule runs; each is taken as a
    one-entry handoff at the time it was stated (``when``: a captured record's row time),
    the merged record's entries at their handoff's time; at equal times the log comes
    first, so a handoff that restates a logged decision is a duplicate and the record
    (with its id) is kept.
    """
    sources: list[tuple[float, int, int, HandoffFile, Mapping[str, Any] | None]] = []
    for index, record in enumerate(live_by_subject(records)):
        constraint = constraint_of(record)
        section = RECORD_SECTIONS.get(constraint["kind"]) if constraint else None
        if constraint is None or section is None:
            continue
        item = constraint_item(constraint, str_list(record.get("alternatives")))
        if constraint["kind"] == "constraint":
            item = CONSTRAINT_PREFIX + item
        sections: HandoffSections = {}
        sections[section] = [item]
        handoff = HandoffFile(
            DECISIONS_FILE,
            constraint["session"] or "?",
            0,
            _stamp(constraint["when"]),
            "record",
            sections,
        )
        sources.append((handoff.time or 0.0, 0, index, handoff, record))
    for index, handoff in enumerate(_merged_handoffs(merged)):
        sources.append((handoff.time or 0.0, 1, index, handoff, None))
    sources.sort(key=lambda source: source[:3])
    result = merge_handoffs(source[3] for source in sources)
    items: list[Item] = []
    for kind, entries in ((DECIDED, result.decided), (REJECTED, result.rejected)):
        items.extend(_item(kind, entry, sources) for entry in entries)
    items.extend(_item(RISK, entry, sources) for entry in result.risks)
    return items


def _item(section: str, entry: Any, sources: list[Any]) -> Item:
    record = sources[entry.handoff][4]
    typed = constraint_of(record) if record is not None else None
    return Item(
        section,
        entry.text,
        entry.time or 0.0,
        entry.handoff,
        typed["id"] or None if typed else None,
    )


# --------------------------------------------------------------------------- rendering


class Digest(Record):
    """The rendered digest and what it holds."""

    text: str
    ids: list[str]  # record ids of the log entries shown, in digest order
    shown: int
    total: int
    tokens: int
    cap: int

    @property
    def omitted(self) -> int:
        return self.total - self.shown


def footer_line(omitted: int, total: int, cap: int, where: str) -> str:
    where = one_line(where)  # a state folder's path is untrusted text too
    return (
        f"Left out to stay under {cap:,} tokens: {omitted} of {total} entries. Full record: "
        f"ctx-decide --list ({where}/{DECISIONS_FILE}), "
        f"{where}/{MERGED_DIR}/{MERGED_DECISIONS_MD}, {where}/{PLAN_FILE}."
    )


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def render_digest(
    records: Sequence[Mapping[str, Any]],
    pins: Iterable[Mapping[str, Any]] = (),
    plan_items: Sequence[str] = (),
    merged: Mapping[str, Any] | None = None,
    *,
    cap: int = DEFAULT_CAP_TOKENS,
    where: str = STATE_DIRNAME,
) -> Digest:
    """The digest of ``records`` (the log's decisions), ``pins`` (its pin records),
    ``plan_items`` (the plan's open items, in plan order) and ``merged`` (decisions.json).

    Entries are taken by priority (pinned ones, then rejections, decisions and risks newest
    first, then plan items) until the next one would pass ``cap`` tokens; the rest are
    counted in the last line. A pure function: same input, same text.
    """
    pinned = pinned_ids(pins)
    items = items_in_force(records, merged)
    for item in items:
        item.pinned = item.record_id is not None and item.record_id in pinned
        item.text = one_line(item.text, MAX_ITEM_CHARS)
    items.sort(key=lambda item: (not item.pinned, -item.time, -item.order))
    items.extend(
        Item(PLAN, one_line(text, MAX_ITEM_CHARS), 0.0, index, None)
        for index, text in enumerate(plan_items)
        if one_line(text)
    )
    by_priority = [item for item in items if item.pinned] + [
        item
        for section in SECTION_ORDER
        for item in items
        if item.section == section
        if not item.pinned
    ]
    total = len(by_priority)
    head = f"{TITLE}\n\n{INTRO}\n"
    if not total:
        head += f"\n{EMPTY}\n"
    budget = cap * CHARS_PER_TOKEN
    used = _size(head) + _size(f"\n{footer_line(total, total, cap, where)}\n")
    opened: set[str] = set()
    chosen: set[int] = set()
    for item in by_priority:
        cost = _size(f"- {item.text}\n")
        if item.section not in opened:
            cost += _size(f"\n## {SECTION_TITLES[item.section]}\n")
        if used + cost > budget:
            break
        used += cost
        opened.add(item.section)
        chosen.add(id(item))
    parts = [head]
    ids: list[str] = []
    for section in SECTION_ORDER:
        shown = [item for item in items if item.section == section and id(item) in chosen]
        if not shown:
            continue
        parts.append(f"\n## {SECTION_TITLES[section]}\n")
        for item in shown:
            parts.append(f"- {item.text}\n")
            if item.record_id is not None:
                ids.append(item.record_id)
    parts.append(f"\n{footer_line(total - len(chosen), total, cap, where)}\n")
    text = "".join(parts)
    return Digest(text, ids, len(chosen), total, estimate_tokens(text), cap)
