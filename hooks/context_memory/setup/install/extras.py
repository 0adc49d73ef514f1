"""What ./install sets up besides the hooks: the command links on PATH (``ctx-usage``,
``ctx-decide``, ... by name) and, with --cron, the hourly ctx-merge crontab line.
Standard library only.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from context_memory.setup.install import command_links, crontab
from context_memory.setup.install.venv import (
    PREFIX,
    REPO_ROOT,
)


def link_commands(args: argparse.Namespace, bin_dir: Path) -> None:
    """Commands on PATH (pipx style): symlinks in ~/.local/bin (CTX_BIN_DIR) into the venv."""
    if getattr(args, "no_links", False):
        return
    links = command_links.link_dir(os.environ)
    verb = "would " if args.dry_run else ""
    if args.uninstall:
        gone = command_links.plan_unlinks(bin_dir, links)
        if gone and not args.dry_run:
            command_links.remove_links(links, gone)
        if gone:
            print(f"{PREFIX} {verb}remove {len(gone)} command links from {links}")
        return
    plan = command_links.plan_links(bin_dir, links)
    wanted: tuple[str, ...] = (command_links.LINK_CREATE, command_links.LINK_UPDATE)
    if args.dry_run:  # the virtualenv may not exist yet: its commands are still what is linked
        wanted += (command_links.LINK_MISSING_TARGET,)
    new = [c for c, action in plan if action in wanted]
    if new and not args.dry_run:
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


def set_cron(args: argparse.Namespace, bin_dir: Path, project: str) -> None:
    """--cron: the crontab line that runs ctx-merge hourly for ``project``. --uninstall
    removes it (with --purge, also every line running this virtualenv's ctx-merge)."""
    asked = bool(getattr(args, "cron", False))
    user = crontab.crontab_user(os.environ)
    if args.uninstall:
        try:
            change = crontab.remove_merge_lines(
                project,
                bin_dir=str(bin_dir) if args.purge else None,
                dry_run=args.dry_run,
                user=user,
            )
        except crontab.CrontabError as exc:
            if asked:
                raise
            print(f"{PREFIX} warning: could not look for a ctx-merge line: {exc}", file=sys.stderr)
            return
    elif asked and args.dry_run and crontab._crontab_missing():
        print(
            f"{PREFIX} crontab: the crontab command is not installed (Debian/Ubuntu: sudo apt "
            "install cron), so ./install --cron would stop; the line it would add, for your "
            "scheduler:"
        )
        print(f"  {crontab.cron_line(str(bin_dir), project)}")
        return
    elif asked:
        change = crontab.add_merge_line(str(bin_dir), project, dry_run=args.dry_run, user=user)
    else:
        return
    for line in crontab.report_lines(change, project, dry_run=args.dry_run, asked=asked):
        print(line if line.startswith(" ") else f"{PREFIX} {line}")
    if asked and not args.uninstall and os.path.realpath(project) == str(REPO_ROOT):
        print(
            f"{PREFIX} note: {project} is this context-memory checkout; for your own "
            "project run ./install --cron --project DIR (or from that folder)"
        )
