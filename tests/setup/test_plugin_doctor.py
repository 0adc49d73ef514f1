"""ctx-doctor and the plugin: a plugin install is recognised from the client's own records,
its hooks count as registered, a hook registered by both the plugin and ./install is a
warning, and a folder marketplace that moved (its hooks stop silently) is a failure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from context_memory.core.command_table import HOOKS
from context_memory.setup.doctor import all_checks as doctor
from context_memory.setup.doctor import checks_install
from helpers.doctor_env import invoke

REPO = Path(__file__).resolve().parents[2]
PLUGIN = "context-memory@context-memory"


def record_plugin(config: Path, source: Path, *, enabled: bool = True) -> None:
    """What `claude plugin install context-memory --marketplace <source>` writes."""
    plugins = config / "plugins"
    plugins.mkdir(parents=True, exist_ok=True)
    (plugins / "installed_plugins.json").write_text(json.dumps({"version": 2, "plugins": {PLUGIN: [
        {"scope": "user", "installPath": str(plugins / "cache/context-memory/context-memory/0.1.0"),
         "version": "0.1.0"}]}}))  # fmt: skip
    (plugins / "known_marketplaces.json").write_text(json.dumps({"context-memory": {
        "source": {"source": "directory", "path": str(source)},
        "installLocation": str(source)}}))  # fmt: skip
    settings = config / "settings.json"
    data = json.loads(settings.read_text()) if settings.exists() else {}
    data["enabledPlugins"] = {PLUGIN: enabled}
    settings.write_text(json.dumps(data))


def checkout(tmp_path: Path) -> Path:
    """A folder marketplace: the plugin's files."""
    folder = tmp_path / "checkout"
    for name in (".claude-plugin", "hooks"):
        shutil.copytree(REPO / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def lines_of(output: str) -> dict[str, list[tuple[str, str]]]:
    found: dict[str, list[tuple[str, str]]] = {}
    for line in output.splitlines():
        if line[:4].strip() in ("OK", "WARN", "FAIL"):
            found.setdefault(line[6:30].strip(), []).append((line[:4].strip(), line[31:]))
    return found


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, project: Path) -> Path:
    folder = tmp_path / "claude-config"  # the healthy fixture's too
    folder.mkdir(exist_ok=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(folder))
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path / "plugin-data"))
    monkeypatch.setenv("CTX_BIN_DIR", str(tmp_path / "no-links"))
    return folder


def test_a_plugin_only_install_is_healthy(config: Path, tmp_path: Path) -> None:
    source = checkout(tmp_path)
    record_plugin(config, source)
    result = invoke("--venv", str(tmp_path / "no-venv"))
    found = lines_of(result.stdout)
    assert found["plugin"] == [
        ("OK", f"{PLUGIN} 0.1.0 (user scope), hooks run from the folder {source} "
               "(moving or deleting it stops them)")
    ]  # fmt: skip
    labels = [s.event if s.matcher is None else f"{s.event}[{s.matcher}]" for s in HOOKS]
    hook_lines = [item for name in dict.fromkeys(f"hook {s.command}" for s in HOOKS)
                  for item in found[name]]  # fmt: skip
    assert sorted(hook_lines) == sorted(
        ("OK", f"{label} through the plugin {PLUGIN}") for label in labels
    )
    assert found["virtualenv"][0][0] == "WARN"
    assert "is not built yet; hooks run on the standard library" in found["virtualenv"][0][1]
    # Before: "nothing to check: <./install's virtualenv>/bin has none of the linked
    # commands", and the cron line's fix was ./install --cron, neither of which a plugin has.
    assert found["command links"] == [("OK", "the plugin's bin/ is on the agent's PATH")]
    ((status, cron),) = found["cron (ctx-merge)"]
    assert status == "OK" and "./install" not in cron
    assert cron.endswith(
        f" (the plugin sets up no cron job; {source}/bin/ctx-run ctx-merge merges by hand, "
        "and a crontab line can run it hourly)"
    )
    assert result.exit_code == 0, result.stdout


def test_the_same_hook_from_the_plugin_and_install_is_a_warning(
    healthy: Path,
    config: Path,
    tmp_path: Path,
) -> None:
    record_plugin(config, checkout(tmp_path))
    result = invoke("--venv", str(healthy))
    found = lines_of(result.stdout)
    names = {f"hook {spec.command}" for spec in HOOKS}
    warned = [item for name, items in found.items() if name in names for item in items]
    assert len(warned) == len(HOOKS)
    assert all(status == "WARN" for status, _ in warned)
    assert warned[0][1] == (
        f"UserPromptSubmit registered by the plugin {PLUGIN} and by ./install (user settings): "
        "it runs twice -- fix: keep one way: ./install --uninstall (keep the plugin), or claude "
        f"plugin uninstall {PLUGIN} (keep ./install)"
    )
    assert "keep one way: ./install --uninstall (keep the plugin)" in result.stdout
    assert result.exit_code == 0


def test_a_moved_folder_marketplace_fails_with_the_fix(config: Path, tmp_path: Path) -> None:
    source = checkout(tmp_path)
    record_plugin(config, source)
    source.rename(tmp_path / "moved")
    result = invoke("--venv", str(tmp_path / "no-venv"))
    ((status, message),) = lines_of(result.stdout)["plugin folder"]
    assert status == "FAIL"
    assert message == (
        f"{PLUGIN} 0.1.0 (user scope): its marketplace folder {source} is gone or moved, and "
        "the client runs a folder marketplace's hooks from that folder: they stop silently -- "
        f"fix: claude plugin uninstall {PLUGIN}, then claude plugin install context-memory "
        "--marketplace <the checkout's new path> (or put it back)"
    )
    assert "claude plugin install context-memory --marketplace <the checkout's new path>" in (
        result.stdout
    )
    assert result.exit_code == 1


def test_a_disabled_plugin_is_a_warning_and_registers_nothing(config: Path, tmp_path: Path) -> None:
    record_plugin(config, checkout(tmp_path), enabled=False)
    result = invoke("--venv", str(tmp_path / "no-venv"))
    found = lines_of(result.stdout)
    assert found["plugin"][0][0] == "WARN"
    assert found["hook ctx-budget"][0][0] == "FAIL"  # not registered anywhere, then
    assert result.exit_code == 1


def test_no_plugin_changes_nothing(config: Path, tmp_path: Path) -> None:
    checks = doctor.run_checks(str(tmp_path), str(tmp_path / ".working-state"), str(tmp_path))
    assert "plugin" not in [check.name for check in checks]
    assert checks_install.plugin_installs({"CLAUDE_CONFIG_DIR": str(config)}) == []


@pytest.mark.parametrize(
    "garbage", ["", "[]", '{"plugins": []}', '{"plugins": {"context-memory@x": "no"}}', "\xff"]
)
def test_odd_client_records_are_skipped(config: Path, garbage: str) -> None:
    (config / "plugins").mkdir()
    (config / "plugins" / "installed_plugins.json").write_text(garbage, errors="surrogateescape")
    assert checks_install.plugin_installs({"CLAUDE_CONFIG_DIR": str(config)}) == []
