"""The payloads Claude Code sends its hooks on standard input (protocol file, section 2),
for a transcript in a project: what a test feeds a hook's ``main`` or its process."""

from __future__ import annotations

import json
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


def prompt_payload(
    session: str, transcript: Path, cwd: Path, prompt: str = "next"
) -> dict[str, Any]:
    """UserPromptSubmit (ctx-budget)."""
    return hook_input(session, cwd, "UserPromptSubmit", transcript, prompt=prompt)


def stop_payload(
    session: str, project: Path, transcript: Path, event: str = "Stop", **extra: Any
) -> dict[str, Any]:
    """Stop (or SubagentStop, PreCompact: ``event``) at the end of the agent's turn
    (ctx-extract)."""
    return hook_input(session, project, event, transcript, stop_hook_active=False, **extra)


def decisions_log(project: Path) -> list[dict[str, Any]]:
    """The records of the project's ``.working-state/decisions.jsonl`` ([] when none)."""
    path = project / ".working-state" / "decisions.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def status_payload(session: str, transcript: Path, cwd: Path) -> dict[str, Any]:
    """The status line's input (ctx-statusline)."""
    return {
        "session_id": session,
        "transcript_path": str(transcript),
        "cwd": str(cwd),
        "model": {"id": "claude-sonnet-4-6", "display_name": "Sonnet 4.6"},
        "workspace": {"current_dir": str(cwd), "project_dir": str(cwd)},
    }


def as_bytes(payload: dict[str, Any]) -> bytes:
    """The payload as a process reads it."""
    return json.dumps(payload).encode()
