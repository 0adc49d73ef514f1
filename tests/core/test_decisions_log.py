"""The decisions log's one reader (core/decisions_log): the tail a reader asks for, the
lines it parses, and the readers that use it (the [WORKING STATE] pointer, ctx-budget's
turn-start text) taking each record once and leaving out what a mark retires; and the line
a record reads as in the texts they inject."""

from __future__ import annotations

import json
from pathlib import Path

from context_memory.core import decisions_log
from context_memory.core.decisions_log import decision_line, live_records, read_records
from context_memory.core.tables import DECISION_LINE_TEXTS
from context_memory.measure.turn_start import session_decisions
from context_memory.memory import pointer
from context_memory.memory.decisions import append_record, make_mark_record, make_record

SESSION = "11111111-2222-3333-4444-555555555555"
OTHER = "99999999-2222-3333-4444-555555555555"


def record(state: Path, kind: str, text: str, session: str = SESSION) -> dict[str, object]:
    entry = make_record(kind, text, session=session, ts="2026-11-30T09:00:00Z")
    append_record(state, entry)
    return entry


def line(number: int) -> bytes:
    entry = {"id": f"id{number}", "session": SESSION, "kind": "decided", "decision": f"d{number}"}
    return json.dumps(entry).encode() + b"\n"


def test_a_tail_starts_at_the_first_whole_line(tmp_path: Path) -> None:
    """A cut that falls on a line's start keeps that line; a cut inside one drops its rest."""
    lines = [line(n) for n in range(1, 6)]
    (tmp_path / "decisions.jsonl").write_bytes(b"".join(lines))
    whole = sum(len(item) for item in lines[2:])
    records, problems = read_records(tmp_path, tail_bytes=whole)
    assert ([r["id"] for r in records], problems) == (["id3", "id4", "id5"], [])
    records, _ = read_records(tmp_path, tail_bytes=whole - 1)
    assert [r["id"] for r in records] == ["id4", "id5"]


def test_a_log_past_the_bound_reads_its_end_and_says_so(tmp_path, monkeypatch) -> None:
    lines = [line(n) for n in range(1, 6)]
    (tmp_path / "decisions.jsonl").write_bytes(b"".join(lines))
    monkeypatch.setattr(decisions_log, "MAX_LOG_BYTES", sum(len(item) for item in lines[1:]))
    records, problems = read_records(tmp_path)
    assert [r["id"] for r in records] == ["id2", "id3", "id4", "id5"]
    assert [(p.line, p.reason) for p in problems] == [
        (0, f"larger than {decisions_log.MAX_LOG_BYTES} bytes; only its end was read")
    ]


def test_only_wanted_lines_are_parsed(tmp_path: Path) -> None:
    """A line without a wanted string is passed over unread (no problem for a bad one)."""
    (tmp_path / "decisions.jsonl").write_bytes(line(1) + b"{not json, no id\n" + line(2))
    records, problems = read_records(tmp_path, wanted=[b'"id2"'])
    assert ([r["id"] for r in records], problems) == (["id2"], [])
    _, problems = read_records(tmp_path)
    assert [(p.line, p.reason) for p in problems] == [(2, "not valid JSON")]


def test_a_half_written_last_line_is_a_problem_without_a_parse(tmp_path: Path) -> None:
    (tmp_path / "decisions.jsonl").write_bytes(line(1) + b'{"id": "id2", "kind": "dec')
    records, problems = read_records(tmp_path)
    assert [r["id"] for r in records] == ["id1"]
    assert [(p.line, p.reason) for p in problems] == [(2, "half-written last line")]


def test_turn_start_takes_a_union_merge_repeat_once_and_skips_retired(tmp_path: Path) -> None:
    """Before the one reader: a record git's union merge left twice was injected twice."""
    kept = record(tmp_path, "decided", "Use Redis Cluster")
    dropped = record(tmp_path, "rejected", "Codis")
    record(tmp_path, "decided", "Another session's", session=OTHER)
    append_record(tmp_path, kept)  # the other side's copy of the same line
    append_record(tmp_path, make_mark_record("drop", str(dropped["id"]), session=SESSION))
    lines, used, more = session_decisions(str(tmp_path), SESSION, "en")
    assert [r["id"] for r in used] == [kept["id"]]
    assert (len(lines), more) == (1, False)
    assert lines[0].startswith("- Decided: Use Redis Cluster")


def test_the_pointer_and_live_records_agree(tmp_path: Path) -> None:
    """The pointer's rejections are the live records' (dropped ones out, repeats once)."""
    first = record(tmp_path, "rejected", "Codis")
    second = record(tmp_path, "rejected", "Twemproxy")
    append_record(tmp_path, first)
    append_record(tmp_path, make_mark_record("drop", str(second["id"]), session=SESSION))
    live, _ = live_records(tmp_path)
    assert [r["id"] for r in live] == [first["id"]]
    assert pointer.recent_rejections(str(tmp_path)) == ["Codis"]


def test_newest_records_are_live_records_in_reverse(tmp_path: Path) -> None:
    """Read backwards line by line, the log gives the same live records, newest first; a
    union merge's copy counts once, where its newest line is."""
    first = record(tmp_path, "decided", "Use Redis Cluster")
    second = record(tmp_path, "rejected", "Codis")
    third = record(tmp_path, "constraint", "No new services")
    append_record(tmp_path, make_mark_record("drop", str(second["id"]), session=SESSION))
    with (tmp_path / "decisions.jsonl").open("ab") as handle:
        handle.write(b'{"half": ')

    def newest() -> list[object]:
        lines = (tmp_path / "decisions.jsonl").read_bytes().split(b"\n")
        return [r["id"] for r in decisions_log.newest_records(reversed(lines))]

    live, _ = live_records(tmp_path)
    assert newest() == [r["id"] for r in reversed(live)] == [third["id"], first["id"]]
    (tmp_path / "decisions.jsonl").write_bytes(
        (tmp_path / "decisions.jsonl").read_bytes().rsplit(b"\n", 1)[0] + b"\n"
    )
    append_record(tmp_path, first)  # the other side's copy, after the others
    assert newest() == [first["id"], third["id"]]


def test_a_record_reads_as_its_kinds_line_with_its_reason_and_who_stated_it() -> None:
    english, chinese = DECISION_LINE_TEXTS["en"], DECISION_LINE_TEXTS["zh"]
    assert decision_line(english, "rejected", "moment", "too big", True) == (
        "- Rejected: moment (why: too big) (stated by the user) Do not propose it again."
    )
    assert decision_line(english, "decided", "use pnpm", None, False) == "- Decided: use pnpm"
    assert decision_line(english, "constraint", "no network", None, True) == (
        "- Constraint: no network (stated by the user)"
    )
    # Another kind reads as decided; an empty reason is still a reason (None is none).
    assert decision_line(english, "risk", "flaky CI", "", False) == "- Decided: flaky CI (why: )"
    assert decision_line(chinese, "constraint", "不联网", "离线", True) == (
        "- 约束：不联网（理由：离线）（用户所说）"
    )
