"""CLAUDECODE with the real client (issue 25, item 3): Claude Code sets ``CLAUDECODE=1`` in
the environment of the commands its Bash tool runs, and only there; ctx-decide reads it to
tell the agent's records (``by: agent``) from the ones a person types (``by: user``).

The scripted model runs ``env`` (its output reaches the fake API as the tool result), then
the installed ctx-decide; the test itself runs the same ctx-decide as a terminal would, in
a plain subprocess of the same environment the client got.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from helpers.cli_run import run_program

from .conftest import ClaudeRunner, allow
from .fake_api import FakeMessagesApi, ScriptedTurn, bash_turn, result_text, tool_result

pytestmark = pytest.mark.client


def env_names(output: str) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in output.splitlines() if "=" in line)
    return dict(pairs)


def test_claudecode_is_set_for_the_bash_tool_and_not_in_a_terminal(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    project_dir: Path,
) -> None:
    decide = ctx_venv / "bin" / "ctx-decide"
    allow(installed_home, "Bash(env)", f"Bash({decide}:*)")
    (project_dir / ".git").mkdir()
    client_env = run_claude.child_env()
    assert "CLAUDECODE" not in client_env  # the client is started without it

    fake_api.enqueue(
        bash_turn("env", "toolu_01env"),
        bash_turn(f'{decide} --rejected "npm install" --reason "use pnpm"', "toolu_02decide"),
        ScriptedTurn.text("Recorded."),
    )
    run_claude("Show the environment, then record that npm install is out.")
    in_bash_tool = env_names(result_text(tool_result(fake_api, "toolu_01env")))
    assert in_bash_tool.get("CLAUDECODE") == "1", sorted(in_bash_tool)
    assert "recorded rejected" in result_text(tool_result(fake_api, "toolu_02decide"))

    # A terminal: a plain process of the same environment, no Claude Code around it.
    plain = subprocess.run(
        ["env"], env=client_env, capture_output=True, text=True, timeout=30, check=True
    )
    assert "CLAUDECODE" not in env_names(plain.stdout)
    typed = run_program(
        [str(decide), "--rejected", "yarn", "--reason", "use pnpm"], cwd=project_dir, env=client_env
    )
    assert typed.returncode == 0, typed.stderr

    log = project_dir / ".working-state" / "decisions.jsonl"
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    by_hand = [
        (r["decision"], r["by"])
        for r in records
        if r.get("kind") == "rejected" and "source" not in r
    ]
    assert by_hand == [("npm install", "agent"), ("yarn", "user")]
