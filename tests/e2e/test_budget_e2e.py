"""ctx-budget end to end: ./install registers it, the real client runs it on UserPromptSubmit,
and its additionalContext reaches the model (the next request the fake API receives)."""

from __future__ import annotations

import json
import shlex
import stat
from pathlib import Path

import pytest

from .conftest import ClaudeRunner, hook_responses
from .fake_api import FakeMessagesApi, Usage

pytestmark = pytest.mark.client

BUDGET_MARKER = "[CONTEXT BUDGET]"
BETA_1M = "context-1m-2025-08-07"
# 150,000 tokens in all four usage fields together: the client's (and ctx-budget's) sum.
USAGE_150K = Usage(
    input_tokens=20_000,
    cache_creation_input_tokens=30_000,
    cache_read_input_tokens=99_000,
    output_tokens=1_000,
)
HOOK_EVENTS_ARGS = ("--output-format", "stream-json", "--verbose", "--include-hook-events")


def registered_programs(home: Path, event: str) -> list[Path]:
    """The program of every command hook registered for ``event`` in ~/.claude/settings.json."""
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    return [
        Path(shlex.split(hook["command"])[0])  # ./install quotes the path
        for group in settings.get("hooks", {}).get(event, [])
        for hook in group.get("hooks", [])
    ]


def run_two_turns(run_claude: ClaudeRunner, fake_api: FakeMessagesApi, model: str) -> str:
    """A first turn whose response reports 150K tokens, then a --continue turn.

    Returns the second run's stdout (stream-json with hook events).
    """
    fake_api.enqueue_text("a big first answer", USAGE_150K)
    fake_api.enqueue_text("second answer")
    run_claude("first question", model=model)
    second = run_claude("second question", model=model, cont=True, extra_args=HOOK_EVENTS_ARGS)
    assert len(fake_api.main_requests()) == 2
    return second.stdout


def test_install_registers_ctx_budget_on_user_prompt_submit(
    installed_home: Path, ctx_venv: Path
) -> None:
    programs = registered_programs(installed_home, "UserPromptSubmit")
    assert ctx_venv / "bin" / "ctx-budget" in programs
    assert (ctx_venv / "bin" / "ctx-budget").exists()


def test_budget_reaches_the_model_at_75_percent_of_a_200k_window(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi
) -> None:
    run_two_turns(run_claude, fake_api, model="claude-sonnet-4-6")

    first_request, second_request = fake_api.main_requests()
    assert BETA_1M not in second_request.headers["anthropic-beta"]
    # The first prompt had no usage in the transcript yet: nothing to report.
    assert BUDGET_MARKER not in first_request.body_json()
    contexts = second_request.hook_contexts("UserPromptSubmit")
    assert len(contexts) == 1, second_request.last_user_text
    assert contexts[0].startswith("[CONTEXT BUDGET] ~150K/200K (75%). ")
    # Injected into this turn's user message, ahead of the prompt.
    assert second_request.messages[-1]["content"][-1]["text"] == "second question"
    assert second_request.body_json().count(BUDGET_MARKER) == 1


def test_budget_stays_silent_at_15_percent_of_a_1m_window(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi
) -> None:
    second_stdout = run_two_turns(run_claude, fake_api, model="claude-sonnet-4-6[1m]")

    # The client did choose the 1M window: it asks for the 1M beta (the model id has no [1m]).
    second_request = fake_api.main_requests()[1]
    assert second_request.model == "claude-sonnet-4-6"
    assert BETA_1M in second_request.headers["anthropic-beta"].split(",")
    for request in fake_api.requests:
        assert BUDGET_MARKER not in request.body_json()
    # Silence must come from ctx-budget deciding so, not from it not running or failing:
    # every registered UserPromptSubmit hook (ctx-budget among them) ran and succeeded.
    registered = registered_programs(installed_home, "UserPromptSubmit")
    runs = hook_responses(second_stdout, "UserPromptSubmit")
    assert len(runs) == len(registered)
    for run in runs:
        assert (run["exit_code"], run["outcome"], run["stderr"]) == (0, "success", "")
        assert BUDGET_MARKER not in run["stdout"]


def write_hook_script(path: Path, stdout_text: str) -> Path:
    path.write_text(
        f"#!/bin/sh\ncat >/dev/null\ncat <<'EOF'\n{stdout_text}\nEOF\n", encoding="utf-8"
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_invalid_hook_json_never_reaches_the_model(
    tmp_path: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi
) -> None:
    """Exit 0 with output that fails the client's schema: the whole output is dropped.

    A valid hook in the same run is the control: it shows that additionalContext from a
    hook does reach the request when the JSON is right.
    """
    valid = write_hook_script(
        tmp_path / "valid-hook",
        json.dumps(
            {
                "hookSpecificOutput": {
                    "hookEventName": "UserPromptSubmit",
                    "additionalContext": "VALID-MARKER-41c2",
                }
            }
        ),
    )
    invalid = write_hook_script(
        tmp_path / "invalid-hook",
        json.dumps(
            {
                "decision": "allow",
                "hookSpecificOutput": {"additionalContext": "INVALID-MARKER-9d7e"},
            }
        ),
    )
    settings = {
        "hooks": {
            "UserPromptSubmit": [
                {
                    "hooks": [
                        {"type": "command", "command": str(valid)},
                        {"type": "command", "command": str(invalid)},
                    ]
                }
            ]
        }
    }
    settings_path = run_claude.home / ".claude" / "settings.json"
    settings_path.parent.mkdir(parents=True, exist_ok=True)
    settings_path.write_text(json.dumps(settings), encoding="utf-8")

    result = run_claude("hello", extra_args=HOOK_EVENTS_ARGS)

    (request,) = fake_api.main_requests()
    assert request.hook_contexts("UserPromptSubmit") == ["VALID-MARKER-41c2"]
    assert "INVALID-MARKER-9d7e" not in request.body_json()
    # The invalid hook did run and exit 0; the client rejected what it printed.
    runs = {run["stdout"].strip(): run for run in hook_responses(result.stdout, "UserPromptSubmit")}
    invalid_run = next(run for out, run in runs.items() if "INVALID-MARKER-9d7e" in out)
    assert invalid_run["exit_code"] == 0
    assert "Hook JSON output validation failed" in invalid_run["stderr"]
