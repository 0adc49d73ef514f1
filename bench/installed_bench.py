"""The hot path as the client runs it: the commands ./install registers, against `python -c pass`.

    python bench/installed_bench.py                     # 1M, 100M, 1G; both transcript shapes
    python bench/installed_bench.py --sizes 1M --runs 9 --python /usr/bin/python3
    python bench/installed_bench.py --compare OTHER/home/.claude/settings.json   # before/after

The project is installed with the repository's own ``./install --statusline`` into
bench/data/installed-<python version>/ (a private HOME and virtualenv; pip runs once, later
runs reuse it), or ``--settings FILE`` names an existing install's settings.json. The hook
and status line commands are read from that settings.json, whatever launcher it holds, and
run as its command line says (split as the shell would, without a shell, which `python -c
pass` does not pay either). The baseline is `python -c pass` of the virtualenv's
interpreter: the same binary, the same site setup.

All commands run interleaved, round after round (pass, then each case, then pass again...),
so a noisy neighbour slows every one of them alike. Per command: median CPU time (user +
system of the process), median wall time, and the highest peak RSS; the ratios are to the
baselines' medians. Targets (issue 10): ctx-budget and ctx-statusline within 1.5x of
`python -c pass` in CPU time at every size and for both shapes (2.1.332's and old
clients'), under 40 MB. Goal (issue 19): within 1.3x of `python -c pass`.

``--compare SETTINGS`` also runs another install's hook and status line commands (say, the
main branch's, installed before a change) as twin cases in the same rounds, marked
"[compare]": a before/after figure that the machine's drift cannot skew. The verdicts
are on this install's rows only.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = HERE / "data"
sys.path.insert(0, str(HERE))

from make_transcript import SHAPES, generate, parse_size  # noqa: E402

HOT_MAX_CPU_RATIO = 1.5
HOT_GOAL_CPU_RATIO = 1.3
HOT_MAX_MB = 40.0
SESSION = "bench-installed"

# Runs the measured command as its child; reports the child's wall time, CPU time and peak
# RSS. Through this small process, as a child's peak RSS would otherwise count the memory
# of the benchmark it was forked from.
TRAMPOLINE = """
import os, sys, time
report = int(sys.argv[1])
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
os.write(report, f"{wall} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}".encode())
os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
"""


class Install:
    def __init__(self, settings_path: Path) -> None:
        self.settings_path = settings_path
        self.settings = json.loads(settings_path.read_text(encoding="utf-8"))
        self.budget = self._hook("UserPromptSubmit")
        self.statusline = shlex.split(self.settings["statusLine"]["command"])
        self.guard = self._hook("PreToolUse")
        self.python = self._python_of(self.budget)

    def _hook(self, event: str) -> list[str]:
        for group in self.settings["hooks"][event]:
            for entry in group["hooks"]:
                if "ctx-" in entry["command"] or "context_memory" in entry["command"]:
                    return shlex.split(entry["command"])
        raise SystemExit(f"no context-memory {event} hook in {self.settings_path}")

    @staticmethod
    def _python_of(argv: list[str]) -> str:
        """The interpreter the registered command runs: itself if it is a python, else the
        python next to it (a virtualenv's bin/), else its script's #! line."""
        program = Path(argv[0])
        if program.name.startswith("python"):
            return str(program)
        beside = program.parent / "python"
        if beside.exists():
            return str(beside)
        first = program.read_bytes().split(b"\n", 1)[0]
        return shlex.split(first[2:].decode())[0]


def install_with(python: str) -> Install:
    """./install --statusline with ``python`` into bench/data/installed-<version>/."""
    version = subprocess.run(
        [python, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    root = DATA / f"installed-{version}"
    home = root / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CTX_", "CLAUDE"))}
    env.update(
        HOME=str(home),
        CTX_PYTHON=python,
        CTX_VENV=str(root / "venv"),
        CTX_BIN_DIR=str(root / "links"),
    )
    done = subprocess.run(
        [str(REPO / "install"), "--statusline"], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"./install with {python} failed:\n{done.stdout}{done.stderr}")
    return Install(home / ".claude" / "settings.json")


def transcript(size_text: str, shape: str) -> Path:
    name = "transcript" if shape == "2.1.332" else f"transcript-{shape}"
    path = DATA / f"{name}-{size_text}.jsonl"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        print(f"generating {path.name} ...", file=sys.stderr)
        tmp = path.with_suffix(".tmp")
        generate(str(tmp), parse_size(size_text), shape)
        tmp.replace(path)
    return path


def hook_json(path: Path, project: Path) -> bytes:
    return json.dumps(
        {
            "session_id": SESSION,
            "transcript_path": str(path),
            "cwd": str(project),
            "hook_event_name": "UserPromptSubmit",
            "prompt": "next",
        }
    ).encode()


def guard_json(path: Path, project: Path) -> bytes:
    """ctx-guard before a Bash call (bench/bench_guard.py measures it with 10,000 records)."""
    return json.dumps(
        {
            "session_id": SESSION,
            "transcript_path": str(path),
            "cwd": str(project),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "npm install date-fns"},
            "tool_use_id": "toolu_bench",
        }
    ).encode()


def status_json(path: Path, project: Path, used_percentage: float | None) -> bytes:
    """A null used_percentage (right after a compaction) makes ctx-statusline read the
    transcript: the case that depends on the transcript's shape and size."""
    current = {
        "input_tokens": 2_000,
        "output_tokens": 350,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 148_000,
    }
    return json.dumps(
        {
            "session_id": SESSION,
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


def run_once(
    argv: list[str],
    stdin: bytes,
    env: dict[str, str],
    cwd: Path | None = None,
    *,
    ok: tuple[int, ...] = (0,),
    allow_stderr: bool = False,
) -> tuple[float, ...]:
    """(wall s, CPU s, peak MB) of one whole process; exits the benchmark when its status
    is not in ``ok`` or (unless ``allow_stderr``) it wrote to stderr."""
    read_end, write_end = os.pipe()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-S", "-I", "-c", TRAMPOLINE, str(write_end), *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
            pass_fds=(write_end,),
        )
    finally:
        os.close(write_end)
    _, err = proc.communicate(stdin)
    with os.fdopen(read_end, "rb") as report:
        wall, cpu, peak_kb = report.read().split()
    if proc.returncode not in ok or (err and not allow_stderr):
        raise SystemExit(f"{' '.join(argv[:3])} failed ({proc.returncode}): {err.decode()}")
    return float(wall), float(cpu), int(peak_kb) / 1024


class Case:
    def __init__(
        self, label: str, size: str, argv: list[str], stdin: bytes, compared: bool = False
    ) -> None:
        self.label, self.size, self.argv, self.stdin = label, size, argv, stdin
        self.compared = compared  # another install's command (--compare): no verdict on it
        self.walls: list[float] = []
        self.cpus: list[float] = []
        self.peak = 0.0

    def record(self, wall: float, cpu: float, peak: float) -> None:
        self.walls.append(wall)
        self.cpus.append(cpu)
        self.peak = max(self.peak, peak)


# The same entry points without the launcher: what the package itself costs (the part of
# the figure a launcher that imports more, such as old pip's wrappers with ``re``, adds).
MODULE_MAINS = {
    "ctx-budget": "context_memory.handlers.budget",
    "ctx-statusline": "context_memory.handlers.statusline",
}


def module_argv(install: Install, command: str) -> list[str]:
    module = MODULE_MAINS[command]
    code = f"import sys\nfrom {module} import main\nsys.exit(main())"
    return [install.python, "-c", code]


def compared_cases(cases: list[Case], install: Install, other: Install) -> list[Case]:
    """Each case's twin run by ``other``'s command (the same input), marked [compare]."""
    twins = []
    for case in cases:
        argv = {id(install.budget): other.budget, id(install.statusline): other.statusline}
        if id(case.argv) in argv:
            label = f"{case.label} [compare]"
            twins.append(Case(label, case.size, argv[id(case.argv)], case.stdin, compared=True))
    return twins


def measure(
    install: Install,
    sizes: list[str],
    shapes: list[str],
    runs: int,
    modules: bool = False,
    other: Install | None = None,
) -> tuple[list[Case], list[Case]]:
    project = DATA / "installed-project"
    if project.exists():
        shutil.rmtree(project)
    project.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CTX_", "CLAUDE"))}
    env["HOME"] = str(install.settings_path.parent.parent)
    env["CTX_CACHE_DIR"] = str(DATA / "installed-cache")
    baselines = [
        Case("python -c pass", "-", [install.python, "-c", "pass"], b""),
        Case("python -I -S -c pass", "-", [install.python, "-I", "-S", "-c", "pass"], b""),
    ]
    cases = []
    for shape in shapes:
        for size in sizes:
            path = transcript(size, shape)
            cases += [
                Case(f"ctx-budget ({shape})", size, install.budget, hook_json(path, project)),
                Case(
                    f"ctx-statusline, reads transcript ({shape})",
                    size,
                    install.statusline,
                    status_json(path, project, None),
                ),
            ]
    if modules:
        for case in list(cases):
            command = case.label.split()[0].rstrip(",")
            label = f"{command} main() via -c{case.label[len(command) :]}"
            cases.append(Case(label, case.size, module_argv(install, command), case.stdin))
    cases.append(
        Case(
            "ctx-statusline (status JSON only)",
            "-",
            install.statusline,
            status_json(transcript(sizes[0], shapes[0]), project, 75.2),
        )
    )
    cases.append(
        Case(
            "ctx-guard (a Bash call)",
            "-",
            install.guard,
            guard_json(transcript(sizes[0], shapes[0]), project),
        )
    )
    if other is not None:
        cases += compared_cases(cases, install, other)
    everything = [*baselines, *cases]
    for case in everything:  # warm: page cache, .pyc files, the status line's window cache
        run_once(case.argv, case.stdin, env, project)
    for _ in range(runs):
        for case in cases:
            case.record(*run_once(case.argv, case.stdin, env, project))
            # Baselines again between cases: drift of a shared machine hits all alike.
            for baseline in baselines:
                baseline.record(*run_once(baseline.argv, baseline.stdin, env, project))
    return baselines, cases


def report(
    baselines: list[Case], cases: list[Case], install: Install
) -> tuple[list[dict], list[str]]:
    plain, isolated = baselines
    base_cpu, base_wall = statistics.median(plain.cpus), statistics.median(plain.walls)
    iso_cpu, iso_wall = statistics.median(isolated.cpus), statistics.median(isolated.walls)
    rows = []
    for case in [*baselines, *cases]:
        cpu, wall = statistics.median(case.cpus), statistics.median(case.walls)
        rows.append(
            {
                "command": case.label,
                "size": case.size,
                "cpu_ms": cpu * 1000,
                "cpu_ratio": cpu / base_cpu,
                "cpu_ratio_isolated": cpu / iso_cpu,
                "wall_ms": wall * 1000,
                "wall_ratio": wall / base_wall,
                "wall_ratio_isolated": wall / iso_wall,
                "peak_mb": case.peak,
                "runs": len(case.cpus),
            }
        )
    pairs = zip(rows[len(baselines) :], cases, strict=True)
    hot = [row for row, case in pairs if not case.compared]
    worst_cpu = max(hot, key=lambda r: r["cpu_ratio"])
    worst_peak = max(hot, key=lambda r: r["peak_mb"])
    verdict = {True: "PASS", False: "FAIL"}
    checks = [
        f"ctx-budget and ctx-statusline within {HOT_MAX_CPU_RATIO:g}x of python -c pass (CPU) "
        f"at every size, both shapes: {verdict[worst_cpu['cpu_ratio'] <= HOT_MAX_CPU_RATIO]} "
        f"(worst {worst_cpu['cpu_ratio']:.2f}x: {worst_cpu['command']} {worst_cpu['size']})",
        f"ctx-budget and ctx-statusline under {HOT_MAX_MB:g} MB: "
        f"{verdict[worst_peak['peak_mb'] < HOT_MAX_MB]} (peak {worst_peak['peak_mb']:.1f} MB)",
        f"target (issues 19, 21): within {HOT_GOAL_CPU_RATIO:g}x of python -c pass (CPU): "
        f"{verdict[worst_cpu['cpu_ratio'] <= HOT_GOAL_CPU_RATIO]} "
        f"(worst {worst_cpu['cpu_ratio']:.2f}x)",
    ]
    return rows, checks


def print_table(rows: list[dict], checks: list[str], install: Install) -> None:
    print(f"\nInstalled commands vs python -c pass ({install.settings_path})")
    print(f"  budget: {' '.join(install.budget)}\n  status line: {' '.join(install.statusline)}")
    print("  x pass: to python -c pass; x -IS: to python -I -S -c pass (medians)")
    print(
        f"{'transcript':>10}  {'command':<52} {'CPU ms':>7} {'x pass':>7} {'x -IS':>6} "
        f"{'wall ms':>8} {'x pass':>7} {'x -IS':>6} {'peak MB':>8} {'runs':>5}"
    )
    for row in rows:
        print(
            f"{row['size']:>10}  {row['command']:<52} {row['cpu_ms']:>7.1f} "
            f"{row['cpu_ratio']:>7.2f} {row['cpu_ratio_isolated']:>6.2f} {row['wall_ms']:>8.1f} "
            f"{row['wall_ratio']:>7.2f} {row['wall_ratio_isolated']:>6.2f} "
            f"{row['peak_mb']:>8.1f} {row['runs']:>5}"
        )
    print()
    for line in checks:
        print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1M,100M,1G")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--runs", type=int, default=15, help="interleaved rounds (median)")
    parser.add_argument(
        "--python", default=shutil.which("python3") or sys.executable, help="for ./install"
    )
    parser.add_argument("--settings", help="measure an existing install's settings.json")
    parser.add_argument(
        "--modules", action="store_true", help="also each entry point's main() without launcher"
    )
    parser.add_argument(
        "--compare", help="another install's settings.json: its commands in the same rounds"
    )
    parser.add_argument("--json", dest="json_out", help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    install = Install(Path(args.settings)) if args.settings else install_with(args.python)
    other = Install(Path(args.compare)) if args.compare else None
    baselines, cases = measure(
        install, args.sizes.split(","), args.shapes.split(","), args.runs, args.modules, other
    )
    rows, checks = report(baselines, cases, install)
    print_table(rows, checks, install)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(rows, indent=2) + "\n")
    return 0 if all("PASS" in line for line in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
