"""ctx-merge: consolidate every session's handoffs into one record of what was decided.

Three gates, cheapest first, decide whether a run merges at all (cron starts one every
hour): enough time since the last merge, enough sessions with newer handoffs, and the
merge lock. The merge itself reads every handoff, orders them by the time in their front
matter, and lets a later entry override an earlier one on the same subject (the text
before the first '(', ':', ' - ' or ' — ', normalised).

The two merged files are the same bytes on every clone of a shared project for the same
handoffs: the order comes from the times written inside the handoffs (then session, then
stage), never from file times or directory order, and they carry no time of the merge
(that goes to state.json, which is per machine). Skipped files are named relative to the
state folder.

Outputs live in ``<state>/merged/``: decisions.md, decisions.json and state.json. They are
published together: each merge writes a fresh generation folder ``<state>/.merged-*`` and
then swaps the ``merged`` symlink to it in one rename, so a merge killed at any point
leaves either the previous three files or the new three, never a mix.

Standard library only at import time; filelock is imported when the lock is taken.
"""

from __future__ import annotations

import copy
import errno
import json
import os
import re
import shutil
import stat
import time
import unicodedata
from datetime import datetime, timezone

from context_memory.core.fsutil import (
    list_dir,
    open_file,
    prepare_lock_file,
    read_bytes,
    read_fd_bounded,
    sweep_stale_temps,
)
from context_memory.core.safe_text import one_line
from context_memory.core.state import UnsafeNameError, validate_name
from context_memory.memory.handoff import (
    MAX_HANDOFF_BYTES,
    Handoff,
    HandoffFormatError,
    existing_stages,
    parse_handoff,
    stage_path,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from filelock import FileLock

FORMAT_VERSION = 1
MERGED_DIRNAME = "merged"
DECISIONS_MD = "decisions.md"
DECISIONS_JSON = "decisions.json"
STATE_JSON = "state.json"
LOCK_NAME = "merge.lock"
GENERATION_PREFIX = ".merged-"
# Where a ``merged`` that is not the toolkit's link (a folder or file made by hand) is moved
# the first time a merge meets it. Never removed by the toolkit.
MOVED_ASIDE_PREFIX = "merged.moved-aside-"
# Earlier versions moved such a folder to ".merged-legacy-*": those are never removed either.
LEGACY_PREFIX = GENERATION_PREFIX + "legacy-"
# state.json and decisions.md of a merge: far below this; a bigger one is not ours.
MAX_STATE_BYTES = 1024 * 1024
MAX_MARKDOWN_BYTES = 64 * 1024 * 1024

MIN_HOURS_VAR = "CTX_MERGE_MIN_HOURS"
MIN_SESSIONS_VAR = "CTX_MERGE_MIN_SESSIONS"
DEFAULT_MIN_HOURS = 24.0
DEFAULT_MIN_SESSIONS = 5

LOCK_ATTEMPTS = 10
LOCK_FIRST_DELAY = 0.005
LOCK_MAX_DELAY = 0.1

GATE_TIME = "time"
GATE_SESSIONS = "session"
GATE_LOCK = "lock"

DECIDED = "decided"
REJECTED = "rejected"
DECISION_SECTIONS = ((DECIDED, "Decided"), (REJECTED, "Rejected"))

# Where an entry's subject ends. NFKC has already turned '（' and '：' into '(' and ':';
# the full-width forms stay listed so the rule reads as documented.
SUBJECT_SEPARATORS = ("(", "（", ":", "：", " - ", " — ", " – ")
# Stripped from the end of an entry before comparing (after NFKC width folding).
TRAILING_PUNCTUATION = ".,;:!?。、…‥ \t"
_CJK = "\u2e80-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
# A space next to a Chinese or Japanese character is a matter of style ("使用 Redis" and
# "使用Redis" say the same); between two Latin words it separates words and stays.
_CJK_SPACE = re.compile(f"(?<=[{_CJK}]) | (?=[{_CJK}])")
HEAD_BYTES = 4096
# A last merge up to this far in the future is ordinary clock drift between machines.
CLOCK_SLACK_SECONDS = 300.0


class MergeError(Exception):
    """The merge cannot run as asked; ``str()`` says why and how to fix it."""


class Problem:
    """A handoff (or the merge state) that was skipped, and why."""

    __slots__ = ("path", "reason")

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


# --------------------------------------------------------------------------- text rules


def fold(text: str) -> str:
    """NFKC (full-width letters, digits and punctuation become their usual forms) and
    runs of whitespace collapsed to one space."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def normalise(text: str) -> str:
    """The form two entries share when they say the same thing: width, case, whitespace
    (including the optional space beside CJK characters) and trailing punctuation folded."""
    folded = _CJK_SPACE.sub("", fold(text)).casefold()
    return folded.rstrip(TRAILING_PUNCTUATION)


def _split_subject(folded: str) -> tuple[str, str, str]:
    """(text before the first separator, the separator, the rest); no separator: (text, '', '')."""
    cut = -1
    found = ""
    for separator in SUBJECT_SEPARATORS:
        index = folded.find(separator)
        if index != -1 and (cut == -1 or index < cut):
            cut, found = index, separator
    if cut == -1:
        return folded, "", ""
    return folded[:cut], found, folded[cut + len(found) :]


def subject_of(text: str) -> str:
    """What an entry is about: its text before the first '(', '（', ':', '：', ' - ' or
    ' — ', normalised. An entry that starts with a separator is its own subject."""
    head, _, _ = _split_subject(fold(text))
    return normalise(head) or normalise(text)


def reason_of(text: str) -> str:
    """The part after the subject ('Codis (unmaintained)' -> 'unmaintained'), or ''."""
    _, separator, rest = _split_subject(fold(text))
    rest = rest.strip()
    if separator in ("(", "（") and rest.endswith((")", "）")):
        rest = rest[:-1].rstrip()
    return rest


# --------------------------------------------------------------------------- times


def parse_time(value: str) -> float | None:
    """Seconds since the epoch for an ISO 8601 time ('Z' or an offset; none means UTC)."""
    text = value.strip()
    if text[-1:] in ("Z", "z"):
        text = text[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


def iso_time(stamp: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp))


_DATES: dict[float, str] = {}


def iso_date(stamp: float) -> str:
    """The UTC date; remembered, as thousands of entries share a few hundred handoff times."""
    date = _DATES.get(stamp)
    if date is None:
        if len(_DATES) > 100_000:
            _DATES.clear()
        date = _DATES[stamp] = time.strftime("%Y-%m-%d", time.gmtime(stamp))
    return date


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


# --------------------------------------------------------------------------- the merge


class Entry:
    """One Decided, Rejected or Risks item and the handoff it came from."""

    __slots__ = ("kind", "text", "norm", "subject", "session", "stage", "time", "handoff")

    def __init__(
        self,
        kind: str,
        text: str,
        source: HandoffFile,
        handoff: int,
        keys: dict[str, tuple[str, str]] | None = None,
    ) -> None:
        self.kind = kind
        self.text = text
        # Handoffs restate the same entries over and over: ``keys`` remembers the
        # (normalised text, subject) of each text seen in this merge.
        known = keys.get(text) if keys is not None else None
        if known is None:
            known = (normalise(text), subject_of(text))
            if keys is not None:
                keys[text] = known
        self.norm = known[0]
        self.subject = known[1] if kind != "risk" else self.norm
        self.session = source.session
        self.stage = source.stage
        self.time = source.time
        self.handoff = handoff  # position of the source in the merge order

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"kind": self.kind, "text": self.text}
        if self.kind != "risk":
            data["subject"] = self.subject
            data["reason"] = reason_of(self.text)
        data.update(session=self.session, stage=self.stage, time=iso_time(self.time))
        return data


class Override:
    """``entry`` was replaced by the later ``by`` on the same subject."""

    __slots__ = ("entry", "by")

    def __init__(self, entry: Entry, by: Entry) -> None:
        self.entry = entry
        self.by = by

    @property
    def reversed(self) -> bool:
        """A decision turned into a rejection or back (as opposed to a restatement)."""
        return self.entry.kind != self.by.kind

    def as_dict(self) -> dict[str, object]:
        data = self.entry.as_dict()
        data["change"] = "reversed" if self.reversed else "replaced"
        data["overridden_by"] = self.by.as_dict()
        return data


class MergeResult:
    __slots__ = (
        "decided",
        "rejected",
        "overridden",
        "risks",
        "latest",
        "handoffs",
        "sessions",
        "first_time",
        "last_time",
    )

    def __init__(
        self,
        decided: list[Entry],
        rejected: list[Entry],
        overridden: list[Override],
        risks: list[Entry],
        latest: list[HandoffFile],
        handoffs: int,
        sessions: list[str],
        first_time: float | None,
        last_time: float | None,
    ) -> None:
        self.decided = decided
        self.rejected = rejected
        self.overridden = overridden
        self.risks = risks
        self.latest = latest  # newest handoff of each session, newest first
        self.handoffs = handoffs
        self.sessions = sessions
        self.first_time = first_time  # of the oldest and the newest handoff merged
        self.last_time = last_time


def merge_handoffs(handoffs: Iterable[HandoffFile]) -> MergeResult:
    """The merged record of handoffs given oldest first.

    Per subject, the entries of the latest handoff that mentions it are current. An entry
    that normalises to one already current (same kind) is a duplicate and dropped, so the
    record keeps where a decision was first made. Any other entry from a later handoff
    replaces the current ones, which move to Overridden: a rejection reverses an earlier
    decision, a later decision revives an earlier rejection. Entries of one handoff never
    override each other (it may decide one thing and reject another about one subject).
    """
    current: dict[str, list[Entry]] = {}
    overridden: list[Override] = []
    risks: dict[str, Entry] = {}
    latest: dict[str, HandoffFile] = {}
    sequence: dict[int, int] = {}  # id(entry) -> position, for the output order
    keys: dict[str, tuple[str, str]] = {}
    count = 0
    first_time: float | None = None
    last_time: float | None = None
    for index, handoff in enumerate(handoffs):
        count += 1
        if first_time is None:
            first_time = handoff.time
        last_time = handoff.time
        for kind, section in DECISION_SECTIONS:
            for text in handoff.sections.get(section, ()):
                entry = Entry(kind, text, handoff, index, keys)
                existing = current.get(entry.subject)
                if existing:
                    if any(e.kind == kind and e.norm == entry.norm for e in existing):
                        continue
                    if existing[0].handoff == index:
                        existing.append(entry)
                        sequence[id(entry)] = len(sequence)
                        continue
                    overridden.extend(Override(old, entry) for old in existing)
                current[entry.subject] = [entry]
                sequence[id(entry)] = len(sequence)
        for text in handoff.sections.get("Risks", ()):
            risk = Entry("risk", text, handoff, index, keys)
            risks.setdefault(risk.norm, risk)
        latest[handoff.session] = handoff
    live = sorted(
        (entry for entries in current.values() for entry in entries),
        key=lambda entry: sequence[id(entry)],
    )
    return MergeResult(
        decided=[entry for entry in live if entry.kind == DECIDED],
        rejected=[entry for entry in live if entry.kind == REJECTED],
        overridden=overridden,
        risks=list(risks.values()),
        latest=sorted(latest.values(), key=lambda handoff: handoff.order, reverse=True),
        handoffs=count,
        sessions=sorted(latest),
        first_time=first_time,
        last_time=last_time,
    )


# --------------------------------------------------------------------------- rendering


def _source(entry: Entry) -> str:
    return f"session {entry.session}, stage {entry.stage}, {iso_date(entry.time)}"


def _kind_label(kind: str) -> str:
    return {DECIDED: "Decided", REJECTED: "Rejected"}.get(kind, kind)


def _capped_line(handoff: HandoffFile, merged_at: float) -> str:
    claimed = handoff.claimed_time if handoff.claimed_time is not None else handoff.time
    return (
        f"{handoff.path}: dated {iso_time(claimed)}, after this merge ({iso_time(merged_at)}); "
        f"taken as {iso_time(handoff.time)} (its {handoff.time_source})"
    )


def render_markdown(
    result: MergeResult,
    merged_at: float,
    skipped: list[Problem],
    capped: list[HandoffFile] | None = None,
) -> str:
    """decisions.md: Decided, Rejected, Overridden, Risks, then each session's newest
    Remaining and Files Modified; then the handoffs dated in the future and the skipped."""
    when = ""
    if result.first_time is not None and result.last_time is not None:
        when = f", written {iso_date(result.first_time)} to {iso_date(result.last_time)}"
    handoff_noun = "handoff" if result.handoffs == 1 else "handoffs"
    session_noun = "session" if len(result.sessions) == 1 else "sessions"
    lines = [
        "# Merged decisions",
        "",
        # No time of the merge here: every clone must render the same handoffs to the same
        # bytes. It is in state.json.
        f"Merged by ctx-merge from {result.handoffs} {handoff_noun} "
        f"of {len(result.sessions)} {session_noun}{when}.",
        "A later entry overrides an earlier one on the same subject (its text before the "
        "first '(', ':', ' - ' or ' — '); what it replaced is listed under Overridden.",
        "",
    ]

    def section(title: str, items: list[str]) -> None:
        lines.append(f"## {title}")
        lines.append("")
        lines.extend(one_line(item) for item in items or ["- none"])
        lines.append("")

    section("Decided", [f"- {e.text} — {_source(e)}" for e in result.decided])
    section("Rejected", [f"- {e.text} — {_source(e)}" for e in result.rejected])
    section(
        "Overridden",
        [
            f"- {_kind_label(o.entry.kind)}: {o.entry.text} — {_source(o.entry)}; "
            f"{'reversed' if o.reversed else 'replaced'} by {_kind_label(o.by.kind)}: "
            f"{o.by.text} — {_source(o.by)}"
            for o in result.overridden
        ],
    )
    section("Risks", [f"- {e.text} — {_source(e)}" for e in result.risks])
    for title in ("Remaining", "Files Modified"):
        items: list[str] = []
        for handoff in result.latest:
            values = handoff.sections.get(title, [])
            if values:
                items.append(
                    one_line(
                        f"### Session {handoff.session} (stage {handoff.stage}, "
                        f"{iso_date(handoff.time)})"
                    )
                )
                items.extend(one_line(f"- {value}") for value in values)
        lines.append(f"## {title}")
        lines.append("")
        if items:
            lines.append("From the newest handoff of each session, newest first.")
            lines.append("")
        lines.extend(items or ["- none"])
        lines.append("")
    if capped:
        section(
            "Handoffs dated in the future",
            [f"- {_capped_line(handoff, merged_at)}" for handoff in capped],
        )
    if skipped:
        section("Skipped handoffs", [f"- {problem}" for problem in skipped])
    return "\n".join(lines)


def result_data(
    result: MergeResult,
    merged_at: float,
    skipped: list[Problem],
    capped: list[HandoffFile] | None = None,
) -> dict[str, object]:
    """decisions.json: the same record as data (the merge time is in state.json only, but
    see build_outputs: a handoff dated in the future is listed with it)."""
    data: dict[str, object] = {
        "version": FORMAT_VERSION,
        "handoffs": result.handoffs,
        "sessions": len(result.sessions),
        "decided": [entry.as_dict() for entry in result.decided],
        "rejected": [entry.as_dict() for entry in result.rejected],
        "overridden": [override.as_dict() for override in result.overridden],
        "risks": [entry.as_dict() for entry in result.risks],
        "latest": [
            {
                "session": handoff.session,
                "stage": handoff.stage,
                "time": iso_time(handoff.time),
                "remaining": handoff.sections.get("Remaining", []),
                "files_modified": handoff.sections.get("Files Modified", []),
            }
            for handoff in result.latest
        ],
        "skipped": [problem.as_dict() for problem in skipped],
    }
    if capped:
        data["future_dated"] = [
            {
                "path": handoff.path,
                "claimed_time": iso_time(handoff.claimed_time or handoff.time),
                "time": iso_time(handoff.time),
                "from": handoff.time_source,
            }
            for handoff in capped
        ]
    return data


def state_data(result: MergeResult, merged_at: float) -> dict[str, object]:
    """state.json: when the last successful merge ran and what it took in."""
    return {
        "version": FORMAT_VERSION,
        "merged_at": iso_time(merged_at),
        "handoffs": result.handoffs,
        "sessions": len(result.sessions),
        "sessions_merged": result.sessions,
    }


def dumps(data: Mapping[str, object]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


# --------------------------------------------------------------------------- locations


def merged_dir(state_dir: str) -> str:
    return os.path.join(state_dir, MERGED_DIRNAME)


def decisions_md_path(state_dir: str) -> str:
    return os.path.join(state_dir, MERGED_DIRNAME, DECISIONS_MD)


def lock_path(state_dir: str) -> str:
    return os.path.join(state_dir, LOCK_NAME)


# --------------------------------------------------------------------------- gates


class MergeState:
    """What state.json says about the last successful merge (``merged_at`` None: none)."""

    __slots__ = ("merged_at", "problem", "clock")

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
    from filelock import FileLock, Timeout

    lock = FileLock(prepare_lock_file(lock_path(state_dir), root=state_dir))
    delays = backoff_delays()
    for attempt in range(LOCK_ATTEMPTS):
        try:
            lock.acquire(timeout=0)
            return lock
        except Timeout:
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


# --------------------------------------------------------------------------- publishing


def _checkpoint(step: str) -> None:
    """Called between the writes of a merge; the crash tests replace it to pause (and be
    killed) at every step. Does nothing otherwise."""


def _fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def current_generation(state_dir: str) -> str | None:
    """The generation folder ``merged`` points at (a name in the state folder), or None."""
    link = merged_dir(state_dir)
    if os.path.islink(link):
        return os.path.basename(os.readlink(link))
    return None


def clean_generations(state_dir: str, keep: Iterable[str | None]) -> None:
    """Remove generation folders and temporary links that are not in ``keep`` (leftovers
    of killed merges, and generations older than the previous one). Under the lock only."""
    kept = {name for name in keep if name}
    try:
        names = os.listdir(state_dir)
    except OSError:
        return
    for name in names:
        if not name.startswith(GENERATION_PREFIX) or name in kept:
            continue
        if name.startswith(LEGACY_PREFIX):
            continue  # a folder made by hand, moved aside by an earlier version: never removed
        path = os.path.join(state_dir, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass


def publish(state_dir: str, files: Mapping[str, str], now: float) -> list[Problem]:
    """Make ``files`` (name -> text, written in order) the contents of ``merged/`` at once.

    They go into a new generation folder, are flushed to disk, and then the ``merged``
    symlink is replaced in one rename. Killed before the rename: ``merged`` still shows the
    previous files (the half-written folder is removed by the next merge); after it: the
    new ones, complete. The previous generation is kept until the next merge, so a reader
    that resolved the old path a moment ago can still open it. A ``merged`` that is not
    the toolkit's link (made by hand) is moved aside once, never removed; returned as a note.
    """
    notes: list[Problem] = []
    link = merged_dir(state_dir)
    previous = current_generation(state_dir)
    suffix = f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime(now))}-{os.getpid()}-"
    suffix += os.urandom(3).hex()
    generation = GENERATION_PREFIX + suffix
    folder = os.path.join(state_dir, generation)
    os.mkdir(folder)
    _checkpoint("generation folder created")
    for name, text in files.items():
        with open(os.path.join(folder, name), "xb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        _checkpoint(f"wrote {name}")
    _fsync_dir(folder)
    if os.path.lexists(link) and not os.path.islink(link):
        # A real folder or file (made by hand, or by an older layout) cannot be swapped in
        # one rename, and may hold the user's notes: moved aside under a name no merge
        # ever removes.
        aside = MOVED_ASIDE_PREFIX + suffix
        os.rename(link, os.path.join(state_dir, aside))
        notes.append(
            Problem(
                link,
                f"was not the toolkit's link (made by hand?); moved to {aside}, kept as it "
                "was. Copy your notes elsewhere and remove it",
            )
        )
    temporary_link = os.path.join(state_dir, GENERATION_PREFIX + "link-" + suffix)
    os.symlink(generation, temporary_link)
    _checkpoint("ready to swap")
    os.replace(temporary_link, link)
    _fsync_dir(state_dir)
    _checkpoint("swapped")
    clean_generations(state_dir, (generation, previous))
    return notes


# --------------------------------------------------------------------------- a run


class Outcome:
    """What a run did: ``action`` is 'merged', 'stopped', 'nothing' or 'dry-run'."""

    __slots__ = (
        "action",
        "gate",
        "reason",
        "result",
        "skipped",
        "notes",
        "alerts",
        "rechecked",
        "old_markdown",
        "new_markdown",
    )

    def __init__(self, action: str) -> None:
        self.action = action
        self.gate = ""
        self.reason = ""
        self.result: MergeResult | None = None
        self.skipped: list[Problem] = []
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
) -> tuple[MergeResult, list[Problem], dict[str, str]] | None:
    """Read, merge and render; None when there is no readable handoff at all."""
    handoffs, skipped = scan_handoffs(state_dir)
    if not handoffs:
        return None
    capped = cap_future_times(handoffs, now)
    result = merge_handoffs(handoffs)
    # decisions.md and decisions.json are the same bytes on every clone for the same
    # handoffs (no merge time, paths relative to the state folder), with one exception: a
    # handoff dated after this merge is capped at its file time or at the merge time (both
    # differ from clone to clone) and listed with the merge time. That is acceptable: the
    # record must say a clock was ahead, and the difference lasts only until the real time
    # passes the claimed one; then every clone takes the handoff's own time again.
    shown = [Problem(os.path.relpath(p.path, state_dir), p.reason) for p in skipped]
    shown_capped = [copy.copy(handoff) for handoff in capped]
    for handoff in shown_capped:
        handoff.path = os.path.relpath(handoff.path, state_dir)
    files = {
        DECISIONS_MD: render_markdown(result, now, shown, shown_capped),
        DECISIONS_JSON: dumps(result_data(result, now, shown, shown_capped)),
        STATE_JSON: dumps(state_data(result, now)),
    }
    return result, skipped, files


def _nothing(state_dir: str, skipped: list[Problem]) -> Outcome:
    outcome = Outcome("nothing")
    outcome.reason = f"no readable handoffs under {os.path.join(state_dir, 'sessions')}"
    outcome.skipped = skipped
    return outcome


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
        built = build_outputs(state_dir, now)
        if built is None:
            return _nothing(state_dir, scan_handoffs(state_dir)[1])
        outcome = Outcome("dry-run")
        outcome.result, outcome.skipped, files = built
        if state.clock:
            outcome.alerts.append(state.clock)
        outcome.new_markdown = files[DECISIONS_MD]
        try:
            old = read_merged(state_dir, DECISIONS_MD, MAX_MARKDOWN_BYTES)
            outcome.old_markdown = old.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            outcome.old_markdown = None
        return outcome

    if not os.path.isdir(os.path.join(state_dir, "sessions")):
        return _nothing(state_dir, [])
    lock = take_lock(state_dir, sleep=sleep)
    if lock is None:
        return _stopped(GateResult(GATE_LOCK, False, lock_gate_reason(state_dir)), state)
    try:
        _checkpoint("lock taken")
        if not force:
            # Another merge may have finished while this one waited for the lock.
            gate, state = check_gates(state_dir, now, min_hours, min_sessions)
            if not gate.passed:
                return _stopped(gate, state, rechecked=True)
        clean_generations(state_dir, (current_generation(state_dir),))
        sweep_stale_temps(state_dir)  # what killed writers (ctx-plan, hooks) left behind
        built = build_outputs(state_dir, now)
        if built is None:
            return _nothing(state_dir, scan_handoffs(state_dir)[1])
        outcome = Outcome("merged")
        outcome.result, outcome.skipped, files = built
        if state.problem:
            outcome.notes.append(state.problem)
        if state.clock:
            outcome.alerts.append(state.clock)
        outcome.notes.extend(publish(state_dir, files, now))
        return outcome
    finally:
        lock.release()
