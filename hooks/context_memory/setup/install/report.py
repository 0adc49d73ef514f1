"""What ./install says: the hooks registered or removed, look-alike entries it leaves
alone, and for --dry-run the diff it would write. Standard library only.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from context_memory.core.command_table import HOOKS, HookSpec
from context_memory.setup.install.settings_edit import (
    command_for,
    lookalike_entries,
    own_entries,
)
from context_memory.setup.install.settings_file import (
    Settings,
)
from context_memory.setup.install.venv import (
    PLAN_CREATE,
    PLAN_CURRENT,
    PLAN_RECREATE,
    PLAN_UPDATE,
    PREFIX,
    REPO_ROOT,
    venv_plan,
)


def warn_lookalikes(settings: Settings, path: Path, bin_dir: Path) -> None:
    names = [spec.command for spec in HOOKS]
    for event, program in lookalike_entries(settings, bin_dir, names):
        print(
            f"{PREFIX} warning: {path} also runs {program} for {event}; that entry is not "
            "this install's, so it was left alone (delete it by hand if it is left over "
            "from an older install)",
            file=sys.stderr,
        )


def _hook_label(spec: HookSpec) -> str:
    return spec.event if spec.matcher is None else f"{spec.event} [{spec.matcher}]"


def report_install(path: Path, bin_dir: Path, changed: bool) -> None:
    if not changed:
        print(f"{PREFIX} hooks already registered in {path}; nothing to change")
        return
    noun = "hook" if len(HOOKS) == 1 else "hooks"
    print(f"{PREFIX} registered {len(HOOKS)} {noun} in {path}:")
    for spec in HOOKS:
        command = command_for(bin_dir, spec.command)
        print(f"  {_hook_label(spec)}: {command} (timeout {spec.timeout} s)")
    print(f"{PREFIX} done; restart running Claude Code sessions to load the hooks")


def report_uninstall(
    old: Settings, new: Settings, path: Path, bin_dir: Path, changed: bool
) -> None:
    if not changed:
        print(f"{PREFIX} no context-memory hooks in {path}; nothing to change")
        return
    names = {spec.command for spec in HOOKS}
    removed = len(own_entries(old, bin_dir, names)) - len(own_entries(new, bin_dir, names))
    noun = "hook" if removed == 1 else "hooks"
    print(f"{PREFIX} removed {removed} {noun} from {path}")


def report_hooks_elsewhere(
    old: Settings, new: Settings, path: Path, bin_dir: Path, user_path: Path
) -> None:
    """What an install for a project says when the user settings already run the hooks."""
    names = {spec.command for spec in HOOKS}
    removed = len(own_entries(old, bin_dir, names)) - len(own_entries(new, bin_dir, names))
    print(
        f"{PREFIX} hooks already registered in {user_path}, which runs them in every "
        f"project; not registering them again in {path}"
    )
    if removed:
        print(f"{PREFIX} removed {removed} hooks from {path} that ran twice")


def report_dry_run(
    *,
    uninstall: bool,
    venv: Path,
    path: Path,
    text: str | None,
    new_text: str,
    changed: bool,
    hooks_here: bool = True,
    user_path: Path | None = None,
    restore_of: str | None = None,
) -> None:
    print(f"{PREFIX} dry run: nothing will be written")
    if not uninstall and (REPO_ROOT / "pyproject.toml").is_file():  # not for ctx-install
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
    if not hooks_here:
        print(
            f"{PREFIX} hooks already registered in {user_path}, which runs them in every "
            f"project; not registering them again in {path}"
        )
    show_settings_change(
        path,
        text,
        new_text,
        changed,
        uninstall=uninstall,
        quiet=not hooks_here,
        restore_of=restore_of,
    )


def show_settings_change(
    path: Path,
    text: str | None,
    new_text: str,
    changed: bool,
    *,
    uninstall: bool,
    quiet: bool = False,
    restore_of: str | None = None,
) -> None:
    """A dry run's lines for one settings file: the diff, or that nothing would change
    (``quiet``: not even that). ``restore_of``: the installer (./install, ctx-install)
    whose uninstall puts back the text from before it, which ``new_text`` is then."""
    if changed:
        if restore_of:
            print(f"{PREFIX} would restore {path} to its text from before {restore_of}:")
        elif text is None:
            print(f"{PREFIX} would create {path}:")
        else:
            print(f"{PREFIX} would change {path} (after backing it up):")
        sys.stdout.write(unified_diff(text, new_text, path))
    elif uninstall:
        print(f"{PREFIX} no context-memory hooks in {path}; nothing would change")
    elif not quiet:
        print(f"{PREFIX} hooks already registered in {path}; nothing would change")


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
