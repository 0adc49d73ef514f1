"""The guard's index entries: what the guard needs of a live record, and the words that
must be in a call for the record to match it (its triggers).

Only records that rule something out make an entry (rejections, constraints, decisions
that name what not to use), each with short texts, its anchors and the rejected call.
Records of ``ctx-decide`` carry no anchors: they get them here from their text, keywords
and alternatives (anchors_from_text). Not on the hook's fast path: the index is built here
when the log changed (guard/index.py reads it).
"""

from __future__ import annotations

from context_memory.calls.shell import commands_of, text_words
from context_memory.core.prompt_tables import (
    GUARD_GIST_MIN_CHARS,
    GUARD_INDEX_MAX_ENTRIES,
    GUARD_STOP_WORDS,
    GUARD_TEXT_CHARS,
)
from context_memory.guard.match import clipped, looks_only
from context_memory.guard.pieces import pieces

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_ANCHORS = 12
# Words after which a decision names what it chose ("use pnpm", "prefer date-fns").
_CHOOSING = frozenset(("use", "prefer", "choose", "chose", "pick", "picked", "with", "keep"))


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


def triggers_of(entry: dict[str, Any]) -> list[list[str]]:
    """Groups of pieces (index.pieces) such that the entry can match a call only when
    every piece of one group is among the call's pieces: each ruled-out name; every word
    of the rejected Bash call (the start of it when it was clipped); the rejected file's
    name. match.judge needs one of these to say anything, so a call without any is
    allowed without loading the matcher. A group with no pieces matches every call."""
    groups: list[list[str]] = [pieces(anchor) for anchor in entry.get("avoid") or ()]
    call = entry.get("call")
    if isinstance(call, dict) and call.get("tool") == "Bash":
        rejected, cut = clipped(" ".join(str(call.get("command") or "").split()))
        if cut:
            if len(rejected) >= GUARD_GIST_MIN_CHARS:
                groups.append(pieces(rejected)[:-1])  # the last word may be cut short
        else:
            words: list[str] = []
            for command in commands_of(rejected):
                if command.program != "cd" and not looks_only(command):
                    words.extend(pieces(" ".join(command.key())))
            if words:
                groups.append(words)
    elif isinstance(call, dict) and isinstance(call.get("file"), str) and call.get("file"):
        name = call["file"].rstrip("/").rsplit("/", 1)[-1]
        groups.append(pieces(name))
    found: list[list[str]] = []
    for group in groups:
        # Longest first: the rarest piece settles most calls at the first look.
        ordered = sorted(dict.fromkeys(group), key=lambda piece: (-len(piece), piece))
        if ordered not in found:
            found.append(ordered)
    return found
