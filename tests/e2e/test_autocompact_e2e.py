"""Automatic compaction with the real client: ctx-budget before it, and when it stops.

The client (2.1.332) compacts on its own once a reply is above the auto-compact threshold
(167,000 on claude-sonnet-4-6, 967,000 on claude-opus-4-7): at the start of the next
prompt it runs UserPromptSubmit, then compacts, then sends. ctx-budget's text is then part
of the new context, so at the threshold it carries the session's recorded decisions.

When summarisation fails (HTTP 529 here, CLAUDE_CODE_MAX_RETRIES=0) the client stops
compacting and refuses to send from about window - 23,000. Two replies in a row above the
threshold show it: the next prompt must carry the plain warning, while there is room.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import ClaudeRunner, ctx_decide
from .fake_api import (
    FakeMessagesApi,
    ScriptedTurn,
    Usage,
    texts_of,
    tool_use_block,
)

pytestmark = pytest.mark.client

NO_RETRIES = {"CLAUDE_CODE_MAX_RETRIES": "0"}
STOPPED_TAIL = (
    "for 2 replies in a row with no compaction. Tell the user plainly: run /compact now, or "
    "write the handoff (ctx-handoff --draft) and start a new session, before the API refuses "
    "the request."
)
SUMMARY = "1. Primary Request and Intent: design a cache layer. Chose Redis Cluster 6 nodes."


def context_of(tokens: int) -> Usage:
    """A reply whose four usage numbers add up to ``tokens`` (the client's own sum)."""
    return Usage(
        input_tokens=5_000,
        cache_creation_input_tokens=10_000,
        cache_read_input_tokens=tokens - 16_000,
        output_tokens=1_000,
    )


@pytest.mark.parametrize(
    ("model", "first", "second", "usage", "threshold"),
    [
        # Refused from about 177,000: both replies are below it.
        ("claude-sonnet-4-6", 170_000, 172_000, "~172K/200K (86%)", "167K"),
        # Refused from about 977,000.
        ("claude-opus-4-7", 968_000, 970_000, "~970K/1M (97%)", "967K"),
    ],
)
def test_warning_once_compaction_has_stopped(
    installed_home: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
    model: str,
    first: int,
    second: int,
    usage: str,
    threshold: str,
) -> None:
    fake_api.fail_summaries(529)
    # A session's very first reply does not make the client compact: start small.
    fake_api.enqueue_text("hello")
    run_claude("hello", model=model, env=NO_RETRIES)
    fake_api.enqueue_text("first answer", context_of(first))
    run_claude("first question", model=model, cont=True, env=NO_RETRIES)
    assert not fake_api.requests_of("summary")

    # The client tries to compact before sending this prompt; the summary fails.
    fake_api.clear_requests()
    fake_api.enqueue_text("second answer", context_of(second))
    run_claude("second question", model=model, cont=True, env=NO_RETRIES)
    assert fake_api.requests_of("summary"), "the client did not try to compact"
    (request,) = fake_api.main_requests()
    (context,) = request.hook_contexts("UserPromptSubmit")
    assert "Auto-compaction seems to have stopped" not in context

    fake_api.clear_requests()
    fake_api.enqueue_text("third answer")
    run_claude("third question", model=model, cont=True, env=NO_RETRIES)
    (request,) = fake_api.main_requests()
    (context,) = request.hook_contexts("UserPromptSubmit")
    assert context == (
        f"[CONTEXT BUDGET] {usage}. Auto-compaction seems to have stopped: the context has "
        f"been above the auto-compact threshold ({threshold}) {STOPPED_TAIL}"
    )
    assert request.messages[-1]["content"][-1]["text"] == "third question"


def test_turn_start_compaction_carries_the_decisions_and_the_audit_skips_them(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    project = run_claude.project_dir
    fake_api.enqueue_text("Working on the cache layer.")
    run_claude("design the cache layer")
    (transcript,) = run_claude.transcript_files()
    session = transcript.stem
    ctx_decide(ctx_venv, project, session, "use Redis Cluster", "--reason", "sharding built in")
    ctx_decide(ctx_venv, project, session, "--rejected", "Codis", "--reason", "unmaintained")

    fake_api.enqueue_text("Read the whole code base.", context_of(170_000))
    run_claude("read everything", cont=True)
    assert not fake_api.requests_of("summary")

    # The summary drops the rejection; the prompt arrives above the threshold.
    fake_api.set_summary(SUMMARY)
    fake_api.clear_requests()
    fake_api.enqueue_text("Continuing.")
    run_claude("next step", cont=True)
    assert len(fake_api.requests_of("summary")) == 1, "the client did not compact"
    (request,) = fake_api.main_requests()
    (context,) = request.hook_contexts("UserPromptSubmit")
    assert context == (
        "[CONTEXT BUDGET] ~170K/200K (85%): at the auto-compact threshold (167K), so the "
        "client compacts the context now.\n"
        "Recorded decisions of this session, newest first; they still hold:\n"
        "- Rejected: Codis (why: unmaintained) Do not propose it again.\n"
        "- Decided: use Redis Cluster (why: sharding built in)"
    )
    # The first request after the compaction: the summary and the rejection, no stale band.
    assert any("Chose Redis Cluster 6 nodes." in text for text in texts_of(request))
    assert "MUST delegate" not in request.body_json()

    folder = project / ".working-state" / "sessions" / session
    written = json.loads((folder / "compact-audit.json").read_text(encoding="utf-8"))
    assert written["trigger"] == "auto"
    assert [(d["decision"], d["status"], d["where"]) for d in written["decisions"]] == [
        ("use Redis Cluster", "survived", "summary"),
        ("Codis", "survived", "turn-start injection"),
    ]
    assert written["injection"] is None
    assert not (folder / ".compact-audit.pending").exists()
    assert not (folder / "turn-start-injection.json").exists()

    # The next prompt's audit does not repeat it.
    fake_api.clear_requests()
    fake_api.enqueue_text("Done.")
    run_claude("and then", cont=True)
    (request,) = fake_api.main_requests()
    assert "[COMPACT AUDIT]" not in request.body_json()
    assert request.body_json().count("Rejected: Codis") == 1


def test_warning_after_the_breaker_trips_mid_turn(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi
) -> None:
    """A tool loop above the threshold: the client tries to compact before each request,
    fails 3 times and stops (its circuit breaker). The next prompt carries the warning."""
    notes = run_claude.project_dir / "notes.txt"
    notes.write_text("cache notes\n", encoding="utf-8")
    fake_api.fail_summaries(529)
    fake_api.enqueue_text("hello")
    run_claude("hello", env=NO_RETRIES)

    read = {"file_path": str(notes)}
    fake_api.enqueue(
        ScriptedTurn(blocks=(tool_use_block("Read", read),), usage=context_of(168_000)),
        ScriptedTurn(blocks=(tool_use_block("Read", read),), usage=context_of(169_000)),
        ScriptedTurn(blocks=(tool_use_block("Read", read),), usage=context_of(170_000)),
        ScriptedTurn.text("read it all", context_of(171_000)),
    )
    fake_api.clear_requests()
    run_claude("read the notes", cont=True, env=NO_RETRIES)
    assert len(fake_api.main_requests()) == 4
    assert len(fake_api.requests_of("summary")) == 3  # then the breaker stops it

    fake_api.clear_requests()
    fake_api.enqueue_text("ok")
    run_claude("what next", cont=True, env=NO_RETRIES)
    (request,) = fake_api.main_requests()
    (context,) = request.hook_contexts("UserPromptSubmit")
    assert context == (
        "[CONTEXT BUDGET] ~171K/200K (85.5%). Auto-compaction seems to have stopped: the "
        f"context has been above the auto-compact threshold (167K) {STOPPED_TAIL}"
    )
