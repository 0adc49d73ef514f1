"""settings_edit: the pure edits of Claude Code's settings.json, plus load, backup and write."""

from __future__ import annotations

import copy
import json
import os
import stat
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from context_memory.core.command_table import HOOKS, HookSpec
from context_memory.setup.install.settings_edit import (
    EXAMPLE_VENV,
    command_for,
    example_settings_text,
    is_own_entry,
    lookalike_entries,
    own_entries,
    register_hooks,
    unregister_hooks,
)
from context_memory.setup.install.settings_file import (
    Settings,
    SettingsError,
    backup_file,
    detect_indent,
    dumps_settings,
    read_settings,
    replace_if_unchanged,
)

REPO = Path(__file__).resolve().parents[2]


def load_settings(path: Path) -> Settings:
    return read_settings(path)[1]


BIN = "/home/u/.local/share/context-memory/venv/bin"
BUDGET = f'"{BIN}/ctx-budget"'
FIX = "then run ./install again. The file was not changed."

# The entries later issues add, so the matcher logic is exercised whatever HOOKS holds today.
SPECS = (
    HookSpec("UserPromptSubmit", None, "ctx-budget", 10),
    HookSpec("Stop", None, "ctx-stop", 30),
    HookSpec("PreCompact", None, "ctx-precompact", 60),
    HookSpec("SessionStart", "startup|resume|clear", "ctx-session-start", 10),
    HookSpec("SessionStart", "compact", "ctx-post-compact", 10),
)


def entry(command: str, timeout: int = 10) -> dict[str, Any]:
    return {"type": "command", "command": command, "timeout": timeout}


def ours(name: str, timeout: int = 10, bin_dir: str = BIN) -> dict[str, Any]:
    return entry(f'"{bin_dir}/{name}"', timeout)


FOREIGN = entry("~/bin/notify.sh", 5)
FOREIGN_2 = {"type": "command", "command": "python3 /opt/x.py --flag", "async": True}


def budget_only() -> tuple[HookSpec, ...]:
    return (HookSpec("UserPromptSubmit", None, "ctx-budget", 10),)


# --------------------------------------------------------------------------- command_for


def test_command_is_the_absolute_path_in_double_quotes() -> None:
    assert command_for(BIN, "ctx-budget") == BUDGET
    assert command_for(Path("/root/.local/share/context-memory/venv/bin"), "ctx-budget") == (
        '"/root/.local/share/context-memory/venv/bin/ctx-budget"'
    )


@pytest.mark.parametrize(
    "folder",
    [
        "/home/a b/venv/bin",
        '/tmp/q"uote/bin',
        "/tmp/$HOME/bin",
        "/tmp/back`tick`/bin",
        "/t/b\\s/bin",
    ],
)
def test_command_survives_the_shell(folder: str) -> None:
    command = command_for(folder, "ctx-budget")
    shell = subprocess.run(
        ["sh", "-c", f"printf '%s|' {command}"], capture_output=True, text=True, check=True
    )
    assert shell.stdout == f"{folder}/ctx-budget|"
    assert is_own_entry(entry(command), folder, [])


def test_command_for_a_relative_folder_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert command_for("v/bin", "ctx-budget") == f'"{tmp_path}/v/bin/ctx-budget"'


# --------------------------------------------------------------------------- register


def test_register_on_empty_settings() -> None:
    assert register_hooks({}, budget_only(), BIN) == {
        "hooks": {"UserPromptSubmit": [{"hooks": [ours("ctx-budget")]}]}
    }


def test_register_with_matchers() -> None:
    assert register_hooks({}, SPECS, BIN) == {
        "hooks": {
            "UserPromptSubmit": [{"hooks": [ours("ctx-budget")]}],
            "Stop": [{"hooks": [ours("ctx-stop", 30)]}],
            "PreCompact": [{"hooks": [ours("ctx-precompact", 60)]}],
            "SessionStart": [
                {"matcher": "startup|resume|clear", "hooks": [ours("ctx-session-start")]},
                {"matcher": "compact", "hooks": [ours("ctx-post-compact")]},
            ],
        }
    }


def test_register_keeps_other_settings_and_their_order() -> None:
    settings = {
        "model": "opus",
        "permissions": {"allow": ["Bash(ls:*)"], "deny": []},
        "env": {"FOO": "1"},
        "statusLine": {"type": "command", "command": "~/sl.sh"},
    }
    result = register_hooks(settings, budget_only(), BIN)
    assert list(result) == ["model", "permissions", "env", "statusLine", "hooks"]
    assert {k: v for k, v in result.items() if k != "hooks"} == settings


def test_register_joins_a_foreign_group_with_the_same_matcher_and_keeps_its_hooks() -> None:
    settings = {
        "hooks": {
            "UserPromptSubmit": [{"hooks": [FOREIGN, FOREIGN_2]}],
            "SessionStart": [
                {"matcher": "startup", "hooks": [FOREIGN]},
                {"matcher": "compact", "hooks": [FOREIGN_2]},
            ],
            "Notification": [{"matcher": "", "hooks": [FOREIGN]}],
        }
    }
    assert register_hooks(settings, SPECS, BIN) == {
        "hooks": {
            "UserPromptSubmit": [{"hooks": [FOREIGN, FOREIGN_2, ours("ctx-budget")]}],
            "SessionStart": [
                {"matcher": "startup", "hooks": [FOREIGN]},
                {"matcher": "compact", "hooks": [FOREIGN_2, ours("ctx-post-compact")]},
                {"matcher": "startup|resume|clear", "hooks": [ours("ctx-session-start")]},
            ],
            "Notification": [{"matcher": "", "hooks": [FOREIGN]}],
            "Stop": [{"hooks": [ours("ctx-stop", 30)]}],
            "PreCompact": [{"hooks": [ours("ctx-precompact", 60)]}],
        }
    }


def test_a_group_with_a_matcher_is_not_joined_by_a_spec_without_one() -> None:
    settings = {"hooks": {"UserPromptSubmit": [{"matcher": "", "hooks": [FOREIGN]}]}}
    assert register_hooks(settings, budget_only(), BIN) == {
        "hooks": {
            "UserPromptSubmit": [
                {"matcher": "", "hooks": [FOREIGN]},
                {"hooks": [ours("ctx-budget")]},
            ]
        }
    }


IDEMPOTENCE_INPUTS = [
    {},
    {"hooks": {}},
    {"model": "x", "hooks": {"UserPromptSubmit": [{"hooks": [FOREIGN]}]}},
    {"hooks": {"SessionStart": [{"matcher": "compact", "hooks": []}]}},
    {"hooks": {"UserPromptSubmit": [{"hooks": [ours("ctx-budget", 99), FOREIGN]}]}},
    {"hooks": {"Stop": [{"hooks": [ours("ctx-old-command")]}, {"hooks": [FOREIGN]}]}},
]


@pytest.mark.parametrize("settings", IDEMPOTENCE_INPUTS)
@pytest.mark.parametrize("specs", [budget_only(), SPECS, HOOKS])
def test_register_twice_is_register_once(settings: dict[str, Any], specs: Any) -> None:
    once = register_hooks(settings, specs, BIN)
    assert register_hooks(once, specs, BIN) == once
    assert dumps_settings(register_hooks(once, specs, BIN)) == dumps_settings(once)


@pytest.mark.parametrize("settings", IDEMPOTENCE_INPUTS)
def test_register_does_not_mutate_its_argument(settings: dict[str, Any]) -> None:
    before = copy.deepcopy(settings)
    register_hooks(settings, SPECS, BIN)
    unregister_hooks(settings, BIN)
    assert settings == before


def test_an_outdated_entry_is_updated_in_place() -> None:
    settings = {
        "hooks": {"UserPromptSubmit": [{"hooks": [FOREIGN, ours("ctx-budget", 3), FOREIGN_2]}]}
    }
    assert register_hooks(settings, budget_only(), BIN) == {
        "hooks": {"UserPromptSubmit": [{"hooks": [FOREIGN, ours("ctx-budget"), FOREIGN_2]}]}
    }


def test_an_entry_of_another_context_memory_venv_moves_to_this_one() -> None:
    old_bin = "/home/u/old place/context-memory/venv/bin"
    settings = {"hooks": {"UserPromptSubmit": [{"hooks": [ours("ctx-budget", 10, old_bin)]}]}}
    assert register_hooks(settings, budget_only(), "/opt/cm venv/bin") == {
        "hooks": {"UserPromptSubmit": [{"hooks": [ours("ctx-budget", 10, "/opt/cm venv/bin")]}]}
    }


def test_an_unquoted_entry_is_ours_too_and_gets_quoted() -> None:
    settings = {"hooks": {"UserPromptSubmit": [{"hooks": [entry(f"{BIN}/ctx-budget")]}]}}
    assert register_hooks(settings, budget_only(), BIN) == {
        "hooks": {"UserPromptSubmit": [{"hooks": [ours("ctx-budget")]}]}
    }


def test_duplicates_and_entries_in_the_wrong_place_are_cleaned_up() -> None:
    settings = {
        "hooks": {
            "UserPromptSubmit": [{"hooks": [ours("ctx-budget"), FOREIGN, ours("ctx-budget")]}],
            "Stop": [{"hooks": [ours("ctx-budget")]}],
            "SessionStart": [{"matcher": "startup", "hooks": [ours("ctx-post-compact")]}],
        }
    }
    result = register_hooks(settings, SPECS, BIN)
    assert result["hooks"]["UserPromptSubmit"] == [{"hooks": [ours("ctx-budget"), FOREIGN]}]
    assert result["hooks"]["Stop"] == [{"hooks": [ours("ctx-stop", 30)]}]
    assert result["hooks"]["SessionStart"] == [
        {"matcher": "startup|resume|clear", "hooks": [ours("ctx-session-start")]},
        {"matcher": "compact", "hooks": [ours("ctx-post-compact")]},
    ]


def test_a_command_dropped_from_the_registry_is_removed() -> None:
    settings = register_hooks({}, SPECS, BIN)
    assert register_hooks(settings, budget_only(), BIN) == register_hooks({}, budget_only(), BIN)


# --------------------------------------------------------------------------- recognition


@pytest.mark.parametrize(
    "command",
    [
        BUDGET,
        f"{BIN}/ctx-budget",
        f"'{BIN}/ctx-budget'",
        f'"{BIN}/anything-else"',  # any program of this install's private venv
        '"/srv/x/context-memory/venv/bin/ctx-budget"',  # another context-memory venv
        f'"{BIN}/../bin/ctx-budget"',
    ],
)
def test_own_entries(command: str) -> None:
    assert is_own_entry(entry(command), BIN, ["ctx-budget"])


@pytest.mark.parametrize(
    "value",
    [
        entry(f"{BUDGET} --verbose"),  # has arguments: written by hand
        entry("ctx-budget"),  # found on PATH
        entry('"/home/u/.local/bin/ctx-budget"'),  # pipx or by hand
        entry('"/opt/venv/bin/ctx-budget"'),  # no context-memory folder, not this venv
        entry('"/srv/context-memory/venv/bin/ctx-other"'),  # not a registry command
        entry('"/srv/context-memory/venv/ctx-budget"'),  # not in a bin folder
        entry('"unterminated'),
        {"type": "prompt", "command": BUDGET},
        {"type": "command"},
        {"type": "command", "command": ["x"]},
        "not an object",
    ],
)
def test_foreign_entries(value: object) -> None:
    assert not is_own_entry(value, BIN, ["ctx-budget"])


# --------------------------------------------------------------------------- unregister


@pytest.mark.parametrize(
    "original",
    [
        {},
        {"model": "x", "permissions": {"allow": []}},
        {"hooks": {"UserPromptSubmit": [{"hooks": [FOREIGN]}]}},
        {
            "hooks": {
                "UserPromptSubmit": [{"hooks": [FOREIGN, FOREIGN_2]}],
                "Stop": [{"hooks": [FOREIGN]}],
            }
        },
        {
            "hooks": {
                "SessionStart": [
                    {"matcher": "compact", "hooks": [FOREIGN]},
                    {"matcher": "startup|resume|clear", "hooks": []},
                ]
            },
            "env": {"A": "b"},
        },
    ],
)
@pytest.mark.parametrize("specs", [budget_only(), SPECS])
def test_uninstall_restores_exactly_what_was_there(original: dict[str, Any], specs: Any) -> None:
    installed = register_hooks(original, specs, BIN)
    assert installed != original
    names = [spec.command for spec in specs]
    restored = unregister_hooks(installed, BIN, names)
    assert restored == original
    assert list(restored) == list(original)
    assert dumps_settings(restored) == dumps_settings(original)


def test_containers_left_empty_by_uninstall_are_removed() -> None:
    # Empty before the install or not: to Claude Code an empty list is no list.
    settings = {"hooks": {"Stop": [], "PreCompact": [{"hooks": [FOREIGN]}]}}
    assert unregister_hooks(register_hooks(settings, SPECS, BIN), BIN, ["ctx-stop"]) == {
        "hooks": {"PreCompact": [{"hooks": [FOREIGN]}]}
    }
    assert unregister_hooks(register_hooks({"hooks": {}}, SPECS, BIN), BIN) == {}


def test_an_empty_group_is_not_joined_and_stays_after_uninstall() -> None:
    settings: dict[str, Any] = {"hooks": {"UserPromptSubmit": [{"hooks": []}]}}
    installed = register_hooks(settings, budget_only(), BIN)
    assert installed == {
        "hooks": {"UserPromptSubmit": [{"hooks": []}, {"hooks": [ours("ctx-budget")]}]}
    }
    assert unregister_hooks(installed, BIN) == settings


def test_unregister_keeps_foreign_entries_next_to_ours() -> None:
    settings = {
        "hooks": {
            "UserPromptSubmit": [
                {"hooks": [FOREIGN, ours("ctx-budget")]},
                {"hooks": [ours("ctx-budget")]},
                {"matcher": "x", "hooks": []},
            ],
            "Stop": [{"hooks": [entry('"/home/u/.local/bin/ctx-budget"')]}],
        }
    }
    assert unregister_hooks(settings, BIN) == {
        "hooks": {
            "UserPromptSubmit": [{"hooks": [FOREIGN]}, {"matcher": "x", "hooks": []}],
            "Stop": [{"hooks": [entry('"/home/u/.local/bin/ctx-budget"')]}],
        }
    }


def test_unregister_without_our_entries_changes_nothing() -> None:
    settings = {"hooks": {"UserPromptSubmit": [{"hooks": [FOREIGN]}], "Stop": []}, "x": 1}
    assert unregister_hooks(settings, BIN) == settings


def test_unregister_defaults_to_the_registry_commands() -> None:
    other_bin = "/elsewhere/context-memory/venv/bin"
    settings = register_hooks({}, HOOKS, other_bin)
    assert unregister_hooks(settings, BIN) == {}


def test_own_entries_lists_event_matcher_and_entry() -> None:
    settings = register_hooks({"hooks": {"Stop": [{"hooks": [FOREIGN]}]}}, SPECS, BIN)
    assert own_entries(settings, BIN, ["ctx-budget", "ctx-post-compact"]) == [
        ("Stop", None, ours("ctx-stop", 30)),
        ("UserPromptSubmit", None, ours("ctx-budget")),
        ("PreCompact", None, ours("ctx-precompact", 60)),
        ("SessionStart", "startup|resume|clear", ours("ctx-session-start")),
        ("SessionStart", "compact", ours("ctx-post-compact")),
    ]


def test_lookalike_entries_are_foreign_runs_of_our_commands() -> None:
    settings = {
        "hooks": {
            "UserPromptSubmit": [
                {"hooks": [ours("ctx-budget"), entry('"/opt/v/bin/ctx-budget"'), FOREIGN]}
            ],
            "Stop": [{"hooks": [entry("/home/u/.local/bin/ctx-budget"), entry("ctx-budget")]}],
        }
    }
    assert lookalike_entries(settings, BIN, ["ctx-budget"]) == [
        ("UserPromptSubmit", "/opt/v/bin/ctx-budget"),
        ("Stop", "/home/u/.local/bin/ctx-budget"),
    ]


def test_the_pure_edits_refuse_a_bad_shape() -> None:
    with pytest.raises(SettingsError, match=r'^settings: "hooks" must be an object '):
        register_hooks({"hooks": []}, HOOKS, BIN)
    with pytest.raises(SettingsError, match=r"^settings: hooks\.Stop must be a list of matcher "):
        unregister_hooks({"hooks": {"Stop": {}}}, BIN)


# --------------------------------------------------------------------------- load


def test_a_missing_or_empty_file_is_empty_settings(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "settings.json") == {}
    (tmp_path / "settings.json").write_text(" \n")
    assert load_settings(tmp_path / "settings.json") == {}


def test_load_keeps_key_order_and_accepts_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b'\xef\xbb\xbf{"b": 1, "a": {"z": 1, "y": 2}}')
    loaded = load_settings(path)
    assert list(loaded) == ["b", "a"] and list(loaded["a"]) == ["z", "y"]


def test_invalid_json_is_refused_with_a_fix(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{\n  "model": "x"\n  "hooks": {}\n}\n')
    with pytest.raises(SettingsError) as caught:
        load_settings(path)
    assert str(caught.value) == (
        f"{path} is not valid JSON: Expecting ',' delimiter (line 3, column 3). "
        f"Fix the file by hand (or move it aside to start from an empty one), {FIX}"
    )


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(SettingsError, match="is not valid JSON: it is not UTF-8 text"):
        load_settings(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[]",
            "{path} must hold a JSON object ({{...}}), but it holds a list. Fix the file by "
            "hand (or move it aside to start from an empty one), " + FIX,
        ),
        (
            '{"hooks": []}',
            '{path}: "hooks" must be an object ({{"EventName": [...]}}), but it is a list. ',
        ),
        (
            '{"hooks": {"Stop": {"hooks": []}}}',
            "{path}: hooks.Stop must be a list of matcher groups, but it is an object. ",
        ),
        (
            '{"hooks": {"Stop": ["x"]}}',
            '{path}: hooks.Stop[0] must be an object ({{"matcher": '
            '..., "hooks": [...]}}), but it is a string. ',
        ),
        (
            '{"hooks": {"Stop": [{"matcher": 1, "hooks": []}]}}',
            "{path}: hooks.Stop[0].matcher must be a string, but it is a number. ",
        ),
        (
            '{"hooks": {"Stop": [{"hooks": {}}]}}',
            "{path}: hooks.Stop[0].hooks must be a list of hook objects, but it is an object. ",
        ),
        (
            '{"hooks": {"Stop": [{"hooks": [null]}]}}',
            "{path}: hooks.Stop[0].hooks[0] must be an "
            'object ({{"type": "command", "command": ...}}), but it is null. ',
        ),
    ],
)
def test_a_wrong_shape_is_refused_with_its_location(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text)
    with pytest.raises(SettingsError) as caught:
        load_settings(path)
    expected = message.format(path=path)
    if not expected.endswith(FIX):
        expected += (
            "Fix that part of the file by hand (settings.example.json shows the expected "
            "shape), " + FIX
        )
    assert str(caught.value) == expected


def test_an_unreadable_settings_path_is_a_settings_error(tmp_path: Path) -> None:
    (tmp_path / "settings.json").mkdir()
    with pytest.raises(SettingsError, match="cannot read"):
        load_settings(tmp_path / "settings.json")


# --------------------------------------------------------------------------- write, backup


def test_dumps_is_two_space_json_with_a_final_newline_and_unicode_kept() -> None:
    assert dumps_settings({"a": ["é"]}) == '{\n  "a": [\n    "é"\n  ]\n}\n'


@pytest.mark.parametrize(
    ("text", "indent"),
    [
        (None, 2),
        ("{}", 2),
        ('{\n    "a": 1\n}\n', 4),
        ('{\n\t"a": 1\n}', "\t"),
        ('{\n  "a": 1}', 2),
    ],
)
def test_detect_indent(text: str | None, indent: int | str) -> None:
    assert detect_indent(text) == indent


def test_atomic_write_keeps_the_mode_and_leaves_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{}")
    path.chmod(0o600)
    assert replace_if_unchanged(path, "{}", '{"a": 1}\n')
    assert path.read_text() == '{"a": 1}\n'
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert os.listdir(tmp_path) == ["settings.json"]


def test_atomic_write_creates_the_folder_and_uses_the_umask(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    old = os.umask(0o027)
    try:
        assert replace_if_unchanged(path, None, "{}\n")
    finally:
        os.umask(old)
    assert path.read_text() == "{}\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_atomic_write_through_a_symlink_replaces_its_target(tmp_path: Path) -> None:
    target = tmp_path / "dotfiles" / "settings.json"
    target.parent.mkdir()
    target.write_text("{}")
    link = tmp_path / "settings.json"
    link.symlink_to(target)
    assert replace_if_unchanged(link, "{}", "[1]\n")
    assert link.is_symlink()
    assert target.read_text() == "[1]\n"


def test_backup_names_carry_the_utc_time_and_never_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"a": 1}')
    path.chmod(0o640)
    when = datetime(2025, 1, 31, 23, 59, 58, tzinfo=timezone.utc)
    first = backup_file(path, when)
    second = backup_file(path, when)
    assert first.name == "settings.json.bak-20250131T235958Z"
    assert second.name == "settings.json.bak-20250131T235958Z-1"
    assert first.read_text() == '{"a": 1}'
    assert stat.S_IMODE(first.stat().st_mode) == 0o640


# --------------------------------------------------------------------------- example file


def test_settings_example_matches_what_install_writes() -> None:
    text = (REPO / "settings.example.json").read_text(encoding="utf-8")
    assert text == example_settings_text(), (
        "settings.example.json is out of date; regenerate it with\n"
        "PYTHONPATH=hooks python -c 'import sys; from context_memory.setup.install.settings_edit "
        "import example_settings_text as t; sys.stdout.write(t())' > settings.example.json"
    )
    assert json.loads(text) == register_hooks({}, HOOKS, f"{EXAMPLE_VENV}/bin")
