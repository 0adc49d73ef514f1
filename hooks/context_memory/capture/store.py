"""Capture into the decisions log: read a transcript's new rows, feed them to the capture
engine, append what it finds as records, mark what they supersede, remember the position.

The position of a session is ``<state>/capture/<session>.json``: the transcript's path,
the byte offset after the last whole row read, the file's identity (device, inode) and
the 64 bytes before the offset, and the engine's pending state (Capturer.to_state). A
run reads only the rows after the offset, so its cost follows the turn, not the
transcript. A transcript that is another file, shorter than the offset, or no longer has
those 64 bytes there (truncated, replaced, rewritten) is read again from its start (its
last MAX_RUN_BYTES): capture identity (uuid, kind, source), checked against the log, keeps
that from adding anything twice. A damaged position file counts as none (same restart).

Bounded: a run reads at most MAX_RUN_BYTES (or CTX_MAX_SCAN_BYTES when lower); when more
is waiting (the first capture of an old transcript, a session whose hooks did not run for
long), only the newest that many bytes are read: what was said last matters most at the
next compaction. The log is read only when the rows captured something.

Supersede (at append time): a new record supersedes each live record that the model's
rule says it does (memory/constraint.supersedes, through decisions.superseded_by: the
other stance on a subject of the old one, or the same stance on all it ruled out; and the
older anchor rule, an anchor in new.prefer and old.avoid or in new.avoid and old.prefer).
An approved plan also supersedes the plan rejections it resolved: the engine lists their
rows (``resolves``), and each live plan record captured from one of those rows (the
rejection, and a constraint read from its feedback) is marked. Records captured from one
row (a rejection and the rule its reason states) never supersede each other. The old record
stays; a supersede mark follows the new one. A rewind of the conversation (the engine's
marker, capture/rewind.py) drops the session's records read from the rows it took back.

Size: one module, because a run is one flow under one position and one lock (the rows
after the position, the engine's items, the checks against the log, the records with the
marks they make, the position saved), and each part's bounds are the next part's input.

Standard library only (filelock when a record is appended); the engine is imported when
a run has rows to feed.
"""

from __future__ import annotations

import json
import os

from context_memory import TYPE_CHECKING
from context_memory.capture.result_texts import ANSWER_STARTS, APPROVED_START
from context_memory.capture.rewind import drop_taken_back, is_marker
from context_memory.core.decisions_log import read_records, retired_ids
from context_memory.core.fsutil import atomic_write, lock_for, open_file, read_fd_bounded
from context_memory.core.state import CAPTURE_DIR
from context_memory.memory.decisions import (
    RecordError,
    append_record,
    capture_identity,
    make_captured_record,
    make_mark_record,
    superseded_by,
)
from context_memory.transcript.rows import max_scan_bytes, open_transcript

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any, Protocol

    class CapturerLike(Protocol):
        def feed(self, row: dict[str, Any]) -> list[dict[str, Any]]: ...
        def flush(self) -> list[dict[str, Any]]: ...
        def end_run(self) -> list[dict[str, Any]]: ...
        def scrubbed(self, items: list[dict[str, Any]]) -> list[dict[str, Any]]: ...
        def to_state(self) -> dict[str, Any]: ...

    # The records' author, or how to find it when something is captured.
    Author = str | Callable[[], str]


MAX_RESOLVES = 8  # plan rejections one approval may resolve
MAX_UUID = 80
CAPTURE_ENV = "CTX_CAPTURE"
OFF_VALUES = ("off", "0", "false", "no")
POSITION_VERSION = 1
# Bytes of transcript one run reads at most (see the module docstring).
MAX_RUN_BYTES = 8 * 1024 * 1024
# A row longer than this (a pasted file, an image) is skipped unparsed: it states no decision
# the engine could quote, and parsing it would cost the hook its time.
MAX_ROW_BYTES = 1024 * 1024
# The position file: small (the engine's state is < 64 KiB); a bigger one is not ours.
MAX_POSITION_BYTES = 256 * 1024
MAX_ENGINE_STATE_BYTES = 64 * 1024
TAIL_BYTES = 64
# Rows the engine takes nothing from, told by their bytes so they are not parsed: most of
# a turn's bytes are tool results. A tool_result row counts only when it is an error (a
# rejection), answers a question or approves a plan (the client's texts of
# capture/result_texts.py), or holds a text block (a prompt beside it); sidechain rows count
# not at all. Any doubt: the row is parsed.
_TOOL_RESULT = b'"tool_result"'
_KEEP_NEEDLES = (
    b'"is_error":true',
    b'"is_error": true',
    b'"type":"text"',
    b'"type": "text"',
    *(start.encode() for start in (*ANSWER_STARTS, APPROVED_START)),
)
_SIDECHAIN = (b'"isSidechain":true', b'"isSidechain": true')


def states_nothing(line: bytes) -> bool:
    """Whether the engine takes nothing from this row (see _KEEP_NEEDLES)."""
    if any(needle in line for needle in _SIDECHAIN):
        return True
    return _TOOL_RESULT in line and not any(needle in line for needle in _KEEP_NEEDLES)


def run_bytes() -> int:
    """Bytes one run reads at most: MAX_RUN_BYTES, or CTX_MAX_SCAN_BYTES when lower (the
    bound of every transcript scan of the hooks)."""
    return min(MAX_RUN_BYTES, max_scan_bytes())


def capture_enabled(env: Mapping[str, str] | None = None) -> bool:
    """False when CTX_CAPTURE is off (or 0, false, no)."""
    value = (os.environ if env is None else env).get(CAPTURE_ENV, "")
    return value.strip().lower() not in OFF_VALUES


def position_path(state_dir: str, session: str) -> str:
    return os.path.join(state_dir, CAPTURE_DIR, f"{session}.json")


class CaptureResult:
    """What one run did: the records added (or that would be, with dry_run), the superseded
    ids (old id -> new id), the items already in the log, damaged rows and skipped bytes."""

    __slots__ = (
        "added",
        "damaged_rows",
        "dropped",
        "duplicates",
        "invalid",
        "restarted",
        "skipped_bytes",
        "superseded",
    )

    def __init__(self) -> None:
        self.added: list[dict[str, Any]] = []
        self.superseded: dict[str, str] = {}
        self.dropped: list[dict[str, Any]] = []  # the records a rewind took back
        self.duplicates = 0
        self.damaged_rows = 0
        self.skipped_bytes = 0
        self.invalid = 0
        self.restarted = False


def load_position(state_dir: str, session: str) -> dict[str, Any] | None:
    """The saved position, or None when there is none or it is damaged (a restart)."""
    path = position_path(state_dir, session)
    try:
        fd = open_file(path, root=state_dir)
        try:
            raw = read_fd_bounded(fd, MAX_POSITION_BYTES, path)
        finally:
            os.close(fd)
        position = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(position, dict) or position.get("version") != POSITION_VERSION:
        return None
    if not isinstance(position.get("offset"), int) or not isinstance(position.get("tail"), str):
        return None
    return position


def _tail(fd: int, offset: int) -> str:
    start = max(0, offset - TAIL_BYTES)
    return os.pread(fd, offset - start, start).hex()


def _start_of(fd: int, size: int, transcript: str, position: dict[str, Any] | None) -> int | None:
    """Where to go on reading: the saved offset when the position is this file's, else
    None (read from the start)."""
    if position is None or position.get("transcript") != transcript:
        return None
    info = os.fstat(fd)
    offset = position["offset"]
    if (
        position.get("dev") != info.st_dev
        or position.get("inode") != info.st_ino
        or not 0 <= offset <= size
        or _tail(fd, offset) != position["tail"]
    ):
        return None
    return int(offset)


def read_new_rows(
    transcript: str,
    position: dict[str, Any] | None,
    result: CaptureResult,
    loads: Callable[[bytes], Any] = json.loads,
) -> tuple[list[dict[str, Any]], dict[str, Any], bool]:
    """The whole rows after the position, the new position (engine state not yet set), and
    whether the engine state of ``position`` still applies (False: restart it). ``loads``:
    json's for a hook's few new rows, core/bulkjson's for a catch-up by hand."""
    with open_transcript(transcript, buffering=0) as handle:
        fd = handle.fileno()
        info = os.fstat(fd)
        size = info.st_size
        start = _start_of(fd, size, transcript, position)
        continued = start is not None
        if start is None:
            result.restarted = position is not None
            start = 0
        budget = run_bytes()
        if size - start > budget:
            result.skipped_bytes = size - budget - start
            start = size - budget
            continued = False
        data = os.pread(fd, size - start, start) if size > start else b""
        if continued is False and start > 0:
            # Cut mid-row: the rest of that row is not a row.
            cut = data.find(b"\n")
            result.skipped_bytes += cut + 1 if cut >= 0 else len(data)
            data = data[cut + 1 :] if cut >= 0 else b""
            start = size - len(data)
        end = data.rfind(b"\n") + 1  # a half-written last row waits for the next run
        offset = start + end
        rows: list[dict[str, Any]] = []
        for line in data[:end].split(b"\n"):
            if not line.strip():
                continue
            if len(line) > MAX_ROW_BYTES:
                result.damaged_rows += 1
                continue
            if states_nothing(line):
                continue
            try:
                row = loads(line)
            except (UnicodeDecodeError, ValueError, RecursionError):
                result.damaged_rows += 1
                continue
            if isinstance(row, dict):
                rows.append(row)
            else:
                result.damaged_rows += 1
        new_position: dict[str, Any] = {
            "version": POSITION_VERSION,
            "transcript": transcript,
            "dev": info.st_dev,
            "inode": info.st_ino,
            "size": size,
            "offset": offset,
            "tail": _tail(fd, offset),
        }
    return rows, new_position, continued


def _engine(state: dict[str, Any] | None) -> CapturerLike:
    from context_memory.capture.engine import Capturer

    return Capturer(state)


def captured_items(
    rows: list[dict[str, Any]],
    state: dict[str, Any] | None,
    *,
    flush: bool,
    make: Callable[[dict[str, Any] | None], CapturerLike] = _engine,
    result: CaptureResult | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The engine's items for ``rows`` (and its pending ones with ``flush``), its new state.
    A row the engine fails on counts as damaged (``result``) and the rest are read: else the
    position would never pass it, and the session's capture would stop there for good."""
    capturer = make(state)
    items: list[dict[str, Any]] = []
    for row in rows:
        try:
            items.extend(capturer.feed(row))
        except Exception:  # noqa: BLE001 - one unreadable row must not stop the session
            if result is not None:
                result.damaged_rows += 1
    items.extend(capturer.flush() if flush else capturer.end_run())
    return capturer.scrubbed(items), capturer.to_state()


def add_records(
    state_dir: str,
    items: list[dict[str, Any]],
    *,
    session: str,
    author: Author,
    result: CaptureResult,
    dry_run: bool,
) -> None:
    """Append the items not yet in the log as records, each followed by the supersede
    marks it makes (with dry_run: only say what would be appended). ``author`` is asked
    only when there is something to write (it may run git once)."""
    if not items:
        return
    who = author() if callable(author) else author
    fresh: list[dict[str, Any]] = []
    resolved: dict[int, list[str]] = {}  # id(record) -> rows of the rejections it resolved
    for item in items:
        if is_marker(item):
            fresh.append(item)  # acted on in order (_append_new)
            continue
        try:
            record = make_captured_record(item, session=session, author=who)
        except RecordError:
            result.invalid += 1
            continue
        fresh.append(record)
        resolves = item.get("resolves")
        if isinstance(resolves, list) and record.get("source") == "plan":
            rows = [r[:MAX_UUID] for r in resolves[:MAX_RESOLVES] if isinstance(r, str) and r]
            if rows:
                resolved[id(record)] = rows
    if not fresh:
        return
    if dry_run:
        _append_new(state_dir, fresh, resolved, session=session, result=result, dry_run=True)
        return
    # The check against the log and the appends under one lock: two captures of the same
    # rows at once (a hook and ctx-capture by hand) add them once.
    with lock_for(position_path(state_dir, session), root=state_dir):
        _append_new(state_dir, fresh, resolved, session=session, result=result, dry_run=False)


def resolved_by_plan(rows: list[str], live: list[dict[str, Any]]) -> list[str]:
    """Ids of the live plan records captured from ``rows`` (plan rejections an approved
    plan resolved, and the constraints read from their feedback)."""
    found: list[str] = []
    for record in live:
        ident = record.get("id")
        if (
            record.get("source") == "plan"
            and record.get("kind") in ("rejected", "constraint")
            and record.get("uuid") in rows
            and isinstance(ident, str)
            and ident not in found
        ):
            found.append(ident)
    return found


def _append_new(
    state_dir: str,
    fresh: list[dict[str, Any]],
    resolved: dict[int, list[str]],
    *,
    session: str,
    result: CaptureResult,
    dry_run: bool,
) -> None:
    marks: list[dict[str, Any]] = []
    records, _ = read_records(state_dir, None, marks)
    known = {capture_identity(r) for r in records} - {None}
    retired = retired_ids(marks)
    live = [r for r in records if r.get("id") not in retired]
    # The same statement read again from another row (a compaction summary restating a
    # prompt, a prompt typed twice) adds nothing while its record is live.
    said = {(r.get("kind"), r.get("by"), r.get("decision")) for r in live}
    for record in fresh:
        if is_marker(record):  # a rewind: what was read from the rows taken back is dropped
            gone = drop_taken_back(state_dir, record, live, session, dry_run=dry_run)
            live = [r for r in live if all(r is not g for g in gone)]
            said = {(r.get("kind"), r.get("by"), r.get("decision")) for r in live}
            result.dropped.extend(gone)
            continue
        identity = capture_identity(record)
        statement = (record.get("kind"), record.get("by"), record.get("decision"))
        if identity in known or statement in said:
            result.duplicates += 1
            continue
        known.add(identity)
        said.add(statement)
        # Two records read from one row (a rejection and the rule its reason states) say
        # one thing: neither supersedes the other.
        old_ids = [
            old
            for old in superseded_by(record, live)
            if not any(r.get("id") == old and r.get("uuid") == record.get("uuid") for r in live)
        ]
        for old in resolved_by_plan(resolved.get(id(record), []), live):
            if old not in old_ids:
                old_ids.append(old)
        if not dry_run:
            append_record(state_dir, record)
            for old in old_ids:
                append_record(
                    state_dir,
                    make_mark_record(
                        "supersede", old, session=session, by_record=str(record["id"])
                    ),
                )
        for old in old_ids:
            result.superseded[old] = str(record["id"])
        live = [r for r in live if r.get("id") not in old_ids] + [record]
        result.added.append(record)


def save_position(state_dir: str, session: str, position: dict[str, Any]) -> None:
    atomic_write(
        position_path(state_dir, session),
        json.dumps(position, ensure_ascii=False, separators=(",", ":")) + "\n",
        root=state_dir,
        # Lost in a crash, a position costs a re-read (identity keeps it from adding
        # anything twice); flushed, it would cost most of a Stop's capture time.
        durable=False,
    )


def capture_session(
    state_dir: str,
    session: str,
    transcript: str,
    *,
    author: Author = "",
    dry_run: bool = False,
    flush: bool = False,
    make: Callable[[dict[str, Any] | None], CapturerLike] = _engine,
    loads: Callable[[bytes], Any] = json.loads,
) -> CaptureResult:
    """Capture the rows of ``transcript`` after the session's position into the log.

    With ``dry_run`` nothing is written (neither records nor the position). The position
    is written without a lock (the hooks of one session run one after another; either of
    two racing positions is a valid one, and identity keeps a re-read from adding twice);
    appends take the lock. ``flush``
    emits what the engine still holds pending (by hand: the end of the data); hooks leave
    it pending, as the user's next prompt may carry an interrupted call's reason.
    ``loads``: the rows' parser (read_new_rows).
    """
    result = CaptureResult()
    _run(state_dir, session, transcript, author, dry_run, flush, make, result, loads)
    return result


def _run(
    state_dir: str,
    session: str,
    transcript: str,
    author: Author,
    dry_run: bool,
    flush: bool,
    make: Callable[[dict[str, Any] | None], CapturerLike],
    result: CaptureResult,
    loads: Callable[[bytes], Any],
) -> None:
    position = load_position(state_dir, session)
    rows, new_position, continued = read_new_rows(transcript, position, result, loads)
    saved_state = position.get("state") if continued and position else None
    state = saved_state if isinstance(saved_state, dict) else None
    if rows or flush:
        items, state = captured_items(rows, state, flush=flush, make=make, result=result)
        add_records(
            state_dir, items, session=session, author=author, result=result, dry_run=dry_run
        )
    if dry_run:
        return
    if state is not None:
        encoded = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
        if len(encoded.encode("utf-8")) <= MAX_ENGINE_STATE_BYTES:
            new_position["state"] = state
    if position != new_position:
        save_position(state_dir, session, new_position)
