"""HookInput: the hook's stdin parsed once at the boundary, with one rule per question the
handlers used to answer each their own way (the event, the session id, the project)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from context_memory.core import hookio
from context_memory.core.hookio import HookInput, as_hook_input
from context_memory.core.state import UnsafeNameError
from context_memory.handlers import budget, restore
from helpers import transcript_rows as tr
from helpers.cli_run import run_hook_main

SESSION = "11111111-2222-3333-4444-555555555555"


@pytest.fixture(autouse=True)
def no_client_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CLAUDE_PROJECT_DIR", "CTX_STATE_DIR"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    ("event", "ours", "expected"),
    [
        ("UserPromptSubmit", ("UserPromptSubmit",), "UserPromptSubmit"),
        ("Stop", ("UserPromptSubmit",), None),
        (None, ("UserPromptSubmit",), "UserPromptSubmit"),  # a one-event hook: its own
        (None, ("Stop", "PreCompact"), None),  # a hook of several events cannot tell
        ("PreCompact", ("Stop", "PreCompact"), "PreCompact"),
        (5, ("UserPromptSubmit",), None),  # present but not a string: not ours
    ],
)
def test_one_rule_for_the_event(event: object, ours: tuple[str, ...], expected: str | None):
    payload = {} if event is None else {"hook_event_name": event}
    assert HookInput(payload).answers(*ours) == expected


@pytest.mark.parametrize("session", ["../../etc", "a/b", ".hidden", "x" * 300, "nul\x00id"])
def test_an_unsafe_session_id_is_refused_at_the_boundary(session: str) -> None:
    with pytest.raises(UnsafeNameError):
        HookInput({"session_id": session})


def test_an_absent_session_id_is_none() -> None:
    assert HookInput({"session_id": ""}).session_id is None
    assert HookInput({"session_id": 5}).session_id is None
    assert HookInput({}).session_folder() is None


def test_ctx_budget_fails_open_on_an_unsafe_session_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ctx-budget went on without the session (and injected its instruction) while
    ctx-extract and ctx-audit refused the same input. Now every hook refuses it."""
    project = tmp_path / "project"
    (project / ".working-state").mkdir(parents=True)
    path = tr.write_transcript(tmp_path / "t.jsonl", [tr.assistant("m1", tr.usage(150_000))])
    data = {
        "session_id": "../../etc",
        "transcript_path": str(path),
        "cwd": str(project),
        "hook_event_name": "UserPromptSubmit",
    }
    status, out, err = run_hook_main(monkeypatch, capsys, budget.main, data)
    assert status == 0
    assert out == ""
    assert err.startswith("ctx-budget: UnsafeNameError: session id '../../etc' is not allowed")
    log = (project / ".working-state" / "logs" / "hooks.log").read_text()
    assert "\tctx-budget\t-\tUnsafeNameError: session id '../../etc'" in log


def test_the_project_is_the_workspace_else_cwd(tmp_path: Path) -> None:
    """The status line's input names workspace.project_dir; the hooks' name only cwd.
    Before: the status line wrote its window cache under the first and the hooks read it
    back from the second."""
    project, sub = tmp_path / "p", tmp_path / "p" / "src"
    both = HookInput({"cwd": str(sub), "workspace": {"project_dir": str(project)}})
    assert (both.project_dir, both.state_dir) == (str(project), str(project / ".working-state"))
    hook = HookInput({"cwd": str(project)})
    assert hook.state_dir == str(project / ".working-state")


def test_the_state_folder_is_resolved_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole ctx-restore run resolves the state folder once (before: twice per hook, four
    times in ctx-budget), and its handler is given the HookInput run_hook parsed."""
    project = tmp_path / "project"
    (project / ".working-state").mkdir(parents=True)
    (project / ".working-state" / "decisions.jsonl").write_text('{"kind": "decided"}\n')
    calls: list[str | None] = []
    real = hookio.resolve_state_dir

    def counting(cwd: str | None = None, **kwargs: bool) -> str:
        calls.append(cwd)
        return real(cwd, **kwargs)

    monkeypatch.setattr(hookio, "resolve_state_dir", counting)
    seen: list[object] = []
    real_output = restore.restore_output

    def spy(payload: HookInput) -> str | None:
        seen.append(payload)
        return real_output(payload)

    data = {"session_id": SESSION, "cwd": str(project), "hook_event_name": "SessionStart"}
    raw = json.dumps(data).encode()
    assert hookio.run_hook("ctx-restore", spy, read_input=lambda: raw, argv=[]) == 0
    assert calls == [str(project)]
    assert len(seen) == 1 and isinstance(seen[0], HookInput)
    assert "[WORKING STATE]" in capsys.readouterr().out


def test_as_hook_input_takes_a_payload_or_a_hook_input() -> None:
    hook = HookInput({"session_id": SESSION})
    assert as_hook_input(hook) is hook
    assert as_hook_input({"session_id": SESSION}).session_id == SESSION


@pytest.mark.parametrize(
    ("stdin", "got"),
    [
        (b"null", "null"),
        (b"[1, 2]", "an array"),
        (b'"text"', "a string"),
        (b"5", "a number"),
        (b"1.5", "a number"),
        (b"true", "true"),
        (b"false", "false"),
    ],
)
def test_stdin_that_is_json_but_no_object_is_named_in_json_terms(stdin: bytes, got: str) -> None:
    """It said "stdin JSON is a NoneType" (Python's name of the type) for `null` (issue 25)."""
    with pytest.raises(hookio.HookInputError) as raised:
        hookio.parse_hook_input(stdin)
    assert str(raised.value) == (
        f"stdin is not a JSON object (got {got}): expected the hook JSON from Claude Code"
    )


def test_a_hook_given_null_says_what_it_expected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run_hook_main(monkeypatch, capsys, budget.main, "null")
    assert (status, out) == (0, "")
    assert err == (
        "ctx-budget: HookInputError: stdin is not a JSON object (got null): expected the hook "
        "JSON from Claude Code\n"
    )
