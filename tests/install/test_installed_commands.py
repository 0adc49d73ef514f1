"""The commands ``./install`` registers, run as Claude Code runs them: read from the
settings.json the installer wrote, through ``sh -c``, in fresh processes, for every
supported Python on the machine, and from paths full of shell metacharacters.

- Start-up cost: the registered ctx-budget and ctx-statusline must not import ``re`` (pip
  23.x's console-script wrappers do: Python 3.10 to 3.12 bundle it), ``json``, click,
  orjson or filelock. Measured with PYTHONPROFILEIMPORTTIME (``-X importtime``) on the
  whole process the shell starts, launcher included.
- A HOME and a virtualenv whose paths hold a space, ``$``, a backtick, ``"``, ``\\`` and a
  newline: the install works (or, for ``$`` in the virtualenv, which pip's build tools
  cannot install into, is refused before anything changes), and every hook runs.

Each install is a real ``pip install`` (a minute per Python); a Python the machine lacks
is a failure in CI and a skip elsewhere.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from context_memory import __version__
from context_memory.core.command_table import HOOKS
from context_memory.setup.install.settings_edit import command_for
from helpers import installed
from helpers.paths import SAMPLE_TRANSCRIPT

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

# The interpreters are found, not named: pyenv's versions, python3.N on PATH, the system's
# own build, or CTX_TEST_PYTHONS (tests/helpers/installed.py).
PYTHONS = installed.matrix_labels()
# What the prompt path keeps out (tests/repo/test_import_cost.py checks the modules; this checks
# the processes the client really starts).
KEPT_OUT = ("re", "json", "click", "orjson", "filelock")
# Shell metacharacters and blanks a user's HOME may hold.
AWKWARD = 'h a`b"c\\d\ne f'
SESSION = "5f1d2c3b-aaaa-4bbb-8ccc-123456789abc"


def python_or_skip(label: str) -> str:
    """The interpreter of ``label``; a missing one skips, or fails in CI (but "system",
    which exists only where /usr/bin/python3 is a build of its own)."""
    found = installed.interpreters().get(label)
    if found is None:
        reason = installed.missing_reason(label)
        if installed.in_ci() and label != "system":
            pytest.fail(f"{reason}; CI must run every supported Python")
        pytest.skip(reason)
    return found.path


def any_python() -> str:
    """One supported interpreter: the tests that need a Python, not a particular one."""
    return installed.interpreters()[installed.primary_label()].path


def clean_env(**extra: str) -> dict[str, str]:
    """A user's shell: no PYTHONPATH to this checkout, no PYTHONUNBUFFERED, nothing of ours."""
    drop = ("PYTHONPATH", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in drop and not k.startswith(("CTX_", "CLAUDE", "XDG_"))
    }
    env.update(extra)
    return env


def install(source: Path, home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(source / "install"), *args],
        cwd=home,
        env=clean_env(HOME=str(home), **env),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def registered_hooks(home: Path) -> dict[str, str]:
    """program name -> command, as the settings.json written by ./install holds them."""
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    found = {}
    for groups in settings["hooks"].values():
        for group in groups:
            for entry in group["hooks"]:
                found[os.path.basename(entry["command"].strip('"'))] = entry["command"]
    return found


def registered(home: Path) -> dict[str, str]:
    """registered_hooks, and the status line's command."""
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    return {**registered_hooks(home), "ctx-statusline": settings["statusLine"]["command"]}


def run_command(
    command: str, stdin: bytes, cwd: Path, **env: str
) -> subprocess.CompletedProcess[bytes]:
    """``command`` as the client runs it: ``sh -c``, the payload on stdin."""
    return subprocess.run(
        ["/bin/sh", "-c", command],
        input=stdin,
        cwd=cwd,
        env=clean_env(**env),
        capture_output=True,
        timeout=60,
        check=False,
    )


def traced(command: str) -> str:
    """``command`` (a #! launcher) started by its own #! line plus ``-X importtime``: the
    launchers run isolated (-I), which ignores PYTHONPROFILEIMPORTTIME."""
    script = shlex.split(command)[0]
    with open(script, encoding="utf-8") as handle:
        first = handle.readline()
    assert first.startswith("#!"), first
    interpreter, *flags = first[2:].split()
    return shlex.join([interpreter, "-X", "importtime", *flags, script])


def imported(stderr: bytes) -> set[str]:
    """Top-level modules named in PYTHONPROFILEIMPORTTIME's report."""
    names = set()
    for line in stderr.decode("utf-8", "replace").splitlines():
        if line.startswith("import time:") and "cumulative" not in line:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    return names


def project_with_transcript(root: Path) -> tuple[Path, Path]:
    project = root / "project"
    project.mkdir(parents=True)
    transcript = root / "transcript.jsonl"
    shutil.copyfile(SAMPLE_TRANSCRIPT, transcript)
    return project, transcript


def payloads(project: Path, transcript: Path) -> dict[str, dict[str, Any]]:
    common = {"session_id": SESSION, "transcript_path": str(transcript), "cwd": str(project)}
    return {
        "ctx-budget": {**common, "hook_event_name": "UserPromptSubmit", "prompt": "next step"},
        "ctx-statusline": {
            **common,
            "model": {"id": "claude-sonnet-4-6", "display_name": "Sonnet 4.6"},
            "workspace": {"current_dir": str(project), "project_dir": str(project)},
        },
    }


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return installed.copy_source(tmp_path_factory.mktemp("installed") / "src")


@pytest.fixture(scope="module", params=list(PYTHONS))
def installed_home(
    request: pytest.FixtureRequest, source: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Path]:
    """./install --statusline with one Python, into a plain path (its launchers are #!
    scripts): the HOME whose settings.json names the commands."""
    python = python_or_skip(request.param)
    root = tmp_path_factory.mktemp(f"py-{request.param}")
    home = root / "home"
    home.mkdir()
    done = install(
        source,
        home,
        "--statusline",
        CTX_PYTHON=python,
        CTX_VENV=str(root / "venv"),
        CTX_BIN_DIR=str(root / "links"),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return request.param, home


def test_registered_commands_start_without_re(
    installed_home: tuple[str, Path], tmp_path: Path
) -> None:
    """Before: with pip 23.x (Python 3.10 to 3.12, Debian's 3.11) the registered ctx-budget
    imported re in its pip-written wrapper."""
    name, home = installed_home
    commands = registered(home)
    project, transcript = project_with_transcript(tmp_path)
    for program, payload in payloads(project, transcript).items():
        done = run_command(
            traced(commands[program]),
            json.dumps(payload).encode(),
            project,
            HOME=str(home),
        )
        assert done.returncode == 0, done.stderr[-2000:]
        found = imported(done.stderr)
        assert "context_memory" in found, (name, program, done.stderr[-2000:])
        assert sorted(found & set(KEPT_OUT)) == [], f"{name}: {program} imports them"
        assert "site" not in found, f"{name}: {program} is not started with -S"
        if program == "ctx-statusline":
            assert done.stdout.count(b"\n") == 1, done.stdout  # the status line itself


def test_every_registered_command_answers_version(installed_home: tuple[str, Path]) -> None:
    _, home = installed_home
    for program, command in registered(home).items():
        done = run_command(f"{command} --version", b"", home, HOME=str(home))
        assert (done.returncode, done.stdout, done.stderr) == (
            0,
            f"{program} {__version__}\n".encode(),
            b"",
        )


# --------------------------------------------------------------------------- awkward paths


@pytest.fixture(scope="module")
def awkward_install(
    source: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[subprocess.CompletedProcess[str], Path, Path]:
    """./install --statusline with HOME (and so the default virtualenv, the settings and the
    command links) under a path holding a space, a backtick, ", \\ and a newline."""
    python = any_python()
    home = tmp_path_factory.mktemp("awkward") / AWKWARD
    home.mkdir()
    done = install(source, home, "--statusline", CTX_PYTHON=python)
    return done, home, home / ".local" / "share" / "context-memory" / "venv"


def test_an_awkward_home_installs_and_every_hook_runs(
    awkward_install: tuple[subprocess.CompletedProcess[str], Path, Path], tmp_path: Path
) -> None:
    """Before: ./install printed done and every hook exited 127 (pip's #!/bin/sh trampoline
    broke on the quotes; its backtick even ran)."""
    done, home, venv = awkward_install
    assert done.returncode == 0, done.stdout + done.stderr
    assert "done; restart running Claude Code sessions" in done.stdout
    links = home / ".local" / "bin"
    escaped = str(links).replace("\\", "\\\\").replace("`", "\\`").replace('"', '\\"')
    assert f'export PATH="{escaped}:$PATH" in ~/.profile' in done.stdout
    commands = registered(home)
    assert commands == {
        **{spec.command: command_for(venv / "bin", spec.command) for spec in HOOKS},
        "ctx-statusline": command_for(venv / "bin", "ctx-statusline"),
    }
    project, transcript = project_with_transcript(tmp_path)
    for program, command in commands.items():
        version = run_command(f"{command} --version", b"", project, HOME=str(home))
        assert (version.returncode, version.stdout) == (0, f"{program} {__version__}\n".encode())
    for spec in HOOKS:
        payload = {
            "session_id": SESSION,
            "transcript_path": str(transcript),
            "cwd": str(project),
            "hook_event_name": spec.event,
            "prompt": "next step",
            "trigger": "manual",
            "compact_summary": "Summary: nothing was decided.",
            "source": "compact" if spec.matcher == "compact" else "startup",
        }
        ran = run_command(commands[spec.command], json.dumps(payload).encode(), project,
                          HOME=str(home))  # fmt: skip
        assert (ran.returncode, ran.stderr) == (0, b""), (spec, ran)
    # The suggested line, run by sh, puts exactly the links folder on PATH.
    line = done.stdout.split("(for example ", 1)[1].split(" in ~/.profile)", 1)[0]
    shown = subprocess.run(
        ["/bin/sh", "-c", f'{line}; printf %s "$PATH"'],
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout == f"{links}:/usr/bin:/bin"


def test_ctx_doctor_reports_awkward_paths_right(
    awkward_install: tuple[subprocess.CompletedProcess[str], Path, Path], tmp_path: Path
) -> None:
    """Before: ctx-doctor read the registered paths with shlex (which keeps the backslash of
    \\` and \\$) and reported every hook as missing; a newline split its lines."""
    done, home, venv = awkward_install
    assert done.returncode == 0
    doctor = subprocess.run(
        [str(venv / "bin" / "ctx-doctor")],
        cwd=tmp_path,
        env=clean_env(HOME=str(home)),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    shown = str(venv / "bin").replace("\n", "\\n")
    lines = doctor.stdout.splitlines()
    for spec in HOOKS:
        assert any(
            line.startswith("OK    hook " + spec.command)
            and line.endswith(f"{shown}/{spec.command}")
            for line in lines
        ), doctor.stdout
    checks, summary = lines[:-2], lines[-2:]
    assert all(line[:4] in ("OK  ", "WARN") for line in checks), doctor.stdout
    assert summary[0] == "" and summary[1].endswith(" 0 failed"), doctor.stdout


def test_a_dollar_in_the_virtualenv_path_is_refused_before_anything(
    source: Path,
    tmp_path: Path,
    awkward_install: tuple[subprocess.CompletedProcess[str], Path, Path],
) -> None:
    """pip's build (setuptools) expands $name in install paths and fails half-way; the
    installer says so up front and changes nothing. With CTX_VENV elsewhere, such a HOME
    installs fine (its settings and links hold the $)."""
    home = tmp_path / "h $HOME x"
    home.mkdir()
    done = install(source, home, CTX_PYTHON=any_python())
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        f"context-memory: error: the virtualenv path {home}/.local/share/context-memory/venv "
        "contains '$', which pip's build tools cannot install into. Set CTX_VENV to a folder "
        "without '$' (for example CTX_VENV=/opt/context-memory/venv ./install), then run "
        "./install again. Nothing was changed.\n"
    )
    assert os.listdir(home) == []

    _, _, venv = awkward_install  # already holds this source: no pip
    done = install(source, home, CTX_PYTHON=any_python(), CTX_VENV=str(venv))
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    commands = registered_hooks(home)
    assert commands == {spec.command: command_for(venv / "bin", spec.command) for spec in HOOKS}
    for program, command in commands.items():
        version = run_command(f"{command} --version", b"", home, HOME=str(home))
        assert (version.returncode, version.stdout) == (0, f"{program} {__version__}\n".encode())
