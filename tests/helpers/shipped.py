"""The label sets of shipped real transcripts, for the tests over them: bench/label_sets.py
is the one table (a new set is one row there)."""

from __future__ import annotations

import sys

from helpers.paths import REPO

if str(REPO / "bench") not in sys.path:
    sys.path.insert(0, str(REPO / "bench"))

from label_sets import BLIND_SETS, BY_NAME, SETS, LabelSet, transcripts_of

__all__ = ["BLIND_SETS", "BY_NAME", "SETS", "LabelSet", "transcripts_of"]
