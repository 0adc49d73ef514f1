"""The plan of one installer run: a list of typed steps saying what would change where.
``make_plan`` reads everything it needs and refuses what cannot be done before anything is
written; ``carry_out`` prints each step (``--dry-run``) or carries it out. An uninstall's
plan comes from the install record (record.py). Standard library only.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from context_memory.core.session_registry import cache_dir
from context_memory.setup.install import command_links, crontab, record
from context_memory.setup.install.launchers import PreparePrograms, RemoveLaunchers
from context_memory.setup.install.options import InstallOptions, Step
from context_memory.setup.install.pin import AutoMemory, PinLine, claude_md_change
from context_memory.setup.install.settings_edit import (
    STATUSLINE_PROGRAM,
    DropProjectHooks,
    EditSettings,
    registered_programs,
    runs_our_hooks,
)
from context_memory.setup.install.venv import (
    STAMP_NAME,
    InstallError,
    missing_programs,
    owned_by_installer,
    say,
    settings_path_for,
    show_venv_plan,
)


def carry_out(steps: Sequence[Step], options: InstallOptions) -> None:
    """Carry out ``steps`` in order (--dry-run: print what each would do instead, after
    what the install script would do to the virtualenv)."""
    if options.dry_run:
        say("dry run: nothing will be written")
        if not options.uninstall:
            show_venv_plan(options.venv)
    for step in steps:
        step.run(would=options.dry_run)


def refuse_early(options: InstallOptions) -> str | None:
    """Refuse (InstallError, CrontabError) what cannot be done, before anything is written:
    --purge of a virtualenv that is not ours; an install (not a dry run) without the
    programs it registers (pip's console scripts: our launchers are made from the same
    entry points) or with those of --statusline or --cron missing (a virtualenv of an older
    context-memory). Returns the crontab as it is for --cron (None when not asked, or a dry
    run without crontab)."""
    venv, package_bin = options.venv, options.venv / "bin"  # pip's console scripts
    if options.purge and venv.exists() and not owned_by_installer(venv):
        raise InstallError(
            f"{venv} does not look like a context-memory virtualenv (no {STAMP_NAME}), "
            "so --purge will not delete it. Run without --purge, then delete it yourself."
        )
    if options.uninstall:
        return None
    if not options.dry_run:
        missing = missing_programs(package_bin)
        if missing:
            raise InstallError(
                f"{missing[0]} does not exist: the virtualenv {venv} is missing or "
                "incomplete. Run ./install, which creates it and installs the package into it."
            )
        for program, option, asked in (
            (STATUSLINE_PROGRAM, "--statusline", options.statusline),
            (crontab.MERGE_PROGRAM, "--cron", options.cron),
        ):
            path = package_bin / program
            if asked and not os.access(path, os.X_OK):
                raise InstallError(
                    f"{path} does not exist: the virtualenv {venv} holds an older "
                    f"context-memory. Run ./install {option}, which updates it."
                )
    if not options.cron or (options.dry_run and crontab.crontab_missing()):
        return None  # the dry run shows the line instead (see crontab.CronLine.run)
    return crontab.read_crontab()


def settings_path(options: InstallOptions) -> Path:
    """The settings file of this run, refused (InstallError) when its project folder is
    missing or it or the virtualenv has a path settings.json cannot hold."""
    if options.project is not None and not os.path.isdir(options.project):
        raise InstallError(f"--project {options.project}: no such directory")
    path = settings_path_for(options.project, os.environ)
    for label, where in (("virtualenv", str(options.venv)), ("settings file", str(path))):
        if any("\ud800" <= ch <= "\udfff" for ch in where):  # undecodable bytes of the path
            raise InstallError(
                f"the {label} path {where!r} is not UTF-8 text, which settings.json cannot "
                "hold. Set CTX_VENV (or CLAUDE_CONFIG_DIR) to a UTF-8 path, then run "
                "./install again. Nothing was changed."
            )
    return path


def make_plan(options: InstallOptions) -> list[Step]:
    """Every step of this run, in order; raises InstallError, SettingsError or
    CrontabError for what cannot be done, before anything is written."""
    path, user_path = settings_path(options), settings_path_for(None, os.environ)
    kept = record.load(options.venv)
    # Read and check the settings file first: an unusable file is refused before anything.
    edit = EditSettings.read(options, path, user_path)
    before_cron = refuse_early(options)
    # The project of --cron and --pin-decisions: --project DIR, else the current folder.
    project = os.path.abspath(options.project) if options.project is not None else os.getcwd()
    claude_md = claude_md_change(project, add=options.pin_decisions, remove=options.uninstall)
    steps: list[Step] = []
    if not options.dry_run and not options.uninstall:
        programs = registered_programs(edit.old, options)
        steps.append(PreparePrograms(options.venv, programs, options.bin_dir))
    steps.append(edit)
    if options.uninstall and (options.purge or options.links):
        steps.append(record.UninstallVenv(options.venv, options.purge))
    links = command_links.link_dir(os.environ)
    if options.links:
        steps.append(command_links.LinkCommands(options.bin_dir, links, remove=options.uninstall))
    steps.append(
        crontab.CronLine(options.bin_dir, project, options.cron, options.uninstall, options.purge)
    )
    steps.append(PinLine(project, claude_md, remove=options.uninstall))
    if options.uninstall:
        steps.append(AutoMemory(recorded_projects(kept, project)))
        steps.extend(recorded_steps(options, kept, path, project, links, user_path))
        if options.launcher_dir is not None:
            steps.append(RemoveLaunchers(options.launcher_dir))
        if options.purge:
            made = tuple(Path(p) for p in kept["made_folders"])
            steps.append(record.PurgeLeftovers(Path(cache_dir()), made))
    else:
        if path == user_path:
            steps.extend(project_duplicates(options, kept, user_path))
        steps.append(note_install(options, edit, project, links, before_cron))
    return steps


def note_install(
    options: InstallOptions, edit: EditSettings, project: str, links: Path, before_cron: str | None
) -> record.NoteInstall:
    """What this install adds to the record, as found before anything is written."""
    settings = {
        "before": edit.text,
        "backups_before": record.backup_names(edit.path),
        "folder_existed": edit.path.parent.is_dir(),
    }
    added = {
        "settings": {str(edit.path): settings},
        "links": {str(links): {"created_folder": not links.is_dir()}},
        "cron": {project: {"crontab_was_empty": before_cron == ""}} if options.cron else {},
        "pinned": [project] if options.pin_decisions else [],
        "made_folders": [str(folder) for folder in options.made_folders],
    }
    return record.NoteInstall(options.venv, added)


def project_duplicates(
    options: InstallOptions, kept: dict[str, Any], user_path: Path
) -> list[Step]:
    """A user-level install after --project ones: the project settings files the record
    lists that still register our hooks would run each of them twice."""
    return [
        DropProjectHooks(path, user_path, options.bin_dir)
        for path in map(Path, kept["settings"])
        if path != user_path
        and path.parent.parent.is_dir()
        and runs_our_hooks(path, options.bin_dir)
    ]


def recorded_projects(kept: dict[str, Any], project: str) -> tuple[str, ...]:
    """This run's project and every project the install record names (their auto-memory
    folders may be set apart with autoMemoryDirectory)."""
    found = [project, *kept["cron"], *kept["pinned"]]
    found.extend(str(Path(where).parent.parent) for where in kept["settings"])
    return tuple(p for p in dict.fromkeys(found) if os.path.isdir(p))


def recorded_steps(
    options: InstallOptions,
    kept: dict[str, Any],
    done_path: Path,
    done_project: str,
    links: Path,
    user_path: Path,
) -> list[Step]:
    """--uninstall: the same removal for every other place the install record lists, then
    the restore of what it kept (no second run of the installer)."""
    again = InstallOptions(
        venv=options.venv, uninstall=True, tool=options.tool, launcher_dir=options.launcher_dir
    )
    steps: list[Step] = []
    cron_done, pin_done = {done_project}, {done_project}  # each place once

    def uncron(project: str) -> None:
        if project not in cron_done:
            cron_done.add(project)
            steps.append(crontab.CronLine(options.bin_dir, project, False, True, False))

    def unpin(project: str) -> None:
        if project not in pin_done and os.path.isdir(project):
            pin_done.add(project)
            change = claude_md_change(project, add=False, remove=True)
            steps.append(PinLine(project, change, remove=True))

    for where in kept["settings"]:
        path = Path(where)
        project = None if path == user_path else str(path.parent.parent)
        if path == done_path or (project is not None and not os.path.isdir(project)):
            continue  # done already, or the project is gone and its settings with it
        steps.append(EditSettings.read(again, path, user_path))
        # What an uninstall run for that settings file does: its project's (or, for the
        # user settings, the current folder's) crontab line and CLAUDE.md line.
        uncron(project or os.getcwd())
        unpin(project or os.getcwd())
    for project in kept["cron"]:
        uncron(project)
    for project in kept["pinned"]:
        unpin(project)
    if options.links:
        steps.extend(
            command_links.LinkCommands(options.bin_dir, Path(folder), remove=True)
            for folder in kept["links"]
            if Path(folder) != links
        )
    steps.append(record.RestoreRecorded(options.venv, kept, options.tool))
    return steps
