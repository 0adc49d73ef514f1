"""The decisions log: ``<state>/decisions.jsonl``, one JSON record per line.

Record: {"id", "ts" (UTC ISO 8601), "session", "kind" ("decided" | "rejected" | "risk" |
"constraint"), "decision", "reason", "alternatives": [...], "keywords": [...], "author"}. For
a rejection, "decision" holds what was rejected. A record captured from the transcript
(capture/) also has "by" ("user" | "agent"), "source", "uuid" (the transcript row),
"row_ts", "quote" (verbatim, bounded), "anchors", "avoid", "prefer" and, for a rejected tool
call, "call" (make_captured_record bounds them all). ``ctx-decide`` writes "by" too: "agent"
when its Bash tool ran it (CLAUDECODE=1), else "user", or what ``--by`` says; a record
without "by" (older ones) counts as the agent's. Typed subjects (memory/constraint.py, the
one model every reader uses): "ruled_out" and "preferred" (lists of {"kind", "value"}) and
"tier" ("structural" | "stated"), on captured records and on records typed with ctx-decide
alike.

Marks are appended records too and travel with the log: ``ctx-decide --pin/--unpin``
appends {"id", "ts", "session", "kind": "pin" | "unpin", "target": <record id>, "author"};
a later record on the same anchors appends {"kind": "supersede", "target", "by_record"};
``ctx-decide --drop`` appends {"kind": "drop", "target", "author"}. Readers of decisions
skip marks; live_records leaves out what is superseded or dropped (it stays in the log).
Appends are locked; a corrupt line is reported with its path and line number and skipped
by every reader, never rewritten.

The one reader of the log is core/decisions_log.py (read_records, live_records: which
lines count, each record once, the marks apart), below memory/ so that ctx-budget's
turn-start text and ctx-guard's index read the log the same way without ``json``; this
module is the schema of what is written (records, marks, captured fields, their bounds).

Shared through git (``ctx-doctor --team``), the log is merged with git's union driver: both
sides' lines are kept, so a record that reached both sides is there twice. Readers take
each record once: the first line with a given ``id`` (ids are unique across machines, see
identity.py), or, for a line without an id, the first identical line. Older records (12
hex-digit ids, no ``author``) read as before.
"""

from __future__ import annotations

import json
import os
import time

from context_memory import TYPE_CHECKING
from context_memory.core.decisions_log import (
    KINDS,
    MARK_KINDS,
    MAX_RECORD_BYTES,
    PIN_KINDS,
)
from context_memory.core.fsutil import append_line_locked
from context_memory.core.redact import REDACTED, redact, typed_password
from context_memory.core.safe_text import clip
from context_memory.core.state import decisions_path
from context_memory.core.subject import subjects_from
from context_memory.memory.constraint import (
    MAX_ANCHORS,
    MAX_AUDIT_TERMS,
    TIERS,
    subject_fields,
    superseded_ids,
)
from context_memory.memory.identity import git_dir, new_record_id

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from context_memory.core.subject import Subject

BY_VALUES = ("user", "agent")
CAPTURE_SOURCES = ("tool-rejection", "plan", "question", "prompt", "agent-text")
# Bounds of a captured record's fields (capture spec): one line of text, a verbatim quote,
# at most MAX_ANCHORS anchors; what a transcript row says never makes a record big.
MAX_CAPTURED_TEXT = 300
MAX_QUOTE_CHARS = 300
MAX_ANCHOR_CHARS = 64
MAX_GIST_CHARS = 200
MAX_CALL_CHARS = 300
MAX_UUID_CHARS = 100
MAX_TEXT_LENGTH = 4000


class RecordError(ValueError):
    """A record that must not be written (empty text, unknown kind, too long)."""


def utc_now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def make_record(
    kind: str,
    text: str,
    *,
    session: str,
    reason: str = "",
    alternatives: list[str] | tuple[str, ...] = (),
    keywords: list[str] | tuple[str, ...] = (),
    ts: str | None = None,
    author: str = "",
    by: str = "",
    ruled_out: Iterable[Subject | None] = (),
    preferred: Iterable[Subject | None] = (),
) -> dict[str, object]:
    """A validated record, ready to append (``author`` and ``by``, who stated it: "user" or
    "agent", are left out when empty; ``ruled_out``/``preferred`` only when one of them
    names a subject). Every text passes the redaction rule (core/redact.py) first: no
    writer can put a credential in the log."""
    if kind not in KINDS:
        raise RecordError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if by and by not in BY_VALUES:
        raise RecordError(f"by must be one of {', '.join(BY_VALUES)}, not {by!r}")
    text = " ".join(redact(text).split())
    reason = redact(reason)
    if not text:
        raise RecordError(f"the {kind} text is empty")
    if len(text) > MAX_TEXT_LENGTH or len(reason) > MAX_TEXT_LENGTH:
        raise RecordError(f"the {kind} text or reason is longer than {MAX_TEXT_LENGTH} characters")
    record: dict[str, object] = {
        "id": new_record_id(),
        "ts": ts or utc_now_iso(),
        "session": session,
        "kind": kind,
        "decision": text,
        "reason": " ".join(reason.split()),
        "alternatives": [" ".join(redact(a).split()) for a in alternatives if a.strip()],
        "keywords": [w for w in (" ".join(k.split()) for k in keywords) if _clean_word(w)],
    }
    if author:
        record["author"] = " ".join(author.split())
    if by:
        record["by"] = by
    subjects = subject_fields(_redacted_subjects(ruled_out), _redacted_subjects(preferred))
    if subjects["ruled_out"] or subjects["preferred"]:
        record.update(subjects)
    return record


def _clean_word(word: str) -> bool:
    """An anchor or keyword worth keeping: not empty, no credential in it (a redacted
    word matches nothing, so it is left out rather than kept as ``[redacted]``)."""
    return bool(word) and REDACTED not in word and redact(word) == word


def _redacted_subjects(subjects: Iterable[Subject | None]) -> list[Subject | None]:
    """Subjects without those whose value holds a credential (nothing to match on)."""
    return [s for s in subjects if s is None or _clean_word(s.get("value", ""))]


def append_record(state_dir: str | os.PathLike[str], record: dict[str, object]) -> None:
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    try:
        encoded = line.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: undecodable bytes of argv, a \ud800 escape
        raise RecordError(
            "the record holds text that is not valid Unicode (undecodable bytes); retype it "
            "as UTF-8"
        ) from None
    if len(encoded) > MAX_RECORD_BYTES:
        raise RecordError(
            f"the record is longer than {MAX_RECORD_BYTES} bytes; shorten the alternatives "
            "or keywords"
        )
    path = decisions_path(state_dir)
    append_line_locked(path, line, root=os.fspath(state_dir), settle=lambda: wait_for_git(path))


GIT_WAIT_SECONDS = 3.0
GIT_POLL_SECONDS = 0.01


def wait_for_git(path: str, limit: float = GIT_WAIT_SECONDS) -> None:
    """Wait (at most ``limit`` seconds) while git holds the index lock of the work tree
    around ``path``.

    ``git pull`` holds ``.git/index.lock`` while it writes merged files; a line appended
    after git checked the file but before it wrote the merged version would be lost. Once
    git is done, the append checks the file by name and appends again if its line is gone.
    """
    found = git_dir(os.path.dirname(os.path.abspath(path)))
    if found is None:
        return
    lock = os.path.join(found, "index.lock")
    deadline = time.monotonic() + limit
    while os.path.exists(lock) and time.monotonic() < deadline:
        time.sleep(GIT_POLL_SECONDS)


def stated_at(record: Mapping[str, object]) -> str:
    """When a record was stated: the time of the transcript row it was captured from
    (``row_ts``) when it has one, else when it was written (``ts``); "" when neither is
    text. A capture by hand runs long after the row: the row's time is the statement's."""
    for key in ("row_ts", "ts"):
        value = record.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def stated_by(record: dict[str, object]) -> str:
    """Who stated a record: "user" or "agent" (records without ``by`` are the agent's)."""
    by = record.get("by")
    return by if isinstance(by, str) and by in BY_VALUES else "agent"


MAX_LIST_ITEMS = 20
MAX_LIST_ITEM_CHARS = 300


def clip_record(record: dict[str, object]) -> dict[str, object]:
    """A copy of ``record`` with only the known fields, each within what make_record allows
    (texts MAX_TEXT_LENGTH, lists MAX_LIST_ITEMS of MAX_LIST_ITEM_CHARS): what is copied out
    of the log (the extract) stays bounded whatever a line holds, and every text passes the
    redaction rule again (a record written before the rule, or by hand, may hold one)."""
    copy: dict[str, object] = {}
    for key in ("id", "ts", "session", "kind", "decision", "reason"):
        value = record.get(key)
        if isinstance(value, str):
            copy[key] = clip(redact(value), MAX_TEXT_LENGTH)
    for key in ("alternatives", "keywords"):
        items = str_list(record.get(key))[:MAX_LIST_ITEMS]
        copy[key] = [clip(redact(item), MAX_LIST_ITEM_CHARS) for item in items]
    if "by" in record or "source" in record:  # a captured record: its fields, bounded
        for key, limit in (
            ("by", MAX_UUID_CHARS),
            ("source", MAX_UUID_CHARS),
            ("uuid", MAX_UUID_CHARS),
            ("row_ts", MAX_UUID_CHARS),
            ("quote", MAX_QUOTE_CHARS),
        ):
            value = record.get(key)
            if isinstance(value, str):
                copy[key] = clip(redact(value), limit)
        for key in ("anchors", "avoid", "prefer"):
            words = [w for w in str_list(record.get(key))[:MAX_ANCHORS] if _clean_word(w)]
            copy[key] = [clip(word, MAX_ANCHOR_CHARS) for word in words]
        call = clean_call(record.get("call"))
        if call:
            copy["call"] = call
    for key in ("ruled_out", "preferred"):
        if key in record:
            copy[key] = [s for s in subjects_from(record.get(key)) if _clean_word(s["value"])]
    if record.get("tier") in TIERS:
        copy["tier"] = record["tier"]
    return copy


def str_list(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def make_pin_record(kind: str, target: str, *, session: str, author: str = "") -> dict[str, object]:
    """A pin or unpin record for the decision ``target`` (its id); ``author`` as in
    make_record (left out when empty)."""
    if kind not in PIN_KINDS:
        raise RecordError(f"kind must be one of {', '.join(PIN_KINDS)}, not {kind!r}")
    return _targeted_record(kind, target, session=session, author=author)


def _targeted_record(
    kind: str, target: str, *, session: str, author: str, by_record: str = ""
) -> dict[str, object]:
    """A record about another record (a pin, an unpin, a supersede or drop mark)."""
    record: dict[str, object] = {
        "id": new_record_id(),
        "ts": utc_now_iso(),
        "session": session,
        "kind": kind,
        "target": target,
    }
    if by_record:
        record["by_record"] = by_record
    if author:
        record["author"] = " ".join(author.split())
    return record


def make_mark_record(
    kind: str, target: str, *, session: str, by_record: str = "", author: str = ""
) -> dict[str, object]:
    """A supersede mark (``by_record``: the id of the record that supersedes ``target``) or
    a drop mark; ``author`` as in make_record."""
    if kind not in MARK_KINDS:
        raise RecordError(f"kind must be one of {', '.join(MARK_KINDS)}, not {kind!r}")
    if kind == "supersede" and not by_record:
        raise RecordError("a supersede mark needs the id of the superseding record")
    return _targeted_record(kind, target, session=session, author=author, by_record=by_record)


def _line(value: object, limit: int) -> str:
    """One line of at most ``limit`` characters, redacted before it is cut (a cut
    credential would no longer show its shape)."""
    return clip(" ".join(redact(value).split()), limit) if isinstance(value, str) else ""


def _own(value: object, count: int) -> int:
    return value if isinstance(value, int) and 0 <= value <= count else count


def _words(value: object, limit: int = MAX_ANCHORS) -> list[str]:
    """Distinct lowercase one-line words, in order, at most ``limit`` of them."""
    words: list[str] = []
    for item in str_list(value):
        word = _line(item, MAX_ANCHOR_CHARS).lower()
        if _clean_word(word) and word not in words:
            words.append(word)
    return words[:limit]


def clean_call(value: object) -> dict[str, str] | None:
    """A captured ``call`` with its known fields, bounded; None when it names no tool."""
    if not isinstance(value, dict):
        return None
    tool = _line(value.get("tool"), MAX_UUID_CHARS)
    if not tool:
        return None
    call = {"tool": tool}
    for key, limit in (
        ("command", MAX_CALL_CHARS),
        ("file", MAX_CALL_CHARS),
        ("gist", MAX_GIST_CHARS),
    ):
        text = _line(value.get(key), limit)
        if text:
            call[key] = text
    return call


def make_captured_record(
    item: dict[str, object], *, session: str, ts: str | None = None, author: str = ""
) -> dict[str, object]:
    """A validated, bounded decisions-log record from one captured item (the capture
    engine's dict: kind, by, source, uuid, row_ts, decision, reason, quote, alternatives,
    anchors, avoid, prefer, call). Texts are cut to one line of MAX_CAPTURED_TEXT; anchors
    are lowercase and at most MAX_ANCHORS; avoid and prefer keep only anchors; ``keywords``
    are the first MAX_AUDIT_TERMS anchors (its ``own_anchors`` only), the audit's words."""
    kind = item.get("kind")
    if kind not in ("decided", "rejected", "constraint"):
        raise RecordError(f"a captured kind must be decided, rejected or constraint, not {kind!r}")
    by = item.get("by")
    if by not in BY_VALUES:
        raise RecordError(f"by must be one of {', '.join(BY_VALUES)}, not {by!r}")
    source = item.get("source")
    if source not in CAPTURE_SOURCES:
        raise RecordError(f"source must be one of {', '.join(CAPTURE_SOURCES)}, not {source!r}")
    uuid = _line(item.get("uuid"), MAX_UUID_CHARS)
    if not uuid:
        raise RecordError("a captured record needs the uuid of its transcript row")
    item = without_typed_password(item)
    quote = _line(item.get("quote"), MAX_QUOTE_CHARS)
    text = _line(item.get("decision"), MAX_CAPTURED_TEXT) or quote
    anchors = _words(item.get("anchors"))
    record = make_record(
        str(kind),
        text,
        session=session,
        reason=_line(item.get("reason"), MAX_CAPTURED_TEXT),
        alternatives=[_line(a, MAX_CAPTURED_TEXT) for a in str_list(item.get("alternatives"))][
            :MAX_LIST_ITEMS
        ],
        keywords=anchors[: min(MAX_AUDIT_TERMS, _own(item.get("own_anchors"), len(anchors)))],
        ts=ts,
        author=author,
    )
    record.update(
        by=by,
        source=source,
        uuid=uuid,
        row_ts=_line(item.get("row_ts"), MAX_UUID_CHARS),
        quote=quote,
        anchors=anchors,
        avoid=[w for w in _words(item.get("avoid")) if w in anchors],
        prefer=[w for w in _words(item.get("prefer")) if w in anchors],
    )
    call = clean_call(item.get("call"))
    if call:
        record["call"] = call
    if "ruled_out" in item or "preferred" in item:
        record.update(
            subject_fields(
                _redacted_subjects(subjects_from(item.get("ruled_out"))),
                _redacted_subjects(subjects_from(item.get("preferred"))),
            )
        )
    tier = item.get("tier")
    if tier is not None:
        if tier not in TIERS:
            raise RecordError(f"tier must be one of {', '.join(TIERS)}, not {tier!r}")
        record["tier"] = tier
    return record


class CredentialDropped(RecordError):
    """A captured item with nothing left once the password typed into it is taken out."""


def without_typed_password(item: dict[str, object]) -> dict[str, object]:
    """``item`` without the password a user typed as a rejected call's reason
    (core/redact.typed_password): the reason, the quote and every anchor holding it go;
    the record keeps what was rejected. Raises CredentialDropped when nothing else is left
    (an item whose text is the password itself)."""
    if item.get("source") not in ("tool-rejection", "plan"):
        return item
    reason = item.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        return item
    call = item.get("call")
    command = call.get("command", "") if isinstance(call, dict) else ""
    if not typed_password(reason, command if isinstance(command, str) else ""):
        return item
    secret = reason.strip()
    clean = dict(item)
    clean["reason"] = ""
    clean["quote"] = ""
    for key in ("anchors", "avoid", "prefer", "alternatives"):
        clean[key] = [w for w in str_list(item.get(key)) if secret.lower() not in w.lower()]
    text = item.get("decision")
    if not isinstance(text, str) or secret in text:
        text = text.replace(secret, "").strip() if isinstance(text, str) else ""
        if not text or text == secret:
            raise CredentialDropped("the captured text is a password the user typed; not kept")
        clean["decision"] = text
    return clean


def capture_identity(record: dict[str, object]) -> tuple[str, str, str, str] | None:
    """(uuid, kind, source, text) of a captured record (None: one ctx-decide wrote): a row
    read again, the same; one row stating several things of one kind, one per thing."""
    uuid, kind, source = record.get("uuid"), record.get("kind"), record.get("source")
    text = record.get("decision")
    if isinstance(uuid, str) and isinstance(kind, str) and isinstance(source, str) and uuid:
        return (uuid, kind, source, text if isinstance(text, str) else "")
    return None


def superseded_by(new: dict[str, object], live: list[dict[str, object]]) -> list[str]:
    """Ids of the live records ``new`` supersedes: each shares with it an anchor that is in
    new.prefer and old.avoid, or in new.avoid and old.prefer ("use npm after all" after
    "use pnpm, not npm"); and those the typed rule (constraint.supersedes) says it
    supersedes. Records with neither (older ctx-decide ones) are never superseded this way:
    ctx-decide --drop retracts them."""
    found = superseded_ids(new, [r for r in live if "ruled_out" in r or "preferred" in r])
    prefer, avoid = set(str_list(new.get("prefer"))), set(str_list(new.get("avoid")))
    if not prefer and not avoid:
        return found
    for old in live:
        if old is new or old.get("id") == new.get("id"):
            continue
        if (prefer & set(str_list(old.get("avoid")))) or (avoid & set(str_list(old.get("prefer")))):
            ident = old.get("id")
            if isinstance(ident, str) and ident and ident not in found:
                found.append(ident)
    return found
