"""The checks of ctx-doctor, in report order (commands/doctor.py prints them; the list:
docs/install.md), each told which kind of install it looks at.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from context_memory.core.command_table import HOOKS
from context_memory.setup.doctor import checks_install as install
from context_memory.setup.doctor import checks_state as state
from context_memory.setup.doctor.check import FAIL, Check
from context_memory.setup.install.venv import owned_by_installer


def run_checks(
    project: str,
    state_dir: str,
    venv: str,
    environ: Mapping[str, str] | None = None,
    read_crontab: Callable[[], str] | None = None,
) -> list[Check]:
    """Every check in report order, each told which kind of install it looks at: with an
    enabled plugin install (checks_install.plugin_installs) the hooks come from the plugin, and the
    ./install virtualenv, links and crontab line are optional."""
    environ = os.environ if environ is None else environ
    files = install.settings_files(project, environ)
    installs = install.plugin_installs(environ, [item.settings for item in files])
    plugin = next((item for item in installs if item.enabled), None)
    venv_check = install.check_venv(venv, install.expected_programs())
    if plugin is not None and venv_check.status == FAIL:
        venv_check = install.plugin_venv_check(environ)  # plugin-only: no ./install virtualenv
    return [
        install.check_python(),
        *(install.plugin_check(item) for item in installs),
        venv_check,
        *(install.check_settings_file(item) for item in files),
        *(install.check_hook(spec, files, plugin and plugin.plugin_id) for spec in HOOKS),
        install.check_statusline(files),
        install.check_command_links(venv, environ, plugin=plugin is not None),
        state.check_state_dir(state_dir),
        state.check_cron(project, read_crontab, installer=installer_command(venv), plugin=plugin),
        state.check_logs(state_dir),
        state.check_breakers(state_dir),
        state.check_auto_memory(project, state_dir, environ),
    ]


def installer_command(venv: str) -> str:
    """The command that set this virtualenv up, for the fixes: the ./install script stamps
    its virtualenv; one without the stamp is pipx's or uv's, where ctx-install does it."""
    pipx_or_uv = os.path.isdir(venv) and not owned_by_installer(Path(venv))
    return "ctx-install" if pipx_or_uv else "./install"
