"""The installer's edit of one settings file: the settings wanted after the run (a pure
function of the parsed file and the options), what it does to the status line, the write
(backed up, redone when another program changed the file meanwhile), and the check that
every command the settings will name runs through ``sh`` as Claude Code runs it.
Standard library only.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from context_memory.setup.hook_registry import HOOKS
from context_memory.setup.install import launchers, record
from context_memory.setup.install.options import STATUSLINE_CHAIN
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
