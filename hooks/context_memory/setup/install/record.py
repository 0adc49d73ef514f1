"""What the installs added, so that ``--uninstall`` removes exactly that (docs/install.md,
Uninstalling): one record per account in ``<venv>/context-memory-install.json``, NoteInstall
adding to it, RestoreRecorded putting back what it kept. And the uninstall's end: the
virtualenv deleted or kept (UninstallVenv) and --purge's leftovers (PurgeLeftovers).
Standard library only: the installer runs with the system python.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from context_memory.core.fsutil import atomic_write, remove
from context_memory.setup.install import crontab
from context_memory.setup.install.options import Step
from context_memory.setup.install.settings_file import (
    BACKUP_INFIX,
    Settings,
    SettingsError,
    parse_settings,
    read_settings_text,
    replace_if_unchanged,
)
from context_memory.setup.install.venv import OWN_FOLDER_NAME, remove_empty, say

RECORD_NAME = "context-memory-install.json"
RECORD_VERSION = 1
MAX_RECORD_BYTES = 1 << 20
KEEP_BACKUPS = 3  # settings.json.bak-* files kept per settings file (the newest)
# What the toolkit writes into its cache folder: the session registry (core/session_registry)
# and the compaction counts (transcript/compaction_count).
CACHE_FOLDERS = ("sessions", "compactions")


def identity() -> str:
    """Whose install this is: one virtualenv may serve several accounts' settings (a shared
    CTX_VENV, or test runs with throwaway homes); an uninstall only replays its own."""
    names = ("HOME", "CLAUDE_CONFIG_DIR", "CTX_BIN_DIR", "XDG_BIN_HOME", crontab.USER_VAR)
    return json.dumps([os.environ.get(name) or "" for name in names])


def _load_all(venv: Path) -> dict[str, Any]:
    try:
        with open(venv / RECORD_NAME, "rb") as handle:
            data = json.loads(handle.read(MAX_RECORD_BYTES + 1)[:MAX_RECORD_BYTES])
    except (OSError, ValueError):
        return {}
    installs = data.get("installs") if isinstance(data, dict) else None
    return installs if isinstance(installs, dict) else {}


def load(venv: Path) -> dict[str, Any]:
    """This account's record (an empty one when missing, too big or damaged: the uninstall
    then does what it did before records existed, for the place it is run for)."""
    data = _load_all(venv).get(identity())
    data = data if isinstance(data, dict) else {}
    record: dict[str, Any] = {}
    for key in ("settings", "links", "cron"):  # each place -> its entry, a dict
        found = data[key] if isinstance(data.get(key), dict) else {}
        record[key] = {place: e if isinstance(e, dict) else {} for place, e in found.items()}
    for key in ("pinned", "made_folders"):
        found = data.get(key)
        record[key] = [p for p in found if isinstance(p, str)] if isinstance(found, list) else []
    return record


def save(venv: Path, record: dict[str, Any] | None) -> None:
    """Write this account's record (None: forget it) into the file, whole; the file is
    deleted when no account has a record left."""
    installs = _load_all(venv)
    if record is None:
        installs.pop(identity(), None)
    else:
        installs[identity()] = record
    path = venv / RECORD_NAME
    if not installs:
        remove(path)
        return
    document = {"version": RECORD_VERSION, "installs": installs}
    atomic_write(path, json.dumps(document, indent=1, sort_keys=True) + "\n")


@dataclass(frozen=True)
class NoteInstall(Step):
    """The installer's last step: this install's places (``added``, in the record's shape:
    see load) added to the record. The first install of a place wins: a re-run must not
    replace the settings text from before the first install."""

    venv: Path
    added: dict[str, Any]

    def run(self, would: bool) -> None:
        if would or not self.venv.is_dir():
            return
        record = load(self.venv)
        for key, value in self.added.items():
            if isinstance(value, dict):
                for place, entry in value.items():
                    record[key].setdefault(place, entry)
            else:
                record[key].extend(item for item in value if item not in record[key])
        save(self.venv, record)


@dataclass(frozen=True)
class RestoreRecorded(Step):
    """--uninstall, after our entries, lines and links are out of every place ``record``
    lists: the rest of what docs/install.md (Uninstalling) lists, then the record deleted.
    Its dry run shows nothing: the settings steps' dry runs show the restored text."""

    venv: Path
    record: dict[str, Any]
    tool: str  # what the messages call the installer

    def run(self, would: bool) -> None:
        if would:
            return
        record, tool = self.record, self.tool
        for where, entry in record["settings"].items():
            if _restore_settings(Path(where), entry, tool):
                _remove_our_backups(Path(where), entry.get("backups_before"), tool)
                if entry.get("folder_existed") is False:
                    remove_empty(Path(where).parent)  # the install made it
        if any(entry.get("crontab_was_empty") for entry in record["cron"].values()):
            crontab.delete_if_empty()
        for folder, entry in record["links"].items():
            if entry.get("created_folder"):
                remove_empty(Path(folder))  # other programs' commands stay
        if self.venv.is_dir():
            save(self.venv, None)


def planned_restore(entry: object, new: Settings, path: Path) -> tuple[bool, str | None]:
    """Whether ``RestoreRecorded`` will put back the settings file ``path`` once the
    uninstall has taken our entries out (``new``), so that a dry run shows that and not a
    rewrite: (True, None) deletes the file the install created, (True, text) puts back its
    text from before the first install. ``entry``: its record entry."""
    before = entry.get("before", False) if isinstance(entry, dict) else False
    if before is None:
        return new == {}, None
    if not isinstance(before, str):
        return False, None
    try:
        return (True, before) if parse_settings(before, path) == new else (False, None)
    except SettingsError:
        return False, None


def _restore_settings(path: Path, entry: dict[str, Any], tool: str) -> bool:
    """Put back the settings file's text from before the first install when what is there
    now means the same (only our entries were removed since): the user gets their exact
    bytes; a file the install created is deleted when it holds nothing any more. Only if no
    other program (a running Claude Code) changed it since it was read. True when the file
    is now as it was before the first install."""
    try:
        now_text = read_settings_text(path)
        if now_text is None or now_text == entry.get("before"):
            return now_text is not None or entry.get("before") is None
        restore, before = planned_restore(entry, parse_settings(now_text, path), path)
        if restore and before is None and read_settings_text(path) == now_text:
            path.unlink()
            say(f"deleted {path}, which {tool} had created")
            return True
    except (OSError, SettingsError):
        return False
    if restore and before is not None and replace_if_unchanged(path, now_text, before):
        say(f"restored {path} to its text from before {tool}")
        return True
    return False


def _remove_our_backups(path: Path, before: object, tool: str) -> None:
    """Once the settings file is as it was before the first install, the backups that the
    install (and this uninstall) made of it have nothing left to save: remove those, and
    only those. Without the list (a record of an older version) nothing is removed."""
    if not isinstance(before, list):
        return
    kept = {name for name in before if isinstance(name, str)}
    ours = [name for name in backup_names(path) if name not in kept]
    for old in (path.parent / name for name in ours):
        with contextlib.suppress(OSError):
            if old.is_file() and not old.is_symlink():
                old.unlink()
    if ours:
        noun = "backup" if len(ours) == 1 else "backups"
        say(f"removed {len(ours)} {noun} of {path} that {tool} had made")


def backup_names(path: Path) -> list[str]:
    """The ``<name>.bak-*`` copies of ``path`` in its folder, sorted ([]: unreadable)."""
    prefix = path.name + BACKUP_INFIX
    try:
        return sorted(n for n in os.listdir(path.parent) if n.startswith(prefix))
    except OSError:
        return []


def prune_backups(
    path: Path, keep: int = KEEP_BACKUPS, just_made: Path | None = None
) -> list[Path]:
    """Delete all but the newest ``keep`` ``<name>.bak-<UTC time>[-N]`` copies of ``path``
    (their names sort by time, then number); ``just_made`` is always one of those kept (in
    the same second it may have taken a freed, lower number). Returns the deleted ones."""
    prefix = path.name + BACKUP_INFIX
    names = backup_names(path)

    def order(name: str) -> tuple[str, int]:
        stamp, _, n = name[len(prefix) :].partition("-")
        return stamp, int(n) if n.isdigit() else 0

    newest = just_made.name if just_made is not None else None
    older = sorted((n for n in names if n != newest), key=order)
    deleted = []
    for name in older[: max(0, len(older) - (keep - 1 if newest in names else keep))]:
        old = path.parent / name
        if old.is_file() and not old.is_symlink():
            old.unlink()
            deleted.append(old)
    return deleted


@dataclass(frozen=True)
class UninstallVenv(Step):
    """The virtualenv at the end of an uninstall: deleted with ``purge``, else kept (and
    said so: ./install's own; ctx-install's belongs to pipx or uv)."""

    venv: Path
    purge: bool

    def run(self, would: bool) -> None:
        venv = self.venv
        if not self.purge:
            if not would:
                say(f"kept the virtualenv {venv} (./install --uninstall --purge deletes it)")
        elif not venv.exists():
            say(f"the virtualenv {venv} does not exist; nothing to delete")
        elif would:
            say(f"would delete the virtualenv {venv}")
        else:
            shutil.rmtree(venv)
            say(f"deleted the virtualenv {venv}")
            # The default place is <data>/context-memory/venv: its folder is ours too, and an
            # empty one left behind says something is still installed.
            if venv.parent.name == OWN_FOLDER_NAME and remove_empty(venv.parent):
                say(f"deleted the folder {venv.parent}, now empty")


@dataclass(frozen=True)
class PurgeLeftovers(Step):
    """--uninstall --purge, last: the toolkit's folders in its cache folder
    (session_registry.cache_dir) and that folder when nothing else is in it, and the
    folders the install script created for the virtualenv (``mkdir -p``) that are empty
    by then, deepest first."""

    cache: Path
    made_folders: tuple[Path, ...]

    def _ours(self) -> tuple[list[Path], bool]:
        """(the toolkit's folders in the cache, whether nothing else is there)."""
        cache = self.cache
        if not cache.is_dir() or cache.is_symlink():
            return [], False
        others = [name for name in os.listdir(cache) if name not in CACHE_FOLDERS]
        return [cache / n for n in CACHE_FOLDERS if os.path.lexists(cache / n)], not others

    def _made(self) -> list[Path]:
        deepest_first = sorted(self.made_folders, key=lambda p: len(p.parts), reverse=True)
        return [p for p in deepest_first if p.is_dir() and not p.is_symlink()]

    def run(self, would: bool) -> None:
        ours, alone = self._ours()
        if would:
            if ours or alone:
                say(f"would delete the cache folder {self.cache}")
            for folder in self._made():
                say(f"would delete the folder {folder} (./install made it) if it is empty then")
            return
        for folder in ours:
            if folder.is_symlink() or not folder.is_dir():
                folder.unlink()
            else:
                shutil.rmtree(folder)
        if self.cache.is_dir() and not self.cache.is_symlink():
            if remove_empty(self.cache):
                say(f"deleted the cache folder {self.cache}")
            elif ours:  # something else of the user's is in it
                say(f"deleted the toolkit's folders in the cache folder {self.cache}")
        for folder in self._made():
            if remove_empty(folder):  # else something else is in it now
                say(f"deleted the folder {folder}, which ./install had made, now empty")
