"""The one command registry (core/command_table.py): pyproject.toml's [project.scripts] is
static, so this test keeps it equal to the registry's SCRIPTS; the links, the plugin's
dispatcher and the hook table are derived from it and name only its commands."""

from __future__ import annotations

import re
from pathlib import Path

from context_memory.core.command_table import (
    COMMANDS,
    HOOK_GUIDES,
    HOOKS,
    PLUGIN_COMMANDS,
    SCRIPTS,
)
from context_memory.setup.install.command_links import LINKED_COMMANDS

REPO = Path(__file__).resolve().parents[2]


def test_pyproject_scripts_are_the_registry_s() -> None:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.scripts]\n", 1)[1].split("\n[", 1)[0]
    # (tomllib is 3.11+; the section is one `name = "module:function"` a line.)
    assert re.findall(r'^([\w-]+) = "([^"]+)"$', section, re.MULTILINE) == list(SCRIPTS.items())


def test_every_script_is_linked_in_registry_order() -> None:
    assert tuple(SCRIPTS) == LINKED_COMMANDS
    assert len({command.name for command in COMMANDS}) == len(COMMANDS)


def test_every_hook_is_a_command_with_a_guide_naming_its_events() -> None:
    names = {command.name for command in COMMANDS}
    for spec in HOOKS:
        assert spec.command in names and spec.command in PLUGIN_COMMANDS
        events = HOOK_GUIDES[spec.command][0]
        assert spec.event in events, (spec.command, spec.event, events)


def test_the_plugin_runs_every_script_but_the_installer() -> None:
    assert set(PLUGIN_COMMANDS) == (set(SCRIPTS) - {"ctx-install"}) | {"ctx-allow", "ctx-pin"}
