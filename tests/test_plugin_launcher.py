"""bin/ctx-run, the plugin's launcher: it finds Python 3.10+ (skipping an old python3 and a
pyenv shim for a version that is not selected), remembers it, runs the hooks from the
plugin folder on the standard library alone, and without Python 3.10+ says one line and
exits 0. Plus the standard-library lock the hooks use before the virtualenv exists."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from context_memory.core import filelocks
from helpers.paths import subprocess_env
from hostile.harness import ENTRY_POINTS, Entry, Sandbox, seeded_sandbox

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

REPO = Path(__file__).resolve().parent.parent
LAUNCHER = REPO / "bin" / "ctx-run"
NO_PYTHON = (
    "context-memory: no Python 3.10 or newer found (python3, python3.10 to 3.14), so the "
    "plugin does nothing; install Python 3.10+ (https://www.python.org/downloads/) or set "
    "CTX_PYTHON to one\n"
)
THIRD_PARTY = ("click", "orjson", "filelock")
REAL_PYTHON = os.path.realpath(sys.executable)


def fake(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def launch(
    *args: str, path: str, cwd: Path, stdin: str = "{}", **env: str
) -> subprocess.CompletedProcess[str]:
    run_env = subprocess_env(PATH=path, **env)
    for name in ("CTX_PYTHON", "CLAUDE_PLUGIN_DATA"):
        if name not in env:
            run_env.pop(name, None)
    return subprocess.run(
        ["/bin/sh", str(LAUNCHER), *args],
        input=stdin, capture_output=True, text=True, cwd=cwd, env=run_env, timeout=120,
        check=False,
    )  # fmt: skip


def test_no_python_on_path_is_one_line_and_exit_0(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    done = launch("ctx-budget", path=str(empty), cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", NO_PYTHON)


def test_an_old_python3_and_an_unselected_pyenv_shim_are_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    # What the launcher's version check gets from a Python 3.9, and from a pyenv shim of a
    # version that is installed but not selected.
    fake(folder, "python3", 'echo "Python 3.9" >&2; exit 1')
    fake(folder, "python3.12", 'echo "pyenv: python3.12: command not found" >&2; exit 127')
    fake(folder, "python", "exit 1")
    done = launch("ctx-decide", "x", path=str(folder), cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", NO_PYTHON)


def test_a_python_310_plus_is_found_remembered_and_used_next_time(tmp_path: Path) -> None:
    folder, data = tmp_path / "bin", tmp_path / "data"
    folder.mkdir()
    fake(folder, "python3", "exit 1")  # too old
    fake(folder, "python3.11", f'exec "{sys.executable}" "$@"')  # a shim, as pyenv's
    payload = json.dumps(
        {
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "ctx-usage"},
            "cwd": str(tmp_path),
        }
    )
    done = launch("ctx-allow", path=str(folder), cwd=tmp_path, stdin=payload,
                  CLAUDE_PLUGIN_DATA=str(data))  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    assert '"permissionDecision":"allow"' in done.stdout
    # sys.executable of the interpreter found: the real one, not the PATH entry (a shim).
    assert (data / "python").read_text() == sys.executable + "\n"
    # Next time no search: an empty PATH still runs, with the remembered interpreter.
    empty = tmp_path / "empty"
    empty.mkdir()
    again = launch("ctx-allow", path=str(empty), cwd=tmp_path, stdin=payload,
                   CLAUDE_PLUGIN_DATA=str(data))  # fmt: skip
    assert (again.returncode, again.stdout, again.stderr) == (0, done.stdout, "")
    # A remembered interpreter that is gone: searched again.
    (data / "python").write_text(str(tmp_path / "gone" / "python3") + "\n")
    third = launch("ctx-allow", path=str(folder), cwd=tmp_path, stdin=payload,
                   CLAUDE_PLUGIN_DATA=str(data))  # fmt: skip
    assert (third.returncode, third.stdout) == (0, done.stdout)
    assert (data / "python").read_text() == sys.executable + "\n"


def test_an_unknown_command_says_which_exist(tmp_path: Path) -> None:
    done = launch("ctx-nope", path=os.environ["PATH"], cwd=tmp_path, CTX_PYTHON=sys.executable)
    assert done.returncode == 1
    assert done.stderr.startswith("context-memory: ctx-run needs a command, one of: ctx-allow, ")


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    return seeded_sandbox(tmp_path, monkeypatch)


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
def test_hooks_do_their_whole_work_on_the_standard_library(
    entry: Entry, sandbox: Sandbox, tmp_path: Path
) -> None:
    """Through the launcher, no virtualenv yet, imports traced: exit 0, no error line, the
    hook's output, and not one of click, orjson, filelock loaded."""
    traced = tmp_path / "traced-python"
    fake(traced.parent, traced.name, f'exec "{REAL_PYTHON}" -X importtime "$@"')
    done = launch(
        entry.command, path=os.environ["PATH"], cwd=sandbox.project,
        stdin=json.dumps(sandbox.payload(entry)), CTX_PYTHON=str(traced),
        CLAUDE_PLUGIN_DATA=str(tmp_path / "data"), **sandbox.env(),
    )  # fmt: skip
    errors = [line for line in done.stderr.splitlines() if not line.startswith("import time:")]
    imported = {
        line.split("|")[-1].strip().split(".")[0]
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert (done.returncode, errors) == (0, [])
    assert "context_memory" in imported  # the trace works
    # A hook that writes under a lock (not those of the prompt path) asks for filelock
    # (-X importtime lists a failed import too); under -I -S without the virtualenv there
    # is none: the standard library's lock.
    prompt_path = entry.command in ("ctx-budget", "ctx-statusline", "ctx-guard")
    tried = set() if prompt_path else {"filelock"}
    assert sorted(imported & ({*THIRD_PARTY, "site"} - tried)) == []
    if entry.command != "ctx-extract" or entry.event == "PreCompact":
        assert done.stdout.strip(), entry.id  # each of them has something to say here
    if entry.command == "ctx-extract":
        stages = sorted((sandbox.state / "sessions").rglob("stage-*.md"))
        assert stages, "the extract wrote its handoff stage under the standard-library lock"


def test_the_standard_library_lock_excludes_filelock(tmp_path: Path) -> None:
    filelock = pytest.importorskip("filelock", reason="the test runner's venv has filelock")
    path = str(tmp_path / "x.lock")
    real = filelock.FileLock(path)
    ours = filelocks.FileLock(path, timeout=0.2)
    with real:
        with pytest.raises(filelocks.Timeout) as caught:
            ours.acquire()
        assert isinstance(caught.value, TimeoutError)
    with ours:
        with ours:  # reentrant
            assert ours.is_locked
        assert ours.is_locked
        with pytest.raises(filelock.Timeout):
            filelock.FileLock(path).acquire(timeout=0.2)
    assert not ours.is_locked
    real.acquire(timeout=0.2)
    real.release()


def test_a_program_that_loaded_filelock_locks_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """core/filelocks.file_lock: filelock's lock where it can be imported, else (the
    plugin before its virtualenv, the installer under -S) the standard library's; either
    excludes the other."""
    import filelock

    path = str(tmp_path / "x.lock")
    portable = filelocks.file_lock(path, timeout=0.2)
    assert isinstance(portable._portable, filelock.FileLock)
    monkeypatch.setattr(filelocks, "_importable", [False])
    plain = filelocks.file_lock(path, timeout=0.2)
    assert plain._portable is None
    with portable, pytest.raises(filelocks.Timeout):
        plain.acquire()
    with plain:
        with pytest.raises(filelocks.Timeout) as caught:
            portable.acquire()
        assert isinstance(caught.value, TimeoutError)
    assert not portable.is_locked and not plain.is_locked
