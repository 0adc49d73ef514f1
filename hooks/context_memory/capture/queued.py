"""Messages the user typed while the agent worked (``queue-operation`` rows).

The client writes ``{"type": "queue-operation", "operation": "enqueue", "content": TEXT}``
when the user sends a message during a turn. ``dequeue`` then sends it as the next prompt
(a user row follows, read as any prompt); ``remove`` (and ``popAll``, which carries the
text) hands it to the agent inside the running turn, where it never becomes a user row of
its own. Such a message that settles something is the user's, at the agent's next row
(the labelling rules put it at the assistant row that takes it up: set 2's README, rule 1).
Task notifications the client queues itself (``<task-notification>``) are not the user's.
"""

from __future__ import annotations

from context_memory.capture.text import clip

MAX_QUEUED = 4  # messages waiting in the client's queue, as this reader follows it
MAX_QUEUED_CHARS = 2000


class Queued:
    """The client's queue of the user's messages, as far as the rows show it; JSON-able."""

    def __init__(self, state: object = None) -> None:
        self._waiting: list[str] = []
        if isinstance(state, list):
            self._waiting = [clip(m, MAX_QUEUED_CHARS) for m in state if isinstance(m, str)][
                -MAX_QUEUED:
            ]

    def to_state(self) -> list[str]:
        return list(self._waiting)

    def operation(self, row: dict[str, object]) -> str:
        """Follow one ``queue-operation`` row: the text of a message handed to the agent
        inside its turn, or ''."""
        operation = row.get("operation")
        content = row.get("content")
        text = content if isinstance(content, str) else ""
        if operation == "enqueue":
            if text.strip() and not text.lstrip().startswith("<"):
                self._waiting = [*self._waiting, clip(text, MAX_QUEUED_CHARS)][-MAX_QUEUED:]
            return ""
        if operation == "dequeue":  # sent as the next prompt: a user row of its own
            if self._waiting:
                self._waiting.pop(0)
            return ""
        if operation in ("remove", "popAll"):
            if not self._waiting:
                return ""
            if operation == "popAll":
                handed, self._waiting = "\n".join(self._waiting), []
                return handed
            return self._waiting.pop(0)
        return ""
