"""Working memory end to end with the real client: the agent records a decision with
ctx-decide through its Bash tool, writes and edits a file, then /compact. The hooks that
./install registered (ctx-extract on Stop and PreCompact, ctx-restore on SessionStart) must
leave the extract and a five-section handoff on disk, and the PreCompact text must reach
the summarisation request."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .conftest import ClaudeRunner
from .fake_api import FakeMessagesApi, ScriptedTurn, Usage, text_block, tool_use_block

pytestmark = pytest.mark.client

DECISION = "Use Redis Cluster, 6 nodes"
REJECTED = "Codis"
FILE = "config/redis.yaml"
# The last reply before /compact: what the extract and the handoff record as tokens.
LAST_USAGE = Usage(
    input_tokens=3_000,
    cache_creation_input_tokens=0,
    cache_read_input_tokens=40_000,
    output_tokens=200,
)
SESSION_ARGS = ("--permission-mode", "acceptEdits", "--allowedTools", "Bash(ctx-decide:*)")


def tool_turn(name: str, tool_input: dict) -> ScriptedTurn:
    return ScriptedTurn(blocks=(tool_use_block(name, tool_input),))


def registered(settings: Path) -> list[tuple[str, str | None, str]]:
    data = json.loads(settings.read_text(encoding="utf-8"))
    return [
        (event, group.get("matcher"), Path(hook["command"].strip('"')).name)
        for event, groups in data["hooks"].items()
        for group in groups
        for hook in group["hooks"]
    ]


def test_install_registers_the_working_memory_hooks(installed_home: Path) -> None:
    hooks = registered(installed_home / ".claude" / "settings.json")
    assert ("Stop", None, "ctx-extract") in hooks
    assert ("PreCompact", None, "ctx-extract") in hooks
    assert ("SessionStart", "startup|resume|clear", "ctx-restore") in hooks


def test_decision_and_edit_survive_compact(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    project = run_claude.project_dir
    target = project / FILE
    fake_api.enqueue(
        tool_turn(
            "Bash",
            {
                "command": f'ctx-decide "{DECISION}" --reason "needs sharding" '
                "--alt Codis --alt Sentinel",
                "description": "Record the decision",
            },
        ),
        tool_turn(
            "Bash",
            {
                "command": f'ctx-decide --rejected "{REJECTED}" '
                '--reason "unmaintained, proxy adds 2 ms"',
                "description": "Record the rejection",
            },
        ),
        tool_turn("Write", {"file_path": str(target), "content": "cluster:\n  nodes: 6\n"}),
        tool_turn(
            "Edit",
            {
                "file_path": str(target),
                "old_string": "nodes: 6",
                "new_string": "nodes: 6\n  slots: auto",
            },
        ),
        ScriptedTurn(blocks=(text_block("Recorded and configured."),), usage=LAST_USAGE),
    )
    # The agent's Bash finds ctx-decide on PATH, as after a user's install.
    env = {"PATH": f"{ctx_venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    run_claude("Set up the cache cluster", extra_args=SESSION_ARGS, env=env)
    assert fake_api.pending_turns == 0
    session = fake_api.main_requests()[0].session_id
    assert session
    assert target.read_text() == "cluster:\n  nodes: 6\n  slots: auto\n"

    state = project / ".working-state"
    records = [json.loads(line) for line in (state / "decisions.jsonl").read_text().splitlines()]
    assert [(r["kind"], r["decision"], r["session"]) for r in records] == [
        ("decided", DECISION, session),  # CLAUDE_CODE_SESSION_ID reached the agent's Bash
        ("rejected", REJECTED, session),
    ]
    session_dir = state / "sessions" / session
    # One Stop so far: counted, not acted on (every 15th stop).
    assert (session_dir / ".stop-count").read_text() == "1"
    assert not (session_dir / "compaction-extract.json").exists()

    fake_api.set_summary("The user set up a Redis cluster.")
    run_claude.compact(env=env)

    extract = json.loads((session_dir / "compaction-extract.json").read_text())
    assert extract["trigger"] == "pre-compact-manual"
    assert [r["decision"] for r in extract["decisions"]] == [DECISION]
    assert [r["decision"] for r in extract["rejections"]] == [REJECTED]
    assert extract["files_modified"] == [FILE]
    assert extract["tokens"] == 43_200
    assert extract["handoff"] == f"sessions/{session}/handoffs/stage-1.md"
    handoff = (state / extract["handoff"]).read_text()
    body = handoff.split("---\n", 2)[2]
    assert body == (
        "# Handoff: stage 1\n\n"
        "## Decided\n- Use Redis Cluster, 6 nodes (needs sharding; alternatives: Codis, "
        "Sentinel)\n\n"
        "## Rejected\n- Codis (unmaintained, proxy adds 2 ms)\n\n"
        "## Risks\n- none\n\n"
        f"## Files Modified\n- {FILE}\n\n"
        "## Remaining\n- none\n"
    )
    assert f"session: {session}\nstage: 1\n" in handoff and "tokens: 43200\n" in handoff

    # The PreCompact text reached the summariser's instructions.
    (summary_request, *_) = fake_api.requests_of("summary")
    instructions = summary_request.last_user_text
    assert (
        "- Decided: Use Redis Cluster, 6 nodes (needs sharding; alternatives: Codis, Sentinel)"
        in instructions
    )
    assert "- Rejected: Codis (unmaintained, proxy adds 2 ms)" in instructions
    assert ".working-state/decisions.jsonl" in instructions

    # A new session in the project is pointed at the working state (ctx-restore).
    fake_api.enqueue_text("Read it.")
    run_claude("What next?", env=env)
    new_request = fake_api.main_requests()[-1]
    assert new_request.session_id != session
    pointer = (
        "[WORKING STATE] This project keeps its working memory on disk. "
        "Read .working-state/decisions.jsonl first. "
        "Rejected, do not propose again: Codis (unmaintained, proxy adds 2 ms). "
        f"Latest handoff: .working-state/sessions/{session}/handoffs/stage-1.md. "
        "Record new decisions with ctx-decide."
    )
    assert new_request.hook_contexts("SessionStart") == [pointer]
