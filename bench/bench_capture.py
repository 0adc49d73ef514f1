"""How well the capture engine finds what real sessions decided, rejected and required.

    python bench/bench_capture.py [--labels PATH] [--transcripts DIR] [--split all|a|b] [--json]

Runs ``context_memory.capture.engine.Capturer`` over the 16 labelled transcripts of
tests/fixtures/real-transcripts and scores it against the hand labels in
tests/fixtures/decision-labels/labels.jsonl (a copy of the project's shared reference) with
the rule of its README: a captured record matches a label when the label's file is the
record's file and the record's decision, reason, quote and anchors together contain every
one of the label's terms (case-insensitive substring). A label is found when any record
matches it; precision is the share of captured records that match some label.

Reported: recall per kind and per ``by``, overall, precision, records per 10 user prompts,
every missed label and every record that matches no label. ``--split a`` / ``b`` scores
one half of the files (alternating by label count) for a held-out check. A benchmark, not a test
(tests/test_capture_quality.py asserts the targets through ``score``): exit 0, or 1 when a
target is missed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "hooks"))

from context_memory.capture.engine import Capturer  # noqa: E402

FIXTURES = REPO / "tests" / "fixtures"
DEFAULT_LABELS = FIXTURES / "decision-labels" / "labels.jsonl"
DEFAULT_TRANSCRIPTS = FIXTURES / "real-transcripts"
TARGETS = {"recall_user": 0.85, "recall_all": 0.65, "precision": 0.70}
LABEL_KINDS = {"decision": "decided", "rejection": "rejected", "constraint": "constraint"}


def load_labels(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """(labels with an item, every labelled file name)."""
    labels: list[dict[str, Any]] = []
    files: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        label = json.loads(line)
        if label["file"] not in files:
            files.append(label["file"])
        if not label.get("none"):
            labels.append(label)
    return labels, files


def capture_file(path: Path) -> tuple[list[dict[str, Any]], int]:
    """(items captured from one transcript, user prompts seen), in one pass."""
    capturer = Capturer()
    items: list[dict[str, Any]] = []
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                row = json.loads(line)
            except ValueError:
                continue
            items.extend(capturer.feed(row))
    items.extend(capturer.flush())
    return items, capturer.prompts


def haystack(item: dict[str, Any]) -> str:
    parts = [item.get("decision", ""), item.get("reason", ""), item.get("quote", "")]
    parts.extend(item.get("anchors", []))
    return "\n".join(str(p) for p in parts).lower()


def matches(item: dict[str, Any], label: dict[str, Any]) -> bool:
    text = haystack(item)
    return all(term.lower() in text for term in label["terms"])


def split_files(files: list[str], split: str, labels: list[dict[str, Any]]) -> list[str]:
    """Half ``a`` or ``b`` of the files: by label count, then name, alternating (balanced)."""
    count = {name: sum(1 for label in labels if label["file"] == name) for name in files}
    ordered = sorted(files, key=lambda name: (-count[name], name))
    if split == "a":
        return ordered[0::2]
    if split == "b":
        return ordered[1::2]
    return ordered


def score(
    labels_path: Path = DEFAULT_LABELS,
    transcripts: Path = DEFAULT_TRANSCRIPTS,
    split: str = "all",
) -> dict[str, Any]:
    """Every figure of the benchmark, and the missed labels and unmatched records."""
    labels, files = load_labels(labels_path)
    chosen = split_files(files, split, labels)
    labels = [label for label in labels if label["file"] in chosen]
    found = [False] * len(labels)
    records = matched_records = prompts = 0
    extra: list[dict[str, Any]] = []
    for name in chosen:
        items, seen_prompts = capture_file(transcripts / name)
        prompts += seen_prompts
        for item in items:
            records += 1
            hit = False
            for index, label in enumerate(labels):
                if label["file"] == name and matches(item, label):
                    found[index] = True
                    hit = True
            if hit:
                matched_records += 1
            else:
                extra.append({"file": name, **item})

    def recall(select: Any) -> tuple[float, int, int]:
        picked = [f for f, label in zip(found, labels, strict=True) if select(label)]
        return (sum(picked) / len(picked) if picked else 1.0), sum(picked), len(picked)

    per_kind = {kind: recall(lambda lb, k=kind: lb["kind"] == k) for kind in LABEL_KINDS}
    per_by = {by: recall(lambda lb, b=by: lb["by"] == b) for by in ("user", "agent")}
    return {
        "split": split,
        "files": len(chosen),
        "labels": len(labels),
        "records": records,
        "matched_records": matched_records,
        "prompts": prompts,
        "recall_all": recall(lambda lb: True)[0],
        "recall_user": per_by["user"][0],
        "recall_agent": per_by["agent"][0],
        "per_kind": per_kind,
        "per_by": per_by,
        "precision": matched_records / records if records else 1.0,
        "per_10_prompts": 10 * records / prompts if prompts else 0.0,
        "missed": [label for f, label in zip(found, labels, strict=True) if not f],
        "extra": extra,
    }


def short_file(name: str) -> str:
    return name.replace("daaain__claude-code-log__test_test_data_real_projects_", "")[:60]


def report(result: dict[str, Any]) -> str:
    lines = [
        f"split {result['split']}: {result['files']} transcripts, {result['labels']} labels, "
        f"{result['records']} records captured, {result['prompts']} user prompts",
        f"recall all {result['recall_all']:.2f}  user {result['recall_user']:.2f}  "
        f"agent {result['recall_agent']:.2f}  precision {result['precision']:.2f} "
        f"({result['matched_records']}/{result['records']})  "
        f"records per 10 prompts {result['per_10_prompts']:.1f}",
    ]
    for kind, (value, hit, total) in result["per_kind"].items():
        lines.append(f"  recall {kind:<10} {value:.2f} ({hit}/{total})")
    for by, (value, hit, total) in result["per_by"].items():
        lines.append(f"  recall by {by:<7} {value:.2f} ({hit}/{total})")
    lines.append(f"missed labels ({len(result['missed'])}):")
    for label in result["missed"]:
        lines.append(
            f"  - [{short_file(label['file'])}] {label['kind']}/{label['by']} "
            f"terms={label['terms']}: {label['evidence'][:110]!r}"
        )
    lines.append(f"records matching no label ({len(result['extra'])}):")
    for item in result["extra"]:
        lines.append(
            f"  - [{short_file(item['file'])}] {item['source']} {item['kind']}/{item['by']}: "
            f"{item['decision'][:110]!r}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    parser.add_argument("--transcripts", type=Path, default=DEFAULT_TRANSCRIPTS)
    parser.add_argument("--split", choices=("all", "a", "b"), default="all")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = score(args.labels, args.transcripts, args.split)
    if args.json:
        print(
            json.dumps({k: v for k, v in result.items() if k not in ("missed", "extra")}, indent=2)
        )
    else:
        print(report(result))
    missed = [name for name, target in TARGETS.items() if result[name] < target]
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
