"""What one run of the installer was asked to do, ``InstallOptions`` (from install/cli.py's
command line, or by hand for ctx-pin and tests; below that layer, never an argparse
Namespace), and the shape of the run's steps, ``Step``. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

STATUSLINE_ADD = "add"
STATUSLINE_CHAIN = "chain"


@dataclass(frozen=True)
class InstallOptions:
    venv: Path  # absolute: the virtualenv whose programs are registered
    project: str | None = None  # --project DIR: its .claude/settings.json, else the user's
    dry_run: bool = False
    uninstall: bool = False
    purge: bool = False  # with uninstall: delete the virtualenv too
    statusline: str | None = None  # STATUSLINE_ADD, STATUSLINE_CHAIN or None
    cron: bool = False
    pin_decisions: bool = False
    links: bool = True  # False for ctx-install: pipx and uv link the commands themselves
    tool: str = "./install"  # what the messages call the installer
    # Where our launchers go, and so the programs the settings name. None: <venv>/bin, for
    # ./install's own virtualenv. ctx-install in a virtualenv that pipx or uv owns gives
    # <venv>/context-memory/bin: their wrappers in <venv>/bin are never rewritten.
    launcher_dir: Path | None = None
    # The folders the install script created for the virtualenv (``mkdir -p``), deepest
    # first: recorded, so that --purge removes those of them that are empty then.
    made_folders: tuple[Path, ...] = ()

    @property
    def bin_dir(self) -> Path:
        """The folder of the programs the settings run (our launchers)."""
        return self.launcher_dir if self.launcher_dir is not None else self.venv / "bin"


class Step:
    """One step of a run, next to the code it drives (see install/plan.py): ``run`` says
    what it ``would`` change where (--dry-run: nothing written), or does it and says what it
    did; a step that only acts shows nothing."""

    def run(self, would: bool) -> None:
        raise NotImplementedError
