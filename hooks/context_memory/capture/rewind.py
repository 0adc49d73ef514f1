"""A conversation rewound: the prompts the user took back, and the records read from them.

Rewinding (Esc Esc, "Restore conversation") or editing an earlier message sends a new
prompt from the point before the message chosen: the client writes it with the
``parentUuid`` of that message, so two prompts share a parent and the rows of the first
branch stay in the file, off the conversation (seen in 2.1.332; older clients branch the
same way). What was captured from them (a rule typed, then taken back) no longer holds.

The engine keeps the last MAX_PROMPTS prompts of the main chain (``Branches``: uuid,
parent, time); a prompt whose parent is that of one of them forks there, and the engine
emits a marker (``rewound_marker``) before the new prompt's items. The store drops (a
``drop`` mark, author REWIND_AUTHOR) the session's live records whose rows fall between
the first prompt taken back and the new one (``taken_back``).

Not seen by this: a rewind to before the session's first prompt, which 2.1.332 writes as
a plain next prompt (its parent is the last row); the request sent no longer holds the
first one, but no row says so.

Standard library only (the Stop path).
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.capture.text import clip

if TYPE_CHECKING:
    from typing import Any

REWOUND = "rewound"  # the marker's kind: no record, an instruction to the store
REWIND_AUTHOR = "context-memory (conversation rewound)"
MAX_PROMPTS = 32  # the prompts a rewind can go back over (a longer way back is not seen)
_UUID_CHARS = 80
_TIME_CHARS = 40


def _text(row: dict[str, Any], key: str) -> str:
    value = row.get(key)
    return (
        clip(value, _TIME_CHARS if key == "timestamp" else _UUID_CHARS)
        if isinstance(value, str)
        else ""
    )


def rewound_marker(since: str, until: str) -> dict[str, Any]:
    """The marker of a rewind: the rows from ``since`` (the first prompt taken back) up to
    ``until`` (the new prompt's time, not included) were taken back."""
    return {"kind": REWOUND, "since": since, "until": until}


def is_marker(item: dict[str, Any]) -> bool:
    return item.get("kind") == REWOUND


def taken_back(
    marker: dict[str, Any], live: list[dict[str, Any]], session: str
) -> list[dict[str, Any]]:
    """The live records of ``session`` read from rows the rewind took back."""
    since, until = marker.get("since"), marker.get("until")
    if not (isinstance(since, str) and since and isinstance(until, str) and until):
        return []
    return [
        record
        for record in live
        if record.get("session") == session
        and isinstance(record.get("row_ts"), str)
        and since <= record["row_ts"] < until
    ]


def drop_taken_back(
    state_dir: str,
    marker: dict[str, Any],
    live: list[dict[str, Any]],
    session: str,
    *,
    dry_run: bool,
) -> list[dict[str, Any]]:
    """Append a drop mark (author REWIND_AUTHOR) for each record ``taken_back`` by the
    rewind of ``marker`` (none with ``dry_run``); those records."""
    # The store's own writer, loaded by the store already; the engine needs none of it.
    from context_memory.memory.decisions import append_record, make_mark_record

    gone = taken_back(marker, live, session)
    for record in () if dry_run else gone:
        mark = make_mark_record("drop", str(record["id"]), session=session, author=REWIND_AUTHOR)
        append_record(state_dir, mark)
    return gone


class Branches:
    """The last prompts of the main chain, to tell a prompt sent after a rewind."""

    def __init__(self, state: object = None) -> None:
        self._prompts: list[list[str]] = []  # [uuid, parent, timestamp]
        if isinstance(state, list):
            self._prompts = [
                [clip(p[0], _UUID_CHARS), clip(p[1], _UUID_CHARS), clip(p[2], _TIME_CHARS)]
                for p in state[-MAX_PROMPTS:]
                if isinstance(p, list) and len(p) == 3 and all(isinstance(v, str) for v in p)
            ]

    def to_state(self) -> list[list[str]]:
        return [list(p) for p in self._prompts]

    def prompt(self, row: dict[str, Any]) -> dict[str, Any] | None:
        """Note the prompt of ``row``; the marker of the rewind it was sent after, or None."""
        uuid, parent, stamp = _text(row, "uuid"), _text(row, "parentUuid"), _text(row, "timestamp")
        if not uuid or any(p[0] == uuid for p in self._prompts):
            return None  # no row id, or the same row read again
        marker = None
        if parent and stamp:
            for index, (_, other_parent, other_stamp) in enumerate(self._prompts):
                if other_parent == parent and other_stamp and other_stamp < stamp:
                    marker = rewound_marker(other_stamp, stamp)
                    del self._prompts[index:]  # off the conversation now
                    break
        self._prompts = [*self._prompts, [uuid, parent, stamp]][-MAX_PROMPTS:]
        return marker
