"""The decisions log: ``<state>/decisions.jsonl``, one JSON record per line.

Record: {"id", "ts" (UTC ISO 8601), "session", "kind" ("decided" | "rejected" | "risk"),
"decision", "reason", "alternatives": [...], "keywords": [...]}. For a rejection,
"decision" holds what was rejected. ``ctx-decide --pin/--unpin`` appends
{"id", "ts", "session", "kind": "pin" | "unpin", "target": <record id>}: pins travel with
the log; readers of decisions skip them. Appends are locked; a corrupt line is reported with
its path and line number and skipped by every reader, never rewritten.
"""

from __future__ import annotations

import json
import os
import time

from context_memory.fsutil import append_line_locked

DECISIONS_FILE = "decisions.jsonl"
KINDS = ("decided", "rejected", "risk")
PIN_KINDS = ("pin", "unpin")
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
) -> dict[str, object]:
    """A validated record, ready to append."""
    if kind not in KINDS:
        raise RecordError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    text = " ".join(text.split())
    if not text:
        raise RecordError(f"the {kind} text is empty")
    if len(text) > MAX_TEXT_LENGTH or len(reason) > MAX_TEXT_LENGTH:
        raise RecordError(f"the {kind} text or reason is longer than {MAX_TEXT_LENGTH} characters")
    return {
        "id": os.urandom(6).hex(),  # 12 hex digits, as uuid4().hex[:12] gave; no uuid import
        "ts": ts or utc_now_iso(),
        "session": session,
        "kind": kind,
        "decision": text,
        "reason": " ".join(reason.split()),
        "alternatives": [" ".join(a.split()) for a in alternatives if a.strip()],
        "keywords": [" ".join(k.split()) for k in keywords if k.strip()],
    }


def append_record(state_dir: str | os.PathLike[str], record: dict[str, object]) -> None:
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    append_line_locked(decisions_path(state_dir), line)


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
    """All whole, valid records in file order, and the lines that were skipped.

    Pin records are not decisions: they go to ``pins`` when given, and are skipped
    silently otherwise."""
    path = decisions_path(state_dir)
    records: list[dict[str, object]] = []
    problems: list[LogProblem] = []
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
            if _is_pin(record):
                if pins is not None:
                    pins.append(record)
                continue
            if not _valid(record):
                problems.append(LogProblem(path, number, "not a decision record"))
                continue
            records.append(record)
    return records, problems


def str_list(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def make_pin_record(kind: str, target: str, *, session: str) -> dict[str, object]:
    """A pin or unpin record for the decision ``target`` (its id)."""
    if kind not in PIN_KINDS:
        raise RecordError(f"kind must be one of {', '.join(PIN_KINDS)}, not {kind!r}")
    return {
        "id": os.urandom(6).hex(),
        "ts": utc_now_iso(),
        "session": session,
        "kind": kind,
        "target": target,
    }
