"""The plugin's private virtualenv under $CLAUDE_PLUGIN_DATA: really built (python -m venv and
pip, offline through the machine's pip configuration), used only when its stamp matches
the plugin's manifest and Python, rebuilt after a version change, built once when two
sessions start together, started in the background by the SessionStart hook."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from context_memory.setup.plugin import venv as plugin_venv
from helpers.paths import subprocess_env

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

REPO = Path(__file__).resolve().parents[2]
BUILD = [sys.executable, "-m", "context_memory.setup.plugin.venv", "build"]


def plugin_copy(tmp: Path, version: str = "0.1.0") -> Path:
    """A plugin root whose manifest says ``version`` (its hooks are this checkout's)."""
    root = tmp / f"plugin-{version}"
    (root / ".claude-plugin").mkdir(parents=True)
    manifest = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())
    manifest["version"] = version
    (root / ".claude-plugin" / "plugin.json").write_text(json.dumps(manifest))
    (root / "hooks").symlink_to(REPO / "hooks")
    return root


def builds(data: Path) -> int:
    log = data / plugin_venv.BUILD_LOG
    text = log.read_text() if log.exists() else ""
    return sum(line.startswith(plugin_venv.BUILD_MARK) for line in text.splitlines())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(plugin root, data folder) with the venv built once for the module."""
    base = tmp_path_factory.mktemp("plugin-venv")
    root, data = plugin_copy(base), base / "data"
    plugin_venv.build(str(data), str(root))
    return root, data


def test_a_built_venv_is_ready_and_holds_the_packages(built: tuple[Path, Path]) -> None:
    root, data = built
    site = plugin_venv.ready(str(data), str(root))
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    assert site == str(data / "venv" / "lib" / version / "site-packages")
    stamp = (data / "venv" / plugin_venv.STAMP_FILE).read_bytes()
    assert stamp == (root / ".claude-plugin/plugin.json").read_bytes() + (
        b"\npython %d.%d\n" % sys.version_info[:2]
    )
    done = subprocess.run(
        [str(data / "venv/bin/python"), "-c", "import click, orjson, filelock; print('ok')"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.stdout == "ok\n", done.stderr
    assert builds(data) == 1
    # Ready: nothing to do, no second build.
    assert plugin_venv.build(str(data), str(root)) == site
    assert plugin_venv.start_background_build(str(data), str(root)) is False
    assert builds(data) == 1


def test_a_half_built_venv_is_not_used(tmp_path: Path) -> None:
    root, data = plugin_copy(tmp_path), tmp_path / "data"
    (data / "venv" / "lib").mkdir(parents=True)  # no stamp: pip did not finish
    assert plugin_venv.ready(str(data), str(root)) is None
    (data / "venv" / plugin_venv.STAMP_FILE).write_bytes(plugin_venv.wanted_stamp(str(root)))
    assert plugin_venv.ready(str(data), str(root)) is None  # stamp, but no site-packages


def test_a_new_plugin_version_rebuilds(built: tuple[Path, Path], tmp_path: Path) -> None:
    old_root, old_data = built
    data = tmp_path / "data"
    shutil.copytree(old_data, data, symlinks=True)
    (data / plugin_venv.BUILD_LOG).write_text("")
    assert plugin_venv.ready(str(data), str(old_root)) is not None
    new_root = plugin_copy(tmp_path, version="0.2.0")
    assert plugin_venv.ready(str(data), str(new_root)) is None
    (data / "venv" / "left-over").write_text("from 0.1.0")
    site = plugin_venv.build(str(data), str(new_root))
    assert site == plugin_venv.ready(str(data), str(new_root))
    assert b'"version": "0.2.0"' in (data / "venv" / plugin_venv.STAMP_FILE).read_bytes()
    assert not (data / "venv" / "left-over").exists()  # venv --clear: a fresh one
    assert builds(data) == 1
    assert plugin_venv.ready(str(data), str(old_root)) is None


def test_two_sessions_starting_together_build_once(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = subprocess_env(CLAUDE_PLUGIN_DATA=str(data))
    starts = [
        subprocess.Popen(BUILD, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    results = [(p.wait(timeout=600), p.stderr.read() if p.stderr else "") for p in starts]
    assert results == [(0, ""), (0, ""), (0, "")]
    assert builds(data) == 1
    assert plugin_venv.ready(str(data), str(REPO)) is not None


def test_background_build_is_skipped_while_another_builds(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with plugin_venv.build_lock(str(data)):
        assert plugin_venv.building(str(data)) is True
        assert plugin_venv.start_background_build(str(data), str(REPO)) is False
        with pytest.raises(plugin_venv.BuildError, match="another process has been building"):
            plugin_venv.build(str(data), str(REPO), wait=0.3)
    assert plugin_venv.building(str(data)) is False
    assert builds(data) == 0


def test_a_failed_build_says_why_and_leaves_no_stamp(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with pytest.raises(plugin_venv.BuildError, match=r"exited 1; see .*venv-build\.log"):
        plugin_venv.build(str(data), str(REPO), python=shutil.which("false") or "/bin/false")
    assert plugin_venv.ready(str(data), str(REPO)) is None
    assert not (data / "venv" / plugin_venv.STAMP_FILE).exists()


def test_session_start_starts_the_build_in_the_background(tmp_path: Path) -> None:
    """ctx-restore returns at once (its context names the commands); the venv appears."""
    data, project = tmp_path / "data", tmp_path / "project"
    project.mkdir()
    payload = {"hook_event_name": "SessionStart", "source": "startup", "cwd": str(project),
               "session_id": "s1"}  # fmt: skip
    done = subprocess.run(
        [str(REPO / "bin" / "ctx-run"), "ctx-restore"],
        input=json.dumps(payload), capture_output=True, text=True, cwd=project,
        env=subprocess_env(CLAUDE_PLUGIN_DATA=str(data)), timeout=60, check=False,
    )  # fmt: skip
    # Returned before the build (pip takes seconds) finished: it was not waited for.
    assert plugin_venv.ready(str(data), str(REPO)) is None
    assert (done.returncode, done.stderr) == (0, "")
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("[CONTEXT MEMORY] ")
    deadline = time.monotonic() + 300
    while plugin_venv.ready(str(data), str(REPO)) is None and time.monotonic() < deadline:
        time.sleep(0.5)
    assert plugin_venv.ready(str(data), str(REPO)) is not None
    assert builds(data) == 1
    while plugin_venv.building(str(data)) and time.monotonic() < deadline:
        time.sleep(0.2)  # the builder exits: nothing is left running


def test_a_command_needing_click_builds_the_venv_first(tmp_path: Path) -> None:
    data, project = tmp_path / "data", tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    env = subprocess_env(CLAUDE_PLUGIN_DATA=str(data), CLAUDE_CODE_SESSION_ID="s1")
    done = subprocess.run(
        [str(REPO / "bin" / "ctx-decide"), "use X", "--reason", "why"],
        capture_output=True, text=True, cwd=project, env=env, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "preparing the plugin's Python packages" in done.stderr
    (record,) = [
        json.loads(x) for x in (project / ".working-state/decisions.jsonl").read_text().splitlines()
    ]
    assert (record["decision"], record["reason"], record["session"]) == ("use X", "why", "s1")
    assert builds(data) == 1
