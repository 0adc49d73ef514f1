"""capture/summary.py and the engine: a compaction summary that starts a file restates the
user's earlier messages; their directives are captured at the summary row, once."""

from __future__ import annotations

from typing import Any

from context_memory.capture.engine import Capturer
from context_memory.capture.summary import restated_messages

SUMMARY = """This session is being continued from a previous conversation that ran out of context. \
The conversation is summarized below:
Analysis:
The user asked for a refactor of the tests.

Summary:
1. Primary Request and Intent:
   Refactor the test suite.

6. All user messages:
   - "Refactor the tests of the billing module"
   - "Never touch the old migrations"
   - "What does this test check?"

7. Pending Tasks:
   - Never mind this list item: it is a task, not a message
"""


def summary_row(text: str = SUMMARY, uuid: str = "s1") -> dict[str, Any]:
    return {
        "type": "user",
        "uuid": uuid,
        "isCompactSummary": True,
        "message": {"role": "user", "content": text},
    }


def prompt_row(text: str, uuid: str) -> dict[str, Any]:
    return {"type": "user", "uuid": uuid, "message": {"role": "user", "content": text}}


def test_the_section_of_the_users_messages_is_read_up_to_the_next_heading() -> None:
    assert restated_messages(SUMMARY) == [
        "Refactor the tests of the billing module",
        "Never touch the old migrations",
        "What does this test check?",
    ]
    headed = SUMMARY.replace("6. All user messages:", "**All User Messages:**")
    assert restated_messages(headed) == restated_messages(SUMMARY)
    assert restated_messages("Summary:\n1. Primary Request and Intent:\n   - do it") == []


def test_a_summary_that_starts_the_file_gives_the_directives_it_restates() -> None:
    (item,) = Capturer().feed(summary_row())
    assert (item["kind"], item["by"], item["source"], item["uuid"]) == (
        "constraint",
        "user",
        "prompt",
        "s1",
    )
    assert item["decision"] == "Never touch the old migrations"
    assert item["reason"] == "restated in the compaction summary the file starts with"


def test_a_summary_after_the_first_prompt_restates_what_was_read_already() -> None:
    capturer = Capturer()
    capturer.feed(prompt_row("Refactor the tests of the billing module", "p1"))
    assert capturer.feed(summary_row()) == []
    assert capturer.end_run() == []
