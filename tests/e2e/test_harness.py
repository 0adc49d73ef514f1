"""The e2e harness itself, checked against the real client: what reaches the fake API and
what the client writes to its transcript."""

from __future__ import annotations

import json

import pytest

from .conftest import ClaudeRunner, mangle_project_path
from .fake_api import FakeMessagesApi, Usage

pytestmark = pytest.mark.client


def test_hello_reaches_the_fake_api_with_the_prompt(
    run_claude: ClaudeRunner, fake_api: FakeMessagesApi
) -> None:
    fake_api.enqueue_text("Hello from the fake API")

    result = run_claude("hello")

    assert result.stdout.strip() == "Hello from the fake API"
    main = fake_api.main_requests()
    assert len(main) == 1
    request = main[0]
    assert request.method == "POST"
    assert request.path == "/v1/messages?beta=true"
    assert request.model == "claude-sonnet-4-6"
    assert request.body["stream"] is True
    # The prompt is the last text block of the turn's user message.
    assert request.messages[-1]["role"] == "user"
    assert request.messages[-1]["content"][-1]["text"] == "hello"
    assert fake_api.pending_turns == 0
    # CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC leaves nothing but the conversation.
    assert [r.kind for r in fake_api.requests] == ["main"]


def test_scripted_usage_lands_in_the_transcript(
    run_claude: ClaudeRunner, fake_api: FakeMessagesApi
) -> None:
    usage = Usage(
        input_tokens=1234,
        cache_creation_input_tokens=56,
        cache_read_input_tokens=7890,
        output_tokens=42,
    )
    fake_api.enqueue_text("counted", usage)

    run_claude("count this")

    session_id = fake_api.main_requests()[0].session_id
    assert session_id
    transcript = run_claude.transcript_path(session_id)
    assert transcript == (
        run_claude.home
        / ".claude"
        / "projects"
        / mangle_project_path(run_claude.project_dir)
        / f"{session_id}.jsonl"
    )
    assert transcript.exists(), sorted(run_claude.home.rglob("*.jsonl"))
    assistant_rows = [
        row for row in run_claude.transcript_rows(session_id) if row.get("type") == "assistant"
    ]
    assert len(assistant_rows) == 1
    recorded = assistant_rows[0]["message"]["usage"]
    assert {key: recorded[key] for key in usage.as_dict()} == usage.as_dict()
    assert "usage" not in assistant_rows[0]  # under .message, never at the top level


def test_continue_resumes_the_same_session(
    run_claude: ClaudeRunner, fake_api: FakeMessagesApi
) -> None:
    fake_api.enqueue_text("first answer")
    fake_api.enqueue_text("second answer")

    run_claude("first question")
    second = run_claude("second question", cont=True)

    assert second.stdout.strip() == "second answer"
    first_request, second_request = fake_api.main_requests()
    assert first_request.session_id
    assert first_request.session_id == second_request.session_id
    # The continued request resends the earlier turn.
    roles_and_texts = [
        (message["role"], json.dumps(message["content"])) for message in second_request.messages
    ]
    assert any(role == "user" and "first question" in text for role, text in roles_and_texts)
    assert any(role == "assistant" and "first answer" in text for role, text in roles_and_texts)
    assert second_request.messages[-1]["content"][-1]["text"] == "second question"
    assert run_claude.transcript_files() == [run_claude.transcript_path(first_request.session_id)]


def test_compact_sends_one_summary_request_and_writes_a_boundary(
    run_claude: ClaudeRunner, fake_api: FakeMessagesApi
) -> None:
    fake_api.enqueue_text("before compaction", Usage(input_tokens=5000, output_tokens=20))
    fake_api.set_summary("SUMMARY-7f3a: the user asked a question before compaction.")

    run_claude("question before compaction")
    run_claude.compact()

    kinds = [request.kind for request in fake_api.requests]
    # The <summary> tags the harness adds keep the client from asking twice.
    assert kinds == ["main", "summary"]
    summary_request = fake_api.requests_of("summary")[0]
    assert "question before compaction" in summary_request.body_json()

    session_id = summary_request.session_id
    assert session_id
    rows = run_claude.transcript_rows(session_id)
    boundaries = [
        row
        for row in rows
        if row.get("type") == "system" and row.get("subtype") == "compact_boundary"
    ]
    assert len(boundaries) == 1
    assert boundaries[0]["compactMetadata"]["trigger"] == "manual"
    assert boundaries[0]["compactMetadata"]["preTokens"] == 5020
    summaries = [row for row in rows if row.get("isCompactSummary")]
    assert len(summaries) == 1
    assert rows.index(summaries[0]) > rows.index(boundaries[0])
    assert "SUMMARY-7f3a" in json.dumps(summaries[0]["message"]["content"])

    # The next turn starts from the summary.
    fake_api.enqueue_text("after compaction")
    run_claude("question after compaction", cont=True)
    after = fake_api.main_requests()[-1]
    assert "SUMMARY-7f3a" in json.dumps(after.messages[0]["content"])
    assert "<analysis>" not in after.body_json()
