"""The typed constraint model: a record of the decisions log as every reader sees it.

A record says what it rules out and what it prefers as **subjects of a kind**
(core/subject.py: the kinds, how a value is normalised, when two are one).

On disk (decisions.jsonl) a record carries ``ruled_out`` and ``preferred``, each a list of
``{"kind": ..., "value": ...}``, and ``tier``: ``structural`` (a rejected call with the
user's reason, plan feedback, an AskUserQuestion answer: the client's own shapes) or
``stated`` (a directive typed in a prompt). Records written before this model (no
``ruled_out``) still read: their old ``avoid``/``prefer`` words become ``approach``
subjects, which only ever remind.

Supersede rule (one place): a later record supersedes an earlier one when it takes the
other stance on a subject the earlier one names (prefers what the earlier ruled out, or
rules out what it preferred: "use npm after all" after "use pnpm, not npm"), or when it
takes the same stance on every subject the earlier one ruled out (a restatement). A record
with no subjects never supersedes or gets superseded this way (ctx-decide --drop retracts it).

Standard library only and no ``re``: the guard's index rebuild and capture at Stop import
this module; the TypedDicts exist for mypy only.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core.subject import (
    ACTIONABLE_KINDS,
    MAX_SUBJECTS,
    same_subject,
    subject,
    subject_key,
    subjects_from,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from typing import TypedDict

    from context_memory.core.subject import Subject

    class Constraint(TypedDict):
        id: str
        kind: str  # decided | rejected | constraint | risk
        text: str  # what was decided, rejected or required (one line)
        reason: str
        ruled_out: list[Subject]
        preferred: list[Subject]
        by: str  # user | agent
        tier: str  # structural | stated | "" (ctx-decide, older records)
        source: str  # one of SOURCES
        quote: str  # the evidence: verbatim, bounded
        uuid: str  # the transcript row of the evidence ("" for ctx-decide)
        when: str  # the row's time, else the record's
        session: str
        author: str
        call: dict[str, str] | None  # the rejected tool call (tool, command | file, gist)
        anchors: list[str]  # its distinctive words, best first
        keywords: list[str]  # the words the audit looks for (at most MAX_AUDIT_TERMS)


# A record's anchors: the distinctive words of the whole text it was captured from (a
# plan, an edit, a reason, and for a message in another language the English words the
# agent answered it with), best first; the audit looks for the first MAX_AUDIT_TERMS in a
# summary (more would make a kept decision read as lost), the rest let a later reader (and
# the capture benchmark) find the record by what it is about.
MAX_ANCHORS = 32
MAX_AUDIT_TERMS = 12
TIERS = ("structural", "stated")
# Where a record came from: capture's sources, a typed ctx-decide, the client's auto memory,
# a teammate's record through ctx-merge.
SOURCES = (
    "tool-rejection",
    "plan",
    "question",
    "prompt",
    "agent-text",
    "ctx-decide",
    "auto-memory",
    "merge",
)
# The client's own words that open a rejection's tool_result (protocol file, section 9).
CLIENT_REJECTION_START = "The user doesn't want to"


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _words(value: object, limit: int = MAX_SUBJECTS * 2) -> list[str]:
    if not isinstance(value, list):
        return []
    return [w for w in value if isinstance(w, str) and w][:limit]


def _legacy(words: list[str]) -> list[Subject]:
    found: list[Subject] = []
    for word in words:
        made = subject("approach", word)
        if made is not None and not any(same_subject(made, f) for f in found):
            found.append(made)
    return found[:MAX_SUBJECTS]


def constraint_of(record: Mapping[str, object]) -> Constraint | None:
    """The typed view of one decisions-log record (None for marks and pins, or a line
    that is no decision). Older records read: without ``ruled_out`` their ``avoid`` and
    ``prefer`` words become approach subjects; without ``by`` the record is the agent's;
    without ``source`` it was typed with ctx-decide."""
    kind = record.get("kind")
    text = record.get("decision")
    if kind not in ("decided", "rejected", "constraint", "risk") or not isinstance(text, str):
        return None
    typed = "ruled_out" in record or "preferred" in record
    ruled_out = subjects_from(record.get("ruled_out")) if typed else []
    preferred = subjects_from(record.get("preferred")) if typed else []
    if not typed:
        ruled_out = _legacy(_words(record.get("avoid")))
        preferred = _legacy(_words(record.get("prefer")))
    by = record.get("by")
    tier = record.get("tier")
    source = record.get("source")
    call = record.get("call")
    return {
        "id": _str(record.get("id")),
        "kind": str(kind),
        "text": text,
        "reason": _str(record.get("reason")),
        "ruled_out": ruled_out,
        "preferred": preferred,
        "by": by if by in ("user", "agent") else "agent",
        "tier": tier if tier in TIERS else "",
        "source": source if source in SOURCES else "ctx-decide",
        "quote": _str(record.get("quote")),
        "uuid": _str(record.get("uuid")),
        "when": _str(record.get("row_ts")) or _str(record.get("ts")),
        "session": _str(record.get("session")),
        "author": _str(record.get("author")),
        "call": {k: v for k, v in call.items() if isinstance(v, str)}
        if isinstance(call, dict)
        else None,
        "anchors": _words(record.get("anchors") or record.get("keywords"), MAX_ANCHORS),
        "keywords": _words(
            record.get("keywords")
            if isinstance(record.get("keywords"), list)
            else record.get("anchors"),
            MAX_AUDIT_TERMS,
        ),
    }


def constraints_of(records: Iterable[Mapping[str, object]]) -> list[Constraint]:
    """The typed views of ``records`` (in their order), leaving out what is no decision."""
    return [c for c in (constraint_of(r) for r in records) if c is not None]


def _subjects(record: Mapping[str, object], key: str) -> list[Subject]:
    value = record.get(key)
    return subjects_from(value) if isinstance(value, list) else []


def supersedes(new: Mapping[str, object], old: Mapping[str, object]) -> bool:
    """Whether the later record ``new`` supersedes the earlier ``old`` (module docstring):
    the other stance on a subject of ``old``, or the same stance on all it ruled out.
    Both must carry typed subjects (``ruled_out``/``preferred``), whatever wrote them."""
    if new is old or (new.get("id") and new.get("id") == old.get("id")):
        return False
    new_out, new_pref = _subjects(new, "ruled_out"), _subjects(new, "preferred")
    old_out, old_pref = _subjects(old, "ruled_out"), _subjects(old, "preferred")
    if not (new_out or new_pref) or not (old_out or old_pref):
        return False

    def shared(left: list[Subject], right: list[Subject]) -> bool:
        return any(same_subject(a, b) for a in left for b in right)

    if shared(new_pref, old_out) or shared(new_out, old_pref):
        return True
    if old_out and all(any(same_subject(o, n) for n in new_out) for o in old_out):
        return not old_pref or all(any(same_subject(p, n) for n in new_pref) for p in old_pref)
    return False


def superseded_ids(new: Mapping[str, object], earlier: Iterable[Mapping[str, object]]) -> list[str]:
    """Ids of the records of ``earlier`` that ``new`` supersedes."""
    found: list[str] = []
    for old in earlier:
        ident = old.get("id")
        if isinstance(ident, str) and ident and supersedes(new, old) and ident not in found:
            found.append(ident)
    return found


def live_by_subject(records: Iterable[Mapping[str, object]]) -> list[Mapping[str, object]]:
    """``records`` (log order) without those a later one supersedes: the rule applied to
    a whole log at read time, so records merged from a teammate or written by another
    source are judged the same way as those capture marked when it appended them.

    A record supersedes only one it shares a subject with, so each new record is compared
    with the live records that name one of its subjects (a log of 10,000 records is
    judged in one pass, not 10,000 x 10,000 comparisons)."""
    kept: dict[int, Mapping[str, object]] = {}  # position -> record, in log order
    by_key: dict[tuple[str, str], set[int]] = {}
    by_id: dict[str, set[int]] = {}
    for position, record in enumerate(records):
        keys = {
            subject_key(item)
            for field in ("ruled_out", "preferred")
            for item in _subjects(record, field)
        }
        candidates = sorted({p for key in keys for p in by_key.get(key, ()) if p in kept})
        gone: set[str] = set()
        for candidate in candidates:
            old = kept[candidate]
            ident = old.get("id")
            if isinstance(ident, str) and ident and supersedes(record, old):
                gone.add(ident)
        for ident in gone:
            for p in by_id.pop(ident, set()):
                kept.pop(p, None)
        kept[position] = record
        for key in keys:
            by_key.setdefault(key, set()).add(position)
        ident = record.get("id")
        if isinstance(ident, str) and ident:
            by_id.setdefault(ident, set()).add(position)
    return list(kept.values())


def live_newest(
    records: Sequence[Mapping[str, object]],
    count: int,
    view: Callable[[Mapping[str, object]], Mapping[str, object]] | None = None,
) -> list[Mapping[str, object]]:
    """The newest ``count`` records of ``live_by_subject(records)`` (log order), each as
    ``view`` makes it (the typed form a reader judges), reading the log from its end: a
    record is live when no later record supersedes it, so only the tail is looked at and
    only the records looked at are typed (the guard's index of a 10,000-record log)."""
    later: list[Mapping[str, object]] = []  # the typed views seen so far, newest first
    by_key: dict[tuple[str, str], list[int]] = {}
    found: list[Mapping[str, object]] = []
    for record in reversed(records):
        if len(found) >= count:
            break
        typed = view(record) if view is not None else record
        keys = {
            subject_key(item)
            for field in ("ruled_out", "preferred")
            for item in _subjects(typed, field)
        }
        candidates = sorted({p for key in keys for p in by_key.get(key, ())})
        if not any(supersedes(later[p], typed) for p in candidates):
            found.append(typed)
        for key in keys:
            by_key.setdefault(key, []).append(len(later))
        later.append(typed)
    found.reverse()
    return found


def users_own(constraint: Mapping[str, object]) -> bool:
    """Whether the record is the user's decision, made outside the agent's hands: by the
    user, not from the agent's text or the client's auto memory, and, for a rejected call,
    with the reason the user typed into the rejection. A bare "no" in the permission prompt
    (no reason; or one capture took from the user's next prompt, whose evidence is then the
    client's own rejection text) says no to that moment as often as to the call: "continue"
    or "yes, and be aware I use nvm" are no reason to stop the call again."""
    if constraint.get("by") != "user" or constraint.get("source") in ("agent-text", "auto-memory"):
        return False
    if constraint.get("source") != "tool-rejection":
        return True
    reason, quote = constraint.get("reason"), constraint.get("quote")
    if not isinstance(reason, str) or not reason.strip():
        return False
    return not (isinstance(quote, str) and quote.startswith(CLIENT_REJECTION_START))


def can_ask(constraint: Mapping[str, object]) -> bool:
    """Whether the guard may ask (not only remind) on a call that acts on this record's
    subjects: the user's records (users_own: captured from the client's shapes with the
    user's words or from a prompt, typed in a terminal, a teammate's merged record) that
    rule out something a call can act on. A record the agent made itself, one from auto
    memory, a rejection without the user's reason, or one of kind approach only reminds."""
    if not users_own(constraint):
        return False
    return any(s["kind"] in ACTIONABLE_KINDS for s in _subjects(constraint, "ruled_out"))


def subject_fields(
    ruled_out: Iterable[Subject | None], preferred: Iterable[Subject | None] = ()
) -> dict[str, list[Subject]]:
    """The ``ruled_out``/``preferred`` fields of a record to write (Nones and repeats
    left out, each list at most MAX_SUBJECTS)."""

    def clean(items: Iterable[Subject | None]) -> list[Subject]:
        found: list[Subject] = []
        for item in items:
            if item is not None and not any(same_subject(item, f) for f in found):
                found.append(item)
        return found[:MAX_SUBJECTS]

    return {"ruled_out": clean(ruled_out), "preferred": clean(preferred)}
