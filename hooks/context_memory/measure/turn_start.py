"""Turn-start auto-compaction: what ctx-budget injects when a prompt arrives at or above the
auto-compact threshold, and the record that keeps the audit after it from repeating it.

The client runs UserPromptSubmit, then compacts, then sends the hook's text as part of the
new, small context: whatever is in that text survives the compaction by construction. So
the text carries the session's recorded decisions and rejections rather than a band that
the compaction is about to make stale.

Loaded by ctx-budget only in that case. Standard library and lightjson only (prompt path);
of decisions.jsonl only its last TURN_START_TAIL_BYTES are read, by the log's one reader
(core/decisions_log).
"""

from __future__ import annotations

import os
import stat
import time

from context_memory import TYPE_CHECKING
from context_memory.core import lightjson
from context_memory.core.decisions_log import decision_line, newest_records, open_log
from context_memory.core.fsutil import atomic_write
from context_memory.core.safe_text import clip
from context_memory.core.state import TURN_START_FILE, decisions_path, shown_state_path
from context_memory.core.tables import (
    TURN_START_FRESH_SECONDS,
    TURN_START_ITEM_CHARS,
    TURN_START_MAX_CHARS,
    TURN_START_TAIL_BYTES,
    TURN_START_TEXTS,
)
from context_memory.transcript.rows import (
    eligible_assistant_usage,
    iter_lines_backwards,
    max_scan_bytes,
    open_transcript,
    parse_row,
)

if TYPE_CHECKING:
    from typing import Any, BinaryIO

KINDS_INJECTED = ("decided", "rejected", "constraint")
RECORD_VERSION = 1
# The record is a few hundred bytes; anything much larger is not ours.
MAX_RECORD_BYTES = 64 * 1024
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def _open_regular(path: str) -> BinaryIO:
    """Open ``path`` for reading without following a link; OSError unless a regular file."""
    fd = os.open(path, _OPEN_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def record_key(record: dict[str, Any]) -> str:
    """A record's id, or its kind and text when it has none (written by hand)."""
    record_id = record.get("id")
    if isinstance(record_id, str) and record_id:
        return record_id
    return f"{record.get('kind')}\x1f{record.get('decision')}"


def _item(text: object) -> str:
    return clip(" ".join(str(text).split()), TURN_START_ITEM_CHARS)


def record_line(record: dict[str, Any], texts: dict[str, str]) -> str:
    reason = record.get("reason")
    return decision_line(
        texts,
        str(record.get("kind")),
        _item(record["decision"]),
        _item(reason) if isinstance(reason, str) and reason.strip() else None,
        record.get("by") == "user",
    )


def session_decisions(
    state_dir: str, session: str, lang: str, max_chars: int = TURN_START_MAX_CHARS
) -> tuple[list[str], list[dict[str, Any]], bool]:
    """Lines for this session's decided and rejected records, newest first, as many as fit
    in ``max_chars``; the records used; and whether the log holds more than was shown.

    Reads the log backwards and stops once the lines are full: at most its last
    TURN_START_TAIL_BYTES, and only as much as the lines need; only the lines that name
    the session, and the marks, are parsed. The log's one reader (core/decisions_log)
    judges them: a record a supersede or drop mark retires is left out, a record a union
    merge repeated counts once.
    """
    texts = TURN_START_TEXTS.get(lang, TURN_START_TEXTS["en"])
    lines: list[str] = []
    used: list[dict[str, Any]] = []
    total = 0
    try:
        handle = open(open_log(state_dir), "rb")  # noqa: SIM115 - closed by the with below
    except FileNotFoundError:
        return lines, used, False
    with handle:
        size = os.fstat(handle.fileno()).st_size
        backwards = iter_lines_backwards(handle, size, max_bytes=TURN_START_TAIL_BYTES)
        wanted = (f'"{session}"'.encode(), b'"target"')
        for record in newest_records((raw for _, raw in backwards), wanted=wanted):
            if record.get("session") != session or record.get("kind") not in KINDS_INJECTED:
                continue
            line = record_line(record, texts)
            if total + len(line) + 1 > max_chars:
                return lines, used, True
            lines.append(line)
            used.append(record)
            total += len(line) + 1
    return lines, used, size > TURN_START_TAIL_BYTES


def shown_log_path(state_dir: str) -> str:
    """``.working-state/decisions.jsonl`` for the usual folder, the absolute path otherwise."""
    return shown_state_path(state_dir, decisions_path(state_dir))


def newest_reply_id(transcript: str) -> str | None:
    """``message.id`` of the newest main-chain reply: the compaction that follows a prompt
    directly comes before any new reply."""
    with open_transcript(transcript) as handle:
        size = os.fstat(handle.fileno()).st_size
        for _, line in iter_lines_backwards(handle, size, max_bytes=max_scan_bytes()):
            if b'"assistant"' not in line:
                continue
            row = parse_row(line)
            if row is None or eligible_assistant_usage(row) is None:
                continue
            message = row.get("message")
            message_id = message.get("id") if isinstance(message, dict) else None
            return message_id if isinstance(message_id, str) else None
    return None


def turn_start_text(
    *,
    state_dir: str | None,
    folder: str | None,
    session: str,
    transcript: str,
    usage: str,
    threshold: str,
    prefix: str,
    lang: str,
) -> str:
    """The note that the context is being compacted, with this session's decisions.

    Records which decisions went out in ``folder`` (the session's state folder) for the
    compaction audit; a failed write costs at worst a repeated line in that audit.
    """
    texts = TURN_START_TEXTS.get(lang, TURN_START_TEXTS["en"])
    parts = [texts["header"].format(prefix=prefix, usage=usage, threshold=threshold)]
    lines: list[str] = []
    used: list[dict[str, Any]] = []
    more = False
    if state_dir is not None:
        try:
            lines, used, more = session_decisions(state_dir, session, lang)
        except OSError:
            pass  # an unreadable log: the note still goes out
    if lines:
        parts.append(texts["list"])
        parts.extend(lines)
        if more:
            parts.append(texts["more"].format(path=shown_log_path(state_dir or "")))
    else:
        parts.append(texts["none"])
    if folder is not None and used:
        try:
            reply = newest_reply_id(transcript)
        except OSError:
            reply = None
        write_injected(folder, [record_key(record) for record in used], reply)
    return "\n".join(parts)


def record_path(folder: str) -> str:
    return os.path.join(folder, TURN_START_FILE)


def write_injected(folder: str, keys: list[str], reply: str | None) -> None:
    """Replace the session's record of what went out (fsutil.atomic_write)."""
    data = lightjson.dumps(
        {"version": RECORD_VERSION, "at": time.time(), "reply": reply, "keys": keys}
    )
    try:
        atomic_write(record_path(folder), data + "\n", durable=False)  # as before: no fsync
    except OSError:
        pass  # a read-only or full state folder must not cost the user the text


def take_injected(folder: str, transcript: str | None, now: float | None = None) -> set[str]:
    """Keys of the records ctx-budget injected right before this compaction; the record
    is used up.

    Empty when there is no record, it is older than TURN_START_FRESH_SECONDS, or a reply
    came after it (then the compaction is a later one, mid-turn, and the injected text may
    itself have been summarised away).
    """
    path = record_path(folder)
    try:
        with _open_regular(path) as handle:
            raw = handle.read(MAX_RECORD_BYTES + 1)
    except OSError:
        return set()
    try:
        os.unlink(path)
    except OSError:
        pass
    if len(raw) > MAX_RECORD_BYTES:
        return set()
    try:
        data = lightjson.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, SystemError, RecursionError):
        return set()
    if not isinstance(data, dict):
        return set()
    at = data.get("at")
    now = time.time() if now is None else now
    if not isinstance(at, (int, float)) or not 0 <= now - at <= TURN_START_FRESH_SECONDS:
        return set()
    reply = data.get("reply")
    if isinstance(reply, str) and transcript:
        try:
            newest = newest_reply_id(transcript)
        except OSError:
            newest = None
        if newest is not None and newest != reply:
            return set()
    keys = data.get("keys")
    return {key for key in keys if isinstance(key, str)} if isinstance(keys, list) else set()
