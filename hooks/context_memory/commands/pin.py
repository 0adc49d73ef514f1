"""ctx-pin: ``./install --project DIR --pin-decisions`` for a plugin install (no ./install
run): adds the line ``@.working-state/pinned.md`` to the project's CLAUDE.md and builds the
digest, with the installer's own functions; ``--remove`` takes the line out and deletes the
digest (the decisions log stays). The slash command /context-memory:pin runs it.

``--remove-auto-memory`` takes the toolkit's files and block out of Claude Code's auto
memory (memory/native.py) and stops this project's hooks mirroring there: what a plugin
user runs before ``claude plugin uninstall`` (./install --uninstall does it by itself).
"""

from __future__ import annotations

import argparse
import sys

from context_memory.commands.common import cli_location
from context_memory.core.state import PINNED_FILE, STATE_DIRNAME
from context_memory.setup.install.pin import PinLine, claude_md_change
from context_memory.setup.install.venv import PREFIX, InstallError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ctx-pin",
        description=f"Pin the decisions digest: add @{STATE_DIRNAME}/{PINNED_FILE} to the "
        "project's CLAUDE.md, so Claude Code sends it with every request.",
    )
    parser.add_argument("--project", help="the project (default: this session's project)")
    parser.add_argument("--remove", action="store_true", help="take the line out again")
    parser.add_argument("--dry-run", action="store_true", help="say what would change")
    parser.add_argument(
        "--remove-auto-memory",
        action="store_true",
        help="take the toolkit's lines and files out of Claude Code's auto memory",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    project, state_dir = cli_location()
    project = args.project or project
    if args.remove_auto_memory:
        return remove_auto_memory(project, state_dir, dry_run=args.dry_run)
    # The installer's --pin-decisions / --uninstall steps, nothing of settings.json.
    try:
        change = claude_md_change(project, add=not args.remove, remove=args.remove)
        if change is None and not args.remove:
            return 1
        PinLine(project, change, args.remove).run(would=args.dry_run)
    except InstallError as exc:
        print(f"{PREFIX} error: {exc}", file=sys.stderr)
        return 1
    return 0


def remove_auto_memory(project: str, state_dir: str, *, dry_run: bool) -> int:
    from context_memory.memory.native import remove_everywhere, toolkit_folders

    if dry_run:
        for folder in toolkit_folders([project]):
            print(f"{PREFIX} would take the toolkit's lines and files out of {folder}")
        return 0
    removed = remove_everywhere([project], state_dir)
    for item in removed:
        print(f"{PREFIX} removed {item}")
    if not removed:
        print(f"{PREFIX} nothing of the toolkit's in Claude Code's auto memory")
    return 0


if __name__ == "__main__":
    sys.exit(main())
