"""The label sets of real transcripts: one table, read by the benchmarks (bench_capture,
bench_guard_replay) and by every test over the shipped transcripts. A new blind set is one
row here (its group ``fresh``); when a rule changes after its first score, its group
becomes ``held-out``.

Groups (bench_capture scores each apart; the headline is an unread one):

- ``dev``: read for the client's row shapes and kinds of phrasing (set 1, and set 2 but for
  the repositories of ``SET2_HELD_OUT``);
- ``held-out``: never read while writing rules, scored after each change (a set that was
  fresh once; set 2's ``SET2_HELD_OUT`` repositories);
- ``fresh``: labelled blind after the last rule change and scored once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
SECOND_LABELLING = Path("second-labeller") / "labels.jsonl"


@dataclass(frozen=True)
class LabelSet:
    """One label set: its name (as ``bench_capture.py --set`` takes it), its fixture folder,
    the folder of the transcripts its labels are on, and the group its files are scored in
    (``split``: set 2, dev but for ``SET2_HELD_OUT``)."""

    name: str
    folder: Path
    transcripts: Path
    group: str
    files: int  # its transcript files (tests/repo/test_label_sets.py checks they are there)
    # Whole sessions of more users, each labelled blind (sets 4 on): their README's rules,
    # owners apart from every other set (tests/capture/test_quality_sessions.py).
    blind: bool = True

    @property
    def labels(self) -> Path:
        return self.folder / "labels.jsonl"

    @property
    def second(self) -> Path | None:
        """The second blind labelling of the same transcripts, where there is one."""
        path = self.folder / SECOND_LABELLING
        return path if path.is_file() else None


def _blind(number: int, group: str, files: int) -> LabelSet:
    folder = FIXTURES / f"decision-labels-{number}"
    return LabelSet(str(number), folder, folder / "transcripts", group, files)


SETS: tuple[LabelSet, ...] = (
    # its labels are on 16 of the 17
    LabelSet(
        "1", FIXTURES / "decision-labels", FIXTURES / "real-transcripts", "dev", 17, blind=False
    ),
    LabelSet(
        "2",
        FIXTURES / "decision-labels-2",
        FIXTURES / "decision-labels-2" / "transcripts",
        "split",
        27,
        blind=False,
    ),
    _blind(4, "held-out", 19),
    _blind(5, "held-out", 11),
    _blind(6, "held-out", 5),
    _blind(7, "held-out", 5),
    _blind(8, "held-out", 3),
    _blind(9, "fresh", 5),
)
BY_NAME = {label_set.name: label_set for label_set in SETS}
# The whole-session sets labelled blind (sets 4 on).
BLIND_SETS = tuple(label_set for label_set in SETS if label_set.blind)
# The set-2 repositories not read while writing rules (owner/name, as in the file names).
SET2_HELD_OUT = (
    "DAlvarezRod/Proyecto_JARVIS",
    "Eiji1202/dotclaude",
    "LZY2333/LZY-FE-JumpTrack",
    "LuisUma92/dotfiles",
    "WenJ-He/SinglePTZ-FaceTrack",
    "aviralmansingka/dotfiles",
    "bruno-vilefort-tech-consulting/Projeto-Rodrigo",
    "caochitam/aos",
    "kmitch92/dotfiles",
)


def transcripts_of(*label_sets: LabelSet) -> list[Path]:
    """Every transcript file of ``label_sets`` (all sets when none), sorted by path; set 1's
    folder also holds the one file its labels leave out."""
    chosen = label_sets or SETS
    return sorted(path for s in chosen for path in s.transcripts.glob("*.jsonl.gz"))


def with_group(group: str) -> tuple[LabelSet, ...]:
    return tuple(label_set for label_set in SETS if label_set.group == group)
