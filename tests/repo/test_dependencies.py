"""No declared dependency that the package never imports (issue 28): each of pyproject's
dependencies, which the plugin's virtualenv installs too, is imported by some module."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "hooks" / "context_memory"


def test_every_dependency_is_imported_by_the_package() -> None:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    block = text.split("dependencies = [", 1)[1].split("]", 1)[0]
    names = [re.split(r"[<>=!~ ]", spec, maxsplit=1)[0] for spec in re.findall(r'"([^"]+)"', block)]
    assert names == ["click", "orjson", "filelock"]
    sources = [path.read_text(encoding="utf-8") for path in PACKAGE.rglob("*.py")]
    for name in names:
        pattern = re.compile(rf"^\s*(import {name}\b|from {name}\b)", re.MULTILINE)
        assert any(pattern.search(source) for source in sources), f"{name} is never imported"
