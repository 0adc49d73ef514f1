"""Benchmarks: wall time and peak memory of every command, as ratios to `python -c pass`.

One command, one table at the end:

    python bench/run_bench.py                 # 1M, 100M and 1G transcripts (a few minutes)
    python bench/run_bench.py --quick         # 1M and 100M, fewer runs (development)
    python bench/run_bench.py --sizes 1M,100M --runs 5 --json rows.json

Sections of the table:

- the hot path per transcript size: ctx-budget (hook JSON on stdin), ctx-statusline,
  ctx-usage --json, next to a naive reader that parses the whole file and to the whole-file
  ctx-usage --timeline;
- ctx-audit on the 100M transcript: by hand (last compaction, every compaction) and as the
  PostCompact hook;
- ctx-merge on 10,000 handoffs (2,000 sessions x 5 stages);
- ctx-decide: one append as a whole process, and the append throughput of 8 concurrent
  writers (every line checked whole afterwards);
- import cost of each hot entry point (``python -X importtime -S``), and whether it imports
  a module it should not;
- the installed commands (installed_bench.py): ctx-budget and ctx-statusline as
  ./install registers them in settings.json, on transcripts of both shapes (2.1.332's and
  old clients'), interleaved with `python -c pass` of the same interpreter, CPU and wall
  time; target 1.5x in CPU time and 40 MB.

Transcripts are generated into bench/data/ (git-ignored) by make_transcript.py. Every
command runs with the same interpreter as `python -c pass`; the console scripts next to
that interpreter are used when installed (as the client runs them), else `python -m`.
Machines differ and are shared: read the ratios, which compare runs of one session.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = HERE / "data"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "hooks"))

from make_transcript import SESSION, generate, parse_size  # noqa: E402

# Targets of the benchmark issue, checked at the end of every run.
BUDGET_MAX_RATIO = 2.5
USAGE_MAX_RATIO = 4.0
BUDGET_MAX_MB = 40.0
MERGE_MAX_SECONDS = 5.0

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

# One writer of the concurrency benchmark: appends ``count`` records through ctx-decide's
# main() in one interpreter, then prints when its first and last append finished.
DECIDE_WRITER = """
import os, sys, time
from context_memory.commands.decide import main
writer, count = sys.argv[1], int(sys.argv[2])
sys.stdout = open(os.devnull, "w")
first = None
for number in range(count):
    args = [f"bench writer {writer} decision {number}", "--session", f"bench-{writer}",
            "--reason", "because " * 12, "--alt", "the other option"]
    if main(args) != 0:
        sys.exit(1)
    first = first if first is not None else time.time()
sys.stderr.write(f"{first} {time.time()}\\n")
"""

# Entry points on the hot path, whose import cost the table shows.
HOT_MODULES = (
    ("ctx-budget", "context_memory.handlers.budget"),
    ("ctx-statusline", "context_memory.handlers.statusline"),
    ("ctx-extract", "context_memory.handlers.extract"),
    ("ctx-restore", "context_memory.handlers.restore"),
    ("ctx-audit", "context_memory.handlers.audit"),
)
# What a hot entry point must not import before it needs it (tests/repo/test_import_cost.py).
HEAVY = ("click", "orjson", "filelock", "typing", "dataclasses", "pathlib", "argparse",
         "subprocess", "difflib", "uuid", "tempfile", "shutil")  # fmt: skip

Row = dict[str, object]


def entry(name: str, module: str) -> list[str]:
    script = Path(sys.executable).parent / name
    return [str(script)] if script.exists() else [sys.executable, "-m", module]


def run_once(
    argv: list[str],
    stdin: bytes,
    env: dict[str, str],
    *,
    cwd: Path | None = None,
    ok: tuple[int, ...] = (0,),
) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one whole process (installed_bench.run_once: the
    same trampoline, so the child's peak RSS is its own)."""
    from installed_bench import run_once as run_process

    wall, _cpu, peak = run_process(argv, stdin, env, cwd, ok=ok, allow_stderr=True)
    return wall, peak


def measure(
    argv: list[str],
    stdin: bytes,
    runs: int,
    env: dict[str, str],
    *,
    cwd: Path | None = None,
    ok: tuple[int, ...] = (0,),
    warm: bool = True,
) -> tuple[float, float]:
    """(median wall seconds, highest peak MB) over ``runs`` runs."""
    if warm:
        run_once(argv, stdin, env, cwd=cwd, ok=ok)  # the page cache and the .pyc files
    walls, peaks = [], []
    for _ in range(runs):
        wall, peak = run_once(argv, stdin, env, cwd=cwd, ok=ok)
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


def status_json(path: Path, project: Path, used_percentage: float | None) -> bytes:
    """The status line's stdin; a null used_percentage (after a compaction) makes
    ctx-statusline read the transcript."""
    current = {
        "input_tokens": 2_000,
        "output_tokens": 350,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 148_000,
    }
    return json.dumps(
        {
            "session_id": "bench-statusline",
            "transcript_path": str(path),
            "cwd": str(project),
            "model": {"id": "claude-sonnet-4-6", "display_name": "Sonnet 4.6"},
            "workspace": {"current_dir": str(project), "project_dir": str(project)},
            "context_window": {
                "context_window_size": 200_000,
                "used_percentage": used_percentage,
                "current_usage": current if used_percentage is not None else None,
            },
        }
    ).encode()


def fresh_folder(path: Path) -> Path:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


class Table:
    def __init__(self, floor: float) -> None:
        self.floor = floor
        self.rows: list[Row] = []

    def add(
        self, section: str, size: str, command: str, seconds: float, peak: float, note: str = ""
    ) -> Row:
        row: Row = {
            "section": section,
            "size": size,
            "command": command,
            "seconds": seconds,
            "ratio": seconds / self.floor,
            "peak_mb": peak,
            "note": note,
        }
        self.rows.append(row)
        print(f"  {size:>5}  {command:<40} {seconds:8.3f} s  {note}", file=sys.stderr)
        return row

    def print(self) -> None:
        section = None
        for row in self.rows:
            if row["section"] != section:
                section = row["section"]
                print(f"\n{section}")
                print(
                    f"{'transcript':>10}  {'command':<42} {'median s':>9} {'x pass':>7} "
                    f"{'peak MB':>8}  note"
                )
            print(
                f"{row['size']:>10}  {row['command']:<42} {row['seconds']:>9.3f} "
                f"{row['ratio']:>7.2f} {row['peak_mb']:>8.1f}  {row['note']}".rstrip()
            )


# -- sections --------------------------------------------------------------------------------


def section_sizes(table: Table, sizes: list[str], args: argparse.Namespace, env: dict[str, str]):
    project = fresh_folder(DATA / "project")
    section = "Hot path by transcript size (whole process)"
    for size_text in sizes:
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
        pre_compact = json.dumps(
            {
                "session_id": "bench-session",
                "transcript_path": str(path),
                "cwd": str(project),
                "hook_event_name": "PreCompact",
                "trigger": "auto",
                "custom_instructions": None,
            }
        ).encode()
        usage = entry("ctx-usage", "context_memory.commands.usage")
        statusline = entry("ctx-statusline", "context_memory.handlers.statusline")
        cases = [
            ("ctx-budget (hook JSON on stdin)",
             entry("ctx-budget", "context_memory.handlers.budget"), hook_json, args.runs),
            ("ctx-statusline (status JSON)", statusline,
             status_json(path, project, used_percentage=75.2), args.runs),
            ("ctx-statusline (after compaction)", statusline,
             status_json(path, project, used_percentage=None), args.runs),
            ("ctx-extract (PreCompact hook JSON)",
             entry("ctx-extract", "context_memory.handlers.extract"), pre_compact, args.runs),
            ("ctx-usage --json PATH", [*usage, "--json", str(path)], b"", args.runs),
            ("ctx-usage --timeline --json PATH", [*usage, "--timeline", "--json", str(path)],
             b"", args.timeline_runs),
            ("naive reader (parses every line)", [sys.executable, "-c", NAIVE_READER, str(path)],
             b"", args.naive_runs),
        ]  # fmt: skip
        for label, command, stdin, runs in cases:
            seconds, peak = measure(command, stdin, runs, env, cwd=project)
            table.add(section, size_text, label, seconds, peak)


def audit_project(env: dict[str, str]) -> Path:
    """A project whose decisions log the generated transcript's compactions are audited
    against (its summaries keep Redis Cluster, not the rest)."""
    from context_memory.memory.decisions import append_record, make_record

    project = fresh_folder(DATA / "audit-project")
    state = str(project / ".working-state")
    decisions = [
        ("decided", "Use Redis Cluster with 6 nodes", ["Redis Cluster"]),
        ("rejected", "Codis", []),
        ("decided", "Postgres 16 for the ledger", ["Postgres"]),
        ("risk", "resharding under load is untested", []),
        ("decided", "采用 Redis 集群（需要分片）", []),
        ("decided", "Keep the public API stable", []),
    ]
    for kind, text, keywords in decisions:
        record = make_record(
            kind, text, session=SESSION, keywords=keywords, ts="2026-11-30T09:00:00Z"
        )
        append_record(state, record)
    return project


def section_audit(table: Table, args: argparse.Namespace, env: dict[str, str]) -> None:
    path = ensure_transcript("100M")
    project = audit_project(env)
    section = "ctx-audit on the 100M transcript"
    audit = entry("ctx-audit", "context_memory.handlers.audit")
    hook_env = {**env, "CLAUDE_PROJECT_DIR": str(project)}
    post_compact = json.dumps(
        {
            "session_id": SESSION,
            "transcript_path": str(path),
            "cwd": str(project),
            "hook_event_name": "PostCompact",
            "trigger": "auto",
            "compact_summary": "<summary>This session is being continued... Summary: Redis "
            "Cluster.</summary>",
        }
    ).encode()
    cases = [
        ("ctx-audit PATH --json (last compaction)", [*audit, str(path), "--json"], b"", env),
        ("ctx-audit PATH --json --all", [*audit, str(path), "--json", "--all"], b"", env),
        ("ctx-audit hook (PostCompact JSON)", audit, post_compact, hook_env),
    ]
    for label, command, stdin, case_env in cases:
        seconds, peak = measure(command, stdin, args.audit_runs, case_env, cwd=project, ok=(0, 1))
        table.add(section, "100M", label, seconds, peak)


def section_merge(table: Table, args: argparse.Namespace, env: dict[str, str]) -> None:
    from bench_merge import NOW, make_state

    project = fresh_folder(DATA / "merge-project")
    state = project / ".working-state"
    written = make_state(state, args.merge_sessions, 5)
    section = f"ctx-merge on {written:,} handoffs ({args.merge_sessions:,} sessions)"
    merge = [*entry("ctx-merge", "context_memory.commands.merge"), "--project", str(project)]
    seconds, peak = measure(
        [*merge, "--force", "--quiet", "--now", NOW], b"", args.merge_runs, env, cwd=project
    )
    verdict = "PASS" if seconds < MERGE_MAX_SECONDS else "FAIL"
    table.add(section, "-", "ctx-merge --force (full merge)", seconds, peak,
              f"target < {MERGE_MAX_SECONDS:g} s: {verdict}")  # fmt: skip
    seconds, peak = measure([*merge, "--quiet", "--now", NOW], b"", args.runs, env, cwd=project)
    table.add(section, "-", "ctx-merge (stopped at the time gate)", seconds, peak)
    # The SessionStart hook looks for the newest handoff among all of them.
    start = json.dumps(
        {
            "session_id": "bench-restore",
            "transcript_path": "",
            "cwd": str(project),
            "hook_event_name": "SessionStart",
            "source": "startup",
        }
    ).encode()
    restore = entry("ctx-restore", "context_memory.handlers.restore")
    seconds, peak = measure(restore, start, args.runs, {**env, "CLAUDE_PROJECT_DIR": str(project)})
    table.add(section, "-", "ctx-restore (SessionStart hook JSON)", seconds, peak)


def section_decide(table: Table, args: argparse.Namespace, env: dict[str, str]) -> None:
    from context_memory.core.decisions_log import read_records

    section = "ctx-decide"
    decide = entry("ctx-decide", "context_memory.commands.decide")
    project = fresh_folder(DATA / "decide-project")
    (project / ".git").mkdir()
    seconds, peak = measure(
        [*decide, "Use Redis Cluster", "--reason", "needs sharding"], b"", args.runs, env,
        cwd=project,
    )  # fmt: skip
    table.add(section, "-", "ctx-decide TEXT (one append)", seconds, peak)

    writers, appends = args.decide_writers, args.decide_appends
    results = []
    for _ in range(args.decide_runs):
        fresh_folder(project / ".working-state")
        started = time.perf_counter()
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", DECIDE_WRITER, str(number), str(appends)],
                cwd=project,
                env=env,
                stderr=subprocess.PIPE,
            )
            for number in range(writers)
        ]
        spans, peaks = [], []
        for proc in procs:
            _, status, usage = os.wait4(proc.pid, 0)
            assert proc.stderr is not None
            err = proc.stderr.read().decode()
            proc.stderr.close()
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"a ctx-decide writer failed: {err}")
            first, last = (float(part) for part in err.split())
            spans.append((first, last))
            peaks.append(usage.ru_maxrss / 1024)
        wall = time.perf_counter() - started
        records, problems = read_records(str(project / ".working-state"))
        if problems or len(records) != writers * appends:
            raise SystemExit(f"ctx-decide lost or broke records: {len(records)}, {problems[:3]}")
        appending = max(s[1] for s in spans) - min(s[0] for s in spans)
        results.append((wall, appending, max(peaks)))
    wall, appending, peak = sorted(results)[len(results) // 2]
    total = writers * appends
    table.add(
        section,
        "-",
        f"{writers} writers x {appends} appends, concurrent",
        wall,
        peak,
        f"{total / appending:,.0f} appends/s while all append "
        f"({appending / total * 1000:.2f} ms each); {total:,} whole lines",
    )


def import_cost(module: str, runs: int, env: dict[str, str]) -> tuple[float, int, list[str]]:
    """(median cumulative import ms, modules imported, heavy modules among them)."""
    times, names = [], set()
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-S", "-X", "importtime", "-c", f"import {module}"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        total = 0
        for line in done.stderr.splitlines():
            if not line.startswith("import time:") or "cumulative" in line:
                continue
            _, cumulative, name = line[len("import time:") :].split("|")
            names.add(name.strip())
            if name.strip() == module:
                total = int(cumulative)
        times.append(total / 1000)
    heavy = sorted({name.split(".")[0] for name in names} & set(HEAVY))
    return statistics.median(times), len(names), heavy


def section_imports(table: Table, args: argparse.Namespace, env: dict[str, str]) -> None:
    section = "Import cost of the hot entry points (python -S: no site-packages .pth files)"
    bare, bare_peak = measure([sys.executable, "-S", "-c", "pass"], b"", args.runs, env)
    table.add(section, "-", "python -S -c pass", bare, bare_peak)
    for command, module in HOT_MODULES:
        millis, count, heavy = import_cost(module, args.runs, env)
        argv = [sys.executable, "-S", "-c", f"import {module}"]
        seconds, peak = measure(argv, b"", args.runs, env)
        note = (
            f"+{(seconds - bare) * 1000:.0f} ms over python -S -c pass ({millis:.0f} ms under "
            f"-X importtime), {count} modules; heavy: {', '.join(heavy) or 'none'}"
        )
        table.add(section, "-", f"{command} (python -S -c 'import ...')", seconds, peak, note)


def check_targets(table: Table) -> list[str]:
    """One line per target of the issue, PASS or FAIL."""
    budget = [r for r in table.rows if r["command"] == "ctx-budget (hook JSON on stdin)"]
    if not budget:
        return []
    worst_ratio = max(float(r["ratio"]) for r in budget)
    worst_peak = max(float(r["peak_mb"]) for r in budget)
    seconds = [float(r["seconds"]) for r in budget]
    flat = max(seconds) / min(seconds)
    by_size = ", ".join(f"{r['size']} {float(r['seconds']):.3f} s" for r in budget)

    def verdict(ok: bool) -> str:
        return "PASS" if ok else "FAIL"

    return [
        f"ctx-budget within {BUDGET_MAX_RATIO:g}x of python -c pass at every size: "
        f"{verdict(worst_ratio <= BUDGET_MAX_RATIO)} (worst {worst_ratio:.2f}x)",
        f"ctx-budget under {BUDGET_MAX_MB:g} MB: {verdict(worst_peak < BUDGET_MAX_MB)} "
        f"(peak {worst_peak:.1f} MB)",
        f"ctx-budget flat in file size: {verdict(flat < 1.5)} ({by_size}; max/min {flat:.2f})",
        *usage_target(table, verdict),
    ]


def usage_target(table: Table, verdict: Callable[[bool], str]) -> list[str]:
    """ctx-usage --json stays within 4x (it may use a CLI library; the count is cached)."""
    usage = [r for r in table.rows if r["command"] == "ctx-usage --json PATH"]
    if not usage:
        return []
    worst = max(float(r["ratio"]) for r in usage)
    return [
        f"ctx-usage --json within {USAGE_MAX_RATIO:g}x of python -c pass at every size: "
        f"{verdict(worst <= USAGE_MAX_RATIO)} (worst {worst:.2f}x)"
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="context-memory benchmarks")
    parser.add_argument("--sizes", default=None, help="transcript sizes (default 1M,100M,1G)")
    parser.add_argument("--quick", action="store_true", help="1M and 100M, fewer runs")
    parser.add_argument("--runs", type=int, default=None, help="runs per command (median)")
    parser.add_argument("--naive-runs", type=int, default=1, help="runs of the naive full parser")
    parser.add_argument(
        "--timeline-runs", type=int, default=3, help="runs of ctx-usage --timeline (whole file)"
    )
    parser.add_argument("--audit-runs", type=int, default=3)
    parser.add_argument("--merge-runs", type=int, default=3)
    parser.add_argument("--merge-sessions", type=int, default=2000, help="x 5 handoffs each")
    parser.add_argument("--decide-writers", type=int, default=8)
    parser.add_argument("--decide-appends", type=int, default=100, help="per writer")
    parser.add_argument("--decide-runs", type=int, default=3)
    parser.add_argument(
        "--skip", default="", help="sections to skip: sizes,audit,merge,decide,imports,installed"
    )
    parser.add_argument(
        "--python", default=shutil.which("python3") or sys.executable,
        help="the python ./install uses for the installed-commands section",
    )  # fmt: skip
    parser.add_argument("--json", dest="json_out", help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    sizes = (args.sizes or ("1M,100M" if args.quick else "1M,100M,1G")).split(",")
    if args.runs is None:
        args.runs = 3 if args.quick else 7
    if args.quick:
        args.audit_runs = args.merge_runs = args.decide_runs = 1
    skip = set(filter(None, args.skip.split(",")))

    # An install compiles the package (pip does); without .pyc files every run would
    # compile it again (PYTHONDONTWRITEBYTECODE is common in containers).
    compileall.compile_dir(str(REPO / "hooks" / "context_memory"), quiet=1)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CTX_", "CLAUDE_"))}
    env["PYTHONPATH"] = str(REPO / "hooks")
    env["CTX_CACHE_DIR"] = str(DATA / "cache")
    started = time.perf_counter()

    floor, floor_peak = measure([sys.executable, "-c", "pass"], b"", args.runs, env)
    table = Table(floor)
    table.add("Baseline", "-", "python -c pass", floor, floor_peak)
    if "sizes" not in skip:
        section_sizes(table, sizes, args, env)
    if "audit" not in skip:
        section_audit(table, args, env)
    if "merge" not in skip:
        section_merge(table, args, env)
    if "decide" not in skip:
        section_decide(table, args, env)
    if "imports" not in skip:
        section_imports(table, args, env)

    installed_checks: list[str] = []
    if "installed" not in skip:
        import installed_bench

        install = installed_bench.install_with(args.python)
        baseline, cases = installed_bench.measure(
            install, sizes, list(installed_bench.SHAPES), max(args.runs, 5) * 2
        )
        rows, installed_checks = installed_bench.report(baseline, cases, install)

    table.print()
    if installed_checks:
        installed_bench.print_table(rows, [], install)
    print()
    for line in [*check_targets(table), *installed_checks]:
        print(line)
    print(
        f"\npython: {sys.executable} ({sys.version.split()[0]}), {os.cpu_count()} CPUs; "
        f"median of {args.runs} runs (audit {args.audit_runs}, merge {args.merge_runs}, "
        f"timeline {args.timeline_runs}, naive {args.naive_runs}); "
        f"benchmark took {time.perf_counter() - started:.0f} s"
    )
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(table.rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
