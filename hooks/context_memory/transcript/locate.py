"""Find Claude Code transcripts on disk: by path, by session id, or the newest of a project.

Plain os.path: ctx-usage imports this, and pathlib (with the ``re`` and ``urllib`` it
brings) would cost more than finding the file.
"""

from __future__ import annotations

import os

from context_memory.core.state import UnsafeNameError, validate_name


class TranscriptNotFound(LookupError):
    """No transcript matches what the user asked for; the message says where we looked."""


def claude_config_dir() -> str:
    """The client's config folder: CLAUDE_CONFIG_DIR, else ~/.claude."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        return os.path.expanduser(configured)
    return os.path.join(os.path.expanduser("~"), ".claude")


def project_folder_name(cwd: str | os.PathLike[str]) -> str:
    """The client's folder name for a project: every char outside [A-Za-z0-9] becomes '-'."""
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in os.fspath(cwd))


def projects_dir() -> str:
    return os.path.join(claude_config_dir(), "projects")


def _session_files(folder: str) -> list[str]:
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    paths = (os.path.join(folder, name) for name in names if name.endswith(".jsonl"))
    return [path for path in paths if os.path.isfile(path)]


def newest_transcript(cwd: str | os.PathLike[str]) -> str:
    """The most recently written session transcript of the project at ``cwd``."""
    project = os.path.abspath(cwd)
    folder = os.path.join(projects_dir(), project_folder_name(project))
    candidates = _session_files(folder)
    if not candidates:
        raise TranscriptNotFound(
            f"no transcript for {project} in {folder}; pass a transcript path or a session id"
        )
    return max(candidates, key=lambda path: (os.stat(path).st_mtime, os.path.basename(path)))


def transcript_for_session(session_id: str, cwd: str | os.PathLike[str] | None = None) -> str:
    """The transcript of ``session_id``: the current project's folder first, then any project."""
    try:
        validate_name(session_id)
    except UnsafeNameError as exc:
        raise TranscriptNotFound(str(exc)) from None
    root = projects_dir()
    name = f"{session_id}.jsonl"
    if cwd is not None:
        direct = os.path.join(root, project_folder_name(os.path.abspath(cwd)), name)
        if os.path.isfile(direct):
            return direct
    try:
        projects = sorted(os.listdir(root))
    except OSError:
        projects = []
    for project in projects:
        candidate = os.path.join(root, project, name)
        if os.path.isfile(candidate):
            return candidate
    raise TranscriptNotFound(f"no transcript for session {session_id} under {root}")


def looks_like_session_id(text: str) -> bool:
    return "/" not in text and os.sep not in text and not text.endswith(".jsonl")
