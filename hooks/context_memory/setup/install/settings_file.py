"""Claude Code's settings.json as a file: a careful load (errors that say what is wrong,
where, and how to fix it), the literals of the user's file kept as written when it is
serialised again, and the write (a backup, a temp file, os.replace).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from context_memory.core.fsutil import atomic_write

BACKUP_INFIX = ".bak-"
Settings = dict[str, Any]


class SettingsError(Exception):
    """The settings file cannot be used as it is. ``str()`` is a complete message for people:
    what is wrong, where, how to fix it, and that nothing was changed (the installer's);
    ``found`` the same without the installer's last words (ctx-doctor's)."""

    def __init__(self, found: str, rerun: bool = True) -> None:
        super().__init__(f"{found}, {_RERUN}" if rerun else found)
        self.found = found


_RERUN = "then run ./install again. The file was not changed."
_BY_HAND = "Fix the file by hand (or move it aside to start from an empty one)"


def read_settings_text(path: Path) -> str | None:
    """The file's text, or None when it does not exist."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SettingsError(f"cannot read {path}: {exc.strerror or exc}", rerun=False) from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SettingsError(
            f"{path} is not valid JSON: it is not UTF-8 text (byte {exc.start}). " + _BY_HAND
        ) from exc


def read_settings(path: Path) -> tuple[str | None, Settings]:
    """(the file's text or None, its parsed settings); SettingsError for an unusable file."""
    text = read_settings_text(path)
    return text, parse_settings(text, path)


def parse_settings(text: str | None, path: Path) -> Settings:
    """Parse settings text read from ``path`` (used in messages only)."""
    if text is None or not text.strip():
        return {}
    try:
        data = loads_keeping_literals(text)
    except json.JSONDecodeError as exc:
        raise SettingsError(
            f"{path} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno}). "
            + _BY_HAND
        ) from exc
    except RecursionError:
        raise SettingsError(
            f"{path} is nested too deeply to be a settings file (more than about "
            f"{MAX_NESTING} levels of [ or {{). " + _BY_HAND
        ) from None
    if not isinstance(data, dict):
        raise SettingsError(
            f"{path} must hold a JSON object ({{...}}), but it holds {_kind(data)}. " + _BY_HAND
        )
    check_hooks_shape(data, path)
    return data


# The settings file is the user's: a value this module does not change must come back as the
# user wrote it. Python's json would turn 1e400 into Infinity (which Claude Code's parser
# rejects), 1.0 into 1.0 but 1E2 into 100.0, and "\u00e9" into "é". So numbers are kept as
# their literal text (RawNumber) and strings remember theirs (RawString, a str), and
# dumps_settings writes both back verbatim.

MAX_NESTING = 200  # real settings nest 6 deep; the pure-Python scanner is recursive


class RawNumber:
    """A JSON number as written in the file; compares equal to the same number."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RawNumber):
            return self.text == other.text
        if isinstance(other, (int, float)) and not isinstance(other, bool):
            try:
                return (float if any(ch in self.text for ch in ".eE") else int)(self.text) == other
            except ValueError:  # more digits than int() converts
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return self.text

    def __deepcopy__(self, memo: dict[int, Any]) -> RawNumber:
        return self


class RawString(str):
    """A JSON string value that remembers its literal (escapes and all)."""

    literal: str

    def __new__(cls, value: str, literal: str = "") -> RawString:
        made = super().__new__(cls, value)
        made.literal = literal
        return made

    def __deepcopy__(self, memo: dict[int, Any]) -> RawString:
        return self


def loads_keeping_literals(text: str) -> Any:
    """json.loads, but numbers are RawNumber and string values RawString. Raises
    JSONDecodeError (also for NaN/Infinity and lone surrogate escapes such as \\ud800,
    which Claude Code cannot use either) and RecursionError past MAX_NESTING."""
    import json.decoder
    import json.scanner

    def parse_string(s: str, end: int, strict: bool = True) -> tuple[str, int]:
        value, after = json.decoder.py_scanstring(s, end, strict)  # type: ignore[attr-defined]
        for ch in value:
            if "\ud800" <= ch <= "\udfff":
                raise json.JSONDecodeError(
                    f"a lone surrogate escape (\\u{ord(ch):04x}) in a string, which is not text",
                    s,
                    end - 1,
                )
        return RawString(value, s[end - 1 : after]), after

    def parse_constant(name: str) -> None:
        raise json.JSONDecodeError(f"{name} is not JSON", text, text.find(name))

    def make_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        # Keys are scanned without parse_string: their lone surrogates are refused here.
        for key, _ in pairs:
            if any("\ud800" <= ch <= "\udfff" for ch in key):
                raise json.JSONDecodeError("a lone surrogate escape in a key", text, 0)
        return dict(pairs)

    decoder = json.JSONDecoder(
        parse_float=RawNumber,
        parse_int=RawNumber,
        parse_constant=parse_constant,
        object_pairs_hook=make_object,
    )
    decoder.parse_string = parse_string  # type: ignore[attr-defined]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(min(limit, MAX_NESTING * 4))  # deep input: a clean RecursionError
    try:
        return decoder.decode(text)
    finally:
        sys.setrecursionlimit(limit)


def check_hooks_shape(settings: Settings, path: Path | str) -> None:
    """Raise SettingsError unless ``settings["hooks"]`` (if present) has the shape
    ``{"Event": [{"matcher"?: str, "hooks": [{...}, ...]}, ...]}``."""

    def need(value: Any, kind: type, where: str, expected: str) -> Any:
        if not isinstance(value, kind):
            raise SettingsError(
                f"{path}: {where} must be {expected}, but it is {_kind(value)}. Fix that part "
                "of the file by hand (settings.example.json shows the expected shape)"
            )
        return value

    if "hooks" not in settings:
        return
    hooks = need(settings["hooks"], dict, '"hooks"', 'an object ({"EventName": [...]})')
    for event, groups in hooks.items():
        for i, group in enumerate(need(groups, list, f"hooks.{event}", "a list of matcher groups")):
            where = f"hooks.{event}[{i}]"
            need(group, dict, where, 'an object ({"matcher": ..., "hooks": [...]})')
            if "matcher" in group:
                need(group["matcher"], str, f"{where}.matcher", "a string")
            entries = need(group.get("hooks", []), list, f"{where}.hooks", "a list of hook objects")
            for j, entry in enumerate(entries):
                expected = 'an object ({"type": "command", "command": ...})'
                need(entry, dict, f"{where}.hooks[{j}]", expected)


_KINDS: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (type(None), "null"),
    (bool, "a boolean"),
    ((int, float, RawNumber), "a number"),
    (str, "a string"),
    (list, "a list"),
    (dict, "an object"),
)


def _kind(value: object) -> str:
    return next((name for kind, name in _KINDS if isinstance(value, kind)), type(value).__name__)


def detect_indent(text: str | None) -> int | str:
    """The indentation of an existing settings file (2 for a new or one-line file)."""
    for line in (text or "").splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            if set(lead) == {" "}:
                return len(lead)
            if set(lead) == {"\t"}:
                return "\t"
            return 2
    return 2


def dumps_settings(settings: Settings, indent: int | str = 2) -> str:
    """The text written for ``settings``: indented JSON, non-ASCII kept, final newline, as
    json.dumps(indent=...) writes it, except that RawNumber and RawString values come back
    as their literals."""
    unit = " " * indent if isinstance(indent, int) else indent
    out: list[str] = []
    _encode(settings, unit, 0, out)
    return "".join(out) + "\n"


def _encode(value: Any, unit: str, level: int, out: list[str]) -> None:
    if isinstance(value, RawString) and value.literal:
        out.append(value.literal)
    elif isinstance(value, RawNumber):
        out.append(value.text)
    elif isinstance(value, (dict, list)) and value:
        is_dict = isinstance(value, dict)
        inner = "\n" + unit * (level + 1)
        out.append("{" if is_dict else "[")
        for i, item in enumerate(value.items() if isinstance(value, dict) else value):
            out.append(("," if i else "") + inner)
            if is_dict:
                key, item = item
                out.append(json.dumps(str(key), ensure_ascii=False) + ": ")
            _encode(item, unit, level + 1, out)
        out.append("\n" + unit * level + ("}" if is_dict else "]"))
    elif value is None or isinstance(value, (str, int, float, dict, list)):
        # As json.dumps writes them: a bool, None, a plain number or string, {} or [].
        out.append(json.dumps(value, ensure_ascii=False, allow_nan=False))
    else:
        raise TypeError(f"cannot write {type(value).__name__} into settings")


def backup_file(path: Path, now: datetime | None = None) -> Path:
    """Copy ``path`` to ``<path>.bak-<UTC time, 20250131T235959Z>`` (``-1``, ``-2``... if
    taken), keeping its mode and times, and return the backup's path."""
    stamp = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    base = f"{path.name}{BACKUP_INFIX}{stamp.strftime('%Y%m%dT%H%M%SZ')}"
    backup = path.with_name(base)
    n = 0
    while backup.exists():
        n += 1
        backup = path.with_name(f"{base}-{n}")
    shutil.copy2(path, backup)
    return backup


def replace_if_unchanged(path: Path, based_on: str | None, text: str) -> bool:
    """Write ``text`` to ``path`` (a symlink is followed) if the file still holds
    ``based_on`` (None: does not exist) at the moment of the rename; False, with nothing
    written, when another program changed it since it was read (the caller redoes its
    edit on the new content). fsutil.atomic_write's ``still_current`` check."""

    def still_current(held: bytes | None) -> bool:
        try:
            return (None if held is None else held.decode("utf-8-sig")) == based_on
        except UnicodeDecodeError:
            return False

    return atomic_write(os.path.realpath(path), text, still_current=still_current)
