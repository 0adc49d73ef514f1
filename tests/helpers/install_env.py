"""What the installer's tests share (tests/setup/test_install*.py, test_settings_safety,
test_crontab...): the stand-in virtualenv, the installer run in-process, the names and
texts they compare with. The fixtures ``home``, ``links`` and ``venv`` are in
tests/conftest.py."""

from __future__ import annotations

import os
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from context_memory.core.command_table import HOOKS
from context_memory.setup.install.cli import main
from context_memory.setup.install.command_links import LINKED_COMMANDS
from context_memory.setup.install.venv import STAMP_NAME, source_hash
from helpers.cli_run import captured

REPO = Path(__file__).resolve().parent.parent.parent
P = "context-memory:"
FIX = "then run ./install again. The file was not changed."
WHEN = datetime(2025, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
BAK = "settings.json.bak-20250102T030405Z"
# Variables the installer reads; every test starts without them.
INSTALL_VARS = (
    "CTX_VENV",
    "CTX_PYTHON",
    "XDG_DATA_HOME",
    "CLAUDE_CONFIG_DIR",
    "PYTHONPATH",
    "CTX_BIN_DIR",
    "XDG_BIN_HOME",
)
# The PATH every test runs with: the runner's, which no fresh tmp folder is on, so the
# installer's "not on your PATH" note is always printed unless a test puts the folder on it.
SYSTEM_PATH = os.environ.get("PATH") or os.defpath
# Where the command links go: CTX_BIN_DIR, set by the ``home`` fixture (next to HOME).
LINKS_NAME = "bin dir"
# Every program of a real install that the tests look at: the hooks' and the linked ones.
PROGRAMS = tuple(dict.fromkeys([*(spec.command for spec in HOOKS), *LINKED_COMMANDS]))
# pyproject.toml's [project.scripts]: program -> module of context_memory.
ENTRY_MODULES = {
    line.split(" = ")[0]: line.split('"context_memory.')[1].split(":")[0]
    for line in (REPO / "pyproject.toml")
    .read_text()
    .split("[project.scripts]")[1]
    .split("\n\n")[0]
    .splitlines()
    if " = " in line
}
FOREIGN_SETTINGS: dict[str, Any] = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git status:*)"]},
    "hooks": {
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": "~/bin/log-prompt.sh", "timeout": 5}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}


def stand_in_venv(venv: Path, programs: tuple[str, ...] = PROGRAMS) -> Path:
    """pyvenv.cfg, bin/python (the base interpreter), this checkout's package linked into
    site-packages with an entry_points.txt as pip writes it, and stand-in programs (the
    installer replaces them with its launchers)."""
    base = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text(f"home = {os.path.dirname(base)}\n")
    (venv / "bin" / "python").symlink_to(base)
    site = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    info = site / "context_memory-0.1.0.dist-info"
    info.mkdir(parents=True)
    (site / "context_memory").symlink_to(REPO / "hooks" / "context_memory")
    scripts = {
        name: f"context_memory.{module}:main"
        for name, module in ENTRY_MODULES.items()
        if name in programs
    }
    (info / "entry_points.txt").write_text(
        "[console_scripts]\n" + "".join(f"{k} = {v}\n" for k, v in scripts.items())
    )
    for name in programs:
        program = venv / "bin" / name
        program.write_text("#!/bin/sh\nexit 0\n")
        program.chmod(0o755)
    (venv / STAMP_NAME).write_text(source_hash(REPO) + "\n")
    return venv


run = captured(main)  # run(capsys, *argv) -> (exit code, stdout, stderr)
