"""context_memory.merge.merge: normalisation, subjects, the override rule, ordering, rendering,
the gates and the publishing of a merge (pure functions and the file layer)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from context_memory.core.isotime import parse_time
from context_memory.merge import merge
from context_memory.merge import publish as merge_publish
from context_memory.merge.gates import (
    backoff_delays,
    check_gates,
    read_settings,
    session_gate,
    take_lock,
    time_gate,
)
from context_memory.merge.layout import GATE_SESSIONS, GATE_TIME, MergeError, Problem
from context_memory.merge.merge import merge_handoffs
from context_memory.merge.render import render_markdown, result_data
from context_memory.merge.rules import normalise, reason_of, subject_of
from context_memory.merge.sources import count_new_sessions, scan_handoffs
from helpers.handoff_files import handoff, write_handoff
from helpers.merged_text import MERGED_HEAD_TWO_SESSIONS

HOUR = 3600.0
T0 = "2026-11-01T09:00:00Z"


def stamp(text: str) -> float:
    value = parse_time(text)
    assert value is not None
    return value


def texts(entries: list[merge.Entry]) -> list[tuple[str, str, int]]:
    return [(entry.text, entry.session, entry.stage) for entry in entries]


# --------------------------------------------------------------------------- text rules


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Use Redis", "use redis"),  # case
        ("Use  Redis\t", " Use Redis"),  # whitespace
        ("Ｕｓｅ Ｒｅｄｉｓ", "Use Redis"),  # full-width letters
        ("Use Redis.", "Use Redis"),  # trailing punctuation
        ("Use Redis!!", "use redis;"),
        ("Use Redis：", "Use Redis"),  # full-width colon folds, then is stripped
        ("使用 Redis 集群。", "使用Redis集群"),  # CJK spacing and the ideographic full stop
        ("使用Ｒｅｄｉｓ集群！", "使用 redis 集群"),
        ("改用 PostgreSQL、", "改用PostgreSQL"),
    ],
)
def test_normalised_duplicates(a: str, b: str) -> None:
    assert normalise(a) == normalise(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Use Redis", "Use Redis Cluster"),
        ("use red is", "use redis"),  # a space between Latin words separates them
        ("Use Redis (v6)", "Use Redis (v7)"),
        ("使用 Redis 集群", "使用 Redis 单机"),
    ],
)
def test_different_entries_stay_different(a: str, b: str) -> None:
    assert normalise(a) != normalise(b)


def test_normalise_exact_forms() -> None:
    assert normalise("  Use   Ｒｅｄｉｓ Cluster.  ") == "use redis cluster"
    assert normalise("使用 Redis 集群。") == "使用redis集群"
    assert normalise("Straße...") == "strasse"


@pytest.mark.parametrize(
    ("text", "subject", "reason"),
    [
        ("Codis (unmaintained)", "codis", "unmaintained"),
        ("Codis（不再维护）", "codis", "不再维护"),
        ("Ｃｏｄｉｓ （不再维护）", "codis", "不再维护"),
        ("Redis: cluster mode", "redis", "cluster mode"),
        ("数据库：PostgreSQL", "数据库", "PostgreSQL"),
        ("Redis - too costly", "redis", "too costly"),
        ("Redis — too costly", "redis", "too costly"),
        ("read-through cache", "read-through cache", ""),  # a hyphen without spaces is a word
        ("Use Redis Cluster, 6 nodes (needs sharding)", "redis cluster, 6 nodes", "needs sharding"),
        ("A: b (c)", "a", "b (c)"),  # the first separator wins
        ("A (b: c)", "a", "b: c"),
        ("使用 MongoDB（灵活的文档模型）", "mongodb", "灵活的文档模型"),
        (
            "(a note that starts with a parenthesis)",
            "(a note that starts with a parenthesis)",
            "a note that starts with a parenthesis",
        ),
        ("Plain entry.", "plain entry", ""),
        ("Redis", "redis", ""),
    ],
)
def test_subject_and_reason(text: str, subject: str, reason: str) -> None:
    """The subject an entry is merged on, and its reason (what it says in brackets or after
    the separator)."""
    assert (subject_of(text), reason_of(text)) == (subject, reason)


def test_parse_time() -> None:
    assert parse_time("2026-11-30T09:10:51Z") == 1796029851.0
    assert parse_time("2026-11-30T17:10:51+08:00") == 1796029851.0
    assert parse_time("2026-11-30T09:10:51") == 1796029851.0  # no offset: UTC
    assert parse_time("2026-11-30") == 1795996800.0
    assert parse_time("yesterday") is None
    assert parse_time("") is None


# --------------------------------------------------------------------------- the override rule


def at(entry: merge.Entry) -> str:
    """An entry as "text @session/stage"."""
    return f"{entry.text} @{entry.session}/{entry.stage}"


def overrides(result: merge.MergeResult) -> list[tuple[str, str, bool]]:
    """Each override as (what it replaced, what replaced it, whether that reversed it)."""
    return [(at(o.entry), at(o.by), o.reversed) for o in result.overridden]


REVERSAL = [
    handoff("s1", 1, "2026-11-01T09:00:00Z", decided=["Codis (cheap, we know it)"]),
    handoff("s1", 2, "2026-11-01T10:00:00Z", decided=["Redis Cluster (sharding)"]),
    handoff("s1", 3, "2026-11-01T11:00:00Z", rejected=["Codis (unmaintained)"]),
]
DECIDED_AND_REJECTED = handoff(
    "s1",
    1,
    "2026-11-01T09:00:00Z",
    decided=["Cache: Redis"],
    rejected=["Cache: Memcached (no persistence)"],
)


def case(
    name: str,
    handoffs: list[Any],
    *,
    decided: Sequence[tuple[str, str, int]] = (),
    rejected: Sequence[tuple[str, str, int]] = (),
    overridden: Sequence[tuple[str, str, bool]] = (),
) -> Any:
    """A case of the override rule: what the merge of ``handoffs`` keeps and overrides."""
    return pytest.param(handoffs, list(decided), list(rejected), list(overridden), id=name)


OVERRIDE_CASES = [
    case(
        "a-later-rejection-reverses-an-earlier-decision",
        REVERSAL,
        decided=[("Redis Cluster (sharding)", "s1", 2)],
        rejected=[("Codis (unmaintained)", "s1", 3)],
        overridden=[("Codis (cheap, we know it) @s1/1", "Codis (unmaintained) @s1/3", True)],
    ),
    case(
        "a-later-decision-revives-an-earlier-rejection",
        [
            handoff("a", 1, "2026-11-01T09:00:00Z", decided=["SQLite: simplest"]),
            handoff("b", 1, "2026-11-02T09:00:00Z", rejected=["SQLite - no concurrent writers"]),
            handoff("c", 4, "2026-11-03T09:00:00Z", decided=["sqlite (WAL mode fixes writers)"]),
        ],
        decided=[("sqlite (WAL mode fixes writers)", "c", 4)],
        overridden=[
            ("SQLite: simplest @a/1", "SQLite - no concurrent writers @b/1", True),
            ("SQLite - no concurrent writers @b/1", "sqlite (WAL mode fixes writers) @c/4", True),
        ],
    ),
    case(
        "exact-and-normalised-duplicates-are-dropped-keeping-the-first",
        [
            handoff(
                "s1", 1, "2026-11-01T09:00:00Z", decided=["Use Redis Cluster", "Use Redis Cluster"]
            ),
            handoff("s2", 1, "2026-11-02T09:00:00Z", decided=["use  redis cluster."]),
            handoff("s3", 2, "2026-11-03T09:00:00Z", decided=["Ｕｓｅ Ｒｅｄｉｓ Ｃｌｕｓｔｅｒ"]),
            handoff("s4", 1, "2026-11-04T09:00:00Z", rejected=["Codis", "codis!"]),
        ],
        decided=[("Use Redis Cluster", "s1", 1)],
        rejected=[("Codis", "s4", 1)],
    ),
    case(
        "a-restated-decision-with-another-reason-replaces-the-earlier",
        [
            handoff("s1", 1, "2026-11-01T09:00:00Z", decided=["Redis: 6 nodes"]),
            handoff("s1", 2, "2026-11-01T10:00:00Z", decided=["Redis: 9 nodes (load test)"]),
        ],
        decided=[("Redis: 9 nodes (load test)", "s1", 2)],
        overridden=[("Redis: 6 nodes @s1/1", "Redis: 9 nodes (load test) @s1/2", False)],
    ),
    case(
        "one-handoff-may-decide-and-reject-on-one-subject",
        [
            DECIDED_AND_REJECTED,
            handoff("s2", 1, "2026-11-02T09:00:00Z", decided=["cache: redis"]),  # restated
        ],
        decided=[("Cache: Redis", "s1", 1)],
        rejected=[("Cache: Memcached (no persistence)", "s1", 1)],
    ),
    case(
        "a-later-decision-overrides-both-of-one-handoff",
        [
            DECIDED_AND_REJECTED,
            handoff("s2", 1, "2026-11-02T09:00:00Z", decided=["Cache: none for now"]),
        ],
        decided=[("Cache: none for now", "s2", 1)],
        overridden=[
            ("Cache: Redis @s1/1", "Cache: none for now @s2/1", False),
            ("Cache: Memcached (no persistence) @s1/1", "Cache: none for now @s2/1", True),
        ],
    ),
]


@pytest.mark.parametrize(("handoffs", "decided", "rejected", "overridden"), OVERRIDE_CASES)
def test_the_override_rule(
    handoffs: list[Any],
    decided: list[tuple[str, str, int]],
    rejected: list[tuple[str, str, int]],
    overridden: list[tuple[str, str, bool]],
) -> None:
    result = merge_handoffs(handoffs)
    assert texts(result.decided) == decided
    assert texts(result.rejected) == rejected
    assert overrides(result) == overridden


def test_a_rejection_that_reverses_a_decision_keeps_its_subject_and_reason() -> None:
    assert merge_handoffs(REVERSAL).rejected[0].as_dict() == {
        "kind": "rejected",
        "text": "Codis (unmaintained)",
        "subject": "codis",
        "reason": "unmaintained",
        "session": "s1",
        "stage": 3,
        "time": "2026-11-01T11:00:00Z",
    }


def test_chinese_entries_override_and_deduplicate() -> None:
    result = merge_handoffs(
        [
            handoff(
                "会话1",
                1,
                "2026-11-01T09:00:00Z",
                decided=["使用 MongoDB（灵活的文档模型）", "采用 Redis 集群。"],
            ),
            handoff(
                "会话2",
                3,
                "2026-11-02T09:00:00Z",
                decided=["采用Redis集群"],
                rejected=["使用MongoDB：不支持多文档事务"],
            ),
        ]
    )
    assert texts(result.decided) == [("采用 Redis 集群。", "会话1", 1)]  # first made, kept
    assert texts(result.rejected) == [("使用MongoDB：不支持多文档事务", "会话2", 3)]
    assert [(o.entry.text, o.by.text) for o in result.overridden] == [
        ("使用 MongoDB（灵活的文档模型）", "使用MongoDB：不支持多文档事务")
    ]
    assert result.rejected[0].as_dict()["reason"] == "不支持多文档事务"
    assert result.rejected[0].as_dict()["subject"] == "mongodb"


def test_risks_are_deduplicated_and_files_and_remaining_come_from_each_sessions_newest() -> None:
    result = merge_handoffs(
        [
            handoff(
                "s1",
                1,
                "2026-11-01T09:00:00Z",
                risks=["Memory pressure on node 3"],
                files=["old.py"],
                remaining=["old task"],
            ),
            handoff("s2", 1, "2026-11-01T10:00:00Z", risks=["memory pressure on node 3."]),
            handoff(
                "s1",
                2,
                "2026-11-02T09:00:00Z",
                risks=["Disk fills up"],
                files=["new.py"],
                remaining=["new task"],
            ),
        ]
    )
    assert texts(result.risks) == [
        ("Memory pressure on node 3", "s1", 1),
        ("Disk fills up", "s1", 2),
    ]
    assert [(h.session, h.stage, h.sections["Files Modified"]) for h in result.latest] == [
        ("s1", 2, ["new.py"]),
        ("s2", 1, []),
    ]
    assert result.latest[0].sections["Remaining"] == ["new task"]
    assert (result.handoffs, result.sessions) == (3, ["s1", "s2"])


# --------------------------------------------------------------------------- reading the files


def test_handoffs_are_ordered_by_front_matter_time_then_session_then_stage(tmp_path: Path) -> None:
    state = tmp_path / "state"
    # Stage numbers and file times say the opposite of the front matter.
    write_handoff(state, "s1", 1, "2026-11-03T09:00:00Z", rejected=["Codis (unmaintained)"])
    write_handoff(state, "s1", 2, "2026-11-01T09:00:00Z", decided=["Codis (cheap)"])
    write_handoff(state, "s2", 1, "2026-11-02T09:00:00Z", decided=["Redis"])
    write_handoff(state, "s0", 7, "2026-11-02T09:00:00Z", decided=["Kafka"])  # same time as s2
    write_handoff(state, "s0", 3, "2026-11-02T09:00:00Z", decided=["Kafka (3 brokers)"])
    # No time in the front matter: undated, below every dated handoff, whatever its file
    # time says (here: after all of them).
    no_time = write_handoff(state, "s3", 1, None, decided=["Codis (fixed upstream)"])
    os.utime(no_time, (stamp("2026-11-04T00:00:00Z"), stamp("2026-11-04T00:00:00Z")))
    for path in (state / "sessions").glob("s[012]/handoffs/*.md"):
        os.utime(path, (stamp("2026-12-01T00:00:00Z"),) * 2)

    handoffs, future, problems = scan_handoffs(str(state), stamp("2026-12-01T00:00:00Z"))
    assert (future, problems) == ([], [])
    assert [(h.session, h.stage, h.time_source) for h in handoffs] == [
        ("s3", 1, "undated"),
        ("s1", 2, "front matter"),
        ("s0", 3, "front matter"),
        ("s0", 7, "front matter"),
        ("s2", 1, "front matter"),
        ("s1", 1, "front matter"),
    ]
    assert handoffs[0].time is None
    result = merge_handoffs(handoffs)
    assert texts(result.decided) == [("Kafka", "s0", 7), ("Redis", "s2", 1)]
    assert [o.entry.text for o in result.overridden] == [
        "Codis (fixed upstream)",
        "Kafka (3 brokers)",
        "Codis (cheap)",
    ]


def test_corrupt_and_half_written_handoffs_are_reported_and_skipped(tmp_path: Path) -> None:
    state = tmp_path / "state"
    good = write_handoff(state, "good", 1, T0, decided=["Redis"])
    full = good.read_text()
    folder = state / "sessions" / "bad" / "handoffs"
    folder.mkdir(parents=True)
    (folder / "stage-1.md").write_text(full[: full.index("## Risks")])  # cut off mid-write
    (folder / "stage-2.md").write_bytes(b"---\nsession: bad\n\xff\xfe")
    (folder / "stage-3.md").write_text("---\nsession: bad\nstage: 3\n")
    (folder / "stage-4.md").write_text(full.replace("## Risks", "## Risk"))
    (folder / ".stage-5.md.abc.tmp").write_text("an atomic write in progress")
    (state / "sessions" / ".hidden").mkdir()

    handoffs, _, problems = scan_handoffs(str(state), stamp(T0))
    assert [(h.session, h.stage) for h in handoffs] == [("good", 1)]
    assert [(p.path, p.reason) for p in problems] == [
        (
            str(state / "sessions" / ".hidden"),
            "session id '.hidden' is not allowed: use letters, digits, '.', '_' or '-' "
            "(no '/', no '..', not starting with '.')",
        ),
        (
            str(folder / "stage-1.md"),
            "missing sections '## Risks', '## Files Modified', '## Remaining'",
        ),
        (str(folder / "stage-2.md"), "not UTF-8 text at byte 17 (half-written or not a handoff)"),
        (str(folder / "stage-3.md"), "front matter opened with '---' is never closed"),
        (
            str(folder / "stage-4.md"),
            "unknown section '## Risk'; did you mean '## Risks'? (expected: ## Decided, "
            "## Rejected, ## Risks, ## Files Modified, ## Remaining)",
        ),
    ]


def test_no_state_folder_means_no_handoffs(tmp_path: Path) -> None:
    assert scan_handoffs(str(tmp_path / "missing"), stamp(T0)) == ([], [], [])
    assert count_new_sessions(str(tmp_path / "missing"), None) == 0


# --------------------------------------------------------------------------- rendering


def sample_result() -> merge.MergeResult:
    return merge_handoffs(
        [
            handoff(
                "s1",
                1,
                "2026-11-01T09:00:00Z",
                decided=["Codis (cheap)", "Redis Cluster, 6 nodes (sharding)"],
                risks=["Memory pressure"],
                files=["a.py"],
                remaining=["wire the cache"],
            ),
            handoff(
                "s2",
                3,
                "2026-11-02T10:30:00Z",
                rejected=["Codis (unmaintained)"],
                risks=["memory pressure."],
                files=["b.py", "c.py"],
            ),
        ]
    )


def test_render_markdown_is_exact() -> None:
    skipped = [Problem("/p/.working-state/sessions/x/handoffs/stage-1.md", "missing section")]
    text = render_markdown(sample_result(), skipped)
    assert text == MERGED_HEAD_TWO_SESSIONS + (
        "\n"
        "## Decided\n"
        "\n"
        "- Redis Cluster, 6 nodes (sharding) — session s1, stage 1, 2026-11-01\n"
        "\n"
        "## Rejected\n"
        "\n"
        "- Codis (unmaintained) — session s2, stage 3, 2026-11-02\n"
        "\n"
        "## Overridden\n"
        "\n"
        "- Decided: Codis (cheap) — session s1, stage 1, 2026-11-01; reversed by Rejected: "
        "Codis (unmaintained) — session s2, stage 3, 2026-11-02\n"
        "\n"
        "## Risks\n"
        "\n"
        "- Memory pressure — session s1, stage 1, 2026-11-01\n"
        "\n"
        "## Remaining\n"
        "\n"
        "From the newest handoff of each session, newest first.\n"
        "\n"
        "### Session s1 (stage 1, 2026-11-01)\n"
        "- wire the cache\n"
        "\n"
        "## Files Modified\n"
        "\n"
        "From the newest handoff of each session, newest first.\n"
        "\n"
        "### Session s2 (stage 3, 2026-11-02)\n"
        "- b.py\n"
        "- c.py\n"
        "### Session s1 (stage 1, 2026-11-01)\n"
        "- a.py\n"
        "\n"
        "## Skipped handoffs\n"
        "\n"
        "- /p/.working-state/sessions/x/handoffs/stage-1.md: missing section\n"
    )


def test_empty_sections_say_none() -> None:
    result = merge_handoffs([handoff("s1", 1, T0)])
    text = render_markdown(result, [])
    assert "## Decided\n\n- none\n\n## Rejected\n\n- none\n\n## Overridden\n\n- none\n" in text
    assert text.endswith("## Remaining\n\n- none\n\n## Files Modified\n\n- none\n")
    assert "from 1 handoff of 1 session, written 2026-11-01 to 2026-11-01." in text


def test_result_data_is_the_same_record_as_data() -> None:
    skipped = [Problem("/x/stage-1.md", "missing section")]
    data = result_data(sample_result(), skipped)
    assert json.loads(json.dumps(data)) == {
        "version": 1,
        "handoffs": 2,
        "sessions": 2,
        "decided": [
            {
                "kind": "decided",
                "text": "Redis Cluster, 6 nodes (sharding)",
                "subject": "redis cluster, 6 nodes",
                "reason": "sharding",
                "session": "s1",
                "stage": 1,
                "time": "2026-11-01T09:00:00Z",
            }
        ],
        "rejected": [
            {
                "kind": "rejected",
                "text": "Codis (unmaintained)",
                "subject": "codis",
                "reason": "unmaintained",
                "session": "s2",
                "stage": 3,
                "time": "2026-11-02T10:30:00Z",
            }
        ],
        "overridden": [
            {
                "kind": "decided",
                "text": "Codis (cheap)",
                "subject": "codis",
                "reason": "cheap",
                "session": "s1",
                "stage": 1,
                "time": "2026-11-01T09:00:00Z",
                "change": "reversed",
                "overridden_by": {
                    "kind": "rejected",
                    "text": "Codis (unmaintained)",
                    "subject": "codis",
                    "reason": "unmaintained",
                    "session": "s2",
                    "stage": 3,
                    "time": "2026-11-02T10:30:00Z",
                },
            }
        ],
        "risks": [
            {
                "kind": "risk",
                "text": "Memory pressure",
                "session": "s1",
                "stage": 1,
                "time": "2026-11-01T09:00:00Z",
            }
        ],
        "latest": [
            {
                "session": "s2",
                "stage": 3,
                "time": "2026-11-02T10:30:00Z",
                "remaining": [],
                "files_modified": ["b.py", "c.py"],
            },
            {
                "session": "s1",
                "stage": 1,
                "time": "2026-11-01T09:00:00Z",
                "remaining": ["wire the cache"],
                "files_modified": ["a.py"],
            },
        ],
        "skipped": [{"path": "/x/stage-1.md", "reason": "missing section"}],
    }


# --------------------------------------------------------------------------- gates


def test_time_gate() -> None:
    now = stamp("2026-11-30T12:00:00Z")
    assert time_gate(None, now, 24).passed
    assert time_gate(now - 24 * HOUR, now, 24).passed
    assert time_gate(now - 3 * HOUR, now, 0).passed
    closed = time_gate(now - 3.25 * HOUR, now, 24)
    assert (closed.gate, closed.passed, closed.reason) == (
        GATE_TIME,
        False,
        "the last merge was 3.2 hours ago (2026-11-30T08:45:00Z); merges are at least "
        "24 hours apart (CTX_MERGE_MIN_HOURS)",
    )
    assert time_gate(now - 300, now, 1.5).reason == (
        "the last merge was 5 minutes ago (2026-11-30T11:55:00Z); merges are at least "
        "1.5 hours apart (CTX_MERGE_MIN_HOURS)"
    )
    assert time_gate(now + HOUR, now, 24).reason == (
        "the last merge (2026-11-30T13:00:00Z) is later than now (2026-11-30T12:00:00Z); "
        "run with --force to merge anyway"
    )


def test_session_gate() -> None:
    last = stamp("2026-11-29T12:00:00Z")
    assert session_gate(5, last, 5).passed
    assert session_gate(0, None, 0).passed
    closed = session_gate(4, last, 5)
    assert (closed.gate, closed.passed, closed.reason) == (
        GATE_SESSIONS,
        False,
        "4 sessions have handoffs newer than the last merge (2026-11-29T12:00:00Z); "
        "5 needed (CTX_MERGE_MIN_SESSIONS)",
    )
    assert session_gate(1, None, 5).reason == (
        "1 session has handoffs (no earlier merge); 5 needed (CTX_MERGE_MIN_SESSIONS)"
    )


def test_count_new_sessions_uses_front_matter_times(tmp_path: Path) -> None:
    state = tmp_path / "state"
    since = stamp("2026-11-10T00:00:00Z")
    write_handoff(state, "old", 1, "2026-11-01T00:00:00Z")
    write_handoff(state, "mixed", 1, "2026-11-01T00:00:00Z")
    write_handoff(state, "mixed", 2, "2026-11-11T00:00:00Z")
    write_handoff(state, "new", 1, "2026-11-12T00:00:00Z")
    # Written just now, but its front matter says it is old: the front matter counts.
    write_handoff(state, "backdated", 1, "2026-11-02T00:00:00Z")
    untimed = write_handoff(state, "untimed", 1, None)
    os.utime(untimed, (since + 60, since + 60))
    assert count_new_sessions(str(state), since) == 3
    assert count_new_sessions(str(state), None) == 5
    assert count_new_sessions(str(state), None, enough=2) == 2


def test_check_gates_reads_the_merge_state(tmp_path: Path) -> None:
    state = tmp_path / "state"
    for index in range(3):
        write_handoff(state, f"s{index}", 1, "2026-11-20T00:00:00Z")
    now = stamp("2026-11-30T00:00:00Z")
    gate, merge_state = check_gates(str(state), now, 24, 3)
    assert (gate.passed, merge_state.merged_at, merge_state.problem) == (True, None, None)
    (state / "merged").mkdir()
    (state / "merged" / "state.json").write_text('{"merged_at": "2026-11-29T12:00:00Z"}')
    gate, merge_state = check_gates(str(state), now, 24, 3)
    assert (gate.gate, gate.passed) == (GATE_TIME, False)
    gate, _ = check_gates(str(state), now, 6, 3)
    assert (gate.gate, gate.passed) == (GATE_SESSIONS, False)
    (state / "merged" / "state.json").write_text("{not json")
    gate, merge_state = check_gates(str(state), now, 24, 3)
    assert gate.passed and merge_state.merged_at is None
    assert merge_state.problem is not None
    assert str(merge_state.problem).startswith(
        f"{state / 'merged' / 'state.json'}: unreadable (Expecting property name"
    )
    assert str(merge_state.problem).endswith("; taken as no earlier merge")


def test_backoff_doubles_from_5_ms_to_100_ms_over_10_attempts() -> None:
    assert backoff_delays() == [0.005, 0.01, 0.02, 0.04, 0.08, 0.1, 0.1, 0.1, 0.1]


def test_take_lock_gives_up_after_ten_attempts(tmp_path: Path) -> None:
    waits: list[float] = []
    with FileLock(str(tmp_path / "merge.lock")):
        assert take_lock(str(tmp_path), sleep=waits.append) is None
    assert waits == backoff_delays()
    lock = take_lock(str(tmp_path), sleep=waits.append)
    assert lock is not None and lock.is_locked
    lock.release()
    assert waits == backoff_delays()  # taken at the first attempt: no wait


def test_settings_from_the_environment() -> None:
    assert read_settings({}) == (24.0, 5)
    assert read_settings({"CTX_MERGE_MIN_HOURS": "0.5", "CTX_MERGE_MIN_SESSIONS": "0"}) == (
        0.5,
        0,
    )
    with pytest.raises(MergeError) as error:
        read_settings({"CTX_MERGE_MIN_HOURS": "a day"})
    assert str(error.value) == (
        "CTX_MERGE_MIN_HOURS='a day' is not a number of hours; set it to 0 or more "
        "(default 24) or unset it"
    )
    for bad in ("-1", "nan", "inf"):
        with pytest.raises(MergeError):
            read_settings({"CTX_MERGE_MIN_HOURS": bad})
    with pytest.raises(MergeError) as error:
        read_settings({"CTX_MERGE_MIN_SESSIONS": "2.5"})
    assert str(error.value) == (
        "CTX_MERGE_MIN_SESSIONS='2.5' is not a whole number of sessions; set it to 0 or more "
        "(default 5) or unset it"
    )


# --------------------------------------------------------------------------- publishing


def generations(state: Path) -> list[str]:
    return sorted(name for name in os.listdir(state) if name.startswith(".merged-"))


def test_publish_swaps_all_files_at_once_and_keeps_one_previous_generation(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    now = stamp(T0)
    merge_publish.publish(str(state), {"a.md": "one\n", "state.json": "{}\n"}, now)
    first = merge_publish.current_generation(str(state))
    assert (state / "merged").is_symlink()
    assert (state / "merged" / "a.md").read_text() == "one\n"
    merge_publish.publish(str(state), {"a.md": "two\n", "state.json": "{}\n"}, now)
    second = merge_publish.current_generation(str(state))
    assert (state / "merged" / "a.md").read_text() == "two\n"
    assert generations(state) == sorted([first, second])
    (state / ".merged-leftover-of-a-killed-merge").mkdir()
    merge_publish.publish(str(state), {"a.md": "three\n"}, now)
    third = merge_publish.current_generation(str(state))
    assert generations(state) == sorted([second, third])
    assert sorted(os.listdir(state / "merged")) == ["a.md"]


def test_publish_moves_a_real_merged_folder_aside_once_and_never_deletes_it(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    (state / "merged").mkdir(parents=True)
    (state / "merged" / "decisions.md").write_text("made by hand\n")
    (state / ".merged-legacy-20260101T000000Z-1-abcdef").mkdir()  # moved by an older version
    notes = merge_publish.publish(str(state), {"decisions.md": "merged\n"}, stamp(T0))
    assert (state / "merged" / "decisions.md").read_text() == "merged\n"
    aside = [name for name in os.listdir(state) if name.startswith("merged.moved-aside-")]
    assert len(aside) == 1
    assert (state / aside[0] / "decisions.md").read_text() == "made by hand\n"
    assert [str(note) for note in notes] == [
        f"{state / 'merged'}: was not the toolkit's link (made by hand?); moved to {aside[0]}, "
        "kept as it was. Copy your notes elsewhere and remove it"
    ]
    # Later merges clean their own generations and never touch what was moved aside.
    for hours in (1, 2, 3):
        assert (
            merge_publish.publish(str(state), {"decisions.md": "again\n"}, stamp(T0) + hours) == []
        )
    assert (state / aside[0] / "decisions.md").read_text() == "made by hand\n"
    assert (state / ".merged-legacy-20260101T000000Z-1-abcdef").is_dir()
