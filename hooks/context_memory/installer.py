"""``./install``: register context-memory's hooks in a Claude Code settings file.

The ``install`` script at the top of the repository finds Python 3.10+, creates the private
virtualenv and pip-installs the package into it, then runs this module with the SYSTEM
python and ``PYTHONPATH=<repo>/hooks``. So this module, and everything it imports, is
standard library only and must not import the entry points it registers.

    python -m context_memory.installer [--project DIR] [--dry-run] [--uninstall [--purge]]
                                       [--venv DIR]

Exit codes: 0 done (or nothing to do), 1 refused (settings file unusable, virtualenv
missing, ...; nothing was written), 2 bad command line.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

from context_memory.hook_registry import HOOKS, HookSpec
from context_memory.settings_edit import (
    Settings,
    SettingsError,
    atomic_write_text,
    backup_file,
    command_for,
    detect_indent,
    dumps_settings,
    lookalike_entries,
    own_entries,
    parse_settings,
    read_settings_text,
    register_hooks,
    unregister_hooks,
)

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2  # argparse's own code

PREFIX = "context-memory:"
STAMP_NAME = "context-memory.stamp"
# The source tree this module was loaded from (``<repo>/hooks/context_memory/installer.py``).
REPO_ROOT = Path(__file__).resolve().parents[2]

# Venv states, as printed by ``--venv-plan`` for the install script.
PLAN_SKIP = "skip"  # --dry-run / --uninstall: the script must not touch the virtualenv
PLAN_CURRENT = "current"  # holds this exact source: no pip
PLAN_CREATE = "create"  # missing or empty folder
PLAN_RECREATE = "recreate"  # a virtualenv whose python no longer runs
PLAN_UPDATE = "update"  # a working virtualenv without this source: pip install


class InstallError(Exception):
    """Refused; ``str()`` is the whole message for people."""


# --------------------------------------------------------------------------- locations


def default_venv(environ: Mapping[str, str]) -> str:
    """``$CTX_VENV``, else ``${XDG_DATA_HOME:-$HOME/.local/share}/context-memory/venv``."""
    if environ.get("CTX_VENV"):
        return environ["CTX_VENV"]
    data_home = environ.get("XDG_DATA_HOME") or os.path.join(
        environ.get("HOME") or os.path.expanduser("~"), ".local", "share"
    )
    return os.path.join(data_home, "context-memory", "venv")


def settings_path_for(project: str | None, environ: Mapping[str, str]) -> Path:
    """``DIR/.claude/settings.json`` for ``--project DIR``; else the user settings file,
    ``$CLAUDE_CONFIG_DIR/settings.json`` or ``~/.claude/settings.json``."""
    if project is not None:
        return Path(os.path.abspath(project)) / ".claude" / "settings.json"
    config_dir = environ.get("CLAUDE_CONFIG_DIR")
    if not config_dir:
        config_dir = os.path.join(environ.get("HOME") or os.path.expanduser("~"), ".claude")
    return Path(os.path.abspath(os.path.expanduser(config_dir))) / "settings.json"


# --------------------------------------------------------------------------- virtualenv


def source_hash(repo: Path) -> str:
    """sha256 over ``pyproject.toml`` and the ``hooks/`` tree (paths and contents), leaving
    out build and bytecode litter (``__pycache__``, ``*.pyc``, ``*.egg-info``) that pip
    and Python write there themselves."""
    files = [repo / "pyproject.toml"]
    for folder, dirnames, filenames in os.walk(repo / "hooks"):
        dirnames[:] = [d for d in dirnames if d != "__pycache__" and not d.endswith(".egg-info")]
        files.extend(
            Path(folder, name) for name in filenames if not name.endswith((".pyc", ".pyo"))
        )
    digest = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(repo).as_posix()):
        digest.update(path.relative_to(repo).as_posix().encode())
        digest.update(b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def venv_plan(venv: Path, repo: Path, specs: Sequence[HookSpec] = HOOKS) -> str:
    """What the install script must do to ``venv`` so it holds the source in ``repo``:
    PLAN_CURRENT, PLAN_CREATE, PLAN_RECREATE or PLAN_UPDATE. Raises InstallError for a
    folder that is not a virtualenv, and for a broken virtualenv that has no stamp (only
    ones made by ./install are ever recreated)."""
    if not venv.exists() or (venv.is_dir() and not any(venv.iterdir())):
        return PLAN_CREATE
    if not (venv / "pyvenv.cfg").is_file():
        raise InstallError(
            f"{venv} exists but is not a virtualenv (no pyvenv.cfg), so it is left alone. "
            "Set CTX_VENV to another folder, or remove that one, then run ./install again."
        )
    python = venv / "bin" / "python"
    try:
        works = (
            subprocess.run(
                [str(python), "-c", ""], stdin=subprocess.DEVNULL, timeout=60, check=False
            ).returncode
            == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        works = False
    if not works:
        if not (venv / STAMP_NAME).is_file():
            raise InstallError(
                f"{venv} is a virtualenv whose python does not run, and not one that ./install "
                "made, so it is left alone. Remove it or set CTX_VENV to another folder, then "
                "run ./install again."
            )
        return PLAN_RECREATE
    try:
        stamp = (venv / STAMP_NAME).read_text(encoding="utf-8").strip()
    except OSError:
        stamp = ""
    if stamp != source_hash(repo) or missing_entry_points(venv / "bin", specs):
        return PLAN_UPDATE
    return PLAN_CURRENT


def missing_entry_points(bin_dir: Path, specs: Sequence[HookSpec] = HOOKS) -> list[Path]:
    """The registry's programs that ``bin_dir`` lacks (or cannot execute)."""
    wanted = dict.fromkeys(spec.command for spec in specs)
    return [
        bin_dir / name
        for name in wanted
        if not ((bin_dir / name).is_file() and os.access(bin_dir / name, os.X_OK))
    ]


# --------------------------------------------------------------------------- command line


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="install",
        allow_abbrev=False,
        description=(
            "Install context-memory: register its hooks in Claude Code's settings.json "
            "(the ./install script first creates the private virtualenv they run from). "
            "Running it again changes nothing; the settings file is backed up before any "
            "change."
        ),
    )
    parser.add_argument(
        "--project",
        metavar="DIR",
        help="register in DIR/.claude/settings.json instead of the user settings "
        "($CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json)",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print what would change (a diff of the settings file) and write nothing",
    )
    parser.add_argument(
        "--uninstall",
        action="store_true",
        help="remove the hooks an install added (nothing else); keeps the virtualenv",
    )
    parser.add_argument(
        "--purge",
        action="store_true",
        help="with --uninstall: also delete the virtualenv",
    )
    parser.add_argument(
        "--venv",
        metavar="DIR",
        help="the virtualenv (default: $CTX_VENV, else "
        "${XDG_DATA_HOME:-~/.local/share}/context-memory/venv)",
    )
    # For the install script: print "<plan> <source hash>" (see venv_plan) and exit.
    parser.add_argument("--venv-plan", action="store_true", help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.purge and not args.uninstall:
        parser.error("--purge only goes with --uninstall")
    try:
        return _run(args)
    except (SettingsError, InstallError) as exc:
        print(f"{PREFIX} error: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except OSError as exc:
        where = f" {exc.filename}:" if exc.filename else ""
        print(f"{PREFIX} error:{where} {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILURE


def desired_settings(settings: Settings, args: argparse.Namespace, bin_dir: Path) -> Settings:
    """The settings after this run: a pure function of the parsed file and the options.
    (Later options, e.g. --statusline, chain their own pure edit here.)"""
    if args.uninstall:
        return unregister_hooks(settings, bin_dir)
    return register_hooks(settings, HOOKS, bin_dir)


def _run(args: argparse.Namespace) -> int:
    venv = Path(os.path.abspath(args.venv or default_venv(os.environ)))
    bin_dir = venv / "bin"
    if args.project is not None and not os.path.isdir(args.project):
        raise InstallError(f"--project {args.project}: no such directory")
    path = settings_path_for(args.project, os.environ)

    # Read and check the settings file first: an unusable file is refused before anything
    # else happens (in particular before the script spends a minute on pip).
    text = read_settings_text(path)
    old = parse_settings(text, path)

    if args.venv_plan:
        plan = PLAN_SKIP if args.dry_run or args.uninstall else venv_plan(venv, REPO_ROOT)
        print(plan, source_hash(REPO_ROOT))
        return EXIT_OK

    if args.purge and venv.exists() and not (venv / STAMP_NAME).is_file():
        raise InstallError(
            f"{venv} does not look like a context-memory virtualenv (no {STAMP_NAME}), "
            "so --purge will not delete it. Run without --purge, then delete it yourself."
        )
    if not args.uninstall and not args.dry_run:
        missing = missing_entry_points(bin_dir)
        if missing:
            raise InstallError(
                f"{missing[0]} does not exist: the virtualenv {venv} is missing or "
                "incomplete. Run ./install, which creates it and installs the package "
                "into it."
            )

    new = desired_settings(old, args, bin_dir)
    changed = new != old
    new_text = dumps_settings(new, detect_indent(text)) if changed else text or ""

    if args.dry_run:
        _report_dry_run(args, venv, path, text, new_text, changed)
        return EXIT_OK

    if changed:
        if text is not None:
            backup = backup_file(path, _now())
            print(f"{PREFIX} backed up {path} to {backup.name}")
        atomic_write_text(path, new_text)
    if args.uninstall:
        _report_uninstall(old, new, path, bin_dir, changed)
        if args.purge:
            _purge(venv)
        else:
            print(f"{PREFIX} kept the virtualenv {venv} (./install --uninstall --purge deletes it)")
    else:
        _report_install(path, bin_dir, changed)
    _warn_lookalikes(new, path, bin_dir)
    return EXIT_OK


def _warn_lookalikes(settings: Settings, path: Path, bin_dir: Path) -> None:
    names = [spec.command for spec in HOOKS]
    for event, program in lookalike_entries(settings, bin_dir, names):
        print(
            f"{PREFIX} warning: {path} also runs {program} for {event}; that entry is not "
            "this install's, so it was left alone (delete it by hand if it is left over "
            "from an older install)",
            file=sys.stderr,
        )


def _now() -> datetime | None:
    """The backup timestamp (None = the clock); tests replace this."""
    return None


def _hook_label(spec: HookSpec) -> str:
    return spec.event if spec.matcher is None else f"{spec.event} [{spec.matcher}]"


def _report_install(path: Path, bin_dir: Path, changed: bool) -> None:
    if not changed:
        print(f"{PREFIX} hooks already registered in {path}; nothing to change")
        return
    noun = "hook" if len(HOOKS) == 1 else "hooks"
    print(f"{PREFIX} registered {len(HOOKS)} {noun} in {path}:")
    for spec in HOOKS:
        command = command_for(bin_dir, spec.command)
        print(f"  {_hook_label(spec)}: {command} (timeout {spec.timeout} s)")
    print(f"{PREFIX} done; restart running Claude Code sessions to load the hooks")


def _report_uninstall(
    old: Settings, new: Settings, path: Path, bin_dir: Path, changed: bool
) -> None:
    if not changed:
        print(f"{PREFIX} no context-memory hooks in {path}; nothing to change")
        return
    names = {spec.command for spec in HOOKS}
    removed = len(own_entries(old, bin_dir, names)) - len(own_entries(new, bin_dir, names))
    noun = "hook" if removed == 1 else "hooks"
    print(f"{PREFIX} removed {removed} {noun} from {path}")


def _purge(venv: Path) -> None:
    if not venv.exists():
        print(f"{PREFIX} the virtualenv {venv} does not exist; nothing to delete")
        return
    shutil.rmtree(venv)
    print(f"{PREFIX} deleted the virtualenv {venv}")


def _report_dry_run(
    args: argparse.Namespace,
    venv: Path,
    path: Path,
    text: str | None,
    new_text: str,
    changed: bool,
) -> None:
    print(f"{PREFIX} dry run: nothing will be written")
    if not args.uninstall:
        plan = venv_plan(venv, REPO_ROOT)
        print(
            f"{PREFIX} "
            + {
                PLAN_CURRENT: f"the virtualenv {venv} is up to date; pip would be skipped",
                PLAN_CREATE: f"would create the virtualenv {venv} and pip-install "
                "context-memory into it",
                PLAN_RECREATE: f"would recreate the broken virtualenv {venv} and "
                "pip-install context-memory into it",
                PLAN_UPDATE: f"would pip-install this copy of context-memory into {venv}",
            }[plan]
        )
    if changed:
        if text is None:
            print(f"{PREFIX} would create {path}:")
        else:
            print(f"{PREFIX} would change {path} (after backing it up):")
        sys.stdout.write(unified_diff(text, new_text, path))
    elif args.uninstall:
        print(f"{PREFIX} no context-memory hooks in {path}; nothing would change")
    else:
        print(f"{PREFIX} hooks already registered in {path}; nothing would change")
    if args.purge:
        if venv.exists():
            print(f"{PREFIX} would delete the virtualenv {venv}")
        else:
            print(f"{PREFIX} the virtualenv {venv} does not exist; nothing to delete")


def unified_diff(old_text: str | None, new_text: str, path: Path) -> str:
    """A unified diff of the settings file (``/dev/null`` when it does not exist yet)."""

    def lines(text: str) -> list[str]:
        return [line if line.endswith("\n") else line + "\n" for line in text.splitlines(True)]

    return "".join(
        difflib.unified_diff(
            lines(old_text or ""),
            lines(new_text),
            fromfile="/dev/null" if old_text is None else str(path),
            tofile=str(path),
        )
    )


if __name__ == "__main__":
    sys.exit(main())
