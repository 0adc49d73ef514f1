"""Put the toolkit's commands on PATH, as pipx does: symlinks from a bin folder into the venv,
so that people (``ctx-usage``) and the agent's Bash tool (``ctx-decide``) find them by name.
Only links into this install's virtualenv are ever replaced or removed; anything else of
the same name is left alone and reported. ``LinkCommands`` is the installer's step.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from context_memory.core.command_table import SCRIPTS
from context_memory.setup.install.options import Step
from context_memory.setup.install.settings_edit import in_double_quotes
from context_memory.setup.install.venv import OWN_FOLDER_NAME, remove_files, say, warn
from context_memory.setup.platforms import home

# Every console script (core/command_table.SCRIPTS), as pipx and uv link them: which and
# why, docs/install.md. The hooks themselves run by absolute path.
LINKED_COMMANDS = tuple(SCRIPTS)

LINK_CREATE = "create"
LINK_KEEP = "keep"
LINK_UPDATE = "update"
LINK_CONFLICT = "conflict"
LINK_MISSING_TARGET = "missing-target"
LINK_CHANGES = (LINK_CREATE, LINK_UPDATE)  # what an install writes


def link_dir(environ: Mapping[str, str]) -> Path:
    """``$CTX_BIN_DIR``, else ``$XDG_BIN_HOME``, else ``~/.local/bin``."""
    for name in ("CTX_BIN_DIR", "XDG_BIN_HOME"):
        value = environ.get(name)
        if value:
            return Path(os.path.abspath(os.path.expanduser(value)))
    return Path(home(environ)) / ".local" / "bin"


def plan_links(
    venv_bin: Path, links: Path, commands: Sequence[str] = LINKED_COMMANDS
) -> list[tuple[str, str]]:
    """(command, action) for installing the links; pure apart from reading the folder."""
    plan = []
    for command in commands:
        link = links / command
        target: Path | None = None
        with contextlib.suppress(OSError):  # else no symlink there
            target = Path(os.readlink(link))
        if not os.path.lexists(link):
            action = LINK_CREATE if os.path.exists(venv_bin / command) else LINK_MISSING_TARGET
        elif target is not None and target.parent == venv_bin:
            action = LINK_KEEP
        elif target is not None and target.parent.name == "bin" and OWN_FOLDER_NAME in target.parts:
            # A link into another context-memory virtualenv (a moved CTX_VENV, an older
            # install): never traded for a dangling one.
            action = LINK_UPDATE if os.path.exists(venv_bin / command) else LINK_MISSING_TARGET
        else:
            action = LINK_CONFLICT
        plan.append((command, action))
    return plan


def plan_unlinks(
    venv_bin: Path, links: Path, commands: Sequence[str] = LINKED_COMMANDS
) -> list[str]:
    """The links an uninstall removes: only those pointing into this virtualenv (kept by an
    install)."""
    return [c for c, action in plan_links(venv_bin, links, commands) if action == LINK_KEEP]


def apply_links(venv_bin: Path, links: Path, plan: list[tuple[str, str]]) -> None:
    links.mkdir(parents=True, exist_ok=True)
    for command, action in plan:
        if action not in LINK_CHANGES:
            continue
        link = links / command
        tmp = links / f".{command}.context-memory.tmp"
        if os.path.lexists(tmp):
            tmp.unlink()
        tmp.symlink_to(venv_bin / command)
        os.replace(tmp, link)  # atomic: the command is never missing mid-update


def on_path(folder: Path, environ: Mapping[str, str]) -> bool:
    entries = environ.get("PATH", "").split(os.pathsep)
    return any(entry and os.path.abspath(entry) == str(folder) for entry in entries)


@dataclass(frozen=True)
class LinkCommands(Step):
    """The installer's step: the links in ``links`` into the venv's ``bin_dir`` (pipx
    style; ~/.local/bin, CTX_BIN_DIR), or with ``remove`` (--uninstall) the links there
    that point into ``bin_dir`` (a file of the same name that is not ours stays)."""

    bin_dir: Path
    links: Path
    remove: bool

    def run(self, would: bool) -> None:
        if self.remove:
            remove_files(self.links, plan_unlinks(self.bin_dir, self.links), "command links", would)
            return
        plan = plan_links(self.bin_dir, self.links)
        # The virtualenv may not exist yet: a dry run still names its commands.
        wanted = (*LINK_CHANGES, *[LINK_MISSING_TARGET] * would)
        new = [c for c, action in plan if action in wanted]
        if new and not would:
            apply_links(self.bin_dir, self.links, plan)
        if new:
            say(f"{'would link' if would else 'link'} {', '.join(new)} into {self.links}")
        for command, action in plan:
            if action == LINK_CONFLICT:
                warn(
                    f"{self.links / command} exists and is not ours; left "
                    f"alone (run {self.bin_dir / command} directly)"
                )
        if new and not on_path(self.links, os.environ):
            say(f"note: {path_note(self.links, os.environ)}")


def path_note(links: Path, environ: Mapping[str, str]) -> str:
    """What to do when ``links`` is not on PATH. Debian's and Ubuntu's ~/.profile already
    put ~/.local/bin on PATH when that folder exists at login, so there a new login is all
    it takes."""
    profile = os.path.join(home(environ), ".profile")
    try:
        with open(profile, encoding="utf-8", errors="replace") as handle:
            profile_text = handle.read(1 << 16)
    except OSError:
        profile_text = ""
    if links == Path(home(environ), ".local", "bin") and "$HOME/.local/bin" in profile_text:
        return (
            f"{links} is not on your PATH yet; your ~/.profile adds it when the folder exists "
            "at login, so log out and in again (or run: . ~/.profile) to run ctx-usage and "
            "ctx-decide by name"
        )
    return (
        f"{links} is not on your PATH; add it (for example "
        f'export PATH="{in_double_quotes(str(links))}:$PATH" in ~/.profile) to run '
        "ctx-usage and ctx-decide by name"
    )
