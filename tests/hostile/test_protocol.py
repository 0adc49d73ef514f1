"""The suite's own yardsticks: the protocol check rejects what the client rejects, and in the
seeded sandbox every entry point does its real work (so hostile cases start from a path
that writes, injects and claims, not from an idle one)."""

from __future__ import annotations

import json
import re

import pytest

from context_memory.core.prompt_tables import AUDIT_PENDING_MARK
from hostile.harness import (
    ENTRY_POINTS,
    HOOK_ENTRIES,
    SESSION,
    ProtocolError,
    Sandbox,
    check_invariants,
    entry_for,
    run_in_process,
    snapshot,
    validate_harmless,
    validate_hook_stdout,
    validate_statusline_stdout,
)

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

GOOD = b'{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"x"}}\n'


def test_entry_points_cover_every_registered_hook() -> None:
    assert [entry.id for entry in ENTRY_POINTS] == [
        "ctx-budget-UserPromptSubmit",
        "ctx-extract-Stop",
        "ctx-extract-PreCompact",
        "ctx-restore-SessionStart-startup",
        "ctx-audit-PostCompact",
        "ctx-audit-SessionStart-compact",
        "ctx-guard-PreToolUse",
        "ctx-statusline-StatusLine",
    ]


@pytest.mark.parametrize(
    ("event", "stdout", "expected"),
    [
        ("UserPromptSubmit", b"", None),
        ("UserPromptSubmit", GOOD, json.loads(GOOD)),
        ("PreCompact", b"Keep these decisions\n", "Keep these decisions\n"),
        ("PostCompact", b"Compaction audit: 2 of 2 kept\n", "Compaction audit: 2 of 2 kept\n"),
        ("Stop", b'{"decision": "approve"}', {"decision": "approve"}),
        ("PostCompact", b'{"systemMessage": "hi"}', {"systemMessage": "hi"}),
    ],
)
def test_valid_outputs_pass(event: str, stdout: bytes, expected: object) -> None:
    assert validate_hook_stdout(event, stdout) == expected


@pytest.mark.parametrize(
    ("event", "stdout", "complaint"),
    [
        # The protocol file's own example of output the client discards whole.
        (
            "UserPromptSubmit",
            b'{"decision":"allow","hookSpecificOutput":{"additionalContext":"..."}}',
            "decision must be approve or block",
        ),
        ("SessionStart", GOOD, "the running event is 'SessionStart'"),
        ("PreCompact", b'{"hookSpecificOutput":{"hookEventName":"PreCompact"}}', "takes no"),
        ("PostCompact", b'{"hookSpecificOutput":{"hookEventName":"PostCompact"}}', "takes no"),
        ("UserPromptSubmit", GOOD + GOOD, "not exactly one JSON document"),
        ("UserPromptSubmit", b"{not json", "not exactly one JSON document"),
        ("UserPromptSubmit", b'{"extra": 1}', "unknown top-level key"),
        ("UserPromptSubmit", b'{"continue": "yes"}', "must be a bool"),
        ("Stop", b"plain text\n", "goes nowhere for Stop"),
        ("UserPromptSubmit", b"\xff\xfe", "not UTF-8"),
        ("UserPromptSubmit", b"  \n", "only whitespace"),
        ("SessionEnd", b"[1]", "goes nowhere"),
        (
            "UserPromptSubmit",
            b'{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":1}}',
            "must be a string",
        ),
    ],
)
def test_invalid_outputs_fail(event: str, stdout: bytes, complaint: str) -> None:
    with pytest.raises(ProtocolError, match=complaint):
        validate_hook_stdout(event, stdout)


@pytest.mark.parametrize(
    "stdout", [b'{"decision": "block", "reason": "x"}', b'{"continue": false}']
)
def test_blocking_is_never_harmless(stdout: bytes) -> None:
    validate_hook_stdout("UserPromptSubmit", stdout)  # valid for the client...
    with pytest.raises(ProtocolError):
        validate_harmless("UserPromptSubmit", stdout)  # ...but never ours to send


PRE_TOOL_ASK = (
    b'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask",'
    b'"permissionDecisionReason":"x"}}'
)


def test_pre_tool_use_may_ask_or_remind_but_never_deny() -> None:
    """Section 9: ask and additionalContext are the guard's answers; deny is valid for the
    client but blocks on the hook's own say, which the toolkit never does."""
    assert validate_harmless("PreToolUse", PRE_TOOL_ASK) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "x",
        }
    }
    remind = b'{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"x"}}'
    assert validate_harmless("PreToolUse", remind) is not None
    deny = PRE_TOOL_ASK.replace(b'"ask"', b'"deny"')
    validate_hook_stdout("PreToolUse", deny)
    with pytest.raises(ProtocolError, match="blocks a tool call"):
        validate_harmless("PreToolUse", deny)
    with pytest.raises(ProtocolError, match="not a valid decision"):
        validate_hook_stdout("PreToolUse", PRE_TOOL_ASK.replace(b'"ask"', b'"maybe"'))
    with pytest.raises(ProtocolError, match="unknown hookSpecificOutput keys"):
        validate_hook_stdout(
            "UserPromptSubmit", PRE_TOOL_ASK.replace(b"PreToolUse", b"UserPromptSubmit")
        )


@pytest.mark.parametrize("stdout", [b"two\nlines\n", b"no newline", b"\n"])
def test_statusline_must_be_one_line(stdout: bytes) -> None:
    with pytest.raises(ProtocolError):
        validate_statusline_stdout(stdout)


def _document(checked: object) -> dict[str, object]:
    assert isinstance(checked, dict), checked
    return checked


def test_seeded_sandbox_runs_every_entry_point_for_real(sandbox: Sandbox) -> None:
    """The valid payload of each entry point does its full work in the sandbox."""
    results = {}
    for entry in ENTRY_POINTS:
        sandbox.reset()
        raw = json.dumps(sandbox.payload(entry)).encode()
        before = snapshot(sandbox.root)
        run = run_in_process(entry, raw)
        results[entry.id] = check_invariants(sandbox, entry, raw, run, before)
        assert run.stderr == b"", (entry.id, run.stderr)
        if entry.id == "ctx-extract-Stop":
            extract = sandbox.state / "sessions" / SESSION / "compaction-extract.json"
            assert json.loads(extract.read_text())["trigger"] == "stop-interval"
            assert (sandbox.state / "sessions" / SESSION / "handoffs" / "stage-2.md").exists()
    budget = _document(results["ctx-budget-UserPromptSubmit"])["hookSpecificOutput"]
    assert isinstance(budget, dict)
    context = budget["additionalContext"]
    assert context.startswith("[COMPACT AUDIT] Decisions lost in compaction")
    assert "- Rejected: Codis (why: unmaintained)" in context
    assert "[CONTEXT BUDGET] ~171K/200K (85.4%)" in context
    steering = results["ctx-extract-PreCompact"]
    assert isinstance(steering, str) and "- Rejected: Codis (unmaintained)" in steering
    assert results["ctx-extract-Stop"] is None
    restore = _document(results["ctx-restore-SessionStart-startup"])["hookSpecificOutput"]
    assert isinstance(restore, dict) and str(restore["additionalContext"]).startswith(
        "[WORKING STATE] This project keeps its working memory on disk. Read "
        ".working-state/current-plan.md and .working-state/decisions.jsonl first."
    )
    post = results["ctx-audit-PostCompact"]
    assert isinstance(post, str) and "Codis" in post
    compact = _document(results["ctx-audit-SessionStart-compact"])["hookSpecificOutput"]
    assert isinstance(compact, dict) and "- Rejected: Codis" in str(compact["additionalContext"])
    line = re.sub(r"\x1b\[[0-9;]*m", "", str(results["ctx-statusline-StatusLine"]))
    assert line == "████████▌░ 171K/200K 85.4% must-subagent · auto-compact due\n"


def test_budget_claims_the_pending_audit_once(sandbox: Sandbox) -> None:
    budget = entry_for("ctx-budget", "UserPromptSubmit")
    raw = json.dumps(sandbox.payload(budget)).encode()
    first = run_in_process(budget, raw)
    second = run_in_process(budget, raw)
    assert b"[COMPACT AUDIT]" in first.stdout and b"[COMPACT AUDIT]" not in second.stdout
    assert not (sandbox.state / "sessions" / SESSION / AUDIT_PENDING_MARK).exists()


def test_every_hook_is_registered_for_a_real_event() -> None:
    assert {entry.event for entry in HOOK_ENTRIES} <= {
        "UserPromptSubmit",
        "Stop",
        "PreCompact",
        "PostCompact",
        "SessionStart",
        "PreToolUse",
    }
