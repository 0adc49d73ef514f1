"""What survived a compaction, read from the transcript: the summary, the messages the
client kept verbatim (``compactMetadata.preservedMessages``) and the rows after the summary.
"""

from __future__ import annotations

import hashlib
import json
import os
import re

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

TYPE_CHECKING = False  # typing costs an import on the hook path; mypy still reads the block
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping
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


def last_compaction(path: str, *, max_bytes: int | None = None) -> Compaction | None:
    """The transcript's last compaction, read backwards from the end (byte-bounded).

    Rows after the boundary are read first; past the boundary the reader goes on only to
    collect the preserved messages it names (2.1.332 keeps them where they were written,
    before the boundary), and stops at the previous boundary.
    """
    limit = max_scan_bytes() if max_bytes is None else max_bytes
    after: list[Mapping[str, Any]] = []
    compaction: Compaction | None = None
    wanted: set[str] = set()
    segment_head: str | None = None
    segment_tail: str | None = None
    in_segment = False
    kept_before: list[str] = []
    with open_transcript(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        for _, line in iter_lines_backwards(handle, size, max_bytes=limit):
            if not _ROW_OF_INTEREST.search(line):
                continue
            row = parse_row(line)
            if row is None:
                continue
            if compaction is None:
                if is_compact_boundary(row):
                    compaction = Compaction(row)
                    wanted, segment_head, segment_tail = _preserved_ids(row)
                    # Kept rows the client wrote again after the boundary are in hand.
                    seen = {str(r.get("uuid")) for r in after}
                    wanted -= seen
                    if segment_tail in seen:
                        segment_tail = None
                    if not wanted and segment_tail is None:
                        break
                elif _is_message_row(row):
                    after.append(row)
                continue
            if is_compact_boundary(row):
                break  # an earlier compaction: nothing before it survived this one
            if not _is_message_row(row):
                continue
            uuid = row.get("uuid")
            if uuid == segment_tail:
                in_segment = True
            if in_segment or uuid in wanted:
                text = kept_text(row)
                if text is not None:
                    kept_before.append(text)
                wanted.discard(str(uuid))
            if uuid == segment_head:
                in_segment = False
                segment_tail = None
            if not wanted and segment_tail is None:
                break
    if compaction is None:
        return None
    _fill_after(compaction, reversed(after))
    compaction.kept = list(reversed(kept_before)) + compaction.kept
    return compaction


def _fill_after(compaction: Compaction, rows: Iterable[Mapping[str, Any]]) -> None:
    for row in rows:
        if row.get("isCompactSummary") is True and compaction.summary is None:
            compaction.summary = row_text(row)
            continue
        text = kept_text(row)
        if text is not None:
            compaction.kept.append(text)


def all_compactions(path: str) -> list[Compaction]:
    """Every compaction of the transcript, oldest first (two forward passes over the file)."""
    loads = bulkjson.bulk_loads()  # by hand only: every boundary and message row is parsed
    found: list[tuple[Compaction, set[str], str | None, str | None]] = []
    with open_transcript(path) as handle:
        for line in handle:
            if b"compact_boundary" not in line:
                continue
            row = parse_row(line, loads)
            if row is not None and is_compact_boundary(row):
                compaction = Compaction(row)
                compaction.number = len(found) + 1
                found.append((compaction, *_preserved_ids(row)))
    if not found:
        return []
    compactions = [item[0] for item in found]
    preserved_by: dict[str, list[int]] = {}
    for index, (_, ids, _, _) in enumerate(found):
        for uuid in ids:
            preserved_by.setdefault(uuid, []).append(index)
    segment_heads = {head: index for index, (_, _, head, _) in enumerate(found) if head}
    segment_tails = {tail: index for index, (_, _, _, tail) in enumerate(found) if tail}
    current = -1  # index of the last boundary passed
    open_segments: set[int] = set()
    with open_transcript(path) as handle:
        for line in handle:
            if not _ROW_OF_INTEREST.search(line):
                continue
            row = parse_row(line, loads)
            if row is None:
                continue
            if is_compact_boundary(row):
                current += 1
                open_segments.clear()
                continue
            if not _is_message_row(row):
                continue
            raw_uuid = row.get("uuid")
            uuid = raw_uuid if isinstance(raw_uuid, str) else ""
            if current >= 0 and row.get("isCompactSummary") is True:
                if compactions[current].summary is None:
                    compactions[current].summary = row_text(row)
                continue
            text = kept_text(row)
            # Kept verbatim by a later compaction: written before that compaction's boundary.
            if uuid in segment_heads and segment_heads[uuid] > current:
                open_segments.add(segment_heads[uuid])
            later = set(open_segments)
            later.update(index for index in preserved_by.get(uuid, ()) if index > current)
            if uuid in segment_tails:
                open_segments.discard(segment_tails[uuid])
            if text is None:
                continue
            for index in sorted(later):
                compactions[index].kept.append(text)
            if current >= 0:
                compactions[current].kept.append(text)
    return compactions
