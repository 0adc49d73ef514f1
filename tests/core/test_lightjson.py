"""lightjson must behave exactly as the standard json module does, for what hooks use."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from context_memory.core import lightjson

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


def standard(text: str) -> tuple[str, object]:
    try:
        return ("ok", json.loads(text))
    except json.JSONDecodeError as exc:
        return ("error", (exc.msg, exc.pos))


def light(text: str) -> tuple[str, object]:
    try:
        return ("ok", lightjson.loads(text))
    except lightjson.JSONError as exc:
        return ("error", (exc.msg, exc.pos))


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_dumps_matches_json_dumps(value: object) -> None:
    assert lightjson.dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@settings(max_examples=300, deadline=None)
@given(json_values, st.integers(min_value=0, max_value=40), st.text(max_size=3))
def test_loads_matches_json_loads_on_whole_and_cut_documents(value, cut, junk) -> None:
    text = json.dumps(value, ensure_ascii=False)
    for candidate in (text, text[:cut], text + junk, " \n" + text + "\t", junk + text):
        assert repr(light(candidate)) == repr(standard(candidate))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Expecting value at char 0"),
        ("not json", "Expecting value at char 0"),
        ('{"a":1} x', "Extra data at char 8"),
        ('{"a" 1}', "Expecting ':' delimiter at char 5"),
        ('{"a":"\x01"}', "Invalid control character at char 6"),
    ],
)
def test_error_messages(text: str, message: str) -> None:
    with pytest.raises(lightjson.JSONError) as caught:
        lightjson.loads(text)
    assert str(caught.value) == message


def test_constants_and_refusals() -> None:
    assert math.isnan(lightjson.loads("NaN"))
    assert lightjson.loads("-Infinity") == float("-inf")
    with pytest.raises(ValueError, match="not valid JSON"):
        lightjson.dumps(float("nan"))
    with pytest.raises(TypeError):
        lightjson.dumps({1: "a"})
    with pytest.raises(TypeError):
        lightjson.dumps(object())


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_spaced_dumps_matches_json_defaults(value: object) -> None:
    assert lightjson.dumps(value, spaced=True) == json.dumps(value, ensure_ascii=False)


def test_string_at() -> None:
    text = 'x "cwd":"/home/a \\"b\\"\\u00e9" y'
    assert lightjson.string_at(text, 8) == ('/home/a "b"é', 29)
    with pytest.raises(lightjson.JSONError):
        lightjson.string_at(text, 0)
    with pytest.raises(lightjson.JSONError):
        lightjson.string_at('"unterminated', 0)
