"""ctx-merge gives the same bytes on every clone: no file times, directory order or merge
time in decisions.md and decisions.json."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

from context_memory.core.isotime import parse_time
from context_memory.merge import rules as merge_rules
from context_memory.merge import sources as merge_sources
from context_memory.merge.run import run_merge
from context_memory.merge.sources import date_untimed_handoffs, scan_handoffs
from helpers.handoff_files import write_handoff

HANDOFFS = [
    ("a1b2", 1, "2026-11-30T09:00:00Z", {"decided": ["Cache: use Redis (fast)"]}),
    ("a1b2", 2, None, {"rejected": ["Cache - Redis (too big)"], "remaining": ["a"]}),
    ("c3d4", 1, "2026-11-30T09:00:00Z", {"decided": ["Queue: use SQS"], "risks": ["cost"]}),
    ("c3d4", 2, "2026-11-30T10:00:00Z", {"decided": ["Queue: use Kafka"], "files": ["q.py"]}),
    ("e5f6", 1, "2026-11-30T09:30:00Z", {"rejected": ["Memcached (no persistence)"]}),
]


def stamp(text: str) -> float:
    value = parse_time(text)
    assert value is not None
    return value


def clone(state: Path, order: list[int], chooser: random.Random) -> None:
    """The handoffs written in ``order``, with random file times (git sets them at checkout)."""
    for index in order:
        session, stage, time, items = HANDOFFS[index]
        path = write_handoff(state, session, stage, time, **items)
        moment = 1_790_000_000 + chooser.randrange(10**7)
        os.utime(path, (moment, moment))


def merged_bytes(state: Path, now: str) -> dict[str, bytes]:
    outcome = run_merge(str(state), stamp(now), force=True)
    assert outcome.action == "merged"
    folder = state / "merged"
    return {name: (folder / name).read_bytes() for name in ("decisions.md", "decisions.json")}


def test_same_handoffs_same_bytes_whatever_the_file_times_order_and_merge_time(
    tmp_path: Path,
) -> None:
    chooser = random.Random(1611)
    results = []
    for number in range(4):
        state = tmp_path / f"clone{number}" / ".working-state"
        order = list(range(len(HANDOFFS)))
        chooser.shuffle(order)
        clone(state, order, chooser)
        (state / "sessions" / "zz-broken" / "handoffs").mkdir(parents=True)
        (state / "sessions" / "zz-broken" / "handoffs" / "stage-1.md").write_text("no sections")
        results.append(merged_bytes(state, f"2026-12-0{number + 1}T12:00:00Z"))
    assert all(result == results[0] for result in results[1:])
    text = results[0]["decisions.md"].decode()
    assert "2026-12-0" not in text  # no merge time
    assert str(tmp_path) not in text  # no clone path: skipped files are named relative
    assert "- sessions/zz-broken/handoffs/stage-1.md: missing sections" in text


def test_an_untimed_stage_takes_its_sessions_recorded_time_not_its_file_time(
    tmp_path: Path,
) -> None:
    state = tmp_path / ".working-state"
    clone(state, [0, 1, 2, 3, 4], random.Random(5))
    handoffs, future, problems = scan_handoffs(str(state), stamp("2026-12-01T00:00:00Z"))
    assert (future, problems) == ([], [])
    assert [
        (h.session, h.stage, h.time_source, merge_rules.iso_time(h.time)) for h in handoffs
    ] == [
        ("a1b2", 1, "front matter", "2026-11-30T09:00:00Z"),
        ("a1b2", 2, "stage 1", "2026-11-30T09:00:00Z"),
        ("c3d4", 1, "front matter", "2026-11-30T09:00:00Z"),
        ("e5f6", 1, "front matter", "2026-11-30T09:30:00Z"),
        ("c3d4", 2, "front matter", "2026-11-30T10:00:00Z"),
    ]


def test_an_untimed_first_stage_takes_the_next_recorded_time() -> None:
    def handoff(stage: int, time: float | None) -> merge_sources.HandoffFile:
        source = "front matter" if time is not None else "undated"
        return merge_sources.HandoffFile("p", "s", stage, time, source, {})

    handoffs = [handoff(1, None), handoff(2, 500.0), handoff(3, None), handoff(4, 900.0)]
    date_untimed_handoffs(handoffs)
    assert [(h.time, h.time_source) for h in handoffs] == [
        (500.0, "stage 2"),
        (500.0, "front matter"),
        (500.0, "stage 2"),
        (900.0, "front matter"),
    ]
    alone = [handoff(1, None)]
    date_untimed_handoffs(alone)  # nothing recorded in the whole session: stays undated
    assert [(h.time, h.time_source) for h in alone] == [(None, "undated")]


def test_a_copied_state_folder_merges_to_the_same_bytes(tmp_path: Path) -> None:
    first = tmp_path / "a" / ".working-state"
    clone(first, [0, 1, 2, 3, 4], random.Random(7))
    expected = merged_bytes(first, "2026-12-01T00:00:00Z")
    second = tmp_path / "b" / ".working-state"
    shutil.copytree(first / "sessions", second / "sessions")
    assert merged_bytes(second, "2027-01-01T00:00:00Z") == expected
