"""Pinned digest end to end with the real client.

The project opts in with ``./install --project DIR --pin-decisions``. A session records
two decisions and a rejection with ctx-decide; the digest is capped (CTX_PIN_TOKENS=200)
so that the rejection and one decision fit and the other decision does not. ``/compact``
gets a summary that names none of them. The first request after the compaction must carry
the rejection inside the CLAUDE.md context block (not through the audit), and the
[COMPACT AUDIT] injected with that prompt names only the decision the digest left out.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from .conftest import ClaudeRunner, ctx_decide, run_install
from .fake_api import FakeMessagesApi, content_texts

pytestmark = pytest.mark.client

SUMMARY = "1. Primary Request and Intent: design a cache layer for the API."
CAP = "200"
LONG = "; ".join(["measured under load on the staging cluster with production traffic"] * 5)


def first_user_texts(request) -> list[str]:
    return list(content_texts(request.messages[0]["content"]))


def all_texts(request) -> list[str]:
    return [text for message in request.messages for text in content_texts(message["content"])]


def test_the_digest_carries_a_rejection_across_compact(
    claude_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    project = run_claude.project_dir
    installed = run_install(claude_home, ctx_venv, "--project", str(project), "--pin-decisions")
    assert installed.returncode == 0, installed.stderr
    assert (project / "CLAUDE.md").read_text() == "@.working-state/pinned.md\n"
    assert (project / ".working-state" / "pinned.md").is_file()

    fake_api.enqueue_text("Working on the cache layer.")
    run_claude("design the cache layer")
    (transcript,) = run_claude.transcript_files()
    session = transcript.stem

    decide = functools.partial(ctx_decide, ctx_venv, project, session, CTX_PIN_TOKENS=CAP)
    decide("use Redis Cluster", "--reason", "sharding; " + LONG)
    decide("--rejected", "Codis", "--reason", "unmaintained")
    out = decide("use Celery workers", "--reason", "retries; " + LONG)
    assert "rebuilt .working-state/pinned.md: 2 of 3 entries" in out
    digest = (project / ".working-state" / "pinned.md").read_text()
    assert "- Codis (unmaintained)\n" in digest and "Redis Cluster" not in digest

    fake_api.clear_requests()
    fake_api.set_summary(SUMMARY)
    run_claude.compact()
    (summary_request,) = fake_api.requests_of("summary")
    # The summarisation request forks the conversation: its context block is the one the
    # session started with (an empty digest then), not a fresh read of the file.
    assert any(
        "pinned.md" in text and "<system-reminder>" in text
        for text in first_user_texts(summary_request)
    )

    state = project / ".working-state"
    folder = state / "sessions" / session
    written = json.loads((folder / "compact-audit.json").read_text(encoding="utf-8"))
    assert [(d["decision"], d["status"], d["where"]) for d in written["decisions"]] == [
        ("use Redis Cluster", "lost", None),
        ("Codis", "survived", "pinned digest"),
        ("use Celery workers", "survived", "pinned digest"),
    ]

    fake_api.clear_requests()
    fake_api.enqueue_text("Continuing.")
    run_claude("next", cont=True)
    (request,) = fake_api.requests_of("main")
    # The rejection reached the model inside the CLAUDE.md context block of the first
    # user message, whose other messages hold only the summary.
    blocks = [
        text
        for text in first_user_texts(request)
        if "<system-reminder>" in text and "pinned.md" in text
    ]
    assert len(blocks) == 1, first_user_texts(request)
    assert "- Codis (unmaintained)\n" in blocks[0]
    assert any(SUMMARY in text for text in all_texts(request))
    # The audit at this prompt names only what the digest left out.
    audits = [text for text in all_texts(request) if "[COMPACT AUDIT]" in text]
    assert len(audits) == 1, all_texts(request)
    injected = audits[0][audits[0].index("[COMPACT AUDIT]") :]
    assert "- Decided: use Redis Cluster" in injected
    assert "Codis" not in injected and "Celery" not in injected

    # --uninstall takes the line out again; the client then sends no digest.
    removed = run_install(claude_home, ctx_venv, "--project", str(project), "--uninstall")
    assert removed.returncode == 0, removed.stderr
    assert not (project / "CLAUDE.md").exists()
    assert not (state / "pinned.md").exists()


def test_a_teammate_without_the_digest_file_runs_normally(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi
) -> None:
    """A clone whose CLAUDE.md imports .working-state/pinned.md but that lacks the file (the
    folder is not committed): the turn runs, and the request carries CLAUDE.md as usual."""
    project = run_claude.project_dir
    (project / "CLAUDE.md").write_text("# Team rules\n- be brief\n@.working-state/pinned.md\n")
    fake_api.enqueue_text("Hello.")
    result = run_claude("hello")
    assert result.returncode == 0
    (request,) = fake_api.requests_of("main")
    blocks = [text for text in first_user_texts(request) if "- be brief" in text]
    assert len(blocks) == 1
    assert "Pinned decisions" not in blocks[0]
    assert not (project / ".working-state" / "pinned.md").exists()
