"""A hook tried by hand (issue 19, item 5): typed in a terminal or run with nothing on stdin,
every hook command says what it is, which event Claude Code runs it for and how to try it
(an example payload, --help), exits 0 and logs nothing. Wrong hook input stays an error."""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from context_memory.core.command_table import COMMANDS, HOOK_GUIDES, HOOKS
from context_memory.handlers import (
    budget,
    plugin_restore,
    restore,
)
from helpers.cli_run import run_hook_main, run_in_terminal
from helpers.paths import REPO, subprocess_env


def entry_point(target: str) -> Callable[..., int]:
    """The function a registry target (``module:function``) names."""
    module, function = target.split(":")
    found: Callable[..., int] = getattr(importlib.import_module(module), function)
    return found


# Every command with a by-hand guide, from the one registry (a new hook is not listed here).
MAINS: dict[str, Callable[..., int]] = {
    command.name: entry_point(command.target) for command in COMMANDS if command.guide is not None
}

BUDGET_BY_HAND = (
    "ctx-budget: no hook input on stdin, so nothing to do.\n"
    "ctx-budget is Claude Code's UserPromptSubmit hook: before each prompt it adds a graded\n"
    "context-budget instruction when the context is filling up. Claude Code runs it (set up\n"
    "by ./install, ctx-install or the plugin) with the event's JSON on stdin.\n"
    "Try it by hand (a transcript is a .jsonl file under ~/.claude/projects/):\n"
    """  echo '{"hook_event_name": "UserPromptSubmit", "transcript_path": """
    """"/path/to/session.jsonl", "cwd": "."}' | ctx-budget\n"""
    "More: ctx-budget --help\n"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".working-state").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(tmp_path))
    return tmp_path


def test_every_hook_command_has_a_guide() -> None:
    assert {spec.command for spec in HOOKS} <= set(MAINS)  # every registered hook is here
    assert MAINS["ctx-budget"] is budget.main and MAINS["ctx-restore"] is restore.main
    assert {"ctx-statusline", "ctx-allow"} <= set(MAINS)  # no hook event, but tried by hand
    for hook, (events, _summary, example) in HOOK_GUIDES.items():
        payload = json.loads(example)  # the example is one JSON object a user can paste
        event = payload.get("hook_event_name")
        assert event is None or event in events, hook


def test_ctx_budget_with_empty_stdin_says_how_to_use_it(project: Path, monkeypatch, capsys):
    """Before: ``ctx-budget: HookInputError: empty stdin: expected the hook JSON ...``."""
    assert run_hook_main(monkeypatch, capsys, budget.main, b"") == (0, "", BUDGET_BY_HAND)
    assert not (project / ".working-state" / "logs").exists()


@pytest.mark.parametrize("hook", sorted(MAINS))
@pytest.mark.parametrize("stdin", [b"", b"  \n"], ids=["empty", "blank"])
def test_every_hook_with_no_input_answers_the_same_way(
    project: Path, monkeypatch, capsys, hook: str, stdin: bytes
) -> None:
    events, _, example = HOOK_GUIDES[hook]
    status, out, err = run_hook_main(monkeypatch, capsys, MAINS[hook], stdin)
    assert (status, out) == (0, "")
    assert err.startswith(f"{hook}: no hook input on stdin, so nothing to do.\n{hook} is ")
    assert f"Claude Code's {events} hook" in err or f"Claude Code's {events}\nhook" in err
    assert f"  echo '{example}' | {hook}\n" in err
    assert err.endswith(f"More: {hook} --help\n")
    assert "Error" not in err
    assert not (project / ".working-state" / "logs").exists()


def test_the_plugin_restore_hook_answers_as_ctx_restore(project: Path, monkeypatch, capsys):
    status, out, err = run_hook_main(monkeypatch, capsys, plugin_restore.main, b"")
    assert (status, out) == (0, "")
    assert err.startswith("ctx-restore: no hook input on stdin, so nothing to do.\n")


@pytest.mark.parametrize("hook", sorted(MAINS))
def test_every_hook_help_says_how_to_try_it(monkeypatch, capsys, hook: str) -> None:
    events, _, example = HOOK_GUIDES[hook]
    status, out, err = run_hook_main(monkeypatch, capsys, MAINS[hook], b"", ["--help"])
    assert (status, err) == (0, "")
    assert f"Claude Code's {events} hook" in out.replace("\n", " ")
    assert f"  echo '{example}' | {hook}\n" in out
    assert "--version" in out


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b"{}", "ctx-budget: HookInputError: the hook input has no transcript_path\n"),
        (
            b"not json",
            "ctx-budget: HookInputError: stdin is not JSON (Expecting value at char 0)\n",
        ),
    ],
)
def test_wrong_input_is_still_an_error_and_logged(
    project: Path, monkeypatch, capsys, stdin, message
):
    assert run_hook_main(monkeypatch, capsys, budget.main, stdin) == (0, "", message)
    log = (project / ".working-state" / "logs" / "hooks.log").read_text()
    assert log.count("\n") == 1 and "\tctx-budget\t-\tHookInputError: " in log


# ctx-audit typed in a terminal audits the newest session of the folder instead
# (tests/transcript/test_by_hand.py), as its README line ctx-audit [TRANSCRIPT] says.
@pytest.mark.parametrize("hook", ["ctx-budget", "ctx-statusline"])
def test_typed_in_a_terminal_in_a_fresh_process(tmp_path: Path, hook: str) -> None:
    """stdin is a terminal (a pty): the hook does not wait for input, it says how to use it."""
    (tmp_path / ".working-state").mkdir()
    module = {"ctx-budget": "budget", "ctx-statusline": "statusline"}
    code = (
        f"import sys\nsys.argv[0] = {hook!r}\n"
        f"from context_memory.handlers.{module[hook]} import main\nsys.exit(main())"
    )
    done = run_in_terminal(code, cwd=tmp_path, env=subprocess_env())
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr.startswith(f"{hook}: no hook input on stdin, so nothing to do.\n")
    assert done.stderr.endswith(f"More: {hook} --help\n")
    assert not (tmp_path / ".working-state" / "logs").exists()


def test_an_empty_object_is_what_docs_context_counting_says(
    project: Path, monkeypatch, capsys
) -> None:
    """docs/context-counting.md said `{}` is one error line and one log line for every hook;
    ctx-extract, ctx-audit and ctx-guard (and ctx-allow) do nothing for it (issue 25). The
    doc names the quiet ones; this runs every hook on `{}` in a project with a state folder
    and nothing recorded."""
    outcomes = {
        hook: run_hook_main(monkeypatch, capsys, main, b"{}") for hook, main in MAINS.items()
    }
    log = project / ".working-state" / "logs" / "hooks.log"
    assert log.read_text().count("\n") == 1
    assert (
        "\tctx-budget\t-\tHookInputError: the hook input has no transcript_path" in log.read_text()
    )
    assert outcomes.pop("ctx-budget") == (
        0, "", "ctx-budget: HookInputError: the hook input has no transcript_path\n"
    )  # fmt: skip
    status, line, err = outcomes.pop("ctx-statusline")
    assert (status, err) == (0, "")
    assert line.count("\n") == 1 and " 0/" in line and "to auto-compact" in line
    assert outcomes.pop("ctx-restore") == (0, "", "")  # nothing to point at yet
    quiet = sorted(hook for hook, outcome in outcomes.items() if outcome == (0, "", ""))
    assert quiet == sorted(outcomes)
    doc = " ".join((REPO / "docs" / "context-counting.md").read_text(encoding="utf-8").split())
    sentence = doc.split("An empty object `{}` names no event, tool or transcript: ", 1)[1]
    assert (
        sorted(re.findall(r"`(ctx-[a-z]+)`", sentence.split(" do nothing for it", 1)[0])) == quiet
    )
