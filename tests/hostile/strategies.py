"""Hypothesis strategies for hostile stdin and damaged transcripts."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from hostile.harness import OTHER_SESSION, SESSION, Entry, Sandbox

JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=20)
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
# Every code point, lone surrogates, NUL and controls included.
ODD_TEXT = st.text(st.characters(blacklist_categories=()), max_size=40)
HUGE_TEXT = st.sampled_from(
    [
        "x" * 3_000_000,
        "é" * 1_000_000,
        "\U0001f600" * 400_000,
        "\u202e" * 100_000 + "gnp.exe",
        "\x00" * 100_000,
        "\ud800" * 50_000,
    ]
)
SESSION_IDS = (
    st.sampled_from(
        [
            SESSION,
            OTHER_SESSION,
            "../../etc",
            "..",
            ".",
            "/etc/passwd",
            "a/b",
            "a\\b",
            "",
            " ",
            "\x00",
            ".hidden",
            "x" * 200,
            "ünïcode-séssion",
            "a..b",
            "-rf",
        ]
    )
    | ODD_TEXT
)
EVENT_NAMES = st.sampled_from(
    [
        "UserPromptSubmit",
        "Stop",
        "SubagentStop",
        "PreCompact",
        "PostCompact",
        "SessionStart",
        "SessionEnd",
        "PreToolUse",
        "userpromptsubmit",
        "",
    ]
)
SOURCES = st.sampled_from(["startup", "resume", "clear", "compact", "fork", "", "COMPACT"])
TOP_LEVEL_KINDS = ["payload"] * 6 + ["empty", "bytes", "not-an-object", "broken-json"]


@st.composite
def hostile_stdin(draw: st.DrawFn, entry: Entry, sandbox: Sandbox) -> bytes:
    """Stdin for ``entry``: empty, random bytes, JSON of the wrong type, or its payload with
    fields dropped, retyped, huge, odd, or aimed at awkward paths; sometimes cut short."""
    kind = draw(st.sampled_from(TOP_LEVEL_KINDS))
    if kind == "empty":
        return draw(st.sampled_from([b"", b" ", b"\n\n", b"\t\r\n"]))
    if kind == "bytes":
        return draw(st.binary(max_size=300))
    if kind == "not-an-object":
        value = draw(JSON_VALUES.filter(lambda v: not isinstance(v, dict)))
        return json.dumps(value).encode()
    payload: dict[str, Any] = sandbox.payload(entry)
    for key in list(payload):
        action = draw(st.sampled_from(["keep"] * 4 + ["drop", "retype"]))
        if action == "drop":
            del payload[key]
        elif action == "retype":
            payload[key] = draw(JSON_VALUES | ODD_TEXT | HUGE_TEXT)
    if draw(st.booleans()):
        paths = sorted(sandbox.special_paths().values())
        payload["transcript_path"] = draw(st.sampled_from(paths) | ODD_TEXT)
    if draw(st.booleans()):
        payload["session_id"] = draw(SESSION_IDS)
    if draw(st.integers(0, 3)) == 0:
        payload["hook_event_name"] = draw(EVENT_NAMES | JSON_VALUES)
    if draw(st.integers(0, 3)) == 0:
        payload["source"] = draw(SOURCES | JSON_VALUES)
    if draw(st.integers(0, 3)) == 0:
        payload["cwd"] = draw(st.sampled_from(["/", "/etc", "relative", ""]) | ODD_TEXT)
    payload.update(draw(st.dictionaries(st.text(max_size=10), JSON_VALUES, max_size=3)))
    raw = json.dumps(payload, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    if kind == "broken-json":
        cut = draw(st.integers(0, len(raw)))
        raw = raw[:cut] + draw(st.binary(max_size=12))
    return raw


BAD_UTF8 = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\xc0\xaf", b"\x80\x80"]
DAMAGES = ["truncate", "splice", "crlf", "no-final-newline", "invalid-utf8", "duplicate", "nul"]


@st.composite
def damaged_transcript(draw: st.DrawFn, base: bytes) -> bytes:
    """``base`` cut at any byte, with random bytes spliced in, CRLF line ends, no final
    newline, invalid UTF-8, duplicated stretches or NUL bytes, one to three at a time."""
    data = base
    for damage in draw(st.lists(st.sampled_from(DAMAGES), min_size=1, max_size=3)):
        at = draw(st.integers(0, len(data)))
        if damage == "truncate":
            data = data[:at]
        elif damage == "splice":
            data = data[:at] + draw(st.binary(min_size=1, max_size=64)) + data[at:]
        elif damage == "crlf":
            data = data.replace(b"\n", b"\r\n")
        elif damage == "no-final-newline":
            data = data.rstrip(b"\r\n")
        elif damage == "invalid-utf8":
            data = data[:at] + draw(st.sampled_from(BAD_UTF8)) + data[at:]
        elif damage == "duplicate":
            end = draw(st.integers(at, min(len(data), at + 4096)))
            data = data[:end] + data[at:end] + data[end:]
        elif damage == "nul":
            data = data[:at] + b"\x00" * draw(st.integers(1, 16)) + data[at:]
    return data
