"""Label sets 4 to 8 (whole sessions of more users, each labelled blind after the last rule
change of its session: tests/fixtures/decision-labels-4 to -8, their READMEs): each fixture's
own rules, its owners apart from every other label set, and its scoring: each was fresh
once (bench_capture's group ``fresh``, scored once after the rules it was labelled after),
and all five are now in the group ``held-out`` (scored after each change since).
Nothing here prints or asserts a label's text: the sets are scored, never read."""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers.paths import REPO
from helpers.shipped import BLIND_SETS, BY_NAME

sys.path.insert(0, str(REPO / "bench"))

import bench_capture

FIXTURES = REPO / "tests" / "fixtures"
SESSION_SETS = tuple(s.folder for s in BLIND_SETS)
# (folder, labelling): every labelling of the whole-session sets.
LABELLINGS = [
    (s.folder, str(path.relative_to(s.folder)))
    for s in BLIND_SETS
    for path in (s.labels, s.second)
    if path is not None
]
KINDS = {"decision", "rejection", "constraint"}
FIELDS = {"file", "uuid", "kind", "by", "text", "reason", "terms", "evidence"}
_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _rows(folder: Path, name: str) -> list[dict[str, Any]]:
    with gzip.open(folder / "transcripts" / name, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _owner(file_name: str) -> str:
    return file_name.split("__")[0]


@pytest.mark.parametrize(("folder", "labelling"), LABELLINGS)
def test_every_label_of_a_session_set_follows_the_rules_of_its_readme(
    folder: Path, labelling: str
) -> None:
    labels = _lines(folder / labelling)
    transcripts = sorted(p.name for p in (folder / "transcripts").glob("*.jsonl.gz"))
    assert len(transcripts) >= 3  # set 8, the smallest, has 3
    assert {label["file"] for label in labels} == set(transcripts)  # every file has a line
    for name in transcripts:
        rows = _rows(folder, name)
        mine = [label for label in labels if label["file"] == name]
        if any(label.get("none") for label in mine):
            assert mine == [{"file": name, "none": True}], name
            continue
        by_uuid: dict[str, list[int]] = {}
        for index, row in enumerate(rows):
            if isinstance(row.get("uuid"), str):
                by_uuid.setdefault(row["uuid"], []).append(index)
        everything = _norm(" ".join(s for row in rows for s in _strings(row))).lower()
        places = []
        # Each check is a bool before its assert: a failure names the file and the row, and
        # never prints a label's words (the sets are scored, never read).
        for label in mine:
            fields_ok = set(label) == FIELDS
            assert fields_ok, name
            kind_ok = label["kind"] in KINDS and label["by"] in ("user", "agent")
            assert kind_ok, name
            one_row = len(by_uuid.get(label["uuid"], [])) == 1
            assert one_row, (name, label["uuid"])
            row = rows[by_uuid[label["uuid"]][0]]
            quoted = len(label["evidence"]) <= 200 and _norm(label["evidence"]) in _norm(
                " ".join(_strings(row))
            )
            assert quoted, (name, label["uuid"])
            terms_ok = 1 <= len(label["terms"]) <= 3 and all(
                term == term.lower() and _norm(term) in everything for term in label["terms"]
            )
            assert terms_ok, (name, label["uuid"])
            places.append(by_uuid[label["uuid"]][0])
        assert places == sorted(places), name  # in row order


def _owners_of_labels(folder: str) -> set[str]:
    return {_owner(label["file"]) for label in _lines(FIXTURES / folder / "labels.jsonl")}


def _owners_of_transcripts(folder: Path) -> set[str]:
    return {_owner(p.name) for p in (folder / "transcripts").glob("*.jsonl.gz")}


@pytest.mark.parametrize("folder", SESSION_SETS)
def test_no_owner_of_a_session_set_is_in_another_label_set(folder: Path) -> None:
    owners = _owners_of_transcripts(folder)
    assert len(owners) >= 3  # set 8, the smallest, has 3
    others = {"daaain"} | _owners_of_labels("decision-labels-2")
    for other in SESSION_SETS:
        if other != folder:
            others |= _owners_of_transcripts(other)
    for group in ("dev", "held", "fresh"):
        others |= {
            p.name.split("__")[0] for p in (FIXTURES / "prompt-labels-3" / group).glob("*.jsonl")
        }
    assert not owners & others


# (folder, its labels and transcripts, the group every file of it is scored in): each blind
# set in its row's group (fresh: labelled after the last rule change, scored once; held-out:
# fresh once, scored after each change since).
SCORED_AS = [(s.folder, s.labels, s.transcripts, s.group) for s in BLIND_SETS]
assert {group for *_, group in SCORED_AS} <= {"fresh", "held-out"}


@pytest.mark.parametrize(("folder", "labels_path", "transcripts", "group"), SCORED_AS)
def test_a_session_set_is_scored_in_its_group_alone(
    folder: Path, labels_path: Path, transcripts: Path, group: str
) -> None:
    labels = _lines(folder / "labels.jsonl")
    result = bench_capture.score_sets([(labels_path, transcripts)])
    scored = result["groups"][group]
    assert scored["files"] == len({label["file"] for label in labels})
    assert scored["labels"] == sum(1 for label in labels if not label.get("none"))
    others = [name for name in ("fresh", "held-out", "dev") if name != group]
    assert [result["groups"].get(name, {"files": 0})["files"] for name in others] == [0, 0]
    assert {repo["group"] for repo in result["repositories"].values()} == {group}


def test_only_a_fresh_set_is_scored_as_fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    second, seventh, sixth = BY_NAME["2"], BY_NAME["7"], BY_NAME["6"]
    result = bench_capture.score_sets([(second.labels, second.transcripts)])
    assert "fresh" not in result["groups"]
    # A set named fresh is scored in that group alone, the others where they were.
    monkeypatch.setattr(bench_capture, "FRESH_LABELS", (seventh.labels,))
    monkeypatch.setattr(
        bench_capture,
        "HELD_OUT_LABELS",
        tuple(p for p in bench_capture.HELD_OUT_LABELS if p != seventh.labels),
    )
    sets = [(seventh.labels, seventh.transcripts), (sixth.labels, sixth.transcripts)]
    result = bench_capture.score_sets(sets)
    labels = _lines(seventh.labels)
    assert result["groups"]["fresh"]["files"] == len({label["file"] for label in labels})
    assert result["groups"]["held-out"]["files"] == len(
        {label["file"] for label in _lines(sixth.labels)}
    )


def _write_labels(path: Path, labels: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(label) + "\n" for label in labels), encoding="utf-8")
    return path


def test_agreement_matches_items_by_row_and_terms(tmp_path: Path) -> None:
    """Two labellings of one file: an item at a row within AGREE_ROWS of the other's with a
    shared term is one item; one far away or with other terms is not."""
    folder = tmp_path / "transcripts"
    folder.mkdir()
    rows = [
        {"type": "user", "uuid": f"u{i}", "message": {"role": "user", "content": f"row {i}"}}
        for i in range(12)
    ]
    with gzip.open(folder / "a__b__c.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(row) + "\n" for row in rows))

    def label(uuid: str, *terms: str) -> dict[str, Any]:
        return {"file": "a__b__c.jsonl.gz", "uuid": uuid, "kind": "decision", "by": "user",
                "text": "t", "reason": "", "terms": list(terms), "evidence": "row"}  # fmt: skip

    first = _write_labels(
        tmp_path / "first.jsonl", [label("u1", "pnpm"), label("u5", "vite"), label("u9", "uv")]
    )
    second = _write_labels(
        tmp_path / "second.jsonl",
        [label("u3", "use pnpm"), label("u5", "webpack"), label("u11", "uv")],
    )
    result = bench_capture.agreement(first, second, folder)
    assert (result["files"], result["items"], result["found"]) == (1, (3, 3), (2, 2))
    assert round(result["f1"], 3) == 0.667
    assert result["capture_vs_second"]["labels"] == result["capture_vs_first"]["labels"] == 3


@pytest.mark.parametrize(
    ("key", "folder"), [(s.name, s.folder) for s in BLIND_SETS if s.second is not None]
)
def test_a_second_labelling_is_scored_against_the_first(key: str, folder: Path) -> None:
    first = _lines(folder / "labels.jsonl")
    second = _lines(folder / "second-labeller" / "labels.jsonl")
    result = bench_capture.agreement(*bench_capture.SECOND_LABELLINGS[key])
    items = (
        sum(1 for label in first if not label.get("none")),
        sum(1 for label in second if not label.get("none")),
    )
    assert (result["files"], result["items"]) == (len({label["file"] for label in second}), items)
    assert 0 <= result["found"][0] <= items[0] and 0 <= result["found"][1] <= items[1]
    assert result["capture_vs_first"]["labels"] == items[0]
    assert result["capture_vs_second"]["labels"] == items[1]
