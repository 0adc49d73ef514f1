from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from context_memory.core.hookio import BREAKER_LIMIT
from context_memory.handlers import budget
from helpers import transcript_rows as tr
from helpers.cli_run import run_hook_main
from helpers.paths import subprocess_env


def transcript_at(tmp_path: Path, input_tokens: int, model: str = "claude-sonnet-4-6") -> Path:
    rows = [
        tr.user("go"),
        tr.api_request(model.replace("[1m]", "")),
        tr.assistant("msg_1", tr.usage(input_tokens, 0, 0, 0), requested_model=model),
        *tr.bookkeeping(),
    ]
    return tr.write_transcript(tmp_path / "session.jsonl", rows)


def payload(transcript: Path | str, cwd: Path, **extra) -> str:
    data = {
        "session_id": "11111111-2222-3333-4444-555555555555",
        "transcript_path": str(transcript),
        "cwd": str(cwd),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "next step",
    }
    data.update(extra)
    return json.dumps(data)


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, stdin: str | bytes):
    return run_hook_main(monkeypatch, capsys, budget.main, stdin)


def test_prefer_subagent_band_injects_exact_json(project, monkeypatch, capsys):
    path = transcript_at(project, 150_000)
    status, out, err = run_main(monkeypatch, capsys, payload(path, project))
    assert status == 0 and err == ""
    assert json.loads(out) == {
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": (
                "[CONTEXT BUDGET] ~150K/200K (75%). Context is getting tight: prefer Grep and "
                "subagents (Task) for exploration; avoid reading large files directly. Record "
                "decisions with ctx-decide."
            ),
        }
    }
    assert out.count("\n") == 1


def test_free_band_prints_nothing(project, monkeypatch, capsys):
    path = transcript_at(project, 150_000, model="claude-sonnet-4-6[1m]")
    assert run_main(monkeypatch, capsys, payload(path, project)) == (0, "", "")


def test_chinese_text(project, monkeypatch, capsys):
    monkeypatch.setenv("CTX_LANG", "zh")
    # The stop band: with auto-compaction on, 95% is past the threshold (another text).
    monkeypatch.setenv("DISABLE_AUTO_COMPACT", "1")
    path = transcript_at(project, 190_000)
    _status, out, _ = run_main(monkeypatch, capsys, payload(path, project))
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert text.startswith("[CONTEXT BUDGET] ~190K/200K (95%)。上下文即将耗尽")


def test_no_decision_key_ever(project, monkeypatch, capsys):
    path = transcript_at(project, 170_000)
    _, out, _ = run_main(monkeypatch, capsys, payload(path, project))
    assert set(json.loads(out)) == {"hookSpecificOutput"}


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("not json", "ctx-budget: HookInputError: stdin is not JSON (Expecting value at char 0)\n"),
        (
            "[1, 2]",
            "ctx-budget: HookInputError: stdin is not a JSON object (got an array): expected "
            "the hook JSON from Claude Code\n",
        ),
        (
            '{"session_id": "s"}',
            "ctx-budget: HookInputError: the hook input has no transcript_path\n",
        ),
        (
            '{"transcript_path": 5}',
            "ctx-budget: HookInputError: the hook input has no transcript_path\n",
        ),
    ],
)
def test_bad_input_fails_open(project, monkeypatch, capsys, stdin, message):
    (project / ".working-state").mkdir()  # the log goes only into an existing state folder
    assert run_main(monkeypatch, capsys, stdin) == (0, "", message)
    log = (project / ".working-state" / "logs" / "hooks.log").read_text()
    assert log.count("\n") == 1 and "\tctx-budget\t" in log


def test_missing_transcript_fails_open_and_logs(project, monkeypatch, capsys):
    (project / ".working-state").mkdir()
    missing = project / "nope.jsonl"
    status, out, err = run_main(monkeypatch, capsys, payload(missing, project))
    assert (status, out) == (0, "")
    assert err.startswith("ctx-budget: FileNotFoundError: ") and err.count("\n") == 1
    log_lines = (project / ".working-state" / "logs" / "hooks.log").read_text().splitlines()
    fields = log_lines[0].split("\t")
    assert fields[1:3] == ["ctx-budget", "11111111-2222-3333-4444-555555555555"]
    assert fields[3].startswith("FileNotFoundError")


def test_directory_as_transcript_fails_open(project, monkeypatch, capsys):
    status, out, err = run_main(monkeypatch, capsys, payload(project, project))
    assert (status, out) == (0, "") and "IsADirectoryError" in err


def test_circuit_breaker_opens_after_three_failures(project, monkeypatch, capsys):
    (project / ".working-state").mkdir()
    missing = project / "nope.jsonl"
    for _ in range(BREAKER_LIMIT):
        run_main(monkeypatch, capsys, payload(missing, project))
    # Now even a good transcript is skipped for this session: the hook has given up.
    transcript_at(project, 150_000)
    status, out, err = run_main(monkeypatch, capsys, payload(project / "session.jsonl", project))
    assert (status, out, err) == (0, "", "")
    log = (project / ".working-state" / "logs" / "hooks.log").read_text()
    assert "circuit breaker open after 3 consecutive failures" in log


def test_success_resets_the_breaker(project, monkeypatch, capsys):
    missing = project / "nope.jsonl"
    for _ in range(BREAKER_LIMIT - 1):
        run_main(monkeypatch, capsys, payload(missing, project))
    good = transcript_at(project, 150_000)
    assert run_main(monkeypatch, capsys, payload(good, project))[1] != ""
    for _ in range(BREAKER_LIMIT - 1):
        run_main(monkeypatch, capsys, payload(missing, project))
    assert run_main(monkeypatch, capsys, payload(good, project))[1] != ""


def test_unsafe_session_id_writes_no_breaker(project, monkeypatch, capsys):
    missing = project / "nope.jsonl"
    run_main(monkeypatch, capsys, payload(missing, project, session_id="../../etc"))
    assert not (project / ".working-state" / "sessions").exists()
    assert not (project.parent / "etc").exists()


def test_log_goes_to_claude_project_dir(project, tmp_path, monkeypatch, capsys):
    other = tmp_path / "elsewhere"
    (other / ".working-state").mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(other))
    run_main(monkeypatch, capsys, "garbage")
    assert (other / ".working-state" / "logs" / "hooks.log").exists()
    assert not (project / ".working-state").exists()


def test_bad_band_config_fails_open(project, monkeypatch, capsys):
    monkeypatch.setenv("CTX_BANDS", "nonsense")
    status, out, err = run_main(
        monkeypatch, capsys, payload(transcript_at(project, 150_000), project)
    )
    assert (status, out) == (0, "") and err.startswith("ctx-budget: BandConfigError: CTX_BANDS=")


def test_whole_process_exit_codes(project):
    """The console script path, as the client runs it: exit 0 and valid JSON or nothing."""
    path = transcript_at(project, 150_000)
    cases = [(payload(path, project), True), ("", False), ("{", False), ("\x00\xff", False)]
    for stdin, injects in cases:
        result = subprocess.run(
            [sys.executable, "-m", "context_memory.handlers.budget", "--bogus-flag"],
            input=stdin.encode("utf-8", "surrogateescape"),
            capture_output=True,
            env=subprocess_env(),
            cwd=project,
            timeout=30,
        )
        assert result.returncode == 0
        if injects:
            assert (
                json.loads(result.stdout)["hookSpecificOutput"]["hookEventName"]
                == "UserPromptSubmit"
            )
        elif not stdin:  # tried by hand: the guide on stderr, nothing logged (test_hook_by_hand)
            assert result.stdout == b""
            assert result.stderr.startswith(b"ctx-budget: no hook input on stdin, so nothing")
        else:
            assert result.stdout == b""
            assert result.stderr.count(b"\n") == 1 and b"Traceback" not in result.stderr


def test_crossing_80_percent_leaves_a_mark_once(project, monkeypatch, capsys):
    mark = (
        project
        / ".working-state"
        / "sessions"
        / "11111111-2222-3333-4444-555555555555"
        / ".crossed-80"
    )
    run_main(monkeypatch, capsys, payload(transcript_at(project, 150_000), project))
    assert not mark.exists()
    run_main(monkeypatch, capsys, payload(transcript_at(project, 161_000), project))
    assert mark.exists() and mark.read_bytes() == b""


def test_first_prompt_before_the_transcript_exists_is_silent(project, monkeypatch, capsys):
    """The client writes <session_id>.jsonl only after the first UserPromptSubmit hook."""
    session = "11111111-2222-3333-4444-555555555555"
    not_yet = project / "projects" / f"{session}.jsonl"
    assert run_main(monkeypatch, capsys, payload(not_yet, project)) == (0, "", "")
    assert not (project / ".working-state").exists()
