"""The engine's promise (capture/engine.py): the same rows give the same items, fed in one
pass or across several runs with the state carried over. Checked on every real transcript
the project ships, cut where a Stop hook's run ends (before each prompt the user typed),
the state going through JSON between runs as the state folder keeps it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from context_memory.capture.engine import Capturer
from context_memory.capture.prompts import is_skipped, prompt_text
from context_memory.capture.text import strip_wrappers
from helpers.shipped import transcripts_of

TRANSCRIPTS = transcripts_of()  # every label set's (helpers/shipped.py)


def _rows(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _typed_prompt(row: dict[str, Any]) -> bool:
    """A prompt the user typed (the engine's reading: not a wrapper, a marker, a summary),
    which starts a turn whose end runs the Stop hook."""
    if row.get("type") != "user" or row.get("isSidechain") or row.get("isMeta"):
        return False
    if row.get("isCompactSummary"):
        return False
    content = (row.get("message") or {}).get("content")
    if isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") == "tool_result" for block in content
    ):
        return False
    text = strip_wrappers(prompt_text(content))
    return bool(text.strip()) and not is_skipped(text)


def _as_text(items: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(item, sort_keys=True, ensure_ascii=False) for item in items]


def test_every_shipped_transcript_is_read_and_cut_often() -> None:
    cuts = [sum(1 for row in _rows(path)[1:] if _typed_prompt(row)) for path in TRANSCRIPTS]
    assert sum(cuts) > 300 and sum(1 for n in cuts if n) > 60


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda path: path.name[:48])
def test_runs_cut_at_each_prompt_give_what_one_pass_gives(path: Path) -> None:
    rows = _rows(path)
    whole = Capturer()
    in_one = [item for row in rows for item in whole.feed(row)] + whole.flush()
    in_runs: list[dict[str, Any]] = []
    capturer = Capturer()
    for index, row in enumerate(rows):
        if index and _typed_prompt(row):
            in_runs += capturer.end_run()  # the Stop before this prompt ends a run
            capturer = Capturer(json.loads(json.dumps(capturer.to_state())))
        in_runs += capturer.feed(row)
    in_runs += capturer.flush()
    assert _as_text(in_runs) == _as_text(in_one)
