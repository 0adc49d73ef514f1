"""Issue 11, item 6: clocks. A last merge dated in the future is reported and recovered
from (not a silent stop of every cron merge); handoff times from the future are capped at
their file's own time or the merge time, and the merged record says so.

Every run is ``ctx-merge`` in a fresh process on real files.
"""

from __future__ import annotations

import calendar
import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from context_memory.merge.run import run_merge
from context_memory.setup.doctor.checks_state import check_logs
from helpers.cli_run import run_module
from helpers.handoff_files import write_handoff
from helpers.paths import subprocess_env

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier


def epoch(text: str) -> float:
    return float(calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ")))


def merge(project: Path, *args: str, sessions: int = 1) -> subprocess.CompletedProcess[str]:
    env = subprocess_env(CTX_MERGE_MIN_SESSIONS=str(sessions))
    return run_module("commands.merge", "--project", str(project), *args, cwd=project, env=env)


def merged_at(state: Path) -> float:
    stamp = json.loads((state / "merged" / "state.json").read_text())["merged_at"]
    return epoch(stamp)


def test_a_last_merge_in_the_future_is_reported_and_recovered_from(tmp_path):
    project = tmp_path / "p"
    state = project / ".working-state"
    write_handoff(state, "s1", 1, "2026-01-01T10:00:00Z", decided=["Use SQLite"])
    done = merge(project, "--force", "--now", "2099-01-01T00:00:00Z")
    assert done.returncode == 0, done.stderr
    assert merged_at(state) == epoch("2099-01-01T00:00:00Z")

    # The hourly cron run: before, exit 0 with no output and no merge until 2099.
    done = merge(project, "--quiet")
    assert (done.returncode, done.stdout) == (0, "")
    path = state / "merged" / "state.json"
    warning = (
        f"warning: {path}: the last merge is dated 2099-01-01T00:00:00Z, after now "
        f"({{now}}): a clock that was ahead, or --now in the future; taken as no earlier "
        "merge, and this merge stamps the real time"
    )
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ctx-merge: warning: ")
    now_text = lines[0].split("after now (", 1)[1][:20]
    assert lines[0] == "ctx-merge: " + warning.format(now=now_text)
    assert abs(merged_at(state) - time.time()) < 120  # recovered: merged at the real time
    log = (state / "logs" / "hooks.log").read_text().splitlines()
    assert len(log) == 1 and log[0].split("\t")[1:] == [
        "ctx-merge",
        "-",
        warning.format(now=now_text),
    ]
    doctor = check_logs(str(state))
    assert doctor.status == "WARN" and doctor.message.startswith("1 error (ctx-merge 1); last at ")

    # The next cron run is back to normal: stopped by the time gate, quietly.
    done = merge(project, "--quiet")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_little_clock_drift_is_no_alarm(tmp_path):
    project = tmp_path / "p"
    state = project / ".working-state"
    write_handoff(state, "s1", 1, "2026-01-01T10:00:00Z", decided=["Use SQLite"])
    soon = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 60))
    assert merge(project, "--force", "--now", soon).returncode == 0
    done = merge(project, "--quiet")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not (state / "logs").exists()


def test_handoffs_from_the_future_rank_as_undated_and_the_record_says_so(tmp_path):
    project = tmp_path / "p"
    state = project / ".working-state"
    ahead = write_handoff(state, "ahead", 1, "2099-01-01T00:00:00Z", decided=["Database: MongoDB"])
    later = write_handoff(
        state, "later", 1, "2026-05-15T00:00:00Z", decided=["Database: PostgreSQL"]
    )
    # A clock that jumped ahead mid-session: stage 2 ranks at its session's stage 1 time.
    write_handoff(state, "jump", 1, "2026-05-10T00:00:00Z", decided=["Cache: Redis"])
    jump = write_handoff(state, "jump", 2, "2098-01-01T00:00:00Z", rejected=["Cache: Redis"])
    odd = write_handoff(state, "odd", 1, "2098-01-01T00:00:00Z", risks=["Disk fills up"])
    for path in (ahead, later, jump, odd):  # file times change nothing: far ahead too
        os.utime(path, (epoch("2099-06-01T00:00:00Z"),) * 2)

    done = merge(project, "--force", "--now", "2026-06-01T00:00:00Z")
    assert done.returncode == 0, done.stderr
    md = (state / "merged" / "decisions.md").read_text().splitlines()
    assert md[2] == (
        "Merged by ctx-merge from 5 handoffs of 4 sessions, written 2026-05-10 to 2026-05-15 "
        "(2 undated)."
    )
    assert md[md.index("## Decided") + 2 :][:2] == [
        "- Database: PostgreSQL — session later, stage 1, 2026-05-15",
        "",
    ]
    assert md[md.index("## Rejected") + 2] == "- Cache: Redis — session jump, stage 2, 2026-05-10"
    assert md[md.index("## Overridden") + 2 :][:3] == [
        "- Decided: Cache: Redis — session jump, stage 1, 2026-05-10; reversed by "
        "Rejected: Cache: Redis — session jump, stage 2, 2026-05-10",
        "- Decided: Database: MongoDB — session ahead, stage 1, future-dated; replaced by "
        "Decided: Database: PostgreSQL — session later, stage 1, 2026-05-15",
        "",
    ]
    assert md[md.index("## Risks") + 2] == "- Disk fills up — session odd, stage 1, future-dated"
    future = md[md.index("## Handoffs dated in the future") + 2 :]
    # Named relative to the state folder, as every path in the merged files (issue 16);
    # by session, then stage; no merge time (clones merging at other times agree).
    ahead_rel, jump_rel, odd_rel = (p.relative_to(state) for p in (ahead, jump, odd))
    assert future == [
        f"- {ahead_rel}: dated 2099-01-01T00:00:00Z, after the merge time; ranked as undated",
        f"- {jump_rel}: dated 2098-01-01T00:00:00Z, after the merge time; ranked as undated, "
        "at its session's stage 1 time (2026-05-10T00:00:00Z)",
        f"- {odd_rel}: dated 2098-01-01T00:00:00Z, after the merge time; ranked as undated",
    ]
    data = json.loads((state / "merged" / "decisions.json").read_text())
    assert data["future_dated"][:2] == [
        {
            "path": str(ahead_rel),
            "claimed_time": "2099-01-01T00:00:00Z",
            "time": None,
            "from": "undated",
        },
        {
            "path": str(jump_rel),
            "claimed_time": "2098-01-01T00:00:00Z",
            "time": "2026-05-10T00:00:00Z",
            "from": "stage 1",
        },
    ]

    # The session gate (per machine: when a file reached this clone) takes a handoff dated
    # in the future at its file time, so the one dated 2099 is not "new" for ever. (One
    # whose file time is ahead as well stays new until then: taken out here.)
    for path in (ahead, later, jump):
        os.utime(path, (epoch("2026-05-31T00:00:00Z"),) * 2)
    odd.unlink()
    done = merge(project, "--now", "2026-06-02T02:00:00Z")
    assert done.returncode == 0
    assert done.stdout == (
        "ctx-merge: stopped at the session gate: 0 sessions have handoffs newer than the last "
        "merge (2026-06-01T00:00:00Z); 1 needed (CTX_MERGE_MIN_SESSIONS)\n"
    )


# --------------------------------------------------------------------------- issue 19

# One project's handoffs: a session that dates every stage, one that dates none, one
# whose first stage is undated, and one written on a machine whose clock ran to 2031.
TEAM = [
    ("dated", 1, "2026-05-01T09:00:00Z", {"decided": ["Cache: Redis"]}),
    ("dated", 2, "2026-05-03T09:00:00Z", {"rejected": ["Queue - Kafka (too heavy)"]}),
    ("nodate", 1, None, {"decided": ["Queue: Kafka"], "remaining": ["queue"]}),
    ("nodate", 2, None, {"decided": ["Search: Elastic"], "files": ["search.py"]}),
    ("mixed", 1, None, {"decided": ["Search: Meilisearch"]}),
    ("mixed", 2, "2026-05-02T09:00:00Z", {"risks": ["index drift"]}),
    ("ahead", 1, "2031-01-01T00:00:00Z", {"decided": ["Database: MongoDB"]}),
]


def write_team(state: Path, file_time: int) -> None:
    for session, stage, when, items in TEAM:
        path = write_handoff(state, session, stage, when, **items)
        os.utime(path, (file_time, file_time))


def merged_files(state: Path) -> dict[str, bytes]:
    folder = state / "merged"
    return {name: (folder / name).read_bytes() for name in ("decisions.md", "decisions.json")}


def test_file_times_never_change_the_merged_bytes(tmp_path):
    """Issue 19, item 1: git keeps no file times, so two clones holding the same handoffs
    must write the same bytes whatever their file times (undated and future-dated
    handoffs used to take theirs)."""
    results = []
    for name, file_time in (("a", 1_700_000_000), ("b", 1_790_000_000), ("c", 2_000_000_000)):
        project = tmp_path / name
        write_team(project / ".working-state", file_time)
        done = merge(project, "--force", "--now", "2026-06-01T00:00:00Z")
        assert done.returncode == 0, done.stderr
        results.append(merged_files(project / ".working-state"))
    assert results[1] == results[0] and results[2] == results[0]


def test_a_future_dated_handoff_does_not_outrank_correctly_dated_ones(tmp_path):
    """Issue 19, item 2: a handoff dated 2031 decided MongoDB; a later one, written with a
    correct clock, rejected it. The rejection stands, on every clone, at every merge time
    before 2031, whatever the file times (git sets them at checkout: after both)."""
    outputs = []
    for name, now, checkout in (
        ("a", "2026-06-01T00:00:00Z", "2026-05-31T00:00:00Z"),
        ("b", "2027-06-01T00:00:00Z", "2027-05-31T00:00:00Z"),
    ):
        project = tmp_path / name
        state = project / ".working-state"
        ahead = write_handoff(state, "ahead", 1, "2031-01-01T00:00:00Z", decided=["Use MongoDB"])
        write_handoff(
            state, "later", 1, "2026-05-15T00:00:00Z", rejected=["Use MongoDB (no transactions)"]
        )
        for path in (state / "sessions").glob("*/handoffs/*.md"):
            os.utime(path, (epoch(checkout),) * 2)
        done = merge(project, "--force", "--now", now)
        assert done.returncode == 0, done.stderr
        # The run's report says so too (not an alert: cron would repeat it until 2031).
        assert done.stdout == (
            f"ctx-merge: merged 2 handoffs from 2 sessions into {state / 'merged' / 'decisions.md'}"
            ": 0 decided, 1 rejected, 1 overridden, 0 risks; 1 future-dated (ranked as undated)\n"
        )
        assert done.stderr == (
            f"ctx-merge: warning: {ahead.relative_to(state)}: dated 2031-01-01T00:00:00Z, after "
            "the merge time; ranked as undated\n"
        )
        outputs.append(merged_files(state))
        md = (state / "merged" / "decisions.md").read_text().splitlines()
        assert md[md.index("## Decided") + 2] == "- none"
        assert md[md.index("## Rejected") + 2] == (
            "- Use MongoDB (no transactions) — session later, stage 1, 2026-05-15"
        )
        assert md[md.index("## Overridden") + 2] == (
            "- Decided: Use MongoDB — session ahead, stage 1, future-dated; reversed by "
            "Rejected: Use MongoDB (no transactions) — session later, stage 1, 2026-05-15"
        )
        assert md[md.index("## Handoffs dated in the future") + 2 :] == [
            f"- {ahead.relative_to(state)}: dated 2031-01-01T00:00:00Z, after the merge time; "
            "ranked as undated"
        ]
        data = json.loads((state / "merged" / "decisions.json").read_text())
        assert data["future_dated"] == [
            {
                "path": str(ahead.relative_to(state)),
                "claimed_time": "2031-01-01T00:00:00Z",
                "time": None,
                "from": "undated",
            }
        ]
        assert data["overridden"][0]["time"] is None
    assert outputs[1] == outputs[0]  # two clones, two merge times, the same bytes

    # Once 2031 has come, the handoff counts at its own date again, and wins.
    done = merge(tmp_path / "a", "--force", "--now", "2031-01-02T00:00:00Z")
    assert done.returncode == 0, done.stderr
    md = (tmp_path / "a" / ".working-state" / "merged" / "decisions.md").read_text()
    assert "## Decided\n\n- Use MongoDB — session ahead, stage 1, 2031-01-01\n" in md
    assert "Handoffs dated in the future" not in md


# Merge times before, between and after the TEAM handoffs' dates (and after 2031): the
# decided entries at each, the same on two clones merging at two times in that interval.
CLOCKS = [
    (
        ("2026-04-01T00:00:00Z", "2026-04-20T00:00:00Z"),
        # Every handoff is future-dated or undated: by session, then stage, so nodate's
        # Kafka and Elastic come last and win.
        ["Database: MongoDB", "Cache: Redis", "Queue: Kafka", "Search: Elastic"],
    ),
    (
        ("2026-05-02T12:00:00Z", "2026-05-02T18:00:00Z"),
        # dated/2 (05-03) ranks at its stage 1's date; mixed (05-02) after it, so
        # Meilisearch replaces Elastic and the Kafka rejection stands.
        ["Database: MongoDB", "Cache: Redis", "Search: Meilisearch"],
    ),
    (
        ("2026-06-01T00:00:00Z", "2030-12-31T00:00:00Z"),
        # All dated but the 2031 one, which ranks as undated.
        ["Database: MongoDB", "Cache: Redis", "Search: Meilisearch"],
    ),
    (
        ("2031-01-01T00:00:00Z", "2040-01-01T00:00:00Z"),
        # 2031 has come: MongoDB is the newest.
        ["Cache: Redis", "Search: Meilisearch", "Database: MongoDB"],
    ),
]


@pytest.mark.parametrize(("nows", "decided"), CLOCKS, ids=lambda v: str(v)[:14])
def test_the_merge_at_clocks_before_between_and_after_the_handoffs(tmp_path, nows, decided):
    """The suite's merges under a shifted clock (issue 19): ``now`` is injected, so what is
    future-dated, undated or dated depends on the handoffs' dates, never on today's."""
    results = []
    for name, now, file_time in (("a", nows[0], 1_600_000_000), ("b", nows[1], 2_100_000_000)):
        state = tmp_path / name / ".working-state"
        write_team(state, file_time)
        outcome = run_merge(str(state), epoch(now), force=True)
        assert outcome.action == "merged"
        results.append(merged_files(state))
        data = json.loads((state / "merged" / "decisions.json").read_text())
        assert [entry["text"] for entry in data["decided"]] == decided
        rejected = [entry["text"] for entry in data["rejected"]]
        assert rejected == (
            [] if decided[2:3] == ["Queue: Kafka"] else ["Queue - Kafka (too heavy)"]
        )
    assert results[1] == results[0]
