"""The capture notice end to end with the real client: the Stop hook that captured a record
prints ``{"systemMessage": ...}`` with one line per record and the id ctx-decide --drop
takes; the client shows it to the user and keeps it out of the model's requests.

What 2.1.332 does with a Stop hook's systemMessage under ``-p`` (docs/claude-code-protocol.md
section 2): the text output prints only the reply; ``--output-format stream-json`` prints
a ``system`` event of subtype ``informational`` whose content is each line of the message
after ``Stop says: `` (as the interactive terminal shows it), and with
``--include-hook-events`` the hook's stdout in its ``hook_response`` event; the transcript
keeps the message as an ``attachment`` row of type ``hook_system_message``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import ClaudeRunner, hook_responses, stream_json_events
from .fake_api import FakeMessagesApi, texts_of

pytestmark = pytest.mark.client

PROMPT = "Don't use moment for the dates, it is far too heavy for our bundle. Use date-fns instead."
HEAD = "context-memory captured 1 record (ctx-decide --drop ID retracts one):"


STREAM = ["--output-format", "stream-json", "--verbose", "--include-hook-events"]


def notice_of(project: Path) -> str:
    """The notice for the one record in the log: what the Stop hook must have printed."""
    log = project / ".working-state" / "decisions.jsonl"
    (record,) = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert (record["kind"], record["by"], record["source"]) == ("constraint", "user", "prompt")
    assert record["decision"].startswith("Don't use moment for the dates")
    # The line shows the record as the log holds it (capture may shorten the prompt).
    reason = f" ({record['reason']})" if record["reason"] else ""
    return f"{HEAD}\n{record['id']} constraint (user): {record['decision']}{reason}"


def test_the_capture_line_reaches_the_user_and_not_the_model(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    project = run_claude.project_dir
    fake_api.enqueue_text("Understood, date-fns it is.")
    result = run_claude(PROMPT)
    message = notice_of(project)
    # -p's text output prints the reply only.
    assert result.stdout.strip() == "Understood, date-fns it is."
    (transcript,) = run_claude.transcript_files()
    # What the client did with it: an attachment row the terminal shows as "Stop says: ...".
    shown = [
        row["attachment"]
        for row in run_claude.transcript_rows(transcript.stem)
        if row.get("type") == "attachment"
        and isinstance(row.get("attachment"), dict)
        and row["attachment"].get("type") == "hook_system_message"
    ]
    assert [a.get("content") for a in shown] == [message]

    # The next request does not carry it to the model; nothing new, no second notice.
    fake_api.clear_requests()
    fake_api.enqueue_text("Continuing.")
    again = run_claude("next", cont=True, extra_args=STREAM)
    (request,) = fake_api.requests_of("main")
    assert not any("context-memory captured" in text for text in texts_of(request))
    stops = hook_responses(again.stdout, "Stop")
    assert stops and all(run["stdout"] == "" for run in stops)


def test_the_hook_response_carries_the_notice(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    fake_api.enqueue_text("Understood, date-fns it is.")
    result = run_claude(PROMPT, extra_args=STREAM)
    message = notice_of(run_claude.project_dir)
    stops = hook_responses(result.stdout, "Stop")
    assert [json.loads(run["stdout"]) for run in stops if run["stdout"].strip()] == [
        {"systemMessage": message}
    ]
    # What the user sees: the client's informational event, each line as "Stop says: ...".
    shown = [
        (event.get("content"), event.get("level"))
        for event in stream_json_events(result.stdout)
        if event.get("type") == "system" and event.get("subtype") == "informational"
    ]
    said = "\n".join(f"Stop says: {line}" for line in message.splitlines())
    assert shown == [(said, "notice")]


def test_ctx_capture_notice_off_silences_it(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    fake_api.enqueue_text("Understood.")
    result = run_claude(
        PROMPT,
        extra_args=STREAM,
        env={"CTX_CAPTURE_NOTICE": "off"},
    )
    stops = hook_responses(result.stdout, "Stop")
    assert stops and all(run["stdout"] == "" for run in stops)
    log = run_claude.project_dir / ".working-state" / "decisions.jsonl"
    assert len(log.read_text(encoding="utf-8").splitlines()) == 1  # captured all the same


ACKED = "a single image for each service, built from the repo root"


def test_a_prompt_the_reply_acknowledges_is_captured_and_shown(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    """A prompt no rule reads, answered "You're right, ...": the user's decision in their
    words, shown to the user as a Stop line and kept out of the next request."""
    fake_api.enqueue_text("You're right, a single image for each service it is.")
    result = run_claude(ACKED, extra_args=STREAM)
    log = run_claude.project_dir / ".working-state" / "decisions.jsonl"
    (record,) = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert (record["kind"], record["by"], record["source"], record["decision"]) == (
        "decided",
        "user",
        "prompt",
        ACKED,
    )
    assert record["reason"] == "the agent's reply took it as settled: You're right"
    assert (record["ruled_out"], record["preferred"]) == ([], [])
    message = f"{HEAD}\n{record['id']} decided (user): {ACKED} ({record['reason']})"
    shown = [
        event.get("content")
        for event in stream_json_events(result.stdout)
        if event.get("type") == "system" and event.get("subtype") == "informational"
    ]
    assert shown == ["\n".join(f"Stop says: {line}" for line in message.splitlines())]
    fake_api.clear_requests()
    fake_api.enqueue_text("Continuing.")
    run_claude("next", cont=True)
    (request,) = fake_api.requests_of("main")
    assert not any("context-memory captured" in text for text in texts_of(request))
