"""A transcript's rows, read backwards: opening the file safely, walking its lines from
the end in blocks, parsing the rows that may matter, and what a row says (a reply's usage,
a compaction boundary). The context scan (reader), the compaction estimate, the audit and
the timeline read through it. Standard library only: on the prompt path.
"""

from __future__ import annotations

import errno

from context_memory import TYPE_CHECKING
from context_memory.core import lightjson, lightos
from context_memory.core.prompt_tables import INTERRUPTION_TEXTS

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from os import PathLike
    from typing import Any, BinaryIO

BLOCK_SIZE = 256 * 1024
# Hooks bound their own work: past this many bytes read backwards, give up quietly.
DEFAULT_MAX_SCAN_BYTES = 64 * 1024 * 1024
# Rows past this size are never an assistant reply worth assembling (system-prompt rows
# reach a few hundred KB); skipping them keeps the hook's memory flat.
MAX_LINE_BYTES = 16 * 1024 * 1024

# Cheap pre-filter: only rows whose top level may be one of these types get parsed.
# Inside JSON strings quotes are escaped, so a match is almost always a real key. The
# client writes compact JSON; the ": " spelling covers re-serialised files. Plain byte
# searches, as ``re`` costs more to import than a scan.
_ROW_MARKERS = tuple(
    f'"{key}"{separator}"{value}"'.encode()
    for key, value in (
        ("type", "assistant"),
        ("type", "system"),
        ("type", "attachment"),
        ("type", "api-request"),
        ("subtype", "compact_boundary"),
    )
    for separator in (":", ": ")
)


def may_matter(line: bytes) -> bool:
    """False for rows the scan never needs (bookkeeping, user rows, system prompts)."""
    return any(marker in line for marker in _ROW_MARKERS)


def max_scan_bytes() -> int:
    raw = lightos.environ().get("CTX_MAX_SCAN_BYTES", "")
    try:
        value = int(raw)
    except ValueError:
        return DEFAULT_MAX_SCAN_BYTES
    return value if value > 0 else DEFAULT_MAX_SCAN_BYTES


def open_transcript(path: str | PathLike[str], buffering: int = -1) -> BinaryIO:
    """Open ``path`` for binary reading; OSError unless it is a regular file.

    A transcript is a regular file. Opened without blocking, so a FIFO at that path does
    not wait for a writer forever, and refused like a device (``/dev/zero`` never ends):
    a hook handed such a path fails fast instead of making the client wait.
    """
    flags = lightos.O_RDONLY | lightos.O_NONBLOCK | lightos.O_CLOEXEC
    fd = lightos.open(path, flags)
    try:
        mode = lightos.fstat(fd).st_mode
        if lightos.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory, not a transcript", path)
        if not lightos.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file, not a transcript", path)
        return open(fd, "rb", buffering)
    except BaseException:
        lightos.close(fd)
        raise


def read_head(path: str | PathLike[str], size: int) -> bytes | None:
    """The first ``size`` bytes of the transcript at ``path`` (opened as open_transcript
    opens it), or None when it cannot be read."""
    try:
        with open_transcript(path) as handle:
            return handle.read(size)
    except OSError:
        return None


def iter_lines_backwards(
    handle: BinaryIO, size: int, *, block_size: int = BLOCK_SIZE, max_bytes: int | None = None
) -> Iterator[tuple[int, bytes]]:
    """Yield (end offset, line bytes) from the last non-blank line to the first.

    The last line is yielded even without a trailing newline (it may be half-written; the
    caller's JSON parse rejects it). Reading stops after ``max_bytes``; a line longer than
    MAX_LINE_BYTES is passed over without being assembled, which bounds memory.
    """
    limit = size if max_bytes is None else min(size, max_bytes)
    position = size
    # Pieces of the line that continues into earlier blocks, in file order once reversed.
    pending: list[bytes] = []
    pending_len = 0
    oversized = False
    while position > 0 and size - position < limit:
        step = min(block_size, position, limit - (size - position))
        position -= step
        handle.seek(position)
        block = handle.read(step)
        cut = block.rfind(b"\n")
        if cut == -1:
            if not oversized:
                pending.append(block)
                pending_len += len(block)
                if pending_len > MAX_LINE_BYTES:
                    pending, pending_len, oversized = [], 0, True
            continue
        # Everything after the last newline of this block completes the pending line.
        tail = block[cut + 1 :]
        line_end = position + len(block) + pending_len
        if not oversized:
            pending.append(tail)
            line = b"".join(reversed(pending))
            if line.strip():
                yield line_end, line
        pending, pending_len, oversized = [], 0, False
        lines = block[:cut].split(b"\n")
        # lines[0] may continue into the previous block.
        offset = position + cut
        for part in reversed(lines[1:]):
            if part.strip():
                yield offset, part
            offset -= len(part) + 1
        pending = [lines[0]]
        pending_len = len(lines[0])
    if position == 0 and not oversized and pending:
        line = b"".join(reversed(pending))
        if line.strip():
            yield pending_len, line


def parse_row(line: bytes, loads: Callable[[bytes], Any] | None = None) -> dict[str, Any] | None:
    """Parse one JSONL row; None for corrupt, half-written or non-object lines. ``loads``:
    the by-hand reads' parser (core/bulkjson), else core/lightjson's."""
    stripped = line.strip()
    if stripped[:1] != b"{" or stripped[-1:] != b"}":
        # Not an object, or cut mid-write (the client's last row while it streams): skipped
        # unparsed, as a parse error costs the import of json.decoder on CPython 3.10/3.11.
        return None
    try:
        row = lightjson.loads(line.decode("utf-8")) if loads is None else loads(line)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return row if isinstance(row, dict) else None


def usage_tokens(usage: dict[str, Any]) -> int:
    """Context tokens of one usage object, as the client counts them.

    A non-empty ``iterations`` list means several server-side iterations; the last one is
    what is in context now.
    """
    iterations = usage.get("iterations")
    if isinstance(iterations, list) and iterations and isinstance(iterations[-1], dict):
        usage = iterations[-1]
    total = 0
    for key in (
        "input_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
        "output_tokens",
    ):
        value = usage.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            total += value
    return total


def message_text(message: dict[str, Any]) -> str | None:
    """The text of a message whose content is one text (a string, or a single block)."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict):
        text = content[0].get("text")
        return text if isinstance(text, str) else None
    return None


def content_blocks(
    row: dict[str, Any], row_type: str, *, main_chain: bool = False
) -> list[dict[str, Any]]:
    """The content blocks (objects) of ``row`` when it is a ``row_type`` row ("assistant",
    "user"; with ``main_chain``, not a subagent's), else []."""
    if row.get("type") != row_type or (main_chain and row.get("isSidechain") is True):
        return []
    message = row.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return []
    return [block for block in content if isinstance(block, dict)]


def eligible_assistant_usage(row: dict[str, Any]) -> dict[str, Any] | None:
    """The usage of a main-chain assistant row that counts, or None if the row is skipped."""
    if row.get("type") != "assistant" or row.get("isSidechain") is True:
        return None
    if row.get("isApiErrorMessage") is True:
        return None
    message = row.get("message")
    if not isinstance(message, dict):
        return None
    if message.get("model") == "<synthetic>":
        return None
    text = message_text(message)
    if text is not None and text.strip() in INTERRUPTION_TEXTS:
        return None
    usage = message.get("usage")
    return usage if isinstance(usage, dict) else None


def is_compact_boundary(row: dict[str, Any]) -> bool:
    return (
        row.get("type") == "system"
        and row.get("subtype") == "compact_boundary"
        and row.get("isSidechain") is not True
    )


# Inside a JSON string these quotes would be escaped, so the raw bytes only occur as the
# row's own key. The client writes compact JSON; the spaced form covers re-serialised files.
BOUNDARY_NEEDLES = (b'"subtype":"compact_boundary"', b'"subtype": "compact_boundary"')
