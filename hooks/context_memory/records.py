"""The decisions log: ``<state>/decisions.jsonl``, one JSON record per line.

Record: {"id", "ts" (UTC ISO 8601), "session", "kind" ("decided" | "rejected" | "risk"),
"decision", "reason", "alternatives": [...], "keywords": [...], "author"}. For a rejection,
"decision" holds what was rejected. Appends are locked; a corrupt line is reported with
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

from context_memory.fsutil import append_line_locked
from context_memory.identity import git_dir, new_record_id

DECISIONS_FILE = "decisions.jsonl"
KINDS = ("decided", "rejected", "risk")
MAX_TEXT_LENGTH = 4000


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
        return f"{self.path}:{self.line}: {self.reason}"


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
    path = decisions_path(state_dir)
    append_line_locked(path, line, settle=lambda: wait_for_git(path))


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


def read_records(
    state_dir: str | os.PathLike[str],
) -> tuple[list[dict[str, object]], list[LogProblem]]:
    """All whole, valid records in file order, each once, and the lines that were skipped.

    A union merge by git leaves a record that reached both sides twice: the first line
    with an id counts (or, without an id, the first identical line); repeats are dropped
    silently, as they are no problem."""
    path = decisions_path(state_dir)
    records: list[dict[str, object]] = []
    problems: list[LogProblem] = []
    seen: set[object] = set()
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return records, problems
    with handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                reason = "not valid JSON" if raw.endswith(b"\n") else "half-written last line"
                problems.append(LogProblem(path, number, reason))
                continue
            if not _valid(record):
                problems.append(LogProblem(path, number, "not a decision record"))
                continue
            ident = record.get("id")
            key: object = ("id", ident) if isinstance(ident, str) and ident else raw.strip()
            if key in seen:
                continue
            seen.add(key)
            records.append(record)
    return records, problems


def str_list(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []
