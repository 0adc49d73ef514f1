"""settings.json is the user's: what the installer does not change comes back as written,
input it cannot use is refused with a message (no traceback), and another program's edit
made while the installer works is never lost (a real concurrent writer process)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from context_memory.core.command_table import HOOKS
from context_memory.setup.install import launchers
from context_memory.setup.install.settings_edit import register_hooks, unregister_hooks
from context_memory.setup.install.settings_file import (
    SettingsError,
    dumps_settings,
    parse_settings,
    replace_if_unchanged,
)
from helpers.install_env import run

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

USER_TEXT = textwrap.dedent(
    """\
    {
      "big": 1e400,
      "tiny": -1E-400,
      "exact": 0.1000000000000000055511151231257827,
      "int": 123456789012345678901234567890123456789,
      "zero": -0,
      "float": 1.50,
      "text": "caf\\u00e9 \\ud83d\\ude00 \\/ tab\\t",
      "plain": "café",
      "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5.0}]}]
      }
    }
    """
)


def test_numbers_and_strings_come_back_as_written() -> None:
    """Before: json.loads/dumps wrote Infinity, -0.0, 0.1, 1.5, "café 😀 / tab\\t"."""
    settings = parse_settings(USER_TEXT, Path("settings.json"))
    round_trip = unregister_hooks(register_hooks(settings, HOOKS, "/v/bin"), "/v/bin")
    assert round_trip == settings
    text = dumps_settings(round_trip)
    for literal in (
        '"big": 1e400,',
        '"tiny": -1E-400,',
        '"exact": 0.1000000000000000055511151231257827,',
        '"int": 123456789012345678901234567890123456789,',
        '"zero": -0,',
        '"float": 1.50,',
        '"text": "caf\\u00e9 \\ud83d\\ude00 \\/ tab\\t",',
        '"plain": "café",',
        '"timeout": 5.0',
    ):
        assert literal in text
    assert "Infinity" not in text
    # What the client reads (JSON.parse equivalent) is the same document as before.
    assert json.loads(text) == json.loads(USER_TEXT)


def test_output_is_json_dumps_for_plain_data() -> None:
    data = {"a": [1, 2.5, {"b": None, "c": True}], "d": {}, "e": [], "f": 'é\n"x"'}
    for indent in (2, 4, "\t"):
        assert (
            dumps_settings(data, indent)
            == json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
        )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": "x\\ud800y"}', "a lone surrogate escape (\\ud800) in a string"),
        ('{"a\\udfff": 1}', "a lone surrogate escape in a key"),
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ('{"a": ' + "[" * 5000, "nested too deeply"),
        ('{"a": NaN}', "NaN is not JSON"),
    ],
)
def test_unusable_json_is_a_message_not_a_traceback(
    home: Path,
    venv: Path,
    capsys: Any,
    text: str,
    message: str,
) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(text)
    with pytest.raises(
        SettingsError, match=re.escape(message) + r".*then run \./install again\. The file was not"
    ):
        parse_settings(text, settings)
    code, out, err = run(capsys, "--venv", str(venv))
    assert (code, out) == (1, "")
    assert err.startswith(f"context-memory: error: {settings} ")
    assert message in err and "Traceback" not in err
    assert settings.read_text() == text
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


def test_replace_if_unchanged_refuses_a_changed_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{}\n")
    assert replace_if_unchanged(path, "{}\n", '{"a": 1}\n') is True
    assert path.read_text() == '{"a": 1}\n'
    assert replace_if_unchanged(path, "{}\n", '{"b": 2}\n') is False
    assert path.read_text() == '{"a": 1}\n'
    assert replace_if_unchanged(tmp_path / "new.json", None, "{}\n") is True
    assert replace_if_unchanged(tmp_path / "new.json", None, "[]\n") is False
    assert (tmp_path / "new.json").read_text() == "{}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.json", "settings.json"]


WRITER = textwrap.dedent(
    """\
    import json, os, sys, time
    path, stop = sys.argv[1], sys.argv[2]
    i = 0
    while not os.path.exists(stop):
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        data.setdefault("env", {})[f"WRITER_{i}"] = str(i)
        tmp = f"{path}.writer.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2)
        os.replace(tmp, path)
        i += 1
        time.sleep(0.05)
    print(i)
    """
)
RUNS = 20


def test_a_concurrent_writer_loses_nothing(
    home: Path,
    venv: Path,
    capsys: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another program edits settings.json in a loop (read, change, atomic rename) while the
    installer installs and uninstalls: every one of its edits is still there at the end.
    Before: the installer's rename of a file based on a stale read dropped some."""
    # The commands were checked by the other tests; here only the settings file matters.
    monkeypatch.setattr(launchers, "verify_commands", lambda *a: None)
    monkeypatch.setattr(launchers, "write_launchers", lambda venv, bin_dir=None: [])
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus"}\n')
    stop = home / "stop"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(settings), str(stop)], stdout=subprocess.PIPE, text=True
    )
    try:
        n = 0
        # Until both have done enough: the writer's start-up is slow on a loaded machine.
        while n < RUNS or len(json.loads(settings.read_text()).get("env", {})) < 40:
            code, _, err = run(capsys, "--venv", str(venv), *(["--uninstall"] * (n % 2)))
            assert (code, err) == (0, ""), err
            n += 1
            assert n < 5000, "the writer made no progress"
    finally:
        stop.touch()
        out, _ = writer.communicate(timeout=60)
    assert writer.returncode == 0
    count = int(out)
    assert count >= 40
    env = json.loads(settings.read_text())["env"]
    assert sorted(env, key=lambda k: int(k.split("_")[1])) == [f"WRITER_{i}" for i in range(count)]
