"""The installer's edit of one settings file: the settings wanted after the run (a pure
function of the parsed file and the options), what it does to the status line, the write
(backed up, redone when another program changed the file meanwhile), and the check that
every command the settings will name runs through ``sh`` as Claude Code runs it. The
installer's steps on settings files (see install/plan.py) are here too, each saying what it
would do (``show``) or doing it (``apply``). Standard library only.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from context_memory.core.command_table import HOOKS
from context_memory.setup.install import launchers, record
from context_memory.setup.install.options import STATUSLINE_CHAIN
from context_memory.setup.install.report import (
    report_dry_run,
    report_hooks_elsewhere,
    report_install,
    report_uninstall,
    show_settings_change,
    warn_lookalikes,
)
from context_memory.setup.install.settings_edit import (
    STATUSLINE_ADDED,
    STATUSLINE_CHAINED,
    STATUSLINE_KEPT_THEIRS,
    STATUSLINE_NOT_CHAINABLE,
    STATUSLINE_PROGRAM,
    STATUSLINE_UPDATED,
    command_for,
    own_entries,
    parse_own_statusline,
    refresh_statusline,
    register_hooks,
    set_statusline,
    unregister_hooks,
    unset_statusline,
)
from context_memory.setup.install.settings_file import (
    Settings,
    SettingsError,
    backup_file,
    detect_indent,
    dumps_settings,
    parse_settings,
    read_settings_text,
    replace_if_unchanged,
)
from context_memory.setup.install.venv import PREFIX, InstallError

HOOK_NAMES = frozenset(spec.command for spec in HOOKS)
MAX_WRITE_ATTEMPTS = 1000
MAX_WRITE_SECONDS = 20
VERIFY_TIMEOUT_SECONDS = 60


def desired_settings(
    settings: Settings,
    bin_dir: Path,
    *,
    uninstall: bool = False,
    statusline: str | None = None,
    hooks_here: bool = True,
) -> Settings:
    """The settings after this run: a pure function of the parsed file and the options.
    ``hooks_here`` False: another settings file (the user's) runs our hooks in every
    project already, so this one must not run them a second time."""
    if uninstall:
        return unset_statusline(unregister_hooks(settings, bin_dir), bin_dir)[0]
    if hooks_here:
        new = register_hooks(settings, HOOKS, bin_dir)
    else:
        new = unregister_hooks(settings, bin_dir)
    if statusline:
        return set_statusline(new, bin_dir, chain=statusline == STATUSLINE_CHAIN)[0]
    return refresh_statusline(new, bin_dir)


def statusline_note(
    settings: Settings, bin_dir: Path, *, uninstall: bool, statusline: str | None
) -> str | None:
    """What this run does to the status line, for people; None when it does nothing."""
    current = settings.get("statusLine")
    if uninstall:
        own, chained = parse_own_statusline(current, bin_dir)
        if not own:
            return None
        if chained is None:
            return f"status line: removed {STATUSLINE_PROGRAM}"
        return f"status line: restored yours ({chained})"
    if not statusline:
        return None
    _, outcome = set_statusline(settings, bin_dir, chain=statusline == STATUSLINE_CHAIN)
    theirs = current.get("command") if isinstance(current, dict) else None
    return {
        STATUSLINE_ADDED: f"status line: {STATUSLINE_PROGRAM} (context bar after every reply)",
        STATUSLINE_CHAINED: f"status line: yours ({theirs}) first, then {STATUSLINE_PROGRAM}",
        STATUSLINE_UPDATED: f"status line: {STATUSLINE_PROGRAM} now runs from {bin_dir}",
        STATUSLINE_KEPT_THEIRS: (
            f"status line: you already have one ({theirs}); it was kept. To show both "
            f"(yours first, then {STATUSLINE_PROGRAM}), run ./install --statusline=chain"
        ),
        STATUSLINE_NOT_CHAINABLE: (
            "status line: yours is not a command that ctx-statusline can run first; it was kept"
        ),
    }.get(outcome, f"status line: {STATUSLINE_PROGRAM} is already set")


def read_settings(path: Path) -> tuple[str | None, Settings]:
    """(the file's text or None, its parsed settings); SettingsError for an unusable file."""
    text = read_settings_text(path)
    return text, parse_settings(text, path)


def runs_our_hooks(path: Path, bin_dir: Path) -> bool:
    """Whether the settings file ``path`` registers any of our hooks (an unreadable or
    damaged file counts as not: the hooks then go where they were asked to go)."""
    try:
        text = read_settings_text(path)
        settings = parse_settings(text, path) if text is not None else {}
    except (SettingsError, OSError):
        return False
    return bool(own_entries(settings, bin_dir, {spec.command for spec in HOOKS}))


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


def registered_programs(settings: Settings, bin_dir: Path) -> list[str]:
    """The programs of ``bin_dir`` that ``settings`` runs (hooks, and our status line)."""
    names = dict.fromkeys(spec.command for spec in HOOKS)
    own, _ = parse_own_statusline(settings.get("statusLine"), bin_dir)
    if own:
        names[STATUSLINE_PROGRAM] = None
    return list(names)


def prepare_programs(venv: Path, programs: Sequence[str], bin_dir: Path | None = None) -> None:
    """Our launchers in ``bin_dir`` (default ``<venv>/bin``), not pip's wrappers (see
    launchers.py); then each command that the settings will name must run through sh, as
    the client runs it, before anything of the user's is changed."""
    try:
        launchers.write_launchers(venv, bin_dir)
    except launchers.LauncherError as exc:
        raise InstallError(str(exc)) from None
    verify_commands(bin_dir or venv / "bin", programs)


def verify_commands(bin_dir: Path, programs: Sequence[str]) -> None:
    """Run each program once as Claude Code will, ``sh -c '<command as registered>'``, with
    ``--version`` (which our launchers answer without doing anything); raise InstallError
    naming the first that does not run."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for name in programs:
        command = command_for(bin_dir, name)
        try:
            done = subprocess.run(
                ["/bin/sh", "-c", f"{command} {launchers.VERSION_OPTION}"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                env=environment,
                timeout=VERIFY_TIMEOUT_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            problem = f"it did not finish in {VERIFY_TIMEOUT_SECONDS} s"
        else:
            out = done.stdout.decode("utf-8", "replace")
            if done.returncode == 0 and out.startswith(f"{name} "):
                continue
            err = " ".join(done.stderr.decode("utf-8", "replace").split())[-300:]
            problem = f"exit status {done.returncode}" + (f": {err}" if err else "")
        raise InstallError(
            f"the command {command} does not run through sh as Claude Code will run it "
            f"({problem}), so the settings were not changed. Run ./install again (it "
            "reinstalls the virtualenv); if that does not help, set CTX_VENV to a folder "
            "whose path has only plain characters."
        )


def _now() -> datetime | None:
    """The backup timestamp (None = the clock); tests replace this."""
    return None


# --------------------------------------------------------------------------- the steps


@dataclass(frozen=True)
class PreparePrograms:
    """Write our launchers into ``bin_dir`` and run each registered program once."""

    venv: Path
    programs: tuple[str, ...]
    bin_dir: Path | None = None  # None: <venv>/bin (./install's own virtualenv)

    def show(self) -> None:
        pass  # not planned for a dry run

    def apply(self) -> None:
        prepare_programs(self.venv, self.programs, self.bin_dir)


@dataclass(frozen=True)
class EditSettings:
    """One settings file: its text and settings now, and after this run."""

    path: Path
    text: str | None
    old: Settings
    new: Settings
    bin_dir: Path
    uninstall: bool
    statusline: str | None
    hooks_here: bool  # False: the user settings run the hooks already
    user_path: Path
    first: bool  # the place this run was asked for (its dry run shows the full report)
    venv: Path
    tool: str  # ./install or ctx-install, for the messages

    def show(self) -> None:
        changed = self.new != self.old
        new_text = dumps_settings(self.new, detect_indent(self.text)) if changed else None
        restore: str | None = None
        if self.uninstall and changed:
            # What the run ends with: the file deleted, or its text from before put back.
            entry = record.load(self.venv)["settings"].get(str(self.path))
            restore, before = record.planned_restore(entry, self.new, self.path)
            if restore == record.RESTORE_DELETE:
                if self.first:
                    print(f"{PREFIX} dry run: nothing will be written")
                removed = len(own_entries(self.old, self.bin_dir, HOOK_NAMES))
                print(
                    f"{PREFIX} would remove {removed} hooks from {self.path}, then delete it: "
                    f"{self.tool} had created it, and nothing else is in it"
                )
                return
            if restore == record.RESTORE_TEXT and before is not None:
                new_text = before
        shown = new_text if new_text is not None else self.text or ""
        restore_of = restore and self.tool
        if not self.first:
            show_settings_change(
                self.path, self.text, shown, changed, uninstall=True, restore_of=restore_of
            )
            return
        report_dry_run(
            uninstall=self.uninstall,
            venv=self.venv,
            path=self.path,
            text=self.text,
            new_text=shown,
            changed=changed,
            hooks_here=self.hooks_here,
            user_path=self.user_path,
            restore_of=restore_of,
        )

    def apply(self) -> None:
        def wanted(settings: Settings) -> Settings:
            return desired_settings(
                settings,
                self.bin_dir,
                uninstall=self.uninstall,
                statusline=self.statusline,
                hooks_here=self.hooks_here,
            )

        old, new, changed = self.old, self.new, False
        if new != old:
            old, new, changed = write_settings(self.path, wanted, self.text, old)
        if self.uninstall:
            report_uninstall(old, new, self.path, self.bin_dir, changed)
        elif not self.hooks_here:
            report_hooks_elsewhere(old, new, self.path, self.bin_dir, self.user_path)
        elif changed and register_hooks(old, HOOKS, self.bin_dir) == old:
            print(f"{PREFIX} hooks already registered in {self.path}; only the status line "
                  "changed")  # fmt: skip
        else:
            report_install(self.path, self.bin_dir, changed)


@dataclass(frozen=True)
class StatuslineNote:
    text: str

    def show(self) -> None:
        print(f"{PREFIX} {self.text}")

    def apply(self) -> None:
        print(f"{PREFIX} {self.text}")


@dataclass(frozen=True)
class WarnLookalikes:
    """Entries that run programs of our names from elsewhere: a warning, left alone."""

    path: Path
    bin_dir: Path

    def show(self) -> None:
        pass

    def apply(self) -> None:
        try:
            _, settings = read_settings(self.path)
        except (SettingsError, OSError):
            return
        warn_lookalikes(settings, self.path, self.bin_dir)


@dataclass(frozen=True)
class DropProjectHooks:
    """A project settings file an earlier --project install registered the hooks in, now
    that the user settings run them in every project: our hooks out of it (the status
    line and the rest stay)."""

    path: Path
    user_path: Path
    bin_dir: Path

    def show(self) -> None:
        try:
            _, old = read_settings(self.path)
        except (SettingsError, OSError):
            return
        self._say(old, "would remove")

    def apply(self) -> None:
        try:
            text, old = read_settings(self.path)
        except (SettingsError, OSError):
            return
        unregister = lambda s: unregister_hooks(s, self.bin_dir)  # noqa: E731
        old, _, changed = write_settings(self.path, unregister, text, old)
        if changed:
            self._say(old, "removed")

    def _say(self, old: Settings, verb: str) -> None:
        removed = len(own_entries(old, self.bin_dir, HOOK_NAMES))
        print(
            f"{PREFIX} {verb} {removed} hooks from {self.path}: {self.user_path} runs them in "
            "every project now, and both would run each hook twice"
        )
