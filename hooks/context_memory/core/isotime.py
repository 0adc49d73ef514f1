"""ISO 8601 times as the toolkit writes and reads them (handoffs, records, the merged
record): shared by memory, merge and pinned, so it lives below all three.
"""

from __future__ import annotations

from datetime import datetime, timezone


def parse_time(value: str) -> float | None:
    """Seconds since the epoch for an ISO 8601 time ('Z' or an offset; none means UTC)."""
    text = value.strip()
    if text[-1:] in ("Z", "z"):
        text = text[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()
