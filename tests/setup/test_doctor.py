from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from context_memory.commands import doctor as doctor_cli
from context_memory.core.command_table import HOOKS, HookSpec
from context_memory.setup.doctor import all_checks as doctor
from context_memory.setup.doctor import checks_install, checks_state
from context_memory.setup.doctor.check import FAIL, OK, WARN, Check
from context_memory.setup.doctor.checks_install import (
    SettingsFile,
    check_command_links,
    check_hook,
    check_python,
    check_settings_file,
    check_statusline,
    check_venv,
    load_settings_file,
)
from context_memory.setup.doctor.checks_state import (
    check_breakers,
    check_cron,
    check_logs,
    check_state_dir,
)
from context_memory.setup.install import crontab
from context_memory.setup.install.command_links import LINKED_COMMANDS, apply_links, plan_links
from context_memory.setup.install.settings_edit import command_for, register_hooks
from context_memory.setup.install.venv import STAMP_NAME
from helpers.doctor_env import PROGRAMS, invoke, make_venv, write_settings

# What a healthy run prints, one check per line, in this order.
CHECK_NAMES = [
    "python",
    "virtualenv",
    "settings (user)",
    "settings (project)",
    "settings (local)",
    *(f"hook {spec.command}" for spec in HOOKS),
    "status line",
    "command links",
    "state folder",
    "cron (ctx-merge)",
    "hook errors (24 h)",
    "circuit breakers",
    "auto memory",
]
BUDGET = HookSpec("UserPromptSubmit", None, "ctx-budget", 10)
RESTORE = HookSpec("SessionStart", "startup|resume|clear", "ctx-restore", 10)


def loaded(label: str, path: Path) -> SettingsFile:
    return load_settings_file(label, path)


# --------------------------------------------------------------------------- single checks


def test_python():
    assert check_python((3, 11, 7), "/usr/bin/python3").line() == (
        "OK    python                   Python 3.11.7 at /usr/bin/python3"
    )
    check = check_python((3, 9, 18), "/usr/bin/python3")
    assert (check.status, check.message, check.fix) == (
        FAIL,
        "Python 3.9.18 at /usr/bin/python3 is older than 3.10",
        "install Python 3.10 or newer, then run ./install again",
    )


def test_venv(tmp_path):
    venv = make_venv(tmp_path)
    assert check_venv(str(venv), PROGRAMS).as_dict() == {
        "check": "virtualenv",
        "status": OK,
        "message": f"{venv} has all {len(PROGRAMS)} entry points",
        "fix": None,
    }
    (venv / "bin" / "ctx-budget").chmod(0o644)
    (venv / "bin" / "ctx-usage").unlink()
    check = check_venv(str(venv), PROGRAMS)
    assert (check.status, check.message) == (
        FAIL,
        f"{venv}: missing or not executable: ctx-budget, ctx-usage",
    )
    assert check_venv(str(tmp_path / "none"), PROGRAMS).line() == (
        f"FAIL  virtualenv               {tmp_path / 'none'} does not exist"
        " -- fix: run ./install (it creates it)"
    )
    (venv / "pyvenv.cfg").unlink()
    assert check_venv(str(venv), PROGRAMS).message == f"{venv} is not a virtualenv (no pyvenv.cfg)"


def test_settings_file_states(tmp_path):
    missing = check_settings_file(loaded("user", tmp_path / "settings.json"))
    assert (missing.status, missing.message) == (
        OK,
        f"{tmp_path / 'settings.json'} does not exist (nothing to check)",
    )
    good = write_settings(tmp_path / "good.json", {"model": "opus"})
    assert check_settings_file(loaded("user", good)).status == OK
    bad = tmp_path / "bad.json"
    bad.write_text('{"hooks": {,}')
    check = check_settings_file(loaded("project", bad))
    assert check.status == FAIL
    assert check.name == "settings (project)"
    assert check.message.startswith(f"{bad} is not valid JSON: Expecting property name")
    assert check.fix == f"repair {bad} (its backups are next to it: bad.json.bak-*)"
    shape = write_settings(tmp_path / "shape.json", {"hooks": []})
    assert check_settings_file(loaded("local", shape)).status == FAIL


def test_hook_registered_ok(tmp_path):
    venv = make_venv(tmp_path)
    user = write_settings(tmp_path / "user.json", register_hooks({}, HOOKS, venv / "bin"))
    files = [loaded("user", user), loaded("project", tmp_path / "none.json")]
    check = check_hook(BUDGET, files)
    assert check.line() == (
        "OK    hook ctx-budget          UserPromptSubmit in user settings: "
        f"{venv / 'bin' / 'ctx-budget'}"
    )
    assert check_hook(RESTORE, files).message == (
        f"SessionStart[startup|resume|clear] in user settings: {venv / 'bin' / 'ctx-restore'}"
    )


def test_hook_not_registered(tmp_path):
    files = [loaded("user", write_settings(tmp_path / "u.json", {}))]
    check = check_hook(BUDGET, files)
    assert (check.status, check.message, check.fix) == (
        FAIL,
        "not registered for UserPromptSubmit in any settings file",
        "run ./install (user settings) or ./install --project DIR; installed with "
        "pipx or uv tool: run ctx-install",
    )
    bad = tmp_path / "p.json"
    bad.write_text("{nope")
    files.append(loaded("project", bad))
    assert check_hook(BUDGET, files).message == (
        "not registered for UserPromptSubmit in any settings file (unreadable: project settings)"
    )


def test_hook_registered_twice(tmp_path):
    venv = make_venv(tmp_path)
    settings = register_hooks({}, [BUDGET], venv / "bin")
    files = [
        loaded("user", write_settings(tmp_path / "u.json", settings)),
        loaded("project", write_settings(tmp_path / "p.json", settings)),
    ]
    check = check_hook(BUDGET, files)
    assert (check.status, check.message) == (
        WARN,
        "registered 2 times for UserPromptSubmit (user settings, project settings): "
        "it runs 2 times",
    )


def test_hook_program_missing_or_not_executable(tmp_path):
    venv = make_venv(tmp_path)
    settings = register_hooks({}, [BUDGET], venv / "bin")
    files = [loaded("user", write_settings(tmp_path / "u.json", settings))]
    (venv / "bin" / "ctx-budget").chmod(0o644)
    check = check_hook(BUDGET, files)
    assert (check.status, check.message) == (
        FAIL,
        f"UserPromptSubmit in user settings: {venv / 'bin' / 'ctx-budget'} is not executable",
    )
    (venv / "bin" / "ctx-budget").unlink()
    assert check_hook(BUDGET, files).message == (
        f"UserPromptSubmit in user settings: {venv / 'bin' / 'ctx-budget'} does not exist"
    )


def test_hook_with_another_matcher(tmp_path):
    venv = make_venv(tmp_path)
    other = HookSpec("SessionStart", "startup", "ctx-restore", 10)
    settings = register_hooks({}, [other], venv / "bin")
    files = [loaded("local", write_settings(tmp_path / "l.json", settings))]
    check = check_hook(RESTORE, files)
    assert (check.status, check.message) == (
        WARN,
        "SessionStart in local settings with matcher 'startup', expected 'startup|resume|clear'",
    )


def test_statusline_states(tmp_path):
    venv = make_venv(tmp_path, (*PROGRAMS, "ctx-statusline"))
    ours = command_for(venv / "bin", "ctx-statusline")
    none = [loaded("user", tmp_path / "none.json")]
    assert check_statusline(none).message == (
        "not installed; hooks use the model table for the window"
    )
    mine = {"statusLine": {"type": "command", "command": ours}}
    files = [loaded("user", write_settings(tmp_path / "u.json", mine))]
    assert check_statusline(files).message == "ctx-statusline in user settings"
    chained = {"statusLine": {"type": "command", "command": f"{ours} --chain 'echo hi'"}}
    files = [loaded("project", write_settings(tmp_path / "p.json", chained))]
    assert check_statusline(files).message == (
        "ctx-statusline in project settings (after your own status line)"
    )
    (venv / "bin" / "ctx-statusline").unlink()
    check = check_statusline(files)
    assert (check.status, check.fix) == (FAIL, "run ./install --statusline")
    theirs = {"statusLine": {"type": "command", "command": "~/bin/my-line"}}
    files = [loaded("user", write_settings(tmp_path / "t.json", theirs))]
    assert check_statusline(files).status == OK
    assert check_statusline(files).message.startswith("your own status line (user settings)")


def linked_venv(tmp_path: Path) -> tuple[Path, Path]:
    """A complete virtualenv and its commands linked into ``tmp_path/bin dir``."""
    venv = make_venv(tmp_path)
    links = tmp_path / "bin dir"
    apply_links(venv / "bin", links, plan_links(venv / "bin", links))
    return venv, links


def on_path_env(links: Path, *before: Path) -> dict[str, str]:
    return {
        "CTX_BIN_DIR": str(links),
        "PATH": os.pathsep.join([*map(str, before), str(links), "/usr/bin", "/bin"]),
    }


def links_warning(venv: Path, links: Path, *before: Path) -> tuple[str, str | None]:
    """The message and the fix of check_command_links, which must warn, with ``links`` on
    PATH after ``before`` (on_path_env)."""
    check = check_command_links(str(venv), on_path_env(links, *before))
    assert check.status == WARN, check.line()
    return check.message, check.fix


def test_command_links_ok(tmp_path):
    venv, links = linked_venv(tmp_path)
    check = check_command_links(str(venv), on_path_env(links))
    assert check.as_dict() == {
        "check": "command links",
        "status": OK,
        "message": f"{len(LINKED_COMMANDS)} commands linked in {links}, on PATH",
        "fix": None,
    }


def test_command_links_folder_not_on_path(tmp_path):
    venv, links = linked_venv(tmp_path)
    check = check_command_links(str(venv), {"CTX_BIN_DIR": str(links), "PATH": "/usr/bin:/bin"})
    assert check.line() == (
        f"WARN  command links            {links} is not on PATH -- fix: add {links} to PATH "
        f'(export PATH="{links}:$PATH" in ~/.profile)'
    )


def test_command_links_missing(tmp_path):
    venv = make_venv(tmp_path)
    links = tmp_path / "bin dir"
    assert links_warning(venv, links) == (
        f"not linked in {links}: ctx-usage, ctx-decide, ctx-plan and "
        f"{len(LINKED_COMMANDS) - 3} more",
        "run ./install",
    )
    # Neither linked nor on PATH (a fresh ~/.local/bin): both problems, both fixes.
    environ = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    local_bin = tmp_path / "home" / ".local" / "bin"
    check = check_command_links(str(venv), environ)
    assert (check.status, check.message, check.fix) == (
        WARN,
        f"not linked in {local_bin}: ctx-usage, ctx-decide, ctx-plan and "
        f"{len(LINKED_COMMANDS) - 3} more; {local_bin} is not on PATH",
        f'run ./install, then add {local_bin} to PATH (export PATH="{local_bin}:$PATH" '
        "in ~/.profile)",
    )


def test_command_links_into_another_venv_need_an_install(tmp_path):
    venv = make_venv(tmp_path)
    old = make_venv(tmp_path / "old")
    links = tmp_path / "bin dir"
    apply_links(old / "bin", links, plan_links(old / "bin", links, ["ctx-merge"]))
    rest = [name for name in LINKED_COMMANDS if name != "ctx-merge"]
    apply_links(venv / "bin", links, plan_links(venv / "bin", links, rest))
    assert links_warning(venv, links) == (f"not linked in {links}: ctx-merge", "run ./install")


def test_command_links_foreign_program(tmp_path):
    venv, links = linked_venv(tmp_path)
    (links / "ctx-usage").unlink()
    (links / "ctx-usage").write_text("#!/bin/sh\necho mine\n")
    assert links_warning(venv, links) == (
        f"not this install's: {links / 'ctx-usage'}",
        "move them aside if they are left over, then run ./install",
    )


def test_command_links_shadowed_by_an_earlier_path_entry(tmp_path):
    venv, links = linked_venv(tmp_path)
    earlier = make_venv(tmp_path / "pipx", ["ctx-decide"]) / "bin"
    assert links_warning(venv, links, earlier) == (
        f"linked in {links}, but on PATH ctx-decide is {earlier / 'ctx-decide'}",
        f"put {links} earlier in PATH, or remove the other programs",
    )
    # After the links folder it does not matter.
    environ = on_path_env(links)
    environ["PATH"] += f"{os.pathsep}{earlier}"
    assert check_command_links(str(venv), environ).status == OK


def test_command_links_of_a_venv_without_the_commands(tmp_path):
    none = tmp_path / "none"
    check = check_command_links(str(none), on_path_env(tmp_path / "bin dir"))
    assert (check.status, check.message) == (
        OK,
        f"nothing to check: {none}/bin has none of the linked commands",
    )


def test_cli_warns_when_the_commands_are_not_on_path(healthy, project, monkeypatch):
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    result = invoke("--venv", str(healthy))
    assert result.exit_code == 0
    links = healthy.parent.parent / "bin dir"
    lines = result.stdout.splitlines()
    assert [line for line in lines if line.startswith(WARN)] == [
        f"WARN  command links            {links} is not on PATH -- fix: add {links} to PATH "
        f'(export PATH="{links}:$PATH" in ~/.profile)'
    ]
    assert lines[-1] == f"{len(CHECK_NAMES) - 1} ok, 1 warning, 0 failed"


def test_state_dir(tmp_path):
    assert check_state_dir(str(tmp_path)).message == f"{tmp_path} is writable"
    new = tmp_path / "p" / ".working-state"
    assert check_state_dir(str(new)).message == (
        f"{new} does not exist yet; it will be created on first use"
    )
    blocker = tmp_path / "file"
    blocker.write_text("x")
    check = check_state_dir(str(blocker))
    assert (check.status, check.message) == (FAIL, f"{blocker} exists but is not a folder")
    assert list(tmp_path.glob(".doctor-*")) == []


def test_cron(tmp_path):
    project = str(tmp_path / "app")
    venv = make_venv(tmp_path, ("ctx-merge",))
    line = crontab.cron_line(str(venv / "bin"), project)
    minute = crontab.cron_minute(project)
    other = "5 4 * * * /usr/bin/backup"
    check = check_cron(project, lambda: f"{other}\n{line}\n")
    assert (check.status, check.message) == (
        OK,
        f"hourly at :{minute:02d} for {project}: {venv / 'bin' / 'ctx-merge'}",
    )
    assert check_cron(project, lambda: other + "\n").message == (
        f"no hourly ctx-merge for {project} (./install --cron adds it)"
    )
    assert check_cron(project, lambda: f"{line}\n{line}\n").status == WARN
    (venv / "bin" / "ctx-merge").unlink()
    check = check_cron(project, lambda: line + "\n")
    assert (check.status, check.message, check.fix) == (
        FAIL,
        f"the crontab line for {project}: {venv / 'bin' / 'ctx-merge'} does not exist",
        "run ./install --cron",
    )

    def broken() -> str:
        raise crontab.CrontabError("crontab -l failed: permission denied")

    assert check_cron(project, broken).status == WARN


def test_the_cron_fix_names_the_installer_of_this_virtualenv(tmp_path):
    """Before: ./install --cron for everyone, also to pipx users, who have no ./install."""
    project = str(tmp_path / "app")
    pipx_venv = make_venv(tmp_path, ("ctx-merge",))
    assert doctor.installer_command(str(pipx_venv)) == "ctx-install"
    (pipx_venv / STAMP_NAME).write_text("stamp\n")  # what the ./install script writes
    assert doctor.installer_command(str(pipx_venv)) == "./install"
    assert doctor.installer_command(str(tmp_path / "none yet")) == "./install"
    check = check_cron(project, lambda: "", installer="ctx-install")
    assert check.message == f"no hourly ctx-merge for {project} (ctx-install --cron adds it)"
    line = crontab.cron_line(str(tmp_path / "gone" / "bin"), project)
    assert check_cron(project, lambda: line + "\n", installer="ctx-install").fix == (
        "run ctx-install --cron"
    )


def stamp(seconds_ago: float, now: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - seconds_ago))


def test_logs(tmp_path):
    now = 1_800_000_000.0
    assert check_logs(str(tmp_path), now).message == "no hook has logged an error"
    logs = tmp_path / "logs"
    logs.mkdir()
    log = logs / "hooks.log"
    log.write_text(
        f"{stamp(3 * 86400, now)}\tctx-budget\ts1\tOSError: old\n"
        f"{stamp(7200, now)}\tctx-budget\ts1\tValueError: one\n"
        "garbage line\n"
        f"{stamp(3600, now)}\tctx-extract\ts2\tKeyError: two\n"
        f"{stamp(60, now)}\tctx-budget\ts1\tValueError: three\n"
    )
    check = check_logs(str(tmp_path), now)
    assert (check.status, check.message, check.fix) == (
        WARN,
        f"3 errors (ctx-budget 2, ctx-extract 1); last at {stamp(60, now)}, "
        "ctx-budget: ValueError: three",
        f"read {log}",
    )
    assert check_logs(str(tmp_path), now + 2 * 86400).message == "none in the last day"
    # Every *.log of the folder counts; the newest line is the one shown.
    other = logs / "merge.log"
    other.write_text(f"{stamp(30, now)}\tctx-merge\t-\tOSError: disk full\n")
    (logs / "notes.txt").write_text(f"{stamp(10, now)}\tx\t-\tignored\n")
    check = check_logs(str(tmp_path), now)
    assert (check.message, check.fix) == (
        f"4 errors (ctx-budget 2, ctx-extract 1, ctx-merge 1); last at {stamp(30, now)}, "
        "ctx-merge: OSError: disk full",
        f"read {log} and {other}",
    )


def test_breakers(tmp_path):
    assert check_breakers(str(tmp_path)).message == "none open"
    for session, hook, count in [
        ("s1", "ctx-budget", 3),
        ("s2", "ctx-extract", 2),
        ("s3", "ctx-restore", 5),
    ]:
        folder = tmp_path / "sessions" / session
        folder.mkdir(parents=True)
        (folder / f".{hook}.failures").write_text(str(count))
    check = check_breakers(str(tmp_path))
    assert (check.status, check.message) == (
        WARN,
        "2 hooks switched off after 3 failures: ctx-budget in session s1, "
        "ctx-restore in session s3",
    )


# --------------------------------------------------------------------------- the command


def test_cli_all_ok(healthy, project):
    result = invoke("--venv", str(healthy))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [(line[:4].strip(), line[6:30].strip()) for line in lines[:-2]] == [
        (OK, name) for name in CHECK_NAMES
    ]
    assert lines[-2:] == ["", f"{len(CHECK_NAMES)} ok, 0 warnings, 0 failed"]
    links = healthy.parent.parent / "bin dir"
    assert lines[CHECK_NAMES.index("command links")] == (
        f"OK    command links            {len(LINKED_COMMANDS)} commands linked in {links}, on PATH"
    )
    assert doctor_cli.main(["--venv", str(healthy)]) == 0


def test_cli_fail_exits_1(healthy, project):
    (healthy / "bin" / "ctx-budget").unlink()
    result = invoke("--venv", str(healthy))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == (
        f"{len(CHECK_NAMES) - 2} ok, 0 warnings, 2 failed -- context-memory is not working here"
    )
    assert doctor_cli.main(["--venv", str(healthy)]) == 1


def test_cli_json(healthy, project):
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text("{broken")
    result = invoke("--json", "--venv", str(healthy))
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["ok"], data["project"], data["venv"]) == (False, str(project), str(healthy))
    assert data["state_dir"] == str(project / ".working-state")
    statuses = {item["check"]: item["status"] for item in data["checks"]}
    assert statuses["settings (local)"] == FAIL
    assert statuses["hook ctx-budget"] == OK
    assert set(data["checks"][0]) == {"check", "status", "message", "fix"}


def test_cli_project_option(healthy, tmp_path, project):
    other = tmp_path / "other"
    other.mkdir()
    data = json.loads(invoke("--json", "--project", str(other), "--venv", str(healthy)).stdout)
    assert data["project"] == str(other)
    assert data["state_dir"] == str(other / ".working-state")


def test_check_line_format():
    assert (
        Check("x", WARN, "msg", "do it").line()
        == "WARN  x                        msg -- fix: do it"
    )
    assert Check("x", OK, "msg").line() == "OK    x                        msg"


def test_usage_error_exits_2():
    assert doctor_cli.main(["--bogus"]) == 2


def test_running_venv_is_none_outside_a_venv(monkeypatch):
    monkeypatch.setattr(checks_install.sys, "prefix", "/usr")
    monkeypatch.setattr(checks_install.sys, "base_prefix", "/usr")
    monkeypatch.setattr(checks_install.sys, "executable", "/usr/bin/python3")
    assert checks_install.running_venv() is None


def test_running_venv_is_found_under_our_launchers(tmp_path, monkeypatch):
    """Issue 25: our launchers run -S, where sys.prefix is the base Python's: the
    virtualenv is found from the interpreter's path, as site finds it."""
    venv = make_venv(tmp_path)
    monkeypatch.setattr(checks_install.sys, "prefix", "/usr")
    monkeypatch.setattr(checks_install.sys, "base_prefix", "/usr")
    monkeypatch.setattr(checks_install.sys, "executable", str(venv / "bin" / "python"))
    assert checks_install.running_venv() == str(venv)


@pytest.mark.parametrize("manager", ["pipx", "uv"])
def test_the_virtualenv_checked_is_the_one_the_hooks_run_from(
    manager, project, tmp_path, monkeypatch
):
    """Issue 25: after pipx (or uv) and ctx-install, ctx-doctor checks the virtualenv whose
    hooks the settings run (<venv>/context-memory/bin), not ~/.local/share/context-memory."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CTX_VENV", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    managed = {"pipx": "pipx/venvs", "uv": "uv/tools"}[manager]
    venv = home / ".local" / "share" / managed / "context-memory"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    launchers = venv / "context-memory" / "bin"
    launchers.mkdir(parents=True)
    for folder in (venv / "bin", launchers):
        for name in PROGRAMS:
            (folder / name).write_text("#!/bin/sh\n")
            (folder / name).chmod(0o755)
    links = home / ".local" / "bin"
    apply_links(venv / "bin", links, plan_links(venv / "bin", links))  # as pipx links them
    monkeypatch.setenv("PATH", f"{links}{os.pathsep}{os.environ['PATH']}")
    write_settings(home / ".claude" / "settings.json", register_hooks({}, HOOKS, launchers))
    monkeypatch.setattr(checks_install, "expected_programs", lambda: list(PROGRAMS))
    monkeypatch.setattr(
        checks_state, "check_cron", lambda project, _=None, **kw: Check("cron", OK, "")
    )
    # ctx-doctor run from the virtualenv's python under -S: sys.prefix says nothing.
    monkeypatch.setattr(checks_install.sys, "prefix", "/usr")
    monkeypatch.setattr(checks_install.sys, "base_prefix", "/usr")
    monkeypatch.setattr(checks_install.sys, "executable", "/usr/bin/python3")
    result = invoke("--json")
    data = json.loads(result.stdout)
    assert data["venv"] == str(venv)
    assert {c["check"]: c["status"] for c in data["checks"]} == {
        **{c["check"]: OK for c in data["checks"]}
    }, result.stdout
    assert result.exit_code == 0
    assert not (home / ".local" / "share" / "context-memory").exists()
    # The package uninstalled, the hooks left behind: the checks name that virtualenv.
    import shutil

    shutil.rmtree(venv)
    data = json.loads(invoke("--json").stdout)
    assert data["venv"] == str(venv)
    virtualenv = next(c for c in data["checks"] if c["check"] == "virtualenv")
    assert (virtualenv["status"], virtualenv["message"]) == (FAIL, f"{venv} does not exist")


def test_expected_programs_falls_back_to_the_registry(monkeypatch):
    import importlib.metadata

    def not_installed(name: str):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", not_installed)
    assert checks_install.expected_programs() == sorted(
        {*LINKED_COMMANDS, *(spec.command for spec in HOOKS)}
    )
    assert set(checks_install.expected_programs()) == set(PROGRAMS) | {"ctx-budget"}


def test_project_without_settings_reports_each_hook(project, tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "empty-config"))
    monkeypatch.setenv("CTX_BIN_DIR", str(tmp_path / "bin dir"))
    checks = doctor.run_checks(
        str(project), str(project / ".working-state"), str(tmp_path / "v"), os.environ, str
    )
    hooks = [c for c in checks if c.name.startswith("hook ctx-")]
    assert [(c.name, c.status) for c in hooks] == [(f"hook {s.command}", FAIL) for s in HOOKS]


# What a newcomer met (issue 13; these were test_newcomer_commands.py):
# ctx-doctor in the home folder counts ~/.claude/settings.json once.
def test_doctor_in_the_home_folder_counts_the_user_settings_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    environ = {"HOME": str(home)}
    files = checks_install.settings_files(str(home), environ)
    assert [(f.label, f.path) for f in files] == [
        ("user", home / ".claude" / "settings.json"),
        ("local", home / ".claude" / "settings.local.json"),
    ]
    elsewhere = checks_install.settings_files(str(tmp_path / "app"), environ)
    assert [f.label for f in elsewhere] == ["user", "project", "local"]
