"""Installed hooks run isolated from the user's Python environment (issue 19, item 7).

A ``sitecustomize.py`` on PYTHONPATH that prints (coverage tools and conda set-ups install
such files), a ``usercustomize.py`` in the user's site-packages, and modules named like the
ones the hooks import: none of them may reach the hooks. Every way in is run as the client
runs it: ./install's registered commands (tests/helpers/installed.py, per Python), the same
launchers as ctx-install writes them into a pipx or uv virtualenv, and the plugin's
bin/ctx-run. The hook still prints exactly its one JSON document.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import transcript_rows as tr
from helpers.cli_run import run_program
from helpers.hook_payloads import as_bytes, prompt_payload
from helpers.hook_payloads import status_payload as status_json
from helpers.installed import installed_for
from helpers.paths import subprocess_env

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

REPO = Path(__file__).resolve().parents[2]
SESSION = "11111111-2222-3333-4444-555555555555"
NOISE = "HOSTILE ENVIRONMENT LOADED"
# Other PYTHON* variables of a user's shell that change what a hook prints: every import on
# stderr; an interactive prompt after the script.
HOSTILE_VARIABLES = {"PYTHONVERBOSE": "1", "PYTHONINSPECT": "1"}


def hostile_folder(root: Path) -> Path:
    """A PYTHONPATH entry that prints on start-up and shadows modules the hooks import."""
    folder = root / "hostile-pythonpath"
    (folder / "context_memory").mkdir(parents=True)
    (folder / "sitecustomize.py").write_text(f"print({NOISE!r})\n")
    (folder / "usercustomize.py").write_text(f"print({NOISE!r})\n")
    shadow = f"print({NOISE!r})\nraise ImportError('shadowed')\n"
    (folder / "context_memory" / "__init__.py").write_text(shadow)
    for name in ("os", "stat", "time", "_json", "json", "re", "codecs", "encodings"):
        (folder / f"{name}.py").write_text(shadow)
    return folder


def user_site(home: Path, version: str) -> Path:
    """The user's site-packages for ``version`` (3.11.7 -> ~/.local/lib/python3.11/...)."""
    minor = ".".join(version.split(".")[:2])
    folder = home / ".local" / "lib" / f"python{minor}" / "site-packages"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "usercustomize.py").write_text(f"print({NOISE!r})\n")
    (folder / "context_memory.py").write_text(f"print({NOISE!r})\n")
    return folder


def project_at(root: Path, tokens: int) -> tuple[Path, Path]:
    project = root / "project"
    (project / ".working-state").mkdir(parents=True)
    rows = [tr.user("go"), tr.assistant("m1", tr.usage(tokens, 0, 0, 0)), *tr.bookkeeping()]
    transcript = tr.write_transcript(project / "session.jsonl", rows)
    return project, transcript


def budget_payload(project: Path, transcript: Path) -> bytes:
    return as_bytes(prompt_payload(SESSION, transcript, project))


def status_payload(project: Path, transcript: Path) -> bytes:
    return as_bytes(status_json(SESSION, transcript, project))


def assert_one_budget_document(stdout: bytes) -> None:
    """Exactly one JSON document, the budget instruction (not the noise, not twice)."""
    assert NOISE.encode() not in stdout, stdout
    document = json.loads(stdout)
    text = document["hookSpecificOutput"]["additionalContext"]
    assert text.startswith("[CONTEXT BUDGET] ~170K/200K (85%)"), text
    assert stdout.count(b"\n") == 1


def test_installed_hooks_ignore_a_hostile_python_environment(
    python_label: str, tmp_path: Path
) -> None:
    """Before: ctx-budget's stdout was the sitecustomize line, then the JSON (or, with a
    shadowing context_memory, nothing but an ImportError line)."""
    install = installed_for(python_label)
    project, transcript = project_at(tmp_path, 170_000)
    hostile = hostile_folder(tmp_path)
    user_site(install.home, install.interpreter.version)
    env = {"PYTHONPATH": str(hostile), **HOSTILE_VARIABLES}

    done = install.run_registered(
        "ctx-budget", budget_payload(project, transcript), cwd=project, env=env
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert_one_budget_document(done.stdout)

    done = install.run_registered(
        "ctx-statusline", status_payload(project, transcript), cwd=project, env=env
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.count(b"\n") == 1 and b"170K/200K" in done.stdout, done.stdout
    assert NOISE.encode() not in done.stdout

    # The other hooks and a by-hand command, started the same way, are not reached either.
    for command, event in (("ctx-restore", "SessionStart"), ("ctx-extract", "Stop")):
        done = install.run_registered(command, b"", event=event, cwd=project, env=env)
        assert done.returncode == 0 and NOISE.encode() not in done.stdout + done.stderr
        assert done.stderr.startswith(f"{command}: no hook input on stdin".encode())
    done = install.run_program("ctx-usage", ["--json", str(transcript)], cwd=project, env=env)
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    assert json.loads(done.stdout)["tokens"] == 170_000


def test_launchers_written_into_a_pipx_style_virtualenv_are_isolated(tmp_path: Path) -> None:
    """ctx-install writes the same launchers into the virtualenv pipx or uv made: a venv with
    the package installed as pip installs it (no ./install), then write_launchers into
    their own folder, <venv>/context-memory/bin (pipx's <venv>/bin stays pipx's)."""
    from context_memory.setup.install.launchers import write_launchers
    from context_memory.setup.install.venv import launcher_dir_for

    venv = tmp_path / "pipx venv"  # a space: the sh-trampoline form of the launcher
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    # What pip leaves: the package and its dist-info with the console scripts.
    subprocess.run(
        ["cp", "-r", str(REPO / "hooks" / "context_memory"), str(site / "context_memory")],
        check=True,
    )
    dist = site / "context_memory-0.1.0.dist-info"
    dist.mkdir()
    (dist / "entry_points.txt").write_text(
        "[console_scripts]\nctx-budget = context_memory.handlers.budget:main\n"
        "ctx-statusline = context_memory.handlers.statusline:main\n"
    )
    launchers = launcher_dir_for(venv)
    assert sorted(write_launchers(venv, launchers)) == ["ctx-budget", "ctx-statusline"]
    assert not (venv / "bin" / "ctx-budget").exists()
    project, transcript = project_at(tmp_path, 170_000)
    hostile = hostile_folder(tmp_path)
    env = subprocess_env(PYTHONPATH=str(hostile), HOME=str(tmp_path), **HOSTILE_VARIABLES)
    done = run_program(
        [str(launchers / "ctx-budget")],
        cwd=project,
        env=env,
        stdin=budget_payload(project, transcript),
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert_one_budget_document(done.stdout)


@pytest.mark.parametrize("command", ["ctx-budget", "ctx-statusline"])
def test_the_plugin_launcher_is_isolated(tmp_path: Path, command: str) -> None:
    """bin/ctx-run set PYTHONPATH to the plugin's hooks/: the user's PYTHONPATH was lost
    before, but a sitecustomize on it ran and printed first. Now -I -S and the path set by
    the dispatcher itself."""
    project, transcript = project_at(tmp_path, 170_000)
    hostile = hostile_folder(tmp_path)
    user_site(tmp_path, f"{sys.version_info[0]}.{sys.version_info[1]}")
    env = subprocess_env(
        PYTHONPATH=str(hostile),
        HOME=str(tmp_path),
        CTX_PYTHON=os.path.realpath(sys.executable),
        CLAUDE_PLUGIN_DATA=str(tmp_path / "data"),
        **HOSTILE_VARIABLES,
    )
    payload = (budget_payload if command == "ctx-budget" else status_payload)(project, transcript)
    done = run_program(
        ["/bin/sh", str(REPO / "bin" / "ctx-run"), command], cwd=project, env=env, stdin=payload
    )
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    if command == "ctx-budget":
        assert_one_budget_document(done.stdout)
    else:
        assert done.stdout.count(b"\n") == 1 and b"170K/200K" in done.stdout, done.stdout
