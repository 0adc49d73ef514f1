"""ctx-decide's ``by`` (issue 25, item 3): a record typed in a terminal is the user's, one
the agent makes through Claude Code's Bash tool (CLAUDECODE=1 in its environment, verified
with the client in tests/e2e/test_claudecode_env_e2e.py) is the agent's, ``--by`` says it
explicitly; and the user's rejection typed by hand makes the installed ctx-guard ask."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from context_memory.commands.decide import cli
from helpers.cli_run import invoke, run_console_script
from helpers.paths import subprocess_env

SESSION = "5e1f0c3a-2b4d-4e6f-8a9b-0c1d2e3f4a5b"


def log_lines(project: Path) -> list[dict[str, Any]]:
    text = (project / ".working-state" / "decisions.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize(
    ("environ", "args", "expected"),
    [
        ({}, [], "user"),
        ({"CLAUDECODE": "1"}, [], "agent"),
        ({"CLAUDECODE": "0"}, [], "user"),
        ({}, ["--by", "agent"], "agent"),
        ({"CLAUDECODE": "1"}, ["--by", "user"], "user"),
    ],
)
def test_who_stated_a_record(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    environ: dict[str, str],
    args: list[str],
    expected: str,
) -> None:
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    result = invoke(cli, ["--rejected", "npm install", "--reason", "use pnpm", *args])
    assert result.exit_code == 0, result.output
    [record] = log_lines(project)
    assert record["by"] == expected


def test_the_list_says_the_user_stated_it(project: Path) -> None:
    assert invoke(cli, ["--rejected", "npm install", "--reason", "use pnpm"]).exit_code == 0
    listed = invoke(cli, ["--list"])
    assert listed.exit_code == 0
    assert "rejected  npm install (use pnpm; stated by the user)" in listed.stdout


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--list", "--by", "user"], 1, "Error: --by says who stated a record: give it with"),
        (["--pin", "x", "--by", "user"], 1, "Error: --by says who stated a record: give it with"),
        (["x", "--by", "someone"], 2, "Invalid value for '--by': 'someone' is not one of"),
    ],
)
def test_by_goes_with_a_record_and_names_user_or_agent(
    project: Path, args: list[str], code: int, message: str
) -> None:
    result = invoke(cli, args)
    assert result.exit_code == code
    assert message in result.stderr
    assert not (project / ".working-state" / "decisions.jsonl").exists()


def pre_tool_use(project: Path, command: str) -> str:
    return json.dumps(
        {
            "session_id": SESSION,
            "transcript_path": str(project / "t.jsonl"),
            "cwd": str(project),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": "toolu_01",
        }
    )


@pytest.mark.parametrize(
    ("claudecode", "answer"),
    [(None, "permissionDecision"), ("1", "additionalContext")],
)
def test_a_rejection_typed_in_a_terminal_makes_the_guard_ask(
    tmp_path: Path, claudecode: str | None, answer: str
) -> None:
    """The README's example in a fresh process without CLAUDECODE, then the ctx-guard
    console script on the client's PreToolUse JSON for ``npm install``: it asks. Typed by
    the agent (CLAUDECODE=1) the same record only reminds."""
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    env = subprocess_env(**({"CLAUDECODE": claudecode} if claudecode else {}))
    typed = run_console_script(
        "ctx-decide", "--rejected", "npm install", "--reason", "use pnpm", cwd=project, env=env
    )
    assert typed.returncode == 0, typed.stderr
    [record] = log_lines(project)
    guard = run_console_script(
        "ctx-guard",
        cwd=project,
        env=subprocess_env(),
        input_text=pre_tool_use(project, "npm install"),
    )
    assert (guard.returncode, guard.stderr) == (0, "")
    output = json.loads(guard.stdout)["hookSpecificOutput"]
    day = record["ts"][:10]
    if answer == "permissionDecision":
        assert output == {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": (
                f"You rejected `npm install` on {day}: 'npm install (use pnpm)'. "
                f"Run it anyway? [ctx-guard, record {record['id']}]"
            ),
        }
    else:
        assert sorted(output) == ["additionalContext", "hookEventName"]
        assert "which you (the agent) ruled out" in output["additionalContext"]
    # The compliant call: nothing.
    quiet = run_console_script(
        "ctx-guard",
        cwd=project,
        env=subprocess_env(),
        input_text=pre_tool_use(project, "pnpm install"),
    )
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")


@pytest.mark.slow  # a real ./install
def test_the_installed_commands_ask_after_a_rejection_typed_by_hand(tmp_path: Path) -> None:
    """The same through ./install: its ctx-decide typed in a terminal (no CLAUDECODE: the
    install's clean environment drops CLAUDE*), then ctx-guard as settings.json runs it."""
    from helpers import installed

    install = installed.installed_for(installed.primary_label())
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    typed = install.run_program(
        "ctx-decide", ["--rejected", "npm install", "--reason", "use pnpm"], cwd=project
    )
    assert typed.returncode == 0, typed.stderr
    [record] = log_lines(project)
    assert record["by"] == "user"
    ask = install.run_registered(
        "ctx-guard", pre_tool_use(project, "npm install").encode(), cwd=project
    )
    assert (ask.returncode, ask.stderr) == (0, b"")
    decision = json.loads(ask.stdout)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "ask"
    assert decision["permissionDecisionReason"].startswith("You rejected `npm install` on ")
