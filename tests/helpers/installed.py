"""The project as a user has it: installed by the repository's real ``./install`` into a
private virtualenv, once per Python interpreter, and run as the commands Claude Code runs.

A hook is run by the command line ``./install`` wrote into settings.json (through ``sh -c``,
as the client runs it), the status line by its ``statusLine.command``; commands people run
(ctx-usage) from the virtualenv's ``bin``. Nothing here assumes what the launcher looks
like: whatever ``./install`` registers is what runs. Each run is a fresh process with a
clean environment: no PYTHONPATH (the installed package, not this checkout), no
PYTHONUNBUFFERED or other PYTHON* variable the client would not set.

Interpreters: Python 3.10 to 3.13 (``SUPPORTED``), found as ``python3.N`` on PATH or under
pyenv (``$PYENV_ROOT`` or ``~/.pyenv``), plus the system's ``/usr/bin/python3`` when it is
another build. ``CTX_TEST_PYTHONS`` (paths separated by ``os.pathsep``) replaces the
search. Installs are made once per test session (pip takes 20-30 s each) in a folder the
session fixture gives (``set_base``), and started in parallel on first use.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from context_memory.core.command_table import HOOKS

REPO = Path(__file__).resolve().parent.parent.parent
SUPPORTED = ("3.10", "3.11", "3.12", "3.13")
SYSTEM_PYTHON = "/usr/bin/python3"
STATUSLINE = "ctx-statusline"
# What the client never sets for a hook, and what would make a run something else than the
# installed command (PYTHONPATH: this checkout; PYTHONUNBUFFERED: other stdout buffering).
_DROPPED_PREFIXES = ("PYTHON", "CTX_", "CLAUDE", "VIRTUAL_ENV", "PIP_REQUIRE")
INSTALL_TIMEOUT = 900
# The environment the test run started with (this module is imported at collection): the
# search and the installs use it, never what a test has patched (a sandbox's HOME would hide
# pyenv, its XDG_CACHE_HOME would get pip's cache).
_RUNNER_ENV = dict(os.environ)


def in_ci() -> bool:
    return _RUNNER_ENV.get("CI", "").strip().lower() in ("1", "true", "yes")


class Interpreter(NamedTuple):
    label: str  # "3.11" for a supported minor version, "system" for /usr/bin/python3
    path: str
    version: str  # "3.11.7"


def _version_of(path: str) -> str | None:
    try:
        done = subprocess.run(
            [path, "-I", "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _candidates() -> list[str]:
    configured = _RUNNER_ENV.get("CTX_TEST_PYTHONS", "")
    if configured:
        return [path for path in configured.split(os.pathsep) if path]
    found = []
    home = _RUNNER_ENV.get("HOME") or os.path.expanduser("~")
    root = _RUNNER_ENV.get("PYENV_ROOT") or os.path.join(home, ".pyenv")
    found += sorted(glob.glob(os.path.join(root, "versions", "*", "bin", "python3")))
    for minor in SUPPORTED:
        on_path = shutil.which(f"python{minor}")
        if on_path:
            found.append(on_path)
    found.append(os.path.join(sys.base_prefix, "bin", "python3"))
    if os.path.exists(SYSTEM_PYTHON):
        found.append(SYSTEM_PYTHON)
    return found


_interpreters: dict[str, Interpreter] | None = None


def interpreters() -> dict[str, Interpreter]:
    """label -> interpreter: one per supported minor version found, plus "system" when
    /usr/bin/python3 is a build none of them is."""
    global _interpreters
    if _interpreters is not None:
        return _interpreters
    by_minor: dict[str, Interpreter] = {}
    versions: dict[str, str] = {}
    for path in _candidates():
        real = os.path.realpath(path)
        if real in versions:
            continue
        version = _version_of(path)
        if version is None:
            continue
        versions[real] = version
        minor = ".".join(version.split(".")[:2])
        if minor in SUPPORTED and minor not in by_minor and path != SYSTEM_PYTHON:
            by_minor[minor] = Interpreter(minor, path, version)
    found = {minor: by_minor[minor] for minor in SUPPORTED if minor in by_minor}
    system_version = versions.get(os.path.realpath(SYSTEM_PYTHON))
    if system_version:
        minor = ".".join(system_version.split(".")[:2])
        if minor in SUPPORTED:
            if minor not in found:
                found[minor] = Interpreter(minor, SYSTEM_PYTHON, system_version)
            elif found[minor].version != system_version:
                found["system"] = Interpreter("system", SYSTEM_PYTHON, system_version)
    _interpreters = found
    return found


def matrix_labels() -> list[str]:
    """What a test matrix is parametrized over: every supported version (a missing one
    skips or, in CI, fails in ``require``), plus "system" when it is a build of its own."""
    return [*SUPPORTED, *(["system"] if "system" in interpreters() else [])]


def primary_label() -> str:
    """The interpreter the single-Python fresh-process tests use: the one running pytest."""
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    return version if version in interpreters() else next(iter(interpreters()))


class Installed:
    """One real install: its virtualenv, HOME, settings.json and the registered commands."""

    def __init__(self, interpreter: Interpreter, root: Path) -> None:
        self.interpreter = interpreter
        self.root = root
        self.home = root / "home"
        self.venv = root / "venv"
        self.settings_path = self.home / ".claude" / "settings.json"
        self.install_output = ""
        self.settings: dict[str, Any] = {}

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")

    def install(self, source: Path) -> None:
        self.home.mkdir(parents=True)
        env = clean_env(
            HOME=str(self.home),
            CTX_PYTHON=self.interpreter.path,
            CTX_VENV=str(self.venv),
            CTX_BIN_DIR=str(self.root / "links"),
        )
        done = subprocess.run(
            [str(source / "install"), "--statusline"],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            check=False,
        )
        self.install_output = done.stdout + done.stderr
        if done.returncode != 0:
            raise RuntimeError(
                f"./install with {self.interpreter.path} failed ({done.returncode}):\n"
                + self.install_output
            )
        self.settings = json.loads(self.settings_path.read_text(encoding="utf-8"))

    # -- the registered commands

    def hook_command(self, event: str, matcher: str | None = None) -> str:
        """The shell command settings.json runs for our hook of ``event`` (and matcher)."""
        for group in self.settings.get("hooks", {}).get(event, []):
            if group.get("matcher") != matcher:
                continue
            for entry in group.get("hooks", []):
                if entry.get("type") == "command":
                    return str(entry["command"])
        raise LookupError(f"no {event} hook (matcher {matcher!r}) in {self.settings_path}")

    def command_for(self, command: str, event: str | None = None) -> str:
        """The shell command the client runs for ``command`` (a hook or the status line)."""
        if command == STATUSLINE:
            status = self.settings.get("statusLine") or {}
            return str(status["command"])
        for spec in HOOKS:
            if spec.command == command and (event is None or spec.event == event):
                return self.hook_command(spec.event, spec.matcher)
        raise LookupError(f"{command} is not a registered hook")

    def program(self, name: str) -> str:
        """A command people run (ctx-usage, ...), from the virtualenv."""
        return str(self.venv / "bin" / name)

    # -- running

    def run_registered(
        self,
        command: str,
        stdin: bytes = b"",
        *,
        event: str | None = None,
        args: Sequence[str] = (),
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float = 60,
    ) -> subprocess.CompletedProcess[bytes]:
        """Run a hook or the status line as the client does: its command line, via sh."""
        line = self.command_for(command, event)
        if args:
            line += " " + " ".join(_quote(arg) for arg in args)
        return self._run(["sh", "-c", line], stdin, cwd, env, timeout)

    def run_program(
        self,
        name: str,
        args: Sequence[str] = (),
        stdin: bytes = b"",
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float = 60,
    ) -> subprocess.CompletedProcess[bytes]:
        return self._run([self.program(name), *args], stdin, cwd, env, timeout)

    def _run(
        self,
        argv: list[str],
        stdin: bytes,
        cwd: str | os.PathLike[str] | None,
        env: Mapping[str, str] | None,
        timeout: float,
    ) -> subprocess.CompletedProcess[bytes]:
        """One fresh process in the install's clean environment (never raises on its exit)."""
        return subprocess.run(
            argv,
            input=stdin,
            capture_output=True,
            cwd=cwd or self.root,
            env=self.env(env),
            timeout=timeout,
            check=False,
        )

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        return clean_env(**{"HOME": str(self.home), **dict(extra or {})})


def _quote(arg: str) -> str:
    return "'" + arg.replace("'", "'\\''") + "'"


def clean_env(**extra: str) -> dict[str, str]:
    """The runner's environment without PYTHON*, CTX_*, CLAUDE* and virtualenv variables."""
    env = {k: v for k, v in _RUNNER_ENV.items() if not k.startswith(_DROPPED_PREFIXES)}
    env.update(extra)
    return env


# -- the per-session cache -------------------------------------------------------------------

_lock = threading.Lock()
_base: Path | None = None
_installs: dict[str, Installed] = {}
_threads: dict[str, threading.Thread] = {}
_errors: dict[str, BaseException] = {}


def set_base(base: Path) -> None:
    """Where this session's installs go (a session-scoped tmp folder)."""
    global _base
    with _lock:
        if _base is None:
            _base = base


def _snapshot_source(label: str) -> Path:
    """A copy of the repository for one install: pip builds in the tree (``build/``, which
    two builds of the same wheel tag at once would share), and the checkout stays as it is
    while tests edit it."""
    assert _base is not None, "installed.set_base() was not called (conftest fixture)"
    return copy_source(_base / f"source-{label}")


def copy_source(root: Path) -> Path:
    """Copy what ./install needs of this checkout (the script, pyproject, README, the
    licence pyproject's license-files names, the example settings, hooks/ without build
    leftovers) into the new folder ``root``."""
    root.mkdir(parents=True)
    for name in ("install", "pyproject.toml", "README.md", "LICENSE", "settings.example.json"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, root / name)
    shutil.copytree(
        REPO / "hooks",
        root / "hooks",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"),
    )
    return root


def _install_one(label: str, interpreter: Interpreter, source: Path) -> None:
    assert _base is not None
    installed = Installed(interpreter, _base / f"python-{label}")
    try:
        installed.install(source)
    except BaseException as exc:  # noqa: BLE001 - reported to every test that asks
        _errors[label] = exc
        return
    _installs[label] = installed


def start_all() -> None:
    """Start the install of every interpreter found, in parallel (each waits on pip)."""
    with _lock:
        for label, interpreter in interpreters().items():
            if label not in _threads:
                source = _snapshot_source(label)
                thread = threading.Thread(
                    target=_install_one, args=(label, interpreter, source), daemon=True
                )
                thread.start()
                _threads[label] = thread


def get(label: str) -> Installed:
    """The install for ``label``; raises LookupError when that Python is not here."""
    if label not in interpreters():
        raise LookupError(label)
    start_all()
    _threads[label].join(INSTALL_TIMEOUT)
    if label in _errors:
        raise _errors[label]
    return _installs[label]


def missing_reason(label: str) -> str:
    if label == "system":
        return f"{SYSTEM_PYTHON} is not a build of its own here"
    return (
        f"Python {label} is not on this machine (looked for python{label} on PATH and under "
        "pyenv; CTX_TEST_PYTHONS names interpreters explicitly)"
    )


def installed_with_project(root: Path) -> tuple[Installed, Path]:
    """The primary interpreter's real install, and a git project under ``root`` (a
    folder with ``.git``, as the hooks find a project)."""
    install = installed_for(primary_label())
    project = root / "project"
    (project / ".git").mkdir(parents=True)
    return install, project


def installed_for(label: str):
    """The real install for ``label``; a missing Python skips, or fails in CI."""

    try:
        return get(label)
    except LookupError:
        reason = missing_reason(label)
        if in_ci() and label != "system":
            pytest.fail(f"CI must run every supported Python: {reason}")
        pytest.skip(reason)
