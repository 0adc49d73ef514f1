"""Editing Claude Code's settings.json: pure functions on dicts, plus a careful load and write.

``register_hooks`` and ``unregister_hooks`` never touch the disk and never mutate their
argument: they take the parsed settings and return the settings to write. The installer
compares the result with the input and writes nothing when they are equal, which is what
makes a second ``./install`` a no-op. Later settings (``statusLine``, ...) get their own
pure function of the same kind.

Settings format (Claude Code 2.1.x)::

    {"hooks": {"EventName": [{"matcher": "...", "hooks": [
        {"type": "command", "command": "...", "timeout": SECONDS}]}]}}

A HookSpec whose matcher is None is registered in a group WITHOUT a ``matcher`` key.

Which entries are ours (the rule ``register_hooks`` replaces and ``unregister_hooks``
removes): an entry of a matcher group that is an object with ``"type": "command"`` and a
``command`` string that the shell reads as exactly ONE word (no arguments), that word being
an absolute path ``P`` whose parent folder is named ``bin``, and either

1. ``P``'s folder is this install's ``bin_dir`` (any program there: the virtualenv is
   private to context-memory), or
2. ``P``'s file name is one of the registry's commands (``ctx-budget``, ...) and one of
   ``P``'s folders is named ``context-memory`` (another context-memory virtualenv, for
   example the default ``~/.local/share/context-memory/venv`` after switching to
   ``CTX_VENV``, or the other way round).

Quoting does not matter (``"/v/bin/ctx-budget"`` and ``/v/bin/ctx-budget`` are the same
entry); the timeout and other keys do not matter either. Everything else is foreign and
kept as it is, in place, including foreign entries in the same matcher group as ours.
A ``ctx-budget`` installed elsewhere by hand (pipx, ``~/.local/bin``), or in a virtualenv
outside any ``context-memory`` folder that is not this install's (an older ``CTX_VENV``), is
foreign: never edited, but ``lookalike_entries`` finds it so the installer can say so.
"""

from __future__ import annotations

import copy
import errno
import json
import os
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from context_memory.core.fsutil import atomic_write, temp_name
from context_memory.setup.hook_registry import HOOKS, HookSpec

OWN_FOLDER_NAME = "context-memory"
BACKUP_INFIX = ".bak-"
# The placeholder virtualenv of settings.example.json.
EXAMPLE_VENV = "/home/you/.local/share/context-memory/venv"

Settings = dict[str, Any]
Entry = dict[str, Any]
# (event, matcher, own entry) -> the entry to put in its place, or None to drop it
Replacer = Callable[[str, "str | None", Entry], "Entry | None"]


class SettingsError(Exception):
    """The settings file cannot be used as it is. ``str()`` is a complete message for people:
    what is wrong, where, how to fix it, and that nothing was changed."""


class InvalidJSONError(SettingsError):
    """The settings file is not valid JSON."""


class SettingsShapeError(SettingsError):
    """The settings file is JSON, but not the shape Claude Code reads (e.g. ``hooks`` is a list)."""


_FIX_HINT = "then run ./install again. The file was not changed."


# --------------------------------------------------------------------------- reading


def load_settings(path: Path) -> Settings:
    """Parse the settings file at ``path``; a missing or empty file is ``{}``.

    Raises InvalidJSONError for text that is not JSON, SettingsShapeError when the top level
    is not an object or ``hooks`` has the wrong shape, and SettingsError when the file
    cannot be read.
    """
    text = read_settings_text(path)
    return parse_settings(text, path)


def read_settings_text(path: Path) -> str | None:
    """The file's text, or None when it does not exist."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SettingsError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidJSONError(
            f"{path} is not valid JSON: it is not UTF-8 text (byte {exc.start}). "
            f"Fix the file by hand (or move it aside to start from an empty one), {_FIX_HINT}"
        ) from exc


def parse_settings(text: str | None, path: Path) -> Settings:
    """Parse settings text read from ``path`` (used in messages only)."""
    if text is None or not text.strip():
        return {}
    try:
        data = loads_keeping_literals(text)
    except json.JSONDecodeError as exc:
        raise InvalidJSONError(
            f"{path} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno}). "
            f"Fix the file by hand (or move it aside to start from an empty one), {_FIX_HINT}"
        ) from exc
    except RecursionError:
        raise InvalidJSONError(
            f"{path} is nested too deeply to be a settings file (more than about "
            f"{MAX_NESTING} levels of [ or {{). Fix the file by hand (or move it aside to "
            f"start from an empty one), {_FIX_HINT}"
        ) from None
    if not isinstance(data, dict):
        raise SettingsShapeError(
            f"{path} must hold a JSON object ({{...}}), but it holds {_kind(data)}. "
            f"Fix the file by hand (or move it aside to start from an empty one), {_FIX_HINT}"
        )
    check_hooks_shape(data, path)
    return data


# --------------------------------------------------------------------------- literals
#
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

    def value(self) -> int | float:
        if any(ch in self.text for ch in ".eE"):
            return float(self.text)
        return int(self.text)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RawNumber):
            return self.text == other.text
        if isinstance(other, (int, float)) and not isinstance(other, bool):
            try:
                return self.value() == other
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


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


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

    decoder = json.JSONDecoder(
        parse_float=RawNumber, parse_int=RawNumber, parse_constant=parse_constant
    )
    decoder.parse_string = parse_string  # type: ignore[attr-defined]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(min(limit, MAX_NESTING * 4))  # deep input: a clean RecursionError
    try:
        data = decoder.decode(text)
    finally:
        sys.setrecursionlimit(limit)
    for key in _keys(data):
        if any("\ud800" <= ch <= "\udfff" for ch in key):
            raise json.JSONDecodeError("a lone surrogate escape in a key", text, 0)
    return data


def _keys(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield from item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def check_hooks_shape(settings: Settings, path: Path | str) -> None:
    """Raise SettingsShapeError unless ``settings["hooks"]`` (if present) has the shape
    ``{"Event": [{"matcher"?: str, "hooks": [{...}, ...]}, ...]}``."""
    if "hooks" not in settings:
        return

    def refuse(where: str, expected: str, found: object) -> SettingsShapeError:
        return SettingsShapeError(
            f"{path}: {where} must be {expected}, but it is {_kind(found)}. Fix that part "
            f"of the file by hand (settings.example.json shows the expected shape), "
            f"{_FIX_HINT}"
        )

    hooks = settings["hooks"]
    if not isinstance(hooks, dict):
        raise refuse('"hooks"', 'an object ({"EventName": [...]})', hooks)
    for event, groups in hooks.items():
        where = f"hooks.{event}"
        if not isinstance(groups, list):
            raise refuse(where, "a list of matcher groups", groups)
        for i, group in enumerate(groups):
            if not isinstance(group, dict):
                raise refuse(f"{where}[{i}]", 'an object ({"matcher": ..., "hooks": [...]})', group)
            if "matcher" in group and not isinstance(group["matcher"], str):
                raise refuse(f"{where}[{i}].matcher", "a string", group["matcher"])
            if "hooks" not in group:
                continue
            entries = group["hooks"]
            if not isinstance(entries, list):
                raise refuse(f"{where}[{i}].hooks", "a list of hook objects", entries)
            for j, entry in enumerate(entries):
                if not isinstance(entry, dict):
                    raise refuse(
                        f"{where}[{i}].hooks[{j}]",
                        'an object ({"type": "command", "command": ...})',
                        entry,
                    )


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float, RawNumber)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


# --------------------------------------------------------------------------- pure edits


def command_for(bin_dir: Path | str, command: str) -> str:
    """The settings ``command`` string for entry point ``command`` in ``bin_dir``.

    An absolute path in double quotes, so folders with spaces work; the characters that
    stay special inside POSIX double quotes (``\\ " $ `````) are escaped.
    """
    path = os.path.join(os.path.abspath(os.fspath(bin_dir)), command)
    escaped = "".join("\\" + ch if ch in '\\"$`' else ch for ch in path)
    return f'"{escaped}"'


def hook_entry(spec: HookSpec, bin_dir: Path | str) -> dict[str, Any]:
    """The settings object for one hook entry."""
    return {
        "type": "command",
        "command": command_for(bin_dir, spec.command),
        "timeout": spec.timeout,
    }


def is_own_entry(entry: object, bin_dir: Path | str, commands: Iterable[str]) -> bool:
    """True when ``entry`` was written by an install (see the module docstring for the rule)."""
    if not isinstance(entry, dict) or entry.get("type") != "command":
        return False
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    word = _single_word(command)
    if word is None or not os.path.isabs(word):
        return False
    path = Path(os.path.normpath(word))
    if path.parent.name != "bin":
        return False
    if path.parent == Path(os.path.abspath(os.fspath(bin_dir))):
        return True
    return path.name in set(commands) and OWN_FOLDER_NAME in path.parent.parts


_DOUBLE_QUOTED = re.compile(r'"((?:[^"\\$`]|\\[\\"$`])*)"')
_UNESCAPE = re.compile(r'\\([\\"$`])')


def _single_word(command: str) -> str | None:
    """The one word the shell makes of ``command``, or None when it is several words or
    uses expansions. Double-quoted text follows POSIX rules (as command_for writes it);
    anything else goes through shlex."""
    text = command.strip()
    quoted = _DOUBLE_QUOTED.fullmatch(text)
    if quoted:
        return _UNESCAPE.sub(r"\1", quoted.group(1))
    if any(ch in text for ch in "$`"):
        return None
    try:
        words = shlex.split(text)
    except ValueError:
        return None
    return words[0] if len(words) == 1 else None


def command_word(command: str) -> str | None:
    """The program (first word) of a command whose first word is double-quoted as
    command_for writes it, or of a one-word command; else None."""
    text = command.strip()
    quoted = _DOUBLE_QUOTED.match(text)
    if quoted and (quoted.end() == len(text) or text[quoted.end()].isspace()):
        return _UNESCAPE.sub(r"\1", quoted.group(1))
    return _single_word(command)


def register_hooks(settings: Settings, specs: Sequence[HookSpec], bin_dir: Path | str) -> Settings:
    """Return a copy of ``settings`` with exactly one entry per spec pointing into ``bin_dir``.

    Our existing entries (same event, same matcher, same command name) are replaced in
    place, so an upgrade (new timeout, new venv path) keeps their position; our entries
    that match no spec, or duplicates, are removed. Missing entries are appended to the
    first non-empty group of the event with the same matcher (``None`` = a group without
    a ``matcher`` key), else to a new group at the end of the event's list (an empty
    group is not joined, so that uninstalling gives it back as it was). Foreign entries,
    groups, events and settings are kept untouched. ``register_hooks(register_hooks(s))``
    equals ``register_hooks(s)``.
    """
    check_hooks_shape(settings, "settings")
    wanted: dict[tuple[str, str | None, str], list[dict[str, Any]]] = {}
    for spec in specs:
        wanted.setdefault((spec.event, spec.matcher, spec.command), []).append(
            hook_entry(spec, bin_dir)
        )
    names = {spec.command for spec in specs}

    def replacement(event: str, matcher: str | None, entry: dict[str, Any]) -> Entry | None:
        name = os.path.basename(_single_word(entry["command"]) or "")
        pending = wanted.get((event, matcher, name))
        return pending.pop(0) if pending else None

    result = _rewrite_own_entries(settings, bin_dir, names, replacement)
    for spec in specs:
        pending = wanted[(spec.event, spec.matcher, spec.command)]
        if not pending:
            continue
        entry = pending.pop(0)
        groups = result.setdefault("hooks", {}).setdefault(spec.event, [])
        for group in groups:
            if group.get("matcher") == spec.matcher and group.get("hooks"):
                group["hooks"].append(entry)
                break
        else:
            group = {} if spec.matcher is None else {"matcher": spec.matcher}
            group["hooks"] = [entry]
            groups.append(group)
    return result


def unregister_hooks(
    settings: Settings,
    bin_dir: Path | str,
    commands: Iterable[str] | None = None,
) -> Settings:
    """Return a copy of ``settings`` without our entries (rule in the module docstring).

    ``commands`` defaults to the registry's command names. A matcher group, an event, or
    the ``hooks`` object that becomes empty because our entries left it is removed too
    (so ``unregister_hooks(register_hooks(s)) == s``, except that an event list or a
    ``hooks`` object that was already empty before the install is removed as well: the
    same settings to Claude Code). Groups that were already empty, and everything
    foreign, stay.
    """
    check_hooks_shape(settings, "settings")
    names = {spec.command for spec in HOOKS} if commands is None else set(commands)
    return _rewrite_own_entries(settings, bin_dir, names, lambda *_: None)


def _rewrite_own_entries(
    settings: Settings, bin_dir: Path | str, names: set[str], replace: Replacer
) -> Settings:
    """Copy of ``settings`` where each own entry is swapped for ``replace(event, matcher,
    entry)`` (None = drop it), then containers emptied by a drop are removed."""
    result = copy.deepcopy(settings)
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        return result
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        dropped_any = False
        for group in groups:
            entries = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(entries, list):
                kept_groups.append(group)
                continue
            matcher = group.get("matcher")
            new_entries = []
            for entry in entries:
                if is_own_entry(entry, bin_dir, names):
                    new = replace(event, matcher, entry)
                    if new is None:
                        dropped_any = True
                        continue
                    entry = new
                new_entries.append(entry)
            group["hooks"] = new_entries
            if new_entries or len(entries) == 0:
                kept_groups.append(group)
        hooks[event] = kept_groups
        if not kept_groups and dropped_any:
            del hooks[event]
    if not hooks and settings.get("hooks"):
        del result["hooks"]
    return result


def own_entries(
    settings: Settings, bin_dir: Path | str, commands: Iterable[str]
) -> list[tuple[str, str | None, dict[str, Any]]]:
    """Our entries in ``settings`` as (event, matcher, entry), in file order."""
    names = set(commands)
    return [
        (event, group.get("matcher"), entry)
        for event, group, entry in hook_entries(settings)
        if isinstance(entry, dict) and is_own_entry(entry, bin_dir, names)
    ]


def hook_entries(settings: Settings) -> Iterator[tuple[str, dict[str, Any], object]]:
    """(event, group, entry) for every hook entry, skipping parts of the wrong shape."""
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return
    for event, groups in hooks.items():
        for group in groups if isinstance(groups, list) else ():
            entries = group.get("hooks") if isinstance(group, dict) else None
            for entry in entries if isinstance(entries, list) else ():
                yield event, group, entry


def example_settings_text(specs: Sequence[HookSpec] = HOOKS) -> str:
    """The text of ``settings.example.json``: the registration for EXAMPLE_VENV. Regenerate:
    ``PYTHONPATH=hooks python -c 'import sys; from context_memory.setup.settings_edit import
    example_settings_text as t; sys.stdout.write(t())' > settings.example.json``"""
    return dumps_settings(register_hooks({}, specs, os.path.join(EXAMPLE_VENV, "bin")))


def lookalike_entries(
    settings: Settings, bin_dir: Path | str, commands: Iterable[str]
) -> list[tuple[str, str]]:
    """Foreign entries that run one of ``commands`` by an absolute path anyway (for example
    from a virtualenv an older install made under another CTX_VENV), as (event, program
    path). They are never edited; the installer mentions them so nobody runs a hook twice."""
    names = set(commands)
    found: list[tuple[str, str]] = []
    for event, _group, entry in hook_entries(settings):
        if is_own_entry(entry, bin_dir, names) or not isinstance(entry, dict):
            continue
        command = entry.get("command")
        word = _single_word(command) if isinstance(command, str) else None
        if word and os.path.isabs(word) and os.path.basename(word) in names:
            found.append((event, word))
    return found


# --------------------------------------------------------------------------- statusLine

STATUSLINE_PROGRAM = "ctx-statusline"
CHAIN_OPTION = "--chain"
# Outcomes of set_statusline.
STATUSLINE_ADDED = "added"  # there was none: ours now
STATUSLINE_CHAINED = "chained"  # theirs runs first, then ours
STATUSLINE_UPDATED = "updated"  # ours, pointing at another virtualenv: path updated
STATUSLINE_UNCHANGED = "unchanged"  # already as wanted (or nothing asked)
STATUSLINE_KEPT_THEIRS = "kept-theirs"  # theirs, no chaining asked: untouched
STATUSLINE_NOT_CHAINABLE = "not-chainable"  # theirs is not a command we can run first

_CHAINED = re.compile(r'(?P<program>"(?:[^"\\$`]|\\[\\"$`])*"|\S+)\s+--chain\s+(?P<rest>.+)', re.S)


def statusline_command(bin_dir: Path | str, chained: str | None = None) -> str:
    """Our statusLine command; with ``chained``, it runs that command first (``--chain``)."""
    ours = command_for(bin_dir, STATUSLINE_PROGRAM)
    return ours if chained is None else f"{ours} {CHAIN_OPTION} {shlex.quote(chained)}"


def parse_own_statusline(value: object, bin_dir: Path | str) -> tuple[bool, str | None]:
    """(is ours, the chained command or None) for a ``statusLine`` setting.

    Ours: ``{"type": "command", "command": <ctx-statusline of a context-memory virtualenv>}``,
    optionally followed by ``--chain '<their command>'`` (the is_own_entry rule, for the
    program ``ctx-statusline``).
    """
    if not isinstance(value, dict) or value.get("type") != "command":
        return False, None
    command = value.get("command")
    if not isinstance(command, str):
        return False, None
    chained: str | None = None
    program = command.strip()
    match = _CHAINED.fullmatch(program)
    if match:
        try:
            rest = shlex.split(match.group("rest"))
        except ValueError:
            return False, None
        if len(rest) != 1:
            return False, None
        program, chained = match.group("program"), rest[0]
    own = is_own_entry({"type": "command", "command": program}, bin_dir, {STATUSLINE_PROGRAM})
    return (True, chained) if own else (False, None)


def set_statusline(settings: Settings, bin_dir: Path | str, *, chain: bool) -> tuple[Settings, str]:
    """Return (a copy of ``settings`` with our status line, outcome).

    No status line: ours is added. Ours already: its program path is brought to
    ``bin_dir`` (a chained command is kept). Someone else's: kept as it is, unless ``chain``,
    which makes ours run theirs first (``ctx-statusline --chain '<theirs>'``) and keeps
    every other key of their setting (``padding``...), so uninstalling restores it exactly.
    """
    result = copy.deepcopy(settings)
    current = result.get("statusLine")
    if current is None:
        result["statusLine"] = {"type": "command", "command": statusline_command(bin_dir)}
        return result, STATUSLINE_ADDED
    own, chained = parse_own_statusline(current, bin_dir)
    if own:
        wanted = statusline_command(bin_dir, chained)
        if current.get("command") == wanted:
            return result, STATUSLINE_UNCHANGED
        current["command"] = wanted
        return result, STATUSLINE_UPDATED
    if not chain:
        return result, STATUSLINE_KEPT_THEIRS
    theirs = current.get("command") if isinstance(current, dict) else None
    if (
        not isinstance(current, dict)
        or current.get("type") != "command"
        or not (isinstance(theirs, str) and theirs.strip())
    ):
        return result, STATUSLINE_NOT_CHAINABLE
    current["command"] = statusline_command(bin_dir, theirs)
    return result, STATUSLINE_CHAINED


def refresh_statusline(settings: Settings, bin_dir: Path | str) -> Settings:
    """``settings`` with our status line (if any) pointing at ``bin_dir``; others untouched."""
    own, _ = parse_own_statusline(settings.get("statusLine"), bin_dir)
    return set_statusline(settings, bin_dir, chain=False)[0] if own else settings


def unset_statusline(settings: Settings, bin_dir: Path | str) -> tuple[Settings, str | None]:
    """Return (a copy of ``settings`` without our status line, their restored command).

    Ours alone: the ``statusLine`` key goes. Ours chained: their command is put back in
    place (the other keys were never touched). Someone else's: unchanged.
    """
    result = copy.deepcopy(settings)
    own, chained = parse_own_statusline(result.get("statusLine"), bin_dir)
    if not own:
        return result, None
    if chained is None:
        del result["statusLine"]
        return result, None
    result["statusLine"]["command"] = chained
    return result, chained


# --------------------------------------------------------------------------- writing


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
    elif isinstance(value, str):
        out.append(json.dumps(value, ensure_ascii=False))
    elif value is None or isinstance(value, bool):
        out.append(json.dumps(value))
    elif isinstance(value, RawNumber):
        out.append(value.text)
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(json.dumps(value, allow_nan=False))
    elif isinstance(value, (dict, list)):
        items = value.items() if isinstance(value, dict) else value
        if not value:
            out.append("{}" if isinstance(value, dict) else "[]")
            return
        inner = "\n" + unit * (level + 1)
        out.append("{" if isinstance(value, dict) else "[")
        for i, item in enumerate(items):
            out.append(("," if i else "") + inner)
            if isinstance(value, dict):
                key, item = item
                out.append(json.dumps(str(key), ensure_ascii=False) + ": ")
            _encode(item, unit, level + 1, out)
        out.append("\n" + unit * level + ("}" if isinstance(value, dict) else "]"))
    else:
        raise TypeError(f"cannot write {type(value).__name__} into settings")


def utc_timestamp(now: datetime | None = None) -> str:
    """``20250131T235959Z``: the suffix of backup names."""
    now = now or datetime.now(timezone.utc)
    return now.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def backup_file(path: Path, now: datetime | None = None) -> Path:
    """Copy ``path`` to ``<path>.bak-<UTC timestamp>`` (``-1``, ``-2``... if taken), keeping
    its mode and times, and return the backup's path."""
    base = f"{path.name}{BACKUP_INFIX}{utc_timestamp(now)}"
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
    edit on the new content). The temporary file is complete and synced before the file
    is checked, so the check and the rename are microseconds apart."""
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    os.makedirs(folder, exist_ok=True)
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    # Named and created as fsutil.atomic_write does (exclusive, no link followed, a name
    # its sweep of stale temporary files knows), without tempfile.
    tmp = os.path.join(folder, temp_name(os.path.basename(target)))
    fd = os.open(
        tmp,
        os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC,
        0o600,
    )
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if based_on is None:
            try:
                os.link(tmp, target)  # fails if the file appeared meanwhile
            except FileExistsError:
                return False
            return True
        if read_settings_text(Path(target)) != based_on:
            return False
        if not _exchange(tmp, target):
            os.replace(tmp, target)  # no renameat2: the check above is microseconds old
            return True
        # Swapped: ``tmp`` now holds the file we displaced. If a write slipped in between
        # the check and the swap, it is that write: put it back and let the caller redo.
        if read_settings_text(Path(tmp)) == based_on:
            return True
        _exchange(tmp, target)
        if read_settings_text(Path(tmp)) != text:
            _exchange(tmp, target)  # yet another write meanwhile: the newest goes back
        return False
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass


RENAME_EXCHANGE = 2  # linux/fs.h
AT_FDCWD = -100


def _exchange(first: str, second: str) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE): the file a rename
    displaces is kept, so a write that lands between a check and the rename is not lost.
    False where the system or file system cannot do it."""
    try:
        import ctypes

        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (ImportError, OSError, AttributeError):
        return False
    renameat2.argtypes = [
        ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint
    ]  # fmt: skip
    done = renameat2(AT_FDCWD, os.fsencode(first), AT_FDCWD, os.fsencode(second), RENAME_EXCHANGE)
    if done == 0:
        return True
    error = ctypes.get_errno()
    if error in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EPERM):
        return False
    raise OSError(error, os.strerror(error), second)


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically (fsutil.atomic_write), keeping its permission
    bits; a symlink is followed, so the link's target is what gets replaced."""
    atomic_write(os.path.realpath(path), text)
