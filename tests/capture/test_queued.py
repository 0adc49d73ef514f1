"""capture/queued.py and the engine: a message typed while the agent worked and handed to
it inside the turn (``queue-operation`` rows) is read at the agent's next row; one sent as
the next prompt is read there, once."""

from __future__ import annotations

from typing import Any

from context_memory.capture.engine import Capturer
from context_memory.capture.queued import Queued


def queue(operation: str, content: str | None = None) -> dict[str, Any]:
    row: dict[str, Any] = {
        "type": "queue-operation",
        "operation": operation,
        "timestamp": "2026-02-14T10:47:53.050Z",
        "sessionId": "cca85341-2c6a-443b-8dac-c84bf8b1abf6",
    }
    if content is not None:
        row["content"] = content
    return row


def agent_row(uuid: str = "a1") -> dict[str, Any]:
    return {
        "type": "assistant",
        "uuid": uuid,
        "message": {"role": "assistant", "content": [{"type": "text", "text": "On it."}]},
    }


def prompt_row(text: str, uuid: str) -> dict[str, Any]:
    return {"type": "user", "uuid": uuid, "message": {"role": "user", "content": text}}


def test_the_queue_follows_the_clients_operations() -> None:
    q = Queued()
    assert q.operation(queue("enqueue", "never touch the old migrations")) == ""
    assert q.operation(queue("enqueue", "<task-notification>done</task-notification>")) == ""
    assert q.operation(queue("remove")) == "never touch the old migrations"
    assert q.operation(queue("remove")) == ""  # nothing left
    q.operation(queue("enqueue", "a"))
    q.operation(queue("enqueue", "b"))
    assert q.operation(queue("popAll", "a")) == "a\nb"
    q.operation(queue("enqueue", "c"))
    assert q.operation(queue("dequeue")) == ""  # sent as a prompt of its own
    assert q.to_state() == []


def test_a_message_handed_to_the_agent_inside_its_turn_is_read_at_its_next_row() -> None:
    capturer = Capturer()
    assert capturer.feed(queue("enqueue", "Never touch the old migrations")) == []
    assert capturer.feed(queue("remove")) == []
    carried = Capturer(capturer.to_state())  # across runs, as the Stop hook reads
    (item,) = carried.feed(agent_row("a7"))
    assert (item["kind"], item["by"], item["source"], item["uuid"]) == (
        "constraint",
        "user",
        "prompt",
        "a7",
    )
    assert item["decision"] == "Never touch the old migrations"
    assert item["reason"] == "typed while the agent worked"
    assert carried.feed(agent_row("a8")) == []  # once


def test_a_queued_message_sent_as_the_next_prompt_is_read_as_that_prompt_only() -> None:
    capturer = Capturer()
    capturer.feed(queue("enqueue", "Never touch the old migrations"))
    capturer.feed(queue("dequeue"))
    (item,) = capturer.feed(prompt_row("Never touch the old migrations", "p2"))
    assert item["uuid"] == "p2"
    assert capturer.feed(agent_row()) == []
