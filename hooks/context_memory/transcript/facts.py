"""What a handoff needs from a transcript: the files the agent changed and its latest to-do list.

Read backwards in blocks with the same byte bound as the context scan (CTX_MAX_SCAN_BYTES).
Lines are pre-filtered on raw bytes, so only rows that may hold a file edit, a to-do list or
a failed tool result get parsed. The to-do list is the main agent's; file edits are the
main agent's and, kept apart, its subagents': older clients wrote subagent rows
(``isSidechain: true``) into the main transcript, 2.0.x into ``agent-<id>.jsonl`` next to
it (rows carry the parent's ``sessionId``), 2.1.x into ``<session>/subagents/agent-*.jsonl``.
Those files are read with bounds on their number and bytes. Standard library only
(ctx-extract runs it from a hook).
"""

from __future__ import annotations

import os
import re

from context_memory import TYPE_CHECKING
from context_memory.core.hookio import EDIT_TOOLS
from context_memory.core.state import relative_path
from context_memory.transcript.rows import (
    content_blocks,
    iter_lines_backwards,
    max_scan_bytes,
    open_transcript,
    parse_row,
    read_head,
)

if TYPE_CHECKING:
    from typing import Any

TODO_TOOL = "TodoWrite"
# NotebookEdit names its file ``notebook_path``; the others ``file_path``.
PATH_KEYS = ("file_path", "notebook_path")
DONE_STATUS = "completed"
# ISO 8601 up to the seconds: rows carry milliseconds, records and handoffs do not.
SECOND_PRECISION = len("2026-11-30T09:10:51")

# Subagent transcripts read per session: the newest this many, each its last this many
# bytes; and at most this many ``agent-*.jsonl`` files next to the session (2.0.x layout)
# opened to see whose they are (first row only, up to AGENT_HEAD_BYTES).
MAX_SUBAGENT_FILES = 32
MAX_SUBAGENT_BYTES = 8 * 1024 * 1024
MAX_AGENT_CANDIDATES = 256
AGENT_HEAD_BYTES = 64 * 1024
SUBAGENT_MARK = " (subagent)"

_INTERESTING = re.compile(
    rb'"name"\s*:\s*"(?:' + "|".join((*EDIT_TOOLS, TODO_TOOL)).encode("ascii") + rb')"'
    rb'|"is_error"\s*:\s*true'
)


class TranscriptFacts:
    """``edits``: (path, timestamp) of each successful main-chain file edit, in file order.
    ``subagent_edits``: the same for subagents (sidechain rows, subagent files).
    ``todos``: the latest TodoWrite list (None when the part read has none).
    ``truncated``: the byte bound stopped the scan before the start of the file.
    ``subagents_truncated``: some subagent file or files were left out or read partly."""

    __slots__ = ("edits", "subagent_edits", "subagents_truncated", "todos", "truncated")

    def __init__(self) -> None:
        self.edits: list[tuple[str, str]] = []
        self.subagent_edits: list[tuple[str, str]] = []
        self.todos: list[dict[str, Any]] | None = None
        self.truncated = False
        self.subagents_truncated = False


def tool_uses(row: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool_use blocks of an assistant row (any chain)."""
    return [b for b in content_blocks(row, "assistant") if b.get("type") == "tool_use"]


def _failed_tool_ids(row: dict[str, Any]) -> list[str]:
    """Ids of tool calls this user row reports as failed (refused edit, old_string not found)."""
    return [
        b["tool_use_id"]
        for b in content_blocks(row, "user")
        if b.get("type") == "tool_result"
        and b.get("is_error") is True
        and isinstance(b.get("tool_use_id"), str)
    ]


def _edit_path(tool_input: object) -> str | None:
    if not isinstance(tool_input, dict):
        return None
    for key in PATH_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _todo_items(tool_input: object) -> list[dict[str, Any]] | None:
    todos = tool_input.get("todos") if isinstance(tool_input, dict) else None
    if not isinstance(todos, list):
        return None
    return [t for t in todos if isinstance(t, dict) and isinstance(t.get("content"), str)]


def _scan_edits(
    path: str | os.PathLike[str], limit: int, *, whole_file_is_subagent: bool
) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[dict[str, Any]] | None, bool]:
    """(main edits, subagent edits, latest main to-do list, truncated), edits newest first."""
    failed: set[str] = set()
    main: list[tuple[str, str]] = []
    sub: list[tuple[str, str]] = []
    todos: list[dict[str, Any]] | None = None
    with open_transcript(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        for _end, line in iter_lines_backwards(handle, size, max_bytes=limit):
            if not _INTERESTING.search(line):
                continue
            row = parse_row(line)
            if row is None:
                continue
            # Results come after their calls, so a backward scan sees a failure first.
            failed.update(_failed_tool_ids(row))
            stamp = row.get("timestamp")
            stamp = stamp if isinstance(stamp, str) else ""
            subagent = whole_file_is_subagent or row.get("isSidechain") is True
            for block in reversed(tool_uses(row)):
                if block.get("id") in failed:
                    continue
                name = block.get("name")
                if name in EDIT_TOOLS:
                    edited = _edit_path(block.get("input"))
                    if edited is not None:
                        (sub if subagent else main).append((edited, stamp))
                elif name == TODO_TOOL and todos is None and not subagent:
                    todos = _todo_items(block.get("input"))
    return main, sub, todos, size > limit


def _first_row_session(path: str) -> str | None:
    """The ``sessionId`` of a file's first row (read up to AGENT_HEAD_BYTES), or None."""
    head = read_head(path, AGENT_HEAD_BYTES)
    if head is None:
        return None
    row = parse_row(head.split(b"\n", 1)[0])
    session = row.get("sessionId") if row is not None else None
    return session if isinstance(session, str) else None


def _agent_files(folder: str) -> list[tuple[float, str]]:
    """(mtime, path) of the regular ``agent-*.jsonl`` files in ``folder``; links skipped."""
    found: list[tuple[float, str]] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if not (name.startswith("agent-") and name.endswith(".jsonl")):
                    continue
                try:
                    if entry.is_file(follow_symlinks=False):
                        found.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
                except OSError:
                    continue
    except OSError:
        return []
    found.sort(reverse=True)
    return found


def subagent_transcripts(path: str | os.PathLike[str]) -> tuple[list[str], bool]:
    """The subagent files of the session whose transcript is ``path``, newest first, and
    whether some were left out by the bounds.

    2.1.x: ``<dir>/<session>/subagents/agent-*.jsonl``. 2.0.x: ``<dir>/agent-*.jsonl`` whose
    rows carry this session's id (other sessions' agent files lie in the same folder).
    """
    transcript = os.fspath(path)
    folder, name = os.path.split(transcript)
    if not name.endswith(".jsonl"):
        return [], False
    session = name[: -len(".jsonl")]
    nested = [p for _, p in _agent_files(os.path.join(folder, session, "subagents"))]
    beside = _agent_files(folder)
    left_out = len(beside) > MAX_AGENT_CANDIDATES
    for _, candidate in beside[:MAX_AGENT_CANDIDATES]:
        if candidate != transcript and _first_row_session(candidate) == session:
            nested.append(candidate)
    if len(nested) > MAX_SUBAGENT_FILES:
        return nested[:MAX_SUBAGENT_FILES], True
    return nested, left_out


def scan_facts(
    path: str | os.PathLike[str], *, max_bytes: int | None = None, subagents: bool = True
) -> TranscriptFacts:
    """Scan ``path`` backwards for file edits and the latest to-do list; with ``subagents``,
    also the session's subagent files for their edits.

    Raises OSError when the transcript cannot be read; content problems and unreadable
    subagent files are skipped.
    """
    limit = max_scan_bytes() if max_bytes is None else max_bytes
    facts = TranscriptFacts()
    main, sub, facts.todos, facts.truncated = _scan_edits(path, limit, whole_file_is_subagent=False)
    facts.edits = main[::-1]
    if subagents:
        files, facts.subagents_truncated = subagent_transcripts(path)
        # Oldest file first, so that their edits come in roughly the order they were made.
        for agent_file in reversed(files):
            try:
                _, agent_edits, _, cut = _scan_edits(
                    agent_file, min(limit, MAX_SUBAGENT_BYTES), whole_file_is_subagent=True
                )
            except OSError:
                facts.subagents_truncated = True
                continue
            facts.subagents_truncated = facts.subagents_truncated or cut
            facts.subagent_edits.extend(agent_edits[::-1])
    facts.subagent_edits = sub[::-1] + facts.subagent_edits
    return facts


def _shown_paths(edits: list[tuple[str, str]], base: str | None, cutoff: str) -> dict[str, None]:
    seen: dict[str, None] = {}
    for edited, stamp in edits:
        if cutoff and stamp and stamp[:SECOND_PRECISION] < cutoff:
            continue
        shown = os.path.normpath(edited)
        if os.path.isabs(shown):  # shown from the project when inside it (core/state's rule)
            shown = relative_path(shown, base)
        seen.setdefault(shown, None)
    return seen


def files_touched(
    edits: list[tuple[str, str]],
    project_dir: str | None,
    *,
    since: str | None = None,
    subagent_edits: list[tuple[str, str]] | None = None,
) -> list[str]:
    """Edited paths, relative to ``project_dir`` when inside it, deduplicated in
    first-touched order; with ``since`` (ISO 8601), only edits made at or after it.
    Paths only subagents edited follow, marked SUBAGENT_MARK."""
    cutoff = since[:SECOND_PRECISION] if since else ""
    base = os.path.abspath(project_dir) if project_dir else None
    seen = _shown_paths(edits, base, cutoff)
    by_subagents = _shown_paths(subagent_edits or [], base, cutoff)
    return list(seen) + [path + SUBAGENT_MARK for path in by_subagents if path not in seen]


def open_todos(todos: list[dict[str, Any]]) -> list[str]:
    """The unfinished items of a TodoWrite list, in its order."""
    return [
        " ".join(t["content"].split())
        for t in todos
        if t.get("status") != DONE_STATUS and t["content"].strip()
    ]
