"""Carrying out an installer plan (install/plan.py), or printing it for ``--dry-run``: one
function per kind of step, each saying what it did (or would do) in one or a few lines.
Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from context_memory.setup.hook_registry import HOOKS
from context_memory.setup.install import launchers, record
from context_memory.setup.install.extras import link_commands, set_cron, unlink_commands
from context_memory.setup.install.options import InstallOptions
from context_memory.setup.install.pin import pin
from context_memory.setup.install.plan import (
    AutoMemory,
    CronLine,
    DropProjectHooks,
    EditSettings,
    KeepVenv,
    LinkCommands,
    NoteInstall,
    PinLine,
    PreparePrograms,
    PurgeLeftovers,
    PurgeVenv,
    RemoveLaunchers,
    RestoreRecorded,
    StatuslineNote,
    Step,
    WarnLookalikes,
)
from context_memory.setup.install.purge import purge_cache_and_folders
from context_memory.setup.install.report import (
    purge,
    report_dry_run,
    report_hooks_elsewhere,
    report_install,
    report_uninstall,
    show_settings_change,
    warn_lookalikes,
)
from context_memory.setup.install.settings_edit import own_entries, register_hooks, unregister_hooks
from context_memory.setup.install.settings_file import (
    Settings,
    SettingsError,
    detect_indent,
    dumps_settings,
)
from context_memory.setup.install.settings_write import (
    desired_settings,
    prepare_programs,
    read_settings,
    write_settings,
)
from context_memory.setup.install.venv import PREFIX

HOOK_NAMES = frozenset(spec.command for spec in HOOKS)


def apply(steps: Sequence[Step], options: InstallOptions) -> None:
    """Carry out ``steps`` in order (``options.dry_run``: print them instead)."""
    if options.dry_run:
        show(steps, options)
        return
    for step in steps:
        _APPLY[type(step)](step)


def show(steps: Sequence[Step], options: InstallOptions) -> None:
    """``--dry-run``: what each step would change, where; nothing is written."""
    for step in steps:
        if isinstance(step, EditSettings):
            show_settings(step, options)
        elif isinstance(step, PurgeVenv):
            if step.venv.exists():
                print(f"{PREFIX} would delete the virtualenv {step.venv}")
            else:
                print(f"{PREFIX} the virtualenv {step.venv} does not exist; nothing to delete")
        elif isinstance(step, StatuslineNote):
            print(f"{PREFIX} {step.text}")
        elif isinstance(step, LinkCommands):
            links(step, dry_run=True)
        elif isinstance(step, CronLine):
            cron(step, dry_run=True)
        elif isinstance(step, PinLine):
            pin(step.project, step.change, remove=step.remove, dry_run=True)
        elif isinstance(step, DropProjectHooks):
            drop_project_hooks(step, dry_run=True)
        elif isinstance(step, AutoMemory):
            auto_memory(step, dry_run=True)
        elif isinstance(step, RemoveLaunchers):
            remove_launchers(step, dry_run=True)
        elif isinstance(step, PurgeLeftovers):
            purge_leftovers(step, dry_run=True)
        # Preparing programs, keeping the venv, look-alike warnings, the record: nothing to show.


def show_settings(edit: EditSettings, options: InstallOptions) -> None:
    changed = edit.new != edit.old
    new_text = dumps_settings(edit.new, detect_indent(edit.text)) if changed else edit.text or ""
    restore: str | None = None
    if edit.uninstall and changed:
        # What the run ends with: the file deleted, or its text from before put back.
        entry = record.load(options.venv)["settings"].get(str(edit.path))
        restore, before = record.planned_restore(entry, edit.new, edit.path)
        if restore == record.RESTORE_DELETE:
            if edit.first:
                print(f"{PREFIX} dry run: nothing will be written")
            removed = len(own_entries(edit.old, edit.bin_dir, HOOK_NAMES))
            print(
                f"{PREFIX} would remove {removed} hooks from {edit.path}, then delete it: "
                f"{options.tool} had created it, and nothing else is in it"
            )
            return
        if restore == record.RESTORE_TEXT and before is not None:
            new_text = before
    if not edit.first:
        show_settings_change(
            edit.path,
            edit.text,
            new_text,
            changed,
            uninstall=True,
            restore_of=restore and options.tool,
        )
        return
    report_dry_run(
        uninstall=options.uninstall,
        venv=options.venv,
        path=edit.path,
        text=edit.text,
        new_text=new_text,
        changed=changed,
        hooks_here=edit.hooks_here,
        user_path=edit.user_path,
        restore_of=restore and options.tool,
    )


# --------------------------------------------------------------------------- apply, per step


def prepare(step: PreparePrograms) -> None:
    prepare_programs(step.venv, step.programs, step.bin_dir)


def remove_launchers(step: RemoveLaunchers, dry_run: bool = False) -> None:
    """Our launchers' own folder (``<venv>/context-memory/bin``), and its parent when that
    is empty then: what ctx-install added to a virtualenv that pipx or uv owns."""
    gone = launchers.remove_launchers(step.bin_dir, dry_run=dry_run)
    if not dry_run:
        try:
            step.bin_dir.parent.rmdir()  # <venv>/context-memory, ours; only when empty
        except OSError:
            pass
    if gone:
        verb = "would remove" if dry_run else "removed"
        print(f"{PREFIX} {verb} {len(gone)} launchers from {step.bin_dir}")


def edit_settings(edit: EditSettings) -> None:
    def wanted(settings: Settings) -> Settings:
        return desired_settings(
            settings,
            edit.bin_dir,
            uninstall=edit.uninstall,
            statusline=edit.statusline,
            hooks_here=edit.hooks_here,
        )

    old, new, changed = edit.old, edit.new, False
    if new != old:
        old, new, changed = write_settings(edit.path, wanted, edit.text, old)
    if edit.uninstall:
        report_uninstall(old, new, edit.path, edit.bin_dir, changed)
    elif not edit.hooks_here:
        report_hooks_elsewhere(old, new, edit.path, edit.bin_dir, edit.user_path, dry_run=False)
    elif changed and register_hooks(old, HOOKS, edit.bin_dir) == old:
        print(f"{PREFIX} hooks already registered in {edit.path}; only the status line changed")
    else:
        report_install(edit.path, edit.bin_dir, changed)


def note(step: StatuslineNote) -> None:
    print(f"{PREFIX} {step.text}")


def purge_venv(step: PurgeVenv) -> None:
    purge(step.venv)


def purge_leftovers(step: PurgeLeftovers, dry_run: bool = False) -> None:
    for line in purge_cache_and_folders(step.cache, step.made_folders, dry_run=dry_run):
        print(f"{PREFIX} {line}")


def keep_venv(step: KeepVenv) -> None:
    print(f"{PREFIX} kept the virtualenv {step.venv} (./install --uninstall --purge deletes it)")


def links(step: LinkCommands, dry_run: bool = False) -> None:
    if step.remove:
        unlink_commands(step.bin_dir, step.links, dry_run=dry_run)
    else:
        link_commands(step.bin_dir, step.links, dry_run=dry_run)


def cron(step: CronLine, dry_run: bool = False) -> None:
    set_cron(
        step.bin_dir,
        step.project,
        asked=step.asked,
        remove=step.remove,
        purge=step.purge,
        dry_run=dry_run,
    )


def pin_line(step: PinLine) -> None:
    pin(step.project, step.change, remove=step.remove, dry_run=False)


def lookalikes(step: WarnLookalikes) -> None:
    try:
        _, settings = read_settings(step.path)
    except (SettingsError, OSError):
        return
    warn_lookalikes(settings, step.path, step.bin_dir)


def drop_project_hooks(step: DropProjectHooks, dry_run: bool = False) -> None:
    """Take our hooks out of a project's settings (the status line and the rest stay)."""
    try:
        text, old = read_settings(step.path)
    except (SettingsError, OSError):
        return
    if not dry_run:
        old, _, changed = write_settings(
            step.path, lambda s: unregister_hooks(s, step.bin_dir), text, old
        )
        if not changed:
            return
    removed = len(own_entries(old, step.bin_dir, HOOK_NAMES))
    verb = "would remove" if dry_run else "removed"
    print(
        f"{PREFIX} {verb} {removed} hooks from {step.path}: {step.user_path} runs them in "
        "every project now, and both would run each hook twice"
    )


def auto_memory(step: AutoMemory, dry_run: bool = False) -> None:
    """Take the toolkit's files and block out of Claude Code's auto memory."""
    from context_memory.memory.native import remove_everywhere, toolkit_folders

    if dry_run:
        for folder in toolkit_folders(step.projects):
            print(f"{PREFIX} would take the toolkit's lines and files out of {folder}")
        return
    for item in remove_everywhere(step.projects):
        print(f"{PREFIX} removed {item}")


def restore(step: RestoreRecorded) -> None:
    record.restore_recorded(step.venv, step.record, step.tool)


def note_install(step: NoteInstall) -> None:
    record.note_install(
        step.venv,
        settings_path=step.settings_path,
        settings_before=step.settings_before,
        backups_before=list(step.backups_before),
        folder_existed=step.folder_existed,
        links_dir=step.links_dir,
        links_dir_existed=step.links_dir_existed,
        cron_project=step.cron_project,
        crontab_was_empty=step.crontab_was_empty,
        pin_project=step.pin_project,
        made_folders=step.made_folders,
    )


_APPLY: dict[type, Callable[[Any], None]] = {
    PreparePrograms: prepare,
    EditSettings: edit_settings,
    StatuslineNote: note,
    PurgeVenv: purge_venv,
    KeepVenv: keep_venv,
    LinkCommands: links,
    CronLine: cron,
    PinLine: pin_line,
    WarnLookalikes: lookalikes,
    DropProjectHooks: drop_project_hooks,
    AutoMemory: auto_memory,
    RestoreRecorded: restore,
    NoteInstall: note_install,
    RemoveLaunchers: remove_launchers,
    PurgeLeftovers: purge_leftovers,
}
