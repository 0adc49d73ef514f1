"""Label set 3 (single prompts of other users, tests/fixtures/prompt-labels-3) and its
benchmark (bench/bench_capture_prompts.py): the fixture's own rules, and exact figures of
the scoring on a set built here."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from helpers.paths import REPO

sys.path.insert(0, str(REPO / "bench"))

import bench_capture_prompts

KINDS = {"decision", "rejection", "constraint"}
FIELDS = {"repo", "path", "commit", "line", "session", "prompt", "context", "items"}


def _rows() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for folder in bench_capture_prompts.GROUP_FOLDERS.values():
        for path in sorted((bench_capture_prompts.SET3 / folder).glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                out.append((path.name, json.loads(line)))
    return out


def test_every_prompt_of_set_3_follows_the_fixture_rules() -> None:
    rows = _rows()
    assert len(rows) >= 400
    for name, row in rows:
        assert set(row) == FIELDS, name
        assert name == row["repo"].replace("/", "__") + ".jsonl"
        assert re.fullmatch(r"[0-9a-f]{40}", row["commit"]), name
        assert row["context"] in ("alone", "turn"), name
        assert row["prompt"].strip(), name
        if row["context"] == "turn":
            assert row["items"] == [], name
        for item in row["items"]:
            assert item["kind"] in KINDS and item["by"] == "user", name
            assert 1 <= len(item["terms"]) <= 3, name
            for term in item["terms"]:
                assert term == term.lower() and term in row["prompt"].lower(), (name, term)


def others_owners(repos: set[str]) -> set[str]:
    return {repo.split("/")[0] for repo in repos}


def test_no_repository_of_set_3_is_in_another_label_set_or_in_both_groups() -> None:
    others = set()
    for folder in ("decision-labels", "decision-labels-2"):
        labels = REPO / "tests" / "fixtures" / folder / "labels.jsonl"
        for line in labels.read_text(encoding="utf-8").splitlines():
            file = json.loads(line)["file"]
            parts = file.split("__")
            others.add(f"{parts[0]}/{parts[1]}" if len(parts) >= 3 else file)
    groups: dict[str, set[str]] = {}
    for folder in bench_capture_prompts.GROUP_FOLDERS.values():
        groups[folder] = {
            p.stem.replace("__", "/", 1)
            for p in (bench_capture_prompts.SET3 / folder).glob("*.jsonl")
        }
    assert groups["dev"] and groups["held"] and groups["fresh"]
    assert not groups["dev"] & groups["held"]
    assert not (groups["dev"] | groups["held"]) & groups["fresh"]
    assert not (groups["dev"] | groups["held"] | groups["fresh"]) & others
    # one user's repositories are in one group only
    owners = {group: {repo.split("/")[0] for repo in repos} for group, repos in groups.items()}
    assert not owners["fresh"] & (owners["dev"] | owners["held"] | others_owners(others))


def _write(folder: Path, repo: str, rows: list[tuple[str, str, list[dict[str, Any]]]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        json.dumps(
            {
                "repo": repo,
                "path": ".claude/history.jsonl",
                "commit": "0" * 40,
                "line": index + 1,
                "session": "",
                "prompt": prompt,
                "context": context,
                "items": items,
            }
        )
        for index, (prompt, context, items) in enumerate(rows)
    ]
    (folder / (repo.replace("/", "__") + ".jsonl")).write_text("\n".join(lines) + "\n")


def test_the_benchmark_scores_each_prompt_alone_and_skips_those_that_need_the_turn(
    tmp_path: Path,
) -> None:
    def item(kind: str, *terms: str) -> dict[str, Any]:
        return {"kind": kind, "by": "user", "text": "-", "terms": list(terms)}

    _write(
        tmp_path / "dev",
        "a/one",
        [
            ("use pnpm, not npm", "alone", [item("decision", "pnpm")]),
            ("add a login page", "alone", []),
            ("never touch the migrations folder", "alone", [item("constraint", "migrations")]),
            ("yes", "turn", []),
            ("the header is blue", "alone", [item("decision", "zebra")]),
        ],
    )
    _write(tmp_path / "held", "b/two", [("always answer in Spanish", "alone", [])])
    result = bench_capture_prompts.score_set(tmp_path)
    dev, held = result["groups"]["dev-3"], result["groups"]["held-3"]
    assert (dev["files"], dev["prompts"], dev["labels"], dev["records"]) == (1, 4, 3, 2)
    assert (dev["matched_records"], round(dev["recall_all"], 4)) == (2, 0.6667)
    assert [label["terms"] for label in dev["missed"]] == [["zebra"]]
    assert dev["extra"] == []
    # A record on a prompt with no label lowers precision.
    assert (held["prompts"], held["labels"], held["records"], held["matched_records"]) == (
        1,
        0,
        1,
        0,
    )
    assert [record["kind"] for record in held["extra"]] == ["constraint"]
    assert result["repositories"]["a/one"]["group"] == "dev-3"
    text = bench_capture_prompts.report(result, "dev")
    assert "| a/one | dev-3 | 4 | 3 | 0.67 (2/3) | 1.00 (2/2) |" in text
    assert "| b/two | held-3 | 1 | 0 | - | 0.00 (0/1) |" in text
    assert "## dev-3\nmissed labels (1):" in text
    assert "always answer in Spanish" not in text  # held-3's records are never listed
    assert "always answer" not in bench_capture_prompts.report(result, "none")
    tables = bench_capture_prompts.markdown_cases(result)
    assert "#### Missed, dev-3 (1)" in tables
    assert "| a/one | decision | zebra | the header is blue |" in tables
    assert "#### Captured, matching no label, held-3 (1)" in tables
    assert "| b/two | constraint | always answer in Spanish |" in tables


def test_the_benchmark_runs_on_the_shipped_set(capsys: object) -> None:
    assert bench_capture_prompts.main(["--json"]) == 0
    out = json.loads(capsys.readouterr().out)  # type: ignore[attr-defined]
    rows = _rows()
    alone = sum(1 for _, row in rows if row["context"] == "alone")
    labels = sum(len(row["items"]) for _, row in rows)
    groups = out["groups"]
    assert sorted(groups) == ["dev-3", "fresh-3", "held-3"]
    assert sum(group["prompts"] for group in groups.values()) == alone
    assert sum(group["labels"] for group in groups.values()) == labels


def test_a_second_blind_labelling_of_part_of_dev_3_agrees_with_the_first() -> None:
    root = bench_capture_prompts.SET3 / "second-labeller"
    for path in sorted(root.glob("*.jsonl")):
        first = [json.loads(line) for line in (root.parent / "dev" / path.name).open()]
        second = [json.loads(line) for line in path.open()]
        assert [(r["repo"], r["line"]) for r in second] == [(r["repo"], r["line"]) for r in first]
        assert all(set(r) == {"repo", "line", "context", "items"} for r in second)
    agreed = bench_capture_prompts.agreement()
    assert (agreed["prompts"], agreed["context_agreed"], agreed["alone"]) == (262, 251, 213)
    assert (agreed["items"], agreed["found"]) == ((50, 41), (37, 38))
    assert (round(agreed["kappa"], 2), round(agreed["f1"], 2)) == (0.87, 0.82)
