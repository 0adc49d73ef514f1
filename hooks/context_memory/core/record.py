"""Record: a class that carries named values, its ``__init__`` and ``as_dict`` written once.

Such classes (a merge's result, a handoff file, a digest's items, a timeline's points) would
be dataclasses, but ``dataclasses`` imports ``inspect`` and ``re``, milliseconds the hooks
do not spend (tests/repo/test_import_cost.py). A Record's fields are its class annotations,
in order (read from the class body as ``from __future__ import annotations`` leaves them,
which every module of the package starts with); a field given a value in the class body
takes it as its default. The fields are its ``__slots__`` too. Type checkers read the fields
through PEP 681's ``dataclass_transform``: a missing, extra or mistyped argument is an error
in mypy as it is for a dataclass. Unlike a dataclass: equality stays identity (as for the
plain classes these replace), and a default is never a list, dict or set (one object would
be shared by every instance): the caller passes a new one.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_options: object) -> object:
        return lambda cls: cls


_MUTABLE = (list, dict, set)


@dataclass_transform(eq_default=False)
class RecordType(type):
    """The metaclass: reads a Record's fields and defaults from its class body."""

    _fields: tuple[str, ...]
    _defaults: dict[str, object]

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> RecordType:
        fields = tuple(namespace.get("__annotations__", {}))
        defaults = {field: namespace.pop(field) for field in fields if field in namespace}
        for field, value in defaults.items():
            if isinstance(value, _MUTABLE):
                raise TypeError(f"{name}.{field}: a mutable default is shared; pass it in")
        namespace["__slots__"] = fields
        made = super().__new__(mcs, name, bases, namespace)
        made._fields = fields
        made._defaults = defaults
        return made


class Record(metaclass=RecordType):
    """The fields, positionally or by name, else their defaults."""

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kind = type(self)
        fields = kind._fields
        if len(args) > len(fields):
            raise TypeError(f"{kind.__name__}() takes {len(fields)} fields, got {len(args)}")
        values = dict(zip(fields, args, strict=False))  # the fields after them: by name or default
        for field, value in kwargs.items():
            if field not in fields or field in values:
                raise TypeError(f"{kind.__name__}() got an unknown or repeated field {field!r}")
            values[field] = value
        for field in fields:
            if field in values:
                setattr(self, field, values[field])
            elif field in kind._defaults:
                setattr(self, field, kind._defaults[field])
            else:
                raise TypeError(f"{kind.__name__}() is missing the field {field!r}")

    def as_dict(self) -> dict[str, Any]:
        """The fields and their values, in the order of the class body."""
        return {field: getattr(self, field) for field in type(self)._fields}
