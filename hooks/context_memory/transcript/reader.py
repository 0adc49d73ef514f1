"""Read a Claude Code transcript (JSONL) backwards to find how full the context is.

The answer sits near the end of the file, behind bookkeeping rows, so the reader walks
backwards in blocks and stops as soon as it has what it needs: its cost does not grow with
the file. Standard library only (json is fast enough for the few rows a scan parses).
"""

from __future__ import annotations

import errno
import os
import stat

from context_memory.core import lightjson
from context_memory.core.tables import BETA_1M, INTERRUPTION_TEXTS

TYPE_CHECKING = False  # typing costs an import on the prompt path; mypy still reads the block
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, BinaryIO

BLOCK_SIZE = 256 * 1024
# Hooks bound their own work: past this many bytes read backwards, give up quietly.
DEFAULT_MAX_SCAN_BYTES = 64 * 1024 * 1024
# Once tokens are known, how much further back to look for the model and betas.
MODEL_LOOKBACK_BYTES = 4 * 1024 * 1024
# The newest client known to record the model only in ``message.model``: no transcript of
# clients 1.0.17 to 2.1.114 examined (35 files, 25 versions) has a ``requestedModel``, an
# ``api-request`` row or a model attachment, so behind a reply such a client wrote there is
# nothing more to learn about the model and the scan stops there (it would otherwise read
# MODEL_LOOKBACK_BYTES on every prompt). Newer clients, and rows without a version, keep
# the lookback.
LAST_CLIENT_WITHOUT_MODEL_ROWS = (2, 1, 114)
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
    raw = os.environ.get("CTX_MAX_SCAN_BYTES", "")
    try:
        value = int(raw)
    except ValueError:
        return DEFAULT_MAX_SCAN_BYTES
    return value if value > 0 else DEFAULT_MAX_SCAN_BYTES


def open_transcript(path: str | os.PathLike[str], buffering: int = -1) -> BinaryIO:
    """Open ``path`` for binary reading; OSError unless it is a regular file.

    A transcript is a regular file. Opened without blocking, so a FIFO at that path does
    not wait for a writer forever, and refused like a device (``/dev/zero`` never ends):
    a hook handed such a path fails fast instead of making the client wait.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory, not a transcript", path)
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file, not a transcript", path)
        return os.fdopen(fd, "rb", buffering)
    except BaseException:
        os.close(fd)
        raise


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


def parse_row(line: bytes) -> dict[str, Any] | None:
    """Parse one JSONL row; None for corrupt, half-written or non-object lines."""
    stripped = line.strip()
    if stripped[:1] != b"{" or stripped[-1:] != b"}":
        # Not an object, or cut mid-write (the client's last row while it streams): skipped
        # unparsed, as a parse error costs the import of json.decoder on CPython 3.10/3.11.
        return None
    try:
        row = lightjson.loads(line.decode("utf-8"))
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


def _message_text(message: dict[str, Any]) -> str | None:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict):
        text = content[0].get("text")
        return text if isinstance(text, str) else None
    return None


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
    text = _message_text(message)
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


class ContextReading:
    """What the backward scan found. ``source`` is "usage", "compaction",
    "compaction-estimate" (a compaction without postTokens, no reply since) or "none"."""

    __slots__ = (
        "tokens",
        "source",
        "message_id",
        "requested_model",
        "attachment_model",
        "request_model",
        "message_model",
        "betas",
        "saw_boundary",
        "bytes_scanned",
        "truncated",
    )

    def __init__(self) -> None:
        self.tokens = 0
        self.source = "none"
        self.message_id: str | None = None
        self.requested_model: str | None = None
        self.attachment_model: str | None = None
        self.request_model: str | None = None
        self.message_model: str | None = None
        self.betas: list[str] = []
        self.saw_boundary = False
        self.bytes_scanned = 0
        self.truncated = False

    @property
    def model(self) -> str | None:
        """The model as the client requested it, most exact source first."""
        return (
            self.requested_model
            or self.attachment_model
            or self.request_model
            or self.message_model
        )

    @property
    def has_1m_beta(self) -> bool:
        return BETA_1M in self.betas


def _note_model_sources(row: dict[str, Any], reading: ContextReading) -> None:
    kind = row.get("type")
    if kind == "assistant" and row.get("isSidechain") is not True:
        requested = row.get("requestedModel")
        if reading.requested_model is None and isinstance(requested, str) and requested:
            reading.requested_model = requested
        message = row.get("message")
        if reading.message_model is None and isinstance(message, dict):
            model = message.get("model")
            if isinstance(model, str) and model and model != "<synthetic>":
                reading.message_model = model
    elif kind == "attachment" and reading.attachment_model is None:
        attachment = row.get("attachment")
        if isinstance(attachment, dict) and attachment.get("type") == "model":
            identity = attachment.get("identity")
            model_id = identity.get("modelId") if isinstance(identity, dict) else None
            if isinstance(model_id, str) and model_id:
                reading.attachment_model = model_id
    elif kind == "api-request" and reading.request_model is None:
        params = row.get("params")
        if isinstance(params, dict):
            model = params.get("model")
            if isinstance(model, str) and model:
                reading.request_model = model
                betas = params.get("betas")
                if isinstance(betas, list):
                    reading.betas = [b for b in betas if isinstance(b, str)]


def client_version(row: dict[str, Any]) -> tuple[int, ...] | None:
    """The client version a row records (``"version": "2.0.65"``), or None."""
    raw = row.get("version")
    if not isinstance(raw, str):
        return None
    parts: list[int] = []
    for part in raw.split(".")[:3]:
        digits = part[: len(part) - len(part.lstrip("0123456789"))]
        if not digits:
            return None
        parts.append(int(digits))
    return tuple(parts) if len(parts) == 3 else None


def writes_no_model_rows(row: dict[str, Any]) -> bool:
    """True when ``row`` comes from a client that records the model only in message.model."""
    if "requestedModel" in row:
        return False
    version = client_version(row)
    return version is not None and version <= LAST_CLIENT_WITHOUT_MODEL_ROWS


def _model_known(reading: ContextReading, old_client: bool) -> bool:
    if old_client:
        # Nothing but message.model to wait for (the reply's own, or the one before a
        # compaction boundary).
        return reading.message_model is not None
    # The requested model (or the model attachment) names the tier; the api-request row
    # adds the betas. Both sit close to the reply, so waiting for both costs little.
    return (
        reading.requested_model is not None or reading.attachment_model is not None
    ) and reading.request_model is not None


def scan_transcript(
    path: str | os.PathLike[str], *, max_bytes: int | None = None
) -> ContextReading:
    """Scan ``path`` backwards and return the current context reading.

    Raises OSError when the file cannot be opened or read (missing, a directory, no
    permission); every content problem is skipped, never raised.
    """
    limit = max_scan_bytes() if max_bytes is None else max_bytes
    reading = ContextReading()
    with open_transcript(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        tokens_found_at: int | None = None
        boundary_span: tuple[int, int] | None = None  # a boundary without postTokens
        old_client = False
        for end, line in iter_lines_backwards(handle, size, max_bytes=limit):
            reading.bytes_scanned = size - (end - len(line))
            if tokens_found_at is not None and tokens_found_at - end > MODEL_LOOKBACK_BYTES:
                break
            if not may_matter(line):
                continue
            row = parse_row(line)
            if row is None:
                continue
            _note_model_sources(row, reading)
            if tokens_found_at is not None:
                if _model_known(reading, old_client):
                    break  # at the row that completed it: the one before may be megabytes
                continue
            usage = eligible_assistant_usage(row)
            if usage is not None:
                reading.tokens = usage_tokens(usage)
                reading.source = "usage"
                message = row.get("message")
                if isinstance(message, dict) and isinstance(message.get("id"), str):
                    reading.message_id = message["id"]
                tokens_found_at = end
                old_client = writes_no_model_rows(row)
            elif is_compact_boundary(row):
                reading.saw_boundary = True
                metadata = row.get("compactMetadata")
                post = metadata.get("postTokens") if isinstance(metadata, dict) else None
                if isinstance(post, int) and not isinstance(post, bool) and post >= 0:
                    reading.tokens = post
                    reading.source = "compaction"
                else:
                    boundary_span = (end - len(line), end)
                tokens_found_at = end
                old_client = writes_no_model_rows(row)
            if tokens_found_at is not None and _model_known(reading, old_client):
                break
        reading.truncated = tokens_found_at is None and size > limit
        if boundary_span is not None:
            # Older clients leave postTokens out: estimate rather than report 0. Loaded
            # only here, between such a compaction and the next reply.
            from context_memory.transcript.compaction_estimate import estimate_after_compaction

            reading.tokens = estimate_after_compaction(handle, size, *boundary_span)
            reading.source = "compaction-estimate"
    return reading


def recent_reply_tokens(
    path: str | os.PathLike[str], count: int, *, max_bytes: int | None = None
) -> list[int]:
    """Context tokens of the last ``count`` main-chain replies since the last compaction.

    Newest first; fewer when the session has fewer replies since its last compact
    boundary (replies before a boundary belong to a context that no longer exists).
    Rows of one reply share ``message.id``; the last row of each is the one counted.
    """
    limit = max_scan_bytes() if max_bytes is None else max_bytes
    tokens: list[int] = []
    seen: set[str] = set()
    with open_transcript(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        for _, line in iter_lines_backwards(handle, size, max_bytes=limit):
            if not may_matter(line):
                continue
            row = parse_row(line)
            if row is None:
                continue
            if is_compact_boundary(row):
                break
            usage = eligible_assistant_usage(row)
            if usage is None:
                continue
            message = row.get("message")
            message_id = message.get("id") if isinstance(message, dict) else None
            if isinstance(message_id, str):
                if message_id in seen:
                    continue
                seen.add(message_id)
            tokens.append(usage_tokens(usage))
            if len(tokens) >= count:
                break
    return tokens


# Inside a JSON string these quotes would be escaped, so the raw bytes only occur as the
# row's own key. The client writes compact JSON; the spaced form covers re-serialised files.
BOUNDARY_NEEDLES = (b'"subtype":"compact_boundary"', b'"subtype": "compact_boundary"')
_COUNT_CHUNK = 8 * 1024 * 1024


def count_boundaries(path: str | os.PathLike[str], start: int = 0) -> tuple[int, int, bool]:
    """(compact_boundary rows from byte ``start`` on, offset read to, file ends with newline).

    A byte search in fixed chunks, no JSON parsing: memory stays flat at any file size.
    """
    count = 0
    # Per needle, the bytes a straddling match may have begun in: one less than its length,
    # so a match is never wholly inside the carried tail and is counted exactly once.
    tails = dict.fromkeys(BOUNDARY_NEEDLES, b"")
    last = b""
    with open_transcript(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        position = max(0, min(start, size))
        handle.seek(position)
        while True:
            chunk = handle.read(_COUNT_CHUNK)
            if not chunk:
                break
            for needle in BOUNDARY_NEEDLES:
                keep = len(needle) - 1
                # Matches inside the chunk, plus one that began in the previous chunk's tail
                # (counted on the seam only, so the chunk itself is never copied).
                count += chunk.count(needle) + (tails[needle] + chunk[:keep]).count(needle)
                tails[needle] = (
                    (tails[needle] + chunk)[-keep:] if len(chunk) < keep else chunk[-keep:]
                )
            position += len(chunk)
            last = chunk[-1:]
    return count, position, last == b"\n"
