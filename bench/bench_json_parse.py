"""orjson or the standard library's json for each bulk parse (issue 28, item 4).

    python bench/bench_json_parse.py                 # 30 MB generated + the real transcripts
    python bench/bench_json_parse.py --size 100M --runs 7

For each transcript, each use whole, with core/bulkjson's parser set to json.loads, then
to orjson.loads, interleaved round by round (a noisy neighbour slows both alike): the
median of ``--runs`` rounds each, their ratio, and the ratio of the fastest rounds (the
least disturbed on a busy machine):

- ``timeline``: measure/timeline.build_timeline (ctx-usage --timeline);
- ``audit --all``: audit/compactions.all_compactions (ctx-audit --all);
- ``replay``: guard/replay.replay over replay.read_rows (ctx-guard --replay);
- ``capture``: capture/store.capture_session from the start of the transcript, as
  ctx-capture's catch-up (dry run: the same reads and engine, nothing written);
- ``parse``: the bare parse of every row.

ctx-merge is not here: it reads Markdown handoffs, and its only JSON is its own small state
file (docs/layout.md). The transcripts are bench/make_transcript.py's (the 2.1.332 shape)
and the 17 real ones of tests/fixtures/real-transcripts (or --real DIR), ungzipped into one
file in a temporary folder. Not part of pytest.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "hooks"))

import orjson  # noqa: E402
from make_transcript import generate, parse_size  # noqa: E402

from context_memory.audit.compactions import all_compactions  # noqa: E402
from context_memory.capture.store import capture_session  # noqa: E402
from context_memory.core import bulkjson  # noqa: E402
from context_memory.guard.replay import read_rows, replay  # noqa: E402
from context_memory.measure.timeline import build_timeline  # noqa: E402

REAL = HERE.parent / "tests" / "fixtures" / "real-transcripts"
Loads = Callable[[bytes], Any]


def with_loads(loads: Loads, run: Callable[[], object]) -> float:
    """Seconds that ``run`` takes with core/bulkjson's parser set to ``loads``."""
    original = bulkjson.bulk_loads
    bulkjson.bulk_loads = lambda: loads
    try:
        start = time.perf_counter()
        run()
        return time.perf_counter() - start
    finally:
        bulkjson.bulk_loads = original


def parse_all(lines: list[bytes]) -> None:
    loads = bulkjson.bulk_loads()
    for line in lines:
        try:
            loads(line)
        except ValueError:
            pass


def uses(path: Path, state_dir: str) -> dict[str, Callable[[], object]]:
    lines = path.read_bytes().splitlines()
    where = str(path)
    return {
        "timeline": lambda: build_timeline(where),
        "audit --all": lambda: all_compactions(where),
        "replay": lambda: replay(read_rows(where)),
        "capture": lambda: capture_session(
            state_dir, "bench", where, dry_run=True, flush=True, loads=bulkjson.bulk_loads()
        ),
        "parse": lambda: parse_all(lines),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="30M")
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
        state_dir = Path(tmp) / "state"
        state_dir.mkdir()
        print("transcript            MB use              json ms  orjson ms  ratio   min ratio")
        for path in files:
            size = path.stat().st_size / 1e6
            for what, run in uses(path, str(state_dir)).items():
                plain, fast = [], []
                for _ in range(args.runs):
                    plain.append(with_loads(json.loads, run))
                    fast.append(with_loads(orjson.loads, run))
                a, b = statistics.median(plain) * 1e3, statistics.median(fast) * 1e3
                best = min(plain) / min(fast)
                print(
                    f"{path.stem:<16} {size:>7.1f} {what:<13} {a:>9.1f} {b:>10.1f} {a / b:>6.2f}"
                    f" {best:>11.2f}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
