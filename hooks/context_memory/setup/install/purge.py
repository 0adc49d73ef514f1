"""``--uninstall --purge``, last step: what is left of the toolkit outside the virtualenv.

- The cache folder (``$CTX_CACHE_DIR``, else ``${XDG_CACHE_HOME:-~/.cache}/context-memory``):
  the folders the toolkit keeps there (``CACHE_FOLDERS``) are deleted, then the cache folder
  itself when nothing else is in it (a ``CTX_CACHE_DIR`` of the user's keeps their files).
- The folders the install script created for the virtualenv (``mkdir -p``, for example
  ``~/.local/share`` on a fresh account), from the record: each is removed when empty,
  deepest first; a folder that existed before, or holds anything, stays.

The installer's steps of an uninstall's end (see install/plan.py) are here too: the
virtualenv deleted (``PurgeVenv``) or kept (``KeepVenv``), and the leftovers
(``PurgeLeftovers``). Standard library only.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from context_memory.setup.install.venv import PREFIX

# What the toolkit writes into its cache folder: the session registry (core/session_registry)
# and the compaction counts (transcript/compaction_count).
CACHE_FOLDERS = ("sessions", "compactions")


def purge_cache_and_folders(
    cache: Path, made_folders: Sequence[Path], *, dry_run: bool
) -> list[str]:
    """Delete (``dry_run``: say it would) the cache and the empty made folders; returns the
    lines that say what was done."""
    lines: list[str] = []
    if cache.is_dir() and not cache.is_symlink():
        ours = [cache / name for name in CACHE_FOLDERS if os.path.lexists(cache / name)]
        others = [name for name in os.listdir(cache) if name not in CACHE_FOLDERS]
        if dry_run:
            if ours or not others:
                lines.append(f"would delete the cache folder {cache}")
        else:
            for folder in ours:
                if folder.is_symlink() or not folder.is_dir():
                    folder.unlink()
                else:
                    shutil.rmtree(folder)
            try:
                cache.rmdir()
                lines.append(f"deleted the cache folder {cache}")
            except OSError:  # something else of the user's is in it
                if ours:
                    lines.append(f"deleted the toolkit's folders in the cache folder {cache}")
    for folder in sorted(made_folders, key=lambda p: len(p.parts), reverse=True):
        if not folder.is_dir() or folder.is_symlink():
            continue
        if dry_run:
            lines.append(
                f"would delete the folder {folder} (./install made it) if it is empty then"
            )
            continue
        try:
            folder.rmdir()
        except OSError:
            continue  # not empty: something else is in it now
        lines.append(f"deleted the folder {folder}, which ./install had made, now empty")
    return lines


@dataclass(frozen=True)
class PurgeVenv:
    venv: Path

    def show(self) -> None:
        if self.venv.exists():
            print(f"{PREFIX} would delete the virtualenv {self.venv}")
        else:
            print(f"{PREFIX} the virtualenv {self.venv} does not exist; nothing to delete")

    def apply(self) -> None:
        venv = self.venv
        if not venv.exists():
            print(f"{PREFIX} the virtualenv {venv} does not exist; nothing to delete")
            return
        shutil.rmtree(venv)
        print(f"{PREFIX} deleted the virtualenv {venv}")
        parent = venv.parent
        if parent.name == "context-memory":
            # The default place is <data>/context-memory/venv: its folder is ours too, and
            # an empty one left behind says something is still installed.
            try:
                parent.rmdir()
            except OSError:
                return  # not empty: something else of the user's is in it
            print(f"{PREFIX} deleted the folder {parent}, now empty")


@dataclass(frozen=True)
class KeepVenv:
    venv: Path

    def show(self) -> None:
        pass

    def apply(self) -> None:
        print(
            f"{PREFIX} kept the virtualenv {self.venv} (./install --uninstall --purge deletes it)"
        )


@dataclass(frozen=True)
class PurgeLeftovers:
    """--uninstall --purge, last: the toolkit's cache folder, and the folders the install
    script created for the virtualenv that are empty by then."""

    cache: Path
    made_folders: tuple[Path, ...]

    def show(self) -> None:
        for line in purge_cache_and_folders(self.cache, self.made_folders, dry_run=True):
            print(f"{PREFIX} {line}")

    def apply(self) -> None:
        for line in purge_cache_and_folders(self.cache, self.made_folders, dry_run=False):
            print(f"{PREFIX} {line}")
