"""A throwaway HOME for a test: a fresh folder made HOME, and the variables that would send
the code elsewhere than ~ unset (tests/memory/test_native.py, tests/setup/test_crontab.py)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest


def throwaway_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unset: Iterable[str]) -> Path:
    """``tmp_path/home``, made and set as HOME, with each variable of ``unset`` removed."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in unset:
        monkeypatch.delenv(name, raising=False)
    return home
