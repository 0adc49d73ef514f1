"""Team memory through git: three clones of one bare repository share decisions and handoffs.

Real git, real commands in fresh processes (ctx-doctor --team, ctx-decide, ctx-handoff,
ctx-merge, ctx-restore), each clone with its own HOME (its own "machine": global git
config, manual session name) and its own user.name / user.email. No network.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from context_memory.core.decisions_log import read_records
from context_memory.core.isotime import parse_time
from context_memory.memory.handoff import parse_handoff
from context_memory.merge.rules import iso_time
from helpers.cli_run import run_module
from helpers.paths import subprocess_env

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

NAMES = ("alice", "bob", "carol")

if shutil.which("git") is None:
    if os.environ.get("CI"):
        raise RuntimeError("git is required for the team-sharing tests (.ci/run installs it)")
    pytest.skip("git is not installed", allow_module_level=True)


class Clone:
    """One teammate's machine: a clone, a HOME, a git identity and a Claude Code session."""

    def __init__(self, root: Path, name: str) -> None:
        self.name = name
        self.path = root / name
        self.home = root / f"home-{name}"
        self.home.mkdir()
        self.session = str(uuid.uuid4())
        self.recorded: list[str] = []  # the texts this clone recorded

    @property
    def state(self) -> Path:
        return self.path / ".working-state"

    def env(self, **extra: str) -> dict[str, str]:
        settings = {
            "HOME": str(self.home),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_MERGE_AUTOEDIT": "no",
            "CLAUDE_CODE_SESSION_ID": self.session,
        }
        env = subprocess_env(**{**settings, **extra})
        for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_DIR", "GIT_WORK_TREE"):
            env.pop(name, None)
        return env

    def git(self, *args: str, cwd: Path | None = None) -> str:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd or self.path,
            env=self.env(),
            capture_output=True,
            text=True,
            check=False,
        )
        output = done.stdout + done.stderr
        assert done.returncode == 0, f"{self.name}: git {' '.join(args)} failed:\n{output}"
        assert "CONFLICT" not in output, f"{self.name}: git {' '.join(args)}:\n{output}"
        return output

    def tool(self, module: str, *args: str, stdin: str = "", **env: str) -> str:
        done = run_module(module, *args, cwd=self.path, stdin=stdin, env=self.env(**env))
        assert done.returncode == 0, f"{self.name}: {module} {args}: {done.stderr}"
        return done.stdout

    def decide(self, *args: str) -> None:
        text = args[1] if args[0] in ("--rejected", "--risk") else args[0]
        self.tool("commands.decide", *args)
        self.recorded.append(text)

    def handoff(self, decided: str, rejected: str, remaining: str, **env: str) -> None:
        body = (
            f"## Decided\n- {decided}\n## Rejected\n- {rejected}\n## Risks\n- none\n"
            f"## Files Modified\n- {self.name}.py\n## Remaining\n- {remaining}\n"
        )
        self.tool("commands.handoff", stdin=body, **env)

    def commit(self, message: str) -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)

    def unmerged(self) -> str:
        return self.git("diff", "--name-only", "--diff-filter=U")


def handoff_times(state: Path) -> list[float]:
    """The times written in the front matter of every handoff under ``state``."""
    times = []
    for path in (state / "sessions").glob("*/handoffs/stage-*.md"):
        stamp = parse_time(parse_handoff(path.read_text(encoding="utf-8")).meta["time"])
        assert stamp is not None
        times.append(stamp)
    return times


def make_team(tmp_path: Path) -> list[Clone]:
    origin = tmp_path / "origin.git"
    subprocess.run(
        ["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True, env=subprocess_env()
    )
    clones = [Clone(tmp_path, name) for name in NAMES]
    first = clones[0]
    first.git("clone", "-q", str(origin), str(first.path), cwd=tmp_path)

    # Identity and merge settings per machine, as each teammate has them.
    def configure(clone: Clone) -> None:
        clone.git("config", "user.name", clone.name.capitalize())
        clone.git("config", "user.email", f"{clone.name}@example.com")
        clone.git("config", "pull.rebase", "false")
        clone.git("config", "pull.ff", "true")

    configure(first)
    (first.path / "README.md").write_text("a project\n")
    out = first.tool("commands.doctor", "--team")
    assert "added 'decisions.jsonl merge=union'" in out, out
    first.commit("Share context-memory")
    first.git("push", "-q", "origin", "main")
    for clone in clones[1:]:
        clone.git("clone", "-q", str(origin), str(clone.path), cwd=tmp_path)
        configure(clone)
        # Set up already: a second --team run there changes nothing.
        assert "nothing changed" in clone.tool("commands.doctor", "--team")
    return clones


def work(clone: Clone, round_number: int) -> None:
    """A session's worth of records and a handoff, committed locally."""
    tag = f"{clone.name} round {round_number}"
    clone.decide(f"Use service-{tag} for caching", "--reason", f"{tag} measured it")
    clone.decide("--rejected", f"Memcached for {tag}", "--reason", f"no persistence ({tag})")
    clone.decide("--risk", f"cache stampede in {tag}")
    clone.handoff(
        decided=f"Service {tag}: use Redis",
        rejected=f"Service {tag} - Memcached (no persistence)",
        remaining=f"finish {tag}",
    )
    clone.commit(f"{tag}")


def test_three_clones_share_records_and_handoffs_without_conflicts(tmp_path: Path) -> None:
    alice, bob, carol = clones = make_team(tmp_path)
    by_name = {clone.name: clone for clone in clones}

    # Every round each clone commits first, then they push and pull in an order that makes
    # every clone merge every other one's commits (true merges, not fast-forwards):
    # round 1: bob<-alice, carol<-alice+bob; round 2: bob<-carol, alice<-bob+carol;
    # round 3: alice<-bob, carol<-alice+bob.
    schedule = (("alice", "bob", "carol"), ("carol", "bob", "alice"), ("bob", "alice", "carol"))
    merged_from: set[tuple[str, str]] = set()
    pushed: list[str] = []
    for number, order in enumerate(schedule, start=1):
        for clone in clones:
            work(clone, number)
        pushed_this_round: list[str] = []
        for name in order:
            clone = by_name[name]
            if pushed_this_round:
                out = clone.git("pull", "--no-edit", "origin", "main")
                assert "Merge made" in out, out  # a real merge of diverged histories
                merged_from.update((name, other) for other in pushed_this_round)
                assert clone.unmerged() == ""
            clone.git("push", "-q", "origin", "main")
            pushed_this_round.append(name)
        pushed.extend(pushed_this_round)
        for clone in clones:  # everyone catches up (fast-forwards) before the next round
            clone.git("pull", "--no-edit", "origin", "main")
    assert merged_from == {(a, b) for a in NAMES for b in NAMES if a != b}
    for clone in clones:
        clone.git("pull", "--no-edit", "origin", "main")
        assert clone.unmerged() == ""
    heads = {clone.git("rev-parse", "HEAD").strip() for clone in clones}
    assert len(heads) == 1

    # Every record of every clone, exactly once, in each clone.
    everything = sorted(text for clone in clones for text in clone.recorded)
    assert len(everything) == 27
    for clone in clones:
        records, problems = read_records(str(clone.state))
        assert problems == []
        assert sorted(str(r["decision"]) for r in records) == everything
        assert len({r["id"] for r in records}) == 27
        authors = {r["decision"]: r["author"] for r in records}
        for other in clones:
            for text in other.recorded:
                assert authors[text] == f"{other.name.capitalize()} <{other.name}@example.com>"

    # --author filters the shared log.
    listed = json.loads(carol.tool("commands.decide", "--list", "--json", "--author", "alice"))
    assert sorted(r["decision"] for r in listed) == sorted(alice.recorded)

    # Handoffs: one folder per session, nothing written twice.
    for clone in clones:
        stages = sorted(
            p.relative_to(clone.state).as_posix()
            for p in (clone.state / "sessions").glob("*/handoffs/stage-*.md")
        )
        assert stages == sorted(
            f"sessions/{c.session}/handoffs/stage-{n}.md" for c in clones for n in (1, 2, 3)
        )

    # The merge gives the same bytes on every clone, whatever its file times or merge time.
    # The handoffs were written at this machine's time: the merge times are taken from
    # their dates (never from today's date), a few days after all of them, then a few days
    # before all of them (a clock behind theirs: every handoff is future-dated).
    written = sorted(handoff_times(alice.state))
    assert len(written) == 9
    day = 86_400
    chooser = random.Random(16)
    for when, base, step in (("after", written[-1], day), ("before", written[0], -day)):
        nows = [iso_time(base + step * (index + 1)) for index in range(len(clones))]
        for clone, now in zip(clones, nows, strict=True):
            for path in clone.state.rglob("*"):
                stamp = 1_700_000_000 + chooser.randrange(10**8)
                os.utime(path, (stamp, stamp), follow_symlinks=False)
            out = clone.tool("commands.merge", "--force", "--now", now)
            assert "merged 9 handoffs from 3 sessions" in out, (when, out)
        for name in ("decisions.md", "decisions.json"):
            contents = {(clone.state / "merged" / name).read_bytes() for clone in clones}
            assert len(contents) == 1, (when, name)
        states = [json.loads((c.state / "merged" / "state.json").read_text()) for c in clones]
        assert [s["merged_at"] for s in states] == nows, when
        merged = json.loads((alice.state / "merged" / "decisions.json").read_bytes())
        assert len(merged["decided"]) == 9 and len(merged["rejected"]) == 9, when
        future = [entry["claimed_time"] for entry in merged.get("future_dated", [])]
        assert sorted(future) == ([] if when == "after" else [iso_time(t) for t in written])

    # Derived and per-machine files stay out of git.
    tracked = alice.git("ls-files", ".working-state").split()
    assert ".working-state/decisions.jsonl" in tracked
    assert not [t for t in tracked if "merged" in t or t.endswith((".lock", ".log", ".json"))]
    assert alice.git("status", "--porcelain") == ""

    # A rejection recorded on alice's machine reaches bob's next session after a pull.
    alice.decide("--rejected", "Kafka for the cache bus", "--reason", "too heavy for 3 services")
    alice.commit("reject Kafka")
    alice.git("push", "-q", "origin", "main")
    payload = json.dumps(
        {
            "session_id": str(uuid.uuid4()),
            "transcript_path": "",
            "cwd": str(bob.path),
            "hook_event_name": "SessionStart",
            "source": "startup",
        }
    )
    before = json.loads(bob.tool("handlers.restore", stdin=payload))
    assert "Kafka" not in before["hookSpecificOutput"]["additionalContext"]
    bob.git("pull", "--no-edit", "origin", "main")
    after = json.loads(bob.tool("handlers.restore", stdin=payload))
    context = after["hookSpecificOutput"]["additionalContext"]
    # Typed by a person (no CLAUDECODE in the environment): the user's record (issue 25).
    assert (
        "Rejected, do not propose again: Kafka for the cache bus (too heavy for 3 services; user)"
        in context
    )


def test_hand_run_handoffs_of_two_machines_never_collide(tmp_path: Path) -> None:
    alice, bob, _ = make_team(tmp_path)
    for clone in (alice, bob):
        clone.handoff(
            decided=f"{clone.name} decided", rejected="x", remaining="y", CLAUDE_CODE_SESSION_ID=""
        )
        clone.commit(f"{clone.name} by hand")
    alice.git("push", "-q", "origin", "main")
    bob.git("pull", "--no-edit", "origin", "main")
    assert bob.unmerged() == ""
    folders = sorted(p.name for p in (bob.state / "sessions").iterdir())
    assert len(folders) == 2 and all(name.startswith("manual-") for name in folders)
