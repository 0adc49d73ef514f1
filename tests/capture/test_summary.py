"""capture/summary.py: the user's messages a compaction summary restates. What the engine
reads of them (only from a summary that starts a file): tests/capture/test_engine.py."""

from __future__ import annotations

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


def test_the_section_of_the_users_messages_is_read_up_to_the_next_heading() -> None:
    assert restated_messages(SUMMARY) == [
        "Refactor the tests of the billing module",
        "Never touch the old migrations",
        "What does this test check?",
    ]
    headed = SUMMARY.replace("6. All user messages:", "**All User Messages:**")
    assert restated_messages(headed) == restated_messages(SUMMARY)
    assert restated_messages("Summary:\n1. Primary Request and Intent:\n   - do it") == []
