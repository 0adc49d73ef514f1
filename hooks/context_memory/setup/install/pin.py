"""``./install --pin-decisions`` and its undoing: the import line in the project's CLAUDE.md
(shown as a diff, written atomically) and the pinned digest next to the state folder
(``PinLine``), and for --uninstall the toolkit's files and block out of Claude Code's
auto-memory folders (``AutoMemory``; memory/native.py removes them). Standard library only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from context_memory.core import fsutil
from context_memory.pinned import claude_md
from context_memory.pinned import digest as pinned_digest
from context_memory.pinned import store as pinned
from context_memory.setup.install.options import Step
from context_memory.setup.install.venv import InstallError, say, warn


class ClaudeMdChange(NamedTuple):
    """The project's CLAUDE.md: where it is written (a symlink's target), its text
    (None: no such file) and its text after this run (None: unchanged)."""

    shown: Path
    target: Path
    old: str | None
    new: str | None


def claude_md_change(project: str, *, add: bool, remove: bool) -> ClaudeMdChange | None:
    """What ``add`` (--pin-decisions: the import line) or ``remove`` (--uninstall) does to
    ``project``/CLAUDE.md; None when neither applies. Raises InstallError for a file that
    cannot be edited safely (not UTF-8, not a file) when asked to add the line; a removal
    only warns then."""
    if not add and not remove:
        return None
    shown = Path(project) / pinned.CLAUDE_MD
    target = Path(os.path.realpath(shown)) if shown.is_symlink() else shown
    problem = None
    text: str | None = None
    try:
        text = target.read_bytes().decode("utf-8")
    except FileNotFoundError:
        text = None
    except UnicodeDecodeError as exc:
        problem = f"{shown} is not UTF-8 text (byte {exc.start})"
    except OSError as exc:
        problem = f"{shown}: {exc.strerror or exc}"
    if problem is not None:
        line = f"{problem}; left alone. Edit the line {pinned.IMPORT_LINE} in it by hand"
        if add and not remove:
            raise InstallError(line)
        warn(line)
        return None
    if remove:
        new = claude_md.without_import_line(text) if text is not None else None
    else:
        new = claude_md.with_import_line(text)
    return ClaudeMdChange(shown, target, text, new)


@dataclass(frozen=True)
class PinLine(Step):
    """The installer's step: --pin-decisions (or with ``remove``, its undoing) for
    ``project``; ``change`` from claude_md_change (None: nothing to do)."""

    project: str
    change: ClaudeMdChange | None
    remove: bool

    def run(self, would: bool) -> None:
        """--pin-decisions: the import line in CLAUDE.md and the digest built at once.
        --uninstall: the line removed (nothing else of the file) and the digest deleted."""
        change = self.change
        if change is None:
            return
        from context_memory.core.state import UnsafeNameError, check_state_dir, usual_state_dir

        try:  # the usual folder, CTX_STATE_DIR or not: CLAUDE.md's line names it
            state_dir = check_state_dir(usual_state_dir(self.project))
        except UnsafeNameError as exc:
            raise InstallError(str(exc)) from None
        verb, line = "would " if would else "", pinned.IMPORT_LINE
        digest = pinned.digest_path(state_dir)
        if change.new is not None and not would:
            if change.old is not None and change.new == "":
                # Only the import line an install added was in it: nothing of the user's is left.
                os.unlink(change.target)
            else:
                fsutil.atomic_write(change.target, change.new)
        if self.remove:
            if change.new is not None:
                say(f"pinned digest: {verb}remove the line {line} from {change.shown}")
            if pinned.enabled(state_dir):
                with open(digest, "rb") as handle:
                    ours = handle.read(len(pinned_digest.TITLE)) == pinned_digest.TITLE.encode()
                if not ours:
                    say(f"pinned digest: {digest} is not one context-memory wrote; left alone")
                    return
                if not would:
                    for path in (digest, pinned.index_path(state_dir), digest + ".lock"):
                        fsutil.remove(path)
                say(f"pinned digest: {verb}delete {digest} (rebuilt from the decisions log, "
                    "which is kept)")  # fmt: skip
            return
        if change.new is None:
            say(f"pinned digest: {change.shown} already imports {line}")
        elif change.old is None:
            say(f"pinned digest: {verb}create {change.shown} with the line {line}")
        else:
            say(f"pinned digest: {verb}add the line {line} to {change.shown}")
        if would:
            say(f"pinned digest: would build {digest}")
            return
        cap, warning = pinned.cap_tokens()
        if warning:
            warn(warning)
        built = pinned.rebuild(state_dir, cap)
        say(f"pinned digest: {pinned.describe(built, digest)}; Claude Code sends it with "
            "every request")  # fmt: skip


@dataclass(frozen=True)
class AutoMemory(Step):
    """--uninstall: every auto-memory folder of ``projects`` (this run's and the projects
    the install record names) and every ``~/.claude/projects/*/memory``."""

    projects: tuple[str, ...]

    def run(self, would: bool) -> None:
        from context_memory.memory.native import remove_everywhere, toolkit_folders

        if would:
            for folder in toolkit_folders(self.projects):
                say(f"would take the toolkit's lines and files out of {folder}")
            return
        for item in remove_everywhere(self.projects):
            say(f"removed {item}")
