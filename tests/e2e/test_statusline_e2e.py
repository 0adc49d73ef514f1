"""ctx-statusline end to end: ./install --statusline sets it, and the window it records for a
real session makes ctx-usage (and so every hook) exact.

The status line does not run in ``claude -p``, so the test feeds the installed statusLine
command the JSON the protocol file describes (section 4), with the real session's id and
transcript path, as the interactive client would on its next refresh.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers.cli_run import run_program

from .conftest import ClaudeRunner, isolated_env, run_command, run_install
from .fake_api import FakeMessagesApi, Usage

pytestmark = pytest.mark.client

MODEL = "claude-sonnet-4-6[1m]"
# 250,000 tokens: more than a 200K window holds, 25% of the 1M one.
USAGE_250K = Usage(
    input_tokens=10_000,
    cache_creation_input_tokens=40_000,
    cache_read_input_tokens=199_000,
    output_tokens=1_000,
)


def status_json(session_id: str, transcript: Path, project: Path) -> dict[str, Any]:
    return {
        "hook_event_name": "Status",
        "session_id": session_id,
        "transcript_path": str(transcript),
        "cwd": str(project),
        "model": {"id": MODEL, "display_name": "Sonnet 4.6 (1M context)"},
        "workspace": {"current_dir": str(project), "project_dir": str(project)},
        "version": "2.1.332",
        "context_window": {
            "context_window_size": 1_000_000,
            "used_percentage": 24.9,
            "remaining_percentage": 75.1,
            "total_input_tokens": 249_000,
            "total_output_tokens": 1_000,
            "current_usage": {
                "input_tokens": 10_000,
                "output_tokens": 1_000,
                "cache_creation_input_tokens": 40_000,
                "cache_read_input_tokens": 199_000,
            },
        },
    }


def test_statusline_cache_makes_ctx_usage_report_the_1m_window(
    claude_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    tmp_path: Path,
) -> None:
    installed = run_install(claude_home, ctx_venv, "--statusline")
    assert installed.returncode == 0, installed.stderr
    assert "status line: ctx-statusline" in installed.stdout
    settings = json.loads((claude_home / ".claude" / "settings.json").read_text())
    command = settings["statusLine"]["command"]
    assert command == f'"{ctx_venv / "bin" / "ctx-statusline"}"'

    fake_api.enqueue_text("a long answer", USAGE_250K)
    run_claude("read the whole code base", model=MODEL)
    session_id = fake_api.main_requests()[0].session_id
    transcript = run_claude.transcript_path(session_id)
    assert transcript.exists()

    env = isolated_env()
    env.update(HOME=str(claude_home), NO_COLOR="1", CTX_CACHE_DIR=str(tmp_path / "cache"))
    project = run_claude.project_dir
    payload = status_json(session_id, transcript, project)
    # The client runs the statusLine command through the shell, in the session's cwd.
    shown = run_program(
        ["/bin/sh", "-c", command], cwd=project, env=env, stdin=json.dumps(payload).encode()
    )
    assert (shown.returncode, shown.stderr) == (0, b"")
    assert shown.stdout.decode() == "██▌░░░░░░░ 250K/1M 25% free · 717K to auto-compact\n"
    cache = project / ".working-state" / "sessions" / session_id / "statusline.json"
    assert json.loads(cache.read_text())["context_window_size"] == 1_000_000

    usage = run_command(ctx_venv, "ctx-usage", "--json", str(transcript), cwd=project, env=env)
    assert usage.returncode == 0, usage.stderr
    data = json.loads(usage.stdout)
    assert (data["tokens"], data["window"], data["window_source"]) == (
        250_000,
        1_000_000,
        "statusline",
    )
    assert (data["percent"], data["band"], data["model"]) == (25.0, "free", MODEL)


def test_without_the_cache_the_window_comes_from_the_transcript(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    tmp_path: Path,
) -> None:
    fake_api.enqueue_text("a long answer", USAGE_250K)
    run_claude("read the whole code base", model=MODEL)
    session_id = fake_api.main_requests()[0].session_id
    env = isolated_env()
    env.update(HOME=str(installed_home), CTX_CACHE_DIR=str(tmp_path / "cache"))
    usage = run_command(
        ctx_venv, "ctx-usage", "--json", session_id, cwd=run_claude.project_dir, env=env
    )
    assert usage.returncode == 0, usage.stderr
    data = json.loads(usage.stdout)
    assert (data["window"], data["window_source"]) == (1_000_000, "model-1m-suffix")
