from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from context_memory.transcript.compaction_count import count_compactions
from context_memory.transcript.reader import scan_transcript
from context_memory.transcript.rows import iter_lines_backwards, usage_tokens
from helpers import transcript_rows as tr
from helpers.paths import SAMPLE_TRANSCRIPT


def test_usage_sums_all_four_fields():
    assert usage_tokens(tr.usage(100, 20, 3000, 7)) == 3127


def test_usage_uses_last_iteration_when_present():
    iterations = [
        {
            "input_tokens": 1,
            "cache_creation_input_tokens": 1,
            "cache_read_input_tokens": 1,
            "output_tokens": 1,
        },
        {
            "input_tokens": 500,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 9000,
            "output_tokens": 40,
        },
    ]
    assert usage_tokens(tr.usage(5, 5, 5, 5, iterations=iterations)) == 9540


def test_usage_ignores_wrong_types():
    assert (
        usage_tokens({"input_tokens": "9", "cache_read_input_tokens": True, "output_tokens": -3})
        == 0
    )


def test_reference_sample_after_compaction_reports_post_tokens():
    reading = scan_transcript(SAMPLE_TRANSCRIPT)
    assert (reading.tokens, reading.source) == (2743, "compaction")
    assert reading.model == "claude-sonnet-4-5"
    assert count_compactions(SAMPLE_TRANSCRIPT) == 1


def test_reference_sample_before_compaction_uses_last_reply(tmp_path: Path):
    lines = SAMPLE_TRANSCRIPT.read_bytes().splitlines(keepends=True)
    head = tmp_path / "head.jsonl"
    head.write_bytes(b"".join(lines[:49]))  # up to the cost-state row before /compact
    reading = scan_transcript(head)
    # Row 46: input 1200 + output 20.
    assert (reading.tokens, reading.source, reading.message_id) == (
        1220,
        "usage",
        "msg_d833ddd11c9545da835eec64",
    )
    assert count_compactions(head) == 0


def real_shape_rows() -> list[dict]:
    """A turn as the client writes it: streamed duplicates, a sidechain, bookkeeping last."""
    return [
        tr.user("design the cache layer"),
        tr.model_attachment("claude-sonnet-4-6"),
        tr.prompt_snapshot(),
        tr.api_request("claude-sonnet-4-6"),
        tr.assistant("msg_1", tr.usage(4000, 0, 20000, 20)),
        tr.user("tool result"),
        tr.api_request("claude-sonnet-4-6"),
        # Streamed: provisional usage first, final usage on the last row of the id.
        tr.assistant("msg_2", tr.usage(6000, 100, 23000, 1), text="thinking"),
        tr.assistant("msg_2", tr.usage(6000, 100, 23000, 45), text="Decision: Redis Cluster"),
        # A subagent's rows are not the main context.
        tr.assistant("msg_side", tr.usage(150000, 0, 0, 10), sidechain=True),
        tr.api_error(),
        tr.interrupted(),
        *tr.bookkeeping(),
    ]


def test_real_shape_takes_last_row_of_last_main_chain_reply(tmp_path: Path):
    path = tr.write_transcript(tmp_path / "t.jsonl", real_shape_rows())
    reading = scan_transcript(path)
    assert (reading.tokens, reading.source, reading.message_id) == (29145, "usage", "msg_2")
    assert reading.model == "claude-sonnet-4-6"


@pytest.mark.parametrize(
    "tail",
    [
        b'{"parentUuid":"x","isSidechain":false,"type":"assistant","message":{"id":"msg_9","usa',
        b"\xff\xfe\x80garbage not utf-8\n",
        b"{corrupt json}\n\n\n",
        b"   \n",
        b'["an", "array"]\n',
        b'{"type":"brand-new-row-type","message":{"usage":{"input_tokens":999999}}}\n',
    ],
    ids=["half-written", "not-utf8", "corrupt", "blank", "array", "unknown-type"],
)
def test_bad_last_lines_are_skipped(tmp_path: Path, tail: bytes):
    path = tr.write_transcript(tmp_path / "t.jsonl", real_shape_rows(), tail=tail)
    assert scan_transcript(path).tokens == 29145


def test_crlf_line_endings(tmp_path: Path):
    path = tr.write_transcript(tmp_path / "t.jsonl", real_shape_rows())
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert scan_transcript(path).tokens == 29145


def test_compaction_without_reply_uses_post_tokens_not_stale_usage(tmp_path: Path):
    rows = [
        *real_shape_rows(),
        tr.compact_boundary(29145, 2743),
        tr.compact_summary("Chose Redis Cluster."),
        tr.model_attachment("claude-sonnet-4-6"),
        *tr.bookkeeping(),
    ]
    reading = scan_transcript(tr.write_transcript(tmp_path / "t.jsonl", rows))
    assert (reading.tokens, reading.source) == (2743, "compaction")


def test_reply_after_compaction_counts(tmp_path: Path):
    rows = [
        *real_shape_rows(),
        tr.compact_boundary(29145, 2743),
        tr.compact_summary("Chose Redis Cluster."),
        tr.assistant("msg_3", tr.usage(3000, 0, 0, 12)),
        *tr.bookkeeping(),
    ]
    reading = scan_transcript(tr.write_transcript(tmp_path / "t.jsonl", rows))
    assert (reading.tokens, reading.source) == (3012, "usage")
    assert count_compactions(tmp_path / "t.jsonl") == 1


def test_two_compactions_are_counted(tmp_path: Path):
    rows = [
        *real_shape_rows(),
        tr.compact_boundary(29145, 2743),
        tr.compact_summary("one"),
        tr.assistant("msg_3", tr.usage(3000, 0, 0, 12)),
        tr.compact_boundary(3012, 900, trigger="auto"),
        tr.compact_summary("two"),
    ]
    path = tr.write_transcript(tmp_path / "t.jsonl", rows)
    assert count_compactions(path) == 2
    assert scan_transcript(path).tokens == 900


def test_no_usage_yet(tmp_path: Path):
    path = tr.write_transcript(tmp_path / "t.jsonl", [tr.user("hi"), *tr.bookkeeping()])
    reading = scan_transcript(path)
    assert (reading.tokens, reading.source, reading.model) == (0, "none", None)


def test_empty_file(tmp_path: Path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"")
    assert scan_transcript(path).source == "none"
    assert count_compactions(path) == 0


def test_only_sidechain_and_errors_means_no_usage(tmp_path: Path):
    rows = [
        tr.assistant("m", tr.usage(9, 9, 9, 9), sidechain=True),
        tr.api_error(),
        tr.interrupted(),
    ]
    assert scan_transcript(tr.write_transcript(tmp_path / "t.jsonl", rows)).source == "none"


def test_model_sources_in_priority_order(tmp_path: Path):
    rows = [
        tr.model_attachment("claude-opus-4-6[1m]"),
        tr.api_request("claude-opus-4-6", betas=["context-1m-2025-08-07"]),
        tr.assistant("m", tr.usage(10), model="claude-opus-4-6", requested_model=None),
    ]
    reading = scan_transcript(tr.write_transcript(tmp_path / "t.jsonl", rows))
    assert reading.model == "claude-opus-4-6[1m]"
    assert reading.has_1m_beta is True


def test_message_model_is_last_resort(tmp_path: Path):
    rows = [tr.assistant("m", tr.usage(10), model="claude-haiku-4-5", requested_model=None)]
    assert (
        scan_transcript(tr.write_transcript(tmp_path / "t.jsonl", rows)).model == "claude-haiku-4-5"
    )


def test_missing_file_raises_oserror(tmp_path: Path):
    with pytest.raises(FileNotFoundError):
        scan_transcript(tmp_path / "missing.jsonl")
    with pytest.raises(IsADirectoryError):
        scan_transcript(tmp_path)


def test_scan_reads_only_the_end_of_a_big_file(tmp_path: Path):
    filler = [tr.assistant(f"old_{i}", tr.usage(1, 1, 1, 1)) for i in range(5)] + [
        tr.prompt_snapshot(200_000) for _ in range(50)
    ]
    path = tr.write_transcript(tmp_path / "t.jsonl", filler + real_shape_rows())
    reading = scan_transcript(path)
    assert reading.tokens == 29145
    assert reading.bytes_scanned < 400_000 < path.stat().st_size // 10


def test_scan_gives_up_past_the_byte_budget(tmp_path: Path):
    rows = [tr.assistant("m", tr.usage(100))] + [tr.prompt_snapshot(100_000) for _ in range(20)]
    path = tr.write_transcript(tmp_path / "t.jsonl", rows)
    reading = scan_transcript(path, max_bytes=500_000)
    assert (reading.tokens, reading.source, reading.truncated) == (0, "none", True)
    assert scan_transcript(path).tokens == 100


def test_oversized_line_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import context_memory.transcript.rows as transcript

    monkeypatch.setattr(transcript, "MAX_LINE_BYTES", 100_000)
    big = tr.assistant("big", tr.usage(777), text="x" * 600_000)
    path = tr.write_transcript(tmp_path / "t.jsonl", [tr.assistant("small", tr.usage(5)), big])
    assert scan_transcript(path).tokens == 5


def test_iter_lines_backwards_matches_split_for_every_block_size():
    data = b'{"a":1}\n\n{"b":2}\r\n  \n{"c":3}'
    expected = [(len(data), b'{"c":3}'), (17, b'{"b":2}\r'), (7, b'{"a":1}')]
    for block_size in range(1, len(data) + 2):
        assert (
            list(iter_lines_backwards(io.BytesIO(data), len(data), block_size=block_size))
            == expected
        )


def test_rows_with_spaces_after_colons_are_read(tmp_path: Path):
    # The reference sample was re-serialised with spaces; both spellings must parse.
    row = tr.assistant("m", tr.usage(42))
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert scan_transcript(path).tokens == 42


def test_boundary_text_inside_a_message_is_not_a_compaction(tmp_path: Path):
    talk = tr.assistant("m", tr.usage(5), text='the row has "subtype":"compact_boundary" in it')
    path = tr.write_transcript(tmp_path / "t.jsonl", [talk, tr.user("compact_boundary?")])
    assert count_compactions(path) == 0


def test_compaction_count_is_cached_and_incremental(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    import context_memory.transcript.compaction_count as compaction_count

    path = tr.write_transcript(
        tmp_path / "t.jsonl",
        [*real_shape_rows(), tr.compact_boundary(9, 1), tr.compact_summary("s")],
    )
    assert count_compactions(path) == 1
    size_before = path.stat().st_size
    seen_starts: list[int] = []
    real_count = compaction_count.count_boundaries

    def spy(p, start=0):
        seen_starts.append(start)
        return real_count(p, start)

    monkeypatch.setattr(compaction_count, "count_boundaries", spy)
    with path.open("ab") as handle:
        handle.write((json.dumps(tr.compact_boundary(9, 1)) + "\n").encode())
    assert count_compactions(path) == 2
    assert seen_starts == [size_before]
    # A rewritten file (other bytes before the cached offset) is counted from the start.
    tr.write_transcript(path, [tr.user("x")] * 40)
    assert count_compactions(path) == 0
    assert seen_starts[-1] == 0


def test_count_straddling_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import context_memory.transcript.reader as transcript

    monkeypatch.setattr(transcript, "_COUNT_CHUNK", 7)
    rows = [tr.compact_boundary(9, 1), tr.user("x"), tr.compact_boundary(9, 1)]
    path = tr.write_transcript(tmp_path / "t.jsonl", rows)
    path.write_text(path.read_text() + json.dumps(tr.compact_boundary(1, 1)) + "\n")
    assert transcript.count_boundaries(path) == (3, path.stat().st_size, True)
