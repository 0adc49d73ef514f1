"""The context right after a compaction whose boundary has no ``postTokens``: an estimate.

Clients up to at least 2.1.39 write ``compact_boundary`` rows without
``compactMetadata.postTokens``, and write nothing of what they re-attach after the summary.
Until the next reply the transcript then holds no figure for the new context; 0 would be
wrong. The model of the new context, measured part by part on the first request that client
2.1.332 sends after a compaction (docs/context-counting.md, tests/e2e/test_compaction_parts_e2e.py):

- the session's baseline: the input of its first reply. System prompt, tools and the context
  blocks of the first message (CLAUDE.md, skills and agent listings, environment, date) are
  sent again after a compaction, identical;
- the summary row and every row after the boundary (kept messages, a new prompt);
- the files the client re-attaches: the 5 it read, edited or wrote last (not plan files),
  each read again whole from disk, so a partial read counts as the whole file; a file over
  5,000 tokens becomes a one-line note; 50,000 tokens at most. The whole size comes from
  the transcript: an Edit's ``originalFile``, a Write's content, a Read scaled by
  ``totalLines / numLines``;
- the plan (the last plan file written or ExitPlanMode plan), the skills invoked, the todo
  list (the last TodoWrite);

all at CHARS_PER_TOKEN characters a token. Every read is bounded; called only in that window
between a compaction and the next reply, never on an ordinary prompt. Standard library
only, no ``re``/``json`` (it runs inside ctx-budget and ctx-statusline).

Size: about 300 lines; one backward pass collects the four re-attached parts.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.transcript.rows import (
    BOUNDARY_NEEDLES,
    content_blocks,
    eligible_assistant_usage,
    iter_lines_backwards,
    message_text,
    parse_row,
)

if TYPE_CHECKING:
    from typing import Any, BinaryIO

CHARS_PER_TOKEN = 4
# Where the first reply is looked for: the start of the file, this far.
BASELINE_SCAN_BYTES = 2 * 1024 * 1024
BLOCK_BYTES = 64 * 1024
# The session's baseline when its first reply is not within that reach (Claude Code's
# system prompt and tools come to about this much).
DEFAULT_BASELINE_TOKENS = 15_000
# Rows after the boundary read and counted; bytes beyond count as characters.
AFTER_SCAN_BYTES = 2 * 1024 * 1024
# How far back from the boundary the re-attached parts are looked for.
RESTORE_SCAN_BYTES = 2 * 1024 * 1024
# Measured with client 2.1.332 (and read in its code): the 5 files used last, each up to
# 5,000 tokens (a larger one becomes a note of about 245 characters), 50,000 tokens in all.
RESTORED_FILES = 5
MAX_FILE_TOKENS = 5_000
MAX_FILES_TOKENS = 50_000
TOO_LARGE_NOTE_CHARS = 245
# Each re-attached file is framed as a Read call and its result (about 225 characters).
FILE_FRAME_CHARS = 225
# Characters a Read result adds per line: older clients number lines as "%6d→".
LINE_NUMBER_CHARS = 7
# Frames of the plan (path and heading, measured 350) and of the invoked skills (795).
PLAN_FRAME_CHARS = 350
SKILLS_FRAME_CHARS = 795
# A todo item's JSON keys and punctuation ({"content":"","status":"","activeForm":""}, ),
# plus the reminder's own text: not measured (client 2.1.332 has no TodoWrite).
TODO_ITEM_CHARS = 45
TODO_FRAME_CHARS = 300
PLANS_FOLDER = "/.claude/plans/"
SKILL_OPENING = "Base directory for this skill:"
# Nesting followed when counting the characters of a row's content.
MAX_DEPTH = 8

_ASSISTANT_MARKERS = (b'"type":"assistant"', b'"type": "assistant"')
_RESTORE_MARKERS = (
    b'"filePath"',
    b'"TodoWrite"',
    b'"ExitPlanMode"',
    b"Base directory for this skill",
)


def text_chars(value: object, depth: int = 0) -> int:
    """Characters of every string in a row's content (text, tool results, tool inputs)."""
    if isinstance(value, str):
        return len(value)
    if depth >= MAX_DEPTH:
        return 0
    if isinstance(value, list):
        return sum(text_chars(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return sum(
            text_chars(item, depth + 1)
            for key, item in value.items()
            if key not in ("type", "id", "tool_use_id", "signature", "cache_control")
        )
    return 0


def _first_reply_input(line: bytes) -> int:
    if not any(marker in line for marker in _ASSISTANT_MARKERS):
        return 0
    row = parse_row(line)
    usage = eligible_assistant_usage(row) if row is not None else None
    if usage is None:
        return 0
    total = 0
    for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"):
        value = usage.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            total += value
    return total


def baseline_tokens(handle: BinaryIO, size: int) -> int:
    """Input tokens of the session's first main-chain reply (without its output).

    Read forwards in blocks: the first reply is usually within the first few rows.
    """
    handle.seek(0)
    limit = min(size, BASELINE_SCAN_BYTES)
    done = 0
    pending = b""
    while done < limit:
        block = handle.read(min(BLOCK_BYTES, limit - done))
        if not block:
            break
        done += len(block)
        lines = (pending + block).split(b"\n")
        pending = lines.pop()  # may continue in the next block
        for line in lines:
            total = _first_reply_input(line)
            if total > 0:
                return total
    if done >= size and pending:
        total = _first_reply_input(pending)  # the last row, without a trailing newline
        if total > 0:
            return total
    return DEFAULT_BASELINE_TOKENS


def chars_after(handle: BinaryIO, size: int, boundary_end: int) -> int:
    """Characters of the rows after the boundary (summary, kept messages, new prompt)."""
    handle.seek(boundary_end)
    data = handle.read(min(size - boundary_end, AFTER_SCAN_BYTES))
    beyond = max(size - boundary_end - AFTER_SCAN_BYTES, 0)
    total = beyond
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        row = parse_row(line)
        if row is None:
            total += len(line)  # half-written or cut: its bytes are the best guess
            continue
        if row.get("isSidechain") is True or row.get("type") not in ("user", "attachment"):
            continue
        message = row.get("message")
        if isinstance(message, dict):
            total += text_chars(message.get("content"))
        else:
            total += text_chars(row.get("attachment"))
    return total


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _numbered(text: str) -> int:
    """Characters of a file's text as the client shows it, with line numbers."""
    return len(text) + (text.count("\n") + 1) * LINE_NUMBER_CHARS


def file_whole_chars(row: dict[str, Any]) -> tuple[str, int, int] | None:
    """(path, characters of the whole file as re-attached, its lines) of a main-chain Read,
    Edit or Write result row, else None. The client reads the file again, whole: a partial
    read counts as the whole file, an edit as the file after it."""
    if row.get("type") != "user" or row.get("isSidechain") is True:
        return None
    result = row.get("toolUseResult")
    if not isinstance(result, dict):
        return None
    read = result.get("file")
    if isinstance(read, dict):
        path, content = read.get("filePath"), read.get("content")
        if not isinstance(path, str) or not isinstance(content, str):
            return None
        message = row.get("message")
        shown = text_chars(message.get("content")) if isinstance(message, dict) else 0
        shown = max(shown, _numbered(content))
        lines, total = _int(read.get("numLines")), _int(read.get("totalLines"))
        if lines and total > lines:
            shown = shown * total // lines
        return path, shown, max(total, lines)
    path = result.get("filePath")
    if not isinstance(path, str):
        return None
    original = result.get("originalFile")
    if isinstance(original, str):
        old, new = result.get("oldString"), result.get("newString")
        delta = len(new) - len(old) if isinstance(old, str) and isinstance(new, str) else 0
        return path, max(_numbered(original) + delta, 0), original.count("\n") + 1
    content = result.get("content")
    if isinstance(content, str) and result.get("type") in ("create", "update"):
        return path, _numbered(content), content.count("\n") + 1
    return None


def _tool_inputs(row: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """Inputs of the main-chain assistant row's ``name`` tool calls, last first."""
    found = [
        block["input"]
        for block in content_blocks(row, "assistant", main_chain=True)
        if block.get("type") == "tool_use"
        and block.get("name") == name
        and isinstance(block.get("input"), dict)
    ]
    return found[::-1]


def _todo_chars(todos: object) -> int:
    if not isinstance(todos, list):
        return 0
    return TODO_FRAME_CHARS + text_chars(todos) + TODO_ITEM_CHARS * len(todos)


def _skill_text(row: dict[str, Any]) -> str | None:
    """The text of a skill the client loaded (a user row opening with its folder), else None."""
    if row.get("type") != "user" or row.get("isSidechain") is True:
        return None
    message = row.get("message")
    text = message_text(message) if isinstance(message, dict) else None
    return text if text is not None and text.startswith(SKILL_OPENING) else None


class Restored:
    """Characters of what the client re-attaches after the summary, part by part."""

    __slots__ = ("file_count", "files", "plan", "skills", "todos")

    def __init__(self) -> None:
        self.files = 0
        self.file_count = 0
        self.plan = 0
        self.skills = 0
        self.todos = 0

    @property
    def total(self) -> int:
        return self.files + self.plan + self.skills + self.todos


def _add_file(restored: Restored, chars: int) -> None:
    if chars > MAX_FILE_TOKENS * CHARS_PER_TOKEN:
        chars = TOO_LARGE_NOTE_CHARS
    else:
        chars += FILE_FRAME_CHARS
    if restored.files + chars <= MAX_FILES_TOKENS * CHARS_PER_TOKEN:
        restored.files += chars
    restored.file_count += 1


def restored_parts(handle: BinaryIO, boundary_start: int) -> Restored:
    """What the client re-attaches, from the rows before the boundary (read backwards,
    bounded): the files used last, the plan, the skills invoked, the todo list."""
    restored = Restored()
    seen: set[str] = set()
    plan_seen = todos_seen = False
    skills: set[str] = set()
    lines = iter_lines_backwards(handle, boundary_start, max_bytes=RESTORE_SCAN_BYTES)
    for _end, line in lines:
        if any(needle in line for needle in BOUNDARY_NEEDLES):
            break  # an earlier compaction: what came before it was re-attached then
        if not any(marker in line for marker in _RESTORE_MARKERS):
            continue
        row = parse_row(line)
        if row is None:
            continue
        used = file_whole_chars(row)
        if used is not None and used[0] not in seen:
            seen.add(used[0])
            if PLANS_FOLDER in used[0]:
                if not plan_seen:
                    plan_seen = True  # the plan is re-attached without line numbers
                    plain = used[1] - used[2] * LINE_NUMBER_CHARS
                    restored.plan = PLAN_FRAME_CHARS + max(plain, 0)
            elif restored.file_count < RESTORED_FILES:
                _add_file(restored, used[1])
            continue
        for plan in _tool_inputs(row, "ExitPlanMode")[:1]:
            text = plan.get("plan")
            if not plan_seen and isinstance(text, str):
                plan_seen = True
                restored.plan = PLAN_FRAME_CHARS + len(text)
        for todo in _tool_inputs(row, "TodoWrite")[:1]:
            if not todos_seen:
                todos_seen = True
                restored.todos = _todo_chars(todo.get("todos"))
        skill = _skill_text(row)
        if skill is not None:
            name = skill.split("\n", 1)[0]
            if name not in skills:
                skills.add(name)
                restored.skills += len(skill) + (0 if len(skills) > 1 else SKILLS_FRAME_CHARS)
    return restored


def restored_chars(handle: BinaryIO, boundary_start: int) -> int:
    """Characters of everything the client re-attaches (see restored_parts)."""
    return restored_parts(handle, boundary_start).total


def estimate_after_compaction(
    handle: BinaryIO, size: int, boundary_start: int, boundary_end: int
) -> int:
    """Estimated context tokens after the compaction whose boundary row spans the offsets."""
    chars = chars_after(handle, size, boundary_end) + restored_chars(handle, boundary_start)
    return baseline_tokens(handle, size) + -(-chars // CHARS_PER_TOKEN)
