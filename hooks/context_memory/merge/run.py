"""One ctx-merge run: the gates, the lock, the gates again under it, the merge, the
files, publishing; and its outcome, for the command to report.
"""

from __future__ import annotations

import copy
import os
import time

from context_memory import TYPE_CHECKING
from context_memory.core.fsutil import (
    sweep_stale_temps,
)
from context_memory.core.state import MERGED_DECISIONS_JSON, MERGED_DECISIONS_MD, SESSIONS_DIR
from context_memory.merge import publish as publishing
from context_memory.merge.gates import (
    GateResult,
    MergeState,
    check_gates,
    lock_gate_reason,
    read_merged,
    take_lock,
)
from context_memory.merge.layout import (
    DEFAULT_MIN_HOURS,
    DEFAULT_MIN_SESSIONS,
    GATE_LOCK,
    MAX_MARKDOWN_BYTES,
    STATE_JSON,
    Problem,
)
from context_memory.merge.merge import MergeResult, merge_handoffs
from context_memory.merge.publish import clean_generations, current_generation, publish
from context_memory.merge.render import dumps, render_markdown, result_data, state_data
from context_memory.merge.sources import HandoffFile, scan_handoffs

if TYPE_CHECKING:
    from collections.abc import Callable


# --------------------------------------------------------------------------- a run


class Outcome:
    """What a run did: ``action`` is 'merged', 'stopped', 'nothing' or 'dry-run'."""

    __slots__ = (
        "action",
        "alerts",
        "future",
        "gate",
        "new_markdown",
        "notes",
        "old_markdown",
        "reason",
        "rechecked",
        "result",
        "skipped",
    )

    def __init__(self, action: str) -> None:
        self.action = action
        self.gate = ""
        self.reason = ""
        self.result: MergeResult | None = None
        self.skipped: list[Problem] = []
        # Handoffs dated after the merge time (ranked as undated), named relative.
        self.future: list[HandoffFile] = []
        self.notes: list[Problem] = []
        # Problems even a quiet (cron) run reports on stderr and in logs/hooks.log.
        self.alerts: list[Problem] = []
        self.rechecked = False
        self.old_markdown: str | None = None
        self.new_markdown = ""


def _stopped(gate: GateResult, state: MergeState, rechecked: bool = False) -> Outcome:
    outcome = Outcome("stopped")
    outcome.gate = gate.gate
    outcome.reason = gate.reason
    outcome.rechecked = rechecked
    if state.problem:
        outcome.notes.append(state.problem)
    if state.clock:
        outcome.alerts.append(state.clock)
    return outcome


def build_outputs(
    state_dir: str, now: float
) -> tuple[MergeResult, list[HandoffFile], list[Problem], dict[str, str]] | None:
    """Read, merge and render: the result, the future-dated handoffs (named relative to
    the state folder), the skipped files and the files' contents; None when there is no
    readable handoff at all."""
    handoffs, future, skipped = scan_handoffs(state_dir, now)
    if not handoffs:
        return None
    result = merge_handoffs(handoffs)
    # decisions.md and decisions.json are the same bytes on every clone for the same
    # handoffs: no merge time, no file time, paths relative to the state folder. A handoff
    # dated after this merge ranks as undated and is listed without the merge time, so
    # clones merging at different times agree as long as its date is after both.
    shown = [Problem(os.path.relpath(p.path, state_dir), p.reason) for p in skipped]
    shown_future = [copy.copy(handoff) for handoff in future]
    for handoff in shown_future:
        handoff.path = os.path.relpath(handoff.path, state_dir)
    files = {
        MERGED_DECISIONS_MD: render_markdown(result, shown, shown_future),
        MERGED_DECISIONS_JSON: dumps(result_data(result, shown, shown_future)),
        STATE_JSON: dumps(state_data(result, now)),
    }
    return result, shown_future, skipped, files


def _nothing(state_dir: str, skipped: list[Problem]) -> Outcome:
    outcome = Outcome("nothing")
    outcome.reason = f"no readable handoffs under {os.path.join(state_dir, SESSIONS_DIR)}"
    outcome.skipped = skipped
    return outcome


def _built_outcome(
    action: str, state_dir: str, now: float, state: MergeState
) -> tuple[Outcome, dict[str, str] | None]:
    """Read, merge and render (build_outputs) into an Outcome of ``action``, with the
    files' contents; with no readable handoff at all, the "nothing" outcome and no files."""
    built = build_outputs(state_dir, now)
    if built is None:
        return _nothing(state_dir, scan_handoffs(state_dir, now)[2]), None
    outcome = Outcome(action)
    outcome.result, outcome.future, outcome.skipped, files = built
    if state.clock:
        outcome.alerts.append(state.clock)
    return outcome, files


def run_merge(
    state_dir: str,
    now: float,
    *,
    min_hours: float = DEFAULT_MIN_HOURS,
    min_sessions: int = DEFAULT_MIN_SESSIONS,
    force: bool = False,
    dry_run: bool = False,
    sleep: Callable[[float], None] = time.sleep,
) -> Outcome:
    """One ctx-merge run: the gates, then (unless stopped) the merge under the lock."""
    state = MergeState(None)
    if not force:
        gate, state = check_gates(state_dir, now, min_hours, min_sessions)
        if not gate.passed:
            return _stopped(gate, state)

    if dry_run:
        outcome, files = _built_outcome("dry-run", state_dir, now, state)
        if files is None:
            return outcome
        outcome.new_markdown = files[MERGED_DECISIONS_MD]
        try:
            old = read_merged(state_dir, MERGED_DECISIONS_MD, MAX_MARKDOWN_BYTES)
            outcome.old_markdown = old.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            outcome.old_markdown = None
        return outcome

    if not os.path.isdir(os.path.join(state_dir, SESSIONS_DIR)):
        return _nothing(state_dir, [])
    lock = take_lock(state_dir, sleep=sleep)
    if lock is None:
        return _stopped(GateResult(GATE_LOCK, False, lock_gate_reason(state_dir)), state)
    try:
        publishing.checkpoint("lock taken")
        if not force:
            # Another merge may have finished while this one waited for the lock.
            gate, state = check_gates(state_dir, now, min_hours, min_sessions)
            if not gate.passed:
                return _stopped(gate, state, rechecked=True)
        clean_generations(state_dir, (current_generation(state_dir),))
        sweep_stale_temps(state_dir)  # what killed writers (ctx-plan, hooks) left behind
        outcome, files = _built_outcome("merged", state_dir, now, state)
        if files is None:
            return outcome
        if state.problem:
            outcome.notes.append(state.problem)
        outcome.notes.extend(publish(state_dir, files, now))
        return outcome
    finally:
        lock.release()
