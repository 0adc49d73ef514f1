"""``./install`` and ``ctx-install``'s command line: the options parsed into
``InstallOptions``, then the plan made (install/plan.py) and carried out or, with
``--dry-run``, printed. The ``install`` script at the top of the repository creates the
virtualenv, pip-installs the package into it, then runs this module with the SYSTEM python
and ``PYTHONPATH=<repo>/hooks``: so this module, and everything it imports, is standard
library only and must not import the entry points it registers. Exit codes: 0 done (or
nothing to do), 1 refused (nothing was written), 2 bad command line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from context_memory import __version__
from context_memory.core import exit_codes
from context_memory.core.state import PINNED_FILE, STATE_DIRNAME
from context_memory.setup import platforms
from context_memory.setup.install import crontab
from context_memory.setup.install.options import STATUSLINE_ADD, STATUSLINE_CHAIN, InstallOptions
from context_memory.setup.install.pin import claude_md_change
from context_memory.setup.install.plan import carry_out, make_plan, settings_path
from context_memory.setup.install.settings_file import SettingsError, read_settings
from context_memory.setup.install.venv import (
    PLAN_CURRENT,
    PLAN_SKIP,
    PREFIX,
    REPO_ROOT,
    InstallError,
    default_venv,
    source_hash,
    venv_plan,
)

# The options of --help, in its order: what each does (each is a flag unless _KINDS says).
_HELP = {
    "--project": "register in DIR/.claude/settings.json instead of the user settings "
    "($CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json)",
    "--dry-run": "print what would change (a diff of the settings file) and write nothing",
    "--uninstall": "remove what ./install added, wherever it was added (it keeps a record in "
    "the virtualenv): the hooks and status line in every settings file, the command links, "
    "the crontab lines and the CLAUDE.md line of --pin-decisions; settings files it "
    "created are deleted, others get their text from before ./install back when only "
    f"its entries changed. Keeps the virtualenv and your {STATE_DIRNAME} folders",
    "--purge": "with --uninstall: also delete the virtualenv",
    "--venv": "the virtualenv (default: $CTX_VENV, else "
    "${XDG_DATA_HOME:-~/.local/share}/context-memory/venv)",
    "--statusline": "also set ctx-statusline as Claude Code's status line (it makes the "
    "hooks' window exact). An existing status line of yours is kept; --statusline=chain "
    "runs yours first, then ctx-statusline (--uninstall restores yours)",
    "--cron": "also add a line to your crontab that runs ctx-merge --quiet hourly for the "
    "project (--project DIR, else the current directory); running it again changes "
    "nothing, --uninstall removes it",
    "--pin-decisions": f"also add the line @{STATE_DIRNAME}/{PINNED_FILE} to the project's "
    "CLAUDE.md (--project DIR, else the current directory) and build that digest of the "
    "project's decisions: the client then sends it with every request, so no "
    "compaction can lose it; --uninstall removes the line",
}
_KINDS: dict[str, dict[str, Any]] = {
    "--project": {"metavar": "DIR"},
    "--venv": {"metavar": "DIR"},
    "--statusline": {
        "nargs": "?",
        "const": STATUSLINE_ADD,
        "choices": (STATUSLINE_ADD, STATUSLINE_CHAIN),
    },
}


def build_parser(prog: str = "install") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        allow_abbrev=False,
        description=(
            "Install context-memory: register its hooks in Claude Code's settings.json "
            "(the ./install script first creates the private virtualenv they run from). "
            "Running it again changes nothing; the settings file is backed up before any "
            "change."
        ),
    )
    for option, text in _HELP.items():
        parser.add_argument(option, help=text, **_KINDS.get(option, {"action": "store_true"}))
    # For ctx-install: pipx and uv link the commands themselves; leave their links alone.
    parser.add_argument("--no-links", action="store_true", help=argparse.SUPPRESS)
    # For ctx-install: where our launchers go in a virtualenv pipx or uv owns.
    parser.add_argument("--launcher-dir", metavar="DIR", help=argparse.SUPPRESS)
    # For the install script: each folder it created for the virtualenv (for --purge).
    parser.add_argument("--made-folder", action="append", default=[], help=argparse.SUPPRESS)
    # For the install script: print "<plan> <source hash>" (see venv_plan) and exit.
    parser.add_argument("--venv-plan", action="store_true", help=argparse.SUPPRESS)
    # "install" alone does not say what it installs; ctx-install answers as every ctx-* does.
    name = "%(prog)s (context-memory)" if prog == "install" else "%(prog)s"
    parser.add_argument("--version", action="version", version=f"{name} {__version__}")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "install") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    try:
        refusal = platforms.unsupported()
        if refusal is not None:
            raise InstallError(refusal)
        if args.purge and not args.uninstall:
            parser.error("--purge only goes with --uninstall")
        options = options_from(args, prog)
        if args.venv_plan:
            return print_venv_plan(options)
        carry_out(make_plan(options), options)
    except (SettingsError, InstallError, crontab.CrontabError) as exc:
        print(f"{PREFIX} error: {exc}", file=sys.stderr)
        return exit_codes.FAILURE
    except OSError as exc:
        where = f" {exc.filename}:" if exc.filename else ""
        print(f"{PREFIX} error:{where} {exc.strerror or exc}", file=sys.stderr)
        return exit_codes.FAILURE
    return exit_codes.OK


def options_from(args: argparse.Namespace, prog: str) -> InstallOptions:
    """The parsed command line as typed options: the only place that sees the Namespace."""
    return InstallOptions(
        venv=Path(os.path.abspath(args.venv or default_venv(os.environ))),
        project=args.project,
        dry_run=args.dry_run,
        uninstall=args.uninstall,
        purge=args.purge,
        statusline=args.statusline,
        cron=args.cron,
        pin_decisions=args.pin_decisions,
        links=not args.no_links,
        tool="./install" if prog == "install" else prog,
        launcher_dir=Path(os.path.abspath(args.launcher_dir)) if args.launcher_dir else None,
        made_folders=tuple(Path(os.path.abspath(folder)) for folder in args.made_folder),
    )


def print_venv_plan(options: InstallOptions) -> int:
    """For the install script: "<plan> <source hash>" (see venv_plan), after refusing an
    unusable settings file or CLAUDE.md before the script spends a minute on pip."""
    venv = options.venv
    read_settings(settings_path(options))
    if options.pin_decisions and not options.uninstall:
        claude_md_change(options.project or os.getcwd(), add=True, remove=False)
    plan = PLAN_SKIP if options.dry_run or options.uninstall else venv_plan(venv, REPO_ROOT)
    if plan not in (PLAN_SKIP, PLAN_CURRENT) and "$" in str(venv):
        # pip will build: setuptools expands $name in its install paths, so it fails half-way.
        raise InstallError(
            f"the virtualenv path {venv} contains '$', which pip's build tools "
            "cannot install into. Set CTX_VENV to a folder without '$' (for example "
            "CTX_VENV=/opt/context-memory/venv ./install), then run ./install again. "
            "Nothing was changed."
        )
    print(plan, source_hash(REPO_ROOT))
    return exit_codes.OK


if __name__ == "__main__":
    sys.exit(main())
