"""The compaction extract: the document ctx-extract writes to
``sessions/<id>/compaction-extract.json`` (handlers/extract.py), the session's key facts as
one read of the log and the transcript (memory/handoff_draft.SessionFacts) gives them.

A pure function of what it is given: the handler measures, reads and writes; this module
only says what the document holds. Each list of records is the newest MAX_EXTRACT_RECORDS
of its kind, each record cut to its known fields and their bounds (decisions.clip_record),
so the extract stays small whatever the log holds.
"""

from __future__ import annotations

import os

from context_memory import TYPE_CHECKING
from context_memory.memory.constraint import constraint_of
from context_memory.memory.decisions import clip_record
from context_memory.transcript.facts import files_touched

if TYPE_CHECKING:
    from typing import Any, TypedDict

    from context_memory.memory.handoff_draft import SessionFacts

    class ExtractDocument(TypedDict):
        """compaction-extract.json, key for key."""

        session: str
        trigger: str  # handlers/extract.py TRIGGER_*: why this stop or compaction acted
        time: str  # ISO 8601, UTC
        tokens: int  # the context's size when it acted (0 when unknown)
        tokens_source: str  # measure/report: where ``tokens`` comes from ("none": unknown)
        decisions: list[dict[str, object]]
        rejections: list[dict[str, object]]
        risks: list[dict[str, object]]
        constraints: list[dict[str, object]]
        files_modified: list[str]  # relative to the project where inside it
        pending: list[str]
        pending_source: str  # "todos", "plan" or "none"
        handoff: str | None  # the draft stage written, relative to the state folder
        transcript: str | None
        transcript_note: str | None  # why files_modified may be incomplete


# Records of each kind copied into the extract (the newest; the log has all).
MAX_EXTRACT_RECORDS = 200


def copied_records(records: list[dict[str, Any]], kind: str) -> list[dict[str, object]]:
    """The newest MAX_EXTRACT_RECORDS records of ``kind``, each cut to its known fields
    and their bounds (decisions.clip_record)."""
    chosen = [r for r in records if (c := constraint_of(r)) and c["kind"] == kind]
    return [clip_record(record) for record in chosen[-MAX_EXTRACT_RECORDS:]]


def extract_document(
    facts: SessionFacts,
    *,
    session: str,
    trigger: str,
    time: str,
    tokens: int,
    tokens_source: str,
    pending: tuple[list[str], str],
    handoff: str | None,
    state_dir: str,
    project_dir: str | None,
    transcript: str | None,
) -> ExtractDocument:
    """The extract of ``session`` from its facts: ``pending`` is handoff_draft.pending_items'
    (items, source); ``handoff`` the path of the draft stage written at this run, if any."""
    items, pending_source = pending
    return {
        "session": session,
        "trigger": trigger,
        "time": time,
        "tokens": tokens,
        "tokens_source": tokens_source,
        "decisions": copied_records(facts.records, "decided"),
        "rejections": copied_records(facts.records, "rejected"),
        "risks": copied_records(facts.records, "risk"),
        "constraints": copied_records(facts.records, "constraint"),
        "files_modified": files_touched(
            facts.edits, project_dir, subagent_edits=facts.subagent_edits
        ),
        "pending": items,
        "pending_source": pending_source,
        "handoff": os.path.relpath(handoff, state_dir) if handoff else None,
        "transcript": transcript,
        "transcript_note": facts.transcript_note,
    }
