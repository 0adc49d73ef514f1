"""``./install``: register context-memory's hooks in a Claude Code settings file.

The ``install`` script at the top of the repository finds Python 3.10+, creates the private
virtualenv and pip-installs the package into it, then runs this module with the SYSTEM
python and ``PYTHONPATH=<repo>/hooks``. So this module, and everything it imports, is
standard library only and must not import the entry points it registers.

    python -m context_memory.installer [--project DIR] [--dry-run] [--uninstall [--purge]]
                                       [--venv DIR] [--pin-decisions]

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
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

from context_memory import command_links, crontab, install_record, launchers, pinned
from context_memory.hook_registry import HOOKS, HookSpec
from context_memory.settings_edit import (
    STATUSLINE_ADDED,
    STATUSLINE_CHAINED,
    STATUSLINE_KEPT_THEIRS,
    STATUSLINE_NOT_CHAINABLE,
    STATUSLINE_PROGRAM,
    STATUSLINE_UPDATED,
    Settings,
    SettingsError,
    backup_file,
    command_for,
    detect_indent,
    dumps_settings,
    lookalike_entries,
    own_entries,
    parse_own_statusline,
    parse_settings,
    read_settings_text,
    refresh_statusline,
    register_hooks,
    replace_if_unchanged,
    set_statusline,
    unregister_hooks,
    unset_statusline,
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
        help="remove what ./install added, wherever it was added (it keeps a record in the "
        "virtualenv): the hooks and status line in every settings file, the command links, "
        "the crontab lines and the CLAUDE.md line of --pin-decisions; settings files it "
        "created are deleted, others get their text from before ./install back when only "
        "its entries changed. Keeps the virtualenv and your .working-state folders",
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
    parser.add_argument(
        "--statusline",
        nargs="?",
        const="add",
        choices=("add", "chain"),
        help="also set ctx-statusline as Claude Code's status line (it makes the hooks' "
        "window exact). An existing status line of yours is kept; --statusline=chain "
        "runs yours first, then ctx-statusline (--uninstall restores yours)",
    )
    parser.add_argument(
        "--cron",
        action="store_true",
        help="also add a line to your crontab that runs ctx-merge --quiet hourly for the "
        "project (--project DIR, else the current directory); running it again changes "
        "nothing, --uninstall removes it",
    )
    parser.add_argument(
        "--pin-decisions",
        action="store_true",
        help="also add the line @.working-state/pinned.md to the project's CLAUDE.md "
        "(--project DIR, else the current directory) and build that digest of the "
        "project's decisions: the client then sends it with every request, so no "
        "compaction can lose it; --uninstall removes the line",
    )
    # For ctx-install: pipx and uv link the commands themselves; leave their links alone.
    parser.add_argument("--no-links", action="store_true", help=argparse.SUPPRESS)
    # For the install script: print "<plan> <source hash>" (see venv_plan) and exit.
    parser.add_argument("--venv-plan", action="store_true", help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "install") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.purge and not args.uninstall:
        parser.error("--purge only goes with --uninstall")
    try:
        return _run(args)
    except (SettingsError, InstallError, crontab.CrontabError) as exc:
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
        return unset_statusline(unregister_hooks(settings, bin_dir), bin_dir)[0]
    new = register_hooks(settings, HOOKS, bin_dir)
    if getattr(args, "statusline", None):
        return set_statusline(new, bin_dir, chain=args.statusline == "chain")[0]
    return refresh_statusline(new, bin_dir)


def statusline_note(settings: Settings, args: argparse.Namespace, bin_dir: Path) -> str | None:
    """What this run does to the status line, for people; None when it does nothing."""
    current = settings.get("statusLine")
    if args.uninstall:
        own, chained = parse_own_statusline(current, bin_dir)
        if not own:
            return None
        if chained is None:
            return f"status line: removed {STATUSLINE_PROGRAM}"
        return f"status line: restored yours ({chained})"
    if not getattr(args, "statusline", None):
        return None
    _, outcome = set_statusline(settings, bin_dir, chain=args.statusline == "chain")
    theirs = current.get("command") if isinstance(current, dict) else None
    return {
        STATUSLINE_ADDED: f"status line: {STATUSLINE_PROGRAM} (context bar after every reply)",
        STATUSLINE_CHAINED: f"status line: yours ({theirs}) first, then {STATUSLINE_PROGRAM}",
        STATUSLINE_UPDATED: f"status line: {STATUSLINE_PROGRAM} now runs from {bin_dir}",
        STATUSLINE_KEPT_THEIRS: (
            f"status line: you already have one ({theirs}); it was kept. To show both "
            f"(yours first, then {STATUSLINE_PROGRAM}), run ./install --statusline=chain"
        ),
        STATUSLINE_NOT_CHAINABLE: (
            "status line: yours is not a command that ctx-statusline can run first; it was kept"
        ),
    }.get(outcome, f"status line: {STATUSLINE_PROGRAM} is already set")


def _run(args: argparse.Namespace) -> int:
    venv = Path(os.path.abspath(args.venv or default_venv(os.environ)))
    bin_dir = venv / "bin"
    if args.project is not None and not os.path.isdir(args.project):
        raise InstallError(f"--project {args.project}: no such directory")
    path = settings_path_for(args.project, os.environ)
    for label, where in (("virtualenv", str(venv)), ("settings file", str(path))):
        try:
            where.encode("utf-8")
        except UnicodeEncodeError:
            raise InstallError(
                f"the {label} path {where!r} is not UTF-8 text, which settings.json cannot "
                "hold. Set CTX_VENV (or CLAUDE_CONFIG_DIR) to a UTF-8 path, then run "
                "./install again. Nothing was changed."
            ) from None

    # Read and check the settings file first: an unusable file is refused before anything
    # else happens (in particular before the script spends a minute on pip).
    text = read_settings_text(path)
    old = parse_settings(text, path)

    if args.venv_plan:
        if getattr(args, "pin_decisions", False) and not args.uninstall:
            # A CLAUDE.md the install could not edit is refused before pip runs.
            claude_md_change(args.project or os.getcwd(), args)
        plan = PLAN_SKIP if args.dry_run or args.uninstall else venv_plan(venv, REPO_ROOT)
        if plan in (PLAN_CREATE, PLAN_RECREATE, PLAN_UPDATE) and "$" in str(venv):
            # setuptools expands $name in its install paths: the build fails half-way.
            raise InstallError(
                f"the virtualenv path {venv} contains '$', which pip's build tools "
                "cannot install into. Set CTX_VENV to a folder without '$' (for example "
                "CTX_VENV=/opt/context-memory/venv ./install), then run ./install again. "
                "Nothing was changed."
            )
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
        statusline_program = bin_dir / STATUSLINE_PROGRAM
        if getattr(args, "statusline", None) and not os.access(statusline_program, os.X_OK):
            raise InstallError(
                f"{statusline_program} does not exist: the virtualenv {venv} holds an older "
                "context-memory. Run ./install --statusline, which updates it."
            )

    cron_project = os.path.abspath(args.project) if args.project is not None else os.getcwd()
    crontab_before: str | None = None
    if getattr(args, "cron", False) and not args.uninstall:
        merge_program = bin_dir / crontab.MERGE_PROGRAM
        if not args.dry_run and not os.access(merge_program, os.X_OK):
            raise InstallError(
                f"{merge_program} does not exist: the virtualenv {venv} holds an older "
                "context-memory. Run ./install --cron, which updates it."
            )
        # Refuse (no crontab command, not allowed to use it) before anything is written;
        # a dry run shows the line instead (see _cron).
        if not (args.dry_run and crontab._crontab_missing()):
            crontab_before = crontab.read_crontab(crontab.crontab_user(os.environ))

    # Read CLAUDE.md before anything is written: a file that cannot be edited is refused.
    claude_md = claude_md_change(cron_project, args)

    if not args.dry_run and not args.uninstall:
        # Our launchers, not pip's wrappers (see launchers.py); then each command that the
        # settings will name must run through sh, as the client runs it, before anything
        # of the user's is changed.
        try:
            launchers.write_launchers(venv)
        except launchers.LauncherError as exc:
            raise InstallError(str(exc)) from None
        verify_commands(bin_dir, registered_programs(desired_settings(old, args, bin_dir), bin_dir))

    new = desired_settings(old, args, bin_dir)
    changed = new != old
    new_text = dumps_settings(new, detect_indent(text)) if changed else text or ""

    note = statusline_note(old, args, bin_dir)
    replaying = getattr(args, "replaying", False)
    record = install_record.load(venv) if args.uninstall and not replaying else None
    links_dir = command_links.link_dir(os.environ)
    links_dir_existed = links_dir.is_dir()
    if args.dry_run:
        _report_dry_run(args, venv, path, text, new_text, changed)
        if note:
            print(f"{PREFIX} {note}")
        _links(args, bin_dir)
        _cron(args, bin_dir, cron_project)
        _pin(args, cron_project, claude_md)
        if record is not None:
            install_record.uninstall_recorded(args, venv, record, path, cron_project)
        return EXIT_OK

    text_before = text
    if changed:
        old, new, changed = write_settings(path, args, bin_dir, text, old)
    if args.uninstall:
        _report_uninstall(old, new, path, bin_dir, changed)
        if args.purge:
            _purge(venv)
        elif not getattr(args, "replaying", False) and not getattr(args, "no_links", False):
            print(f"{PREFIX} kept the virtualenv {venv} (./install --uninstall --purge deletes it)")
    else:
        if changed and register_hooks(old, HOOKS, bin_dir) == old:
            print(f"{PREFIX} hooks already registered in {path}; only the status line changed")
        else:
            _report_install(path, bin_dir, changed)
    if note:
        print(f"{PREFIX} {note}")
    _links(args, bin_dir)
    _cron(args, bin_dir, cron_project)
    _pin(args, cron_project, claude_md)
    _warn_lookalikes(new, path, bin_dir)
    if record is not None:
        install_record.uninstall_recorded(args, venv, record, path, cron_project)
    elif not args.uninstall:
        install_record.note_install(
            venv,
            settings_path=path,
            settings_before=text_before,
            links_dir=links_dir,
            links_dir_existed=links_dir_existed,
            cron_project=cron_project if getattr(args, "cron", False) else None,
            crontab_was_empty=getattr(args, "cron", False) and crontab_before == "",
            pin_project=cron_project if getattr(args, "pin_decisions", False) else None,
        )
    return EXIT_OK


MAX_WRITE_ATTEMPTS = 1000
MAX_WRITE_SECONDS = 20
VERIFY_TIMEOUT_SECONDS = 60


def write_settings(
    path: Path, args: argparse.Namespace, bin_dir: Path, text: str | None, old: Settings
) -> tuple[Settings, Settings, bool]:
    """Back up and write this run's edit of the settings file, made against the file as it
    is at the moment of the rename: when another program changed it after it was read, the
    edit is redone on the new content (our backup of the stale content is dropped).
    Returns (settings before, settings after, whether anything was written)."""
    deadline = time.monotonic() + MAX_WRITE_SECONDS
    for attempt in range(MAX_WRITE_ATTEMPTS):
        if attempt:
            time.sleep(min(0.002 * attempt, 0.05))  # let the other program finish
        new = desired_settings(old, args, bin_dir)
        if new == old:
            return old, new, False
        new_text = dumps_settings(new, detect_indent(text))
        backup = backup_file(path, _now()) if text is not None else None
        if replace_if_unchanged(path, text, new_text):
            if backup is not None:
                print(f"{PREFIX} backed up {path} to {backup.name}")
                install_record.prune_backups(path, just_made=backup)
            return old, new, True
        if backup is not None:
            backup.unlink()
        text = read_settings_text(path)
        old = parse_settings(text, path)
        if time.monotonic() > deadline:
            break
    raise InstallError(
        f"{path} kept being changed by another program while ./install was editing it "
        f"({attempt + 1} tries in {MAX_WRITE_SECONDS} s), so nothing was written. Close the "
        "program that keeps writing it (a running Claude Code session rewrites it when you "
        "change settings there), then run ./install again."
    )


def registered_programs(settings: Settings, bin_dir: Path) -> list[str]:
    """The programs of ``bin_dir`` that ``settings`` runs (hooks, and our status line)."""
    names = dict.fromkeys(spec.command for spec in HOOKS)
    own, _ = parse_own_statusline(settings.get("statusLine"), bin_dir)
    if own:
        names[STATUSLINE_PROGRAM] = None
    return list(names)


def verify_commands(bin_dir: Path, programs: Sequence[str]) -> None:
    """Run each program once as Claude Code will, ``sh -c '<command as registered>'``, with
    ``--version`` (which our launchers answer without doing anything); raise InstallError
    naming the first that does not run."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for name in programs:
        command = command_for(bin_dir, name)
        try:
            done = subprocess.run(
                ["/bin/sh", "-c", f"{command} {launchers.VERSION_OPTION}"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                env=environment,
                timeout=VERIFY_TIMEOUT_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            problem = f"it did not finish in {VERIFY_TIMEOUT_SECONDS} s"
        else:
            out = done.stdout.decode("utf-8", "replace")
            if done.returncode == 0 and out.startswith(f"{name} "):
                continue
            err = " ".join(done.stderr.decode("utf-8", "replace").split())[-300:]
            problem = f"exit status {done.returncode}" + (f": {err}" if err else "")
        raise InstallError(
            f"the command {command} does not run through sh as Claude Code will run it "
            f"({problem}), so the settings were not changed. Run ./install again (it "
            "reinstalls the virtualenv); if that does not help, set CTX_VENV to a folder "
            "whose path has only plain characters."
        )


def _links(args: argparse.Namespace, bin_dir: Path) -> None:
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


def _cron(args: argparse.Namespace, bin_dir: Path, project: str) -> None:
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


class ClaudeMdChange:
    """The project's CLAUDE.md: where it is written (a symlink's target), its text
    (None: no such file) and its text after this run (None: unchanged)."""

    __slots__ = ("shown", "target", "old", "new")

    def __init__(self, shown: Path, target: Path, old: str | None, new: str | None) -> None:
        self.shown = shown
        self.target = target
        self.old = old
        self.new = new


def claude_md_change(project: str, args: argparse.Namespace) -> ClaudeMdChange | None:
    """What --pin-decisions (add the import line) or --uninstall (remove it) does to
    ``project``/CLAUDE.md; None when neither applies. Raises InstallError for a file that
    cannot be edited safely (not UTF-8, not a file) when --pin-decisions asked for it;
    --uninstall only warns then."""
    asked = bool(getattr(args, "pin_decisions", False))
    if not asked and not args.uninstall:
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
        if asked and not args.uninstall:
            raise InstallError(line)
        print(f"{PREFIX} warning: {line}", file=sys.stderr)
        return None
    if args.uninstall:
        new = pinned.without_import_line(text) if text is not None else None
    else:
        new = pinned.with_import_line(text)
    return ClaudeMdChange(shown, target, text, new)


def _pin(args: argparse.Namespace, project: str, change: ClaudeMdChange | None) -> None:
    """--pin-decisions: the import line in CLAUDE.md and the digest built at once.
    --uninstall: the line removed (nothing else of the file) and the digest deleted."""
    if change is None:
        return
    from context_memory.state import UnsafeNameError, check_state_dir

    try:
        state_dir = check_state_dir(os.path.join(os.path.abspath(project), pinned.STATE_DIRNAME))
    except UnsafeNameError as exc:
        raise InstallError(str(exc)) from None
    verb = "would " if args.dry_run else ""
    if args.uninstall:
        if change.new is not None:
            if not args.dry_run:
                _write_claude_md(change)
            print(f"{PREFIX} pinned digest: {verb}remove the line {pinned.IMPORT_LINE} from "
                  f"{change.shown}")  # fmt: skip
        digest = pinned.digest_path(state_dir)
        if pinned.enabled(state_dir):
            with open(digest, "rb") as handle:
                ours = handle.read(len(pinned.TITLE)) == pinned.TITLE.encode()
            if not ours:
                print(f"{PREFIX} pinned digest: {digest} is not one context-memory wrote; "
                      "left alone")  # fmt: skip
                return
            if not args.dry_run:
                for path in (digest, pinned.index_path(state_dir), digest + ".lock"):
                    try:
                        os.unlink(path)
                    except FileNotFoundError:
                        pass
            print(f"{PREFIX} pinned digest: {verb}delete {digest} (rebuilt from the decisions "
                  "log, which is kept)")  # fmt: skip
        return
    if change.new is None:
        print(f"{PREFIX} pinned digest: {change.shown} already imports {pinned.IMPORT_LINE}")
    else:
        if not args.dry_run:
            _write_claude_md(change)
        if change.old is None:
            done = f"{verb}create {change.shown} with the line {pinned.IMPORT_LINE}"
        else:
            done = f"{verb}add the line {pinned.IMPORT_LINE} to {change.shown}"
        print(f"{PREFIX} pinned digest: {done}")
    if args.dry_run:
        print(f"{PREFIX} pinned digest: would build {pinned.digest_path(state_dir)}")
        return
    cap, warning = pinned.cap_tokens()
    if warning:
        print(f"{PREFIX} warning: {warning}", file=sys.stderr)
    built = pinned.rebuild(state_dir, cap)
    print(f"{PREFIX} pinned digest: {pinned.describe(built, pinned.digest_path(state_dir))}; "
          "Claude Code sends it with every request")  # fmt: skip


def _write_claude_md(change: ClaudeMdChange) -> None:
    from context_memory.fsutil import atomic_write

    assert change.new is not None
    if change.old is not None and change.new == "":
        # It held only the import line, which an install added: nothing of the user's is left.
        os.unlink(change.target)
        return
    atomic_write(change.target, change.new)


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
    if not args.uninstall and (REPO_ROOT / "pyproject.toml").is_file():  # not for ctx-install
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
