"""What the installer does to Claude Code's settings.json: pure functions on dicts first
(never touching the disk nor their argument: the installer writes nothing when the result
equals the input, which makes a second ``./install`` a no-op), then the write of one file
(backed up, redone when another program changed it meanwhile) and the installer's steps on
settings files. Which entries are ours: docs/install.md, the rule is ``is_own_entry``.
settings_file.py reads, parses and serialises the file.

Size: one job, from the pure edits to the steps that write them; apart, the steps' module
imported a dozen names of this one and nothing else used it.
"""

from __future__ import annotations

import copy
import difflib
import os
import re
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from context_memory.core.command_table import HOOKS, HookSpec
from context_memory.setup.install import record
from context_memory.setup.install.options import STATUSLINE_CHAIN, InstallOptions, Step
from context_memory.setup.install.settings_file import (
    Settings,
    SettingsError,
    backup_file,
    check_hooks_shape,
    detect_indent,
    dumps_settings,
    read_settings,
    replace_if_unchanged,
)
from context_memory.setup.install.venv import HOOK_NAMES, OWN_FOLDER_NAME, InstallError, say, warn

# The placeholder virtualenv of settings.example.json.
EXAMPLE_VENV = "/home/you/.local/share/context-memory/venv"

Entry = dict[str, Any]
# (event, matcher, own entry) -> the entry to put in its place, or None to drop it
Replacer = Callable[[str, "str | None", Entry], "Entry | None"]


def in_double_quotes(text: str) -> str:
    """``text`` for the inside of a POSIX shell double-quoted string: the characters that
    stay special there (``\\ " $ `````) escaped."""
    return "".join("\\" + ch if ch in '\\"$`' else ch for ch in text)


def command_for(bin_dir: Path | str, command: str) -> str:
    """The settings ``command`` string for entry point ``command`` in ``bin_dir``: its
    absolute path in double quotes, so folders with spaces work."""
    return f'"{in_double_quotes(os.path.join(os.path.abspath(os.fspath(bin_dir)), command))}"'


def command_of(entry: object) -> str | None:
    """The command string of a ``{"type": "command", "command": ...}`` entry, else None."""
    if not isinstance(entry, dict) or entry.get("type") != "command":
        return None
    command = entry.get("command")
    return command if isinstance(command, str) else None


def is_own_entry(entry: object, bin_dir: Path | str, commands: Iterable[str]) -> bool:
    """True when ``entry`` was written by an install (the rule: docs/install.md)."""
    word = command_word(command_of(entry), alone=True)
    if word is None or not os.path.isabs(word):
        return False
    path = Path(os.path.normpath(word))
    if path.parent.name != "bin":
        return False
    own_bin = path.parent == Path(os.path.abspath(os.fspath(bin_dir)))
    return own_bin or (path.name in set(commands) and OWN_FOLDER_NAME in path.parent.parts)


# A word in double quotes as command_for writes it (only \\ \" \$ \` escaped).
_DOUBLE_QUOTED = re.compile(r'"((?:[^"\\$`]|\\[\\"$`])*)"')
_UNESCAPE = re.compile(r'\\([\\"$`])')


def command_word(command: object, *, alone: bool = False) -> str | None:
    """The program of ``command`` (None for what is not a string); with ``alone``, only when
    it is the one word the shell makes of it, with no expansion. Double-quoted text follows
    the POSIX rules, as command_for writes it (shlex would keep the backslash of \\$ and
    \\`); anything else goes through shlex."""
    if not isinstance(command, str):
        return None
    text = command.strip()
    quoted, word = _DOUBLE_QUOTED.match(text), None
    if quoted and (quoted.end() == len(text) or text[quoted.end()].isspace()):
        word, single = _UNESCAPE.sub(r"\1", quoted.group(1)), quoted.end() == len(text)
    else:
        try:
            words = shlex.split(text)
        except ValueError:
            return None
        word = words[0] if words else None
        single = len(words) == 1 and not any(ch in text for ch in "$`")
    return word if single or not alone else None


def register_hooks(settings: Settings, specs: Sequence[HookSpec], bin_dir: Path | str) -> Settings:
    """A copy of ``settings`` with exactly one entry per spec pointing into ``bin_dir``, where
    docs/install.md says: ours replaced in place (an upgrade keeps their position), ours that
    match no spec or repeat one removed, the missing ones in the first non-empty group of the
    same matcher (an empty group is not joined, so that uninstalling gives it back as it
    was), everything foreign untouched. Idempotent."""
    wanted: dict[tuple[str, str | None, str], list[dict[str, Any]]] = {}
    for spec in specs:
        entry: Entry = {"type": "command", "command": command_for(bin_dir, spec.command)}
        entry["timeout"] = spec.timeout
        wanted.setdefault((spec.event, spec.matcher, spec.command), []).append(entry)
    names = {spec.command for spec in specs}

    def replacement(event: str, matcher: str | None, entry: dict[str, Any]) -> Entry | None:
        name = os.path.basename(command_word(entry["command"], alone=True) or "")
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
    settings: Settings, bin_dir: Path | str, commands: Iterable[str] = HOOK_NAMES
) -> Settings:
    """A copy of ``settings`` without our entries (is_own_entry), and without the groups,
    events and ``hooks`` object that only they filled, so ``unregister_hooks(register_hooks(s))
    == s`` (but for an event list or ``hooks`` object that was empty before: the same
    settings to Claude Code). Groups that were already empty, and everything foreign, stay."""
    return _rewrite_own_entries(settings, bin_dir, set(commands), lambda *_: None)


def _rewrite_own_entries(
    settings: Settings, bin_dir: Path | str, names: set[str], replace: Replacer
) -> Settings:
    """Copy of ``settings`` (of the checked shape) where each own entry is swapped for
    ``replace(event, matcher, entry)`` (None = drop it), then containers emptied by a drop
    are removed."""
    check_hooks_shape(settings, "settings")
    result = copy.deepcopy(settings)
    hooks = result.get("hooks", {})
    for event in list(hooks):
        kept, dropped = [], False
        for group in hooks[event]:
            entries = group.get("hooks")
            if entries:
                swapped = [
                    replace(event, group.get("matcher"), e)
                    if is_own_entry(e, bin_dir, names)
                    else e
                    for e in entries
                ]
                group["hooks"] = [e for e in swapped if e is not None]
                dropped = dropped or len(group["hooks"]) < len(entries)
            if group.get("hooks") or not entries:
                kept.append(group)
        hooks[event] = kept
        if not kept and dropped:
            del hooks[event]
    if not hooks and settings.get("hooks"):
        del result["hooks"]
    return result


def own_entries(
    settings: Settings, bin_dir: Path | str, commands: Iterable[str] = HOOK_NAMES
) -> list[tuple[str, str | None, dict[str, Any]]]:
    """Our entries in ``settings`` as (event, matcher, entry), in file order."""
    names = set(commands)
    return [
        (event, group.get("matcher"), entry)
        for event, group, entry in hook_entries(settings)
        if is_own_entry(entry, bin_dir, names)
    ]


def hook_entries(settings: Settings) -> Iterator[tuple[str, dict[str, Any], Entry]]:
    """(event, group, entry) for every hook entry of ``settings`` (of the shape
    settings_file.check_hooks_shape checks: every parsed settings file has it)."""
    for event, groups in settings.get("hooks", {}).items():
        for group in groups:
            for entry in group.get("hooks", []):
                yield event, group, entry


def example_settings_text() -> str:
    """The text of ``settings.example.json``: the registration for EXAMPLE_VENV. Regenerate:
    ``PYTHONPATH=hooks python -c 'import sys; from context_memory.setup.install.settings_edit import
    example_settings_text as t; sys.stdout.write(t())' > settings.example.json``"""
    return dumps_settings(register_hooks({}, HOOKS, os.path.join(EXAMPLE_VENV, "bin")))


def lookalike_entries(
    settings: Settings, bin_dir: Path | str, commands: Iterable[str]
) -> list[tuple[str, str]]:
    """Foreign entries that run one of ``commands`` by an absolute path anyway (for example
    from a virtualenv an older install made under another CTX_VENV), as (event, program
    path). They are never edited; the installer mentions them so nobody runs a hook twice."""
    names = set(commands)
    found: list[tuple[str, str]] = []
    for event, _group, entry in hook_entries(settings):
        if is_own_entry(entry, bin_dir, names):
            continue
        word = command_word(entry.get("command"), alone=True)
        if word and os.path.isabs(word) and os.path.basename(word) in names:
            found.append((event, word))
    return found


STATUSLINE_PROGRAM = "ctx-statusline"
CHAIN_OPTION = "--chain"

_CHAINED = re.compile(
    rf"(?P<program>{_DOUBLE_QUOTED.pattern}|\S+)\s+{CHAIN_OPTION}\s+(?P<rest>.+)", re.DOTALL
)


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
    command = command_of(value)
    if command is None:
        return False, None
    program, chained = command.strip(), None
    match = _CHAINED.fullmatch(program)
    if match:
        try:
            rest = shlex.split(match.group("rest"))
        except ValueError:
            rest = []
        if len(rest) != 1:
            return False, None
        program, chained = match.group("program"), rest[0]
    own = is_own_entry({"type": "command", "command": program}, bin_dir, {STATUSLINE_PROGRAM})
    return (True, chained) if own else (False, None)


def set_statusline(settings: Settings, bin_dir: Path | str, *, chain: bool) -> tuple[Settings, str]:
    """Return (a copy of ``settings`` with our status line, what was done: a line for people).

    No status line: ours is added. Ours already: its program path is brought to
    ``bin_dir`` (a chained command is kept). Someone else's: kept as it is, unless ``chain``,
    which makes ours run theirs first (``ctx-statusline --chain '<theirs>'``) and keeps
    every other key of their setting (``padding``...), so uninstalling restores it exactly.
    """
    result, ours = copy.deepcopy(settings), STATUSLINE_PROGRAM
    current = result.get("statusLine")
    if current is None:
        result["statusLine"] = {"type": "command", "command": statusline_command(bin_dir)}
        return result, f"status line: {ours} (context bar after every reply)"
    own, chained = parse_own_statusline(current, bin_dir)
    if own:
        wanted = statusline_command(bin_dir, chained)
        if current.get("command") == wanted:
            return result, f"status line: {ours} is already set"
        current["command"] = wanted
        return result, f"status line: {ours} now runs from {bin_dir}"
    theirs = command_of(current)
    if not chain:
        shown = current.get("command") if isinstance(current, dict) else None
        return result, (
            f"status line: you already have one ({shown}); it was kept. To show both "
            f"(yours first, then {ours}), run ./install --statusline=chain"
        )
    if theirs is None or not theirs.strip():
        return result, f"status line: yours is not a command that {ours} can run first; it was kept"
    current["command"] = statusline_command(bin_dir, theirs)
    return result, f"status line: yours ({theirs}) first, then {ours}"


def refresh_statusline(settings: Settings, bin_dir: Path | str) -> Settings:
    """``settings`` with our status line (if any) pointing at ``bin_dir``; others untouched."""
    own, _ = parse_own_statusline(settings.get("statusLine"), bin_dir)
    return set_statusline(settings, bin_dir, chain=False)[0] if own else settings


def unset_statusline(settings: Settings, bin_dir: Path | str) -> tuple[Settings, str | None]:
    """Return (a copy of ``settings`` without our status line, what was done: a line for
    people, None when nothing was).

    Ours alone: the ``statusLine`` key goes. Ours chained: their command is put back in
    place (the other keys were never touched). Someone else's: unchanged.
    """
    result = copy.deepcopy(settings)
    own, chained = parse_own_statusline(result.get("statusLine"), bin_dir)
    if not own:
        return result, None
    if chained is None:
        del result["statusLine"]
        return result, f"status line: removed {STATUSLINE_PROGRAM}"
    result["statusLine"]["command"] = chained
    return result, f"status line: restored yours ({chained})"


def desired_settings(settings: Settings, options: InstallOptions, hooks_here: bool) -> Settings:
    """The settings after this run: a pure function of the parsed file and the options.
    ``hooks_here`` False: another settings file (the user's) runs our hooks in every
    project already, so this one must not run them a second time."""
    if options.uninstall or not hooks_here:
        return statusline_edit(unregister_hooks(settings, options.bin_dir), options)[0]
    return statusline_edit(register_hooks(settings, HOOKS, options.bin_dir), options)[0]


def statusline_edit(settings: Settings, options: InstallOptions) -> tuple[Settings, str | None]:
    """``settings`` with this run's status line, and what was done, for people (None:
    nothing to say)."""
    bin_dir = options.bin_dir
    if options.uninstall:
        return unset_statusline(settings, bin_dir)
    if options.statusline:
        return set_statusline(settings, bin_dir, chain=options.statusline == STATUSLINE_CHAIN)
    return refresh_statusline(settings, bin_dir), None


def registered_programs(settings: Settings, options: InstallOptions) -> tuple[str, ...]:
    """The programs this run registers from ``settings`` (the file as read): the hooks,
    wherever they are registered, and our status line."""
    wanted = desired_settings(settings, options, hooks_here=True).get("statusLine")
    return (*HOOK_NAMES, *[STATUSLINE_PROGRAM] * parse_own_statusline(wanted, options.bin_dir)[0])


MAX_WRITE_ATTEMPTS = 1000
MAX_WRITE_SECONDS = 20


def runs_our_hooks(path: Path, bin_dir: Path) -> bool:
    """Whether the settings file ``path`` registers any of our hooks (an unreadable or
    damaged file counts as not: the hooks then go where they were asked to go)."""
    try:
        return bool(own_entries(read_settings(path)[1], bin_dir))
    except (SettingsError, OSError):
        return False


def write_settings(
    path: Path, edit: Callable[[Settings], Settings], text: str | None, old: Settings
) -> tuple[Settings, Settings, bool]:
    """Back up and write ``edit`` of the settings file, made against the file as it is at
    the moment of the rename: when another program changed it after it was read, the edit
    is redone on the new content (our backup of the stale content is dropped).
    Returns (settings before, settings after, whether anything was written)."""
    deadline = time.monotonic() + MAX_WRITE_SECONDS
    for attempt in range(MAX_WRITE_ATTEMPTS):
        if attempt:
            time.sleep(min(0.002 * attempt, 0.05))  # let the other program finish
        new = edit(old)
        if new == old:
            return old, new, False
        new_text = dumps_settings(new, detect_indent(text))
        backup = backup_file(path, _now()) if text is not None else None
        if replace_if_unchanged(path, text, new_text):
            if backup is not None:
                say(f"backed up {path} to {backup.name}")
                record.prune_backups(path, just_made=backup)
            return old, new, True
        if backup is not None:
            backup.unlink()
        text, old = read_settings(path)
        if time.monotonic() > deadline:
            break
    raise InstallError(
        f"{path} kept being changed by another program while ./install was editing it "
        f"({attempt + 1} tries in {MAX_WRITE_SECONDS} s), so nothing was written. Close the "
        "program that keeps writing it (a running Claude Code session rewrites it when you "
        "change settings there), then run ./install again."
    )


def _now() -> datetime | None:
    """The backup timestamp (None = the clock); tests replace this."""
    return None


@dataclass(frozen=True)
class EditSettings(Step):
    """One settings file: its text and settings now, and after this run. ``hooks_here``
    False: the user settings run the hooks already (only the place this run was asked
    for; an uninstall's recorded places always run them)."""

    path: Path
    text: str | None
    old: Settings
    new: Settings
    options: InstallOptions
    hooks_here: bool
    user_path: Path

    @classmethod
    def read(cls, options: InstallOptions, path: Path, user_path: Path) -> EditSettings:
        text, old = read_settings(path)  # SettingsError: refused before anything is written
        here = (
            options.uninstall or path == user_path or not runs_our_hooks(user_path, options.bin_dir)
        )
        return cls(path, text, old, desired_settings(old, options, here), options, here, user_path)

    def run(self, would: bool) -> None:
        options, path, bin_dir = self.options, self.path, self.options.bin_dir
        old, new, changed = self.old, self.new, self.new != self.old
        if changed and not would:
            # The settings after this run, for the file as it is when written.
            wanted = lambda s: desired_settings(s, options, self.hooks_here)  # noqa: E731
            old, new, changed = write_settings(path, wanted, self.text, old)
        removed = len(own_entries(old, bin_dir)) - len(own_entries(new, bin_dir))
        if not self.hooks_here:
            say(
                f"hooks already registered in {self.user_path}, which runs them in every "
                f"project; not registering them again in {path}"
            )
        if not changed:
            if self.hooks_here:
                found = (
                    "no context-memory hooks" if options.uninstall else "hooks already registered"
                )
                say(f"{found} in {path}; nothing {'would change' if would else 'to change'}")
        elif would:
            self._show_change(removed)
        elif not self.hooks_here:
            if removed:
                say(f"removed {removed} hooks from {path} that ran twice")
        elif options.uninstall:
            say(f"removed {removed} hook{'' if removed == 1 else 's'} from {path}")
        elif register_hooks(old, HOOKS, bin_dir) == old:
            say(f"hooks already registered in {path}; only the status line changed")
        else:
            say(f"registered {len(HOOKS)} hook{'' if len(HOOKS) == 1 else 's'} in {path}:")
            for spec in HOOKS:
                label = spec.event if spec.matcher is None else f"{spec.event} [{spec.matcher}]"
                command = command_for(bin_dir, spec.command)
                print(f"  {label}: {command} (timeout {spec.timeout} s)")
            say("done; restart running Claude Code sessions to load the hooks")
        # What the run does to the status line (from the settings as they were read).
        note = statusline_edit(self.old, options)[1]
        if note:
            say(note)
        # Entries that run programs of our names from elsewhere: a warning, left alone.
        for event, program in [] if would else lookalike_entries(new, bin_dir, HOOK_NAMES):
            warn(
                f"{path} also runs {program} for {event}; that entry is not this install's, so it "
                "was left alone (delete it by hand if it is left over from an older install)"
            )

    def _show_change(self, removed: int) -> None:
        """The dry run of a change: what the run ends with (an uninstall may delete the file
        or put its text from before back), and the diff."""
        options, path, restore, before = self.options, self.path, False, None
        if options.uninstall:
            entry = record.load(options.venv)["settings"].get(str(path))
            restore, before = record.planned_restore(entry, self.new, path)
        if restore and before is None:
            say(
                f"would remove {removed} hooks from {path}, then delete it: {options.tool} "
                "had created it, and nothing else is in it"
            )
            return
        if restore:
            say(f"would restore {path} to its text from before {options.tool}:")
        elif self.text is None:
            say(f"would create {path}:")
        else:
            say(f"would change {path} (after backing it up):")
        after = dumps_settings(self.new, detect_indent(self.text)) if before is None else before
        # A unified diff (from /dev/null for a new file); a last line gets its newline.
        old_lines, new_lines = (
            [line if line.endswith("\n") else line + "\n" for line in (text or "").splitlines(True)]
            for text in (self.text, after)
        )
        old_name = "/dev/null" if self.text is None else str(path)
        sys.stdout.writelines(difflib.unified_diff(old_lines, new_lines, old_name, str(path)))


@dataclass(frozen=True)
class DropProjectHooks(Step):
    """A project settings file an earlier --project install registered the hooks in, now
    that the user settings run them in every project: our hooks out of it (the status
    line and the rest stay)."""

    path: Path
    user_path: Path
    bin_dir: Path

    def run(self, would: bool) -> None:
        try:
            text, old = read_settings(self.path)
        except (SettingsError, OSError):
            return
        if not would:
            unregister = lambda s: unregister_hooks(s, self.bin_dir)  # noqa: E731
            old, _, changed = write_settings(self.path, unregister, text, old)
            if not changed:
                return
        verb, count = "would remove" if would else "removed", len(own_entries(old, self.bin_dir))
        say(
            f"{verb} {count} hooks from {self.path}: {self.user_path} runs them in every project "
            "now, and both would run each hook twice"
        )
