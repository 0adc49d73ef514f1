"""orjson or the standard library's json for the bulk parses (issue 28, item 4).

    python bench/bench_json_parse.py                 # 50 MB generated + the real transcripts
    python bench/bench_json_parse.py --size 200M --runs 7

Two figures per transcript, each the median of ``--runs`` interleaved rounds (a noisy
neighbour slows both alike): the whole of measure/timeline.build_timeline (ctx-usage
--timeline) with orjson.loads and with json.loads as its loader, and the bare parse of
every row (what ctx-audit --all, ctx-guard --replay and ctx-merge's transcript reads would
gain). The transcripts are bench/make_transcript.py's (the 2.1.332 shape) and the real
ones of tests/fixtures/real-transcripts (or --real DIR), ungzipped into a temporary
folder.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "hooks"))

import orjson  # noqa: E402
from make_transcript import generate, parse_size  # noqa: E402

from context_memory.measure import timeline  # noqa: E402

REAL = HERE.parent / "tests" / "fixtures" / "real-transcripts"


def timed(function: object, *args: object) -> float:
    start = time.perf_counter()
    function(*args)  # type: ignore[operator]
    return time.perf_counter() - start


def build_with(loads: object, path: str) -> None:
    original = timeline._loader
    timeline._loader = lambda: loads  # type: ignore[assignment,return-value]
    try:
        timeline.build_timeline(path)
    finally:
        timeline._loader = original


def parse_all(loads: object, lines: list[bytes]) -> None:
    for line in lines:
        try:
            loads(line)  # type: ignore[operator]
        except ValueError:
            pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="50M")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--real", default=str(REAL))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        files = [Path(tmp) / "generated.jsonl"]
        generate(str(files[0]), parse_size(args.size))
        real = Path(args.real)
        real_lines: list[bytes] = []
        for gz in sorted(real.glob("*.jsonl.gz")) if real.is_dir() else []:
            real_lines.extend(gzip.decompress(gz.read_bytes()).splitlines())
        if real_lines:
            files.append(Path(tmp) / "real-17.jsonl")
            files[1].write_bytes(b"\n".join(real_lines) + b"\n")
        print("transcript            MB what               json ms orjson ms  ratio")
        for path in files:
            lines = path.read_bytes().splitlines()
            size = path.stat().st_size / 1e6
            for what, run in (("build_timeline", build_with), ("parse every row", parse_all)):
                subject: object = str(path) if run is build_with else lines
                plain, fast = [], []
                for _ in range(args.runs):
                    plain.append(timed(run, json.loads, subject))
                    fast.append(timed(run, orjson.loads, subject))
                a, b = statistics.median(plain) * 1e3, statistics.median(fast) * 1e3
                print(f"{path.stem:<16} {size:>7.1f} {what:<16} {a:>9.1f} {b:>9.1f} {a / b:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
