"""capture/queued.py: the client's queue of the messages typed while the agent worked
(``queue-operation`` rows). What the engine reads of them: tests/capture/test_engine.py."""

from __future__ import annotations

from context_memory.capture.queued import Queued
from helpers.transcript_rows import queue_operation as queue


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
