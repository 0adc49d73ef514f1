"""Capture end to end with the real client: what the user said reaches the decisions log
with no ctx-decide call, and survives a compaction whose summary drops it.

The prompt "Don't use moment for the dates, ... Use date-fns instead." is captured by the
Stop hook (ctx-extract) as the user's constraint (anchors moment and date-fns, avoid
moment, prefer date-fns). /compact gets a summary that does not mention it; the PreCompact
steering text that went to the summariser named it, and the first request after the
compaction carries it back in [COMPACT AUDIT], marked as stated by the user. That is the
channel with the toolkit's auto memory off (CTX_NATIVE_MEMORY=off here): with it on, the
constraint is in MEMORY.md, which the client loads after the compaction by itself, and the
audit counts it as kept (tests/e2e/test_native_memory_e2e.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import ClaudeRunner
from .fake_api import FakeMessagesApi, texts_of

pytestmark = pytest.mark.client

PROMPT = "Don't use moment for the dates, it is far too heavy for our bundle. Use date-fns instead."
SUMMARY = "1. Primary Request and Intent: format the dates on the invoice page."
NO_AUTO_MEMORY = {"CTX_NATIVE_MEMORY": "off"}


def test_a_stated_constraint_is_captured_at_stop_and_put_back_after_compact(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    project = run_claude.project_dir
    fake_api.enqueue_text("Understood, date-fns it is.")
    run_claude(PROMPT, env=NO_AUTO_MEMORY)
    (transcript,) = run_claude.transcript_files()
    session = transcript.stem

    log = project / ".working-state" / "decisions.jsonl"
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [(r["kind"], r["by"], r["source"], r["session"]) for r in records] == [
        ("constraint", "user", "prompt", session)
    ]
    (record,) = records
    assert record["quote"] == PROMPT
    assert {"moment", "date-fns"} <= set(record["anchors"])
    assert (record["avoid"], record["prefer"]) == (["moment"], ["date-fns"])
    user_rows = [r for r in run_claude.transcript_rows(session) if r.get("type") == "user"]
    assert record["uuid"] in [r.get("uuid") for r in user_rows]
    position = project / ".working-state" / "capture" / f"{session}.json"
    assert json.loads(position.read_text(encoding="utf-8"))["transcript"] == str(transcript)

    fake_api.set_summary(SUMMARY)
    run_claude.compact(env=NO_AUTO_MEMORY)
    (summary_request,) = fake_api.requests_of("summary")
    steering = [t for t in texts_of(summary_request) if "Keep these recorded decisions" in t]
    assert len(steering) == 1, texts_of(summary_request)
    assert "- Constraint: Don't use moment for the dates" in steering[0]
    assert "(stated by the user)" in steering[0]

    fake_api.clear_requests()
    fake_api.enqueue_text("Continuing.")
    run_claude("next", cont=True, env=NO_AUTO_MEMORY)
    (request,) = fake_api.requests_of("main")
    audits = [text for text in texts_of(request) if "[COMPACT AUDIT]" in text]
    assert len(audits) == 1, texts_of(request)
    injected = audits[0][audits[0].index("[COMPACT AUDIT]") :]
    assert "- Constraint: Don't use moment for the dates" in injected
    assert "Use date-fns instead. (stated by the user)" in injected
    # Captured once: the later Stop runs added nothing.
    assert len(log.read_text(encoding="utf-8").splitlines()) == 1
