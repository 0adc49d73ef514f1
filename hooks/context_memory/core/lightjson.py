"""JSON for the prompt path without importing ``re``.

``import json`` pulls in ``json.decoder`` and ``json.encoder``, which compile regular
expressions at import: ``re`` and ``enum`` cost about 12 ms, as much as the rest of a
hook's work and 40% of a bare interpreter's start (measured in a clean virtualenv). The C
accelerator ``_json`` behind the standard ``json`` module parses and escapes without them,
so the hooks use it directly. Behaviour matches ``json.loads`` / ``json.dumps(...,
ensure_ascii=False, separators=(",", ":"))``; where ``_json`` is missing (not CPython), the
standard module is used.

Every malformed input raises JSONError (a ValueError), on every Python: ``_json`` builds its
error from ``json.decoder.JSONDecodeError``, and CPython 3.10 and 3.11 look that class up
in ``sys.modules`` without importing it, so in a process that never imported ``json`` they
raise SystemError ("returned NULL without setting an exception") instead. Then the module
is imported (corrupt input pays for ``re``; good input never does) and the parse repeated,
which gives json.loads' own message and position. Input nested too deeply for the
interpreter's stack (RecursionError from json.loads) is a JSONError too.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING

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
    # The scanner's key cache: shared by design, like json's own default context.
    memo: dict[str, str] = {}  # noqa: RUF012


try:
    from _json import encode_basestring as _encode_string
    from _json import make_scanner as _make_scanner
    from _json import scanstring as _scanstring

    _scan: Any = _make_scanner(_ScannerContext())  # type: ignore[arg-type]
except (ImportError, AttributeError, TypeError):  # pragma: no cover - not CPython
    _scan = None


def _with_decoder_errors(parse: Any, *args: Any) -> Any:
    """``parse(*args)``, with _json's errors as JSONDecodeError on every Python.

    SystemError here means _json found no ``json.decoder`` to build its error from
    (CPython 3.10/3.11, see the module docstring): import it and parse again.
    """
    try:
        return parse(*args)
    except SystemError:
        import json.decoder  # noqa: F401 - _json looks the module up in sys.modules

    try:
        return parse(*args)
    except SystemError:  # pragma: no cover - json.decoder is there now
        raise JSONError("Invalid JSON", args[-1]) from None


def _scan_value(text: str, start: int) -> tuple[Any, int]:
    return _with_decoder_errors(_scan, text, start)  # type: ignore[no-any-return]


def loads(text: str) -> Any:
    """Parse one JSON document; raises JSONError (a ValueError) when it is not one."""
    if _scan is None:  # pragma: no cover - not CPython
        import json

        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise JSONError(exc.msg, exc.pos) from None
    if text.startswith("\ufeff"):
        # json.loads refuses a byte order mark before anything else, with this message.
        raise JSONError("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan_value(text, start)
    except StopIteration as exc:
        # No value starts here; json.loads reports the same.
        raise JSONError("Expecting value", exc.value) from None
    except ValueError as exc:
        # Errors past the first character come as json.JSONDecodeError.
        raise JSONError(getattr(exc, "msg", str(exc)), getattr(exc, "pos", start)) from None
    except RecursionError:
        raise JSONError("Nested too deeply", start) from None
    rest = text[end:]
    if rest.strip(_WHITESPACE):
        raise JSONError("Extra data", end + len(rest) - len(rest.lstrip(_WHITESPACE)))
    return value


def string_at(text: str, quote: int) -> tuple[str, int]:
    """The JSON string whose opening quote is at ``quote``, and the index after it."""
    if text[quote : quote + 1] != '"':
        raise JSONError("Expecting '\"'", quote)
    if _scan is None:  # pragma: no cover - not CPython
        from json.decoder import scanstring as _fallback_scanstring  # type: ignore[attr-defined]

        return tuple(_fallback_scanstring(text, quote + 1))
    try:
        value, end = _with_decoder_errors(_scanstring, text, quote + 1)
    except ValueError as exc:
        raise JSONError(getattr(exc, "msg", str(exc)), getattr(exc, "pos", quote)) from None
    return str(value), int(end)


def dumps(value: Any, *, spaced: bool = False) -> str:
    """JSON with non-ASCII kept as is: compact, or ``spaced`` as json.dumps' default
    separators (", " and ": ")."""
    if _scan is None:  # pragma: no cover - not CPython
        import json

        separators = (", ", ": ") if spaced else (",", ":")
        return json.dumps(value, ensure_ascii=False, separators=separators)
    return _dumps(value, ", " if spaced else ",", ": " if spaced else ":")


def _dumps(value: Any, item_separator: str, key_separator: str) -> str:
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
            parts.append(
                f"{_encode_string(key)}{key_separator}{_dumps(item, item_separator, key_separator)}"
            )
        return "{" + item_separator.join(parts) + "}"
    if isinstance(value, (list, tuple)):
        return (
            "["
            + item_separator.join(_dumps(item, item_separator, key_separator) for item in value)
            + "]"
        )
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
