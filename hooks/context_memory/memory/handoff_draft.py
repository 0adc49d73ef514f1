"""Assemble and write stage handoffs: shared by ``ctx-handoff`` and the ``ctx-extract`` hook.

A draft takes its five sections from what is on disk and in the transcript:

- Decided / Rejected / Risks: this session's live records in ``decisions.jsonl``, read
  through the typed model (memory/constraint.py: superseded and dropped ones left out,
  marked or by the supersede rule at read time; a constraint goes to Decided as
  ``Constraint: ...``) made since its last handoff (records carry whole seconds, so a
  record stamped in the same second as that handoff counts as new unless the handoff
  already lists it);
- Files Modified: the transcript's Write / Edit / MultiEdit / NotebookEdit calls since that
  handoff, relative to the project, first-touched order; then the files only its subagents
  edited, marked ``(subagent)``;
- Remaining: the latest TodoWrite list's unfinished items when the transcript has one, else
  the unchecked ``- [ ]`` items of ``current-plan.md``.

Standard library only at import (filelock is imported by fsutil when a stage is written).
"""

from __future__ import annotations

import os
import re
import time

from context_memory import TYPE_CHECKING
from context_memory.core.decisions_log import LogProblem, live_records
from context_memory.core.fsutil import atomic_write, lock_for, make_dirs, open_file, read_fd_bounded
from context_memory.core.safe_text import one_line
from context_memory.core.state import PLAN_FILE, ensure_inside, validate_name
from context_memory.memory.constraint import constraint_of, live_by_subject
from context_memory.memory.decisions import str_list, utc_now_iso
from context_memory.memory.handoff import (
    MAX_HANDOFF_BYTES,
    MAX_STAGE,
    MAX_STAGE_GAP,
    SECTIONS,
    HandoffFormatError,
    existing_stages,
    handoffs_dir,
    parse_handoff,
    render_handoff,
    split_front_matter,
    stage_path,
)
from context_memory.transcript.facts import SECOND_PRECISION, files_touched, open_todos, scan_facts

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from context_memory.memory.constraint import Constraint
    from context_memory.memory.handoff import HandoffMeta, HandoffSections, SectionName

# The plan is read for its unchecked items; a bigger file is skipped.
MAX_PLAN_BYTES = 4 * 1024 * 1024
RECORD_SECTIONS: dict[str, SectionName] = {
    "decided": "Decided",
    "rejected": "Rejected",
    "risk": "Risks",
    "constraint": "Decided",
}
CONSTRAINT_PREFIX = "Constraint: "
BY_USER_NOTE = "stated by the user"
# Sections whose items are news since the last handoff (Remaining is a state, not news).
NEWS_SECTIONS: tuple[SectionName, ...] = ("Decided", "Rejected", "Risks", "Files Modified")
_UNCHECKED = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[ \]\s+(.+?)\s*$")
# What a draft copies from the log, so that a handoff stays far below MAX_HANDOFF_BYTES
# whatever the log holds: one item at most MAX_ITEM_CHARS, a section its newest
# MAX_DRAFT_ITEMS (the older ones stay in decisions.jsonl).
MAX_ITEM_CHARS = 2000
MAX_DRAFT_ITEMS = 200
# Lock sidecar in the session folder (".handoffs.lock"), out of the handoffs listing.
STAGES_LOCK = ".handoffs"


class StageExistsError(FileExistsError):
    """The stage file is already there and overwriting was not asked for."""


class StageRangeError(ValueError):
    """A stage number that would leave the range of stage numbers (see handoff.MAX_STAGE)."""


class SessionFacts:
    """One read of the decisions log and the transcript for one session."""

    __slots__ = ("edits", "problems", "records", "subagent_edits", "todos", "transcript_note")

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.problems: list[LogProblem] = []
        self.edits: list[tuple[str, str]] = []
        self.subagent_edits: list[tuple[str, str]] = []
        self.todos: list[dict[str, Any]] | None = None
        # Why Files Modified may be incomplete (no transcript, read only partly), or None.
        self.transcript_note: str | None = None


def constraint_item(constraint: Constraint, alternatives: list[str] | None = None) -> str:
    """One typed record as a handoff line: ``text (reason; alternatives: a, b; stated by
    the user)``, the last note for what the user stated (captured records). Redacted
    (core/redact.py) as well: a record written before the rule, or by hand, reaches the
    digest, the steering text and a handoff without its credential."""
    from context_memory.core.redact import redact

    notes = []
    if constraint["reason"].strip():
        notes.append(constraint["reason"].strip())
    if alternatives:
        notes.append("alternatives: " + ", ".join(alternatives))
    if constraint["by"] == "user":
        notes.append(BY_USER_NOTE)
    text = constraint["text"]
    # Records are untrusted: a reason with line breaks must not add lines to a handoff or
    # to the PreCompact steering text.
    return one_line(redact(f"{text} ({'; '.join(notes)})" if notes else text), MAX_ITEM_CHARS)


def record_item(record: Mapping[str, Any]) -> str:
    """constraint_item of a log record (its typed view; ``alternatives``, which ctx-decide
    records beside the model's fields, from the record)."""
    constraint = constraint_of(record)
    if constraint is None:  # no decision (a mark): its text, if it has one
        return one_line(str(record.get("decision", "")), MAX_ITEM_CHARS)
    return constraint_item(constraint, str_list(record.get("alternatives")))


def section_item(record: Mapping[str, Any]) -> str:
    """record_item, with ``Constraint: `` before a constraint (it shares Decided)."""
    constraint = constraint_of(record)
    item = record_item(record)
    return CONSTRAINT_PREFIX + item if constraint and constraint["kind"] == "constraint" else item


def session_records(records: list[dict[str, Any]], session: str) -> list[dict[str, Any]]:
    """The records of ``session`` still in force: the supersede rule applied to the whole
    log first (a later record of another session, or a teammate's, supersedes too)."""
    kept = {id(r) for r in live_by_subject(records)}
    return [
        r
        for r in records
        if id(r) in kept and (typed := constraint_of(r)) is not None and typed["session"] == session
    ]


def session_facts(state_dir: str, session: str, transcript: str | None) -> SessionFacts:
    """This session's records (every problem line noted) and the transcript's edits and to-dos."""
    facts = SessionFacts()
    records, facts.problems = live_records(state_dir)
    facts.records = session_records(records, session)
    if not transcript:
        facts.transcript_note = "no transcript found"
        return facts
    try:
        found = scan_facts(transcript)
    except OSError as exc:
        facts.transcript_note = f"transcript {transcript} unreadable ({exc.strerror or exc})"
        return facts
    facts.edits, facts.todos = found.edits, found.todos
    facts.subagent_edits = found.subagent_edits
    if found.truncated:
        facts.transcript_note = "only the end of the transcript was read (CTX_MAX_SCAN_BYTES)"
    elif found.subagents_truncated:
        facts.transcript_note = "some subagent transcripts were read only partly or not at all"
    return facts


class LastHandoff:
    __slots__ = ("listed", "path", "time")

    def __init__(self, path: str, stamp: str, listed: set[str]) -> None:
        self.path = path
        self.time = stamp
        self.listed = listed


def last_handoff(state_dir: str, session: str, now: float | None = None) -> LastHandoff | None:
    """The session's highest stage: its time and the record lines it lists.

    The time is the one in its front matter; none, or one after ``now`` (a clock that ran
    ahead), gives '' (undated): never the file time, which git sets at checkout.
    """
    stages = existing_stages(state_dir, session)
    if not stages:
        return None
    path = stage_path(state_dir, session, stages[-1])
    try:
        fd = open_file(path, root=state_dir)
        try:
            text = read_fd_bounded(fd, MAX_HANDOFF_BYTES, path).decode("utf-8", "replace")
        finally:
            os.close(fd)
    except OSError:
        return None
    listed: set[str] = set()
    try:
        handoff = parse_handoff(text)
        meta = handoff.meta
        for name in RECORD_SECTIONS.values():
            listed.update(handoff.sections.get(name, []))
    except HandoffFormatError:
        try:
            meta = split_front_matter(text)[0]
        except HandoffFormatError:
            meta = {}
    stamp = meta.get("time", "").strip()
    # Compared as text below: a time in the same form as utc_now_iso, and not ahead.
    current = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))
    if len(stamp) < SECOND_PRECISION or stamp[:SECOND_PRECISION] > current[:SECOND_PRECISION]:
        stamp = ""
    return LastHandoff(path, stamp, listed)


def records_since(records: list[dict[str, Any]], last: LastHandoff | None) -> list[dict[str, Any]]:
    """The records made after ``last`` (all of them when there is no handoff yet; those it
    does not list when it is undated)."""
    if last is None:
        return list(records)
    cutoff = last.time[:SECOND_PRECISION]
    fresh = []
    for record in records:
        # When the record was written (not the row's time, the model's ``when``): a record
        # captured after the handoff is news for the next one, whenever its row was.
        stamp = record.get("ts")
        stamp = stamp[:SECOND_PRECISION] if isinstance(stamp, str) else ""
        if not cutoff:  # an undated handoff: what it does not list
            if record_item(record) not in last.listed:
                fresh.append(record)
        # A record without a time is kept: repeating a line beats losing one.
        elif (
            not stamp
            or stamp > cutoff
            or (stamp == cutoff and section_item(record) not in last.listed)
        ):
            fresh.append(record)
    return fresh


def plan_open_items(state_dir: str) -> list[str]:
    """The unchecked ``- [ ] item`` lines of current-plan.md (none when there is no plan)."""
    from context_memory.core.fsutil import read_text

    try:
        text = read_text(os.path.join(state_dir, PLAN_FILE), MAX_PLAN_BYTES, root=state_dir)
    except OSError:  # missing, a link, a FIFO, too big: no items from it
        return []
    lines = text.splitlines()
    return [m.group(1) for m in map(_UNCHECKED.match, lines) if m]


def pending_items(facts: SessionFacts, state_dir: str) -> tuple[list[str], str]:
    """(remaining items, where they came from: "todos", "plan" or "none")."""
    if facts.todos is not None:
        return open_todos(facts.todos), "todos"
    items = plan_open_items(state_dir)
    return items, "plan" if items else "none"


def draft_sections(
    facts: SessionFacts, state_dir: str, session: str, project_dir: str | None
) -> HandoffSections:
    """The five sections of the next handoff of ``session``."""
    last = last_handoff(state_dir, session)
    sections: HandoffSections = {}
    for section in SECTIONS:
        sections[section] = []
    for record in records_since(facts.records, last):
        typed = constraint_of(record)
        name = RECORD_SECTIONS.get(typed["kind"]) if typed else None
        if name:
            sections[name].append(section_item(record))
    for name in RECORD_SECTIONS.values():
        sections[name] = sections[name][-MAX_DRAFT_ITEMS:]
    sections["Files Modified"] = files_touched(
        facts.edits,
        project_dir,
        since=last.time if last and last.time else None,
        subagent_edits=facts.subagent_edits,
    )
    sections["Remaining"] = pending_items(facts, state_dir)[0]
    return sections


def has_news(sections: HandoffSections) -> bool:
    return any(sections.get(name) for name in NEWS_SECTIONS)


def write_stage(
    state_dir: str,
    session: str,
    sections: HandoffSections,
    *,
    tokens: int,
    stage: int | None = None,
    overwrite: bool = False,
    now: str | None = None,
) -> str:
    """Write ``sections`` as a stage handoff of ``session`` and return its path.

    ``stage`` defaults to the next free number, chosen under a lock so two writers (the
    agent's ctx-handoff and the PreCompact hook) never take the same one. The file is
    written atomically; an existing stage is replaced only with ``overwrite``.
    """
    validate_name(session)
    folder = handoffs_dir(state_dir, session)
    ensure_inside(state_dir, folder)
    make_dirs(folder, root=state_dir)
    with lock_for(os.path.join(os.path.dirname(folder), STAGES_LOCK), root=state_dir):
        stages = existing_stages(state_dir, session)
        next_free = stages[-1] + 1 if stages else 1
        if stage is None:
            stage = next_free
        elif stage > next_free + MAX_STAGE_GAP:
            raise StageRangeError(
                f"stage {stage} is too far ahead: the next free stage of session {session} is "
                f"{next_free} (at most {MAX_STAGE_GAP} past it may be given)"
            )
        if stage > MAX_STAGE:
            raise StageRangeError(
                f"session {session} has used every stage number up to {MAX_STAGE}; "
                "start a new session (ctx-merge keeps the record of this one)"
            )
        path = stage_path(state_dir, session, stage)
        ensure_inside(state_dir, path)
        if os.path.lexists(path) and not overwrite:
            raise StageExistsError(f"{path} already exists")
        meta: HandoffMeta = {
            "session": session,
            "stage": str(stage),
            "time": now or utc_now_iso(),
            "tokens": str(max(int(tokens), 0)),
        }
        atomic_write(path, render_handoff(meta, sections), root=state_dir)
    return path
