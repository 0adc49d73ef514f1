"""The typed-words ceiling (bench/capture_ceiling.py): which rows each baseline records, and
what it holds."""

from __future__ import annotations

import gzip
import json
import sys
from typing import TYPE_CHECKING

from helpers.paths import REPO

sys.path.insert(0, str(REPO / "bench"))

import capture_ceiling

if TYPE_CHECKING:
    from pathlib import Path


def _row(kind: str, uuid: str, content: object, **extra: object) -> dict[str, object]:
    role = "user" if kind == "user" else "assistant"
    return {"type": kind, "uuid": uuid, "message": {"role": role, "content": content}, **extra}


ROWS = [
    _row("user", "u1", "Let's build the importer."),
    _row("assistant", "a1", [{"type": "text", "text": "Should I store the rows in SQLite?"}]),
    _row("user", "t1", [{"type": "tool_result", "tool_use_id": "x", "content": "ok"}]),
    _row("user", "m1", "<command-name>/clear</command-name>", isMeta=True),
    _row("user", "s1", "a subagent's prompt", isSidechain=True),
    _row("assistant", "e1", [{"type": "text", "text": "API Error"}], isApiErrorMessage=True),
    _row("user", "u2", [{"type": "text", "text": "yes"}]),
    _row("assistant", "a2", [{"type": "text", "text": "Using SQLite with WAL mode."}]),
]


def _transcript(tmp_path: Path) -> Path:
    path = tmp_path / "owner__repo__session.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for row in ROWS:
            handle.write(json.dumps(row) + "\n")
    return path


def test_turns_are_the_typed_prompts_and_the_agents_texts(tmp_path: Path) -> None:
    assert capture_ceiling.turns(_transcript(tmp_path)) == [
        ("user", "u1", "Let's build the importer."),
        ("agent", "a1", "Should I store the rows in SQLite?"),
        ("user", "u2", "yes"),
        ("agent", "a2", "Using SQLite with WAL mode."),
    ]


def test_each_baseline_records_every_typed_prompt_with_its_context(tmp_path: Path) -> None:
    path = _transcript(tmp_path)
    typed, prompts = capture_ceiling.baseline("typed")(path)
    assert prompts == 2
    assert [(r["uuid"], r["decision"]) for r in typed] == [
        ("u1", "Let's build the importer."),
        ("u2", "yes"),
    ]
    previous, _ = capture_ceiling.baseline("previous")(path)
    assert [r["decision"] for r in previous] == [
        "Let's build the importer.",
        "yes\nShould I store the rows in SQLite?",
    ]
    reply, _ = capture_ceiling.baseline("reply")(path)
    assert [r["decision"] for r in reply] == [
        "Let's build the importer.\nShould I store the rows in SQLite?",
        "yes\nShould I store the rows in SQLite?\nUsing SQLite with WAL mode.",
    ]


def test_the_agents_text_a_record_holds_is_bounded(tmp_path: Path) -> None:
    long = "word " * 1000
    path = tmp_path / "owner__repo__long.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write(json.dumps(_row("assistant", "a0", [{"type": "text", "text": long}])) + "\n")
        handle.write(json.dumps(_row("user", "u0", "yes")) + "\n")
    (record,), _ = capture_ceiling.baseline("previous")(path)
    assert record["decision"] == "yes\n" + long[-capture_ceiling.AGENT_CHARS :]


def test_recall_at_the_row_counts_only_a_record_of_the_labels_row(tmp_path: Path) -> None:
    path = _transcript(tmp_path)
    labels = tmp_path / "labels.jsonl"
    rows = [
        # the user's pick: its term is in the agent's question before it, at the label's row
        {"file": path.name, "uuid": "u2", "kind": "decision", "by": "user", "terms": ["sqlite"]},
        # a term only a record of another row holds: found in the file, not at its row
        {"file": path.name, "uuid": "u1", "kind": "decision", "by": "user", "terms": ["yes"]},
    ]
    labels.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    sets = [(labels, tmp_path)]
    assert capture_ceiling.at_row(sets, capture_ceiling.baseline("typed")) == {
        "dev": 0.0,
        "all": 0.0,
    }
    assert capture_ceiling.at_row(sets, capture_ceiling.baseline("previous")) == {
        "dev": 0.5,
        "all": 0.5,
    }
