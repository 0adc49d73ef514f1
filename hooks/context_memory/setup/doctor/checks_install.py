"""ctx-doctor's checks of the install (the list: docs/install.md), the plugin install's
(docs/plugin.md) among them, which stand in for the others when it is active
(all_checks.run_checks). The client's files are read bounded; anything odd in them is skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from context_memory.core.client_config import claude_config_dir
from context_memory.core.command_table import HOOKS, SCRIPTS, HookSpec
from context_memory.setup.doctor.check import FAIL, OK, WARN, Check, plural, shortlist
from context_memory.setup.install import command_links
from context_memory.setup.install.settings_edit import (
    STATUSLINE_PROGRAM,
    command_of,
    command_word,
    hook_entries,
    in_double_quotes,
)
from context_memory.setup.install.settings_file import SettingsError, read_settings
from context_memory.setup.install.venv import (
    OWN_FOLDER_NAME,
    missing_programs,
    settings_path_for,
)
from context_memory.setup.install.venv import running_venv as find_running_venv
from context_memory.setup.plugin import venv as plugin_venv

MIN_PYTHON = (3, 10)
DISTRIBUTION = "context-memory"


def check_python(version: tuple[int, ...] | None = None, executable: str | None = None) -> Check:
    version = tuple(sys.version_info[:3]) if version is None else version
    executable = sys.executable if executable is None else executable
    text = ".".join(str(part) for part in version)
    if version[:2] < MIN_PYTHON:
        fix = "install Python 3.10 or newer, then run ./install again"
        return Check("python", FAIL, f"Python {text} at {executable} is older than 3.10", fix)
    return Check("python", OK, f"Python {text} at {executable}")


def expected_programs() -> list[str]:
    """The entry points an install provides: the installed distribution's, else the
    registry's console scripts."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        names = [ep.name for ep in distribution(DISTRIBUTION).entry_points]
    except PackageNotFoundError:
        names = []
    return sorted(set(names or SCRIPTS))


def running_venv() -> str | None:
    """The virtualenv this ctx-doctor runs from, when it is one with our entry points (found
    from the interpreter: our launchers run without ``site``, where sys.prefix is not it)."""
    found = find_running_venv()
    if found is not None and os.path.exists(found / "bin" / "ctx-budget"):
        return str(found)
    return None


def registered_venv(files: list[SettingsFile]) -> str | None:
    """The virtualenv of the install whose hooks the settings files run: the folder with
    ``pyvenv.cfg`` above the first registered hook's program (``<venv>/bin/ctx-budget`` for
    ./install, ``<venv>/context-memory/bin/ctx-budget`` for ctx-install in pipx's or uv's
    virtualenv). When that folder is gone (the package was uninstalled), the folder it was
    is returned, so the checks say what is missing. None: no hook registered."""
    for spec in HOOKS:
        for reg in registrations(files, spec.command):
            program = Path(os.path.normpath(reg.program))
            if not program.is_absolute() or program.parent.name != "bin":
                continue
            above = program.parent.parent
            candidates = [above, above.parent] if above.name == OWN_FOLDER_NAME else [above]
            found = (str(c) for c in candidates if (c / "pyvenv.cfg").is_file())
            return next(found, str(candidates[-1]))
    return None


def check_venv(venv: str, programs: Iterable[str]) -> Check:
    name = "virtualenv"
    if not os.path.isdir(venv):
        return Check(name, FAIL, f"{venv} does not exist", "run ./install (it creates it)")
    if not os.path.isfile(os.path.join(venv, "pyvenv.cfg")):
        fix = "remove it or set CTX_VENV to another folder, then run ./install"
        return Check(name, FAIL, f"{venv} is not a virtualenv (no pyvenv.cfg)", fix)
    wanted = list(programs)
    missing = [path.name for path in missing_programs(Path(venv) / "bin", wanted)]
    if missing:
        found = f"{venv}: missing or not executable: {shortlist(missing)}"
        return Check(name, FAIL, found, "run ./install (it reinstalls the package)")
    return Check(name, OK, f"{venv} has all {plural(len(wanted), 'entry point')}")


class SettingsFile(NamedTuple):
    """One settings file Claude Code reads: its label, path, settings ({} if none) or error."""

    label: str
    path: Path
    exists: bool
    settings: dict[str, Any]
    error: str | None


def load_settings_file(label: str, path: Path) -> SettingsFile:
    try:
        text, settings = read_settings(path)
    except SettingsError as exc:
        return SettingsFile(label, path, path.exists(), {}, exc.found)
    return SettingsFile(label, path, text is not None, settings, None)


def settings_files(project: str, environ: Mapping[str, str]) -> list[SettingsFile]:
    claude = Path(project) / ".claude"
    user = settings_path_for(None, environ)
    files = [("user", user)]
    # In the home folder the project's settings file IS the user's: count it once.
    if os.path.realpath(claude / "settings.json") != os.path.realpath(user):
        files.append(("project", claude / "settings.json"))
    files.append(("local", claude / "settings.local.json"))
    return [load_settings_file(label, path) for label, path in files]


def check_settings_file(item: SettingsFile) -> Check:
    name = f"settings ({item.label})"
    if item.error is not None:
        # Claude Code ignores a settings file it cannot parse: every hook in it is off.
        fix = f"repair {item.path} (its backups are next to it: {item.path.name}.bak-*)"
        return Check(name, FAIL, item.error, fix)
    if not item.exists:
        return Check(name, OK, f"{item.path} does not exist (nothing to check)")
    return Check(name, OK, f"{item.path} is valid JSON")


class Registration(NamedTuple):
    file: SettingsFile
    event: str
    matcher: str | None
    program: str


def registrations(files: list[SettingsFile], program_name: str) -> list[Registration]:
    """Every command hook, in every readable settings file, whose program is ``program_name``."""
    found: list[Registration] = []
    for item in files:
        for event, group, entry in hook_entries(item.settings):
            program = command_word(command_of(entry))
            if program and os.path.basename(program) == program_name:
                # A matcher is a string: settings of the checked shape (hook_entries).
                found.append(Registration(item, event, group.get("matcher"), program))
    return found


def program_problem(program: str) -> str | None:
    """Why ``program`` cannot run, or None when it can."""
    if not os.path.isabs(program):
        return None if shutil.which(program) else f"{program} is not on PATH"
    if not os.path.exists(program):
        return f"{program} does not exist"
    if not os.path.isfile(program) or not os.access(program, os.X_OK):
        return f"{program} is not executable"
    return None


def check_hook(spec: HookSpec, files: list[SettingsFile], plugin_id: str | None = None) -> Check:
    """``spec``'s registration in the settings files; ``plugin_id``: an active plugin install
    registers it (hooks/hooks.json), so one in settings too runs twice."""
    label = spec.event if spec.matcher is None else f"{spec.event}[{spec.matcher}]"
    name = f"hook {spec.command}"
    found = [reg for reg in registrations(files, spec.command) if reg.event == spec.event]
    where = ", ".join(f"{reg.file.label} settings" for reg in found)
    if plugin_id is not None and not found:
        return Check(name, OK, f"{label} through the plugin {plugin_id}")
    if plugin_id is not None:
        found_twice = f"{label} registered by the plugin {plugin_id} and by ./install ({where})"
        keep_one = "keep one way: ./install --uninstall (keep the plugin), or claude plugin"
        fix = f"{keep_one} uninstall {plugin_id} (keep ./install)"
        return Check(name, WARN, f"{found_twice}: it runs twice", fix)
    if not found:
        unreadable = [item.label for item in files if item.error is not None]
        note = f" (unreadable: {', '.join(unreadable)} settings)" if unreadable else ""
        fix = "run ./install (user settings) or ./install --project DIR; installed with pipx "
        fix += "or uv tool: run ctx-install"
        return Check(name, FAIL, f"not registered for {label} in any settings file{note}", fix)
    for reg in found:
        problem = program_problem(reg.program)
        if problem:
            fix = "run ./install again (it recreates the virtualenv and rewrites the path)"
            return Check(name, FAIL, f"{label} in {reg.file.label} settings: {problem}", fix)
    if len(found) > 1:
        times = f"registered {len(found)} times for {label} ({where}): it runs {len(found)} times"
        fix = "keep one: ./install --uninstall in the other scope "
        fix += "(or ./install --uninstall --project DIR)"
        return Check(name, WARN, times, fix)
    reg = found[0]
    if spec.matcher is not None and reg.matcher != spec.matcher:
        found_as = f"{spec.event} in {reg.file.label} settings with matcher {reg.matcher!r}"
        fix = "run ./install again to update the registration"
        return Check(name, WARN, f"{found_as}, expected {spec.matcher!r}", fix)
    return Check(name, OK, f"{label} in {where}: {reg.program}")


def check_statusline(files: list[SettingsFile]) -> Check:
    name = "status line"
    for item in reversed(files):  # local overrides project overrides user
        value = item.settings.get("statusLine")
        if not isinstance(value, dict):
            continue
        command = value.get("command")
        program = command_word(command)
        where = f"{item.label} settings"
        if not program or os.path.basename(program) != STATUSLINE_PROGRAM:
            return Check(name, OK, f"your own status line ({where}); the window comes from the "
                         "model table")  # fmt: skip
        problem = program_problem(program)
        if problem:
            return Check(name, FAIL, f"{where}: {problem}", "run ./install --statusline")
        chained = " (after your own status line)" if " --chain " in f" {command} " else ""
        return Check(name, OK, f"{STATUSLINE_PROGRAM} in {where}{chained}")
    return Check(name, OK, "not installed; hooks use the model table for the window")


def check_command_links(venv: str, environ: Mapping[str, str], *, plugin: bool = False) -> Check:
    """ctx-usage, ctx-decide, ... linked into the links folder (./install does it) and that
    folder on PATH: else people and the agent's Bash tool cannot run them by name.
    ``plugin``: a plugin install is active, whose bin/ is on the agent's PATH: anything but
    a complete set of links on PATH says that instead."""
    name = "command links"
    links = command_links.link_dir(environ)
    plan = command_links.plan_links(Path(venv) / "bin", links)
    # Programs the virtualenv lacks are the virtualenv check's business.
    wanted = [c for c, action in plan if action != command_links.LINK_MISSING_TARGET]
    unlinked = [c for c, action in plan if action in command_links.LINK_CHANGES]
    foreign = [c for c, action in plan if action == command_links.LINK_CONFLICT]
    found = command_links.on_path(links, environ)
    # An earlier PATH entry can still hold a program of the same name.
    path = environ.get("PATH", "")
    shadowed = [
        f"{command} is {which}"
        for command in wanted
        for which in [shutil.which(command, path=path)]
        if which and os.path.dirname(os.path.abspath(which)) != str(links)
    ]
    if wanted and not unlinked and not foreign and found and not shadowed:
        return Check(name, OK, f"{plural(len(wanted), 'command')} linked in {links}, on PATH")
    if plugin:  # no links of an ./install here: what the plugin user has is its bin/
        return Check(name, OK, "the plugin's bin/ is on the agent's PATH")
    if not wanted:
        return Check(name, OK, f"nothing to check: {venv}/bin has none of the linked commands")
    if not unlinked and not foreign and found:
        fix = f"put {links} earlier in PATH, or remove the other programs"
        return Check(name, WARN, f"linked in {links}, but on PATH {shortlist(shadowed)}", fix)
    problems: list[str] = []
    fixes: list[str] = []
    if foreign:
        problems.append(f"not this install's: {shortlist([str(links / c) for c in foreign])}")
        fixes.append("move them aside if they are left over")
    if unlinked:
        problems.append(f"not linked in {links}: {shortlist(unlinked)}")
    if foreign or unlinked:
        fixes.append("run ./install")
    if not found:
        problems.append(f"{links} is not on PATH")
        quoted = in_double_quotes(str(links))
        fixes.append(f'add {links} to PATH (export PATH="{quoted}:$PATH" in ~/.profile)')
    return Check(name, WARN, "; ".join(problems), ", then ".join(fixes))


MAX_CLIENT_FILE_BYTES = 4 * 1024 * 1024


class PluginInstall(NamedTuple):
    plugin_id: str  # "context-memory@<marketplace>"
    scope: str
    version: str
    install_path: str
    source_dir: str | None  # a folder marketplace's folder: the hooks run from it
    enabled: bool


def _read_json(path: str) -> Any:
    try:
        with open(path, "rb") as handle:
            return json.loads(handle.read(MAX_CLIENT_FILE_BYTES))
    except (OSError, ValueError, RecursionError):
        return None


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def plugin_installs(
    environ: Mapping[str, str], settings: Sequence[Mapping[str, Any]] = ()
) -> list[PluginInstall]:
    """Every context-memory plugin the client has installed, from its own records."""
    plugins = os.path.join(claude_config_dir(environ), "plugins")
    records = _read_json(os.path.join(plugins, "installed_plugins.json"))
    installed = _dict(_dict(records).get("plugins"))
    markets = _dict(_read_json(os.path.join(plugins, "known_marketplaces.json")))
    enabled: dict[str, bool] = {}  # enabledPlugins, later settings files overriding earlier
    for item in settings:
        plugins_on = _dict(item.get("enabledPlugins")).items()
        enabled.update((key, value) for key, value in plugins_on if isinstance(value, bool))
    found: list[PluginInstall] = []
    for plugin_id, entries in installed.items():
        name, _, market = plugin_id.partition("@")
        if name != plugin_venv.PLUGIN_NAME or not isinstance(entries, list):
            continue
        source = _dict(_dict(markets.get(market)).get("source"))
        source_dir = _str(source.get("path")) if source.get("source") == "directory" else ""
        for entry in map(_dict, entries):
            scope, version = _str(entry.get("scope")) or "user", _str(entry.get("version"))
            where, on = _str(entry.get("installPath")), enabled.get(plugin_id, False)
            found.append(PluginInstall(plugin_id, scope, version, where, source_dir or None, on))
    return found


def plugin_check(install: PluginInstall) -> Check:
    """The install itself, and for a folder marketplace whether its folder is still there."""
    plugin_id = install.plugin_id
    label = f"{plugin_id} {install.version} ({install.scope} scope)"
    if not install.enabled:
        fix = f"claude plugin enable {plugin_id}, or claude plugin uninstall {plugin_id}"
        found = f"{label} is installed but disabled: its hooks do not run"
        return Check("plugin", WARN, found, fix)
    if install.source_dir is not None:
        folder = install.source_dir
        if not (
            os.path.isfile(os.path.join(folder, plugin_venv.MANIFEST))
            and os.path.isfile(os.path.join(folder, plugin_venv.HOOKS_FILE))
        ):
            return Check(
                "plugin folder", FAIL,
                f"{label}: its marketplace folder {folder} is gone or moved, and the client "
                "runs a folder marketplace's hooks from that folder: they stop silently",
                f"claude plugin uninstall {plugin_id}, then claude plugin install "
                f"{plugin_venv.PLUGIN_NAME} --marketplace <the checkout's new path> (or put it "
                "back)",
            )  # fmt: skip
        found = f"{label}, hooks run from the folder {folder} (moving or deleting it stops them)"
        return Check("plugin", OK, found)
    return Check("plugin", OK, f"{label}, hooks from {install.install_path}")


def plugin_venv_check(environ: Mapping[str, str]) -> Check:
    """The plugin's own virtualenv (plugin/venv.py), for a plugin-only install."""
    data = plugin_venv.data_dir(environ)
    venv = plugin_venv.venv_dir(data)
    stamp = os.path.join(venv, plugin_venv.STAMP_FILE)
    if os.path.isfile(stamp):
        return Check("virtualenv", OK, f"the plugin's packages are in {venv}")
    found = f"the plugin's virtualenv {venv} is not built yet"
    fix = "start a session (it is built in the background) or run ctx-decide --list once"
    return Check("virtualenv", WARN, f"{found}; hooks run on the standard library meanwhile", fix)
