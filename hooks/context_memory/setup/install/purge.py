"""``--uninstall``'s end: the virtualenv deleted (--purge) or kept (``UninstallVenv``),
and --purge's leftovers (``PurgeLeftovers``): the toolkit's folders in its cache folder
(``$CTX_CACHE_DIR``, else ``${XDG_CACHE_HOME:-~/.cache}/context-memory``) and that folder
when nothing else is in it, and the folders the install script created for the virtualenv
(``mkdir -p``, from the record) that are empty, deepest first. Standard library only.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from context_memory.setup.install.options import Step
from context_memory.setup.install.venv import PREFIX, remove_empty

# What the toolkit writes into its cache folder: the session registry (core/session_registry)
# and the compaction counts (transcript/compaction_count).
CACHE_FOLDERS = ("sessions", "compactions")


@dataclass(frozen=True)
class UninstallVenv(Step):
    """The virtualenv at the end of an uninstall: deleted with ``purge``, else kept (and
    said so: ./install's own; ctx-install's belongs to pipx or uv)."""

    venv: Path
    purge: bool

    def show(self) -> None:
        if self.purge and self.venv.exists():
            print(f"{PREFIX} would delete the virtualenv {self.venv}")
        elif self.purge:
            print(f"{PREFIX} the virtualenv {self.venv} does not exist; nothing to delete")

    def apply(self) -> None:
        venv = self.venv
        if not self.purge:
            print(f"{PREFIX} kept the virtualenv {venv} (./install --uninstall --purge deletes it)")
            return
        if not venv.exists():
            print(f"{PREFIX} the virtualenv {venv} does not exist; nothing to delete")
            return
        shutil.rmtree(venv)
        print(f"{PREFIX} deleted the virtualenv {venv}")
        # The default place is <data>/context-memory/venv: its folder is ours too, and an
        # empty one left behind says something is still installed.
        if venv.parent.name == "context-memory" and remove_empty(venv.parent):
            print(f"{PREFIX} deleted the folder {venv.parent}, now empty")


@dataclass(frozen=True)
class PurgeLeftovers(Step):
    """--uninstall --purge, last: the toolkit's cache folder, and the folders the install
    script created for the virtualenv that are empty by then."""

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

    def show(self) -> None:
        ours, alone = self._ours()
        if ours or alone:
            print(f"{PREFIX} would delete the cache folder {self.cache}")
        for folder in self._made():
            print(f"{PREFIX} would delete the folder {folder} (./install made it) if it is "
                  "empty then")  # fmt: skip

    def apply(self) -> None:
        ours, _ = self._ours()
        for folder in ours:
            if folder.is_symlink() or not folder.is_dir():
                folder.unlink()
            else:
                shutil.rmtree(folder)
        if self.cache.is_dir() and not self.cache.is_symlink():
            if remove_empty(self.cache):
                print(f"{PREFIX} deleted the cache folder {self.cache}")
            elif ours:  # something else of the user's is in it
                print(f"{PREFIX} deleted the toolkit's folders in the cache folder {self.cache}")
        for folder in self._made():
            if remove_empty(folder):  # else something else is in it now
                print(f"{PREFIX} deleted the folder {folder}, which ./install had made, now empty")
