"""Benchmarks: whole-process wall time and peak memory of the hooks, as ratios to `python -c pass`.

One command, a table at the end:

    python bench/run_bench.py                 # 1M, 100M and 1G transcripts
    python bench/run_bench.py --sizes 1M,100M --runs 5

Transcripts are generated into bench/data/ (git-ignored) by make_transcript.py. Every
command runs with the same interpreter as `python -c pass`; the console scripts next to
that interpreter are used when installed (as the client runs them), else `python -m`.
Machines differ and are shared: read the ratios, which compare runs of one session.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = HERE / "data"
sys.path.insert(0, str(HERE))

from make_transcript import generate, parse_size  # noqa: E402

NAIVE_READER = """
import json, sys
last = None
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    try:
        row = json.loads(line)
    except ValueError:
        continue
    if isinstance(row, dict) and row.get("type") == "assistant" and not row.get("isSidechain"):
        usage = row.get("message", {}).get("usage")
        if usage:
            last = usage
print(sum(last.get(k, 0) for k in ("input_tokens", "cache_creation_input_tokens",
      "cache_read_input_tokens", "output_tokens")) if last else 0)
"""


def entry(name: str, module: str) -> list[str]:
    script = Path(sys.executable).parent / name
    return [str(script)] if script.exists() else [sys.executable, "-m", module]


def run_once(argv: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, float, int]:
    """(wall seconds, peak RSS in MB, exit status) of one whole process."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
    )
    assert proc.stdin is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        raise SystemExit(f"{argv[0]} failed ({proc.returncode}): {err}")
    return wall, usage.ru_maxrss / 1024, proc.returncode


def measure(argv: list[str], stdin: bytes, runs: int, env: dict[str, str]) -> tuple[float, float]:
    run_once(argv, stdin, env)  # warm the page cache and the interpreter's files
    walls, peaks = [], []
    for _ in range(runs):
        wall, peak, _ = run_once(argv, stdin, env)
        walls.append(wall)
        peaks.append(peak)
    return statistics.median(walls), max(peaks)


def ensure_transcript(size_text: str) -> Path:
    path = DATA / f"transcript-{size_text}.jsonl"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        print(f"generating {path.name} ...", file=sys.stderr)
        tmp = path.with_suffix(".tmp")
        generate(str(tmp), parse_size(size_text))
        tmp.replace(path)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="context-memory benchmarks")
    parser.add_argument("--sizes", default="1M,100M,1G")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--naive-runs", type=int, default=1, help="runs of the naive full parser")
    parser.add_argument("--json", dest="json_out", help="also write the rows as JSON here")
    args = parser.parse_args(argv)

    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "hooks")
    env["CTX_CACHE_DIR"] = str(DATA / "cache")
    env.pop("CLAUDE_PROJECT_DIR", None)
    project = DATA / "project"
    project.mkdir(parents=True, exist_ok=True)

    floor, floor_peak = measure([sys.executable, "-c", "pass"], b"", args.runs, env)
    rows: list[dict[str, object]] = [
        {
            "size": "-",
            "command": "python -c pass",
            "seconds": floor,
            "ratio": 1.0,
            "peak_mb": floor_peak,
        }
    ]
    for size_text in args.sizes.split(","):
        path = ensure_transcript(size_text)
        hook_json = json.dumps(
            {
                "session_id": "bench-session",
                "transcript_path": str(path),
                "cwd": str(project),
                "hook_event_name": "UserPromptSubmit",
                "prompt": "next",
            }
        ).encode()
        cases = [
            (
                "ctx-budget (hook JSON on stdin)",
                entry("ctx-budget", "context_memory.budget"),
                hook_json,
                args.runs,
            ),
            (
                "ctx-usage --json PATH",
                entry("ctx-usage", "context_memory.usage_cli") + ["--json", str(path)],
                b"",
                args.runs,
            ),
            (
                "naive reader (parses every line)",
                [sys.executable, "-c", NAIVE_READER, str(path)],
                b"",
                args.naive_runs,
            ),
        ]
        for label, command, stdin, runs in cases:
            seconds, peak = measure(command, stdin, runs, env)
            rows.append(
                {
                    "size": size_text,
                    "command": label,
                    "seconds": seconds,
                    "ratio": seconds / floor,
                    "peak_mb": peak,
                }
            )

    print()
    print(f"{'transcript':>10}  {'command':<34} {'median s':>9} {'x pass':>7} {'peak MB':>8}")
    for row in rows:
        print(
            f"{row['size']:>10}  {row['command']:<34} {row['seconds']:>9.3f} "
            f"{row['ratio']:>7.2f} {row['peak_mb']:>8.1f}"
        )
    print(f"\npython: {sys.executable} ({sys.version.split()[0]}), runs: {args.runs} (median)")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
