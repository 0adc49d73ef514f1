"""ctx-merge: consolidate every session's handoffs into one record of what was decided.

Three gates, cheapest first, decide whether a run merges at all (cron starts one every
hour): enough time since the last merge, enough sessions with newer handoffs, and the
merge lock. The merge itself reads every handoff, orders them by the time in their front
matter (undated ones, and those dated after the merge time, first), and lets a later
entry override an earlier one on the same subject (the text before the first '(', ':',
' - ' or ' — ', normalised, without a lead-in such as "Use" or "Not": merge/rules.py).

The two merged files are the same bytes on every clone of a shared project for the same
handoffs: the order comes from the times written inside the handoffs (then session, then
stage), never from file times or directory order, and they carry no time of the merge
(that goes to state.json, which is per machine). Clones whose merge times fall on either
side of a handoff's date differ in that handoff only: future-dated on one, dated on the
other. Skipped files are named relative to the
state folder.

Outputs live in ``<state>/merged/``: decisions.md, decisions.json and state.json. They are
published together: each merge writes a fresh generation folder ``<state>/.merged-*`` and
then swaps the ``merged`` symlink to it in one rename, so a merge killed at any point
leaves either the previous three files or the new three, never a mix.

Standard library only at import time; filelock is imported when the lock is taken.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core.record import Record
from context_memory.merge.rules import (
    DECIDED,
    DECISION_SECTIONS,
    REJECTED,
    iso_time,
    normalise,
    reason_of,
    subject_of,
)
from context_memory.merge.sources import HandoffFile

if TYPE_CHECKING:
    from collections.abc import Iterable


# --------------------------------------------------------------------------- the merge


class Entry:
    """One Decided, Rejected or Risks item and the handoff it came from."""

    __slots__ = (
        "future",
        "handoff",
        "kind",
        "norm",
        "session",
        "stage",
        "subject",
        "text",
        "time",
    )

    def __init__(
        self,
        kind: str,
        text: str,
        source: HandoffFile,
        handoff: int,
        keys: dict[str, tuple[str, str]] | None = None,
    ) -> None:
        self.kind = kind
        self.text = text
        # Handoffs restate the same entries over and over: ``keys`` remembers the
        # (normalised text, subject) of each text seen in this merge.
        known = keys.get(text) if keys is not None else None
        if known is None:
            known = (normalise(text), subject_of(text))
            if keys is not None:
                keys[text] = known
        self.norm = known[0]
        self.subject = known[1] if kind != "risk" else self.norm
        self.session = source.session
        self.stage = source.stage
        self.time = source.time  # None: undated
        self.future = source.claimed_time is not None  # dated after the merge time
        self.handoff = handoff  # position of the source in the merge order

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"kind": self.kind, "text": self.text}
        if self.kind != "risk":
            data["subject"] = self.subject
            data["reason"] = reason_of(self.text)
        stamp = iso_time(self.time) if self.time is not None else None
        data.update(session=self.session, stage=self.stage, time=stamp)
        return data


class Override(Record):
    """``entry`` was replaced by the later ``by`` on the same subject."""

    entry: Entry
    by: Entry

    @property
    def reversed(self) -> bool:
        """A decision turned into a rejection or back (as opposed to a restatement)."""
        return self.entry.kind != self.by.kind

    def as_dict(self) -> dict[str, object]:
        data = self.entry.as_dict()
        data["change"] = "reversed" if self.reversed else "replaced"
        data["overridden_by"] = self.by.as_dict()
        return data


class MergeResult(Record):
    decided: list[Entry]
    rejected: list[Entry]
    overridden: list[Override]
    risks: list[Entry]
    latest: list[HandoffFile]  # newest handoff of each session, newest first
    handoffs: int
    sessions: list[str]
    first_time: float | None  # of the oldest and the newest dated handoff merged
    last_time: float | None
    undated: int = 0  # handoffs ranked as undated


def merge_handoffs(handoffs: Iterable[HandoffFile]) -> MergeResult:
    """The merged record of handoffs given oldest first (undated ones first: see
    HandoffFile.order).

    Per subject, the entries of the latest handoff that mentions it are current. An entry
    that normalises to one already current (same kind) is a duplicate and dropped, so the
    record keeps where a decision was first made. Any other entry from a later handoff
    replaces the current ones, which move to Overridden: a rejection reverses an earlier
    decision, a later decision revives an earlier rejection. Entries of one handoff never
    override each other (it may decide one thing and reject another about one subject).
    """
    current: dict[str, list[Entry]] = {}
    overridden: list[Override] = []
    risks: dict[str, Entry] = {}
    latest: dict[str, HandoffFile] = {}
    sequence: dict[int, int] = {}  # id(entry) -> position, for the output order
    keys: dict[str, tuple[str, str]] = {}
    count = 0
    first_time: float | None = None
    last_time: float | None = None
    undated = 0
    for index, handoff in enumerate(handoffs):
        count += 1
        if handoff.time is None:
            undated += 1
        else:
            if first_time is None:
                first_time = handoff.time
            last_time = handoff.time
        for kind, section in DECISION_SECTIONS:
            for text in handoff.sections.get(section, ()):
                entry = Entry(kind, text, handoff, index, keys)
                existing = current.get(entry.subject)
                if existing:
                    if any(e.kind == kind and e.norm == entry.norm for e in existing):
                        continue
                    if existing[0].handoff == index:
                        existing.append(entry)
                        sequence[id(entry)] = len(sequence)
                        continue
                    overridden.extend(Override(old, entry) for old in existing)
                current[entry.subject] = [entry]
                sequence[id(entry)] = len(sequence)
        for text in handoff.sections.get("Risks", ()):
            risk = Entry("risk", text, handoff, index, keys)
            risks.setdefault(risk.norm, risk)
        latest[handoff.session] = handoff
    live = sorted(
        (entry for entries in current.values() for entry in entries),
        key=lambda entry: sequence[id(entry)],
    )
    return MergeResult(
        decided=[entry for entry in live if entry.kind == DECIDED],
        rejected=[entry for entry in live if entry.kind == REJECTED],
        overridden=overridden,
        risks=list(risks.values()),
        latest=sorted(latest.values(), key=lambda handoff: handoff.order, reverse=True),
        handoffs=count,
        sessions=sorted(latest),
        first_time=first_time,
        last_time=last_time,
        undated=undated,
    )
