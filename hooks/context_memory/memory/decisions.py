"""The decisions log: ``<state>/decisions.jsonl``, one JSON record per line.

Record: {"id", "ts" (UTC ISO 8601), "session", "kind" ("decided" | "rejected" | "risk"),
"decision", "reason", "alternatives": [...], "keywords": [...], "author"}. For a rejection,
"decision" holds what was rejected. ``ctx-decide --pin/--unpin`` appends
{"id", "ts", "session", "kind": "pin" | "unpin", "target": <record id>, "author"}: pins
travel with the log; readers of decisions skip them. Appends are locked; a corrupt line is
reported with
its path and line number and skipped by every reader, never rewritten.

Shared through git (``ctx-doctor --team``), the log is merged with git's union driver: both
sides' lines are kept, so a record that reached both sides is there twice. Readers take
each record once: the first line with a given ``id`` (ids are unique across machines, see
identity.py), or, for a line without an id, the first identical line. Older records (12
hex-digit ids, no ``author``) read as before.
"""

from __future__ import annotations

import json
import os
import time

from context_memory.core.fsutil import append_line_locked, open_file
from context_memory.memory.identity import git_dir, new_record_id

DECISIONS_FILE = "decisions.jsonl"
KINDS = ("decided", "rejected", "risk")
PIN_KINDS = ("pin", "unpin")
MAX_TEXT_LENGTH = 4000
# A record the toolkit writes stays far below this (two texts of 4000 characters); a longer
# line is skipped unread, so one huge record costs no hook its time or memory.
MAX_RECORD_BYTES = 64 * 1024
# Only the newest part of a bigger log is read (whole records after the cut).
MAX_LOG_BYTES = 32 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"


class RecordError(ValueError):
    """A record that must not be written (empty text, unknown kind, too long)."""


class LogProblem:
    """A line of the log that readers skip: where it is and why."""

    __slots__ = ("path", "line", "reason")

    def __init__(self, path: str, line: int, reason: str) -> None:
        self.path = path
        self.line = line
        self.reason = reason

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.reason}"


def utc_now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def decisions_path(state_dir: str | os.PathLike[str]) -> str:
    return os.path.join(os.fspath(state_dir), DECISIONS_FILE)


def make_record(
    kind: str,
    text: str,
    *,
    session: str,
    reason: str = "",
    alternatives: list[str] | tuple[str, ...] = (),
    keywords: list[str] | tuple[str, ...] = (),
    ts: str | None = None,
    author: str = "",
) -> dict[str, object]:
    """A validated record, ready to append (``author`` is left out when empty)."""
    if kind not in KINDS:
        raise RecordError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    text = " ".join(text.split())
    if not text:
        raise RecordError(f"the {kind} text is empty")
    if len(text) > MAX_TEXT_LENGTH or len(reason) > MAX_TEXT_LENGTH:
        raise RecordError(f"the {kind} text or reason is longer than {MAX_TEXT_LENGTH} characters")
    record: dict[str, object] = {
        "id": new_record_id(),
        "ts": ts or utc_now_iso(),
        "session": session,
        "kind": kind,
        "decision": text,
        "reason": " ".join(reason.split()),
        "alternatives": [" ".join(a.split()) for a in alternatives if a.strip()],
        "keywords": [" ".join(k.split()) for k in keywords if k.strip()],
    }
    if author:
        record["author"] = " ".join(author.split())
    return record


def append_record(state_dir: str | os.PathLike[str], record: dict[str, object]) -> None:
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    if len(line.encode("utf-8")) > MAX_RECORD_BYTES:
        raise RecordError(
            f"the record is longer than {MAX_RECORD_BYTES} bytes; shorten the alternatives "
            "or keywords"
        )
    path = decisions_path(state_dir)
    append_line_locked(path, line, root=os.fspath(state_dir), settle=lambda: wait_for_git(path))


GIT_WAIT_SECONDS = 3.0
GIT_POLL_SECONDS = 0.01


def wait_for_git(path: str, limit: float = GIT_WAIT_SECONDS) -> None:
    """Wait (at most ``limit`` seconds) while git holds the index lock of the work tree
    around ``path``.

    ``git pull`` holds ``.git/index.lock`` while it writes merged files; a line appended
    after git checked the file but before it wrote the merged version would be lost. Once
    git is done, the append checks the file by name and appends again if its line is gone.
    """
    found = git_dir(os.path.dirname(os.path.abspath(path)))
    if found is None:
        return
    lock = os.path.join(found, "index.lock")
    deadline = time.monotonic() + limit
    while os.path.exists(lock) and time.monotonic() < deadline:
        time.sleep(GIT_POLL_SECONDS)


def _valid(record: object) -> bool:
    return (
        isinstance(record, dict)
        and record.get("kind") in KINDS
        and isinstance(record.get("decision"), str)
        and bool(record.get("decision"))
    )


def _is_pin(record: object) -> bool:
    return (
        isinstance(record, dict)
        and record.get("kind") in PIN_KINDS
        and isinstance(record.get("target"), str)
    )


def read_records(
    state_dir: str | os.PathLike[str],
    pins: list[dict[str, object]] | None = None,
) -> tuple[list[dict[str, object]], list[LogProblem]]:
    """All whole, valid records in file order, each once, and the lines that were skipped.

    The log is opened without following a link and must be a regular file; a line longer
    than MAX_RECORD_BYTES is skipped unread, and of a log bigger than MAX_LOG_BYTES only
    the newest part is read. Every skip is a LogProblem (line 0: the whole file).
    Pin records are not decisions: they go to ``pins`` when given, and are skipped
    silently otherwise.

    A union merge by git leaves a record that reached both sides twice: the first line
    with an id counts (or, without an id, the first identical line); repeats are dropped
    silently, as they are no problem. Pin records are deduplicated the same way, so a
    repeated pin cannot undo a later unpin.
    """
    path = decisions_path(state_dir)
    records: list[dict[str, object]] = []
    problems: list[LogProblem] = []
    seen: set[object] = set()
    try:
        fd = open_file(path, root=os.fspath(state_dir))
    except FileNotFoundError:
        return records, problems
    except OSError as exc:
        problems.append(LogProblem(path, 0, f"{exc.strerror or exc}; no record read"))
        return records, problems
    with open(fd, "rb") as handle:
        size = os.fstat(fd).st_size
        first = 1
        if size > MAX_LOG_BYTES:
            handle.seek(size - MAX_LOG_BYTES)
            handle.readline(MAX_RECORD_BYTES)  # the rest of a cut record
            _skip_rest(handle)
            first = 0  # line numbers unknown: the start was not read
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
            if not raw.strip():
                continue
            try:
                record = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                reason = "not valid JSON" if raw.endswith(b"\n") else "half-written last line"
                problems.append(LogProblem(path, shown, reason))
                continue
            is_pin = _is_pin(record)
            if not is_pin and not _valid(record):
                problems.append(LogProblem(path, shown, "not a decision record"))
                continue
            ident = record.get("id")
            key: object = ("id", ident) if isinstance(ident, str) and ident else raw.strip()
            if key in seen:
                continue
            seen.add(key)
            if is_pin:
                if pins is not None:
                    pins.append(record)
                continue
            records.append(record)
    return records, problems


def _skip_rest(handle: object) -> None:
    """Read past the end of the current line without keeping it."""
    readline = handle.readline  # type: ignore[attr-defined]
    while True:
        chunk = readline(1 << 20)
        if not chunk or chunk.endswith(b"\n"):
            return


MAX_LIST_ITEMS = 20
MAX_LIST_ITEM_CHARS = 300


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def clip_record(record: dict[str, object]) -> dict[str, object]:
    """A copy of ``record`` with only the known fields, each within what make_record allows
    (texts MAX_TEXT_LENGTH, lists MAX_LIST_ITEMS of MAX_LIST_ITEM_CHARS): what is copied out
    of the log (the extract) stays bounded whatever a line holds."""
    copy: dict[str, object] = {}
    for key in ("id", "ts", "session", "kind", "decision", "reason"):
        value = record.get(key)
        if isinstance(value, str):
            copy[key] = _clip(value, MAX_TEXT_LENGTH)
    for key in ("alternatives", "keywords"):
        items = str_list(record.get(key))[:MAX_LIST_ITEMS]
        copy[key] = [_clip(item, MAX_LIST_ITEM_CHARS) for item in items]
    return copy


def str_list(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def make_pin_record(kind: str, target: str, *, session: str, author: str = "") -> dict[str, object]:
    """A pin or unpin record for the decision ``target`` (its id); ``author`` as in
    make_record (left out when empty)."""
    if kind not in PIN_KINDS:
        raise RecordError(f"kind must be one of {', '.join(PIN_KINDS)}, not {kind!r}")
    record: dict[str, object] = {
        "id": new_record_id(),
        "ts": utc_now_iso(),
        "session": session,
        "kind": kind,
        "target": target,
    }
    if author:
        record["author"] = " ".join(author.split())
    return record
