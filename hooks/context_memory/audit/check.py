"""Which recorded decisions an audit checks, whether each survived, and the texts that
say so: the [COMPACT AUDIT] injection and the user's one line.
"""

from __future__ import annotations

import os
import re
import time

from context_memory import TYPE_CHECKING
from context_memory.audit.config import (
    KINDS_AUDITED,
    MAX_DECISION_CHARS,
    MAX_INJECTION_CHARS,
    MAX_NAMES_CHARS,
    SOURCE_AUTO_MEMORY,
    SOURCE_KEPT,
    SOURCE_PINNED,
    SOURCE_SUMMARY,
    TEAM_REJECTIONS_AUDITED,
)
from context_memory.audit.matching import ContextIndex, Presence, check_decision
from context_memory.core.decisions_log import decision_line
from context_memory.core.redact import redact
from context_memory.core.safe_text import one_line
from context_memory.core.state import (
    AUDIT_FILE,
    PINNED_SNAPSHOT_FILE,
    resolve_project_dir,
)
from context_memory.core.tables import (
    AUDIT_PREFIX,
    AUDIT_TEXTS,
)
from context_memory.memory.constraint import (
    MAX_AUDIT_TERMS,
    constraint_of,
    constraints_of,
    live_by_subject,
)
from context_memory.memory.decisions import stated_at

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from context_memory.memory.constraint import Constraint

ISO_SECONDS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
# -- which decisions -------------------------------------------------------------------------


def _recorded_by(record: Mapping[str, object], cutoff: str | None) -> bool:
    """Whether ``record`` was stated no later than ``cutoff`` (ISO time, to the second)."""
    if cutoff is None:
        return True
    ts = stated_at(record)  # a capture by hand: the row's time, not the capture's
    if not ISO_SECONDS.match(ts) or not ISO_SECONDS.match(cutoff):
        return True  # cannot tell: auditing one decision too many is the cheap mistake
    return ts[:19] <= cutoff[:19]


def select_decisions(
    records: Sequence[dict[str, Any]],
    session: str | None,
    last: int,
    *,
    recorded_by: str | None = None,
    team_rejections: int = TEAM_REJECTIONS_AUDITED,
) -> list[dict[str, Any]]:
    """The decisions an audit checks, oldest first by recorded time.

    The ``last`` most recent decided, rejected or constraint records, plus every rejection
    and constraint of ``session`` (a lost rejection is the costliest loss: the agent
    proposes it again; a constraint is one too), plus the ``team_rejections`` newest
    rejections and constraints of any session or author (on a
    shared project a teammate's rejection matters as much as one's own). Records stated
    after ``recorded_by`` (the compaction's time) are left out; a captured record was
    stated when its transcript row was written (memory.decisions.stated_at). Time order,
    not file order: git's union merge puts a teammate's records wherever the merge joins
    the two sides.
    """
    live = {id(r) for r in live_by_subject(records)}  # the supersede rule, at read time
    kinds = {id(r): c for r in records if id(r) in live and (c := constraint_of(r)) is not None}
    eligible = sorted(
        (
            record
            for record in records
            if id(record) in kinds
            and kinds[id(record)]["kind"] in KINDS_AUDITED
            and _recorded_by(record, recorded_by)
        ),
        key=stated_at,
    )
    chosen = {id(record) for record in eligible[-last:]}
    rejections = [r for r in eligible if kinds[id(r)]["kind"] in ("rejected", "constraint")]
    if team_rejections > 0:
        chosen.update(id(record) for record in rejections[-team_rejections:])
    if session:
        chosen.update(id(r) for r in rejections if kinds[id(r)]["session"] == session)
    return [record for record in eligible if id(record) in chosen]


# -- the audit -------------------------------------------------------------------------------


def _presence(constraint: Constraint, index: ContextIndex) -> Presence:
    return check_decision(constraint["text"], audit_terms(constraint), index)


def audit_terms(constraint: Constraint) -> list[str]:
    """The words the audit looks for: a record's keywords (its first MAX_AUDIT_TERMS
    anchors that are the user's own; a typed record's keywords)."""
    return constraint["keywords"][:MAX_AUDIT_TERMS]


def audit_decisions(
    decisions: Sequence[Mapping[str, Any]], summary: str, kept: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """Each decision: survived or lost, where it was found, which terms were found or missing.

    A decision survives when it is present in the summary or in the kept messages; it is
    looked up in each on its own, and the terms shown are those of the better one.
    """
    summary_index = ContextIndex(summary)
    kept_text = "\n".join(text for text in kept if text)
    kept_index = ContextIndex(kept_text) if kept_text.strip() else None
    results: list[dict[str, Any]] = []
    for constraint in constraints_of(decisions):
        best = _presence(constraint, summary_index)
        where: str | None = SOURCE_SUMMARY if best.present else None
        if not best.present and kept_index is not None:
            in_kept = _presence(constraint, kept_index)
            if in_kept.present or len(in_kept.found) > len(best.found):
                best = in_kept
            if in_kept.present:
                where = SOURCE_KEPT
        results.append(
            {
                "id": constraint["id"],
                "kind": constraint["kind"],
                # What the audit file keeps and may put back: redacted (a record written
                # before the rule may hold a credential), looked up unredacted above.
                "decision": redact(constraint["text"]),
                "reason": redact(constraint["reason"]),
                "keywords": audit_terms(constraint),
                "session": constraint["session"],
                "by": constraint["by"],
                "status": "survived" if best.present else "lost",
                "where": where,
                "found": best.found,
                "missing": best.missing,
                "score": round(best.score, 2),
            }
        )
    return results


def mark_pinned(results: Sequence[dict[str, Any]], session_folder: str, when: float) -> None:
    """Decisions the pinned digest held at the compaction (snapshot taken by the PreCompact
    hook) reached the model with every request: survived, never lost nor re-injected."""
    from context_memory.pinned.snapshots import ids_in_digest_at

    if not os.path.exists(os.path.join(session_folder, PINNED_SNAPSHOT_FILE)):
        return
    ids = ids_in_digest_at(session_folder, when)
    for item in results:
        if item.get("status") == "lost" and item.get("id") in ids:
            item.update(status="survived", where=SOURCE_PINNED)


def with_auto_memory(
    records: list[dict[str, Any]], project_dir: str
) -> tuple[list[dict[str, Any]], frozenset[str]]:
    """``records`` plus the model's own auto memories (memory/native_read.py), and the ids
    of the records whose lines are in MEMORY.md now (the toolkit's block, or the model's
    own pointer to its file): the client loads those after the compaction by itself."""
    from context_memory.memory.native_read import listed_auto_memory

    own, in_memory = listed_auto_memory(project_dir)
    return [*records, *own], in_memory


def mark_in_memory(results: Sequence[dict[str, Any]], ids: frozenset[str]) -> None:
    """Decisions whose lines are in MEMORY.md reach the model after every compaction
    through the client's auto memory: kept, never re-injected (one delivery)."""
    for item in results:
        if item.get("status") == "lost" and item.get("id") in ids:
            item.update(status="survived", where=SOURCE_AUTO_MEMORY)


def injection_text(
    results: Sequence[Mapping[str, Any]],
    pointer: str | None,
    lang: str = "en",
    record: str | None = None,
) -> str | None:
    """The [COMPACT AUDIT] text for the lost decisions; None when nothing was lost.

    At most MAX_INJECTION_CHARS characters: the decisions that do not fit are replaced by
    one line counting them and naming ``record`` (the audit file) where all of them are.
    """
    lost = [item for item in results if item.get("status") == "lost"]
    if not lost:
        return None
    texts = AUDIT_TEXTS.get(lang, AUDIT_TEXTS["en"])
    header = texts["header"].format(prefix=AUDIT_PREFIX)
    footer = one_line(pointer or texts["fallback_pointer"], MAX_INJECTION_CHARS // 4)
    more_line = texts["more"].format(
        more=len(lost), cap=MAX_INJECTION_CHARS, record=record or AUDIT_FILE
    )
    room = MAX_INJECTION_CHARS - len(header) - len(footer) - len(more_line) - 3
    lines = [header]
    for index, item in enumerate(lost):
        reason = str(item.get("reason") or "")
        line = decision_line(
            texts,
            str(item.get("kind")),
            one_line(str(item.get("decision") or ""), MAX_DECISION_CHARS),
            one_line(reason, MAX_DECISION_CHARS) if reason else None,
            item.get("by") == "user",
        )
        if len(line) + 1 > room:
            lines.append(
                texts["more"].format(
                    more=len(lost) - index,
                    cap=MAX_INJECTION_CHARS,
                    record=record or AUDIT_FILE,
                )
            )
            break
        room -= len(line) + 1
        lines.append(line)
    lines.append(footer)
    return "\n".join(lines)


def user_line(results: Sequence[Mapping[str, Any]], lang: str = "en") -> str:
    """One line for the user after a compaction."""
    texts = AUDIT_TEXTS.get(lang, AUDIT_TEXTS["en"])
    lost = [item for item in results if item.get("status") == "lost"]
    if not lost:
        return texts["user_ok"].format(total=len(results))
    names = one_line("; ".join(str(item.get("decision")) for item in lost), MAX_NAMES_CHARS)
    return texts["user_lost"].format(lost=len(lost), total=len(results), names=names)


def recovery_pointer_for(state_dir: str, cwd: str | None) -> str | None:
    from context_memory.memory.pointer import recovery_pointer

    # The audit names the rejections it found lost itself.
    return recovery_pointer(state_dir, base=resolve_project_dir(cwd), with_rejections=False)


def epoch_of(stamp: str | None) -> float | None:
    """Seconds since the epoch of an ISO 8601 UTC time (to the second); None if not one."""
    if not stamp or not ISO_SECONDS.match(stamp):
        return None
    import calendar

    return float(calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")))
