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

from cli_run import run_module
from conftest import subprocess_env
from context_memory.setup.doctor.checks_state import check_logs
from handoff_files import write_handoff


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


def test_handoffs_from_the_future_are_capped_and_the_record_says_so(tmp_path):
    project = tmp_path / "p"
    state = project / ".working-state"
    ahead = write_handoff(state, "ahead", 1, "2099-01-01T00:00:00Z", decided=["Database: MongoDB"])
    os.utime(ahead, (epoch("2026-05-01T00:00:00Z"),) * 2)
    later = write_handoff(
        state, "later", 1, "2026-05-15T00:00:00Z", decided=["Database: PostgreSQL"]
    )
    os.utime(later, (epoch("2026-05-15T00:00:00Z"),) * 2)
    odd = write_handoff(state, "odd", 1, "2098-01-01T00:00:00Z", risks=["Disk fills up"])
    os.utime(odd, (epoch("2027-01-01T00:00:00Z"),) * 2)  # its file time is ahead too

    done = merge(project, "--force", "--now", "2026-06-01T00:00:00Z")
    assert done.returncode == 0, done.stderr
    md = (state / "merged" / "decisions.md").read_text().splitlines()
    decided = md[md.index("## Decided") + 2]
    assert decided == "- Database: PostgreSQL — session later, stage 1, 2026-05-15"
    assert md[md.index("## Overridden") + 2].startswith(
        "- Decided: Database: MongoDB — session ahead, stage 1, 2026-05-01; replaced by "
    )
    future = md[md.index("## Handoffs dated in the future") + 2 :][:2]
    # Named relative to the state folder, as every path in the merged files (issue 16).
    odd_rel, ahead_rel = odd.relative_to(state), ahead.relative_to(state)
    assert future == [
        f"- {odd_rel}: dated 2098-01-01T00:00:00Z, after this merge (2026-06-01T00:00:00Z); "
        "taken as 2026-06-01T00:00:00Z (its merge time)",
        f"- {ahead_rel}: dated 2099-01-01T00:00:00Z, after this merge (2026-06-01T00:00:00Z); "
        "taken as 2026-05-01T00:00:00Z (its file time)",
    ]
    data = json.loads((state / "merged" / "decisions.json").read_text())
    assert data["future_dated"][1] == {
        "path": str(ahead_rel),
        "claimed_time": "2099-01-01T00:00:00Z",
        "time": "2026-05-01T00:00:00Z",
        "from": "file time",
    }

    # The session gate caps them the same way: the handoff dated 2099 is not "new" for ever.
    # (One whose file time is ahead as well stays new until then: taken out here.)
    odd.unlink()
    done = merge(project, "--now", "2026-06-02T02:00:00Z")
    assert done.returncode == 0
    assert done.stdout == (
        "ctx-merge: stopped at the session gate: 0 sessions have handoffs newer than the last "
        "merge (2026-06-01T00:00:00Z); 1 needed (CTX_MERGE_MIN_SESSIONS)\n"
    )
