"""The transcript of a by-hand command (transcript/by_hand; issue 25, items 9 to 12): one
rule to find it (a path, a session id, else the newest of the folder), one to check it (a
file that is no transcript exits 2 in every command; a .jsonl.gz is read by ctx-guard
--replay in bounded reads and refused by name by the commands that seek in it), the
session from its rows, and a captured record dated by the row that stated it."""

from __future__ import annotations

import gzip
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from context_memory.commands import capture, decide, handoff, usage
from context_memory.handlers import audit, guard
from context_memory.memory.decisions import append_record, make_record
from context_memory.transcript import by_hand
from context_memory.transcript.locate import project_folder_name
from helpers import transcript_rows as tr
from helpers.cli_run import run_in_terminal, run_main
from helpers.paths import subprocess_env

ROW_SESSION = tr.SESSION  # the sessionId every row of helpers/transcript_rows carries
STATED = "Don't use moment for the dates, it is far too heavy for our bundle. Use date-fns instead."


def at(row: dict[str, Any], stamp: str) -> dict[str, Any]:
    row["timestamp"] = stamp
    return row


def compacted_rows() -> list[dict[str, Any]]:
    """The user rules moment out in 2025, a Write and a Bash call follow, then a
    compaction whose summary drops it."""
    write, write_id = tr.tool_call("Write", {"file_path": "/home/dev/cache-service/src/d.js"})
    bash, bash_id = tr.tool_call("Bash", {"command": "npm install moment"})
    return [
        at(tr.user(STATED), "2025-06-01T10:00:00.000Z"),
        at(
            tr.assistant("msg_1", tr.usage(900), text="Understood: date-fns."),
            "2025-06-01T10:00:05.000Z",
        ),
        at(write, "2025-06-01T10:01:00.000Z"),
        at(tr.tool_result(write_id), "2025-06-01T10:01:01.000Z"),
        at(bash, "2025-06-01T10:02:00.000Z"),
        at(tr.tool_result(bash_id), "2025-06-01T10:02:01.000Z"),
        at(tr.compact_boundary(50_000, 3_000), "2025-06-01T11:00:00.000Z"),
        at(
            tr.compact_summary("1. Primary Request: format the invoice dates."),
            "2025-06-01T11:00:01.000Z",
        ),
        at(tr.user("next"), "2025-06-01T11:05:00.000Z"),
    ]


def write_rows(path: Path, rows: list[dict[str, Any]] | None = None) -> Path:
    return tr.write_transcript(path, compacted_rows() if rows is None else rows)


def gzipped(path: Path) -> Path:
    packed = path.with_name(path.name + ".gz")
    packed.write_bytes(gzip.compress(path.read_bytes(), mtime=0))
    return packed


Main = Callable[[list[str]], int]
COMMANDS: dict[str, tuple[Main, Callable[[str], list[str]]]] = {
    "ctx-usage": (usage.main, lambda path: [path]),
    "ctx-audit": (audit.main, lambda path: [path]),
    "ctx-capture": (capture.main, lambda path: ["--dry-run", path]),
    "ctx-handoff": (handoff.main, lambda path: ["--draft", "--dry-run", "--transcript", path]),
    "ctx-guard --replay": (guard.main, lambda path: ["--replay", path]),
}
SEEKERS = ["ctx-usage", "ctx-audit", "ctx-capture", "ctx-handoff"]


def run_command(name: str, path: Path) -> Any:
    main, args = COMMANDS[name]
    return run_main(main, args(str(path)))


# -- item 9: files that are no transcript, gzip ------------------------------------------------


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_random_binary_is_refused_with_exit_2_by_every_command(project: Path, name: str) -> None:
    path = project / "blob.jsonl"
    path.write_bytes(random.Random(25).randbytes(3000))
    result = run_command(name, path)
    assert (result.exit_code, result.stdout) == (2, "")
    prefix = "--transcript " if name == "ctx-handoff" else ""
    said = f"{prefix}{path} is not a Claude Code transcript (its first and last lines are not "
    assert said in result.stderr
    assert not (project / ".working-state" / "decisions.jsonl").exists()


def test_a_gzipped_binary_is_no_transcript_for_the_replay(project: Path) -> None:
    packed = project / "blob.jsonl.gz"
    packed.write_bytes(gzip.compress(random.Random(25).randbytes(3000), mtime=0))
    result = run_main(guard.main, ["--replay", str(packed)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"ctx-guard: {packed} is not a Claude Code transcript (its first and last lines are "
        "not transcript rows). Transcripts are the .jsonl files under ~/.claude/projects/"
        "<project folder>/; pass one of them or a session id\n"
    )


@pytest.mark.parametrize("name", SEEKERS)
def test_a_gzipped_transcript_is_refused_by_name(project: Path, name: str) -> None:
    packed = gzipped(write_rows(project / "t.jsonl"))
    result = run_command(name, packed)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1].endswith(
        f"{packed} is gzip-compressed; {name} reads plain .jsonl transcripts (ctx-guard "
        f"--replay reads .jsonl.gz): gunzip -k {packed} first"
    )
    assert not (project / ".working-state" / "decisions.jsonl").exists()


def test_the_replay_reads_a_gzipped_transcript_as_the_plain_one(project: Path) -> None:
    plain = write_rows(project / "t.jsonl")
    packed = gzipped(plain)
    replayed = [
        run_main(guard.main, ["--replay", str(p), "--preload", "--json"]) for p in (plain, packed)
    ]
    assert [r.exit_code for r in replayed] == [0, 0]
    assert replayed[0].stdout == replayed[1].stdout
    calls = json.loads(replayed[1].stdout)
    # As the next session sees it: the call the user ruled out in this file asks.
    assert [(c["tool"], c["verdict"]) for c in calls] == [("Write", "allow"), ("Bash", "ask")]


def test_a_gzip_bomb_is_read_in_bounded_reads(project: Path, monkeypatch) -> None:
    """A small .gz that expands past the bound: one line of 64 MiB of spaces, never held
    whole, and the run stops at the bound."""
    monkeypatch.setattr(by_hand, "MAX_DECOMPRESSED_BYTES", 8 * 1024 * 1024)
    monkeypatch.setattr(by_hand, "MAX_ROW_BYTES", 1024 * 1024)
    head = json.dumps(tr.user("hi")).encode() + b"\n"
    packed = project / "bomb.jsonl.gz"
    with gzip.open(packed, "wb", compresslevel=9) as handle:
        handle.write(head)
        for _ in range(64):
            handle.write(b" " * (1024 * 1024))
    assert packed.stat().st_size < 200_000
    result = run_main(guard.main, ["--replay", str(packed)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"ctx-guard: {packed}: more than {8 * 1024 * 1024} bytes of transcript "
        "(decompressed); only files up to that size are read\n"
    )


def test_an_overlong_row_is_skipped_unread(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(by_hand, "MAX_ROW_BYTES", 1000)
    rows = [b'{"type":"user","n":1}\n', b'{"type":"user","x":"' + b"x" * 5000 + b'"}\n']
    rows.append(b'{"type":"user","n":3}\n')
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"".join(rows))
    assert list(by_hand.transcript_lines(str(path))) == [rows[0], rows[2]]
    packed = gzipped(path)
    assert list(by_hand.transcript_lines(str(packed))) == [rows[0], rows[2]]


def test_a_cut_gzip_file_is_an_error_not_a_silent_end(project: Path) -> None:
    """Cut after its first SNIFF_BYTES (which read as a transcript): the replay says the
    data is damaged (exit 1); a cut one whose start cannot be read is no transcript (2)."""
    plain = write_rows(project / "t.jsonl", compacted_rows() * 100)
    assert plain.stat().st_size > 2 * by_hand.SNIFF_BYTES
    cut = project / "cut.jsonl.gz"
    cut.write_bytes(gzip.compress(plain.read_bytes())[:-12])
    result = run_main(guard.main, ["--replay", str(cut)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(f"ctx-guard: {cut}: damaged gzip data (")
    small = project / "small.jsonl.gz"
    small.write_bytes(gzip.compress(write_rows(project / "s.jsonl").read_bytes())[:-12])
    assert run_main(guard.main, ["--replay", str(small)]).exit_code == 2


# -- item 11: the session comes from the rows ---------------------------------------------------


def test_capture_takes_the_session_from_the_rows_not_the_file_name(project: Path) -> None:
    path = write_rows(project / ("export-of-a-session-" + "x" * 180 + ".jsonl"))
    result = run_main(capture.main, [str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    [record] = json.loads(result.stdout)
    assert (record["session"], record["kind"], record["by"]) == (ROW_SESSION, "constraint", "user")
    assert (project / ".working-state" / "capture" / f"{ROW_SESSION}.json").exists()


def test_the_newest_rows_name_the_session(tmp_path: Path, monkeypatch) -> None:
    """Rows copied from an earlier session (a resume, a fork) come first; the rows the
    file's own session wrote come last, in the last SESSION_SNIFF_BYTES or not."""
    copied = [dict(tr.user("old"), sessionId="aaaa-1111") for _ in range(3)]
    own = tr.user("new")  # ROW_SESSION
    path = tr.write_transcript(tmp_path / "t.jsonl", [*copied, own], tail=b'{"sessionId"')
    assert by_hand.session_of(str(path)) == ROW_SESSION
    monkeypatch.setattr(by_hand, "SESSION_SNIFF_BYTES", 600)
    big = tr.write_transcript(tmp_path / "big.jsonl", [*copied * 20, own])
    assert big.stat().st_size > 2 * 600
    assert by_hand.session_of(str(big)) == ROW_SESSION
    only_old = tr.write_transcript(tmp_path / "old.jsonl", copied * 20)
    assert by_hand.session_of(str(only_old)) == "aaaa-1111"


def test_the_file_name_is_only_the_fallback(project: Path) -> None:
    rows = [{k: v for k, v in row.items() if k != "sessionId"} for row in compacted_rows()]
    named = write_rows(project / "abc-123.jsonl", rows)
    result = run_main(capture.main, [str(named), "--json"])
    assert result.exit_code == 0, result.stderr
    assert [r["session"] for r in json.loads(result.stdout)] == ["abc-123"]
    long_name = write_rows(project / ("y" * 200 + ".jsonl"), rows)
    refused = run_main(capture.main, [str(long_name)])
    assert refused.exit_code == 1
    assert refused.stderr.startswith(
        f"Error: no row of {long_name} names its session (sessionId) and its file name "
        "cannot: session id "
    )


# -- item 10: a captured record is as old as its row ---------------------------------------------


def test_the_audit_after_a_capture_by_hand_checks_what_was_stated_before_the_compaction(
    project: Path,
) -> None:
    path = write_rows(project / "t.jsonl")
    assert run_main(capture.main, [str(path)]).exit_code == 0
    result = run_main(audit.main, [str(path), "--json"])
    assert result.exit_code == 1, result.stdout + result.stderr  # lost, not "nothing to audit"
    report = json.loads(result.stdout)
    assert report["session"] == ROW_SESSION
    [compaction] = report["compactions"]
    [checked] = compaction["decisions"]
    assert (checked["kind"], checked["status"]) == ("constraint", "lost")
    assert checked["decision"].startswith("Don't use moment for the dates")


def test_list_dates_and_orders_a_captured_record_by_its_row(project: Path) -> None:
    state = project / ".working-state"
    state.mkdir()
    append_record(
        state, make_record("decided", "Use Postgres", session="s", ts="2025-07-01T00:00:00Z")
    )
    assert run_main(capture.main, [str(write_rows(project / "t.jsonl"))]).exit_code == 0
    listed = run_main(decide.main, ["--list"]).stdout.splitlines()
    assert [line[:20] for line in listed] == ["2025-06-01T10:00:00Z", "2025-07-01T00:00:00Z"]
    assert "constraint" in listed[0] and "Use Postgres" in listed[1]


# -- item 12: no argument, the newest session of the folder -------------------------------------


@pytest.fixture
def two_sessions(project: Path, tmp_path: Path, monkeypatch) -> Path:
    """An older session without a compaction and the newest one with it, where the client
    keeps this project's transcripts. Returns the newest."""
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    folder = config / "projects" / project_folder_name(project)
    folder.mkdir(parents=True)
    older = tr.write_transcript(folder / "aaaa-1111.jsonl", [tr.user("hello")])
    os.utime(older, (1_000_000_000, 1_000_000_000))
    return write_rows(folder / f"{ROW_SESSION}.jsonl")


def test_ctx_audit_without_an_argument_takes_the_newest_session(
    project: Path, two_sessions: Path
) -> None:
    assert run_main(capture.main, []).exit_code == 0
    result = run_main(audit.main, ["--json"])
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    assert (report["transcript"], report["session"]) == (str(two_sessions), ROW_SESSION)


def test_ctx_audit_typed_in_a_terminal_takes_the_newest_session(
    project: Path, two_sessions: Path
) -> None:
    """No argument and stdin a terminal (a pty): by hand, not the hook's help."""
    assert run_main(capture.main, []).exit_code == 0
    code = "import sys\nfrom context_memory.handlers.audit import main\nsys.exit(main())"
    done = run_in_terminal(
        code, cwd=project, env=subprocess_env(CLAUDE_CONFIG_DIR=os.environ["CLAUDE_CONFIG_DIR"])
    )
    assert (done.returncode, done.stderr) == (1, "")
    assert done.stdout.startswith(
        "Compaction 1 of 1 (manual, 2025-06-01T11:00:00.000Z): 1 of 1 decisions lost\n"
    )


def test_ctx_handoff_draft_by_hand_takes_the_newest_session(
    project: Path, two_sessions: Path
) -> None:
    assert run_main(capture.main, []).exit_code == 0
    result = run_main(handoff.main, ["--draft", "--dry-run"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"ctx-handoff: the newest session of this folder ({two_sessions}); --session ID "
        "picks another\n"
    )
    assert f"\nsession: {ROW_SESSION}\n" in result.stdout
    assert "## Files Modified\n- /home/dev/cache-service/src/d.js\n" in result.stdout
    assert "Don't use moment for the dates" in result.stdout
    assert not (project / ".working-state" / "sessions").exists()
