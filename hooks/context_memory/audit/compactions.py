"""What survived a compaction, read from the transcript: the summary, the messages the
client kept verbatim (``compactMetadata.preservedMessages``) and the rows after the summary.
"""

from __future__ import annotations

import hashlib
import json
import os
import re

from context_memory import TYPE_CHECKING
from context_memory.audit.config import RECENT_COMPACTION_BYTES
from context_memory.core import bulkjson
from context_memory.core.tables import (
    COMMAND_ECHO_PREFIXES,
    SUMMARY_END_MARKERS,
    SUMMARY_ROW_INTRO,
    SUMMARY_START_MARKER,
)
from context_memory.memory.decisions import str_list
from context_memory.transcript.rows import (
    is_compact_boundary,
    iter_lines_backwards,
    max_scan_bytes,
    open_transcript,
    parse_row,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping
    from typing import Any

_ROW_OF_INTEREST = re.compile(
    rb'"type"\s*:\s*"(?:user|assistant)"|"subtype"\s*:\s*"compact_boundary"'
)
_ANALYSIS_BLOCK = re.compile(r"<analysis>.*?(?:</analysis>|\Z)", re.DOTALL)
_SUMMARY_BLOCK = re.compile(r"<summary>(.*?)(?:</summary>|\Z)", re.DOTALL)
# -- what survived ---------------------------------------------------------------------------


def summary_body(text: str) -> str:
    """The summary itself, without the framing the client or the summariser adds.

    ``compact_summary`` (PostCompact) is the summariser's raw answer: its <analysis> block
    is dropped by the client and never reaches the model, so it must not count. The
    transcript's summary row wraps the text in instructions and a transcript path.
    """
    if "<analysis>" in text or "<summary>" in text:
        text = _ANALYSIS_BLOCK.sub("", text)
        blocks = _SUMMARY_BLOCK.findall(text)
        if blocks:
            text = "\n".join(blocks)
    start = text.find(SUMMARY_START_MARKER)
    if start != -1:
        text = text[start + len(SUMMARY_START_MARKER) :]
    return _before_end_markers(text)


def _before_end_markers(text: str) -> str:
    """``text`` up to the first of the client's closing instructions, stripped."""
    cut = len(text)
    for marker in SUMMARY_END_MARKERS:
        position = text.find(marker)
        if position != -1:
            cut = min(cut, position)
    return text[:cut].strip()


def given_text(row_text: str) -> str:
    """What the model received from a summary row: its text as written, framing aside.

    Unlike ``summary_body`` this keeps an ``Analysis:`` part: clients up to 2.1.39 wrote it
    into the row (``Analysis:`` then ``Summary:``) and sent the row as it is, so a decision
    named only in the analysis did reach the model. Only the client's opening line and
    closing instructions go.
    """
    text = row_text
    if text.startswith(SUMMARY_ROW_INTRO):
        newline = text.find("\n")
        text = text[newline + 1 :] if newline != -1 else ""
    return _before_end_markers(text)


def summary_fingerprint(body: str) -> str:
    """Identifies a summary across its two forms (hook field, transcript row)."""
    flat = " ".join(body.split())
    return hashlib.sha1(flat.encode("utf-8")).hexdigest()[:16]


def _texts_of(content: object) -> Iterator[str]:
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for block in content:
            if isinstance(block, str):
                yield block
            elif isinstance(block, dict):
                text = block.get("text")
                if isinstance(text, str):
                    yield text
                if "content" in block:  # tool_result
                    yield from _texts_of(block["content"])
                tool_input = block.get("input")
                if isinstance(tool_input, dict):  # tool_use: the model sees its input
                    yield json.dumps(tool_input, ensure_ascii=False)


def row_text(row: Mapping[str, Any]) -> str:
    """The text a user or assistant row puts in front of the model."""
    message = row.get("message")
    if not isinstance(message, dict):
        return ""
    return "\n".join(_texts_of(message.get("content")))


def _is_message_row(row: Mapping[str, Any]) -> bool:
    return row.get("type") in ("user", "assistant") and row.get("isSidechain") is not True


def _is_command_echo(row: Mapping[str, Any], text: str) -> bool:
    """A row the client wrote for a slash command or as a meta note, not a conversation turn."""
    return row.get("isMeta") is True or text.lstrip().startswith(COMMAND_ECHO_PREFIXES)


def kept_text(row: Mapping[str, Any]) -> str | None:
    """The text a kept row contributes, or None for command echoes and empty rows."""
    text = row_text(row)
    if not text.strip() or _is_command_echo(row, text):
        return None
    return text


def _preserved_ids(boundary: Mapping[str, Any]) -> tuple[set[str], str | None, str | None]:
    """The uuids the client kept verbatim, and the (head, tail) of a preserved segment."""
    metadata = boundary.get("compactMetadata")
    if not isinstance(metadata, dict):
        return set(), None, None
    ids: set[str] = set()
    preserved = metadata.get("preservedMessages")
    if isinstance(preserved, dict):
        for key in ("uuids", "allUuids"):
            ids.update(str_list(preserved.get(key)))
    segment = metadata.get("preservedSegment")
    head = tail = None
    if isinstance(segment, dict):
        head_value, tail_value = segment.get("headUuid"), segment.get("tailUuid")
        head = head_value if isinstance(head_value, str) else None
        tail = tail_value if isinstance(tail_value, str) else None
    return ids, head, tail


class Compaction:
    """One compaction as the transcript records it, and what survived it."""

    __slots__ = ("boundary_uuid", "kept", "number", "session", "summary", "timestamp", "trigger")

    def __init__(self, boundary: Mapping[str, Any]) -> None:
        uuid = boundary.get("uuid")
        self.boundary_uuid = uuid if isinstance(uuid, str) else None
        stamp = boundary.get("timestamp")
        self.timestamp = stamp if isinstance(stamp, str) else None
        metadata = boundary.get("compactMetadata")
        trigger = metadata.get("trigger") if isinstance(metadata, dict) else None
        self.trigger = trigger if isinstance(trigger, str) else None
        session = boundary.get("sessionId")
        self.session = session if isinstance(session, str) else None
        self.summary: str | None = None  # the summary row's text; None when not written
        self.kept: list[str] = []  # preserved messages and rows after the summary
        self.number = 0  # 1-based position among the transcript's compactions

    @property
    def body(self) -> str:
        return summary_body(self.summary or "")

    @property
    def given(self) -> str:
        """The summary as the model received it (``body`` plus an older client's analysis)."""
        return given_text(self.summary or "")


def recent_bytes() -> int:
    return min(max_scan_bytes(), RECENT_COMPACTION_BYTES)


class _Message:
    """A message row as the walk needs it: its uuid, the text it keeps (kept_text: None for
    command echoes and empty rows) and, for a summary row, the summary."""

    __slots__ = ("summary", "text", "uuid")

    def __init__(self, row: Mapping[str, Any]) -> None:
        uuid = row.get("uuid")
        self.uuid = uuid if isinstance(uuid, str) else ""
        self.summary = row_text(row) if row.get("isCompactSummary") is True else None
        self.text = kept_text(row)


def _rows_of_interest(
    lines: Iterable[bytes], loads: Callable[[bytes], Any] | None = None
) -> Iterator[dict[str, Any]]:
    """The boundaries and the message rows among ``lines`` (unparsable lines skipped),
    parsed with ``loads`` (core/bulkjson's when by hand; lightjson's by default)."""
    for line in lines:
        if not _ROW_OF_INTEREST.search(line):
            continue
        row = parse_row(line, loads)
        if row is not None and (is_compact_boundary(row) or _is_message_row(row)):
            yield row


def _compaction(
    boundary: Mapping[str, Any], before: Iterable[_Message], after: list[_Message]
) -> Compaction:
    """The one walk: the compaction of ``boundary`` and what survived it.

    ``after``: the message rows after the boundary up to the next one, oldest first: the
    first summary row is the summary, the others are kept. ``before``: the message rows
    since the previous boundary, newest first, read only as far as the messages the
    boundary names as kept verbatim go (2.1.332 keeps them where they were written, before
    the boundary: preserved uuids, or a segment from its head to its tail). A kept row the
    client wrote again after the boundary is taken from there, not twice.
    """
    compaction = Compaction(boundary)
    wanted, segment_head, segment_tail = _preserved_ids(boundary)
    seen = {message.uuid for message in after}
    wanted -= seen
    if segment_tail in seen:
        segment_tail = None
    kept_before: list[str] = []
    in_segment = False
    for message in before:
        if not wanted and segment_tail is None:
            break
        if message.uuid == segment_tail:
            in_segment = True
        if in_segment or message.uuid in wanted:
            if message.text is not None:
                kept_before.append(message.text)
            wanted.discard(message.uuid)
        if message.uuid == segment_head:
            in_segment = False
            segment_tail = None
    for message in after:
        if message.summary is not None and compaction.summary is None:
            compaction.summary = message.summary
        elif message.text is not None:
            compaction.kept.append(message.text)
    compaction.kept = kept_before[::-1] + compaction.kept
    return compaction


def _messages_back_to_boundary(rows: Iterator[dict[str, Any]]) -> Iterator[_Message]:
    """The message rows of ``rows`` (read backwards) up to the next boundary."""
    for row in rows:
        if is_compact_boundary(row):
            return
        yield _Message(row)


def last_compaction(path: str, *, max_bytes: int | None = None) -> Compaction | None:
    """The transcript's last compaction, read backwards from the end (byte-bounded).

    Rows after the boundary are read first; past the boundary the reader goes on only as
    far as the walk (_compaction) wants the messages the boundary kept, and stops at the
    previous boundary.
    """
    limit = max_scan_bytes() if max_bytes is None else max_bytes
    after: list[_Message] = []
    with open_transcript(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        lines = (line for _, line in iter_lines_backwards(handle, size, max_bytes=limit))
        rows = _rows_of_interest(lines)
        for row in rows:
            if is_compact_boundary(row):
                after.reverse()
                return _compaction(row, _messages_back_to_boundary(rows), after)
            after.append(_Message(row))
    return None


def all_compactions(path: str) -> list[Compaction]:
    """Every compaction of the transcript, oldest first: one forward walk over the rows,
    after a scan for a boundary (a transcript without one costs no parse)."""
    with open_transcript(path) as handle:
        if not any(b"compact_boundary" in line for line in handle):
            return []
    compactions: list[Compaction] = []
    boundary: dict[str, Any] | None = None
    before: list[_Message] = []  # the message rows between the previous boundary and this one
    since: list[_Message] = []  # the message rows since the last boundary read
    loads = bulkjson.bulk_loads()  # by hand only (ctx-audit --all): every row is parsed
    with open_transcript(path) as handle:
        for row in _rows_of_interest(handle, loads):
            if not is_compact_boundary(row):
                since.append(_Message(row))
                continue
            if boundary is not None:
                compactions.append(_compaction(boundary, reversed(before), since))
            boundary, before, since = row, since, []
    if boundary is not None:
        compactions.append(_compaction(boundary, reversed(before), since))
    for number, compaction in enumerate(compactions, 1):
        compaction.number = number
    return compactions
