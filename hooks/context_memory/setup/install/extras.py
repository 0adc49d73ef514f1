"""What ./install sets up besides the hooks: the command links on PATH (``ctx-usage``,
``ctx-decide``, ... by name) and, with --cron, the hourly ctx-merge crontab line.
Standard library only.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from context_memory.setup.install import command_links, crontab
from context_memory.setup.install.venv import (
    PREFIX,
    REPO_ROOT,
)


def link_commands(bin_dir: Path, links: Path, *, dry_run: bool) -> None:
    """Commands on PATH (pipx style): symlinks in ``links`` (~/.local/bin, CTX_BIN_DIR)
    into the venv's ``bin_dir``."""
    verb = "would " if dry_run else ""
    plan = command_links.plan_links(bin_dir, links)
    wanted: tuple[str, ...] = (command_links.LINK_CREATE, command_links.LINK_UPDATE)
    if dry_run:  # the virtualenv may not exist yet: its commands are still what is linked
        wanted += (command_links.LINK_MISSING_TARGET,)
    new = [c for c, action in plan if action in wanted]
    if new and not dry_run:
        command_links.apply_links(bin_dir, links, plan)
    if new:
        print(f"{PREFIX} {verb}link {', '.join(new)} into {links}")
    for command, action in plan:
        if action == command_links.LINK_CONFLICT:
            print(
                f"{PREFIX} warning: {links / command} exists and is not ours; left alone "
                f"(run {bin_dir / command} directly)",
                file=sys.stderr,
            )
    if new and not command_links.on_path(links, os.environ):
        print(f"{PREFIX} note: {path_note(links, os.environ)}")


def unlink_commands(bin_dir: Path, links: Path, *, dry_run: bool) -> None:
    """--uninstall: remove the links in ``links`` that point into ``bin_dir`` (a file of the
    same name that is not ours stays), and say what was done (or would be)."""
    gone = command_links.plan_unlinks(bin_dir, links)
    if not gone:
        return
    if not dry_run:
        command_links.remove_links(links, gone)
    verb = "would remove" if dry_run else "removed"
    print(f"{PREFIX} {verb} {len(gone)} command links from {links}")


def path_note(links: Path, environ: Mapping[str, str]) -> str:
    """What to do when ``links`` is not on PATH. Debian's and Ubuntu's ~/.profile already
    put ~/.local/bin on PATH when that folder exists at login, so there a new login is all
    it takes."""
    home = environ.get("HOME") or os.path.expanduser("~")
    profile = os.path.join(home, ".profile")
    try:
        with open(profile, encoding="utf-8", errors="replace") as handle:
            profile_text = handle.read(1 << 16)
    except OSError:
        profile_text = ""
    if links == Path(home, ".local", "bin") and "$HOME/.local/bin" in profile_text:
        return (
            f"{links} is not on your PATH yet; your ~/.profile adds it when the folder exists "
            "at login, so log out and in again (or run: . ~/.profile) to run ctx-usage and "
            "ctx-decide by name"
        )
    return (
        f"{links} is not on your PATH; add it (for example "
        f'export PATH="{_in_double_quotes(str(links))}:$PATH" in ~/.profile) to run '
        "ctx-usage and ctx-decide by name"
    )


def _in_double_quotes(text: str) -> str:
    """``text`` escaped for the inside of a POSIX shell double-quoted string."""
    return "".join("\\" + ch if ch in '\\"$`' else ch for ch in text)


def set_cron(
    bin_dir: Path, project: str, *, asked: bool, remove: bool, purge: bool, dry_run: bool
) -> None:
    """``asked`` (--cron): the crontab line that runs ctx-merge hourly for ``project``.
    ``remove`` (--uninstall) removes it (with ``purge``, also every line running this
    virtualenv's ctx-merge)."""
    user = crontab.crontab_user(os.environ)
    if remove:
        try:
            change = crontab.remove_merge_lines(
                project,
                bin_dir=str(bin_dir) if purge else None,
                dry_run=dry_run,
                user=user,
            )
        except crontab.CrontabError as exc:
            if asked:
                raise
            print(f"{PREFIX} warning: could not look for a ctx-merge line: {exc}", file=sys.stderr)
            return
    elif asked and dry_run and crontab.crontab_missing():
        print(
            f"{PREFIX} crontab: the crontab command is not installed (Debian/Ubuntu: sudo apt "
            "install cron), so ./install --cron would stop; the line it would add, for your "
            "scheduler:"
        )
        print(f"  {crontab.cron_line(str(bin_dir), project)}")
        return
    elif asked:
        change = crontab.add_merge_line(str(bin_dir), project, dry_run=dry_run, user=user)
    else:
        return
    for line in crontab.report_lines(change, project, dry_run=dry_run, asked=asked):
        print(line if line.startswith(" ") else f"{PREFIX} {line}")
    if asked and not remove and os.path.realpath(project) == str(REPO_ROOT):
        print(
            f"{PREFIX} note: {project} is this context-memory checkout; for your own "
            "project run ./install --cron --project DIR (or from that folder)"
        )
