"""ctx-pin: ``./install --project DIR --pin-decisions`` for a plugin install (no ./install
run): adds the line ``@.working-state/pinned.md`` to the project's CLAUDE.md and builds the
digest, with the installer's own functions; ``--remove`` takes the line out and deletes the
digest (the decisions log stays). The slash command /context-memory:pin runs it.
"""

from __future__ import annotations

import argparse
import sys

from context_memory.commands.common import cli_location
from context_memory.setup.install.pin import claude_md_change, pin
from context_memory.setup.install.venv import PREFIX, InstallError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ctx-pin",
        description="Pin the decisions digest: add @.working-state/pinned.md to the "
        "project's CLAUDE.md, so Claude Code sends it with every request.",
    )
    parser.add_argument("--project", help="the project (default: this session's project)")
    parser.add_argument("--remove", action="store_true", help="take the line out again")
    parser.add_argument("--dry-run", action="store_true", help="say what would change")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    project = args.project or cli_location()[0]
    # The installer's --pin-decisions / --uninstall steps, nothing of settings.json.
    try:
        change = claude_md_change(project, add=not args.remove, remove=args.remove)
        if change is None and not args.remove:
            return 1
        pin(project, change, remove=args.remove, dry_run=args.dry_run)
    except InstallError as exc:
        print(f"{PREFIX} error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
