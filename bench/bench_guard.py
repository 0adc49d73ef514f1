"""ctx-guard as the client runs it, against `python -c pass`, with 10,000 records in the log.

    python bench/bench_guard.py [--records 10000] [--runs 21] [--program PATH]

The program is the installed console script (default: the ctx-guard next to this Python,
a virtualenv's bin/), run with a PreToolUse payload of a compliant call (the common case:
nothing to say) and of a call a record rules out (an ask). The log holds ``--records``
records in the capture spec's shape (a third of them rejections or constraints; half typed
with ``ruled_out``/``preferred``, half older records the guard types itself), the index
is built once before the rounds (the fast path: a fresh index, the log untouched). Runs are
interleaved, round after round (pass, compliant, ask, pass...), so a noisy neighbour slows
each alike. Per command: median CPU time (user + system of the process) and wall time, and
their ratios to the baseline; also the same hook through a launcher that runs Python with
``-I -S`` (no site: a lower floor), and its ratio to ``python -I -S -c pass``. Target
(issues 21 and 27): CPU within 1.3x of `python -c pass`, for a call no record names and for
an ask.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

TARGET_CPU_RATIO = 1.3


def make_log(state: Path, count: int) -> None:
    state.mkdir(parents=True)
    lines = []
    for i in range(count):
        kind = ("decided", "rejected", "constraint", "risk", "decided", "decided")[i % 6]
        record = {
            "id": f"r{i:06d}",
            "ts": "2026-11-30T10:00:00Z",
            "session": "bench",
            "kind": kind,
            "decision": f"Use library-{i} for feature {i} rather than tool-{i}",
            "reason": "measured faster and smaller in our bundle",
            "alternatives": [],
            "keywords": [],
            "by": "user",
            "source": "prompt",
            "uuid": f"u{i}",
            "row_ts": "2026-11-30T10:00:00Z",
            "quote": f"use library-{i}, not tool-{i}",
            "anchors": [f"library-{i}", f"tool-{i}"],
            "avoid": [f"tool-{i}"] if kind != "risk" else [],
            "prefer": [f"library-{i}"],
        }
        if i % 2:  # half in the typed model's shape (memory/constraint.py), half older
            record["ruled_out"] = [{"kind": "package", "value": f"tool-{i}"}]
            record["preferred"] = [{"kind": "package", "value": f"library-{i}"}]
            record["tier"] = "stated"
        lines.append(json.dumps(record, separators=(",", ":")))
    (state / "decisions.jsonl").write_text("\n".join(lines) + "\n")


def payload(project: Path, command: str) -> bytes:
    return json.dumps(
        {
            "session_id": "bench-guard",
            "transcript_path": str(project / "t.jsonl"),
            "cwd": str(project),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": "toolu_bench",
        }
    ).encode()


def run_once(argv: list[str], stdin: bytes, cwd: Path) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds of the child, stdout)."""
    read_in, write_in = os.pipe()
    read_out, write_out = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.chdir(cwd)
            os.dup2(read_in, 0)
            os.dup2(write_out, 1)
            os.close(write_in)
            os.close(read_out)
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    os.close(read_in)
    os.close(write_out)
    os.write(write_in, stdin)
    os.close(write_in)
    chunks = []
    while chunk := os.read(read_out, 65536):
        chunks.append(chunk)
    os.close(read_out)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv} exited {status}")
    return wall, usage.ru_utime + usage.ru_stime, b"".join(chunks)


def isolated_launcher(python: str, folder: Path) -> Path:
    """The launcher as it is with ``python -I -S`` (issue 19): no site, no environment
    variables; the package's folder put on sys.path by the launcher itself."""
    import context_memory

    package_root = str(Path(context_memory.__file__).resolve().parent.parent)
    launcher = folder / "ctx-guard-isolated"
    launcher.write_text(
        f"#!{python} -IS\n"
        "import sys\n"
        f"sys.path.append({package_root!r})\n"
        "from context_memory.handlers.guard import main\n"
        "sys.exit(main())\n"
    )
    launcher.chmod(0o755)
    return launcher


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--program", default=str(Path(sys.executable).parent / "ctx-guard"))
    args = parser.parse_args(argv)
    python = str(Path(args.program).parent / "python")
    with tempfile.TemporaryDirectory() as tmp:
        isolated: Path | None = None
        if args.program == str(Path(sys.executable).parent / "ctx-guard"):
            # What ./install registers: its own launcher, not pip's wrapper (which imports re).
            from context_memory.setup.install.launchers import launcher_text, package_paths

            launcher = Path(tmp) / "ctx-guard"
            venv = Path(sys.executable).parent.parent
            launcher.write_text(
                launcher_text(
                    python, "ctx-guard", "context_memory.handlers.guard:main", package_paths(venv)
                )
            )
            launcher.chmod(0o755)
            args.program = str(launcher)
            isolated = isolated_launcher(python, Path(tmp))
        project = Path(tmp) / "project"
        (project / ".git").mkdir(parents=True)
        make_log(project / ".working-state", args.records)
        compliant = payload(project, "npm install date-fns")
        ruled_out = payload(project, "npm install tool-9998")
        cases = {
            "python -c pass": ([python, "-c", "pass"], b""),
            "ctx-guard, compliant call": ([args.program], compliant),
            "ctx-guard, ruled-out call": ([args.program], ruled_out),
        }
        if isolated is not None:
            cases["python -I -S -c pass"] = ([python, "-I", "-S", "-c", "pass"], b"")
            cases["-I -S ctx-guard, compliant"] = ([str(isolated)], compliant)
            cases["-I -S ctx-guard, ruled-out"] = ([str(isolated)], ruled_out)
        _, _, first = run_once(*cases["ctx-guard, ruled-out call"], project)  # builds the index
        assert b'"permissionDecision":"ask"' in first, first
        if isolated is not None:
            _, _, again = run_once(*cases["-I -S ctx-guard, ruled-out"], project)
            assert again == first, again
        index_bytes = (project / ".working-state" / "guard-index.json").stat().st_size
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for _ in range(args.runs):
            for name, (command, stdin) in cases.items():
                wall, cpu, _ = run_once(command, stdin, project)
                times[name].append((wall, cpu))
    base_wall = statistics.median(w for w, _ in times["python -c pass"])
    base_cpu = statistics.median(c for _, c in times["python -c pass"])
    isolated_cpu = statistics.median(c for _, c in times.get("python -I -S -c pass", [(1, 1)]))
    print(f"{args.records} records in the log, index {index_bytes} bytes, {args.runs} rounds")
    print(f"{'command':28} {'CPU ms':>8} {'ratio':>6} {'/-I -S':>7} {'wall ms':>8} {'ratio':>6}")
    worst = 0.0
    for name, samples in times.items():
        wall = statistics.median(w for w, _ in samples)
        cpu = statistics.median(c for _, c in samples)
        if "ctx-guard" in name:
            worst = max(worst, cpu / base_cpu)
        print(
            f"{name:28} {cpu * 1000:8.1f} {cpu / base_cpu:6.2f} {cpu / isolated_cpu:7.2f} "
            f"{wall * 1000:8.1f} {wall / base_wall:6.2f}"
        )
    verdict = "within" if worst <= TARGET_CPU_RATIO else "OVER"
    print(
        f"worst CPU ratio to python -c pass {worst:.2f}: {verdict} the {TARGET_CPU_RATIO}x target"
    )
    return 0 if worst <= TARGET_CPU_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
