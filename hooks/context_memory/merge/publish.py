"""Publishing the merged files together: a fresh generation folder ``<state>/.merged-*``,
then the ``merged`` symlink swapped to it in one rename, so a merge killed at any point
leaves the previous three files or the new three, never a mix.
"""

from __future__ import annotations

import os
import shutil
import time

from context_memory import TYPE_CHECKING
from context_memory.merge.layout import (
    GENERATION_PREFIX,
    LEGACY_PREFIX,
    MOVED_ASIDE_PREFIX,
    Problem,
    merged_dir,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


# --------------------------------------------------------------------------- publishing


def checkpoint(step: str) -> None:
    """Called between the writes of a merge; the crash tests replace it to pause (and be
    killed) at every step. Does nothing otherwise."""


def _fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def current_generation(state_dir: str) -> str | None:
    """The generation folder ``merged`` points at (a name in the state folder), or None."""
    link = merged_dir(state_dir)
    if os.path.islink(link):
        return os.path.basename(os.readlink(link))
    return None


def clean_generations(state_dir: str, keep: Iterable[str | None]) -> None:
    """Remove generation folders and temporary links that are not in ``keep`` (leftovers
    of killed merges, and generations older than the previous one). Under the lock only."""
    kept = {name for name in keep if name}
    try:
        names = os.listdir(state_dir)
    except OSError:
        return
    for name in names:
        if not name.startswith(GENERATION_PREFIX) or name in kept:
            continue
        if name.startswith(LEGACY_PREFIX):
            continue  # a folder made by hand, moved aside by an earlier version: never removed
        path = os.path.join(state_dir, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass


def publish(state_dir: str, files: Mapping[str, str], now: float) -> list[Problem]:
    """Make ``files`` (name -> text, written in order) the contents of ``merged/`` at once.

    They go into a new generation folder, are flushed to disk, and then the ``merged``
    symlink is replaced in one rename. Killed before the rename: ``merged`` still shows the
    previous files (the half-written folder is removed by the next merge); after it: the
    new ones, complete. The previous generation is kept until the next merge, so a reader
    that resolved the old path a moment ago can still open it. A ``merged`` that is not
    the toolkit's link (made by hand) is moved aside once, never removed; returned as a note.
    """
    notes: list[Problem] = []
    link = merged_dir(state_dir)
    previous = current_generation(state_dir)
    suffix = f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime(now))}-{os.getpid()}-"
    suffix += os.urandom(3).hex()
    generation = GENERATION_PREFIX + suffix
    folder = os.path.join(state_dir, generation)
    os.mkdir(folder)
    checkpoint("generation folder created")
    for name, text in files.items():
        with open(os.path.join(folder, name), "xb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        checkpoint(f"wrote {name}")
    _fsync_dir(folder)
    if os.path.lexists(link) and not os.path.islink(link):
        # A real folder or file (made by hand, or by an older layout) cannot be swapped in
        # one rename, and may hold the user's notes: moved aside under a name no merge
        # ever removes.
        aside = MOVED_ASIDE_PREFIX + suffix
        os.rename(link, os.path.join(state_dir, aside))
        notes.append(
            Problem(
                link,
                f"was not the toolkit's link (made by hand?); moved to {aside}, kept as it "
                "was. Copy your notes elsewhere and remove it",
            )
        )
    temporary_link = os.path.join(state_dir, GENERATION_PREFIX + "link-" + suffix)
    os.symlink(generation, temporary_link)
    checkpoint("ready to swap")
    os.replace(temporary_link, link)
    _fsync_dir(state_dir)
    checkpoint("swapped")
    clean_generations(state_dir, (generation, previous))
    return notes
