"""core/record: a Record's fields are its annotations, in order, with their defaults; its
``__init__`` takes them as a dataclass's would and refuses what a dataclass refuses."""

from __future__ import annotations

import copy

import pytest

from context_memory.core.record import Record
from helpers.paths import run_bare_python


class Sample(Record):
    """Three fields, the last with a default."""

    name: str
    count: int
    note: str | None = None


def test_fields_are_taken_by_position_or_by_name_in_the_order_of_the_class_body() -> None:
    by_position = Sample("a", 2, "n")
    by_name = Sample(count=2, name="a")
    assert (by_position.name, by_position.count, by_position.note) == ("a", 2, "n")
    assert by_name.as_dict() == {"name": "a", "count": 2, "note": None}
    assert list(Sample("b", 3).as_dict()) == ["name", "count", "note"]


def test_the_fields_are_the_slots() -> None:
    assert Sample.__slots__ == ("name", "count", "note")
    sample = Sample("a", 1)
    with pytest.raises(AttributeError):
        sample.other = 1  # type: ignore[attr-defined]
    sample.count += 1
    assert sample.count == 2


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (("a",), {}, "Sample() is missing the field 'count'"),
        (("a", 1, "n", "x"), {}, "Sample() takes 3 fields, got 4"),
        (("a", 1), {"name": "b"}, "Sample() got an unknown or repeated field 'name'"),
        (("a", 1), {"colour": "red"}, "Sample() got an unknown or repeated field 'colour'"),
    ],
)
def test_a_missing_extra_or_repeated_field_is_a_type_error(
    args: tuple[object, ...], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(TypeError) as raised:
        Sample(*args, **kwargs)
    assert str(raised.value) == message


def test_a_mutable_default_is_refused_where_the_class_is_written() -> None:
    with pytest.raises(TypeError) as raised:

        class Shared(Record):
            items: list[str] = []  # noqa: RUF012 (what the check refuses)

    assert str(raised.value) == "Shared.items: a mutable default is shared; pass it in"


def test_equality_is_identity_and_a_copy_keeps_the_fields() -> None:
    first, second = Sample("a", 1), Sample("a", 1)
    assert first != second  # identity, as for the plain classes Records replace
    copied = copy.copy(first)
    assert copied is not first and copied.as_dict() == first.as_dict()


def test_importing_it_loads_nothing_of_the_standard_library() -> None:
    """It is on the hook paths: no typing, no dataclasses, nothing ``python -S`` lacks."""
    code = (
        "import sys; before = set(sys.modules); import context_memory.core.record; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    done = run_bare_python(code, check=True)
    assert done.stdout.split() == [
        "__future__",
        "context_memory",
        "context_memory.core",
        "context_memory.core.record",
    ]
