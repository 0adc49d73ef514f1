"""What the user sees when capture adds records at Stop: one line per record, with the id
that ``ctx-decide --drop ID`` takes.

The Stop hook prints it as ``{"systemMessage": ...}``: the client shows it to the user under
the reply (``Stop says: ...`` in the terminal) and never sends it to the model (protocol file,
section 2). Records are untrusted text: each line passes core/safe_text and is bounded, and
at most MAX_NOTICE_RECORDS are listed (the rest are counted). ``CTX_CAPTURE_NOTICE=off``
silences it.

Standard library only (the Stop path).
"""

from __future__ import annotations

import os

from context_memory import TYPE_CHECKING
from context_memory.core.safe_text import one_line
from context_memory.memory.constraint import constraints_of

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

NOTICE_ENV = "CTX_CAPTURE_NOTICE"
OFF_VALUES = ("off", "0", "false", "no")
MAX_NOTICE_RECORDS = 8
MAX_NOTICE_LINE_CHARS = 200
LABELS = {"decided": "decided", "rejected": "rejected", "constraint": "constraint", "risk": "risk"}


def notice_enabled(env: Mapping[str, str] | None = None) -> bool:
    """False when CTX_CAPTURE_NOTICE is off (off, 0, false, no)."""
    value = (os.environ if env is None else env).get(NOTICE_ENV, "")
    return value.strip().lower() not in OFF_VALUES


def record_line(record: Mapping[str, object]) -> str | None:
    """``<id> <kind> (<by>): <text> (<reason>)``, one safe bounded line (None for a line
    that is no decision)."""
    typed = constraints_of([record])
    if not typed:
        return None
    constraint = typed[0]
    line = f"{LABELS.get(constraint['kind'], constraint['kind'])} ({constraint['by']}): "
    line += constraint["text"]
    if constraint["reason"].strip():
        line += f" ({constraint['reason'].strip()})"
    ident = one_line(constraint["id"], 40)
    return f"{ident} {one_line(line, MAX_NOTICE_LINE_CHARS - len(ident) - 1)}"


def notice_text(
    records: Iterable[Mapping[str, object]], dropped: Iterable[Mapping[str, object]] = ()
) -> str | None:
    """The message for the records capture just added and those a rewind of the
    conversation dropped (None when there are none): for each, a head line (how to
    retract one; why they went), then one line per record. A record added and dropped in
    the same run is in neither."""
    gone, listed = list(dropped), list(records)
    added = [r for r in listed if all(r is not g for g in gone)]
    parts = [
        _section(added, "captured {count} record{s} (ctx-decide --drop ID retracts one):"),
        _section(
            [r for r in gone if all(r is not a for a in listed)],
            "dropped {count} record{s}: the conversation was rewound to before {them}:",
        ),
    ]
    text = "\n".join(part for part in parts if part)
    return text or None


def _section(records: Iterable[Mapping[str, object]], head: str) -> str:
    lines = [line for line in (record_line(r) for r in records) if line is not None]
    if not lines:
        return ""
    count = len(lines)
    words = {"count": count, "s": "s" if count != 1 else "", "them": "them" if count != 1 else "it"}
    shown = lines[:MAX_NOTICE_RECORDS]
    if count > len(shown):
        shown.append(f"... and {count - len(shown)} more (ctx-decide --list)")
    return "\n".join([f"context-memory {head.format(**words)}", *shown])
