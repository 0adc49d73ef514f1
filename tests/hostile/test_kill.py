"""Processes killed (SIGKILL) at random moments while they write: every file is afterwards
the old version or the new one, and decisions.jsonl holds only whole lines.

ctx-merge's outputs have their own kill tests, at every step of the merge and at random
moments: tests/commands/test_merge.py (test_a_merge_killed_at_any_step_leaves_old_or_new_outputs,
test_merges_killed_at_random_moments).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import pytest

from context_memory.core.decisions_log import read_records
from context_memory.memory.handoff import parse_handoff
from context_memory.memory.handoff_draft import write_stage
from helpers.paths import subprocess_env
from hostile.harness import (
    Sandbox,
    check_state_files_whole,
    console_command,
    entry_for,
)

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

WRITERS = 8
KILLED = 3
APPENDS = 40

DECIDE_WRITER = """
import sys
from context_memory.commands.decide import main
writer, count = sys.argv[1], int(sys.argv[2])
for number in range(count):
    args = [f"writer {writer} decision {number}", "--session", f"w{writer}", "--reason", "r" * 300]
    if main(args) != 0:
        sys.exit(1)
"""


def test_decide_writers_killed_at_random_leave_whole_lines(sandbox: Sandbox) -> None:
    seed = random.randrange(1 << 30)
    chooser = random.Random(seed)
    old = (sandbox.state / "decisions.jsonl").read_bytes()
    env = subprocess_env(**sandbox.env())
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", DECIDE_WRITER, str(number), str(APPENDS)],
            cwd=sandbox.project,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for number in range(WRITERS)
    ]
    victims = chooser.sample(writers, KILLED)
    for victim in victims:
        time.sleep(chooser.uniform(0.1, 0.6))
        victim.kill()
    reported: list[str] = []
    for writer in writers:
        out, err = writer.communicate(timeout=120)
        if writer not in victims:
            assert writer.returncode == 0, (seed, err)
        # "recorded decided <id> in ..." is printed after each append returned.
        reported += [
            line.split()[2] for line in out.decode().splitlines() if line.endswith(".jsonl")
        ]
    log = (sandbox.state / "decisions.jsonl").read_bytes()
    assert log.startswith(old), seed
    assert log.endswith(b"\n"), seed
    records, problems = read_records(str(sandbox.state))
    assert problems == [], (seed, problems)
    written = [r for r in records if str(r.get("session", "")).startswith("w")]
    ids = [r["id"] for r in written]
    assert len(set(ids)) == len(ids), seed
    assert set(reported) <= set(ids), seed
    # A killed writer may have appended its last record without reporting it.
    assert len(reported) <= len(ids) <= len(reported) + KILLED, seed
    assert len(ids) >= (WRITERS - KILLED) * APPENDS, seed
    for number in range(WRITERS):
        mine = [r["decision"] for r in written if r["session"] == f"w{number}"]
        assert mine == [f"writer {number} decision {i}" for i in range(len(mine))], seed


FILLER = [f"item {i} " + "z" * 200 for i in range(2000)]  # ~420 KB per file
HANDOFF_WRITER = """
import sys
from context_memory.memory.handoff_draft import write_stage
state, session = sys.argv[1], sys.argv[2]
filler = [f"item {i} " + "z" * 200 for i in range(2000)]
versions = [{"Decided": ["version A", *filler]}, {"Decided": ["version B", *filler]}]
number = 0
while True:
    write_stage(state, session, versions[number % 2], tokens=number, stage=1, overwrite=True)
    number += 1
"""


def test_handoff_writes_killed_at_random_leave_old_or_new(sandbox: Sandbox) -> None:
    seed = random.randrange(1 << 30)
    chooser = random.Random(seed)
    session = "killed-writer"
    stage = sandbox.state / "sessions" / session / "handoffs" / "stage-1.md"
    write_stage(str(sandbox.state), session, {"Decided": ["version A", *FILLER]}, tokens=0)
    seen = set()
    for _ in range(5):
        writer = subprocess.Popen(
            [sys.executable, "-c", HANDOFF_WRITER, str(sandbox.state), session],
            env=subprocess_env(**sandbox.env()),
            stderr=subprocess.PIPE,
        )
        time.sleep(chooser.uniform(0.3, 1.2))
        writer.kill()
        _, err = writer.communicate(timeout=60)
        assert writer.returncode == -9, (seed, err)
        handoff = parse_handoff(stage.read_text(encoding="utf-8"))
        first = handoff.sections["Decided"][0]
        assert first in ("version A", "version B"), seed
        assert len(handoff.sections["Decided"]) == 2001, seed
        assert handoff.sections["Rejected"] == [], seed
        seen.add(first)
    check_state_files_whole(sandbox.state, temp_files_allowed=True)
    print(f"seed {seed}: saw {sorted(seen)}")


def test_extract_hooks_killed_at_random_leave_old_or_new(sandbox: Sandbox) -> None:
    """ctx-extract writes the extract and a draft handoff; kill it anywhere in between."""
    seed = random.randrange(1 << 30)
    chooser = random.Random(seed)
    entry = entry_for("ctx-extract", "PreCompact")
    raw = json.dumps(sandbox.payload(entry)).encode()
    old = (sandbox.state / "decisions.jsonl").read_bytes()
    for _ in range(6):
        hook = subprocess.Popen(
            console_command(entry),
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=sandbox.project,
            env=subprocess_env(**sandbox.env()),
        )
        assert hook.stdin is not None
        hook.stdin.write(raw)
        hook.stdin.close()
        time.sleep(chooser.uniform(0.0, 0.4))
        hook.kill()
        hook.wait(timeout=60)
        check_state_files_whole(sandbox.state, temp_files_allowed=True)
        sandbox.check_seeded()
    assert (sandbox.state / "decisions.jsonl").read_bytes() == old, seed
