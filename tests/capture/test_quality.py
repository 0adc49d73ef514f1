"""Capture quality on the 16 labelled real transcripts (bench/bench_capture.py), asserted:
the issue's targets, and every tool call rejected with a typed reason captured with it."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from helpers import transcript_rows as tr
from helpers.paths import REPO
from helpers.shipped import BY_NAME, SETS

sys.path.insert(0, str(REPO / "bench"))

import bench_capture

from context_memory.capture.rejections import REJECT_START, marked_reason
from context_memory.capture.store import captured_items

TRANSCRIPTS = REPO / "tests" / "fixtures" / "real-transcripts"
LABELS = REPO / "tests" / "fixtures" / "decision-labels" / "labels.jsonl"


def test_capture_meets_the_targets_on_the_labels() -> None:
    result = bench_capture.score(LABELS, TRANSCRIPTS)
    assert result["labels"] == 51
    assert result["recall_user"] >= 0.85
    assert result["recall_all"] >= 0.65
    assert result["precision"] >= 0.70


def test_each_held_out_half_meets_the_user_target() -> None:
    for split in ("a", "b"):
        result = bench_capture.score(LABELS, TRANSCRIPTS, split)
        assert result["recall_user"] >= 0.85, split
        assert result["precision"] >= 0.70, split


def test_every_call_rejected_with_a_reason_is_captured_with_it() -> None:
    typed: list[str] = []
    captured: list[str] = []
    for path in sorted(TRANSCRIPTS.glob("*.jsonl.gz")):
        items, _ = bench_capture.capture_file(path)
        captured.extend(i["reason"] for i in items if i["kind"] == "rejected")
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                content = (
                    row.get("message", {}).get("content") if row.get("type") == "user" else None
                )
                for block in content if isinstance(content, list) else []:
                    if block.get("type") == "tool_result" and isinstance(block.get("content"), str):
                        head = block["content"].lstrip()
                        reason = marked_reason(head) if head.startswith(REJECT_START) else ""
                        if reason:
                            typed.append(" ".join(reason.split()))
    assert typed == [
        "use pnpm",
        "Let's keep the name of the py file but change the pyproject script to reference it, "
        "otherwise gtg",
    ]
    assert all(reason in captured for reason in typed)


def test_the_report_lists_misses_and_extras(capsys: object) -> None:
    assert bench_capture.main(["--transcripts", str(TRANSCRIPTS), "--labels", str(LABELS)]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "missed labels (" in out and "records matching no label (" in out
    assert "recall by user" in out
    assert "near the label's row (within 40 rows): recall all " in out


def test_both_label_sets_are_scored_per_repository_with_the_held_out_group_apart() -> None:
    result = bench_capture.score_sets(
        [
            (LABELS, TRANSCRIPTS),
            (BY_NAME["2"].labels, BY_NAME["2"].transcripts),
        ]
    )
    groups = result["groups"]
    assert (groups["held-out"]["files"], groups["held-out"]["labels"]) == (12, 55)
    assert (groups["dev"]["files"], groups["dev"]["labels"]) == (31, 132)
    assert groups["all"]["labels"] == 187
    held = {name for name, repo in result["repositories"].items() if repo["group"] == "held-out"}
    assert held == set(bench_capture.HELD_OUT)
    assert len(result["repositories"]) == 20
    assert sum(repo["labels"] for repo in result["repositories"].values()) == 187
    assert sum(len(g["missed"]) for g in (groups["held-out"], groups["dev"])) == len(
        groups["all"]["missed"]
    )
    # The cross-check counts a record only near the label's row: never more than the rule.
    for group in groups.values():
        assert group["near"]["recall_all"] <= group["recall_all"]
        assert group["near"]["recall_user"] <= group["recall_user"]
        assert group["near"]["matched_records"] <= group["matched_records"]


def test_the_markdown_report_lists_every_miss_and_extra_per_group(capsys: object) -> None:
    assert bench_capture.main(["--markdown"]) in (0, 1)  # 1: a target of an unread group is missed
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    result = bench_capture.score_sets([(s.labels, s.transcripts) for s in SETS])
    groups = tuple(g for g in ("fresh", "held-out", "dev") if g in result["groups"])
    assert groups[-2:] == ("held-out", "dev")
    for group in groups:
        figures = result["groups"][group]
        assert f"#### Missed, {group} ({len(figures['missed'])})" in out
        assert f"#### Captured, matching no label, {group} ({len(figures['extra'])})" in out
    # Counted before the assert: a failure must not print the rows (the unread sets' labels).
    rows = sum(1 for line in out.splitlines() if line.startswith("| ") and "---" not in line)
    header_rows = 2 * len(groups)  # one header per table
    cases = sum(
        len(result["groups"][g]["missed"]) + len(result["groups"][g]["extra"]) for g in groups
    )
    assert rows - header_rows == cases


def _scored(file: str, found: list[bool], records: int, matched: int) -> dict[str, object]:
    labels = [{"by": "user", "kind": "decision"} for _ in found]
    return {"file": file, "labels": labels, "found": found, "records": records, "matched": matched}


def test_the_interval_draws_repositories_not_transcripts() -> None:
    # Two repositories: one always right, one always wrong. Each draw takes two repositories,
    # so recall is 0, 0.5 or 1 (0.25, 0.5, 0.25 of the draws): the 90% interval spans 0 to 1.
    per_file = [
        _scored("a__one__x.jsonl.gz", [True, True], 2, 2),
        _scored("a__one__y.jsonl.gz", [True], 1, 1),
        _scored("b__two__z.jsonl.gz", [False, False, False], 3, 0),
    ]
    bounds = bench_capture.interval(per_file)  # type: ignore[arg-type]
    assert bounds == {
        "recall_user": (0.0, 1.0),
        "recall_all": (0.0, 1.0),
        "precision": (0.0, 1.0),
    }
    assert bench_capture.interval(per_file[:2]) == {}  # type: ignore[arg-type]  # one repository


def test_the_interval_is_the_same_on_every_run() -> None:
    per_file = [
        _scored(f"o{n}__r{n}__f.jsonl.gz", [n % 3 == 0, n % 2 == 0], 2, n % 2) for n in range(6)
    ]
    first = bench_capture.interval(per_file)  # type: ignore[arg-type]
    assert first == bench_capture.interval(per_file)  # type: ignore[arg-type]
    low, high = first["recall_all"]
    assert 0.0 <= low < high <= 1.0


BARE_REJECTION = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). STOP what you are doing and "
    "wait for the user to tell you how to proceed."
)


def test_the_benchmark_scores_what_the_stop_hook_writes(tmp_path: Path) -> None:
    """A file that ends on a call rejected with no reason: a Stop hook keeps the rejection
    pending (the next prompt would carry its reason) and writes nothing, so the benchmark
    scores no record; ``ctx-capture`` on the finished transcript (``flush``) writes it."""
    call = tr.tool_use("Bash", {"command": "rm -rf build", "description": "Clean the build"})
    asked = tr.assistant("msg_1", tr.usage(), content=[call])
    rejected = tr.user("")
    rejected["message"]["content"] = [
        {"type": "tool_result", "tool_use_id": call["id"], "is_error": True,
         "content": BARE_REJECTION}
    ]  # fmt: skip
    rejected["toolUseResult"] = "Error: " + BARE_REJECTION
    rejected["toolDenialKind"] = "user-rejected"
    rows = [tr.user("clean up the build output"), asked, rejected]
    path = tmp_path / "a__b__session.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(row) + "\n" for row in rows))
    assert bench_capture.capture_file(path) == ([], 1)
    items, _ = captured_items(rows, None, flush=True)
    assert [(i["kind"], i["source"], i["decision"], i["reason"]) for i in items] == [
        ("rejected", "tool-rejection", "Bash: rm -rf build", "")
    ]
