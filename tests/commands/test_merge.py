"""ctx-merge end to end: the three gates, the outputs, --force / --dry-run / --quiet /
--project / --now, two merges at once, and merges killed at every step."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from filelock import FileLock

from context_memory.commands.merge import main
from context_memory.core.isotime import parse_time
from context_memory.merge import publish as merge_publish
from context_memory.merge import rules as merge_rules
from context_memory.merge.render import dumps
from context_memory.merge.run import run_merge
from helpers.cli_run import captured
from helpers.handoff_files import write_handoff
from helpers.paths import subprocess_env

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

P = "ctx-merge:"
NOW = "2026-12-01T00:00:00Z"
DAY_LATER = "2026-12-02T00:00:00Z"

# Runs ctx-merge with a pause (and a line on stderr) at the steps of the merge: argv[1] is
# the pause in seconds, argv[2] the step to pause at ("*": every step). A test can act
# while it holds the lock, or kill it at a chosen step.
PAUSING_MERGE = """
import sys, time
from context_memory.merge import publish as merge_publish
pause, where = float(sys.argv[1]), sys.argv[2]
def checkpoint(step):
    print("checkpoint: " + step, file=sys.stderr, flush=True)
    if where in ("*", step):
        time.sleep(pause)
merge_publish.checkpoint = checkpoint
from context_memory.commands.merge import main
sys.exit(main(sys.argv[3:]))
"""
STEPS = (
    "lock taken",
    "generation folder created",
    "wrote decisions.md",
    "wrote decisions.json",
    "wrote state.json",
    "ready to swap",
    "swapped",
)


def stamp(text: str) -> float:
    value = parse_time(text)
    assert value is not None
    return value


def state_of(project: Path) -> Path:
    return project / ".working-state"


def add_sessions(state: Path, count: int, day: str, prefix: str = "s") -> None:
    """``count`` sessions, each with two stages on ``day``: a decision, then its reversal
    for every third session."""
    for index in range(count):
        session = f"{prefix}{index:03d}"
        write_handoff(
            state,
            session,
            1,
            f"{day}T01:{index % 60:02d}:00Z",
            decided=[f"Service {index}: use Redis", "Use PostgreSQL 16 (jsonb)"],
            risks=["Memory pressure on node 3"],
            files=[f"old_{index}.py"],
        )
        write_handoff(
            state,
            session,
            2,
            f"{day}T02:{index % 60:02d}:00Z",
            rejected=[f"Service {index} - Redis is overkill"] if index % 3 == 0 else [],
            files=[f"svc_{index}.py"],
            remaining=[f"deploy service {index}"],
        )


run = captured(main)  # run(capsys, *argv) -> (exit code, stdout, stderr)


def outputs(state: Path) -> dict[str, bytes]:
    merged = state / "merged"
    return {name: (merged / name).read_bytes() for name in sorted(os.listdir(merged))}


def listing(root: Path) -> list[str]:
    return sorted(str(path.relative_to(root)) for path in root.rglob("*"))


# --------------------------------------------------------------------------- gates


def test_first_merge_writes_decisions_and_state(project: Path, capsys) -> None:
    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    code, out, err = run(capsys, "--now", NOW)
    md = state / "merged" / "decisions.md"
    assert (code, err) == (0, "")
    assert out == (
        f"{P} merged 10 handoffs from 5 sessions into {md}: 4 decided, 2 rejected, "
        "2 overridden, 1 risk\n"
    )
    assert sorted(os.listdir(state / "merged")) == ["decisions.json", "decisions.md", "state.json"]
    data = json.loads((state / "merged" / "decisions.json").read_text())
    assert [(e["text"], e["session"], e["stage"]) for e in data["decided"]] == [
        ("Use PostgreSQL 16 (jsonb)", "s000", 1),  # restated by every session: kept once, first
        ("Service 1: use Redis", "s001", 1),
        ("Service 2: use Redis", "s002", 1),
        ("Service 4: use Redis", "s004", 1),
    ]
    assert [(e["text"], e["session"], e["stage"]) for e in data["rejected"]] == [
        ("Service 0 - Redis is overkill", "s000", 2),
        ("Service 3 - Redis is overkill", "s003", 2),
    ]
    assert [(e["text"], e["overridden_by"]["text"]) for e in data["overridden"]] == [
        ("Service 0: use Redis", "Service 0 - Redis is overkill"),
        ("Service 3: use Redis", "Service 3 - Redis is overkill"),
    ]
    assert json.loads((state / "merged" / "state.json").read_text()) == {
        "version": 1,
        "merged_at": NOW,
        "handoffs": 10,
        "sessions": 5,
        "sessions_merged": ["s000", "s001", "s002", "s003", "s004"],
    }
    text = md.read_text()
    assert text.startswith(
        "# Merged decisions\n\nMerged by ctx-merge from 10 handoffs "
        "of 5 sessions, written 2026-11-30 to 2026-11-30.\n"
    )
    assert (
        "## Rejected\n\n- Service 0 - Redis is overkill — session s000, stage 2, 2026-11-30\n"
        in text
    )


def test_time_gate_stops_a_second_merge_within_24_hours(project: Path, capsys) -> None:
    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    assert run(capsys, "--now", NOW)[0] == 0
    before = outputs(state)
    add_sessions(state, 5, "2026-12-01", prefix="t")
    code, out, err = run(capsys, "--now", "2026-12-01T23:30:00Z")
    assert (code, err) == (0, "")
    assert out == (
        f"{P} stopped at the time gate: the last merge was 23.5 hours ago "
        "(2026-12-01T00:00:00Z); merges are at least 24 hours apart (CTX_MERGE_MIN_HOURS)\n"
    )
    assert outputs(state) == before
    assert run(capsys, "--quiet", "--now", "2026-12-01T23:30:00Z") == (0, "", "")


def test_session_gate_counts_sessions_with_handoffs_newer_than_the_last_merge(
    project: Path, capsys
) -> None:
    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    assert run(capsys, "--now", NOW)[0] == 0
    before = outputs(state)
    add_sessions(state, 4, "2026-12-01", prefix="t")
    # An old session that wrote one more stage after the merge counts as well.
    write_handoff(state, "s000", 3, "2026-11-30T23:59:59Z", decided=["written before"])
    code, out, err = run(capsys, "--now", DAY_LATER)
    assert (code, err) == (0, "")
    assert out == (
        f"{P} stopped at the session gate: 4 sessions have handoffs newer than the last merge "
        "(2026-12-01T00:00:00Z); 5 needed (CTX_MERGE_MIN_SESSIONS)\n"
    )
    assert outputs(state) == before
    write_handoff(state, "s001", 3, "2026-12-01T12:00:00Z", decided=["Use Kafka (events)"])
    code, out, _ = run(capsys, "--now", DAY_LATER)
    assert (code, out.split(" into ")[0]) == (0, f"{P} merged 20 handoffs from 9 sessions")
    state_json = json.loads((state / "merged" / "state.json").read_text())
    assert (state_json["merged_at"], state_json["handoffs"]) == (DAY_LATER, 20)


def test_without_an_earlier_merge_the_time_gate_is_open(project: Path, capsys) -> None:
    state = state_of(project)
    add_sessions(state, 3, "2026-11-30")
    code, out, _ = run(capsys, "--now", NOW)
    assert (code, out) == (
        0,
        f"{P} stopped at the session gate: 3 sessions have handoffs (no earlier merge); "
        "5 needed (CTX_MERGE_MIN_SESSIONS)\n",
    )
    assert not (state / "merged").exists()


def test_gate_thresholds_come_from_the_environment(
    project: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = state_of(project)
    add_sessions(state, 2, "2026-11-30")
    monkeypatch.setenv("CTX_MERGE_MIN_SESSIONS", "2")
    assert run(capsys, "--now", NOW)[0] == 0
    add_sessions(state, 2, "2026-12-01", prefix="t")
    monkeypatch.setenv("CTX_MERGE_MIN_HOURS", "1")
    code, out, _ = run(capsys, "--now", "2026-12-01T02:30:00Z")
    assert (code, out.split(" into ")[0]) == (0, f"{P} merged 8 handoffs from 4 sessions")


def test_bad_settings_are_errors(project: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CTX_MERGE_MIN_SESSIONS", "five")
    assert run(capsys, "--quiet") == (
        1,
        "",
        "Error: CTX_MERGE_MIN_SESSIONS='five' is not a whole number of sessions; set it to 0 "
        "or more (default 5) or unset it\n",
    )


def test_bad_now_is_a_usage_error(project: Path, capsys) -> None:
    code, out, err = run(capsys, "--now", "noon")
    assert (code, out) == (2, "")
    assert err.endswith(
        "Error: Invalid value for '--now': 'noon' is not an ISO 8601 time; write it like "
        "2026-11-30T09:00:00Z\n"
    )


# --------------------------------------------------------------------------- the lock gate


def test_lock_gate_when_another_merge_holds_the_lock(project: Path, capsys) -> None:
    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    with FileLock(str(state / "merge.lock")):
        started = time.monotonic()
        code, out, err = run(capsys, "--now", NOW)
        waited = time.monotonic() - started
        assert run(capsys, "--force", "--quiet", "--now", NOW) == (0, "", "")
    assert (code, err) == (0, "")
    assert out == (
        f"{P} stopped at the lock gate: another merge holds {state / 'merge.lock'} "
        "(10 attempts over 555 ms)\n"
    )
    assert waited >= 0.55  # the backoff really waited
    assert not (state / "merged").exists()


def test_gates_are_checked_again_after_taking_the_lock(project: Path, capsys) -> None:
    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    held = FileLock(str(state / "merge.lock"))
    held.acquire()
    finished = stamp(NOW) - 60

    def another_merge_finishes(delay: float) -> None:
        # While this run waits for the lock, the merge holding it publishes and lets go.
        if held.is_locked:
            merge_publish.publish(
                str(state),
                {"state.json": dumps({"merged_at": merge_rules.iso_time(finished)})},
                finished,
            )
            held.release()

    outcome = run_merge(str(state), stamp(NOW), sleep=another_merge_finishes)
    assert (outcome.action, outcome.gate, outcome.rechecked) == ("stopped", "time", True)
    from context_memory.commands.merge import report

    report(outcome, str(state), quiet=False)
    assert capsys.readouterr().out == (
        f"{P} stopped at the time gate (after taking the lock): the last merge was 1 minute "
        "ago (2026-11-30T23:59:00Z); merges are at least 24 hours apart (CTX_MERGE_MIN_HOURS)\n"
    )
    assert sorted(os.listdir(state / "merged")) == ["state.json"]


def test_two_merges_started_at_once_exactly_one_merges(project: Path) -> None:
    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    argv = [
        sys.executable,
        "-c",
        PAUSING_MERGE,
        "0.25",
        "*",
        "--project",
        str(project),
        "--now",
        NOW,
    ]
    processes = [
        subprocess.Popen(
            argv, env=subprocess_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    results = [(*process.communicate(timeout=60), process.returncode) for process in processes]
    outs = sorted(out for out, _, _ in results)
    assert [code for _, _, code in results] == [0, 0]
    assert outs == sorted(
        [
            f"{P} merged 10 handoffs from 5 sessions into {state / 'merged' / 'decisions.md'}: "
            "4 decided, 2 rejected, 2 overridden, 1 risk\n",
            f"{P} stopped at the lock gate: another merge holds {state / 'merge.lock'} "
            "(10 attempts over 555 ms)\n",
        ]
    )
    assert json.loads((state / "merged" / "state.json").read_text())["merged_at"] == NOW
    assert len([name for name in os.listdir(state) if name.startswith(".merged-")]) == 1


# --------------------------------------------------------------------------- options


def test_force_skips_the_time_and_session_gates(project: Path, capsys) -> None:
    state = state_of(project)
    add_sessions(state, 2, "2026-11-30")
    code, out, _ = run(capsys, "--force", "--now", NOW)
    assert (code, out.split(" into ")[0]) == (0, f"{P} merged 4 handoffs from 2 sessions")
    write_handoff(state, "late", 1, "2026-12-01T00:30:00Z", decided=["Use Kafka"])
    code, out, _ = run(capsys, "--force", "--now", "2026-12-01T01:00:00Z")
    assert (code, out.split(" into ")[0]) == (0, f"{P} merged 5 handoffs from 3 sessions")
    data = json.loads((state / "merged" / "decisions.json").read_text())
    assert "merged_at" not in data  # the same bytes on every clone: the time is in state.json
    assert json.loads((state / "merged" / "state.json").read_text())["merged_at"] == (
        "2026-12-01T01:00:00Z"
    )
    assert data["decided"][-1]["text"] == "Use Kafka"


def test_dry_run_prints_the_change_and_writes_nothing(project: Path, capsys) -> None:
    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    before = listing(state)
    code, out, err = run(capsys, "--dry-run", "--now", NOW)
    md = state / "merged" / "decisions.md"
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:4] == [
        f"{P} dry run, nothing written: would merge 10 handoffs from 5 sessions: 4 decided, "
        "2 rejected, 2 overridden, 1 risk",
        f"{P} changes to {md}:",
        "--- /dev/null",
        f"+++ {md}",
    ]
    assert "+- Service 0 - Redis is overkill — session s000, stage 2, 2026-11-30" in lines
    assert listing(state) == before
    assert run(capsys, "--now", NOW)[0] == 0
    merged = outputs(state)
    write_handoff(state, "s001", 3, "2026-11-30T05:00:00Z", rejected=["Use PostgreSQL 16 (cost)"])
    code, out, _ = run(capsys, "--dry-run", "--force", "--now", NOW)
    assert code == 0
    diff = [
        line for line in out.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    assert diff == [
        "-Merged by ctx-merge from 10 handoffs of 5 sessions, written 2026-11-30 to 2026-11-30.",
        "+Merged by ctx-merge from 11 handoffs of 5 sessions, written 2026-11-30 to 2026-11-30.",
        "-- Use PostgreSQL 16 (jsonb) — session s000, stage 1, 2026-11-30",
        "+- Use PostgreSQL 16 (cost) — session s001, stage 3, 2026-11-30",
        "+- Decided: Use PostgreSQL 16 (jsonb) — session s000, stage 1, 2026-11-30; reversed by "
        "Rejected: Use PostgreSQL 16 (cost) — session s001, stage 3, 2026-11-30",
        "-### Session s001 (stage 2, 2026-11-30)",  # its newest handoff has no Remaining
        "-- deploy service 1",
        "-### Session s001 (stage 2, 2026-11-30)",
        "-- svc_1.py",
    ]
    assert outputs(state) == merged
    # Behind the closed gate the dry run still shows what a merge would change (issue 13).
    code, out, err = run(capsys, "--dry-run", "--now", NOW)
    assert (code, err) == (0, "")
    assert out.splitlines()[:3] == [
        f"{P} stopped at the time gate: the last merge was 0 minutes ago (2026-12-01T00:00:00Z); "
        "merges are at least 24 hours apart (CTX_MERGE_MIN_HOURS)",
        f"{P} past that gate (ctx-merge --force), the merge would do this:",
        f"{P} dry run, nothing written: would merge 11 handoffs from 5 sessions: 3 decided, "
        "3 rejected, 3 overridden, 1 risk",
    ]
    assert [line for line in out.splitlines() if line[:1] in "+-" and line[:3] not in
            ("+++", "---")] == diff  # fmt: skip
    assert outputs(state) == merged


def test_dry_run_when_nothing_would_change(project: Path, capsys) -> None:
    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    assert run(capsys, "--now", NOW)[0] == 0
    _code, out, _ = run(capsys, "--dry-run", "--force", "--now", NOW)
    assert out.splitlines()[1:] == [f"{P} {state / 'merged' / 'decisions.md'} would not change"]


def test_project_option_and_state_dir_override(tmp_path: Path, capsys, monkeypatch) -> None:
    other = tmp_path / "other project"
    add_sessions(state_of(other), 1, "2026-11-30")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "--force", "--project", str(other), "--now", NOW)
    assert (code, out.split(": ")[-1]) == (0, "1 decided, 1 rejected, 1 overridden, 1 risk\n")
    assert (state_of(other) / "merged" / "decisions.md").is_file()
    elsewhere = tmp_path / "state elsewhere"
    add_sessions(elsewhere, 1, "2026-11-30")
    monkeypatch.setenv("CTX_STATE_DIR", str(elsewhere))
    assert run(capsys, "--force", "--quiet", "--project", str(other), "--now", NOW) == (0, "", "")
    assert (elsewhere / "merged" / "decisions.md").is_file()
    code, out, err = run(capsys, "--project", str(tmp_path / "missing"))
    assert code == 2 and "Directory" in err and "does not exist" in err


def test_the_project_is_found_from_a_subfolder(project: Path, capsys, monkeypatch) -> None:
    add_sessions(state_of(project), 5, "2026-11-30")
    (project / "src" / "deep").mkdir(parents=True)
    monkeypatch.chdir(project / "src" / "deep")
    code, out, _ = run(capsys, "--now", NOW)
    assert code == 0
    assert f"into {state_of(project) / 'merged' / 'decisions.md'}:" in out


def test_a_corrupt_handoff_is_reported_and_skipped(project: Path, capsys) -> None:
    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    broken = state / "sessions" / "s002" / "handoffs" / "stage-3.md"
    broken.write_text(
        "---\nsession: s002\nstage: 3\ntime: 2026-11-30T09:00:00Z\n---\n## Decided\n- half"
    )
    code, out, err = run(capsys, "--now", NOW)
    assert code == 0
    assert err == (
        f"{P} skipped {broken}: missing sections '## Rejected', '## Risks', "
        "'## Files Modified', '## Remaining'\n"
    )
    assert out.endswith("2 overridden, 1 risk; 1 file skipped\n")
    data = json.loads((state / "merged" / "decisions.json").read_text())
    # In the merged files, relative to the state folder: the same bytes on every clone.
    assert data["skipped"] == [
        {
            "path": "sessions/s002/handoffs/stage-3.md",
            "reason": "missing sections '## Rejected', '## Risks', '## Files Modified', "
            "'## Remaining'",
        }
    ]
    assert (
        "## Skipped handoffs\n\n- sessions/s002/handoffs/stage-3.md: missing sections"
        in (state / "merged" / "decisions.md").read_text()
    )


def test_nothing_to_merge(project: Path, capsys) -> None:
    assert run(capsys, "--force") == (
        0,
        f"{P} nothing to merge: no readable handoffs under {state_of(project) / 'sessions'}\n",
        "",
    )
    assert not state_of(project).exists()
    bad = state_of(project) / "sessions" / "s1" / "handoffs" / "stage-1.md"
    bad.parent.mkdir(parents=True)
    bad.write_text("not a handoff")
    code, out, err = run(capsys, "--force")
    assert (code, out) == (
        0,
        f"{P} nothing to merge: no readable handoffs under {state_of(project) / 'sessions'}\n",
    )
    assert err.startswith(f"{P} skipped {bad}: missing sections")
    assert not (state_of(project) / "merged").exists()


def test_an_unwritable_state_folder_is_an_error(project: Path, capsys) -> None:
    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    (state / "merge.lock").mkdir()  # the lock file cannot be created
    code, out, err = run(capsys, "--quiet", "--now", NOW)
    assert (code, out) == (1, "")
    assert err.startswith("Error: ")
    assert str(state / "merge.lock") in err


# --------------------------------------------------------------------------- crash safety


def check_intact_or_complete(state: Path, old: dict[str, bytes], new_now: str) -> str:
    """The three outputs are the previous merge's, byte for byte, or a complete new set."""
    current = outputs(state)
    if current == old:
        return "old"
    assert sorted(current) == ["decisions.json", "decisions.md", "state.json"]
    assert json.loads(current["state.json"])["merged_at"] == new_now
    data = json.loads(current["decisions.json"])
    assert data["sessions"] == 10
    assert b"Merged by ctx-merge from 20 handoffs of 10 sessions" in current["decisions.md"]
    return "new"


def previous_merge(project: Path, capsys) -> dict[str, bytes]:
    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    assert run(capsys, "--now", NOW)[0] == 0
    add_sessions(state, 5, "2026-12-01", prefix="t")
    return outputs(state)


@pytest.mark.parametrize("step", STEPS)
def test_a_merge_killed_at_any_step_leaves_old_or_new_outputs(
    project: Path, capsys, step: str
) -> None:
    state = state_of(project)
    old = previous_merge(project, capsys)
    process = subprocess.Popen(
        [sys.executable, "-c", PAUSING_MERGE, "60", step, "--now", DAY_LATER],
        cwd=project,
        env=subprocess_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    seen = []
    while True:
        line = process.stderr.readline()
        assert line, f"ctx-merge ended before '{step}'; saw {seen}"
        seen.append(line.strip())
        if line.strip() == f"checkpoint: {step}":
            break
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    process.stderr.close()
    assert process.stdout is not None
    process.stdout.close()
    expected = "new" if step == "swapped" else "old"
    assert check_intact_or_complete(state, old, DAY_LATER) == expected

    # The next run cleans up after the killed one and finishes the job.
    code, out, _ = run(capsys, "--now", DAY_LATER)
    assert code == 0
    if expected == "old":
        assert out.startswith(f"{P} merged 20 handoffs from 10 sessions")
    else:
        assert out.startswith(f"{P} stopped at the time gate")
    assert check_intact_or_complete(state, old, DAY_LATER) == "new"
    assert len([name for name in os.listdir(state) if name.startswith(".merged-")]) <= 2


def test_merges_killed_at_random_moments(project: Path, capsys) -> None:
    state = state_of(project)
    add_sessions(state, 150, "2026-11-30")
    assert run(capsys, "--now", NOW)[0] == 0
    add_sessions(state, 150, "2026-12-01", prefix="t")
    old = outputs(state)
    seed = random.randrange(1 << 30)
    chooser = random.Random(seed)
    seen = set()
    for _ in range(6):
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "context_memory.commands.merge",
                "--quiet",
                "--force",
                "--now",
                DAY_LATER,
            ],
            cwd=project,
            env=subprocess_env(),
        )
        time.sleep(chooser.uniform(0.05, 0.8))
        process.kill()
        process.wait(timeout=30)
        current = outputs(state)
        if current == old:
            seen.add("old")
            continue
        seen.add("new")
        assert sorted(current) == ["decisions.json", "decisions.md", "state.json"], seed
        assert json.loads(current["state.json"])["merged_at"] == DAY_LATER, seed
        assert json.loads(current["decisions.json"])["handoffs"] == 600, seed
        old = current  # a completed merge is the new "previous"
    print(f"seed {seed}: saw {sorted(seen)}")


def test_restore_points_new_sessions_at_the_merged_decisions(project: Path, capsys) -> None:
    """ctx-restore (the working-memory issue's hook) finds merged/decisions.md through the
    ``merged`` link once a merge has run."""
    from context_memory.memory.pointer import recovery_pointer

    state = state_of(project)
    add_sessions(state, 5, "2026-11-30")
    assert "Merged decisions" not in (recovery_pointer(str(state)) or "")
    assert run(capsys, "--now", NOW)[0] == 0
    pointer = recovery_pointer(str(state))
    assert pointer is not None
    assert "Merged decisions: .working-state/merged/decisions.md." in pointer


# What a newcomer met (issue 13; these were test_newcomer_commands.py):
# ctx-merge --dry-run shows the diff behind a closed gate.
def test_merge_dry_run_shows_the_diff_behind_a_closed_gate(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = project / ".working-state"
    add_sessions(state, 2, "2026-11-30")  # fewer than the 5 sessions the gate wants
    code = main(["--dry-run", "--now", NOW])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("ctx-merge: stopped at the session gate: ")
    assert lines[1] == "ctx-merge: past that gate (ctx-merge --force), the merge would do this:"
    assert lines[2].startswith("ctx-merge: dry run, nothing written: would merge 4 handoffs")
    assert lines[3] == f"ctx-merge: changes to {state / 'merged' / 'decisions.md'}:"
    assert lines[4] == "--- /dev/null"
    assert "+- Use PostgreSQL 16 (jsonb)" in " ".join(lines) or any(
        "PostgreSQL 16" in line and line.startswith("+") for line in lines
    )
    assert not (state / "merged").exists()
    # --quiet stays quiet; a merge that runs is unaffected.
    assert main(["--dry-run", "--quiet", "--now", NOW]) == 0
    assert capsys.readouterr() == ("", "")
