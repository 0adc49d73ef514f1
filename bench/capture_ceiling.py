"""The ceiling of reading the user's typed words: what recall a capture could reach at all.

    python bench/capture_ceiling.py [--set 1|2|...|all] [--json]

The label sets' rule (bench/bench_capture.py) finds a label when a record of its file holds
every one of its terms. A label whose terms are not in the words the user typed cannot be
found by any rule that reads only those words, however good: the labelling rules take a
term from wherever the item is said (an option the agent offered and the user picked, the
agent's restatement, the call the user rejected). This benchmark scores three baselines
with the same rule and label sets, none of which is capture:

- ``typed``: every prompt the user typed (what capture's engine counts as a prompt: not a
  tool result, a meta or sidechain row, a command wrapper or a summary), whole, one record
  each: the recall no prompt rule can pass, at the precision of recording everything;
- ``previous``: each of those records also holding the end of the agent's text in the turn
  before it (what a dialogue-aware rule could add from what the user answers);
- ``reply``: each also holding the start of the agent's text in the turn after it (what a
  rule could add from the agent's restatement).

Each prompt and each agent text is bounded (TURN_CHARS, AGENT_CHARS). Besides the label
rule's figures (a record anywhere in the file), the recall of the user's labels by a record
of the label's own row (``at_row``). A benchmark, not a test: exit 0.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "hooks"))
sys.path.insert(0, str(HERE))

import bench_capture  # noqa: E402
from label_sets import BY_NAME, SETS  # noqa: E402

from context_memory.capture.prompts import is_skipped, prompt_text  # noqa: E402
from context_memory.capture.text import strip_wrappers  # noqa: E402

TURN_CHARS = 8000  # characters of one prompt a baseline record holds
# Characters of the agent's text before a prompt (its end: what the user answers) and after
# it (its start: the reply's restatement) that a baseline record holds.
AGENT_CHARS = 600
BASELINES = ("typed", "previous", "reply")


def _agent_text(content: object) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts: list[str] = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "text":
            text = block.get("text")
            if isinstance(text, str):
                texts.append(text)
    return "\n".join(texts)


def turns(path: Path) -> list[tuple[str, str, str]]:
    """The file's main-chain rows as (who, uuid, text): ``user`` for a typed prompt,
    ``agent`` for the agent's text; tool results, meta, sidechain and synthetic rows left
    out, as capture's engine leaves them out of its prompts."""
    out: list[tuple[str, str, str]] = []
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                row = json.loads(line)
            except ValueError:
                continue
            message = row.get("message") if isinstance(row, dict) else None
            if not isinstance(message, dict) or row.get("isSidechain") or row.get("isMeta"):
                continue
            uuid = str(row.get("uuid", ""))
            if row.get("type") == "user" and not row.get("isCompactSummary"):
                text = strip_wrappers(prompt_text(message.get("content")))
                if text.strip() and not is_skipped(text):
                    out.append(("user", uuid, text))
            elif (
                row.get("type") == "assistant"
                and message.get("model") != "<synthetic>"
                and row.get("isApiErrorMessage") is not True
            ):
                text = _agent_text(message.get("content"))
                if text.strip():
                    out.append(("agent", uuid, text))
    return out


def baseline(kind: str) -> bench_capture.Capture:
    """The records of baseline ``kind`` (BASELINES) for one transcript, and its prompts."""

    def capture(path: Path) -> tuple[list[dict[str, Any]], int]:
        rows = turns(path)
        records: list[dict[str, Any]] = []
        for index, (who, uuid, text) in enumerate(rows):
            if who != "user":
                continue
            parts = [text[:TURN_CHARS]]
            if kind in ("previous", "reply"):
                before: list[str] = []
                for other_who, _, other in reversed(rows[:index]):
                    if other_who == "user":
                        break
                    before.insert(0, other)
                parts.append("\n".join(before)[-AGENT_CHARS:])
            if kind == "reply":
                after: list[str] = []
                for other_who, _, other in rows[index + 1 :]:
                    if other_who == "user":
                        break
                    after.append(other)
                parts.append("\n".join(after)[:AGENT_CHARS])
            decision = "\n".join(part for part in parts if part)
            records.append({"uuid": uuid, "source": "prompt", "decision": decision})
        return records, sum(1 for who, _, _ in rows if who == "user")

    return capture


def at_row(sets: list[tuple[Path, Path]], capture: bench_capture.Capture) -> dict[str, float]:
    """Per group, the recall of the user's labels by a record of the label's own row: the
    stricter figure (a long text matches a label's terms by chance somewhere in a file)."""
    hits: dict[str, list[bool]] = {}
    for labels_path, transcripts in sets:
        if not labels_path.is_file():
            continue
        labels, files = bench_capture.load_labels(labels_path)
        for name in files:
            records, _ = capture(transcripts / name)
            group = bench_capture.group_of(name, labels_path)
            for label in labels:
                if label["file"] != name or label["by"] != "user":
                    continue
                found = any(
                    r.get("uuid") == label["uuid"] and bench_capture.matches(r, label)
                    for r in records
                )
                for key in (group, "all"):
                    hits.setdefault(key, []).append(found)
    return {group: sum(found) / len(found) for group, found in hits.items() if found}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=(*BY_NAME, "all"), default="all")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    chosen = SETS if args.set == "all" else (BY_NAME[args.set],)
    sets = [(s.labels, s.transcripts) for s in chosen]
    table: dict[str, dict[str, Any]] = {}
    for kind in ("capture", *BASELINES):
        capture = bench_capture.capture_file if kind == "capture" else baseline(kind)
        groups = bench_capture.score_sets(sets, capture)["groups"]
        rows = at_row(sets, capture)
        table[kind] = {
            group: {
                **{key: figures[key] for key in ("recall_user", "recall_all", "precision")},
                "recall_user_at_row": rows.get(group, 0.0),
            }
            for group, figures in groups.items()
        }
    if args.json:
        print(json.dumps(table, indent=2))
        return 0
    print("| records | group | recall user | user, at the row | recall all | precision |")
    print("|---|---|---|---|---|---|")
    for kind, groups in table.items():
        for group, figures in groups.items():
            print(
                f"| {kind} | {group} | {figures['recall_user']:.2f}"
                f" | {figures['recall_user_at_row']:.2f} | {figures['recall_all']:.2f}"
                f" | {figures['precision']:.2f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
