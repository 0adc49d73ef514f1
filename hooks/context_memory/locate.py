"""Find Claude Code transcripts on disk: by path, by session id, or the newest of a project."""

from __future__ import annotations

import os
import re
from pathlib import Path

from context_memory.state import UnsafeNameError, validate_name

_OUTSIDE_ALNUM = re.compile(r"[^A-Za-z0-9]")


class TranscriptNotFound(LookupError):
    """No transcript matches what the user asked for; the message says where we looked."""


def claude_config_dir() -> Path:
    """The client's config folder: CLAUDE_CONFIG_DIR, else ~/.claude."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def project_folder_name(cwd: str | os.PathLike[str]) -> str:
    """The client's folder name for a project: every char outside [A-Za-z0-9] becomes '-'."""
    return _OUTSIDE_ALNUM.sub("-", os.fspath(cwd))


def projects_dir() -> Path:
    return claude_config_dir() / "projects"


def newest_transcript(cwd: str | os.PathLike[str]) -> Path:
    """The most recently written session transcript of the project at ``cwd``."""
    folder = projects_dir() / project_folder_name(os.path.abspath(cwd))
    candidates = [p for p in folder.glob("*.jsonl") if p.is_file()] if folder.is_dir() else []
    if not candidates:
        raise TranscriptNotFound(
            f"no transcript for {os.path.abspath(cwd)} in {folder}; "
            "pass a transcript path or a session id"
        )
    return max(candidates, key=lambda p: (p.stat().st_mtime, p.name))


def transcript_for_session(session_id: str, cwd: str | os.PathLike[str] | None = None) -> Path:
    """The transcript of ``session_id``: the current project's folder first, then any project."""
    try:
        validate_name(session_id)
    except UnsafeNameError as exc:
        raise TranscriptNotFound(str(exc)) from None
    root = projects_dir()
    if cwd is not None:
        direct = root / project_folder_name(os.path.abspath(cwd)) / f"{session_id}.jsonl"
        if direct.is_file():
            return direct
    if root.is_dir():
        for candidate in sorted(root.glob(f"*/{session_id}.jsonl")):
            if candidate.is_file():
                return candidate
    raise TranscriptNotFound(f"no transcript for session {session_id} under {root}")


def looks_like_session_id(text: str) -> bool:
    return "/" not in text and os.sep not in text and not text.endswith(".jsonl")
