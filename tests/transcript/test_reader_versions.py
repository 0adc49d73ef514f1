"""How far back the reader looks for the model, by the client version the rows record.

Clients up to 2.1.114 record the model only in ``message.model``: the scan stops at their
last reply. Newer clients (and rows without a version) write ``requestedModel``, model
attachments and api-request rows that may show the 1M tier: the scan keeps looking for them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from context_memory.transcript.reader import (
    LAST_CLIENT_WITHOUT_MODEL_ROWS,
    MODEL_LOOKBACK_BYTES,
    client_version,
    scan_transcript,
    writes_no_model_rows,
)
from context_memory.transcript.rows import parse_row
from helpers import transcript_rows as tr

FILLER_BYTES = 2 * 1024 * 1024  # between the markers and the reply: a long tool result


def old_reply(version: str, message_id: str = "msg_old", tokens: int = 50_000) -> dict:
    """An assistant row as clients up to 2.1.114 write it: no requestedModel."""
    row = tr.assistant(
        message_id,
        tr.usage(3, 0, tokens, 7),
        model="claude-sonnet-4-5-20250929",
        requested_model=None,
    )
    row["version"] = version
    return row


def filler() -> dict:
    return tr.user("x" * FILLER_BYTES)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2.0.65", (2, 0, 65)),
        ("1.0.128", (1, 0, 128)),
        ("2.1.114", (2, 1, 114)),
        ("2.1.332-beta.1", (2, 1, 332)),
        ("2.1", None),
        ("v2.1.3", None),
        ("", None),
        (2, None),
        (None, None),
    ],
)
def test_client_version(raw: object, expected: tuple[int, ...] | None) -> None:
    assert client_version({"version": raw}) == expected


def test_which_rows_come_from_clients_without_model_rows() -> None:
    assert LAST_CLIENT_WITHOUT_MODEL_ROWS == (2, 1, 114)
    assert writes_no_model_rows(old_reply("2.1.114"))
    assert writes_no_model_rows(old_reply("1.0.24"))
    assert not writes_no_model_rows(old_reply("2.1.115"))
    assert not writes_no_model_rows(old_reply("2.1.332"))
    assert not writes_no_model_rows({**old_reply("2.0.65"), "requestedModel": "x"})
    no_version = old_reply("2.0.65")
    del no_version["version"]
    assert not writes_no_model_rows(no_version)


def test_an_old_clients_reply_ends_the_scan(tmp_path: Path) -> None:
    """Markers further back (here a [1m] attachment of a newer client that once ran the
    session) are not read: what the old client sent is only in message.model."""
    path = tr.write_transcript(
        tmp_path / "s.jsonl",
        [
            tr.model_attachment("claude-sonnet-4-5[1m]"),
            filler(),
            old_reply("2.0.65", "msg_1", 40_000),
            tr.user("next"),
            old_reply("2.0.65", "msg_2", 60_000),
            *tr.bookkeeping(),
        ],
    )
    reading = scan_transcript(path)
    assert (reading.tokens, reading.model, reading.source) == (
        60_010,
        "claude-sonnet-4-5-20250929",
        "usage",
    )
    assert reading.attachment_model is None
    assert reading.bytes_scanned < 10_000 < FILLER_BYTES < path.stat().st_size


@pytest.mark.parametrize("version", ["2.1.115", "2.1.332", None])
def test_newer_clients_and_unversioned_rows_keep_the_lookback(
    tmp_path: Path, version: str | None
) -> None:
    reply = old_reply(version or "0.0.0")
    if version is None:
        del reply["version"]
    path = tr.write_transcript(
        tmp_path / "s.jsonl",
        [tr.model_attachment("claude-sonnet-4-5[1m]"), filler(), reply, *tr.bookkeeping()],
    )
    reading = scan_transcript(path)
    assert reading.attachment_model == "claude-sonnet-4-5[1m]"
    assert reading.model == "claude-sonnet-4-5[1m]"
    assert reading.bytes_scanned == path.stat().st_size
    assert FILLER_BYTES < MODEL_LOOKBACK_BYTES


def test_a_compaction_of_an_old_client_reads_back_to_the_reply_before_it(tmp_path: Path) -> None:
    """A boundary without postTokens and no reply since: the model is the last reply's,
    before the boundary; the scan stops there. The figure is the compaction estimate
    (compaction_estimate: the first reply's baseline plus the text after the boundary)."""
    boundary = tr.compact_boundary(155_000, None, "auto")
    boundary["version"] = "2.0.65"
    path = tr.write_transcript(
        tmp_path / "s.jsonl",
        [
            tr.model_attachment("claude-sonnet-4-5[1m]"),
            filler(),
            old_reply("2.0.65", "msg_1", 150_000),
            tr.user("x" * 10_000),
            boundary,
            tr.compact_summary("Summary: the cache layer."),
        ],
    )
    reading = scan_transcript(path)
    assert (reading.tokens, reading.source, reading.saw_boundary) == (
        15_047,
        "compaction-estimate",
        True,
    )
    assert reading.model == "claude-sonnet-4-5-20250929"
    assert reading.attachment_model is None
    assert reading.bytes_scanned < 30_000


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"assistant","message":{"usage":',
        b'{"type":"assistant"}   garbage',
        b'["type","assistant"]',
        b'  {"type":"assistant","message":{"id":"m","usage":{"input_tokens":1,}}}  ',
        b'\xff{"type":"assistant"}',
    ],
)
def test_parse_row_refuses_what_is_not_one_object(line: bytes) -> None:
    assert parse_row(line) is None


def test_parse_row_takes_an_object_with_surrounding_blanks() -> None:
    assert parse_row(b' {"type":"assistant"} \r') == {"type": "assistant"}
