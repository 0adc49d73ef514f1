"""Whether a run merges at all, cheapest first: enough time since the last merge, enough
sessions with newer handoffs, and the merge lock (taken with a short backoff).
"""

from __future__ import annotations

import errno
import json
import os
import time

from context_memory import TYPE_CHECKING
from context_memory.core.fsutil import (
    prepare_lock_file,
    read_bytes,
)
from context_memory.core.isotime import parse_time
from context_memory.merge.layout import (
    DEFAULT_MIN_HOURS,
    DEFAULT_MIN_SESSIONS,
    GATE_SESSIONS,
    GATE_TIME,
    GENERATION_PREFIX,
    LOCK_ATTEMPTS,
    LOCK_FIRST_DELAY,
    LOCK_MAX_DELAY,
    MAX_STATE_BYTES,
    MIN_HOURS_VAR,
    MIN_SESSIONS_VAR,
    STATE_JSON,
    MergeError,
    Problem,
    lock_path,
    merged_dir,
)
from context_memory.merge.rules import iso_time
from context_memory.merge.sources import count_new_sessions

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from context_memory.core.filelocks import FileLock

# A last merge up to this far in the future is ordinary clock drift between machines.
CLOCK_SLACK_SECONDS = 300.0
# --------------------------------------------------------------------------- gates


class MergeState:
    """What state.json says about the last successful merge (``merged_at`` None: none)."""

    __slots__ = ("clock", "merged_at", "problem")

    def __init__(
        self,
        merged_at: float | None,
        problem: Problem | None = None,
        clock: Problem | None = None,
    ) -> None:
        self.merged_at = merged_at
        self.problem = problem
        # A last merge stamped in the future: reported by every run, even a quiet one.
        self.clock = clock


def merged_file(state_dir: str, name: str) -> str:
    """``merged/<name>`` read through the ``merged`` link only when it names a generation
    folder of this state folder (what publish makes); else the path as it is (a folder
    made by hand), whose file is then opened without following links."""
    link = merged_dir(state_dir)
    try:
        target = os.readlink(link)
    except OSError:
        return os.path.join(link, name)
    if os.sep in target or not target.startswith(GENERATION_PREFIX):
        raise OSError(errno.ELOOP, "a link the toolkit did not make: not followed", link)
    return os.path.join(state_dir, target, name)


def read_merged(state_dir: str, name: str, limit: int) -> bytes:
    """The bytes of ``merged/<name>`` (see merged_file), at most ``limit``; OSError else."""
    return read_bytes(merged_file(state_dir, name), limit, root=state_dir)


def read_state(state_dir: str) -> MergeState:
    """The last merge; an unreadable state file counts as no merge (and is reported):
    the next merge writes a good one."""
    path = os.path.join(merged_dir(state_dir), STATE_JSON)
    try:
        data = json.loads(read_merged(state_dir, STATE_JSON, MAX_STATE_BYTES))
    except FileNotFoundError:
        return MergeState(None)
    except (OSError, ValueError, RecursionError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        if isinstance(exc, RecursionError):
            why = "nested too deeply"
        return MergeState(None, Problem(path, f"unreadable ({why}); taken as no earlier merge"))
    stamp = data.get("merged_at") if isinstance(data, dict) else None
    merged_at = parse_time(stamp) if isinstance(stamp, str) and stamp else None
    if merged_at is None:
        return MergeState(None, Problem(path, "has no valid merged_at; taken as no earlier merge"))
    return MergeState(merged_at)


class GateResult:
    """Whether a gate lets the run through; ``reason`` is the line to print if not."""

    __slots__ = ("gate", "passed", "reason")

    def __init__(self, gate: str, passed: bool, reason: str = "") -> None:
        self.gate = gate
        self.passed = passed
        self.reason = reason


def _duration(seconds: float) -> str:
    """'42 minutes', '1.0 hour', '23.5 hours'."""
    if seconds < 3600:
        minutes = int(seconds // 60)
        return f"{minutes} minute" + ("" if minutes == 1 else "s")
    hours = f"{seconds / 3600:.1f}"
    return f"{hours} hour" + ("" if hours == "1.0" else "s")


def time_gate(last_merge: float | None, now: float, min_hours: float) -> GateResult:
    """Open when there was no merge yet or the last one is at least ``min_hours`` old."""
    if last_merge is None:
        return GateResult(GATE_TIME, True)
    elapsed = now - last_merge
    if elapsed >= min_hours * 3600:
        return GateResult(GATE_TIME, True)
    if elapsed < 0:
        reason = (
            f"the last merge ({iso_time(last_merge)}) is later than now ({iso_time(now)}); "
            "run with --force to merge anyway"
        )
    else:
        reason = (
            f"the last merge was {_duration(elapsed)} ago ({iso_time(last_merge)}); "
            f"merges are at least {min_hours:g} hours apart ({MIN_HOURS_VAR})"
        )
    return GateResult(GATE_TIME, False, reason)


def session_gate(new_sessions: int, last_merge: float | None, min_sessions: int) -> GateResult:
    """Open when at least ``min_sessions`` sessions wrote a handoff since the last merge."""
    if new_sessions >= min_sessions:
        return GateResult(GATE_SESSIONS, True)
    noun = "session has" if new_sessions == 1 else "sessions have"
    since = (
        f"newer than the last merge ({iso_time(last_merge)})"
        if last_merge is not None
        else "(no earlier merge)"
    )
    return GateResult(
        GATE_SESSIONS,
        False,
        f"{new_sessions} {noun} handoffs {since}; {min_sessions} needed ({MIN_SESSIONS_VAR})",
    )


def future_merge_checked(state_dir: str, state: MergeState, now: float) -> MergeState:
    """``state``, or when its last merge lies after ``now`` (by more than CLOCK_SLACK): no
    earlier merge, with the problem in ``clock``.

    Left as it was, such a stamp (a clock that was ahead once, or ``--now`` in the future)
    would stop every merge until that date.
    """
    if state.merged_at is None or state.merged_at <= now + CLOCK_SLACK_SECONDS:
        return state
    path = os.path.join(merged_dir(state_dir), STATE_JSON)
    problem = Problem(
        path,
        f"the last merge is dated {iso_time(state.merged_at)}, after now ({iso_time(now)}): "
        "a clock that was ahead, or --now in the future; taken as no earlier merge, and "
        "this merge stamps the real time",
    )
    return MergeState(None, state.problem, problem)


def check_gates(
    state_dir: str, now: float, min_hours: float, min_sessions: int
) -> tuple[GateResult, MergeState]:
    """Gates 1 and 2, cheapest first: the first that fails, or a passed result."""
    state = future_merge_checked(state_dir, read_state(state_dir), now)
    gate = time_gate(state.merged_at, now, min_hours)
    if not gate.passed:
        return gate, state
    new_sessions = count_new_sessions(state_dir, state.merged_at, enough=min_sessions, now=now)
    return session_gate(new_sessions, state.merged_at, min_sessions), state


def backoff_delays(
    attempts: int = LOCK_ATTEMPTS, first: float = LOCK_FIRST_DELAY, maximum: float = LOCK_MAX_DELAY
) -> list[float]:
    """The waits between lock attempts: doubling from ``first``, capped at ``maximum``."""
    delays = []
    delay = first
    for _ in range(attempts - 1):
        delays.append(delay)
        delay = min(delay * 2, maximum)
    return delays


def take_lock(state_dir: str, sleep: Callable[[float], None] = time.sleep) -> FileLock | None:
    """The held merge lock, or None when another merge kept it through every attempt."""
    from context_memory.core.filelocks import file_lock

    lock = file_lock(prepare_lock_file(lock_path(state_dir), root=state_dir))
    delays = backoff_delays()
    for attempt in range(LOCK_ATTEMPTS):
        try:
            lock.acquire(timeout=0)
            return lock
        except TimeoutError:  # filelocks.Timeout is one
            if attempt < len(delays):
                sleep(delays[attempt])
    return None


def lock_gate_reason(state_dir: str) -> str:
    total = sum(backoff_delays())
    return (
        f"another merge holds {lock_path(state_dir)} "
        f"({LOCK_ATTEMPTS} attempts over {round(total * 1000)} ms)"
    )


def read_settings(environ: Mapping[str, str]) -> tuple[float, int]:
    """(minimum hours, minimum sessions) from the environment; raises MergeError."""
    raw_hours = environ.get(MIN_HOURS_VAR, "").strip()
    raw_sessions = environ.get(MIN_SESSIONS_VAR, "").strip()
    min_hours = DEFAULT_MIN_HOURS
    min_sessions = DEFAULT_MIN_SESSIONS
    if raw_hours:
        try:
            min_hours = float(raw_hours)
        except ValueError:
            min_hours = -1.0
        if not min_hours >= 0 or min_hours == float("inf"):
            raise MergeError(
                f"{MIN_HOURS_VAR}={raw_hours!r} is not a number of hours; set it to 0 or "
                f"more (default {DEFAULT_MIN_HOURS:g}) or unset it"
            )
    if raw_sessions:
        try:
            min_sessions = int(raw_sessions)
        except ValueError:
            min_sessions = -1
        if min_sessions < 0:
            raise MergeError(
                f"{MIN_SESSIONS_VAR}={raw_sessions!r} is not a whole number of sessions; set "
                f"it to 0 or more (default {DEFAULT_MIN_SESSIONS}) or unset it"
            )
    return min_hours, min_sessions
