"""What the real client hands the Stop hook: ``last_assistant_message`` is the turn's reply
text, and by the time the hook runs the transcript's tail holds it (the client flushes
first, for at most 2 s). ctx-extract waits, bounded, for that reply before it captures
(context_memory/transcript/flushed.py): on a loaded machine the client's flush may not have
finished. A second Stop hook, registered beside ctx-extract, records its own input."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from context_memory.transcript.flushed import tail_holds, wait_for_reply

from .conftest import ClaudeRunner, edit_settings
from .fake_api import FakeMessagesApi

pytestmark = pytest.mark.client

REPLY = "Switching the cache to SQLite, as you asked."


def test_the_stop_payload_names_the_reply_the_transcript_holds(
    installed_home: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    project = run_claude.project_dir
    recorded = project / "stop-payload.json"
    recorder = {"type": "command", "command": f"cat > {shlex.quote(str(recorded))}"}
    edit_settings(
        installed_home, lambda settings: settings["hooks"]["Stop"].append({"hooks": [recorder]})
    )

    fake_api.enqueue_text(REPLY)
    run_claude("use SQLite for the cache, not JSON files")
    (transcript,) = run_claude.transcript_files()

    payload = json.loads(recorded.read_text(encoding="utf-8"))
    assert (payload["hook_event_name"], payload["stop_hook_active"]) == ("Stop", False)
    assert payload["last_assistant_message"] == REPLY
    assert payload["transcript_path"] == str(transcript)
    assert tail_holds(str(transcript), REPLY.encode()) is True
    assert wait_for_reply(str(transcript), payload["last_assistant_message"], seconds=0) is True
    # ctx-extract did not wait in vain (it logs when it does) and captured the turn.
    assert not (project / ".working-state" / "logs" / "hooks.log").exists()
    log = project / ".working-state" / "decisions.jsonl"
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [r["decision"] for r in records] == ["use SQLite for the cache, not JSON files"]
