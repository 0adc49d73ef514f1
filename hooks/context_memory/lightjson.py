"""JSON for the prompt path without importing ``re``.

``import json`` pulls in ``json.decoder`` and ``json.encoder``, which compile regular
expressions at import: ``re`` and ``enum`` cost about 12 ms, as much as the rest of a
hook's work and 40% of a bare interpreter's start (measured in a clean virtualenv). The C
accelerator ``_json`` behind the standard ``json`` module parses and escapes without them,
so the hooks use it directly. Behaviour matches ``json.loads`` / ``json.dumps(...,
ensure_ascii=False, separators=(",", ":"))``; where ``_json`` is missing (not CPython), the
standard module is used.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs an import on the prompt path; mypy still reads the block
if TYPE_CHECKING:
    from typing import Any

_WHITESPACE = " \t\n\r"
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


class JSONError(ValueError):
    """Not one JSON document: ``msg`` says what was expected, ``pos`` where (as json.loads)."""

    def __init__(self, msg: str, pos: int) -> None:
        # json's own messages may end in "at" ("Invalid control character at").
        where = "char" if msg.endswith(" at") else "at char"
        super().__init__(f"{msg} {where} {pos}")
        self.msg = msg
        self.pos = pos


class _ScannerContext:
    """The attributes ``_json.make_scanner`` reads: json.loads' defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__
    memo: dict[str, str] = {}


try:
    from _json import encode_basestring as _encode_string
    from _json import make_scanner as _make_scanner

    _scan: Any = _make_scanner(_ScannerContext())  # type: ignore[arg-type]
except (ImportError, AttributeError, TypeError):  # pragma: no cover - not CPython
    _scan = None


def loads(text: str) -> Any:
    """Parse one JSON document; raises JSONError (a ValueError) when it is not one."""
    if _scan is None:  # pragma: no cover - not CPython
        import json

        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise JSONError(exc.msg, exc.pos) from None
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as exc:
        # No value starts here; json.loads reports the same.
        raise JSONError("Expecting value", exc.value) from None
    except ValueError as exc:
        # Errors past the first character come as json.JSONDecodeError (its module is
        # imported by _json only then: corrupt input pays for re, good input does not).
        raise JSONError(getattr(exc, "msg", str(exc)), getattr(exc, "pos", start)) from None
    rest = text[end:]
    if rest.strip(_WHITESPACE):
        raise JSONError("Extra data", end + len(rest) - len(rest.lstrip(_WHITESPACE)))
    return value


def dumps(value: Any) -> str:
    """Compact JSON, non-ASCII kept as is; for the small documents hooks print."""
    if _scan is None:  # pragma: no cover - not CPython
        import json

        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, str):
        return str(_encode_string(value))
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{value!r} is not valid JSON")
        return float.__repr__(value)
    if isinstance(value, dict):
        parts = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"keys must be str, not {type(key).__name__}")
            parts.append(f"{_encode_string(key)}:{dumps(item)}")
        return "{" + ",".join(parts) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(dumps(item) for item in value) + "]"
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
