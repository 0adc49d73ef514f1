"""The head of ctx-merge's decisions.md for two handoffs of two sessions written on
2026-11-01 and 2026-11-02, as tests/merge/ expect it to the letter."""

from __future__ import annotations

MERGED_HEAD_TWO_SESSIONS = (
    "# Merged decisions\n"
    "\n"
    "Merged by ctx-merge from 2 handoffs of 2 sessions, written 2026-11-01 to 2026-11-02.\n"
    "A later entry overrides an earlier one on the same subject (its text before the "
    "first '(', ':', ' - ' or ' — ', without a lead-in such as 'Use' or 'Not': 'Use X', "
    "'Not X' and 'X instead of Y' are about X); what it replaced is listed under "
    "Overridden.\n"
)
