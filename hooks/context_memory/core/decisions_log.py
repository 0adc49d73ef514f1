"""The one reader of the decisions log (``<state>/decisions.jsonl``): the kinds of its
lines, which lines count, each record once, the marks apart.

Every reader of the log reads it here: ``ctx-decide --list``, the pinned digest, the
compaction audit, ctx-guard's index, the [WORKING STATE] pointer (the newest MB) and
ctx-budget's turn-start text (the newest 256 KB, on the prompt path). So this module is
in core (below memory/ and measure/ alike) and uses the standard library and lightjson
only: no ``json`` (which loads ``re``), no ``os`` (core/lightos). What a record
holds and how one is written is memory/decisions.py's; how one reads in a text injected for
the model is ``decision_line``'s: the compaction audit (audit/) and the turn start
(measure/, which may not import memory/) both read the log here.

Rules (memory/decisions.py's docstring has the record's fields):

- The log is opened without following a link and must be a regular file; a line longer
  than MAX_RECORD_BYTES is skipped unread; of a log bigger than MAX_LOG_BYTES (or than
  the ``tail_bytes`` a reader asks for) only the newest part is read, from its first whole
  line.
- A line is a decision record (KINDS, with a non-empty ``decision``), a pin or unpin
  (PIN_KINDS) or a supersede or drop mark (MARK_KINDS), each with a string ``target``;
  anything else is a LogProblem.
- A union merge by git leaves a line that reached both sides twice: the first line with
  an id counts (without an id, the first identical line); repeats are dropped silently.
- A record a supersede or drop mark targets is retired (retired_ids; a drop wins): it
  stays in the log, and live_records leaves it out.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core import lightjson, lightos
from context_memory.core.state import decisions_path

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping
    from os import PathLike
    from typing import BinaryIO

KINDS = ("decided", "rejected", "risk", "constraint")
PIN_KINDS = ("pin", "unpin")
MARK_KINDS = ("supersede", "drop")
# A record the toolkit writes stays far below this (two texts of 4000 characters); a longer
# line is skipped unread, so one huge record costs no hook its time or memory.
MAX_RECORD_BYTES = 64 * 1024
# Only the newest part of a bigger log is read (whole records after the cut).
MAX_LOG_BYTES = 32 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"


class LogProblem:
    """A line of the log that readers skip: where it is and why."""

    __slots__ = ("line", "path", "reason")

    def __init__(self, path: str, line: int, reason: str) -> None:
        self.path = path
        self.line = line
        self.reason = reason

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.reason}"


def _valid(record: dict[str, object]) -> bool:
    decision = record.get("decision")
    return record.get("kind") in KINDS and isinstance(decision, str) and bool(decision)


def _is_targeted(record: dict[str, object], kinds: tuple[str, ...]) -> bool:
    return record.get("kind") in kinds and isinstance(record.get("target"), str)


def _skip_rest(handle: BinaryIO) -> None:
    """Read past the end of the current line without keeping it."""
    while True:
        chunk = handle.readline(1 << 20)
        if not chunk or chunk.endswith(b"\n"):
            return


def _classify(raw: bytes) -> tuple[str, dict[str, object]] | str:
    """("record" | "pin" | "mark", the record) for a line that counts, else why it does not.

    A line that opens an object and does not close it (a half-written last line, mostly)
    is refused unparsed: on CPython 3.10 and 3.11 a parse error costs the prompt path the
    import of json (lightjson)."""
    stripped = raw.strip()
    try:
        if stripped[:1] == b"{" and stripped[-1:] != b"}":
            raise ValueError("not one JSON object")
        record = lightjson.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return "not valid JSON" if raw.endswith(b"\n") else "half-written last line"
    if not isinstance(record, dict):
        return "not a decision record"
    if _is_targeted(record, PIN_KINDS):
        return "pin", record
    if _is_targeted(record, MARK_KINDS):
        return "mark", record
    return ("record", record) if _valid(record) else "not a decision record"


def _key(record: dict[str, object], raw: bytes) -> object:
    """What makes two lines one record: its id, or the whole line for a record without."""
    ident = record.get("id")
    return ("id", ident) if isinstance(ident, str) and ident else raw.strip()


def _wanted(raw: bytes, needles: tuple[bytes, ...] | None) -> bool:
    return bool(raw.strip()) and (needles is None or any(n in raw for n in needles))


def open_log(state_dir: str | PathLike[str]) -> int:
    """A read-only descriptor of the log: no link followed, a regular file only, inside the
    state folder (fsread.open_file); FileNotFoundError when there is none."""
    from context_memory.core.fsread import open_file

    return open_file(decisions_path(state_dir), root=lightos.fspath(state_dir))


def read_records(
    state_dir: str | PathLike[str],
    pins: list[dict[str, object]] | None = None,
    marks: list[dict[str, object]] | None = None,
    *,
    tail_bytes: int | None = None,
    wanted: Iterable[bytes] | None = None,
) -> tuple[list[dict[str, object]], list[LogProblem]]:
    """All whole, valid records in file order, each once, and the lines that were skipped
    (the module's rules; line 0 of a LogProblem: the whole file).

    Pin records are not decisions: they go to ``pins`` when given, and are skipped silently
    otherwise; supersede and drop marks likewise go to ``marks``. ``tail_bytes``: only the
    log's newest bytes are read (union merges append at the end: the tail holds the news),
    without a problem for the part left out. ``wanted``: only the lines holding one of these
    byte strings are parsed (a reader that needs one session's or one kind's records, and
    the marks: ``b'"target"'``); the others are passed over unread.
    """
    path = decisions_path(state_dir)
    records: list[dict[str, object]] = []
    problems: list[LogProblem] = []
    seen: set[object] = set()
    needles = None if wanted is None else tuple(wanted)
    try:
        fd = open_log(state_dir)
    except FileNotFoundError:
        return records, problems
    except OSError as exc:
        problems.append(LogProblem(path, 0, f"{exc.strerror or exc}; no record read"))
        return records, problems
    limit = MAX_LOG_BYTES if tail_bytes is None else min(tail_bytes, MAX_LOG_BYTES)
    with open(fd, "rb") as handle:
        size = lightos.fstat(fd).st_size
        first = 1
        if size > limit:
            # From the byte before the cut: a cut on a line's start keeps that line whole.
            handle.seek(size - limit - 1)
            if not handle.readline(MAX_RECORD_BYTES).endswith(b"\n"):  # a cut record's rest
                _skip_rest(handle)  # ... longer than a record may be
            first = 0  # line numbers unknown: the start was not read
            if limit == MAX_LOG_BYTES:
                problems.append(
                    LogProblem(path, 0, f"larger than {MAX_LOG_BYTES} bytes; only its end was read")
                )
        number = 0
        while True:
            raw = handle.readline(MAX_RECORD_BYTES + 1)
            if not raw:
                break
            number += 1
            shown = number if first else 0
            if len(raw) > MAX_RECORD_BYTES:
                _skip_rest(handle)
                problems.append(
                    LogProblem(path, shown, f"longer than {MAX_RECORD_BYTES} bytes; skipped")
                )
                continue
            if number == 1 and first and raw.startswith(_BOM):
                raw = raw[len(_BOM) :]
            if not _wanted(raw, needles):
                continue
            found = _classify(raw)
            if isinstance(found, str):
                problems.append(LogProblem(path, shown, found))
                continue
            kind, record = found
            key = _key(record, raw)
            if key in seen:
                continue
            seen.add(key)
            if kind == "pin":
                if pins is not None:
                    pins.append(record)
            elif kind == "mark":
                if marks is not None:
                    marks.append(record)
            else:
                records.append(record)
    return records, problems


def newest_records(
    lines: Iterable[bytes], *, wanted: Iterable[bytes] | None = None
) -> Iterator[dict[str, object]]:
    """The live records of ``lines``, the log's lines newest first (read backwards, as
    transcript.rows.iter_lines_backwards does), one at a time, so that a reader that needs
    only the newest few stops early (ctx-budget's turn-start text, on the prompt path).

    read_records' rules, met in reverse: a mark comes after what it retires, so it is met
    first; a record a union merge repeated counts once (its newest line: the copies are
    the same line). ``wanted`` as in read_records (name ``b'"target"'`` for the marks);
    skipped lines are not reported.
    """
    needles = None if wanted is None else tuple(wanted)
    seen: set[object] = set()
    retired: set[object] = set()
    for raw in lines:
        if len(raw) > MAX_RECORD_BYTES or not _wanted(raw, needles):
            continue
        found = _classify(raw.removeprefix(_BOM))
        if isinstance(found, str):
            continue
        kind, record = found
        if kind == "mark":
            retired.add(record["target"])
            continue
        key = _key(record, raw)
        if kind == "pin" or key in seen:
            continue
        seen.add(key)
        if record.get("id") not in retired:
            yield record


def retired_ids(marks: list[dict[str, object]]) -> dict[str, str]:
    """Record id -> "superseded" or "dropped", from the log's marks (a drop wins)."""
    retired: dict[str, str] = {}
    for mark in marks:
        target = mark.get("target")
        if not isinstance(target, str):
            continue
        if mark.get("kind") == "drop":
            retired[target] = "dropped"
        elif mark.get("kind") == "supersede":
            retired.setdefault(target, "superseded")
    return retired


def live_records(
    state_dir: str | PathLike[str],
    pins: list[dict[str, object]] | None = None,
    *,
    tail_bytes: int | None = None,
    wanted: Iterable[bytes] | None = None,
) -> tuple[list[dict[str, object]], list[LogProblem]]:
    """read_records without the records that are superseded or dropped: what every reader
    that shows or injects decisions uses. With ``wanted``, name ``b'"target"'`` among the
    strings, or the marks are not read."""
    marks: list[dict[str, object]] = []
    records, problems = read_records(state_dir, pins, marks, tail_bytes=tail_bytes, wanted=wanted)
    retired = retired_ids(marks)
    if retired:
        records = [r for r in records if r.get("id") not in retired]
    return records, problems


def decision_line(
    texts: Mapping[str, str], kind: str, decision: str, reason: str | None, by_user: bool
) -> str:
    """How a record reads in a text injected for the model (the compaction audit's, the turn
    start's): ``texts`` holds core/tables.DECISION_LINE_TEXTS' lines of one language, its
    kind's line (another kind reads as "decided") with ``decision``, then ``reason`` (None:
    no reason) and whether the user stated it. The caller makes the two texts one clipped
    line each (its own bound)."""
    why = texts["why"].format(reason=reason) if reason is not None else ""
    if by_user:
        why += texts["by_user"]
    return texts.get(kind, texts["decided"]).format(decision=decision, why=why)
