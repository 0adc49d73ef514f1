"""ctx-doctor: does context-memory work here? One line per check, OK / WARN / FAIL, and the fix.

    ctx-doctor [--json] [--project DIR] [--venv DIR]
    ctx-doctor --team [--json] [--project DIR]   set the project up for sharing through git

Checks: the Python version; the virtualenv and its entry points; each hook of the
registry (core/command_table.HOOKS): in which settings files it is registered, that the
program exists and is executable, that it is not registered twice; that every settings
file is valid JSON; the status line; the command links (ctx-usage, ctx-decide, ... by name
on PATH); that the state folder is writable; the hourly
ctx-merge crontab line; the errors in ``.working-state/logs/`` over the last day, per
hook; the circuit breakers that are open. Exit 1 when a check FAILs, else 0.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Mapping

import click

from context_memory.commands.common import CONTEXT_SETTINGS, cli_location, run_click
from context_memory.core import exit_codes
from context_memory.core.state import STATE_DIRNAME, state_dir_of
from context_memory.setup.doctor.all_checks import run_checks
from context_memory.setup.doctor.check import FAIL, OK, WARN, plural
from context_memory.setup.doctor.checks_install import (
    registered_venv,
    running_venv,
    settings_files,
)
from context_memory.setup.install.venv import default_venv


@click.command(context_settings=CONTEXT_SETTINGS)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (for scripts).")
@click.option(
    "--project",
    type=click.Path(file_okay=False),
    help=f"The project to check (default: the nearest folder above with {STATE_DIRNAME}, "
    ".claude or .git).",
)
@click.option(
    "--venv",
    type=click.Path(file_okay=False),
    help="The virtualenv to check (default: the one whose hooks the settings files run, "
    "else the one ctx-doctor runs from, else $CTX_VENV, else "
    "~/.local/share/context-memory/venv).",
)
@click.option(
    "--team",
    is_flag=True,
    help=f"Set the project's {STATE_DIRNAME} up for sharing through git (a .gitattributes "
    "union merge for the decisions log, a .gitignore for per-machine files), and say what "
    "was done.",
)
def cli(as_json: bool, project: str | None, venv: str | None, team: bool) -> None:
    """Check that context-memory works here: one line per check, with the fix.

    Exit status 1 when a check FAILs.
    """
    if project:
        project_dir = os.path.abspath(project)
        state_dir = state_dir_of(project_dir, refuse_link=False)  # a link is a check's FAIL
    else:
        project_dir, state_dir = cli_location(refuse_link=False)
    if team:
        set_up_team(state_dir, as_json)
        return
    chosen_venv = os.path.abspath(venv or install_venv(project_dir, os.environ))
    checks = run_checks(project_dir, state_dir, chosen_venv)
    failed = any(check.status == FAIL for check in checks)
    if as_json:
        data = {
            "ok": not failed,
            "project": project_dir,
            "state_dir": state_dir,
            "venv": chosen_venv,
            "checks": [check.as_dict() for check in checks],
        }
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        for check in checks:
            click.echo(check.line())
        counts = Counter(check.status for check in checks)
        click.echo(
            f"\n{counts[OK]} ok, {plural(counts[WARN], 'warning')}, {counts[FAIL]} failed"
            + (" -- context-memory is not working here" if failed else "")
        )
    if failed:
        # Exit, not a return value: click drops return values in standalone mode.
        click.get_current_context().exit(exit_codes.FAILURE)


def install_venv(project_dir: str, environ: Mapping[str, str]) -> str:
    """The virtualenv to check: the install whose hooks the settings run (./install's,
    pipx's, uv's), else the one ctx-doctor runs from, else ./install's default place."""
    return (
        registered_venv(settings_files(project_dir, environ))
        or running_venv()
        or default_venv(environ)
    )


def set_up_team(state_dir: str, as_json: bool) -> None:
    """ctx-doctor --team: write what sharing needs, then print what changed and why."""
    from context_memory.memory.team import TeamSetupError, explanation, setup_team

    try:
        report = setup_team(state_dir)
    except TeamSetupError as exc:
        raise click.ClickException(f"{exc}; nothing changed") from None
    except OSError as exc:
        raise click.ClickException(f"{exc.filename or state_dir}: {exc.strerror or exc}") from None
    if as_json:
        click.echo(json.dumps({"state_dir": state_dir, **report.as_dict()}, ensure_ascii=False))
        return
    if report.changed:
        click.echo(f"Set up {state_dir} for sharing through git:")
        for line in report.changed:
            click.echo(f"  changed {line}")
    else:
        click.echo(f"{state_dir} is already set up for sharing through git: nothing changed.")
    for line in report.notes:
        click.echo(f"  checked {line}")
    for line in report.warnings:
        click.echo(f"  {WARN}: {line}")
    for line in explanation():
        click.echo(line)
    if report.changed:
        click.echo(f"Commit them: git add {STATE_DIRNAME} && git commit -m 'Share context-memory'")


def main(argv: list[str] | None = None) -> int:
    """Entry point; 1 when a check FAILs (or on an error), click's usage errors 2."""
    return run_click(cli, argv, "ctx-doctor")


if __name__ == "__main__":
    sys.exit(main())
