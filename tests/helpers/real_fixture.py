"""The real transcripts of older clients in tests/fixtures/real-transcripts (see SOURCES.md)."""

from __future__ import annotations

import gzip
from pathlib import Path

REAL_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "real-transcripts"
SLOPOMETRY = "TensorTemplar__slopometry__tests_fixtures_transcript"  # 2.0.65, one compaction
CODERABBIT_PARENT = "cb2e607c-c758-415a-8b45-c49e4631906a"  # 2.0.37, a Task subagent
CODERABBIT_AGENT = "agent-668b5ac2"  # that subagent's rows, written next to the session


def real_path(part: str) -> Path:
    """The one fixture whose file name contains ``part``."""
    found = [p for p in REAL_DIR.glob("*.jsonl.gz") if part in p.name]
    assert len(found) == 1, f"{part!r} names {len(found)} fixtures"
    return found[0]


def real_lines(part: str) -> list[bytes]:
    """The fixture's rows as written (bytes, newline kept)."""
    with gzip.open(real_path(part), "rb") as handle:
        return handle.readlines()


def write_lines(path: Path, lines: list[bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(lines))
    return path


def row_index(lines: list[bytes], needle: bytes) -> int:
    """Index of the first row containing ``needle``."""
    for index, line in enumerate(lines):
        if needle in line:
            return index
    raise AssertionError(f"no row contains {needle!r}")
