"""The label sets' one table (bench/label_sets.py): every row's files are there, each set
in one group, and every fixture folder of labels is a row (a new set cannot be left out of
the benchmarks and the tests over the shipped transcripts)."""

from __future__ import annotations

from helpers.paths import REPO
from helpers.shipped import BLIND_SETS, BY_NAME, SETS, transcripts_of


def test_every_label_sets_transcripts_are_there() -> None:
    for label_set in SETS:
        assert len(transcripts_of(label_set)) == label_set.files, label_set.name
        assert label_set.labels.is_file(), label_set.name
    assert len(transcripts_of()) == sum(s.files for s in SETS) == 92


def test_every_folder_of_labels_is_a_row_of_the_table() -> None:
    folders = {
        p.parent for p in (REPO / "tests" / "fixtures").glob("decision-labels*/labels.jsonl")
    }
    assert folders == {s.folder for s in SETS}
    assert [s.name for s in SETS] == ["1", "2", "4", "5", "6", "7", "8", "9"]
    assert [s.name for s in BLIND_SETS] == ["4", "5", "6", "7", "8", "9"]


def test_each_set_is_in_one_group_and_a_second_labelling_is_found() -> None:
    assert {s.group for s in SETS} <= {"dev", "split", "held-out", "fresh"}
    assert [s.name for s in SETS if s.second is not None] == ["4", "6", "7", "8", "9"]
    assert BY_NAME["1"].transcripts.name == "real-transcripts"
