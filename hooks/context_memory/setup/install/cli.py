"""``./install``: register context-memory's hooks in a Claude Code settings file.

The ``install`` script at the top of the repository finds Python 3.10+, creates the private
virtualenv and pip-installs the package into it, then runs this module with the SYSTEM
python and ``PYTHONPATH=<repo>/hooks``. So this module, and everything it imports, is
standard library only and must not import the entry points it registers.

    python -m context_memory.setup.install.cli [--project DIR] [--dry-run] [--uninstall [--purge]]
                                       [--venv DIR] [--pin-decisions]

Exit codes: 0 done (or nothing to do), 1 refused (settings file unusable, virtualenv
missing, ...; nothing was written), 2 bad command line.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from context_memory import __version__
from context_memory.core import exit_codes
from context_memory.setup.hook_registry import HOOKS
from context_memory.setup.install import command_links, crontab, launchers
from context_memory.setup.install import record as install_record
from context_memory.setup.install.extras import link_commands, set_cron
from context_memory.setup.install.pin import claude_md_change, pin
from context_memory.setup.install.report import (
    purge,
    report_dry_run,
    report_install,
    report_uninstall,
    warn_lookalikes,
)
from context_memory.setup.install.settings_edit import (
    STATUSLINE_ADDED,
    STATUSLINE_CHAINED,
    STATUSLINE_KEPT_THEIRS,
    STATUSLINE_NOT_CHAINABLE,
    STATUSLINE_PROGRAM,
    STATUSLINE_UPDATED,
    command_for,
    own_entries,
    parse_own_statusline,
    refresh_statusline,
    register_hooks,
    set_statusline,
    unregister_hooks,
    unset_statusline,
)
from context_memory.setup.install.settings_file import (
    Settings,
    SettingsError,
    backup_file,
    detect_indent,
    dumps_settings,
    parse_settings,
    read_settings_text,
    replace_if_unchanged,
)
from context_memory.setup.install.venv import (
    PLAN_CREATE,
    PLAN_RECREATE,
    PLAN_SKIP,
    PLAN_UPDATE,
    PREFIX,
    REPO_ROOT,
    STAMP_NAME,
    InstallError,
    default_venv,
    missing_entry_points,
    settings_path_for,
    source_hash,
    venv_plan,
)

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
    # "install" alone does not say what it installs; ctx-install answers as every ctx-* does.
    name = "%(prog)s (context-memory)" if prog == "install" else "%(prog)s"
    parser.add_argument("--version", action="version", version=f"{name} {__version__}")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "install") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.purge and not args.uninstall:
        parser.error("--purge only goes with --uninstall")
    args.tool = "./install" if prog == "install" else prog
    try:
        return _run(args)
    except (SettingsError, InstallError, crontab.CrontabError) as exc:
        print(f"{PREFIX} error: {exc}", file=sys.stderr)
        return exit_codes.FAILURE
    except OSError as exc:
        where = f" {exc.filename}:" if exc.filename else ""
        print(f"{PREFIX} error:{where} {exc.strerror or exc}", file=sys.stderr)
        return exit_codes.FAILURE


def desired_settings(
    settings: Settings, args: argparse.Namespace, bin_dir: Path, *, hooks_here: bool = True
) -> Settings:
    """The settings after this run: a pure function of the parsed file and the options.
    ``hooks_here`` False: another settings file (the user's) runs our hooks in every
    project already, so this one must not run them a second time."""
    if args.uninstall:
        return unset_statusline(unregister_hooks(settings, bin_dir), bin_dir)[0]
    if hooks_here:
        new = register_hooks(settings, HOOKS, bin_dir)
    else:
        new = unregister_hooks(settings, bin_dir)
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
    user_path = settings_path_for(None, os.environ)
    hooks_here = args.uninstall or path == user_path or not runs_our_hooks(user_path, bin_dir)

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
        return exit_codes.OK

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
        # a dry run shows the line instead (see install_extras.set_cron).
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

    new = desired_settings(old, args, bin_dir, hooks_here=hooks_here)
    changed = new != old
    new_text = dumps_settings(new, detect_indent(text)) if changed else text or ""

    note = statusline_note(old, args, bin_dir)
    replaying = getattr(args, "replaying", False)
    record = install_record.load(venv) if args.uninstall and not replaying else None
    links_dir = command_links.link_dir(os.environ)
    links_dir_existed = links_dir.is_dir()
    if args.dry_run:
        report_dry_run(args, venv, path, text, new_text, changed, hooks_here, user_path)
        if note:
            print(f"{PREFIX} {note}")
        link_commands(args, bin_dir)
        set_cron(args, bin_dir, cron_project)
        pin(args, cron_project, claude_md)
        if record is not None:
            install_record.uninstall_recorded(args, venv, record, path, cron_project, _run)
        elif not args.uninstall and path == user_path:
            drop_project_duplicates(venv, user_path, dry_run=True)
        return exit_codes.OK

    text_before = text
    backups_before = install_record.backup_names(path)
    folder_existed = path.parent.is_dir()
    if changed:
        old, new, changed = write_settings(
            path, lambda s: desired_settings(s, args, bin_dir, hooks_here=hooks_here), text, old
        )
    if args.uninstall:
        report_uninstall(old, new, path, bin_dir, changed)
        if args.purge:
            purge(venv)
        elif not getattr(args, "replaying", False) and not getattr(args, "no_links", False):
            print(f"{PREFIX} kept the virtualenv {venv} (./install --uninstall --purge deletes it)")
    elif not hooks_here:
        report_hooks_elsewhere(old, new, path, bin_dir, user_path, dry_run=False)
    else:
        if changed and register_hooks(old, HOOKS, bin_dir) == old:
            print(f"{PREFIX} hooks already registered in {path}; only the status line changed")
        else:
            report_install(path, bin_dir, changed)
    if note:
        print(f"{PREFIX} {note}")
    link_commands(args, bin_dir)
    set_cron(args, bin_dir, cron_project)
    pin(args, cron_project, claude_md)
    warn_lookalikes(new, path, bin_dir)
    if record is not None:
        install_record.uninstall_recorded(args, venv, record, path, cron_project, _run)
    elif not args.uninstall:
        if path == user_path:
            drop_project_duplicates(venv, user_path, dry_run=False)
        install_record.note_install(
            venv,
            settings_path=path,
            settings_before=text_before,
            backups_before=backups_before,
            folder_existed=folder_existed,
            links_dir=links_dir,
            links_dir_existed=links_dir_existed,
            cron_project=cron_project if getattr(args, "cron", False) else None,
            crontab_was_empty=getattr(args, "cron", False) and crontab_before == "",
            pin_project=cron_project if getattr(args, "pin_decisions", False) else None,
        )
    return exit_codes.OK


MAX_WRITE_ATTEMPTS = 1000
MAX_WRITE_SECONDS = 20
VERIFY_TIMEOUT_SECONDS = 60


def runs_our_hooks(path: Path, bin_dir: Path) -> bool:
    """Whether the settings file ``path`` registers any of our hooks (an unreadable or
    damaged file counts as not: the hooks then go where they were asked to go)."""
    try:
        text = read_settings_text(path)
        settings = parse_settings(text, path) if text is not None else {}
    except (SettingsError, OSError):
        return False
    return bool(own_entries(settings, bin_dir, {spec.command for spec in HOOKS}))


def drop_project_duplicates(venv: Path, user_path: Path, *, dry_run: bool) -> None:
    """A user-level install after ``--project`` ones: the user settings now run the hooks in
    every project, so the project settings files an install registered them in (the record
    lists them) would run each hook twice. Take ours out of those (the status line, other
    settings and foreign hooks stay)."""
    bin_dir = venv / "bin"
    for where in install_record.load(venv)["settings"]:
        path = Path(where)
        if path == user_path or not path.parent.parent.is_dir():
            continue
        try:
            text = read_settings_text(path)
            old = parse_settings(text, path) if text is not None else {}
        except (SettingsError, OSError):
            continue
        if unregister_hooks(old, bin_dir) == old:
            continue
        if not dry_run:
            old, new, changed = write_settings(
                path, lambda s: unregister_hooks(s, bin_dir), text, old
            )
            if not changed:
                continue
        removed = len(own_entries(old, bin_dir, {spec.command for spec in HOOKS}))
        verb = "would remove" if dry_run else "removed"
        print(
            f"{PREFIX} {verb} {removed} hooks from {path}: {user_path} runs them in every "
            "project now, and both would run each hook twice"
        )


def report_hooks_elsewhere(
    old: Settings, new: Settings, path: Path, bin_dir: Path, user_path: Path, *, dry_run: bool
) -> None:
    """What an install for a project says when the user settings already run the hooks."""
    names = {spec.command for spec in HOOKS}
    removed = len(own_entries(old, bin_dir, names)) - len(own_entries(new, bin_dir, names))
    print(
        f"{PREFIX} hooks already registered in {user_path}, which runs them in every "
        f"project; not registering them again in {path}"
    )
    if removed:
        verb = "would remove" if dry_run else "removed"
        print(f"{PREFIX} {verb} {removed} hooks from {path} that ran twice")


def write_settings(
    path: Path, edit: Callable[[Settings], Settings], text: str | None, old: Settings
) -> tuple[Settings, Settings, bool]:
    """Back up and write this run's edit of the settings file, made against the file as it
    is at the moment of the rename: when another program changed it after it was read, the
    edit is redone on the new content (our backup of the stale content is dropped).
    Returns (settings before, settings after, whether anything was written)."""
    deadline = time.monotonic() + MAX_WRITE_SECONDS
    for attempt in range(MAX_WRITE_ATTEMPTS):
        if attempt:
            time.sleep(min(0.002 * attempt, 0.05))  # let the other program finish
        new = edit(old)
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


def _now() -> datetime | None:
    """The backup timestamp (None = the clock); tests replace this."""
    return None


if __name__ == "__main__":
    sys.exit(main())
