"""The tool calls the capture engine has seen, bounded: what a ``tool_result`` is joined to
by ``tool_use_id``.

For each call: its short description (items.call_of: tool, command | file, gist), the reply
that made it (the calls of one reply the user stopped together are one rejection), and its
facts: what it acts on (subjects, calls/acts) and anchors from its whole input. Facts are
read from the input only when a result needs them (most calls are never rejected: reading
every input would cost the Stop hook); the state keeps the computed facts and the bounded
inputs of the newest calls, so a result the next run reads (the client writes rows on a
timer) still finds what its call acted on.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.capture.anchors import anchors_of
from context_memory.capture.items import call_texts
from context_memory.capture.subjects import of_call
from context_memory.capture.text import clip
from context_memory.core.redact import redact
from context_memory.core.subject import subjects_from
from context_memory.memory.constraint import MAX_ANCHORS
from context_memory.memory.decisions import MAX_ANCHOR_CHARS

if TYPE_CHECKING:
    from typing import Any

    # What a remembered call acts on: {"subjects": [Subject], "anchors": [str]}.
    Facts = dict[str, list[Any]]

MAX_CALLS = 64  # tool calls remembered for joining results to them
MAX_ID = 120
INPUTS_SAVED = 4  # newest calls whose input (bounded) the state keeps
MAX_SAVED_TEXT = 2000  # characters of each text of a kept input
MAX_COMMAND = 8000  # characters of a shell command read for what it acts on


class CallsSeen:
    """Calls by id, oldest first, at most MAX_CALLS."""

    def __init__(self) -> None:
        self._calls: dict[str, dict[str, str]] = {}
        self._facts: dict[str, Facts] = {}
        self._inputs: dict[str, tuple[str, object]] = {}
        self._replies: dict[str, str] = {}  # call id -> the id of the reply that made it

    def __contains__(self, call_id: object) -> bool:
        return call_id in self._calls

    def get(self, call_id: str) -> dict[str, str]:
        """The call's short description ({} when not remembered)."""
        return self._calls.get(call_id, {})

    def reply_of(self, call_id: str) -> str:
        return self._replies.get(call_id, "")

    def remember(self, call_id: str, call: dict[str, str], tool_input: object, reply: str) -> None:
        self._calls.pop(call_id, None)
        self._calls[call_id] = call
        self._facts.pop(call_id, None)
        self._inputs[call_id] = (call.get("tool", ""), tool_input)
        if reply:
            self._replies[call_id] = reply[:MAX_ID]
        while len(self._calls) > MAX_CALLS:
            oldest = next(iter(self._calls))
            del self._calls[oldest]
            self._facts.pop(oldest, None)
            self._inputs.pop(oldest, None)
            self._replies.pop(oldest, None)

    def input_of(self, call_id: str) -> object:
        """A remembered call's input as it came, when still kept (None otherwise)."""
        return self._inputs.get(call_id, ("", None))[1]

    def facts_for(self, call_id: str) -> Facts:
        """What a remembered call acts on (read from its input once, when first needed)."""
        facts = self._facts.get(call_id)
        if facts is not None:
            return facts
        tool, tool_input = self._inputs.pop(call_id, ("", None))
        if not tool:
            return {}
        bounded = tool_input
        if tool == "Bash" and isinstance(tool_input, dict):
            command = tool_input.get("command")
            # redacted: a password piped into ``sudo -S`` is no anchor (the state keeps them)
            text = redact(command[:MAX_COMMAND]) if isinstance(command, str) else ""
            bounded = {**tool_input, "command": text}
        facts = {
            "subjects": list(of_call(tool, bounded)),
            "anchors": anchors_of(*call_texts(tool, bounded)),
        }
        self._facts[call_id] = facts
        return facts

    def load(self, state: dict[str, Any]) -> None:
        """The calls of a saved state (``calls``, ``facts``, ``inputs``, ``replies``)."""
        calls = state.get("calls")
        for entry in calls[-MAX_CALLS:] if isinstance(calls, list) else []:
            if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], dict):
                call = {str(k): clip(v, 300) for k, v in entry[1].items() if isinstance(v, str)}
                self._calls[str(entry[0])[:MAX_ID]] = call
        facts = state.get("facts")
        for entry in facts[-MAX_CALLS:] if isinstance(facts, list) else []:
            if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], dict):
                key = str(entry[0])[:MAX_ID]
                if key in self._calls:
                    self._facts[key] = _facts_of(entry[1])
        inputs = state.get("inputs")
        for entry in inputs[-INPUTS_SAVED:] if isinstance(inputs, list) else []:
            if isinstance(entry, list) and len(entry) == 3 and isinstance(entry[1], str):
                key = str(entry[0])[:MAX_ID]
                if key in self._calls and key not in self._facts:
                    self._inputs[key] = (entry[1][:60], _bounded_input(entry[2]))
        replies = state.get("replies")
        if isinstance(replies, dict):
            self._replies = {
                str(k)[:MAX_ID]: clip(v, MAX_ID)
                for k, v in replies.items()
                if isinstance(v, str) and str(k)[:MAX_ID] in self._calls
            }

    def to_state(self) -> dict[str, Any]:
        """The state's ``calls``, ``facts``, ``inputs`` and ``replies``."""
        # The state is a file in the state folder: no credential in it (a command that
        # pipes a password into ``sudo -S`` is kept with the password redacted).
        return {
            "calls": [[key, _redacted(value)] for key, value in self._calls.items()],
            "facts": [[key, value] for key, value in self._facts.items() if key in self._calls],
            "inputs": [
                [key, tool, _redacted(_bounded_input(tool_input))]
                for key, (tool, tool_input) in list(self._inputs.items())[-INPUTS_SAVED:]
                if key in self._calls
            ],
            "replies": {k: v for k, v in self._replies.items() if k in self._calls},
        }

    def shrink(self) -> bool:
        """Forget the oldest quarter of the calls (and every kept input); False when there
        is nothing left to forget."""
        if not self._calls:
            return False
        for key in list(self._calls)[: max(1, len(self._calls) // 4)]:
            del self._calls[key]
            self._facts.pop(key, None)
            self._replies.pop(key, None)
        self._inputs.clear()
        return True


def _redacted(value: Any) -> Any:
    """``value`` (a call or a kept input) with every text redacted (core/redact)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [_redacted(v) for v in value]
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    return value


def _bounded_input(value: object) -> dict[str, Any]:
    """A call's input as a state keeps it: its texts (and up to 4 edits'), each bounded."""
    if not isinstance(value, dict):
        return {}
    kept: dict[str, Any] = {}
    for key, text in list(value.items())[:12]:
        if isinstance(text, str):
            kept[str(key)[:40]] = text[:MAX_SAVED_TEXT]
    edits = value.get("edits")
    if isinstance(edits, list):
        kept["edits"] = [_bounded_input(e) for e in edits[:4] if isinstance(e, dict)]
    return kept


def _facts_of(value: dict[str, Any]) -> Facts:
    """A call's facts from a saved state, validated and bounded."""
    anchors = value.get("anchors")
    listed = anchors[:MAX_ANCHORS] if isinstance(anchors, list) else []
    words = [clip(a, MAX_ANCHOR_CHARS) for a in listed if isinstance(a, str)]
    return {"subjects": list(subjects_from(value.get("subjects"))), "anchors": words}
