"""What capture adds to a Stop: a turn of 200 rows at the end of a 100 MB transcript.

    python bench/bench_capture_cost.py [--size 100M] [--runs 40] [--shape 2.1.332|old]

Builds the transcript (bench/data/, not committed; make_transcript.py), captures it once
so the session has a position at its end, appends one turn of 200 rows (a prompt, 99 tool
calls with their results, a reply), then times capture.store.capture_session in-process
``--runs`` times, each from that same position with the same log. Two turns: the usual
one, which captures nothing (the position is written), and one whose prompt states a
constraint (its record appended, and flushed to disk, under the lock each time).
Also times the first capture of the whole file (no position: bounded by MAX_RUN_BYTES).
Prints p50 and p95 in milliseconds, wall clock and CPU time (on a shared machine the wall
clock includes waiting for a core; the load average is printed); the target is p95 <= 20 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "hooks"))
sys.path.insert(0, str(HERE))

from make_transcript import generate, parse_size  # noqa: E402

from context_memory.capture.store import capture_session, position_path  # noqa: E402

SESSION = "b3c1f0d2-5a4e-4c6b-9f7e-1d2c3b4a5e6f"
PROMPT = "Don't use moment for the dates, it is far too heavy for our bundle. Use date-fns instead."


PLAIN_PROMPT = "Format the dates on the invoice page."


def turn_rows(count: int = 200, prompt: str = PROMPT) -> bytes:
    """One turn of ``count`` rows: prompt, (tool call, result) pairs, final reply."""
    now = "2026-01-02T03:04:05.000Z"

    def row(kind: str, message: dict) -> dict:
        return {
            "parentUuid": str(uuid.uuid4()),
            "isSidechain": False,
            "type": kind,
            "uuid": str(uuid.uuid4()),
            "timestamp": now,
            "sessionId": SESSION,
            "version": "2.1.332",
            "message": message,
        }

    rows = [row("user", {"role": "user", "content": prompt})]
    pairs = (count - 2) // 2
    for index in range(pairs):
        call = f"toolu_{index:04d}"
        rows.append(
            row(
                "assistant",
                {
                    "role": "assistant",
                    "id": f"msg_{index}",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": call,
                            "name": "Bash",
                            "input": {"command": f"grep -rn date src/page{index}.ts"},
                        }
                    ],
                },
            )
        )
        rows.append(
            row(
                "user",
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": call, "content": "x = 1;\n" * 150}
                    ],
                },
            )
        )
    rows.append(
        row(
            "assistant",
            {"role": "assistant", "id": "msg_end", "content": [{"type": "text", "text": "Done."}]},
        )
    )
    while len(rows) < count:
        rows.append(row("system", {"role": "system", "content": "bookkeeping"}))
    return b"".join(
        (json.dumps(r, separators=(",", ":")) + "\n").encode("utf-8") for r in rows[:count]
    )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="100M")
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--shape", default="2.1.332", choices=("2.1.332", "old"))
    args = parser.parse_args(argv)
    data = HERE / "data"
    data.mkdir(exist_ok=True)
    base = data / f"capture-{args.shape}-{args.size}.jsonl"
    if not base.exists():
        generate(str(base), parse_size(args.size), args.shape)
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / ".working-state"
        state.mkdir()
        transcript = Path(tmp) / f"{SESSION}.jsonl"
        shutil.copyfile(base, transcript)
        started = time.perf_counter()
        first = capture_session(str(state), SESSION, str(transcript))
        first_ms = (time.perf_counter() - started) * 1000
        position = Path(position_path(str(state), SESSION))
        saved = position.read_bytes()
        log = state / "decisions.jsonl"
        saved_log = log.read_bytes() if log.exists() else b""
        base_size = transcript.stat().st_size
        timings: dict[str, list[float]] = {}
        cpu: dict[str, list[float]] = {}
        for case, prompt in (("nothing captured", PLAIN_PROMPT), ("one record", PROMPT)):
            with transcript.open("r+b") as handle:
                handle.truncate(base_size)
                handle.seek(base_size)
                handle.write(turn_rows(prompt=prompt))
            times = timings.setdefault(case, [])
            cpu_times = cpu.setdefault(case, [])
            for _ in range(args.runs):
                position.write_bytes(saved)
                log.write_bytes(saved_log)
                started, cpu_started = time.perf_counter(), time.process_time()
                result = capture_session(str(state), SESSION, str(transcript))
                times.append((time.perf_counter() - started) * 1000)
                cpu_times.append((time.process_time() - cpu_started) * 1000)
            assert len(result.added) == (case == "one record"), result.added
    size = base.stat().st_size
    print(f"transcript {size / 1e6:.0f} MB ({args.shape}), turn of 200 rows, {args.runs} runs")
    print(
        f"first capture (no position, reads <= 8 MiB): {first_ms:.1f} ms, "
        f"{len(first.added)} records, {first.skipped_bytes / 1e6:.0f} MB skipped"
    )
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores (wall times include waiting)")
    for case, times in timings.items():
        print(
            f"capture at Stop, {case}: wall p50 {statistics.median(times):.1f} ms, "
            f"p95 {percentile(times, 0.95):.1f} ms; CPU p50 {statistics.median(cpu[case]):.1f}"
            f" ms, p95 {percentile(cpu[case], 0.95):.1f} ms (target: p95 <= 20 ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
