"""Compaction audit end to end with the real client.

"use Redis Cluster" (decided) and "Codis" (rejected, unmaintained) are recorded with
ctx-decide; /compact gets a summary that names Redis Cluster but not Codis. The hooks
./install registered (ctx-audit on PostCompact and SessionStart "compact", ctx-budget on
UserPromptSubmit) must put Codis back: the next request the server receives carries
[COMPACT AUDIT] naming Codis and not Redis Cluster.

Client 2.1.332 runs SessionStart "compact" before PostCompact and writes the summary to
the transcript after both, so the audit reaches the model through ctx-budget on the next
prompt; the test accepts either hook as the carrier but requires exactly one injection.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import ClaudeRunner, ctx_decide, run_command
from .fake_api import FakeMessagesApi, content_texts, texts_of

pytestmark = pytest.mark.client

SUMMARY = "1. Primary Request and Intent: design a cache layer. Chose Redis Cluster 6 nodes."


def test_lost_rejection_is_put_back_after_compact(
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

    fake_api.set_summary(SUMMARY)
    run_claude.compact()
    assert fake_api.requests_of("summary"), "the client sent no summarisation request"

    state = project / ".working-state"
    folder = state / "sessions" / session
    written = json.loads((folder / "compact-audit.json").read_text(encoding="utf-8"))
    assert written["source"] == "post-compact"
    assert [(d["decision"], d["status"]) for d in written["decisions"]] == [
        ("use Redis Cluster", "survived"),
        ("Codis", "lost"),
    ]

    fake_api.clear_requests()
    fake_api.enqueue_text("Continuing.")
    run_claude("next", cont=True)
    (request,) = fake_api.requests_of("main")
    audits = [text for text in texts_of(request) if "[COMPACT AUDIT]" in text]
    assert len(audits) == 1, texts_of(request)
    (audit_text,) = audits
    start = audit_text.index("[COMPACT AUDIT]")
    injected = audit_text[start:]
    assert "- Rejected: Codis (why: unmaintained) Do not propose it again." in injected
    assert "Redis Cluster" not in injected
    assert ".working-state/decisions.jsonl" in injected
    # The summary itself reached the model too: the audit adds to it, it does not replace it.
    assert any("Chose Redis Cluster 6 nodes." in text for text in texts_of(request))

    written = json.loads((folder / "compact-audit.json").read_text(encoding="utf-8"))
    assert written["injected"] is True
    assert written["injected_by"] in ("ctx-budget", "ctx-audit")
    assert not (folder / ".compact-audit.pending").exists()

    # Injected once: the turn after that carries no audit.
    fake_api.clear_requests()
    fake_api.enqueue_text("Done.")
    run_claude("and then", cont=True)
    (request,) = fake_api.requests_of("main")
    last_user = request.messages[-1]
    assert not any("[COMPACT AUDIT]" in t for t in content_texts(last_user["content"]))

    # By hand, the same transcript audits to one lost decision: exit 1.
    result = run_command(ctx_venv, "ctx-audit", str(transcript), cwd=project)
    assert result.returncode == 1, result.stderr
    assert "1 of 2 decisions lost" in result.stdout.splitlines()[0]
