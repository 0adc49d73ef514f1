from __future__ import annotations

from pathlib import Path

import pytest

from hostile.harness import Sandbox, seeded_sandbox


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    return seeded_sandbox(tmp_path, monkeypatch)
