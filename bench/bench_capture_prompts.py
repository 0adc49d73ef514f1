"""How well capture reads single prompts of users nobody here had read (label set 3).

    python bench/bench_capture_prompts.py [--cases dev|none] [--json | --markdown | --agreement]

Set 3 (tests/fixtures/prompt-labels-3/, its README) is typed prompts of other users, taken
from the ``~/.claude/history.jsonl`` files they committed to public repositories and labelled
prompt by prompt by the rules of the other two sets. A history file keeps what the user typed
but not the agent's turns, so a prompt whose meaning rests on the agent's previous turn
("yes", "1", "no, the other one") is marked ``turn`` and not scored; every other prompt is
scored alone: it becomes the one user row of a transcript in the client's 2.1.332 shape
(pasted text inlined, as the client sends it), the capture engine reads that transcript, and
its records are scored against the prompt's labels by the rule of bench_capture (a record
matches a label when its decision, reason, quote and anchors contain every term). A record on
a prompt with no label, or matching none of its labels, lowers precision.

Two groups, by repository: ``held-3`` was labelled by someone who never saw capture's rules,
and nobody writing rules reads it (``--cases`` never lists it; ``--markdown`` prints both
groups' cases for docs/benchmarks.md, as bench_capture does); ``dev-3`` may be read for
phrasing kinds, never to copy a labelled line. Reported per group and per repository: recall
per kind, precision, records per 10 prompts, a 90% bootstrap interval over repositories.
A benchmark, not a test: exit 0 (tests/capture/test_quality_prompts.py asserts its shape).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "hooks"))
sys.path.insert(0, str(HERE))

from bench_capture import (  # noqa: E402
    _cell,
    cases,
    figures,
    interval,
    matches,
    summary,
)

from context_memory.capture.engine import Capturer  # noqa: E402
from context_memory.capture.store import CaptureResult, add_records  # noqa: E402

SET3 = REPO / "tests" / "fixtures" / "prompt-labels-3"
# fresh-3: labelled after the last rule change of session 9 and scored once, by nobody who
# writes rules; held-3 was scored after each batch of rules; dev-3 was read for phrasing.
GROUP_FOLDERS = {"fresh-3": "fresh", "held-3": "held", "dev-3": "dev"}


def prompt_row(prompt: str, session: str, index: int) -> dict[str, Any]:
    """A typed prompt as the client 2.1.332 writes it (the shape of the protocol file's
    sample transcript), its ids made from the prompt's place in the set."""
    uuid = f"00000000-0000-4000-8000-{index:012d}"
    return {
        "parentUuid": None,
        "isSidechain": False,
        "promptId": uuid,
        "type": "user",
        "message": {"role": "user", "content": prompt},
        "uuid": uuid,
        "timestamp": "2026-11-30T09:10:50.924Z",
        "permissionMode": "default",
        "promptSource": "typed",
        "userType": "external",
        "entrypoint": "cli",
        "cwd": "/home/dev/project",
        "sessionId": session or "00000000-0000-4000-8000-000000000000",
        "version": "2.1.332",
        "gitBranch": "main",
    }


def capture_prompt(prompt: str, session: str, index: int) -> list[dict[str, Any]]:
    """The records capture writes for a transcript of this one prompt (bench_capture's
    dry run of the store: what a later session reads)."""
    capturer = Capturer()
    items = [*capturer.feed(prompt_row(prompt, session, index)), *capturer.flush()]
    result = CaptureResult()
    with tempfile.TemporaryDirectory() as state:
        add_records(
            state, capturer.scrubbed(items), session="bench", author="", result=result, dry_run=True
        )
    return list(result.added)


def load_prompts(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """repository -> its labelled prompts (one file per repository, ``owner__repo.jsonl``)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(folder.glob("*.jsonl")):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
        if rows:
            out[str(rows[0]["repo"])] = rows
    return out


def score_repository(repo: str, rows: list[dict[str, Any]], start: int) -> dict[str, Any]:
    """One repository's prompts scored as bench_capture scores one transcript."""
    labels: list[dict[str, Any]] = []
    found: list[bool] = []
    extra: list[dict[str, Any]] = []
    records = matched = prompts = 0
    for offset, row in enumerate(rows):
        if row.get("context") != "alone":
            continue
        prompts += 1
        mine = [{**item, "file": repo, "evidence": row["prompt"]} for item in row["items"]]
        hits = [False] * len(mine)
        for record in capture_prompt(row["prompt"], row.get("session", ""), start + offset):
            records += 1
            hit = False
            for index, label in enumerate(mine):
                if matches(record, label):
                    hits[index] = hit = True
            if hit:
                matched += 1
            else:
                extra.append({"file": repo, **record})
        labels.extend(mine)
        found.extend(hits)
    return {
        "file": repo,
        "labels": labels,
        "found": found,
        "near": found,
        "records": records,
        "matched": matched,
        "matched_near": matched,
        "prompts": prompts,
        "extra": extra,
    }


def score_set(root: Path = SET3) -> dict[str, Any]:
    """Figures per group and per repository."""
    groups: dict[str, Any] = {}
    repositories: dict[str, Any] = {}
    start = 0
    for group, folder in GROUP_FOLDERS.items():
        scored = []
        for repo, rows in load_prompts(root / folder).items():
            scored.append(score_repository(repo, rows, start))
            start += len(rows)
            repositories[repo] = {"group": group, **figures([scored[-1]])}
        if not scored:
            continue
        groups[group] = {**figures(scored), "interval": interval(scored)}
    return {"groups": groups, "repositories": repositories}


def report(result: dict[str, Any], shown: str) -> str:
    lines: list[str] = []
    for name, group in result["groups"].items():
        lines.extend(summary(name, group, single_prompts=True))
    lines.append("")
    lines.append("| repository | group | prompts | labels | recall | precision |")
    lines.append("|---|---|---|---|---|---|")
    for name, repo in sorted(result["repositories"].items(), key=lambda kv: kv[0].lower()):
        found = repo["labels"] - len(repo["missed"])
        recall = f"{repo['recall_all']:.2f} ({found}/{repo['labels']})" if repo["labels"] else "-"
        precision = (
            f"{repo['precision']:.2f} ({repo['matched_records']}/{repo['records']})"
            if repo["records"]
            else "-"
        )
        lines.append(
            f"| {name} | {repo['group']} | {repo['prompts']} | {repo['labels']} | "
            f"{recall} | {precision} |"
        )
    if shown == "dev":
        lines.extend(["", "## dev-3", *cases(result["groups"]["dev-3"])])
    return "\n".join(lines)


def _same_item(first: dict[str, Any], second: dict[str, Any]) -> bool:
    """Two labellers' items of one prompt name the same thing: a term of one is part of a
    term of the other."""
    return any(a in b or b in a for a in first["terms"] for b in second["terms"])


def agreement(root: Path = SET3) -> dict[str, Any]:
    """How far a second labeller, blind to the first, agrees on the prompts it relabelled
    (``second-labeller/``, the same files of ``dev/`` without the prompts): the context,
    whether a prompt holds an item (Cohen's kappa), and items matched by their terms."""
    first: dict[tuple[str, int], dict[str, Any]] = {}
    second: dict[tuple[str, int], dict[str, Any]] = {}
    for path in sorted((root / "second-labeller").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            second[(row["repo"], row["line"])] = row
        for line in (root / "dev" / path.name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            first[(row["repo"], row["line"])] = row
    keys = [key for key in first if key in second]
    alone = [k for k in keys if first[k]["context"] == second[k]["context"] == "alone"]
    has_first = [bool(first[k]["items"]) for k in alone]
    has_second = [bool(second[k]["items"]) for k in alone]
    observed = sum(a == b for a, b in zip(has_first, has_second, strict=True)) / len(alone)
    p1, p2 = sum(has_first) / len(alone), sum(has_second) / len(alone)
    chance = p1 * p2 + (1 - p1) * (1 - p2)
    items_first = [(k, item) for k in alone for item in first[k]["items"]]
    items_second = [(k, item) for k in alone for item in second[k]["items"]]
    found = sum(any(_same_item(i, j) for j in second[k]["items"]) for k, i in items_first)
    confirmed = sum(any(_same_item(j, i) for i in first[k]["items"]) for k, j in items_second)
    recall = found / len(items_first)
    precision = confirmed / len(items_second)
    return {
        "prompts": len(keys),
        "context_agreed": sum(first[k]["context"] == second[k]["context"] for k in keys),
        "alone": len(alone),
        "kappa": (observed - chance) / (1 - chance),
        "items": (len(items_first), len(items_second)),
        "found": (found, confirmed),
        "f1": 2 * precision * recall / (precision + recall),
    }


def markdown_cases(result: dict[str, Any]) -> str:
    """Every missed label and every unmatched record, per group, as markdown tables (what
    docs/benchmarks.md publishes)."""
    lines: list[str] = []
    for group in [name for name in GROUP_FOLDERS if name in result["groups"]]:
        figures_ = result["groups"][group]
        lines.extend(
            [
                f"#### Missed, {group} ({len(figures_['missed'])})",
                "",
                "| repository | kind | terms | prompt |",
                "|---|---|---|---|",
            ]
        )
        for label in figures_["missed"]:
            lines.append(
                f"| {label['file']} | {label['kind']} | {_cell(', '.join(label['terms']), 40)} | "
                f"{_cell(label['evidence'])} |"
            )
        lines.extend(
            [
                "",
                f"#### Captured, matching no label, {group} ({len(figures_['extra'])})",
                "",
                "| repository | kind | decision |",
                "|---|---|---|",
            ]
        )
        for item in figures_["extra"]:
            lines.append(f"| {item['file']} | {item['kind']} | {_cell(item['decision'])} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--cases",
        choices=("dev", "none"),
        default="none",
        help="list dev-3's misses and extras (held-3's are never listed)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="print every miss and extra of every group as markdown tables (for the docs)",
    )
    parser.add_argument(
        "--agreement",
        action="store_true",
        help="how far a second, blind labeller agrees with dev-3's labels",
    )
    args = parser.parse_args(argv)
    if args.agreement:
        agreed = agreement()
        print(
            f"{agreed['prompts']} prompts relabelled; context agreed on "
            f"{agreed['context_agreed']}; of the {agreed['alone']} both read alone, holding an "
            f"item or not: kappa {agreed['kappa']:.2f}; items {agreed['items'][0]} (first) and "
            f"{agreed['items'][1]} (second), {agreed['found'][0]} and {agreed['found'][1]} "
            f"found by the other: F1 {agreed['f1']:.2f}"
        )
        return 0
    result = score_set()
    if args.markdown:
        print(markdown_cases(result))
    elif args.json:
        strip = {"missed", "extra"}
        print(
            json.dumps(
                {
                    part: {
                        k: {f: v for f, v in g.items() if f not in strip} for k, g in groups.items()
                    }
                    for part, groups in result.items()
                },
                indent=2,
            )
        )
    else:
        print(report(result, args.cases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
