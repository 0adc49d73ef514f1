"""The installer's edit of one settings file: the write (backed up, redone when another
program changed the file meanwhile) of the settings wanted after the run
(settings_edit.desired_settings), and the installer's steps on settings files (see
install/plan.py), each saying what it would do (``show``: the diff) or doing it and saying
what it did (``apply``). Standard library only.
"""

from __future__ import annotations

import difflib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from context_memory.core.command_table import HOOKS
from context_memory.setup.install import record
from context_memory.setup.install.options import InstallOptions, Step
from context_memory.setup.install.settings_edit import (
    command_for,
    desired_settings,
    lookalike_entries,
    own_entries,
    register_hooks,
    statusline_note,
    unregister_hooks,
)
from context_memory.setup.install.settings_file import (
    Settings,
    SettingsError,
    backup_file,
    detect_indent,
    dumps_settings,
    read_settings,
    replace_if_unchanged,
)
from context_memory.setup.install.venv import PREFIX, InstallError, show_venv_plan

HOOK_NAMES = frozenset(spec.command for spec in HOOKS)
MAX_WRITE_ATTEMPTS = 1000
MAX_WRITE_SECONDS = 20


def runs_our_hooks(path: Path, bin_dir: Path) -> bool:
    """Whether the settings file ``path`` registers any of our hooks (an unreadable or
    damaged file counts as not: the hooks then go where they were asked to go)."""
    try:
        return bool(_own_count(read_settings(path)[1], bin_dir))
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
                print(f"{PREFIX} backed up {path} to {backup.name}")
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


def _own_count(settings: Settings, bin_dir: Path) -> int:
    return len(own_entries(settings, bin_dir, HOOK_NAMES))


def unified_diff(old_text: str | None, new_text: str, path: Path) -> str:
    """A unified diff of the settings file (``/dev/null`` when it does not exist yet)."""

    def lines(text: str) -> list[str]:
        return [line if line.endswith("\n") else line + "\n" for line in text.splitlines(True)]

    old_name = "/dev/null" if old_text is None else str(path)
    diff = difflib.unified_diff(lines(old_text or ""), lines(new_text), old_name, str(path))
    return "".join(diff)


@dataclass(frozen=True)
class EditSettings(Step):
    """One settings file: its text and settings now, and after this run. ``hooks_here``
    False: the user settings run the hooks already. ``first``: the place this run was
    asked for (its dry run shows the full report); the others are an uninstall's recorded
    places."""

    path: Path
    text: str | None
    old: Settings
    new: Settings
    options: InstallOptions
    hooks_here: bool
    user_path: Path
    first: bool

    def wanted(self, settings: Settings) -> Settings:
        """The settings after this run, for the file as it is when written."""
        return desired_settings(settings, self.options, self.hooks_here)

    def show(self) -> None:
        options, path, changed = self.options, self.path, self.new != self.old
        shown = dumps_settings(self.new, detect_indent(self.text)) if changed else ""
        restore, before = False, None
        if options.uninstall and changed:
            # What the run ends with: the file deleted, or its text from before put back.
            entry = record.load(options.venv)["settings"].get(str(path))
            restore, before = record.planned_restore(entry, self.new, path)
        if self.first:
            print(f"{PREFIX} dry run: nothing will be written")
            if not options.uninstall:
                show_venv_plan(options.venv)
            if not self.hooks_here:
                self._say_elsewhere()
        if restore and before is None:
            print(
                f"{PREFIX} would remove {_own_count(self.old, options.bin_dir)} hooks from "
                f"{path}, then delete it: {options.tool} had created it, and nothing else is in it"
            )
        elif changed:
            if restore:
                print(f"{PREFIX} would restore {path} to its text from before {options.tool}:")
            elif self.text is None:
                print(f"{PREFIX} would create {path}:")
            else:
                print(f"{PREFIX} would change {path} (after backing it up):")
            sys.stdout.write(unified_diff(self.text, shown if before is None else before, path))
        elif options.uninstall:
            print(f"{PREFIX} no context-memory hooks in {path}; nothing would change")
        elif self.hooks_here:
            print(f"{PREFIX} hooks already registered in {path}; nothing would change")
        self._say_note()

    def apply(self) -> None:
        options, path, bin_dir = self.options, self.path, self.options.bin_dir
        old, new, changed = self.old, self.new, False
        if new != old:
            old, new, changed = write_settings(path, self.wanted, self.text, old)
        removed = _own_count(old, bin_dir) - _own_count(new, bin_dir)
        if options.uninstall and not changed:
            print(f"{PREFIX} no context-memory hooks in {path}; nothing to change")
        elif options.uninstall:
            print(f"{PREFIX} removed {removed} hook{'' if removed == 1 else 's'} from {path}")
        elif not self.hooks_here:
            self._say_elsewhere()
            if removed:
                print(f"{PREFIX} removed {removed} hooks from {path} that ran twice")
        elif not changed:
            print(f"{PREFIX} hooks already registered in {path}; nothing to change")
        elif register_hooks(old, HOOKS, bin_dir) == old:
            print(f"{PREFIX} hooks already registered in {path}; only the status line changed")
        else:
            print(f"{PREFIX} registered {len(HOOKS)} hook{'' if len(HOOKS) == 1 else 's'} in "
                  f"{path}:")  # fmt: skip
            for spec in HOOKS:
                label = spec.event if spec.matcher is None else f"{spec.event} [{spec.matcher}]"
                command = command_for(bin_dir, spec.command)
                print(f"  {label}: {command} (timeout {spec.timeout} s)")
            print(f"{PREFIX} done; restart running Claude Code sessions to load the hooks")
        self._say_note()
        # Entries that run programs of our names from elsewhere: a warning, left alone.
        for event, program in lookalike_entries(new, bin_dir, HOOK_NAMES):
            print(
                f"{PREFIX} warning: {path} also runs {program} for {event}; that entry is "
                "not this install's, so it was left alone (delete it by hand if it is left over "
                "from an older install)",
                file=sys.stderr,
            )

    def _say_note(self) -> None:
        """What the run does to the status line (from the settings as they were read)."""
        note = statusline_note(self.old, self.options)
        if note:
            print(f"{PREFIX} {note}")

    def _say_elsewhere(self) -> None:
        print(
            f"{PREFIX} hooks already registered in {self.user_path}, which runs them in every "
            f"project; not registering them again in {self.path}"
        )


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
        print(
            f"{PREFIX} {'would remove' if would else 'removed'} {_own_count(old, self.bin_dir)} "
            f"hooks from {self.path}: "
            f"{self.user_path} runs them in every project now, and both would run each hook "
            "twice"
        )
