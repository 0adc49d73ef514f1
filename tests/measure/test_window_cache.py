"""The window the status line records makes ctx-budget and ctx-usage exact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from context_memory.commands.usage import main as usage_main
from context_memory.handlers import budget
from context_memory.measure.window_cache import (
    cache_path,
    transcript_cwd,
    window_for_hook,
    window_for_transcript,
    write_cache,
)
from helpers import transcript_rows as tr
from helpers.cli_run import run_hook_main, run_main
from helpers.hook_payloads import prompt_payload

SESSION = "7d3e2a10-4b5c-4d6e-9f80-112233445566"


def transcript(folder: Path, tokens: int, cwd: str = tr.CWD) -> Path:
    rows = [
        tr.user("go"),
        tr.api_request("claude-sonnet-4-6"),
        tr.assistant("msg_1", tr.usage(tokens, 0, 0, 0)),
        *tr.bookkeeping(),
    ]
    for row in rows:
        if "cwd" in row:
            row["cwd"] = cwd
    folder.mkdir(parents=True, exist_ok=True)
    return tr.write_transcript(folder / f"{SESSION}.jsonl", rows)


def state(project: Path) -> str:
    return str(project / ".working-state")


def test_write_then_read(project):
    assert write_cache(state(project), SESSION, 1_000_000, "claude-sonnet-4-6") is True
    assert write_cache(state(project), SESSION, 1_000_000, "claude-sonnet-4-6") is False
    assert cache_path(state(project), SESSION) == str(
        project / ".working-state" / "sessions" / SESSION / "statusline.json"
    )
    assert window_for_hook({"session_id": SESSION, "cwd": str(project)}) == 1_000_000
    assert window_for_hook({"session_id": "other", "cwd": str(project)}) is None
    assert window_for_hook({"session_id": "../x", "cwd": str(project)}) is None
    assert window_for_hook({"cwd": str(project)}) is None


# --------------------------------------------------------------------------- ctx-budget


def run_budget(monkeypatch, capsys, path: Path, cwd: Path) -> str:
    payload = prompt_payload(SESSION, path, cwd)
    status, out, _ = run_hook_main(monkeypatch, capsys, budget.main, payload)
    assert status == 0
    return out


def test_budget_uses_the_status_line_window(project, monkeypatch, capsys):
    # 150K on sonnet-4-6: the model table says 200K (75%, prefer-subagent) ...
    path = transcript(project / "t", 150_000)
    out = run_budget(monkeypatch, capsys, path, project)
    assert "~150K/200K (75%)" in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    # ... the status line says this session has 1M: 15%, the free band, nothing injected.
    write_cache(state(project), SESSION, 1_000_000, "claude-sonnet-4-6[1m]")
    assert run_budget(monkeypatch, capsys, path, project) == ""


def test_budget_status_line_window_smaller_than_the_table(project, monkeypatch, capsys):
    path = transcript(project / "t", 150_000)
    write_cache(state(project), SESSION, 160_000, "some-future-model")
    out = run_budget(monkeypatch, capsys, path, project)
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    # Past this window's auto-compact threshold (127K): the note that it compacts now.
    assert text.startswith("[CONTEXT BUDGET] ~150K/160K (93.8%): at the auto-compact threshold")


# --------------------------------------------------------------------------- ctx-usage


def usage_json(path: Path, *args: str) -> dict:
    result = run_main(usage_main, ["--json", *args, str(path)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_usage_reports_window_source_statusline(project):
    path = transcript(project / "transcripts", 150_000)
    assert usage_json(path)["window_source"] == "model-table"
    write_cache(state(project), SESSION, 1_000_000, "claude-sonnet-4-6[1m]")
    data = usage_json(path)
    assert (data["window"], data["window_source"], data["percent"], data["band"]) == (
        1_000_000,
        "statusline",
        15.0,
        "free",
    )
    assert data["autocompact_threshold"] == 967_000


def test_usage_option_and_env_beat_the_status_line(project, monkeypatch):
    path = transcript(project / "transcripts", 150_000)
    write_cache(state(project), SESSION, 1_000_000, None)
    assert usage_json(path, "--window", "300000")["window_source"] == "option"
    monkeypatch.setenv("CTX_WINDOW", "500000")
    assert usage_json(path)["window_source"] == "env:CTX_WINDOW"


def test_usage_from_a_subfolder_finds_the_project_state(project, monkeypatch):
    (project / ".git").mkdir()
    sub = project / "src" / "deep"
    sub.mkdir(parents=True)
    path = transcript(project / "transcripts", 150_000)
    write_cache(state(project), SESSION, 1_000_000, None)
    monkeypatch.chdir(sub)
    assert usage_json(path)["window_source"] == "statusline"


def test_usage_elsewhere_uses_the_cwd_the_transcript_records(project, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    path = transcript(tmp_path / "claude" / "projects", 150_000, cwd=str(project))
    write_cache(state(project), SESSION, 1_000_000, None)
    monkeypatch.chdir(elsewhere)
    assert transcript_cwd(str(path)) == str(project)
    assert window_for_transcript(str(path)) == 1_000_000
    assert usage_json(path)["window_source"] == "statusline"


def test_transcript_without_cwd_or_unreadable(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"type":"mode","mode":"normal"}\n')
    assert transcript_cwd(str(path)) is None
    assert transcript_cwd(str(tmp_path / "missing.jsonl")) is None
    path.write_text('{"cwd":"relative/path"}\n')
    assert transcript_cwd(str(path)) is None


@pytest.mark.parametrize("stem", ["../evil", ".hidden"])
def test_unsafe_transcript_stem_finds_nothing(project, stem):
    assert window_for_transcript(str(project / f"{stem}.jsonl")) is None
