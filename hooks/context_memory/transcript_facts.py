"""What a handoff needs from a transcript: the files the agent changed and its latest to-do list.

Read backwards in blocks with the same byte bound as the context scan (CTX_MAX_SCAN_BYTES),
and only main-chain rows count: subagent rows (``isSidechain``) are another context. Lines
are pre-filtered on raw bytes, so only rows that may hold a file edit, a to-do list or a
failed tool result get parsed. Standard library only (ctx-extract runs it from a hook).
"""

from __future__ import annotations

import os
import re

from context_memory.transcript import (
    iter_lines_backwards,
    max_scan_bytes,
    open_transcript,
    parse_row,
)

TYPE_CHECKING = False  # typing costs an import on the hook path; mypy still reads the block
if TYPE_CHECKING:
    from typing import Any

EDIT_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
TODO_TOOL = "TodoWrite"
# NotebookEdit names its file ``notebook_path``; the others ``file_path``.
PATH_KEYS = ("file_path", "notebook_path")
DONE_STATUS = "completed"
# ISO 8601 up to the seconds: rows carry milliseconds, records and handoffs do not.
SECOND_PRECISION = len("2026-11-30T09:10:51")

_INTERESTING = re.compile(
    rb'"name"\s*:\s*"(?:Write|Edit|MultiEdit|NotebookEdit|TodoWrite)"'
    rb'|"is_error"\s*:\s*true'
)


class TranscriptFacts:
    """``edits``: (path, timestamp) of each successful main-chain file edit, in file order.
    ``todos``: the latest TodoWrite list (None when the part read has none).
    ``truncated``: the byte bound stopped the scan before the start of the file."""

    __slots__ = ("edits", "todos", "truncated")

    def __init__(self) -> None:
        self.edits: list[tuple[str, str]] = []
        self.todos: list[dict[str, Any]] | None = None
        self.truncated = False


def _tool_uses(row: dict[str, Any]) -> list[dict[str, Any]]:
    if row.get("type") != "assistant" or row.get("isSidechain") is True:
        return []
    message = row.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return []
    return [b for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]


def _failed_tool_ids(row: dict[str, Any]) -> list[str]:
    """Ids of tool calls this user row reports as failed (refused edit, old_string not found)."""
    if row.get("type") != "user":
        return []
    message = row.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return []
    return [
        b["tool_use_id"]
        for b in content
        if isinstance(b, dict)
        and b.get("type") == "tool_result"
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


def scan_facts(path: str | os.PathLike[str], *, max_bytes: int | None = None) -> TranscriptFacts:
    """Scan ``path`` backwards for file edits and the latest to-do list.

    Raises OSError when the file cannot be read; content problems are skipped.
    """
    limit = max_scan_bytes() if max_bytes is None else max_bytes
    facts = TranscriptFacts()
    failed: set[str] = set()
    newest_first: list[tuple[str, str]] = []
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
            for block in reversed(_tool_uses(row)):
                if block.get("id") in failed:
                    continue
                name = block.get("name")
                if name in EDIT_TOOLS:
                    edited = _edit_path(block.get("input"))
                    if edited is not None:
                        newest_first.append((edited, stamp))
                elif name == TODO_TOOL and facts.todos is None:
                    facts.todos = _todo_items(block.get("input"))
        facts.truncated = size > limit
    facts.edits = newest_first[::-1]
    return facts


def files_touched(
    edits: list[tuple[str, str]], project_dir: str | None, *, since: str | None = None
) -> list[str]:
    """Edited paths, relative to ``project_dir`` when inside it, deduplicated in
    first-touched order; with ``since`` (ISO 8601), only edits made at or after it."""
    cutoff = since[:SECOND_PRECISION] if since else ""
    base = os.path.abspath(project_dir) if project_dir else None
    seen: dict[str, None] = {}
    for edited, stamp in edits:
        if cutoff and stamp and stamp[:SECOND_PRECISION] < cutoff:
            continue
        shown = os.path.normpath(edited)
        if base and os.path.isabs(shown) and shown.startswith(base + os.sep):
            shown = os.path.relpath(shown, base)
        seen.setdefault(shown, None)
    return list(seen)


def open_todos(todos: list[dict[str, Any]]) -> list[str]:
    """The unfinished items of a TodoWrite list, in its order."""
    return [
        " ".join(t["content"].split())
        for t in todos
        if t.get("status") != DONE_STATUS and t["content"].strip()
    ]
