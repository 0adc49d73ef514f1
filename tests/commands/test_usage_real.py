"""ctx-usage on the real transcripts of clients 1.0.24 to 2.1.114 (tests/fixtures/real-transcripts,
sources in SOURCES.md): exact figures, computed here independently from the rows by the rule
of the protocol file (section 4), in-process and as the installed command in a fresh process.
And the reader stops at the last reply of such a client, instead of reading 4 MB more for
markers those clients never write.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from context_memory.commands import usage as usage_cli
from context_memory.core.prompt_tables import DEFAULT_BAND_THRESHOLDS
from context_memory.measure.bands import classify
from context_memory.transcript.reader import scan_transcript
from helpers.cli_run import run_main
from helpers.paths import REPO
from helpers.shipped import SETS, transcripts_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real-transcripts"
REAL = sorted(FIXTURES.glob("*.jsonl.gz"))
SKIPPED_TEXTS = (
    "[Request interrupted by user]",
    "[Request interrupted by user for tool use]",
    "No response requested.",
)
# Section 4 of the protocol file: the window of each model these transcripts name.
WINDOWS = {
    "claude-sonnet-4-20250514": 200_000,
    "claude-opus-4-20250514": 200_000,
    "claude-sonnet-4-5-20250929": 200_000,
    "claude-opus-4-5-20251101": 200_000,
    "claude-opus-4-6": 200_000,
    "claude-opus-4-7": 1_000_000,
}
UNKNOWN_MODEL_WINDOW = 1_000_000
# Every model here has at least 20,000 max output tokens: threshold = window - 20,000 - 13,000.
THRESHOLD_MARGIN = 33_000


def short_id(name: str) -> str:
    return name.split("_")[-1].removesuffix(".jsonl.gz")[:13]


def numbered_rows(data: bytes) -> list[tuple[int, dict[str, Any] | None]]:
    """(start offset, row or None when the line is not a JSON object) per non-blank line."""
    rows = []
    offset = 0
    for line in data.split(b"\n"):
        if line.strip():
            try:
                row = json.loads(line)
            except ValueError:
                row = None
            rows.append((offset, row if isinstance(row, dict) else None))
        offset += len(line) + 1
    return rows


def counts(row: dict[str, Any]) -> bool:
    """A main-chain reply whose usage is the context (protocol, sections 3 and 4)."""
    message = row.get("message")
    if row.get("type") != "assistant" or row.get("isSidechain") is True:
        return False
    if row.get("isApiErrorMessage") is True or not isinstance(message, dict):
        return False
    if message.get("model") == "<synthetic>" or not isinstance(message.get("usage"), dict):
        return False
    content = message.get("content")
    if isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict):
        content = content[0].get("text")
    return not (isinstance(content, str) and content.strip() in SKIPPED_TEXTS)


def context_tokens(usage: dict[str, Any]) -> int:
    if isinstance(usage.get("iterations"), list) and usage["iterations"]:
        usage = usage["iterations"][-1]
    keys = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    return sum(int(usage.get(key) or 0) for key in (*keys, "output_tokens"))


def expected_report(rows: list[tuple[int, dict[str, Any] | None]], path: Path) -> dict[str, Any]:
    parsed = [row for _, row in rows if row is not None]
    boundaries = [
        i
        for i, row in enumerate(parsed)
        if row.get("type") == "system"
        and row.get("subtype") == "compact_boundary"
        and row.get("isSidechain") is not True
    ]
    after = parsed[boundaries[-1] + 1 :] if boundaries else parsed
    replies = [row for row in after if counts(row)]
    every_reply = [row for row in parsed if counts(row)]
    tokens = context_tokens(replies[-1]["message"]["usage"]) if replies else 0
    model = every_reply[-1]["message"]["model"] if every_reply else None
    window = WINDOWS[model] if model else UNKNOWN_MODEL_WINDOW
    threshold = window - THRESHOLD_MARGIN
    percent = round(tokens * 100 / window, 1)
    return {
        "tokens": tokens,
        "window": window,
        "percent": percent,
        "band": classify(percent, DEFAULT_BAND_THRESHOLDS),
        "window_source": "model-table" if model else "unknown-model-default",
        "model": model,
        "autocompact_threshold": threshold,
        "tokens_to_autocompact": max(threshold - tokens, 0),
        "source": "usage" if replies else "none",
        "transcript": str(path),
        "compactions": sum(1 for row in parsed if row.get("subtype") == "compact_boundary"),
    }


@pytest.fixture(scope="module")
def real_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, bytes]]:
    folder = tmp_path_factory.mktemp("real")
    files = {}
    for gz in REAL:
        data = gzip.decompress(gz.read_bytes())
        path = folder / gz.name.removesuffix(".gz")
        path.write_bytes(data)
        files[gz.name] = (path, data)
    return files


def test_the_fixtures_are_there() -> None:
    assert len(REAL) == 17


@pytest.mark.slow  # a real ./install
def test_ctx_usage_figures_on_every_real_transcript(
    real_files: dict[str, tuple[Path, bytes]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from helpers.installed import installed_for, primary_label

    install = installed_for(primary_label())
    monkeypatch.chdir(tmp_path)  # no state folder here: no cached window, the model decides
    figures = []
    for name, (path, data) in sorted(real_files.items()):
        expected = expected_report(numbered_rows(data), path)
        inside = run_main(usage_cli.main, ["--json", str(path)])
        assert (inside.exit_code, inside.stderr) == (0, ""), name
        assert json.loads(inside.stdout) == expected, name
        fresh = install.run_program("ctx-usage", ["--json", str(path)], cwd=tmp_path)
        assert (fresh.returncode, fresh.stderr) == (0, b""), name
        assert json.loads(fresh.stdout) == expected, name
        figures.append((expected["tokens"], expected["model"]))
    # The check above compared real figures, not 17 empty reports.
    assert sum(1 for tokens, _ in figures if tokens > 10_000) == 15
    assert {model for _, model in figures} == {*WINDOWS, None}


@pytest.mark.parametrize("name", [gz.name for gz in REAL], ids=short_id)
def test_the_scan_stops_at_an_old_clients_last_reply(
    name: str, real_files: dict[str, tuple[Path, bytes]]
) -> None:
    """Clients up to 2.1.114 write no requestedModel, api-request row or model attachment:
    past their last reply the scan reads nothing. Before, it read on for 4 MB (the whole of
    these files)."""
    path, data = real_files[name]
    rows = numbered_rows(data)
    reading = scan_transcript(path)
    replies = [i for i, (_, row) in enumerate(rows) if row is not None and counts(row)]
    if not replies:
        assert (reading.bytes_scanned, reading.source) == (len(data), "none")
        return
    assert reading.bytes_scanned == len(data) - rows[replies[-1]][0]
    assert reading.model == rows[replies[-1]][1]["message"]["model"]  # type: ignore[index]


# --------------------------------------------------------------------------- the versions


def release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def client_versions(path: Path) -> list[str]:
    """The client versions the rows of one transcript record, oldest first."""
    found: set[str] = set()
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and isinstance(row.get("version"), str):
                found.add(row["version"])
    return sorted(found, key=release)


VERSION_RANGE = re.compile(r"\b(?:clients?|Claude Code) \(?(\d+\.\d+\.\d+) to (\d+\.\d+\.\d+)")


def test_the_docs_give_the_client_versions_these_transcripts_record() -> None:
    """docs/benchmarks.md and bench_guard_replay.py said "clients 1.0.43 to 2.0.55" of the
    transcripts of 1.0.24 to 2.1.114 (issue 25): every range written about them, and each
    row of SOURCES.md, is read here against the rows' own ``version``."""
    versions = {path.name: client_versions(path) for path in REAL}
    every = sorted({v for found in versions.values() for v in found}, key=release)
    labels = REPO / "tests" / "fixtures" / "decision-labels" / "labels.jsonl"
    labelled = {json.loads(line)["file"] for line in labels.read_text().splitlines() if line}
    labelled_versions = sorted({v for name in labelled for v in versions[name]}, key=release)
    assert (labelled_versions[0], labelled_versions[-1]) == (every[0], every[-1])
    places = [
        REPO / "README.md",
        *sorted((REPO / "docs").glob("*.md")),
        *sorted((REPO / "bench").glob("*.py")),
        FIXTURES / "SOURCES.md",
    ]
    written = [
        (str(path.relative_to(REPO)), match.groups())
        for path in places
        for match in VERSION_RANGE.finditer(" ".join(path.read_text(encoding="utf-8").split()))
    ]
    assert len(written) >= 4
    # Each other label set (other users: set 2, the blind sets) has its own range.
    known = {(every[0], every[-1])}
    for label_set in SETS[1:]:
        found = sorted(
            {v for path in transcripts_of(label_set) for v in client_versions(path)}, key=release
        )
        known.add((found[0], found[-1]))
    assert [place for place in written if place[1] not in known] == []
    sources = (FIXTURES / "SOURCES.md").read_text(encoding="utf-8")
    row = re.compile(r"^\| `([^`]+\.jsonl)` \|[^|]+\|[^|]+\|[^|]+\| ([^|]+) \|", re.MULTILINE)
    rows = row.findall(sources)
    assert {f"{name}.gz": listed.split(", ") for name, listed in rows} == versions
