"""docs/install.md's examples are what the commands print (issue 25, item 15): the
``./install --dry-run --pin-decisions`` from a fresh home, and ``ctx-doctor`` after that
install. Each runs here, in-process, in a fresh home whose path is then written
``/home/you`` (as the docs say); a line ``  ...`` in the docs stands for any lines (the
settings JSON), and the Python line's version and path are this interpreter's."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from context_memory.commands import doctor as doctor_cli
from context_memory.setup.doctor import checks_state
from context_memory.setup.install import cli as installer
from context_memory.setup.install import settings_edit
from context_memory.setup.install.venv import default_venv
from helpers.install_env import WHEN, stand_in_venv
from helpers.paths import REPO

pytestmark = pytest.mark.slow  # a stand-in virtualenv and the installer's sh checks
DOC = REPO / "docs" / "install.md"
YOU = "/home/you"


def doc_block(after: str) -> list[str]:
    """The lines of the ```text block of docs/install.md that starts with ``after``."""
    for match in re.finditer(r"```text\n(.*?)```", DOC.read_text(), re.DOTALL):
        lines = [line.removeprefix("  ") for line in match.group(1).splitlines()]
        lines = [line.strip() if not line.strip() else line for line in lines]
        while lines and not lines[-1]:  # the closing fence's indentation
            lines.pop()
        if lines and lines[0].strip().startswith(after):
            return [line.strip() if line.strip() == "..." else line for line in lines]
    raise AssertionError(f"no text block starting with {after!r} in {DOC}")


def matches(doc: list[str], real: list[str]) -> bool:
    """``real`` is ``doc`` where each ``...`` line stands for one or more lines."""
    pattern = "\n".join(".+?" if line == "..." else re.escape(line) for line in doc)
    return re.fullmatch(pattern, "\n".join(real), re.DOTALL) is not None


@pytest.fixture
def you(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home with a project ~/app, made the current folder; nothing else set."""
    home = tmp_path / "you"
    (home / "app" / ".git").mkdir(parents=True)  # a project: its nearest marker folder
    for name in (
        "CTX_VENV",
        "XDG_DATA_HOME",
        "CLAUDE_CONFIG_DIR",
        "CTX_BIN_DIR",
        "XDG_BIN_HOME",
        "CTX_NATIVE_MEMORY",  # the suite's default is off; the docs show a user's default
        "CLAUDE_CODE_DISABLE_AUTO_MEMORY",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", os.environ.get("PATH") or os.defpath)
    monkeypatch.chdir(home / "app")
    monkeypatch.setattr(settings_edit, "_now", lambda: WHEN)
    return home


def as_docs(text: str, home: Path) -> list[str]:
    """The output as for the docs' user: their home, and its name in the client's projects
    folder (auto memory's folder is named after the project's path)."""
    encoded = "".join(c if c.isascii() and c.isalnum() else "-" for c in str(home))
    return text.replace(str(home), YOU).replace(encoded, "-home-you").splitlines()


def test_the_dry_run_example(you: Path, capsys: Any) -> None:
    doc = doc_block("$ ./install --dry-run --pin-decisions")
    assert installer.main(["--dry-run", "--pin-decisions"]) == 0
    real = as_docs(capsys.readouterr().out, you)
    assert matches(doc[1:], real), "\n".join(real)


def test_the_doctor_example(you: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = doc_block("OK    python")
    venv = stand_in_venv(Path(default_venv(os.environ)))
    assert installer.main(["--venv", str(venv)]) == 0
    capsys.readouterr()
    links = you / ".local" / "bin"
    monkeypatch.setenv("PATH", f"{links}{os.pathsep}{os.environ['PATH']}")
    real_check_cron = checks_state.check_cron
    # Nobody's crontab has a line for ~/app (the machine's own is not read).
    monkeypatch.setattr(
        checks_state,
        "check_cron",
        lambda project, _=None, **kw: real_check_cron(project, str, **kw),
    )
    assert doctor_cli.main([]) == 0
    out = capsys.readouterr().out
    version = ".".join(str(part) for part in sys.version_info[:3])
    out = out.replace(
        f"Python {version} at {sys.executable}", f"Python 3.11.2 at {venv}/bin/python"
    )
    real = as_docs(out, you)
    assert matches(doc, real), "\n".join(real)
