"""A conversation rewound (Esc Esc, "Restore conversation", or an earlier message edited):
the new prompt is written with the parentUuid of the message taken back, as 2.1.332 writes
it (tests/e2e/test_rewind_e2e.py drives the real client); what capture read from the rows
taken back is dropped, with a drop mark of its own author, and the Stop notice says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from context_memory.capture.engine import Capturer
from context_memory.capture.notice import notice_text
from context_memory.capture.rewind import (
    MAX_PROMPTS,
    REWIND_AUTHOR,
    REWOUND,
    Branches,
    rewound_marker,
    taken_back,
)
from context_memory.capture.store import capture_session
from context_memory.core.decisions_log import live_records, read_records
from helpers.transcript_rows import assistant, usage, write_transcript

SESSION = "ec02a1e1-95f7-4797-b360-0048899b56dd"


def prompt(uuid: str, parent: str | None, text: str, second: int) -> dict[str, Any]:
    """A typed prompt as the client writes it: its own uuid, its parent's, its time."""
    return {
        "type": "user",
        "uuid": uuid,
        "parentUuid": parent,
        "timestamp": f"2026-12-04T03:21:{second:02d}.000Z",
        "isSidechain": False,
        "sessionId": SESSION,
        "message": {"role": "user", "content": text},
    }


def reply(uuid: str, parent: str, text: str, second: int) -> dict[str, Any]:
    row = assistant(f"msg_{uuid}", usage(), text=text)
    row.update(uuid=uuid, parentUuid=parent, timestamp=f"2026-12-04T03:21:{second:02d}.500Z")
    return row


# Two rules typed, then the second taken back and another sent in its place: the new
# prompt's parent is the second's (the first turn's last row), as in the real client.
BEFORE = [
    prompt("p1", None, "always use tabs for indentation", 10),
    reply("a1", "p1", "Okay, tabs.", 10),
    prompt("p2", "a1", "always use moment for dates", 20),
    reply("a2", "p2", "Okay, moment it is.", 20),
]
AFTER = [
    prompt("p3", "a1", "always use date-fns for dates", 30),
    reply("a3", "p3", "Okay, date-fns it is.", 30),
]


def test_a_prompt_sent_from_an_earlier_point_is_a_rewind_marker() -> None:
    capturer = Capturer()
    items = [item for row in BEFORE + AFTER for item in capturer.feed(row)]
    items += capturer.end_run()
    assert [(i["kind"], i.get("decision")) for i in items] == [
        ("constraint", "always use tabs for indentation"),
        ("constraint", "always use moment for dates"),
        (REWOUND, None),
        ("constraint", "always use date-fns for dates"),
    ]
    assert items[2] == rewound_marker("2026-12-04T03:21:20.000Z", "2026-12-04T03:21:30.000Z")


def test_the_branches_carry_across_hook_runs() -> None:
    first = Capturer()
    for row in BEFORE:
        first.feed(row)
    first.end_run()  # a Stop's run ends so
    second = Capturer(json.loads(json.dumps(first.to_state())))
    items = [item for row in AFTER for item in second.feed(row)] + second.end_run()
    assert [i["kind"] for i in items] == [REWOUND, "constraint"]


def test_prompts_in_a_chain_and_the_same_row_read_again_are_no_rewind() -> None:
    branches = Branches()
    assert [branches.prompt(row) for row in BEFORE if row["type"] == "user"] == [None, None]
    assert branches.prompt(BEFORE[2]) is None  # the same row again (a re-read)
    assert branches.prompt(prompt("p4", "a2", "next", 40)) is None


def test_prompts_without_a_parent_or_a_time_are_no_rewind() -> None:
    branches = Branches()
    assert branches.prompt(prompt("p1", None, "first", 10)) is None
    assert branches.prompt(prompt("p2", None, "after a compaction", 20)) is None
    timeless = prompt("p3", "x", "a", 30)
    del timeless["timestamp"]
    assert branches.prompt(timeless) is None
    assert branches.prompt(prompt("p4", "x", "b", 40)) is None  # its twin had no time


def test_a_rewind_takes_the_later_prompts_off_the_conversation() -> None:
    branches = Branches()
    for row in [*BEFORE, *AFTER]:
        if row["type"] == "user":
            branches.prompt(row)
    assert [p[0] for p in branches.to_state()] == ["p1", "p3"]
    # p2 is gone: a prompt from p2's parent again is a rewind past p3 (p3 shares it)
    marker = branches.prompt(prompt("p5", "a1", "always use luxon", 50))
    assert marker == rewound_marker("2026-12-04T03:21:30.000Z", "2026-12-04T03:21:50.000Z")


def test_the_prompts_kept_are_bounded_and_a_damaged_state_is_dropped() -> None:
    branches = Branches()
    for n in range(MAX_PROMPTS + 5):
        branches.prompt(prompt(f"p{n}", f"a{n}", "x", n % 60))
    assert len(branches.to_state()) == MAX_PROMPTS
    assert branches.to_state()[0][0] == "p5"
    damaged = Branches([["p1", "a0"], "x", [1, 2, 3], ["p2", "a1", "t" * 500], None])
    ((uuid, parent, stamp),) = damaged.to_state()
    assert (uuid, parent) == ("p2", "a1")
    assert len(stamp) <= 40 and stamp.startswith("tttt")
    assert Branches({"p1": "a0"}).to_state() == []


def test_taken_back_is_the_sessions_records_between_the_marks() -> None:
    marker = rewound_marker("2026-12-04T03:21:20.000Z", "2026-12-04T03:21:30.000Z")
    live = [
        {"id": "a", "session": SESSION, "row_ts": "2026-12-04T03:21:10.000Z"},
        {"id": "b", "session": SESSION, "row_ts": "2026-12-04T03:21:20.000Z"},
        {"id": "c", "session": SESSION, "row_ts": "2026-12-04T03:21:25.500Z"},
        {"id": "d", "session": SESSION, "row_ts": "2026-12-04T03:21:30.000Z"},
        {"id": "e", "session": "another", "row_ts": "2026-12-04T03:21:25.000Z"},
        {"id": "f", "session": SESSION},  # by hand (ctx-decide): no row
    ]
    assert [r["id"] for r in taken_back(marker, live, SESSION)] == ["b", "c"]
    assert taken_back({"kind": REWOUND, "since": "", "until": "x"}, live, SESSION) == []


@pytest.fixture
def state(tmp_path: Path) -> Path:
    folder = tmp_path / ".working-state"
    folder.mkdir()
    return folder


def test_capture_drops_what_a_rewind_took_back(state: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "session.jsonl"
    write_transcript(transcript, BEFORE)
    first = capture_session(str(state), SESSION, str(transcript))
    assert [r["decision"] for r in first.added] == [
        "always use tabs for indentation",
        "always use moment for dates",
    ]
    moment = first.added[1]
    write_transcript(transcript, BEFORE + AFTER)
    second = capture_session(str(state), SESSION, str(transcript))
    assert [r["decision"] for r in second.added] == ["always use date-fns for dates"]
    assert [r["id"] for r in second.dropped] == [moment["id"]]
    marks: list[dict[str, Any]] = []
    read_records(str(state), None, marks)
    assert [(m["kind"], m["target"], m["author"]) for m in marks] == [
        ("drop", moment["id"], REWIND_AUTHOR)
    ]
    assert [r["decision"] for r in live_records(str(state))[0]] == [
        "always use tabs for indentation",
        "always use date-fns for dates",
    ]


def test_a_rule_typed_again_after_the_rewind_is_captured_again(state: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "session.jsonl"
    write_transcript(transcript, BEFORE)
    capture_session(str(state), SESSION, str(transcript))
    again = [prompt("p3", "a1", "always use moment for dates", 30)]
    write_transcript(transcript, BEFORE + again)
    result = capture_session(str(state), SESSION, str(transcript))
    assert [r["uuid"] for r in result.added] == ["p3"]
    assert [r["uuid"] for r in live_records(str(state))[0]] == ["p1", "p3"]


def test_a_rewind_read_in_the_same_run_drops_what_that_run_added(
    state: Path, tmp_path: Path
) -> None:
    transcript = write_transcript(tmp_path / "session.jsonl", BEFORE + AFTER)
    result = capture_session(str(state), SESSION, str(transcript))
    assert [r["decision"] for r in result.dropped] == ["always use moment for dates"]
    assert [r["decision"] for r in live_records(str(state))[0]] == [
        "always use tabs for indentation",
        "always use date-fns for dates",
    ]
    text = notice_text(result.added, result.dropped)
    assert text is not None
    assert text.splitlines()[0] == (
        "context-memory captured 2 records (ctx-decide --drop ID retracts one):"
    )
    assert "dropped" not in text  # added and dropped in one run: in neither list


def test_the_notice_lists_the_records_a_rewind_dropped(state: Path, tmp_path: Path) -> None:
    transcript = write_transcript(tmp_path / "session.jsonl", BEFORE)
    capture_session(str(state), SESSION, str(transcript))
    write_transcript(transcript, BEFORE + AFTER)
    result = capture_session(str(state), SESSION, str(transcript))
    (dropped,) = result.dropped
    assert notice_text([], result.dropped) == (
        "context-memory dropped 1 record: the conversation was rewound to before it:\n"
        f"{dropped['id']} constraint (user): always use moment for dates"
    )
