"""Source f: a prompt the agent's reply acknowledges as settling something (``by: user``).

A typed prompt that no directive, pick or hand-off reads may still settle something: the
labelling rules count what the user states in plain words ("we do container-first."), and
the agent's reply says how it took it. When the reply's first text opens with one of the
``ACKNOWLEDGES`` of its languages ("You're right", "Good point", "Understood", "明白了",
"알겠습니다"), the reply takes the prompt as a correction or an instruction, not as a task
("Got it", "OK", "Sure" open both, so they are no entry): the prompt is the user's
decision, in the user's words.

What a call could be matched on is not read from words no rule understands: the record
has no subjects (an approach), so the guard never asks on it; the pointer, handoffs and
the audit keep its text. Only the reply's first text counts: once the agent has called a
tool or written anything else, an acknowledgement further on answers the tool's output.
"""

from __future__ import annotations

import re

from context_memory import TYPE_CHECKING
from context_memory.capture.cues import cues_for
from context_memory.capture.items import make_item
from context_memory.capture.text import clip

if TYPE_CHECKING:
    from typing import Any

    from context_memory.capture.items import Item

MAX_ACK_SCAN = 200  # characters of the reply's start an acknowledgement is looked for in
MAX_ACKED_PROMPT = 600  # a longer prompt says more than one thing the reply could settle
_LEAD = " \t\n*_#>-\"'“”「」"  # markdown and quotes a reply's first words may wear


def awaited(typed: str) -> str:
    """The prompt's words as a reply may acknowledge them, or '' (none, or too long to
    wait for)."""
    said = " ".join(typed.split())
    return said if len(said) <= MAX_ACKED_PROMPT else ""


def unread_of(state: object) -> dict[str, str] | None:
    """The prompt a carried state waits on (``{"uuid", "timestamp", "typed"}``), bounded and
    checked, or None."""
    if not isinstance(state, dict):
        return None
    fields = {key: state.get(key) for key in ("uuid", "timestamp", "typed")}
    if not all(isinstance(value, str) for value in fields.values()):
        return None
    typed = awaited(str(fields["typed"]))
    if not typed:
        return None
    return {
        "uuid": clip(fields["uuid"], 80),
        "timestamp": clip(fields["timestamp"], 40),
        "typed": typed,
    }


def acknowledgement(reply: str) -> str:
    """The words the reply opens with when they acknowledge what the user said ('' when
    they do not)."""
    head = reply[:MAX_ACK_SCAN].lstrip(_LEAD)
    if not head:
        return ""
    patterns: tuple[re.Pattern[str], ...] = cues_for(head).acknowledges
    for pattern in patterns:
        found = pattern.match(head)
        if found:
            return found.group(0).strip()
    return ""


def acknowledged_item(row: dict[str, Any], typed: str, reply: str) -> Item | None:
    """The user's decision that ``reply`` (the agent's first text after the prompt of
    ``row``, whose own words are ``typed``) acknowledges, or None."""
    said = awaited(typed)
    if not said:
        return None
    ack = acknowledgement(reply)
    if not ack:
        return None
    return make_item(
        "decided",
        "user",
        "prompt",
        row,
        decision=clip(said),
        reason=f"the agent's reply took it as settled: {clip(ack, 40)}",
        quote=said,
        choice_text=said,
        tier="stated",
        subjects=([], []),  # words no rule reads: nothing a call can be matched on
    )
