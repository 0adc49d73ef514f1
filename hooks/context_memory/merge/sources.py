"""The handoffs a merge reads: every session's ``handoffs/stage-N.md``, parsed, dated by
the time in their front matter (capped when it lies in the future), and counted for the
session gate.
"""

from __future__ import annotations

import os
import stat

from context_memory.core.fsutil import (
    list_dir,
    open_file,
    read_fd_bounded,
)
from context_memory.core.state import UnsafeNameError, validate_name
from context_memory.memory.handoff import (
    MAX_HANDOFF_BYTES,
    Handoff,
    HandoffFormatError,
    existing_stages,
    parse_handoff,
    stage_path,
)
from context_memory.merge.layout import Problem
from context_memory.merge.rules import parse_time

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass

HEAD_BYTES = 4096
# --------------------------------------------------------------------------- handoffs


class HandoffFile:
    """One parsed handoff and where its time came from ('front matter' or 'file time')."""

    __slots__ = (
        "path",
        "session",
        "stage",
        "time",
        "time_source",
        "sections",
        "file_time",
        "claimed_time",
    )

    def __init__(
        self,
        path: str,
        session: str,
        stage: int,
        stamp: float,
        time_source: str,
        sections: dict[str, list[str]],
        file_time: float | None = None,
    ) -> None:
        self.path = path
        self.session = session
        self.stage = stage
        self.time = stamp
        self.time_source = time_source
        self.sections = sections
        self.file_time = file_time
        # The time the handoff claimed when it lay in the future (see cap_future_times).
        self.claimed_time: float | None = None

    @property
    def order(self) -> tuple[float, str, int]:
        return (self.time, self.session, self.stage)


def handoff_from_text(
    path: str, session: str, stage: int, text: str, file_time: float
) -> HandoffFile:
    """A HandoffFile; the session and stage come from where the file is (the folder
    layout is validated, front matter is free text). Raises HandoffFormatError."""
    parsed: Handoff = parse_handoff(text)
    stamp = parse_time(parsed.meta.get("time", "")) if parsed.meta.get("time") else None
    if stamp is None:
        return HandoffFile(path, session, stage, file_time, "file time", parsed.sections, file_time)
    return HandoffFile(path, session, stage, stamp, "front matter", parsed.sections, file_time)


def capped_time(stamp: float, file_time: float | None, now: float) -> float:
    """``stamp``, or for a time after ``now``: the file's own time, else ``now``.

    A clock that was ahead (or a hand-written date) must not let a handoff win its
    subjects for ever: later handoffs override it again once it has a real time.
    """
    if stamp <= now:
        return stamp
    return file_time if file_time is not None and file_time <= now else now


def cap_future_times(handoffs: list[HandoffFile], now: float) -> list[HandoffFile]:
    """Cap every handoff time after ``now`` (capped_time), keep the list oldest first, and
    return the capped handoffs (their ``claimed_time`` says what they claimed)."""
    capped = []
    for handoff in handoffs:
        if handoff.time > now:
            handoff.claimed_time = handoff.time
            handoff.time = capped_time(handoff.time, handoff.file_time, now)
            handoff.time_source = "file time" if handoff.time != now else "merge time"
            capped.append(handoff)
    if capped:
        handoffs.sort(key=lambda handoff: handoff.order)
    return capped


def read_handoff(path: str, session: str, stage: int, *, root: str | None = None) -> HandoffFile:
    """Read and parse one handoff file; raises HandoffFormatError or OSError (a link, a
    FIFO, a file over MAX_HANDOFF_BYTES included: fsutil)."""
    fd = open_file(path, root=root)
    try:
        file_time = os.fstat(fd).st_mtime
        data = read_fd_bounded(fd, MAX_HANDOFF_BYTES, path)
    finally:
        os.close(fd)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HandoffFormatError(
            f"not UTF-8 text at byte {exc.start} (half-written or not a handoff)"
        ) from None
    return handoff_from_text(path, session, stage, text, file_time)


def _session_names(state_dir: str, problems: list[Problem] | None = None) -> list[str]:
    """The session folders under ``<state>/sessions``; anything else there (a README, a
    desktop.ini, a link) is skipped, and noted in ``problems`` when given."""
    root = os.path.join(state_dir, "sessions")
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


def scan_handoffs(state_dir: str) -> tuple[list[HandoffFile], list[Problem]]:
    """Every readable handoff under ``<state>/sessions``, oldest first (time in the front
    matter, else the file time; then session, then stage), and the ones skipped."""
    handoffs: list[HandoffFile] = []
    problems: list[Problem] = []
    for session in _session_names(state_dir, problems):
        folder = os.path.join(state_dir, "sessions", session)
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
    date_untimed_handoffs(handoffs)
    handoffs.sort(key=lambda handoff: handoff.order)
    return handoffs, problems


def date_untimed_handoffs(handoffs: list[HandoffFile]) -> None:
    """Give a handoff without a time in its front matter the time of its session's nearest
    earlier timed stage (else the nearest later one): a file time differs from clone to
    clone (git sets it at checkout), a sibling's recorded time does not. A session with no
    recorded time at all keeps its file times."""
    by_session: dict[str, list[HandoffFile]] = {}
    for handoff in handoffs:
        by_session.setdefault(handoff.session, []).append(handoff)
    for stages in by_session.values():
        stages.sort(key=lambda handoff: handoff.stage)
        timed = [h for h in stages if h.time_source == "front matter"]
        if not timed or len(timed) == len(stages):
            continue
        for handoff in stages:
            if handoff.time_source == "front matter":
                continue
            earlier = [h for h in timed if h.stage < handoff.stage]
            source = earlier[-1] if earlier else timed[0]
            handoff.time = source.time
            handoff.time_source = f"stage {source.stage}"


def head_time(path: str) -> float | None:
    """A handoff's time read from its first few KB only (the session gate runs hourly and
    must stay cheap): the front-matter time, else the file time; None if unreadable."""
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
                if stamp is not None:
                    return stamp
                break
    return file_time


def _file_time(path: str) -> float | None:
    try:
        return os.lstat(path).st_mtime
    except OSError:
        return None


def count_new_sessions(
    state_dir: str, since: float | None, enough: int | None = None, now: float | None = None
) -> int:
    """How many sessions have a handoff newer than ``since`` (None: any handoff).
    Stops counting at ``enough``; newest stages are looked at first. Times after ``now``
    count as the file's time (capped_time), as in the merge."""
    count = 0
    for session in _session_names(state_dir):
        try:
            paths = _handoff_paths(state_dir, session)
        except (UnsafeNameError, OSError):
            continue
        for _, path in reversed(paths):
            stamp = head_time(path)
            if stamp is not None and now is not None and stamp > now:
                stamp = capped_time(stamp, _file_time(path), now)
            if stamp is not None and (since is None or stamp > since):
                count += 1
                break
        if enough is not None and count >= enough:
            break
    return count
