"""The handoffs a merge reads: every session's ``handoffs/stage-N.md``, parsed and
ranked by the time in their front matter only (git keeps no file times, so a file time
would rank a handoff differently on every clone); and counted for the session gate.

A handoff without a time, or dated after the merge time (a clock that ran ahead), is
*undated*: it takes the time of its session's nearest earlier dated stage (else the
nearest later one), and a session with no dated stage at all ranks below every dated
handoff, by session then stage. So a clock that ran ahead never outranks a correct one.
"""

from __future__ import annotations

import os
import stat

from context_memory import TYPE_CHECKING
from context_memory.core.fsutil import (
    list_dir,
    open_file,
    read_fd_bounded,
)
from context_memory.core.isotime import parse_time
from context_memory.core.record import Record
from context_memory.core.state import SESSIONS_DIR, UnsafeNameError, validate_name
from context_memory.memory.handoff import (
    MAX_HANDOFF_BYTES,
    Handoff,
    HandoffFormatError,
    existing_stages,
    parse_handoff,
    stage_path,
)
from context_memory.merge.layout import Problem

if TYPE_CHECKING:
    from context_memory.memory.handoff import HandoffSections

HEAD_BYTES = 4096
FRONT_MATTER = "front matter"
UNDATED = "undated"
# --------------------------------------------------------------------------- handoffs


class HandoffFile(Record):
    """One parsed handoff and its rank time: ``time`` None is undated; ``time_source`` says
    where the time came from ('front matter', 'stage N' of its session, or 'undated');
    ``claimed_time`` is the front-matter time of a handoff dated after the merge time."""

    path: str
    session: str
    stage: int
    time: float | None
    time_source: str
    sections: HandoffSections
    claimed_time: float | None = None

    @property
    def order(self) -> tuple[bool, float, str, int]:
        """Undated first (oldest), then by time, session and stage: the same on every clone."""
        return (self.time is not None, self.time or 0.0, self.session, self.stage)


def handoff_from_text(path: str, session: str, stage: int, text: str) -> HandoffFile:
    """A HandoffFile; the session and stage come from where the file is (the folder
    layout is validated, front matter is free text). Raises HandoffFormatError."""
    parsed: Handoff = parse_handoff(text)
    stamp = parse_time(parsed.meta.get("time", "")) if parsed.meta.get("time") else None
    if stamp is None:
        return HandoffFile(path, session, stage, None, UNDATED, parsed.sections)
    return HandoffFile(path, session, stage, stamp, FRONT_MATTER, parsed.sections)


def undate_future_times(handoffs: list[HandoffFile], now: float) -> list[HandoffFile]:
    """Take every handoff dated after ``now`` as undated (its ``claimed_time`` keeps the
    date) and return them, by session then stage.

    A clock that was ahead (or a hand-written date) must not let a handoff win its
    subjects: capped at the merge time it would be the newest at every merge until then.
    """
    future = []
    for handoff in handoffs:
        if handoff.time is not None and handoff.time > now:
            handoff.claimed_time = handoff.time
            handoff.time = None
            handoff.time_source = UNDATED
            future.append(handoff)
    return sorted(future, key=lambda handoff: (handoff.session, handoff.stage))


def read_handoff(path: str, session: str, stage: int, *, root: str | None = None) -> HandoffFile:
    """Read and parse one handoff file; raises HandoffFormatError or OSError (a link, a
    FIFO, a file over MAX_HANDOFF_BYTES included: fsutil)."""
    fd = open_file(path, root=root)
    try:
        data = read_fd_bounded(fd, MAX_HANDOFF_BYTES, path)
    finally:
        os.close(fd)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HandoffFormatError(
            f"not UTF-8 text at byte {exc.start} (half-written or not a handoff)"
        ) from None
    return handoff_from_text(path, session, stage, text)


def _session_names(state_dir: str, problems: list[Problem] | None = None) -> list[str]:
    """The session folders under ``<state>/sessions``; anything else there (a README, a
    desktop.ini, a link) is skipped, and noted in ``problems`` when given."""
    root = os.path.join(state_dir, SESSIONS_DIR)
    try:
        names = sorted(list_dir(root, root=state_dir))
    except OSError as exc:
        if problems is not None:
            problems.append(Problem(root, f"{exc.strerror or exc}; no handoff read"))
        return []
    folders = []
    for name in names:
        try:
            mode = os.lstat(os.path.join(root, name)).st_mode
        except OSError:
            continue
        if stat.S_ISDIR(mode):
            folders.append(name)
        elif problems is not None:
            what = "a symbolic link" if stat.S_ISLNK(mode) else "not a session folder"
            problems.append(Problem(os.path.join(root, name), f"{what}; skipped"))
    return folders


def _handoff_paths(state_dir: str, session: str) -> list[tuple[int, str]]:
    """(stage, path) of one session's stage files; raises UnsafeNameError for a folder
    whose name could not have been written by the toolkit."""
    validate_name(session)
    found = []
    for stage in existing_stages(state_dir, session):
        try:
            found.append((stage, stage_path(state_dir, session, stage)))
        except (HandoffFormatError, UnsafeNameError):
            continue  # stage number out of range: not a file the toolkit writes
    return found


def scan_handoffs(
    state_dir: str, now: float
) -> tuple[list[HandoffFile], list[HandoffFile], list[Problem]]:
    """Every readable handoff under ``<state>/sessions``, oldest first (undated ones, then
    by the time in the front matter; then session, then stage); the ones dated after
    ``now`` (ranked as undated: undate_future_times); and the files skipped."""
    handoffs: list[HandoffFile] = []
    problems: list[Problem] = []
    for session in _session_names(state_dir, problems):
        folder = os.path.join(state_dir, SESSIONS_DIR, session)
        try:
            paths = _handoff_paths(state_dir, session)
        except UnsafeNameError as exc:
            problems.append(Problem(folder, str(exc)))
            continue
        except OSError as exc:  # handoffs/ is a link or a file
            problems.append(Problem(exc.filename or folder, exc.strerror or str(exc)))
            continue
        for stage, path in paths:
            try:
                handoffs.append(read_handoff(path, session, stage, root=state_dir))
            except HandoffFormatError as exc:
                problems.append(Problem(path, str(exc)))
            except FileNotFoundError:
                continue  # removed since the folder was listed
            except OSError as exc:
                problems.append(Problem(path, exc.strerror or str(exc)))
    future = undate_future_times(handoffs, now)
    date_untimed_handoffs(handoffs)
    handoffs.sort(key=lambda handoff: handoff.order)
    return handoffs, future, problems


def date_untimed_handoffs(handoffs: list[HandoffFile]) -> None:
    """Give an undated handoff (no time in its front matter, or one after the merge time)
    the time of its session's nearest earlier dated stage (else the nearest later one): a
    sibling's recorded time is the same on every clone, a file time is not (git sets it at
    checkout). A session with no dated stage stays undated."""
    by_session: dict[str, list[HandoffFile]] = {}
    for handoff in handoffs:
        by_session.setdefault(handoff.session, []).append(handoff)
    for stages in by_session.values():
        stages.sort(key=lambda handoff: handoff.stage)
        timed = [h for h in stages if h.time_source == FRONT_MATTER]
        if not timed or len(timed) == len(stages):
            continue
        for handoff in stages:
            if handoff.time_source == FRONT_MATTER:
                continue
            earlier = [h for h in timed if h.stage < handoff.stage]
            source = earlier[-1] if earlier else timed[0]
            handoff.time = source.time
            handoff.time_source = f"stage {source.stage}"


def head_time(path: str, now: float | None = None) -> float | None:
    """When a handoff counts as written for the session gate, read from its first few KB
    only (the gate runs hourly and must stay cheap): the front-matter time, else (none,
    or after ``now``) the file time; None if unreadable.

    The file time is used here only, never in the merged files: it says when the file
    reached this clone (a checkout or a pull sets it), which is what "new since the last
    merge on this machine" asks. One still after ``now`` counts as ``now``.
    """
    try:
        fd = open_file(path)
        try:
            head = os.read(fd, HEAD_BYTES)
            file_time = os.fstat(fd).st_mtime
        finally:
            os.close(fd)
    except OSError:
        return None
    lines = head.decode("utf-8", "replace").splitlines()
    if lines and lines[0].strip() == "---":
        for line in lines[1:]:
            if line.strip() == "---":
                break
            key, sep, value = line.partition(":")
            if sep and key.strip() == "time":
                stamp = parse_time(value)
                if stamp is not None and (now is None or stamp <= now):
                    return stamp
                break
    return file_time if now is None else min(file_time, now)


def count_new_sessions(
    state_dir: str, since: float | None, enough: int | None = None, now: float | None = None
) -> int:
    """How many sessions have a handoff newer than ``since`` (None: any handoff), by
    head_time. Stops counting at ``enough``; newest stages are looked at first."""
    count = 0
    for session in _session_names(state_dir):
        try:
            paths = _handoff_paths(state_dir, session)
        except (UnsafeNameError, OSError):
            continue
        for _, path in reversed(paths):
            stamp = head_time(path, now)
            if stamp is not None and (since is None or stamp > since):
                count += 1
                break
        if enough is not None and count >= enough:
            break
    return count
