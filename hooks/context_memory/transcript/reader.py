"""Read a Claude Code transcript (JSONL) backwards to find how full the context is.

The answer sits near the end of the file, behind bookkeeping rows, so the reader walks
backwards in blocks and stops as soon as it has what it needs: its cost does not grow with
the file. Standard library only (json is fast enough for the few rows a scan parses).
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core import lightos
from context_memory.core.prompt_tables import BETA_1M
from context_memory.transcript.rows import (
    BOUNDARY_NEEDLES,
    eligible_assistant_usage,
    is_compact_boundary,
    iter_lines_backwards,
    max_scan_bytes,
    may_matter,
    open_transcript,
    parse_row,
    usage_tokens,
)

if TYPE_CHECKING:
    from os import PathLike
    from typing import Any

# Once tokens are known, how much further back to look for the model and betas.
MODEL_LOOKBACK_BYTES = 4 * 1024 * 1024
# The newest client known to record the model only in ``message.model``: no transcript of
# clients 1.0.17 to 2.1.114 examined (35 files, 25 versions) has a ``requestedModel``, an
# ``api-request`` row or a model attachment, so behind a reply such a client wrote there is
# nothing more to learn about the model and the scan stops there (it would otherwise read
# MODEL_LOOKBACK_BYTES on every prompt). Newer clients, and rows without a version, keep
# the lookback.
LAST_CLIENT_WITHOUT_MODEL_ROWS = (2, 1, 114)


class ContextReading:
    """What the backward scan found. ``source`` is "usage", "compaction",
    "compaction-estimate" (a compaction without postTokens, no reply since) or "none"."""

    __slots__ = (
        "attachment_model",
        "betas",
        "bytes_scanned",
        "message_id",
        "message_model",
        "request_model",
        "requested_model",
        "saw_boundary",
        "source",
        "tokens",
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


def scan_transcript(path: str | PathLike[str], *, max_bytes: int | None = None) -> ContextReading:
    """Scan ``path`` backwards and return the current context reading.

    Raises OSError when the file cannot be opened or read (missing, a directory, no
    permission); every content problem is skipped, never raised.
    """
    limit = max_scan_bytes() if max_bytes is None else max_bytes
    reading = ContextReading()
    with open_transcript(path) as handle:
        size = lightos.fstat(handle.fileno()).st_size
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
    path: str | PathLike[str], count: int, *, max_bytes: int | None = None
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
        size = lightos.fstat(handle.fileno()).st_size
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


_COUNT_CHUNK = 8 * 1024 * 1024


def count_boundaries(path: str | PathLike[str], start: int = 0) -> tuple[int, int, bool]:
    """(compact_boundary rows from byte ``start`` on, offset read to, file ends with newline).

    A byte search in fixed chunks, no JSON parsing: memory stays flat at any file size.
    """
    count = 0
    # Per needle, the bytes a straddling match may have begun in: one less than its length,
    # so a match is never wholly inside the carried tail and is counted exactly once.
    tails = dict.fromkeys(BOUNDARY_NEEDLES, b"")
    last = b""
    with open_transcript(path) as handle:
        size = lightos.fstat(handle.fileno()).st_size
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
