"""What Claude Code writes on a hook's stdin (protocol file, section 2), for tests that run
a hook's main() on a session of their own."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def hook_input(
    session: str, project: Path, event: str, transcript: Path | None = None, **extra: Any
) -> dict[str, Any]:
    """The common fields of every event, then the event's own (``extra``)."""
    data: dict[str, Any] = {
        "session_id": session,
        "transcript_path": str(transcript) if transcript else "",
        "cwd": str(project),
        "hook_event_name": event,
    }
    data.update(extra)
    return data
