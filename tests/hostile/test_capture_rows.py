"""The capture engine on rows of the client's shapes holding values of any type: a row a
newer client writes differently, a damaged row, a teammate's edited transcript. A row that
raised would stop capture for the rest of the session (its position would never pass the
row), so the engine must read every row, keep a carried state JSON-able and bounded, and
take any carried state back."""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from context_memory.capture.engine import MAX_STATE_BYTES, Capturer

EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "200"))
SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large]

# Strings a row's fields really hold, so that the engine's branches are reached.
WORDS = [
    "text", "tool_use", "tool_result", "thinking", "user", "assistant", "AskUserQuestion",
    "ExitPlanMode", "Bash", "Write", "TodoWrite", "user-rejected", "interrupted",
    "The user doesn't want to proceed with this tool use. The user provided the following "
    "reason for the rejection: no, use pnpm",
    'User has answered your questions: "Which?"="SQLite". You can now continue',
    "[Request interrupted by user]", "Implement the following plan:\n# Plan: cache",
    "1", "yes", "no, use pnpm", "Should I use SQLite or JSON files?", "1. A\n2. B\nWhich one?",
]  # fmt: skip
KEYS = [
    "type", "text", "content", "id", "tool_use_id", "name", "input", "is_error", "questions",
    "answers", "options", "label", "description", "question", "plan", "command", "file_path",
    "thinking", "toolUseResult", "message", "role", "uuid", "isSidechain", "isMeta",
    "toolDenialKind", "userFeedback", "todos", "multiSelect", "offer", "held", "v",
]  # fmt: skip
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=20), st.sampled_from(WORDS)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)
    ),
    max_leaves=20,
)
# Calls and results join by id: a few ids, so that results meet their calls.
IDS = st.one_of(st.sampled_from(["toolu_1", "toolu_2"]), VALUES)
TOOLS = st.one_of(
    st.sampled_from(["AskUserQuestion", "ExitPlanMode", "Bash", "Write", "TodoWrite", "Task"]),
    VALUES,
)
ANSWERS = st.fixed_dictionaries(
    {
        "questions": st.lists(
            st.fixed_dictionaries(
                {"question": st.one_of(st.just("Which?"), VALUES)},
                optional={"options": VALUES, "multiSelect": VALUES, "header": VALUES},
            ),
            max_size=3,
        ),
        "answers": st.one_of(st.just({"Which?": "SQLite"}), VALUES),
    }
)
BLOCK_FIELDS = {"id": IDS, "tool_use_id": IDS, "name": TOOLS}  # the rest: any value
BLOCKS = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "tool_use", "tool_result", "thinking", "image"])},
    optional={
        key: BLOCK_FIELDS.get(key, VALUES)
        for key in ("text", "id", "tool_use_id", "name", "input", "content", "is_error", "thinking")
    },
)
MESSAGES = st.fixed_dictionaries(
    {},
    optional={
        "role": VALUES,
        "id": VALUES,
        "content": st.one_of(VALUES, st.lists(st.one_of(BLOCKS, VALUES), max_size=4)),
    },
)
ROW_FIELDS = {"toolUseResult": st.one_of(ANSWERS, VALUES), "message": MESSAGES}
ROW_KEYS = "uuid isSidechain isMeta toolUseResult toolDenialKind userFeedback timestamp message"
ROWS = st.fixed_dictionaries(
    {"type": st.sampled_from(["user", "assistant", "summary", "queue-operation", "system"])},
    optional={
        key: ROW_FIELDS.get(key, VALUES) for key in (*ROW_KEYS.split(), "content", "operation")
    },
)


@st.composite
def exchanges(draw: st.DrawFn) -> list[dict[str, object]]:
    """A call and the result that answers it (their ids join), with any values inside."""
    call_id = draw(st.sampled_from(["toolu_1", "toolu_2"]))
    call = {
        "type": "assistant",
        "uuid": draw(VALUES),
        "message": {
            "id": "msg_1",
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": call_id, "name": draw(TOOLS), "input": draw(VALUES)}
            ],
        },
    }
    result: dict[str, object] = {
        "type": "tool_result",
        "tool_use_id": call_id,
        "content": draw(st.one_of(st.sampled_from(WORDS), VALUES)),
    }
    if draw(st.booleans()):
        result["is_error"] = draw(st.one_of(st.just(True), VALUES))
    answer = {
        "type": "user",
        "uuid": draw(VALUES),
        "message": {"role": "user", "content": [result]},
        "toolUseResult": draw(st.one_of(ANSWERS, VALUES)),
    }
    if draw(st.booleans()):
        answer["toolDenialKind"] = draw(st.one_of(st.just("user-rejected"), VALUES))
    return [call, answer]


SEQUENCES = st.lists(
    st.one_of(ROWS.map(lambda row: [row]), exchanges()), min_size=1, max_size=6
).map(lambda groups: [row for group in groups for row in group])


def _state_size(capturer: Capturer) -> int:
    return len(json.dumps(capturer.to_state(), ensure_ascii=False).encode())


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SUPPRESS)
@given(SEQUENCES)
def test_any_rows_are_read_and_the_state_stays_bounded(rows: list[dict[str, object]]) -> None:
    capturer = Capturer()
    items = [item for row in rows for item in capturer.feed(row)]
    carried = Capturer(capturer.to_state())
    items += carried.flush()
    assert all(isinstance(item, dict) for item in items)
    assert _state_size(capturer) <= MAX_STATE_BYTES


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SUPPRESS)
@given(VALUES, SEQUENCES)
def test_any_carried_state_is_taken_back(state: object, rows: list[dict[str, object]]) -> None:
    capturer = Capturer(state)
    for row in rows:
        capturer.feed(row)
    capturer.flush()
    assert _state_size(capturer) <= MAX_STATE_BYTES
