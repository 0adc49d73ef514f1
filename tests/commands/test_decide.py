from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from context_memory.commands.decide import cli, main
from context_memory.memory.identity import manual_session
from helpers.cli_run import invoke
from helpers.paths import subprocess_env

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

SESSION = "ec02a1e1-95f7-4797-b360-0048899b56dd"
ISO_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def run(args: list[str], **kwargs):
    return invoke(cli, args, **kwargs)


def log_lines(project: Path) -> list[dict]:
    text = (project / ".working-state" / "decisions.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_decision_with_reason_and_alternatives(project, monkeypatch):
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", SESSION)
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ada Lovelace")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "ada@example.com")
    result = run(
        [
            "Use Redis Cluster, 6 nodes",
            "--reason",
            "needs sharding",
            "--alt",
            "Codis",
            "--alt",
            "Sentinel",
            "--keywords",
            "redis,cluster",
            "--keywords",
            "sharding",
        ]
    )
    assert result.exit_code == 0, result.stderr
    [record] = log_lines(project)
    assert result.stdout == f"recorded decided {record['id']} in .working-state/decisions.jsonl\n"
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{26}", record["id"])
    assert ISO_UTC.fullmatch(record["ts"])
    assert {k: v for k, v in record.items() if k not in ("id", "ts")} == {
        "author": "Ada Lovelace <ada@example.com>",
        "by": "user",  # no CLAUDECODE: typed in a terminal (tests/commands/test_decide_by.py)
        "session": SESSION,
        "kind": "decided",
        "decision": "Use Redis Cluster, 6 nodes",
        "reason": "needs sharding",
        "alternatives": ["Codis", "Sentinel"],
        "keywords": ["redis", "cluster", "sharding"],
    }


def test_rejected_and_risk_kinds(project):
    assert run(["--rejected", "Codis", "--reason", "unmaintained, proxy adds 2 ms"]).exit_code == 0
    assert run(["--risk", "resharding under load is untested"]).exit_code == 0
    first, second = log_lines(project)
    assert (first["kind"], first["decision"], first["reason"]) == (
        "rejected",
        "Codis",
        "unmaintained, proxy adds 2 ms",
    )
    assert (second["kind"], second["decision"], second["reason"]) == (
        "risk",
        "resharding under load is untested",
        "",
    )
    # No --session and no CLAUDE_CODE_SESSION_ID: the record gets this machine's session.
    assert first["session"] == second["session"] == manual_session()
    assert re.fullmatch(r"manual-[0-9a-f]{10}", first["session"])


def test_session_option_beats_environment(project, monkeypatch):
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", SESSION)
    assert run(["x", "--session", "by-hand"]).exit_code == 0
    assert log_lines(project)[0]["session"] == "by-hand"


def test_unsafe_session_is_refused_and_nothing_written(project, monkeypatch):
    for bad in ["../../etc", "/abs", "a/b", "x" * 200]:
        result = run(["x", "--session", bad])
        assert result.exit_code == 1
        assert result.stderr.startswith("Error: --session: session id")
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", "..")
    result = run(["x"])
    assert result.exit_code == 1
    assert "CLAUDE_CODE_SESSION_ID: session id" in result.stderr
    assert not (project / ".working-state").exists()


def test_finds_the_project_root_from_a_subdirectory(project, monkeypatch):
    (project / ".git").mkdir()
    assert run(["from the root"]).exit_code == 0
    deep = project / "src" / "pkg"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    result = run(["from deep below"])
    assert result.exit_code == 0
    assert result.stdout.endswith(f"in {project}/.working-state/decisions.jsonl\n")
    assert [r["decision"] for r in log_lines(project)] == ["from the root", "from deep below"]
    assert not (deep / ".working-state").exists()


def test_state_dir_override(project, tmp_path, monkeypatch):
    monkeypatch.setenv("CTX_STATE_DIR", str(tmp_path / "elsewhere"))
    assert run(["x"]).exit_code == 0
    assert (tmp_path / "elsewhere" / "decisions.jsonl").is_file()
    assert not (project / ".working-state").exists()


def test_usage_errors_exit_1_and_write_nothing(project):
    cases = {
        (): "give exactly one of DECISION, --rejected TEXT, --risk TEXT (or --list); got none",
        ("a", "--risk", "b"): "got DECISION, --risk",
        ("--list", "a"): "--list does not record anything; drop DECISION",
        ("a", "--last", "2"): "--last, --json and --author only go with --list",
        ("   ",): "the decided text is empty; nothing recorded",
    }
    for args, message in cases.items():
        result = run(list(args))
        assert result.exit_code == 1, args
        assert result.stderr.startswith("Error: ") and message in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1
    assert not (project / ".working-state" / "decisions.jsonl").exists()


def test_main_returns_exit_codes(project, capsys):
    assert main(["--risk", "r"]) == 0
    assert main([]) == 1
    assert main(["--no-such-option"]) == 2  # click's own usage error
    assert capsys.readouterr().err.count("Error:") == 2


def test_list_human_last_and_json(project, monkeypatch):
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", SESSION)
    monkeypatch.setenv("CLAUDECODE", "1")  # the agent records them: no "stated by the user"
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ada")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "ada@example.com")
    run(["A", "--reason", "r1", "--alt", "B"])
    run(["--rejected", "C", "--reason", "r2"])
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Bob")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "")
    run(["--risk", "D", "--session", "other"])
    records = log_lines(project)
    result = run(["--list"])
    assert result.exit_code == 0 and result.stderr == ""
    ada = f"{SESSION}, by Ada <ada@example.com>"
    assert result.stdout.splitlines() == [
        f"{records[0]['ts']}  {records[0]['id']}  decided   A (r1; alternatives: B)  [{ada}]",
        f"{records[1]['ts']}  {records[1]['id']}  rejected  C (r2)  [{ada}]",
        f"{records[2]['ts']}  {records[2]['id']}  risk      D  [other, by Bob]",
    ]
    result = run(["--list", "--json", "--author", "ADA@example"])
    assert json.loads(result.stdout) == records[:2]
    result = run(["--list", "--json", "--author", "bob"])
    assert json.loads(result.stdout) == records[2:]
    result = run(["--list", "--author", "carol"])
    assert (result.exit_code, result.stdout) == (0, "")
    # Before: "no decisions recorded", as if the log were empty.
    assert result.stderr == (
        "no decisions by an author matching 'carol' in .working-state/decisions.jsonl "
        "(3 records in all; --list shows them)\n"
    )
    result = run(["--list", "--author", "carol", "--session", "other"])
    assert result.stderr == (
        "no decisions of session other by an author matching 'carol' in "
        ".working-state/decisions.jsonl (3 records in all; --list shows them)\n"
    )
    result = run(["--list", "--last", "2", "--json"])
    assert json.loads(result.stdout) == records[1:]
    result = run(["--list", "--json", "--session", "other"])
    assert json.loads(result.stdout) == records[2:]


def test_list_with_no_log(project):
    result = run(["--list"])
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == "no decisions recorded in .working-state/decisions.jsonl\n"
    assert json.loads(run(["--list", "--json"]).stdout) == []


def test_corrupt_line_is_reported_skipped_and_never_rewritten(project):
    log = project / ".working-state" / "decisions.jsonl"
    run(["first"])
    corrupt = b'{"id": "half-written", "kind": "deci'
    with log.open("ab") as handle:
        handle.write(corrupt)  # a writer died mid-line: no newline
    run(["second"])
    raw = log.read_bytes()
    assert corrupt + b"\n" in raw  # kept byte for byte, and the next record starts a new line
    result = run(["--list"])
    assert result.exit_code == 0
    assert result.stderr == f"warning: {log}:2: not valid JSON (line skipped)\n"
    assert [line.split()[3] for line in result.stdout.splitlines()] == ["first", "second"]
    assert log.read_bytes() == raw


def test_eight_processes_append_1600_whole_lines(project, tmp_path):
    """8 processes x 200 appends through the real entry point: exactly 1,600 whole lines."""
    workers, per_worker = 8, 200
    script = (
        "import sys\n"
        "from context_memory.commands.decide import main\n"
        "worker = sys.argv[1]\n"
        f"for i in range({per_worker}):\n"
        "    args = [f'decision {worker}-{i}', '--reason', 'r' * 300, '--session', 'w' + worker]\n"
        "    status = main(args)\n"
        "    assert status == 0, status\n"
    )
    env = subprocess_env()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(n)],
            cwd=project,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for n in range(workers)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()
    raw = (project / ".working-state" / "decisions.jsonl").read_bytes()
    lines = raw.split(b"\n")
    assert lines[-1] == b""  # ends with a newline
    lines = lines[:-1]
    assert len(lines) == workers * per_worker == 1600
    records = [json.loads(line) for line in lines]
    assert sorted(r["decision"] for r in records) == sorted(
        f"decision {n}-{i}" for n in range(workers) for i in range(per_worker)
    )
    assert len({r["id"] for r in records}) == 1600
    # The writers really overlapped: the file switches between them many times.
    switches = sum(a["session"] != b["session"] for a, b in itertools.pairwise(records))
    assert switches > workers
    for n in range(workers):
        mine = [r["decision"] for r in records if r["session"] == f"w{n}"]
        assert mine == [f"decision {n}-{i}" for i in range(per_worker)]  # each writer in order
