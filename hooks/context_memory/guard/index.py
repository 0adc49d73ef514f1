"""The guard's index: ``<state>/guard-index.json``, what the guard needs of the decisions log.

Read before every guarded tool call, so it is small: only the live records that rule
something out (rejections, constraints, decisions that name what not to use), the newest
GUARD_INDEX_MAX_ENTRIES of them, each with short texts and its anchors. Its header holds
the log's (size, mtime_ns, inode) when it was built; a log that differs makes the next
call rebuild it (reading the log once, through the live-records reader); a missing,
damaged, oversized or foreign index is rebuilt too, and when it cannot be written the
rebuilt entries are used for this call only. The fast path reads one small file with
lightjson: no ``json``, no ``re``.

Records of ``ctx-decide`` carry no anchors: they get them here from their text, keywords
and alternatives (anchors_from_text).
"""

from __future__ import annotations

import os

from context_memory.core import lightjson
from context_memory.core.tables import (
    GUARD_INDEX_FILE,
    GUARD_INDEX_MAX_BYTES,
    GUARD_INDEX_MAX_ENTRIES,
    GUARD_STOP_WORDS,
    GUARD_TEXT_CHARS,
)
from context_memory.guard.words import text_words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

INDEX_VERSION = 1
DECISIONS_FILE = "decisions.jsonl"  # memory/decisions.py's name (not imported: json)
MAX_ANCHORS = 12
# Words after which a decision names what it chose ("use pnpm", "prefer date-fns").
_CHOOSING = frozenset(("use", "prefer", "choose", "chose", "pick", "picked", "with", "keep"))


def index_path(state_dir: str) -> str:
    return os.path.join(state_dir, GUARD_INDEX_FILE)


def log_signature(state_dir: str) -> list[int] | None:
    """(size, mtime_ns, inode) of the decisions log, or None when there is none (or it is
    not a regular file: a link is not followed)."""
    try:
        info = os.lstat(os.path.join(state_dir, DECISIONS_FILE))
    except OSError:
        return None
    if (info.st_mode & 0o170000) != 0o100000:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ino]


# -- entries from records --------------------------------------------------------------------


def _str(value: object, limit: int = GUARD_TEXT_CHARS) -> str:
    if not isinstance(value, str):
        return ""
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 3].rstrip() + "..."


def _words(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    found: list[str] = []
    for item in value[: MAX_ANCHORS * 2]:
        if isinstance(item, str):
            word = " ".join(item.lower().split())[:80]
            if word and word not in found:
                found.append(word)
    return found[:MAX_ANCHORS]


def distinctive(text: str) -> list[str]:
    """Words of ``text`` worth matching: not glue words, at least 3 characters."""
    found: list[str] = []
    for word in text_words(text, 2000):
        if len(word) >= 3 and word not in GUARD_STOP_WORDS and word not in found:
            found.append(word)
    return found


def anchors_from_text(record: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(avoid, prefer) of a record that has none (one written by ctx-decide).

    A rejection avoids its keywords, else the distinctive words of what it rejected (words
    after "use"/"prefer" there are what it chose instead). A decision avoids the words of
    its alternatives and prefers its keywords or its own words.
    """
    kind = record.get("kind")
    keywords = [w.lower() for w in _words(record.get("keywords"))]
    text = record.get("decision") if isinstance(record.get("decision"), str) else ""
    if kind == "decided":
        avoid: list[str] = []
        for alternative in _words(record.get("alternatives")):
            avoid.extend(w for w in distinctive(alternative) if w not in avoid)
        prefer = keywords or distinctive(str(text))
        return [w for w in avoid if w not in prefer][:MAX_ANCHORS], prefer[:MAX_ANCHORS]
    words = text_words(str(text), 2000)
    cut = next((i for i, word in enumerate(words) if word in _CHOOSING), len(words))
    prefer = distinctive(" ".join(words[cut + 1 :]))
    avoid = keywords or [w for w in distinctive(" ".join(words[:cut])) if w not in prefer]
    return avoid[:MAX_ANCHORS], prefer[:MAX_ANCHORS]


def entry_of(record: dict[str, Any]) -> dict[str, Any] | None:
    """The index entry of a live record, or None when it rules nothing out."""
    kind = record.get("kind")
    if kind not in ("rejected", "constraint", "decided"):
        return None
    avoid = _words(record.get("avoid"))
    prefer = _words(record.get("prefer"))
    if not avoid and not prefer and "source" not in record:
        avoid, prefer = anchors_from_text(record)
    call = record.get("call")
    entry_call: dict[str, str] | None = None
    if isinstance(call, dict) and isinstance(call.get("tool"), str):
        entry_call = {"tool": _str(call.get("tool"), 40)}
        for key in ("command", "file", "gist"):
            if isinstance(call.get(key), str):
                entry_call[key] = _str(call.get(key), 400)
    if not avoid and entry_call is None:
        return None
    if kind == "decided" and not avoid:
        return None
    by = record.get("by")
    return {
        "id": _str(record.get("id"), 64),
        "when": _str(record.get("row_ts"), 40) or _str(record.get("ts"), 40),
        "by": by if by in ("user", "agent") else "agent",
        "kind": kind,
        "text": _str(record.get("decision")),
        "reason": _str(record.get("reason")),
        "quote": _str(record.get("quote"), 240),
        "avoid": avoid,
        "prefer": prefer,
        "call": entry_call,
    }


def entries_of(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    entries = [e for e in (entry_of(r) for r in records if isinstance(r, dict)) if e]
    return entries[-GUARD_INDEX_MAX_ENTRIES:]


# -- the index file --------------------------------------------------------------------------


def read_index(state_dir: str, signature: list[int]) -> list[dict[str, Any]] | None:
    """The index's entries when it is whole and built from the log as it is now."""
    try:
        from context_memory.core.fsutil import read_bytes

        raw = read_bytes(index_path(state_dir), GUARD_INDEX_MAX_BYTES, root=state_dir)
        document = lightjson.loads(raw.decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if (
        not isinstance(document, dict)
        or document.get("version") != INDEX_VERSION
        or document.get("log") != signature
    ):
        return None
    entries = document.get("entries")
    if not isinstance(entries, list):
        return None
    return [e for e in entries if isinstance(e, dict)]


def live_records(state_dir: str) -> list[dict[str, Any]]:
    """The log's live records (memory.decisions.live_records when the store has it)."""
    from context_memory.memory import decisions

    reader = getattr(decisions, "live_records", None)
    if reader is not None:
        records, _ = reader(state_dir)
        return list(records)
    return _live_records_fallback(state_dir)


def _live_records_fallback(state_dir: str) -> list[dict[str, Any]]:
    """Before the store's reader: every record line, minus dropped and superseded ones."""
    from context_memory.core.fsutil import open_file
    from context_memory.memory.decisions import MAX_LOG_BYTES, MAX_RECORD_BYTES

    records: list[dict[str, Any]] = []
    gone: set[str] = set()
    try:
        fd = open_file(os.path.join(state_dir, DECISIONS_FILE), root=state_dir)
    except OSError:
        return records
    with open(fd, "rb") as handle:
        size = os.fstat(fd).st_size
        if size > MAX_LOG_BYTES:
            handle.seek(size - MAX_LOG_BYTES)
            handle.readline(MAX_RECORD_BYTES)
        seen: set[str] = set()
        while True:
            raw = handle.readline(MAX_RECORD_BYTES + 1)
            if not raw:
                break
            if len(raw) > MAX_RECORD_BYTES or not raw.strip():
                continue
            try:
                record = lightjson.loads(raw.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                continue
            if not isinstance(record, dict):
                continue
            ident = record.get("id")
            if isinstance(ident, str):
                if ident in seen:
                    continue
                seen.add(ident)
            if record.get("kind") in ("supersede", "drop"):
                if isinstance(record.get("target"), str):
                    gone.add(record["target"])
                continue
            records.append(record)
    return [r for r in records if r.get("id") not in gone]


def build_index(state_dir: str, signature: list[int]) -> dict[str, Any]:
    return {
        "version": INDEX_VERSION,
        "log": signature,
        "entries": entries_of(live_records(state_dir)),
    }


def load_entries(state_dir: str, log: Any = None) -> list[dict[str, Any]]:
    """The entries for this call: the index when fresh, else rebuilt (and saved when the
    state folder takes it; ``log(message)`` hears why not)."""
    signature = log_signature(state_dir)
    if signature is None:
        return []
    entries = read_index(state_dir, signature)
    if entries is not None:
        return entries
    document = build_index(state_dir, signature)
    if log_signature(state_dir) == signature:  # not written to meanwhile
        try:
            from context_memory.core.fsutil import atomic_write

            atomic_write(index_path(state_dir), lightjson.dumps(document), root=state_dir)
        except OSError as exc:
            if log is not None:
                log(f"guard index not saved: {exc}")
    entries = document["entries"]
    return entries if isinstance(entries, list) else []
