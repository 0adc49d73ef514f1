"""Benchmark: ctx-merge on 10,000 handoffs from 2,000 sessions, on one core.

    python bench/bench_merge.py                       # 2,000 sessions x 5 stages, 5 runs
    python bench/bench_merge.py --sessions 200 --runs 3

Generates the handoffs (real format, English and Chinese entries, restated and reversed
decisions, risks) in a temporary folder, pins itself and its children to one CPU, then
times: the whole ``ctx-merge --force --quiet`` process (what cron pays for a merge), the
merge's phases in-process (scan, merge, render, publish), and the cheap runs cron makes
every hour that a gate stops (time gate; session gate with no new sessions).
The issue's target: a full merge in under 5 seconds. Not part of pytest.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "hooks"))

from context_memory.core import state as state_names  # noqa: E402
from context_memory.core.isotime import parse_time  # noqa: E402
from context_memory.memory.handoff import render_handoff  # noqa: E402
from context_memory.merge import layout as merge_layout  # noqa: E402
from context_memory.merge import merge  # noqa: E402
from context_memory.merge import publish as merge_publish  # noqa: E402
from context_memory.merge import render as merge_render  # noqa: E402
from context_memory.merge import sources as merge_sources  # noqa: E402

TARGET_SECONDS = 5.0
NOW = "2026-12-31T00:00:00Z"

TOPICS = [
    "Cache layer",
    "Session store",
    "Search index",
    "Message queue",
    "Auth tokens",
    "Rate limiter",
    "数据库",
    "部署方式",
    "日志系统",
    "配置中心",
]


def make_state(root: Path, sessions: int, stages: int) -> int:
    """Write the handoffs; returns how many."""
    count = 0
    for s in range(sessions):
        session = f"{s:08x}-0000-4000-8000-{s:012x}"
        folder = root / "sessions" / session / "handoffs"
        folder.mkdir(parents=True)
        day = 1 + s * 28 // max(sessions, 1)
        for stage in range(1, stages + 1):
            # A topic's choice changes every few hundred sessions (a reversal or a
            # replacement); most entries restate what earlier sessions decided.
            topic = TOPICS[(s + stage) % len(TOPICS)]
            era = s // 400
            local = f"Module {s % 300}"
            decided = [
                f"{topic}: option {era % 3}",
                f"{local} - keep the public API stable",
                "采用 Redis 集群（需要分片）" if stage % 2 else "采用Redis集群",
            ]
            rejected = [f"Option {(era + 1) % 3} for {topic.lower()} (too slow under load)"]
            if s % 7 == 0 and stage == stages:
                rejected.append("Use PostgreSQL 16 - write amplification on our workload")
            elif s % 11 == 0 and stage == 1:
                decided.append("Use PostgreSQL 16 (jsonb, one writer)")
            meta = {
                "session": session,
                "stage": str(stage),
                "time": f"2026-11-{day:02d}T{stage + 8:02d}:{s % 60:02d}:00Z",
                "tokens": str(120_000 + stage * 1000),
            }
            text = render_handoff(
                meta,
                {
                    "Decided": decided,
                    "Rejected": rejected,
                    "Risks": [f"{topic} latency under load", "Memory pressure on node 3"],
                    "Files Modified": [f"src/module_{s % 300}/part_{stage}.py", "config/app.yaml"],
                    "Remaining": [f"finish {local.lower()} stage {stage + 1}"],
                },
            )
            (folder / f"stage-{stage}.md").write_text(text, encoding="utf-8")
            count += 1
    return count


def timed_process(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--stages", type=int, default=5, help="handoffs per session")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})  # children inherit it
        print(f"pinned to CPU {cpu} (of {os.cpu_count()})")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CTX_", "CLAUDE_"))}
    env["PYTHONPATH"] = str(REPO / "hooks")

    with tempfile.TemporaryDirectory(prefix="bench-merge-") as tmp:
        project = Path(tmp) / "project"
        state = project / ".working-state"
        started = time.perf_counter()
        written = make_state(state, args.sessions, args.stages)
        size = sum(p.stat().st_size for p in (state / "sessions").rglob("*.md"))
        print(
            f"generated {written:,} handoffs from {args.sessions:,} sessions "
            f"({size / 1e6:.1f} MB) in {time.perf_counter() - started:.1f} s"
        )

        command = [sys.executable, "-m", "context_memory.commands.merge", "--project", str(project)]
        merges = [
            timed_process([*command, "--force", "--quiet", "--now", NOW], env)
            for _ in range(args.runs)
        ]
        time_gate = [timed_process([*command, "--quiet", "--now", NOW], env) for _ in range(3)]
        later = "2027-01-02T00:00:00Z"  # past the time gate, no session newer than the merge
        session_gate = [timed_process([*command, "--quiet", "--now", later], env) for _ in range(3)]
        python_alone = [timed_process([sys.executable, "-c", "pass"], env) for _ in range(3)]

        now = parse_time(NOW)
        assert now is not None
        phases: dict[str, list[float]] = {"scan": [], "merge": [], "render": [], "publish": []}
        for _ in range(args.runs):
            t0 = time.perf_counter()
            handoffs, future, skipped = merge_sources.scan_handoffs(str(state), now)
            t1 = time.perf_counter()
            result = merge.merge_handoffs(handoffs)
            t2 = time.perf_counter()
            files = {
                state_names.MERGED_DECISIONS_MD: merge_render.render_markdown(
                    result, skipped, future
                ),
                state_names.MERGED_DECISIONS_JSON: merge_render.dumps(
                    merge_render.result_data(result, skipped, future)
                ),
                merge_layout.STATE_JSON: merge_render.dumps(merge_render.state_data(result, now)),
            }
            t3 = time.perf_counter()
            merge_publish.publish(str(state), files, now)
            t4 = time.perf_counter()
            for name, seconds in zip(phases, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
                phases[name].append(seconds)

        print(
            f"merged: {result.handoffs:,} handoffs, {len(result.sessions):,} sessions -> "
            f"{len(result.decided):,} decided, {len(result.rejected):,} rejected, "
            f"{len(result.overridden):,} overridden, {len(result.risks):,} risks; "
            f"decisions.md {len(files[state_names.MERGED_DECISIONS_MD]) / 1e6:.2f} MB"
        )
        print()
        print(f"{'what':<46}{'median':>10}{'best':>10}")

        def row(label: str, values: list[float]) -> None:
            print(f"{label:<46}{statistics.median(values):>9.3f}s{min(values):>9.3f}s")

        row("ctx-merge --force (whole process)", merges)
        row("ctx-merge stopped at the time gate", time_gate)
        row("ctx-merge stopped at the session gate", session_gate)
        row("python -c pass (interpreter start)", python_alone)
        for name, values in phases.items():
            row(f"  in-process: {name}", values)
        verdict = "PASS" if statistics.median(merges) < TARGET_SECONDS else "FAIL"
        print(f"\ntarget: a full merge under {TARGET_SECONDS:g} s on one core: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
