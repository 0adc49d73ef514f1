"""Benchmark: the post-compaction estimate against the next reply, on the real transcripts.

    python bench/bench_compaction_estimate.py [FOLDER]   # default: tests/fixtures/real-transcripts

Finds every compaction whose ``compact_boundary`` has no ``postTokens`` and whose next
main-chain reply has a usage figure, cuts the transcript right before that reply (what
ctx-usage sees in between), and prints one row per case: the estimate of the previous
model (Read results as shown, 5 last, no plan or todo list), the current estimate, the
real figure (the reply's four usage numbers, as ctx-usage counts them) and both errors.
Not part of pytest; tests/transcript/test_compaction_estimate.py asserts the same figures.
"""

from __future__ import annotations

import gzip
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "hooks"))

from context_memory.transcript import compaction_estimate as ce  # noqa: E402
from context_memory.transcript.rows import (  # noqa: E402
    eligible_assistant_usage,
    usage_tokens,
)

DEFAULT_FOLDER = REPO / "tests" / "fixtures" / "real-transcripts"
PREVIOUS_MAX_FILE_CHARS = 20_000


def _row(line: bytes) -> dict[str, Any]:
    try:
        row = json.loads(line)
    except ValueError:
        return {}
    return row if isinstance(row, dict) else {}


def _next_reply(lines: list[bytes], after: int) -> tuple[int, int] | None:
    """(index of the first main-chain reply after ``after``, its real figure), else None."""
    for index in range(after + 1, len(lines)):
        row = _row(lines[index])
        if row.get("type") == "system" and row.get("subtype") == "compact_boundary":
            return None
        usage = eligible_assistant_usage(row) if row.get("type") == "assistant" else None
        if usage is None:
            continue
        message_id = row["message"].get("id")
        last = usage
        for later in lines[index + 1 :]:  # the response's last row carries its final usage
            other = _row(later)
            if other.get("type") != "assistant" or other["message"].get("id") != message_id:
                break
            last = eligible_assistant_usage(other) or last
        return index, usage_tokens(last)
    return None


def previous_restored_chars(lines: list[bytes]) -> int:
    """The previous model's files: the 5 last Read results before the boundary, as shown."""
    seen: set[str] = set()
    total = 0
    for line in reversed(lines):
        row = _row(line)
        if row.get("type") == "system" and row.get("subtype") == "compact_boundary":
            break
        result = row.get("toolUseResult")
        read = result.get("file") if isinstance(result, dict) else None
        if row.get("type") != "user" or row.get("isSidechain") or not isinstance(read, dict):
            continue
        path, content = read.get("filePath"), read.get("content")
        if not isinstance(path, str) or not isinstance(content, str) or path in seen:
            continue
        seen.add(path)
        shown = ce.text_chars(row.get("message", {}).get("content"))
        total += min(max(shown, len(content)), PREVIOUS_MAX_FILE_CHARS)
        if len(seen) >= 5:
            break
    return total


def cases(folder: Path) -> Iterator[dict[str, Any]]:
    for source in sorted(folder.glob("*.jsonl*")):
        opener = gzip.open if source.suffix == ".gz" else open
        with opener(source, "rb") as handle:
            lines = handle.read().splitlines(keepends=True)
        for index, line in enumerate(lines):
            if b"compact_boundary" not in line:
                continue
            boundary = _row(line)
            metadata = boundary.get("compactMetadata") or {}
            if boundary.get("subtype") != "compact_boundary" or "postTokens" in metadata:
                continue
            found = _next_reply(lines, index)
            if found is None:
                continue
            reply, real = found
            with tempfile.TemporaryDirectory() as tmp:
                cut = Path(tmp) / "cut.jsonl"
                cut.write_bytes(b"".join(lines[:reply]))
                start = sum(len(part) for part in lines[:index])
                end = start + len(line) - 1
                size = cut.stat().st_size
                with cut.open("rb") as handle:
                    baseline = ce.baseline_tokens(handle, size)
                    after_chars = ce.chars_after(handle, size, end)
                    estimate = ce.estimate_after_compaction(handle, size, start, end)
            previous_chars = after_chars + previous_restored_chars(lines[:index])
            yield {
                "transcript": "/".join(source.name.split("__")[:2]),
                "version": boundary.get("version", "?"),
                "before": baseline + -(-previous_chars // ce.CHARS_PER_TOKEN),
                "after": estimate,
                "real": real,
            }


def error(figure: int, real: int) -> str:
    return f"{(figure - real) / real:+.0%}"


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip().splitlines()[2].strip())
        return 0
    folder = Path(argv[0]) if argv else DEFAULT_FOLDER
    if not folder.is_dir():
        print(
            f"bench_compaction_estimate: {folder} is not a folder of transcripts", file=sys.stderr
        )
        return 2
    found = list(cases(folder))
    print("| transcript | client | estimate before | error | estimate now | error | real |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for case in found:
        print(
            f"| {case['transcript']} | {case['version']} | {case['before']:,} | "
            f"{error(case['before'], case['real'])} | {case['after']:,} | "
            f"{error(case['after'], case['real'])} | {case['real']:,} |"
        )
    print(f"\n{len(found)} compaction(s) without postTokens followed by a reply, in {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
