"""A conversation rewound in the real client (2.1.332): Esc Esc, the message chosen,
"Restore conversation", and another prompt sent in its place.

The user types two rules, then rewinds to before the second ("always use moment for
dates") and sends "always use date-fns for dates" instead. The client writes the new
prompt with the ``parentUuid`` of the one taken back (the rows taken back stay in the file)
and sends the model the conversation without it. The Stop hook's capture drops the record
of the rule taken back (a ``drop`` mark of its own author), the terminal says so, and the
auto-memory block no longer lists it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from context_memory.capture.rewind import REWIND_AUTHOR

from .conftest import ClaudeRunner
from .fake_api import FakeMessagesApi, texts_of
from .terminal import KEY_ENTER, KEY_ESC, decisions_log, records_of, session, wait_for_records

pytestmark = pytest.mark.client

API_KEY = "sk-ant-api03-e2e-rewind-test-key-000000000000000"
KEY_UP = "\x1b[A"
KEY_CLEAR_LINE = "\x15"  # ctrl+u: the input line holds the message taken back
KEPT, TAKEN_BACK, INSTEAD = (
    "always use tabs for indentation",
    "always use moment for dates",
    "always use date-fns for dates",
)


def test_a_rule_taken_back_by_a_rewind_is_dropped(
    installed_home: Path, run_claude: ClaudeRunner, fake_api: FakeMessagesApi, project_dir: Path
) -> None:
    log = decisions_log(project_dir)
    fake_api.enqueue_text("Okay, tabs.")
    fake_api.enqueue_text("Okay, moment it is.")
    fake_api.enqueue_text("Okay, date-fns it is.")
    with session(run_claude, API_KEY) as terminal:
        terminal.send(KEPT)
        wait_for_records(log, terminal, 1)
        terminal.send(TAKEN_BACK)
        wait_for_records(log, terminal, 2)
        terminal.wait_for("moment it is")
        terminal.settle()
        terminal.answer(KEY_ESC + KEY_ESC, until="Restore the code", unless="Restore conversation")
        terminal.settle()
        terminal.press(KEY_UP)  # from "(current)" to the last message
        terminal.settle()
        terminal.press(KEY_ENTER)
        terminal.wait_for("Restore conversation")
        terminal.settle()
        terminal.press(KEY_ENTER)
        terminal.settle()
        terminal.type(KEY_CLEAR_LINE)
        terminal.settle()
        mark = terminal.mark()
        terminal.send(INSTEAD)
        records = wait_for_records(log, terminal, 4)
        terminal.wait_for("dropped 1 record", since=mark)

    _, rows = run_claude.session_rows()
    prompts = {
        row["message"]["content"]: row
        for row in rows
        if row.get("type") == "user" and isinstance(row["message"]["content"], str)
    }
    assert prompts[INSTEAD]["parentUuid"] == prompts[TAKEN_BACK]["parentUuid"]
    last = texts_of(fake_api.main_requests()[-1])
    assert KEPT in last and INSTEAD in last and TAKEN_BACK not in last

    kept, taken, dropped, instead = records
    assert [kept.get("decision"), taken.get("decision"), instead.get("decision")] == [
        KEPT,
        TAKEN_BACK,
        INSTEAD,
    ]
    assert (dropped["kind"], dropped["target"], dropped["author"]) == (
        "drop",
        taken["id"],
        REWIND_AUTHOR,
    )
    assert terminal.seen(f"{taken['id']} constraint (user): {TAKEN_BACK}")
    memory = (run_claude.memory_dir / "MEMORY.md").read_text(encoding="utf-8")
    assert "date-fns" in memory and "moment" not in memory
    assert records_of(log) == records
