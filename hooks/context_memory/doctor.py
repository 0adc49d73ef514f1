"""ctx-doctor: does context-memory work here? One line per check, OK / WARN / FAIL, and the fix.

    ctx-doctor [--json] [--project DIR] [--venv DIR]
    ctx-doctor --team [--json] [--project DIR]   set the project up for sharing through git

Checks: the Python version; the virtualenv and its entry points; each hook of the
registry (hook_registry.HOOKS): in which settings files it is registered, that the
program exists and is executable, that it is not registered twice; that every settings
file is valid JSON; the status line; the command links (ctx-usage, ctx-decide, ... by name
on PATH); that the state folder is writable; the hourly
ctx-merge crontab line; the errors in ``.working-state/logs/`` over the last day, per
hook; the circuit breakers that are open. Exit 1 when a check FAILs, else 0.
"""

from __future__ import annotations

import calendar
import json
import os
import shlex
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import click

from context_memory import command_links
from context_memory.cli_common import CONTEXT_SETTINGS, cli_location, run_click
from context_memory.hook_registry import HOOKS, HookSpec
from context_memory.hookio import BREAKER_LIMIT, LOG_NAME
from context_memory.installer import default_venv, settings_path_for
from context_memory.settings_edit import (
    SettingsError,
    command_word,
    parse_settings,
    read_settings_text,
)
from context_memory.state import STATE_DIRNAME

EXIT_OK = 0
EXIT_FAIL = 1

OK = "OK"
WARN = "WARN"
FAIL = "FAIL"

MIN_PYTHON = (3, 10)
STATUSLINE_PROGRAM = "ctx-statusline"
# Entry points every install has; the installed distribution's own list is used when found.
BASE_PROGRAMS = ("ctx-usage", "ctx-budget", "ctx-doctor")
DISTRIBUTION = "context-memory"
LOG_TAIL_BYTES = 1024 * 1024
ERROR_WINDOW_SECONDS = 24 * 3600
SHOWN_ITEMS = 3
NAME_WIDTH = 24


class Check:
    """One line of the report."""

    __slots__ = ("name", "status", "message", "fix")

    def __init__(self, name: str, status: str, message: str, fix: str | None = None) -> None:
        self.name = name
        self.status = status
        self.message = message
        self.fix = fix

    def as_dict(self) -> dict[str, Any]:
        return {"check": self.name, "status": self.status, "message": self.message, "fix": self.fix}

    def line(self) -> str:
        text = f"{self.status:<4}  {self.name:<{NAME_WIDTH}} {self.message}"
        return one_line(text + (f" -- fix: {self.fix}" if self.fix else ""))


def one_line(text: str) -> str:
    """``text`` with control characters (a newline in a path) shown as escapes (\\n), so
    that each check stays one line."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _shortlist(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN_ITEMS])
    return shown + (f" and {len(items) - SHOWN_ITEMS} more" if len(items) > SHOWN_ITEMS else "")


# --------------------------------------------------------------------------- python, venv


def check_python(version: tuple[int, ...] | None = None, executable: str | None = None) -> Check:
    version = tuple(sys.version_info[:3]) if version is None else version
    executable = sys.executable if executable is None else executable
    text = ".".join(str(part) for part in version)
    if version[:2] < MIN_PYTHON:
        return Check(
            "python",
            FAIL,
            f"Python {text} at {executable} is older than 3.10",
            "install Python 3.10 or newer, then run ./install again",
        )
    return Check("python", OK, f"Python {text} at {executable}")


def expected_programs() -> list[str]:
    """The entry points an install provides: the installed distribution's, else the hooks'."""
    names: list[str] = []
    try:
        from importlib.metadata import PackageNotFoundError, distribution

        try:
            names = [ep.name for ep in distribution(DISTRIBUTION).entry_points]
        except PackageNotFoundError:
            names = []
    except ImportError:  # pragma: no cover - importlib.metadata is in 3.8+
        names = []
    if not names:
        names = [
            *BASE_PROGRAMS,
            *command_links.LINKED_COMMANDS,
            *(spec.command for spec in HOOKS),
        ]
    return sorted(set(names))


def running_venv() -> str | None:
    """The virtualenv this ctx-doctor runs from, when it is one with our entry points."""
    if sys.prefix == getattr(sys, "base_prefix", sys.prefix):
        return None
    if os.path.exists(os.path.join(sys.prefix, "bin", "ctx-budget")):
        return sys.prefix
    return None


def check_venv(venv: str, programs: Iterable[str]) -> Check:
    name = "virtualenv"
    if not os.path.isdir(venv):
        return Check(name, FAIL, f"{venv} does not exist", "run ./install (it creates it)")
    if not os.path.isfile(os.path.join(venv, "pyvenv.cfg")):
        return Check(
            name,
            FAIL,
            f"{venv} is not a virtualenv (no pyvenv.cfg)",
            "remove it or set CTX_VENV to another folder, then run ./install",
        )
    bin_dir = os.path.join(venv, "bin")
    missing = [
        program
        for program in programs
        if not os.access(os.path.join(bin_dir, program), os.X_OK)
        or not os.path.isfile(os.path.join(bin_dir, program))
    ]
    if missing:
        return Check(
            name,
            FAIL,
            f"{venv}: missing or not executable: {_shortlist(missing)}",
            "run ./install (it reinstalls the package)",
        )
    wanted = list(programs)
    return Check(name, OK, f"{venv} has all {_plural(len(wanted), 'entry point')}")


# --------------------------------------------------------------------------- settings, hooks


class SettingsFile:
    """One settings file Claude Code reads: its label, path, and parsed content or error."""

    __slots__ = ("label", "path", "exists", "settings", "error")

    def __init__(self, label: str, path: Path) -> None:
        self.label = label
        self.path = path
        self.exists = False
        self.settings: dict[str, Any] = {}
        self.error: str | None = None

    def load(self) -> SettingsFile:
        try:
            text = read_settings_text(self.path)
            self.exists = text is not None
            self.settings = parse_settings(text, self.path)
        except SettingsError as exc:
            self.exists = self.path.exists()
            self.error = str(exc)
        return self


def settings_files(project: str, environ: Mapping[str, str]) -> list[SettingsFile]:
    """The user, project and local settings files, loaded."""
    claude = Path(project) / ".claude"
    user = settings_path_for(None, environ)
    files = [SettingsFile("user", user)]
    # In the home folder the project's settings file IS the user's: count it once.
    if os.path.realpath(claude / "settings.json") != os.path.realpath(user):
        files.append(SettingsFile("project", claude / "settings.json"))
    files.append(SettingsFile("local", claude / "settings.local.json"))
    return [item.load() for item in files]


def check_settings_file(item: SettingsFile) -> Check:
    name = f"settings ({item.label})"
    if item.error is not None:
        # Claude Code ignores a settings file it cannot parse: every hook in it is off.
        message = item.error.replace("then run ./install again. The file was not changed.", "")
        return Check(
            name,
            FAIL,
            message.strip().rstrip(","),
            f"repair {item.path} (its backups are next to it: {item.path.name}.bak-*)",
        )
    if not item.exists:
        return Check(name, OK, f"{item.path} does not exist (nothing to check)")
    return Check(name, OK, f"{item.path} is valid JSON")


def _program_of(command: object) -> str | None:
    if not isinstance(command, str):
        return None
    # The POSIX rules the installer quotes by (shlex keeps the backslash of \\$ and \\`).
    word = command_word(command)
    if word is not None:
        return word
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return words[0] if words else None


class Registration:
    __slots__ = ("file", "event", "matcher", "program", "command")

    def __init__(
        self, file: SettingsFile, event: str, matcher: str | None, program: str, command: str
    ) -> None:
        self.file = file
        self.event = event
        self.matcher = matcher
        self.program = program
        self.command = command


def registrations(files: list[SettingsFile], program_name: str) -> list[Registration]:
    """Every command hook, in every readable settings file, whose program is ``program_name``."""
    found: list[Registration] = []
    for item in files:
        hooks = item.settings.get("hooks") if item.error is None else None
        if not isinstance(hooks, dict):
            continue
        for event, groups in hooks.items():
            for group in groups if isinstance(groups, list) else ():
                entries = group.get("hooks") if isinstance(group, dict) else None
                for entry in entries if isinstance(entries, list) else ():
                    if not isinstance(entry, dict) or entry.get("type") != "command":
                        continue
                    program = _program_of(entry.get("command"))
                    if program and os.path.basename(program) == program_name:
                        matcher = group.get("matcher")
                        found.append(
                            Registration(
                                item,
                                event,
                                matcher if isinstance(matcher, str) else None,
                                program,
                                str(entry.get("command")),
                            )
                        )
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


def check_hook(spec: HookSpec, files: list[SettingsFile]) -> Check:
    label = spec.event if spec.matcher is None else f"{spec.event}[{spec.matcher}]"
    name = f"hook {spec.command}"
    found = [reg for reg in registrations(files, spec.command) if reg.event == spec.event]
    if not found:
        unreadable = [item.label for item in files if item.error is not None]
        note = f" (unreadable: {', '.join(unreadable)} settings)" if unreadable else ""
        return Check(
            name,
            FAIL,
            f"not registered for {label} in any settings file{note}",
            "run ./install (user settings) or ./install --project DIR; installed with "
            "pipx or uv tool: run ctx-install",
        )
    where = ", ".join(f"{reg.file.label} settings" for reg in found)
    for reg in found:
        problem = program_problem(reg.program)
        if problem:
            return Check(
                name,
                FAIL,
                f"{label} in {reg.file.label} settings: {problem}",
                "run ./install again (it recreates the virtualenv and rewrites the path)",
            )
    if len(found) > 1:
        return Check(
            name,
            WARN,
            f"registered {len(found)} times for {label} ({where}): it runs {len(found)} times",
            "keep one: ./install --uninstall in the other scope "
            "(or ./install --uninstall --project DIR)",
        )
    reg = found[0]
    if spec.matcher is not None and reg.matcher != spec.matcher:
        return Check(
            name,
            WARN,
            f"{spec.event} in {reg.file.label} settings with matcher {reg.matcher!r}, "
            f"expected {spec.matcher!r}",
            "run ./install again to update the registration",
        )
    return Check(name, OK, f"{label} in {where}: {reg.program}")


def check_statusline(files: list[SettingsFile]) -> Check:
    name = "status line"
    for item in reversed(files):  # local overrides project overrides user
        value = item.settings.get("statusLine") if item.error is None else None
        if not isinstance(value, dict):
            continue
        command = value.get("command")
        program = _program_of(command)
        if not program or os.path.basename(program) != STATUSLINE_PROGRAM:
            return Check(
                name,
                OK,
                f"your own status line ({item.label} settings); the window comes from the "
                "model table",
                None,
            )
        problem = program_problem(program)
        if problem:
            return Check(
                name, FAIL, f"{item.label} settings: {problem}", "run ./install --statusline"
            )
        chained = " --chain " in f" {command} "
        return Check(
            name,
            OK,
            f"{STATUSLINE_PROGRAM} in {item.label} settings"
            + (" (after your own status line)" if chained else ""),
        )
    return Check(
        name,
        OK,
        "not installed; hooks use the model table for the window",
        None,
    )


# --------------------------------------------------------------------------- command links


def check_command_links(venv: str, environ: Mapping[str, str]) -> Check:
    """ctx-usage, ctx-decide, ... linked into the links folder (./install does it) and that
    folder on PATH: else people and the agent's Bash tool cannot run them by name."""
    name = "command links"
    links = command_links.link_dir(environ)
    plan = command_links.plan_links(Path(venv) / "bin", links)
    # Programs the virtualenv lacks are the virtualenv check's business.
    wanted = [command for command, action in plan if action != command_links.LINK_MISSING_TARGET]
    if not wanted:
        return Check(name, OK, f"nothing to check: {venv}/bin has none of the linked commands")
    unlinked = [
        command
        for command, action in plan
        if action in (command_links.LINK_CREATE, command_links.LINK_UPDATE)
    ]
    foreign = [command for command, action in plan if action == command_links.LINK_CONFLICT]
    found = command_links.on_path(links, environ)
    if not unlinked and not foreign and found:
        # An earlier PATH entry can still hold a program of the same name.
        path = environ.get("PATH", "")
        shadowed = [
            f"{command} is {which}"
            for command in wanted
            for which in [shutil.which(command, path=path)]
            if which and os.path.dirname(os.path.abspath(which)) != str(links)
        ]
        if shadowed:
            return Check(
                name,
                WARN,
                f"linked in {links}, but on PATH {_shortlist(shadowed)}",
                f"put {links} earlier in PATH, or remove the other programs",
            )
        return Check(name, OK, f"{_plural(len(wanted), 'command')} linked in {links}, on PATH")
    problems: list[str] = []
    fixes: list[str] = []
    if foreign:
        problems.append(f"not this install's: {_shortlist([str(links / c) for c in foreign])}")
        fixes.append("move them aside if they are left over")
    if unlinked:
        problems.append(f"not linked in {links}: {_shortlist(unlinked)}")
    if foreign or unlinked:
        fixes.append("run ./install")
    if not found:
        problems.append(f"{links} is not on PATH")
        quoted = "".join("\\" + ch if ch in '\\"$`' else ch for ch in str(links))
        fixes.append(f'add {links} to PATH (export PATH="{quoted}:$PATH" in ~/.profile)')
    return Check(name, WARN, "; ".join(problems), ", then ".join(fixes))


# --------------------------------------------------------------------------- state folder


def check_state_dir(state_dir: str) -> Check:
    name = "state folder"
    if os.path.isdir(state_dir):
        try:
            fd, probe = tempfile.mkstemp(prefix=".doctor-", dir=state_dir)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            return Check(
                name,
                FAIL,
                f"{state_dir} is not writable ({exc.strerror or exc})",
                f"chmod u+w {state_dir}, or set CTX_STATE_DIR to a writable folder",
            )
        return Check(name, OK, f"{state_dir} is writable")
    if os.path.exists(state_dir):
        return Check(
            name,
            FAIL,
            f"{state_dir} exists but is not a folder",
            "move that file away (the hooks keep their files in a folder of that name)",
        )
    parent = os.path.dirname(state_dir)
    while parent and not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if parent and os.access(parent, os.W_OK | os.X_OK):
        return Check(name, OK, f"{state_dir} does not exist yet; it will be created on first use")
    return Check(
        name,
        FAIL,
        f"{state_dir} does not exist and {parent or '/'} is not writable",
        "set CTX_STATE_DIR to a writable folder",
    )


# --------------------------------------------------------------------------- cron


def check_cron(project: str, read_crontab: Callable[[], str] | None = None) -> Check:
    """The hourly ctx-merge line ``./install --cron`` adds for this project."""
    name = "cron (ctx-merge)"
    try:
        from context_memory import crontab
    except ImportError:
        return Check(name, OK, "this version has no --cron")
    if read_crontab is None:
        if shutil.which("crontab") is None:
            return Check(name, OK, "no crontab command here (./install --cron needs cron)")
        user = crontab.crontab_user(os.environ)
        reader: Callable[[], str] = lambda: crontab.read_crontab(user)  # noqa: E731
    else:
        reader = read_crontab
    try:
        text = reader()
    except crontab.CrontabError as exc:
        return Check(
            name, WARN, f"cannot read the crontab: {exc}", "check that cron works: crontab -l"
        )
    ours = [line for line in text.splitlines() if crontab.is_project_line(line, project)]
    if not ours:
        return Check(name, OK, f"no hourly ctx-merge for {project} (./install --cron adds it)")
    if len(ours) > 1:
        return Check(
            name,
            WARN,
            f"{len(ours)} ctx-merge lines for {project}: the merge runs several times",
            "run ./install --cron again (it keeps exactly one)",
        )
    fields = ours[0].split(None, 5)
    program = _program_of(fields[5]) if len(fields) == 6 else None
    problem = program_problem(program) if program else "the line has no command"
    if problem:
        return Check(
            name, FAIL, f"the crontab line for {project}: {problem}", "run ./install --cron"
        )
    when = f"hourly at :{int(fields[0]):02d}" if fields[0].isdigit() else f"at '{fields[0]}'"
    return Check(name, OK, f"{when} for {project}: {program}")


# --------------------------------------------------------------------------- logs, breakers


def _read_tail(path: str, limit: int = LOG_TAIL_BYTES) -> list[str]:
    from context_memory.fsutil import open_file

    with open(open_file(path), "rb") as handle:  # no link followed, no FIFO waited on
        size = os.fstat(handle.fileno()).st_size
        handle.seek(max(0, size - limit))
        data = handle.read(limit)
    lines = data.decode("utf-8", errors="replace").splitlines()
    return lines[1:] if size > limit else lines  # the first line may be cut


def _parse_stamp(text: str) -> float | None:
    try:
        return float(calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ")))
    except (ValueError, OverflowError):
        return None


def log_files(state_dir: str) -> list[str]:
    """Every ``*.log`` in ``<state>/logs`` (hooks.log first)."""
    folder = os.path.join(state_dir, "logs")
    try:
        names = [name for name in os.listdir(folder) if name.endswith(".log")]
    except OSError:
        return []
    names.sort(key=lambda name: (name != LOG_NAME, name))
    return [os.path.join(folder, name) for name in names]


def check_logs(state_dir: str, now: float | None = None) -> Check:
    """Errors logged in the last day, per hook. Lines are hookio.log_line's: UTC stamp,
    hook, session, message, tab-separated; other lines are passed over."""
    name = "hook errors (24 h)"
    now = time.time() if now is None else now
    paths = log_files(state_dir)
    if not paths:
        return Check(name, OK, "no hook has logged an error")
    per_hook: Counter[str] = Counter()
    last: tuple[str, str, str] | None = None
    for path in paths:
        try:
            lines = _read_tail(path)
        except OSError as exc:
            return Check(name, WARN, f"cannot read {path}: {exc.strerror or exc}", None)
        for line in lines:
            parts = line.split("\t", 3)
            if len(parts) != 4:
                continue
            stamp = _parse_stamp(parts[0])
            if stamp is None or now - stamp > ERROR_WINDOW_SECONDS:
                continue
            per_hook[parts[1]] += 1
            if last is None or parts[0] >= last[0]:
                last = (parts[0], parts[1], parts[3])
    if not per_hook or last is None:
        return Check(name, OK, "none in the last day")
    counts = ", ".join(f"{hook} {count}" for hook, count in sorted(per_hook.items()))
    total = sum(per_hook.values())
    return Check(
        name,
        WARN,
        f"{_plural(total, 'error')} ({counts}); last at {last[0]}, {last[1]}: {last[2]}",
        f"read {' and '.join(paths) if len(paths) <= 2 else os.path.dirname(paths[0])}",
    )


def open_breakers(state_dir: str) -> list[tuple[str, str, int]]:
    """(session, hook, failures) of every breaker at or past the limit."""
    from context_memory.fsutil import list_dir, read_bytes

    sessions = os.path.join(state_dir, "sessions")
    found: list[tuple[str, str, int]] = []
    try:
        names = sorted(list_dir(sessions, root=state_dir))
    except OSError:
        return found
    for session in names:
        folder = os.path.join(sessions, session)
        try:
            files = sorted(list_dir(folder, root=state_dir))
        except OSError:
            continue
        for file_name in files:
            if not (file_name.startswith(".") and file_name.endswith(".failures")):
                continue
            try:
                count = int(read_bytes(os.path.join(folder, file_name), 64).strip() or b"0")
            except (OSError, ValueError):
                continue
            if count >= BREAKER_LIMIT:
                found.append((session, file_name[1 : -len(".failures")], count))
    return found


def check_breakers(state_dir: str) -> Check:
    name = "circuit breakers"
    found = open_breakers(state_dir)
    if not found:
        return Check(name, OK, "none open")
    items = [f"{hook} in session {session}" for session, hook, _ in found]
    return Check(
        name,
        WARN,
        f"{_plural(len(found), 'hook')} switched off after {BREAKER_LIMIT} failures: "
        f"{_shortlist(items)}",
        "fix the error in logs/hooks.log, then delete "
        f"{os.path.join(state_dir, 'sessions', '<session>', '.<hook>.failures')}",
    )


# --------------------------------------------------------------------------- all checks


def run_checks(
    project: str,
    state_dir: str,
    venv: str,
    environ: Mapping[str, str] | None = None,
    read_crontab: Callable[[], str] | None = None,
) -> list[Check]:
    environ = os.environ if environ is None else environ
    files = settings_files(project, environ)
    checks = [check_python(), check_venv(venv, expected_programs())]
    checks.extend(check_settings_file(item) for item in files)
    checks.extend(check_hook(spec, files) for spec in HOOKS)
    checks.append(check_statusline(files))
    checks.append(check_command_links(venv, environ))
    checks.append(check_state_dir(state_dir))
    checks.append(check_cron(project, read_crontab))
    checks.append(check_logs(state_dir))
    checks.append(check_breakers(state_dir))
    return _with_plugin(checks, files, environ)


def _with_plugin(
    checks: list[Check], files: list[SettingsFile], environ: Mapping[str, str]
) -> list[Check]:
    """The checks changed for a plugin install (plugin_doctor): its hooks, its folder."""
    from context_memory import plugin_doctor

    loaded = [item.settings for item in files if item.error is None]
    installs = plugin_doctor.plugin_installs(environ, loaded)
    in_settings = {
        index: [
            f"{reg.file.label} settings"
            for reg in registrations(files, spec.command)
            if reg.event == spec.event
        ]
        for index, spec in enumerate(HOOKS)
    }
    return plugin_doctor.adjust(checks, in_settings, installs, environ, Check)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (for scripts).")
@click.option(
    "--project",
    type=click.Path(file_okay=False),
    help="The project to check (default: the nearest folder above with .working-state, "
    ".claude or .git).",
)
@click.option(
    "--venv",
    type=click.Path(file_okay=False),
    help="The virtualenv to check (default: the one ctx-doctor runs from, else $CTX_VENV, "
    "else ~/.local/share/context-memory/venv).",
)
@click.option(
    "--team",
    is_flag=True,
    help="Set the project's .working-state up for sharing through git (a .gitattributes "
    "union merge for the decisions log, a .gitignore for per-machine files), and say what "
    "was done.",
)
def cli(as_json: bool, project: str | None, venv: str | None, team: bool) -> None:
    """Check that context-memory works here: one line per check, with the fix.

    Exit status 1 when a check FAILs.
    """
    if project:
        project_dir = os.path.abspath(project)
        state_dir = os.path.join(project_dir, STATE_DIRNAME)
        if os.environ.get("CTX_STATE_DIR"):
            state_dir = os.path.abspath(os.environ["CTX_STATE_DIR"])
    else:
        project_dir, state_dir = cli_location(refuse_link=False)
    if team:
        set_up_team(state_dir, as_json)
        return
    chosen_venv = os.path.abspath(venv or running_venv() or default_venv(os.environ))
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
            f"\n{counts[OK]} ok, {_plural(counts[WARN], 'warning')}, {counts[FAIL]} failed"
            + (" -- context-memory is not working here" if failed else "")
        )
    if failed:
        # Exit, not a return value: click drops return values in standalone mode.
        click.get_current_context().exit(EXIT_FAIL)


def set_up_team(state_dir: str, as_json: bool) -> None:
    """ctx-doctor --team: write what sharing needs, then print what changed and why."""
    from context_memory.team import TeamSetupError, explanation, setup_team

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
        click.echo("Commit them: git add .working-state && git commit -m 'Share context-memory'")


def main(argv: list[str] | None = None) -> int:
    """Entry point; 1 when a check FAILs (or on an error), click's usage errors 2."""
    return run_click(cli, argv, "ctx-doctor")


if __name__ == "__main__":
    sys.exit(main())
