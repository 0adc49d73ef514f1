"""The context right after a compaction whose boundary has no ``postTokens``: an estimate.

Clients up to at least 2.1.39 write ``compact_boundary`` rows without
``compactMetadata.postTokens``. Until the next reply the transcript then holds no figure for
the new context; 0 would be wrong (the system prompt and the summary alone are tens of
thousands of tokens). The estimate adds up what the transcript holds of the new context:

- the session's baseline: the input of its first reply (system prompt, tools, CLAUDE.md and
  the first prompt; the same in every request of the session);
- the summary row and every row after the boundary (kept messages, a new prompt), at
  CHARS_PER_TOKEN characters a token;
- the files the client re-attaches after a compaction (the ones read last): what the
  transcript holds of them is the result of those reads.

On the real 2.0.65 transcript in the fixtures it gives 28,030 tokens where the next reply
measured 34,935 (baseline + summary alone: 25,169). Every read is bounded; called only in
that window between a compaction and the next reply, never on an ordinary prompt.
Standard library only, no ``re``/``json`` (it runs inside ctx-budget and ctx-statusline).
"""

from __future__ import annotations

from context_memory.transcript.rows import (
    BOUNDARY_NEEDLES,
    eligible_assistant_usage,
    iter_lines_backwards,
    parse_row,
)

TYPE_CHECKING = False  # typing costs an import on the prompt path; mypy still reads the block
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
# How far back from the boundary the last file reads are looked for, how many files the
# client re-attaches and how much of each (its per-file cap is about 5,000 tokens).
RESTORE_SCAN_BYTES = 1024 * 1024
RESTORED_FILES = 5
MAX_RESTORED_CHARS = 20_000
# Nesting followed when counting the characters of a row's content.
MAX_DEPTH = 8

_ASSISTANT_MARKERS = (b'"type":"assistant"', b'"type": "assistant"')
_FILE_READ_MARKERS = (b'"filePath":', b'"filePath" :', b'"filePath": ')


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


def _file_read(row: dict[str, Any]) -> tuple[str, int] | None:
    """(path, characters read) of a main-chain Read result row, else None."""
    if row.get("type") != "user" or row.get("isSidechain") is True:
        return None
    result = row.get("toolUseResult")
    read = result.get("file") if isinstance(result, dict) else None
    if not isinstance(read, dict):
        return None
    path, content = read.get("filePath"), read.get("content")
    if not isinstance(path, str) or not isinstance(content, str):
        return None
    # The tool result as the model saw it (with line numbers) is closer to what the client
    # re-attaches than the bare file content.
    message = row.get("message")
    shown = text_chars(message.get("content")) if isinstance(message, dict) else 0
    return path, max(shown, len(content))


def restored_chars(handle: BinaryIO, boundary_start: int) -> int:
    """Characters of the last files read before the boundary, which the client re-attaches."""
    seen: set[str] = set()
    total = 0
    lines = iter_lines_backwards(handle, boundary_start, max_bytes=RESTORE_SCAN_BYTES)
    for _end, line in lines:
        if any(needle in line for needle in BOUNDARY_NEEDLES):
            break  # an earlier compaction: what was read before it was re-attached then
        if not any(marker in line for marker in _FILE_READ_MARKERS):
            continue
        row = parse_row(line)
        read = _file_read(row) if row is not None else None
        if read is None or read[0] in seen:
            continue
        seen.add(read[0])
        total += min(read[1], MAX_RESTORED_CHARS)
        if len(seen) >= RESTORED_FILES:
            break
    return total


def estimate_after_compaction(
    handle: BinaryIO, size: int, boundary_start: int, boundary_end: int
) -> int:
    """Estimated context tokens after the compaction whose boundary row spans the offsets."""
    chars = chars_after(handle, size, boundary_end) + restored_chars(handle, boundary_start)
    return baseline_tokens(handle, size) + -(-chars // CHARS_PER_TOKEN)
