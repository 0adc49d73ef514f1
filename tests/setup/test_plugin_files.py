"""The plugin's files: manifests, hooks/hooks.json generated from the table ./install
registers (so the two ways in cannot drift), bin/ commands, the skill and slash commands."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from context_memory import __version__
from context_memory.core.command_table import HOOKS, PLUGIN_COMMANDS, HookSpec
from context_memory.handlers.allow import ALLOWED
from context_memory.setup.plugin import files as plugin_files
from context_memory.setup.plugin import venv as plugin_venv
from helpers.paths import subprocess_env

REPO = Path(__file__).resolve().parents[2]


def test_hooks_json_is_the_generated_file() -> None:
    committed = (REPO / "hooks" / "hooks.json").read_text(encoding="utf-8")
    assert committed == plugin_files.generated_files()["hooks/hooks.json"], (
        "hooks/hooks.json is stale: run PYTHONPATH=hooks "
        "python -m context_memory.setup.plugin.files"
    )


def test_hooks_json_registers_what_install_registers_through_the_plugin_root() -> None:
    hooks = json.loads((REPO / "hooks" / "hooks.json").read_text())["hooks"]
    found = [
        (event, group.get("matcher"), entry["command"], entry["timeout"])
        for event, groups in hooks.items()
        for group in groups
        for entry in group["hooks"]
    ]
    launcher = '"${CLAUDE_PLUGIN_ROOT}/bin/ctx-run" '
    expected = [(s.event, s.matcher, launcher + s.command, s.timeout) for s in HOOKS]
    assert sorted(found, key=str) == sorted(
        [*expected, ("PreToolUse", "Bash", launcher + "ctx-allow", 10)], key=str
    )
    assert {event for event, *_ in found} == {
        "UserPromptSubmit", "Stop", "PreCompact", "PostCompact", "SessionStart", "PreToolUse"
    }  # fmt: skip


def test_a_changed_table_changes_the_document() -> None:
    """The drift check can fail: another table gives another document."""
    moved = tuple(HookSpec(*spec[:3], spec.timeout + 1) for spec in HOOKS)
    assert plugin_files.hooks_document(moved) != plugin_files.hooks_document()


def test_manifests_name_the_marketplace_and_plugin_with_one_version() -> None:
    market = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text())
    plugin = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())
    assert market["name"] == plugin_venv.MARKETPLACE_NAME == "context-memory"
    (entry,) = market["plugins"]
    assert (entry["name"], entry["source"]) == ("context-memory", "./")
    assert plugin["name"] == plugin_venv.PLUGIN_NAME == "context-memory"
    assert entry["version"] == plugin["version"] == __version__


def test_manifests_are_the_generated_files() -> None:
    """The version is written in one place: __init__.py (pyproject.toml reads it), and the
    manifests are made from it."""
    manifests = {
        path: text
        for path, text in plugin_files.generated_files().items()
        if path.startswith(".claude-plugin/")
    }
    assert sorted(manifests) == [".claude-plugin/marketplace.json", ".claude-plugin/plugin.json"]
    for path, text in manifests.items():
        committed = (REPO / path).read_text(encoding="utf-8")
        assert committed == text, (
            f"{path} is stale: run PYTHONPATH=hooks python -m context_memory.setup.plugin.files"
        )
    assert 'dynamic = ["version"]' in (REPO / "pyproject.toml").read_text()
    assert not re.search(r'^version = "', (REPO / "pyproject.toml").read_text(), re.MULTILINE)


def test_the_manifests_follow_the_version(tmp_path: Path) -> None:
    (tmp_path / ".claude-plugin").mkdir()
    (tmp_path / "hooks").mkdir()
    assert plugin_files.main([str(tmp_path)]) == 0
    written = json.loads((tmp_path / ".claude-plugin" / "plugin.json").read_text())
    assert written["version"] == __version__
    assert plugin_files.marketplace_manifest("9.9.9")["plugins"][0]["version"] == "9.9.9"
    plugin = json.loads(plugin_files.generated_files("9.9.9")[".claude-plugin/plugin.json"])
    assert plugin["version"] == "9.9.9"


def test_venv_dependencies_are_the_projects() -> None:
    pyproject = (REPO / "pyproject.toml").read_text()
    block = pyproject.split("dependencies = [", 1)[1].split("]", 1)[0]
    assert tuple(re.findall(r'"([^"]+)"', block)) == plugin_venv.DEPENDENCIES


def test_dispatcher_knows_every_project_command_and_its_function() -> None:
    pyproject = (REPO / "pyproject.toml").read_text()
    scripts = dict(re.findall(r'^(ctx-[a-z]+) = "([^"]+)"', pyproject, re.MULTILINE))
    for command, target in scripts.items():
        if command == "ctx-install":  # pipx/uv installs only: the plugin has hooks.json
            assert command not in PLUGIN_COMMANDS
        elif command == "ctx-restore":  # the plugin's own, which also names the commands
            assert PLUGIN_COMMANDS[command][0] == "context_memory.handlers.plugin_restore:main"
        else:
            assert PLUGIN_COMMANDS[command][0] == target, command
    for target, _ in PLUGIN_COMMANDS.values():
        module, function = target.split(":")
        assert callable(getattr(__import__(module, fromlist=[function]), function))


@pytest.mark.parametrize("name", [*ALLOWED, "ctx-pin", "ctx-capture"])
def test_bin_commands_run_the_launcher(name: str) -> None:
    path = REPO / "bin" / name
    assert os.access(path, os.X_OK)
    assert path.read_text().splitlines()[-1] == f'exec "${{0%/*}}/ctx-run" {name} "$@"'
    assert name in PLUGIN_COMMANDS


def test_bin_holds_only_launchers() -> None:
    """bin/ is on the agent's PATH: nothing else lands there."""
    assert sorted(p.name for p in (REPO / "bin").iterdir()) == sorted(
        ["ctx-run", "ctx-pin", "ctx-capture", *ALLOWED]
    )


def frontmatter(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n"), path
    head = text.split("---\n", 2)[1]
    return dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)


def test_skill_has_a_name_and_description_and_teaches_the_habit() -> None:
    path = REPO / "skills" / "context-memory" / "SKILL.md"
    meta = frontmatter(path)
    assert meta["name"] == "context-memory"
    assert "decision" in meta["description"]
    body = path.read_text()
    for command in ("ctx-decide", "--rejected", "ctx-plan", "ctx-handoff", "--list"):
        assert command in body
    assert len(body) < 3000  # read in every session that loads it: short


@pytest.mark.parametrize("name", ["usage", "handoff", "decisions", "pin"])
def test_slash_commands_run_the_plugins_commands(name: str) -> None:
    path = REPO / "commands" / f"{name}.md"
    meta = frontmatter(path)
    assert meta["description"]
    assert "${CLAUDE_PLUGIN_ROOT}/bin/ctx-" in path.read_text()


def test_the_module_writes_the_committed_files(tmp_path: Path) -> None:
    (tmp_path / ".claude-plugin").mkdir()
    (tmp_path / "hooks").mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "context_memory.setup.plugin.files", str(tmp_path)],
        capture_output=True, text=True, env=subprocess_env(), timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    for path in (
        "hooks/hooks.json",
        ".claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
    ):
        assert (tmp_path / path).read_text() == (REPO / path).read_text()


def what_you_get() -> str:
    plugin_md = (REPO / "docs" / "plugin.md").read_text(encoding="utf-8")
    return plugin_md.split("\n## What you get\n", 1)[1].split("\n## ", 1)[0]


def test_what_you_get_names_every_hook_of_hooks_json_with_its_events() -> None:
    """docs/plugin.md's list of hooks left out ctx-guard (and the capture in ctx-extract)
    while hooks.json registered it (issue 25): the list is checked against the document."""
    events: dict[str, set[str]] = {}
    hooks = plugin_files.hooks_document()["hooks"]
    assert isinstance(hooks, dict)
    for event, groups in hooks.items():
        for group in groups:
            for hook in group["hooks"]:
                events.setdefault(hook["command"].rsplit(" ", 1)[1], set()).add(event)
    item = re.compile(r"^  - `(ctx-[a-z]+)` \(([^)]+)\)", re.MULTILINE)
    listed = {
        command: {event.split(" ", 1)[0] for event in named.split(", ")}
        for command, named in item.findall(what_you_get())
    }
    assert listed == events
    assert "`ctx-capture`" in what_you_get().split("`ctx-extract` (", 1)[1].split("\n  - ")[0]


def test_what_you_get_names_every_command_of_bin_and_the_ones_run_unprompted() -> None:
    section = " ".join(what_you_get().split())
    on_path = section.split("the plugin's `bin/` (", 1)[1].split(")", 1)[0]
    commands = sorted(name for name in os.listdir(REPO / "bin") if name != "ctx-run")
    assert sorted(re.findall(r"`(ctx-[a-z]+)`", on_path)) == commands
    unprompted = section.split("lets one plain call of ", 1)[1].split(" run without", 1)[0]
    assert re.findall(r"`(ctx-[a-z]+)`", unprompted) == list(ALLOWED)
