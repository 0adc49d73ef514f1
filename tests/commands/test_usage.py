from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from context_memory.commands.usage import main
from context_memory.transcript.locate import project_folder_name
from helpers import transcript_rows as tr
from helpers.cli_run import run_main
from helpers.paths import SAMPLE_TRANSCRIPT, subprocess_env


def run(args: list[str], stdin: str = ""):
    return run_main(main, args, stdin)


def test_json_on_the_shipped_example():
    result = run(["--json", str(SAMPLE_TRANSCRIPT)])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "tokens": 2743,
        "window": 200000,
        "percent": 1.4,
        "band": "free",
        "window_source": "model-table",
        "model": "claude-sonnet-4-5",
        "autocompact_threshold": 167000,
        "tokens_to_autocompact": 164257,
        "source": "compaction",
        "transcript": str(SAMPLE_TRANSCRIPT),
        "compactions": 1,
    }


def test_human_output_on_the_shipped_example():
    result = run([str(SAMPLE_TRANSCRIPT)])
    assert result.exit_code == 0
    assert result.stdout == (
        "2,743 / 200,000 tokens (1.4%)  band: free\n"
        "  tokens        2,743 (compaction summary, no reply since)\n"
        "  window        200,000 (from model-table)\n"
        "  model         claude-sonnet-4-5\n"
        "  auto-compact  at 167,000 tokens, 164,257 to go\n"
        "  compactions   1\n"
        f"  transcript    {SAMPLE_TRANSCRIPT}\n"
    )


def big_turn(tmp_path: Path, tokens: int, model: str = "claude-sonnet-4-6") -> Path:
    rows = [
        tr.user("go"),
        tr.assistant("m1", tr.usage(tokens, 0, 0, 0), requested_model=model),
        *tr.bookkeeping(),
    ]
    return tr.write_transcript(tmp_path / "t.jsonl", rows)


def test_window_option_and_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = big_turn(tmp_path, 150_000)
    data = json.loads(run(["--json", "--window", "300000", str(path)]).stdout)
    assert (data["window"], data["window_source"], data["percent"], data["band"]) == (
        300000,
        "option",
        50.0,
        "warn",
    )
    monkeypatch.setenv("CTX_WINDOW", "1000000")
    data = json.loads(run(["--json", str(path)]).stdout)
    assert (data["window"], data["window_source"], data["percent"]) == (
        1000000,
        "env:CTX_WINDOW",
        15.0,
    )


def test_1m_model(tmp_path: Path):
    data = json.loads(
        run(["--json", str(big_turn(tmp_path, 150_000, "claude-sonnet-4-6[1m]"))]).stdout
    )
    assert (data["window"], data["window_source"], data["band"]) == (
        1000000,
        "model-1m-suffix",
        "free",
    )


def test_autocompact_disabled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DISABLE_AUTO_COMPACT", "1")
    path = big_turn(tmp_path, 150_000)
    data = json.loads(run(["--json", str(path)]).stdout)
    assert (data["autocompact_threshold"], data["tokens_to_autocompact"]) == (None, None)
    assert (
        "  auto-compact  off (DISABLE_AUTO_COMPACT / DISABLE_COMPACT)\n" in run([str(path)]).stdout
    )


def test_no_usage_yet_is_zero_and_none(tmp_path: Path):
    path = tr.write_transcript(tmp_path / "t.jsonl", [tr.user("hi"), *tr.bookkeeping()])
    result = run(["--json", str(path)])
    data = json.loads(result.stdout)
    assert result.exit_code == 0
    assert (data["tokens"], data["source"], data["model"], data["compactions"]) == (
        0,
        "none",
        None,
        0,
    )


def test_missing_file_is_one_line_exit_1(tmp_path: Path):
    missing = tmp_path / "missing.jsonl"
    result = run([str(missing)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {missing}: no such file (give a transcript path or a session id)\n"
    )
    assert result.stdout == ""


def test_directory_is_one_line_exit_2(tmp_path: Path):
    """No transcript: the command line's mistake, exit 2 (issue 25, item 9)."""
    result = run([str(tmp_path)])
    assert (result.exit_code, result.stderr) == (
        2,
        f"Error: {tmp_path} is a directory, not a transcript file\n",
    )


def test_unreadable_file_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import context_memory.commands.usage as usage_cli

    def refuse(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(usage_cli, "measure_context", refuse)
    path = big_turn(tmp_path, 10)
    result = run([str(path)])
    assert (result.exit_code, result.stderr) == (1, f"Error: {path}: permission denied\n")


def test_stdin_hook_json(tmp_path: Path):
    path = big_turn(tmp_path, 150_000)
    result = run(
        ["--json", "-"], stdin=json.dumps({"transcript_path": str(path), "session_id": "s"})
    )
    assert json.loads(result.stdout)["percent"] == 75.0
    bad = run(["-"], stdin="nope")
    assert (bad.exit_code, bad.stderr) == (
        1,
        "Error: '-' reads hook JSON on stdin: stdin is not JSON (Expecting value at char 0)\n",
    )


def install_in_projects(config: Path, cwd: Path, session: str, tokens: int) -> Path:
    folder = config / "projects" / project_folder_name(str(cwd))
    folder.mkdir(parents=True, exist_ok=True)
    return big_turn_at(folder / f"{session}.jsonl", tokens)


def big_turn_at(path: Path, tokens: int) -> Path:
    rows = [tr.user("go"), tr.assistant("m1", tr.usage(tokens, 0, 0, 0)), *tr.bookkeeping()]
    return tr.write_transcript(path, rows)


def test_project_folder_name_rule():
    assert project_folder_name("/home/dev/cache-service") == "-home-dev-cache-service"
    assert project_folder_name("/tmp/my proj_2.x") == "-tmp-my-proj-2-x"


def test_session_id_and_newest_transcript(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    older = install_in_projects(config, project, "aaaa-1111", 20_000)
    newer = install_in_projects(config, project, "bbbb-2222", 100_000)
    os.utime(older, (1_000_000_000, 1_000_000_000))
    assert json.loads(run(["--json"]).stdout)["transcript"] == str(newer)
    assert json.loads(run(["--json", "aaaa-1111"]).stdout)["tokens"] == 20_000
    missing = run(["cccc-3333"])
    assert (missing.exit_code, missing.stderr) == (
        1,
        f"Error: no transcript for session cccc-3333 under {config / 'projects'}\n",
    )


def test_no_transcript_for_project(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "empty"))
    result = run([])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: no transcript for {project} in ")


def test_main_returns_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture):
    assert main([str(SAMPLE_TRANSCRIPT), "--json"]) == 0
    assert main([str(tmp_path / "missing")]) == 1
    assert main(["--no-such-option"]) == 2


def test_console_script_no_traceback(tmp_path: Path):
    result = subprocess.run(
        [sys.executable, "-m", "context_memory.commands.usage", str(tmp_path / "missing.jsonl")],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=30,
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"Error: {tmp_path / 'missing.jsonl'}: no such file (give a transcript path or a "
        "session id)\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--window"], "argument --window: expected one argument"),
        (["--window", "lots"], "argument --window: 'lots' is not a whole number"),
        (["--window=0"], "argument --window: 0 is not a positive number of tokens"),
        (["a.jsonl", "b.jsonl"], "unrecognized arguments: b.jsonl"),
    ],
)
def test_usage_errors_exit_2_with_the_usage_line(args, message):
    assert run(args) == (
        2,
        "",
        "usage: ctx-usage [-h] [--json] [--window N] [--timeline] [TRANSCRIPT]\n"
        f"ctx-usage: error: {message}\n",
    )


def test_help_and_option_spellings(tmp_path: Path):
    result = run(["--help"])
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.startswith("usage: ctx-usage [-h] [--json] [--window N] [--timeline]")
    assert "--timeline   chart the context per turn" in result.stdout
    path = big_turn(tmp_path, 150_000)
    spelled = [
        json.loads(run(args).stdout)["window"]
        for args in (
            ["--json", "--window=300000", str(path)],
            ["--window", "300000", "--json", "--", str(path)],
        )
    ]
    assert spelled == [300000, 300000]


def test_json_output_is_spaced_like_json_dumps():
    result = run(["--json", str(SAMPLE_TRANSCRIPT)])
    assert result.stdout == json.dumps(json.loads(result.stdout), ensure_ascii=False) + "\n"


# -- files that are no transcript (issue 19, item 4) -------------------------------------------


def not_a_transcript_message(path: Path) -> str:
    return (
        f"Error: {path} is not a Claude Code transcript (its first and last lines are not "
        "transcript rows). Transcripts are the .jsonl files under "
        "~/.claude/projects/<project folder>/; run ctx-usage without an argument in a "
        "project for its newest one, or pass a session id\n"
    )


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("README.md", b"# context-memory\n\nA toolkit.\n"),
        ("program", b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 40),
        ("script.sh", b"#!/bin/sh\necho hi\n"),
        ("package.json", b'{\n  "name": "x",\n  "type": "module"\n}\n'),
        ("list.jsonl", b"[1, 2]\n[3]\n"),
        ("other.jsonl", b'{"name": "x"}\n{"name": "y"}\n'),
    ],
)
def test_a_file_that_is_no_transcript_is_refused(tmp_path: Path, name: str, content: bytes):
    path = tmp_path / name
    path.write_bytes(content)
    for args in ([str(path)], ["--json", str(path)], ["--timeline", str(path)]):
        result = run(args)
        assert (result.exit_code, result.stdout, result.stderr) == (
            2,
            "",
            not_a_transcript_message(path),
        )


def test_the_installed_python_binary_is_refused_in_a_fresh_process(tmp_path: Path):
    result = subprocess.run(
        [sys.executable, "-m", "context_memory.commands.usage", sys.executable],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == not_a_transcript_message(Path(sys.executable))


@pytest.mark.parametrize(
    "content",
    [b"", b"\n", b'{"type":"user","message":{"role":"user","content":"hi"},"uui'],
    ids=["empty", "one-newline", "first-row-half-written"],
)
def test_an_empty_or_brand_new_transcript_still_answers(tmp_path: Path, content: bytes):
    path = tmp_path / "new.jsonl"
    path.write_bytes(content)
    result = run(["--json", str(path)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["tokens"], data["source"], data["compactions"]) == (0, "none", 0)


def test_a_first_row_longer_than_the_bounded_read_is_a_transcript(tmp_path: Path):
    rows = [tr.user("x" * 300_000), tr.assistant("m1", tr.usage(5_000, 0, 0, 0))]
    path = tr.write_transcript(tmp_path / "t.jsonl", rows)
    result = run(["--json", str(path)])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["tokens"] == 5_000


def test_every_real_transcript_of_older_clients_is_accepted(tmp_path: Path):
    import gzip

    from helpers.real_fixture import REAL_DIR

    fixtures = sorted(REAL_DIR.glob("*.jsonl.gz"))
    assert len(fixtures) == 17
    for index, fixture in enumerate(fixtures):
        path = tmp_path / f"{index}.jsonl"
        path.write_bytes(gzip.decompress(fixture.read_bytes()))
        result = run(["--json", str(path)])
        assert result.exit_code == 0, (fixture.name, result.stderr)
        assert json.loads(result.stdout)["transcript"] == str(path)
