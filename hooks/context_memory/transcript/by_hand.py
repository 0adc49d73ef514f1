"""The transcript of a command run by hand: one rule to find it, one to check it, one to
read it whole, one to name its session. ctx-usage, ctx-capture, ctx-audit, ctx-handoff and
ctx-guard --replay all use these (the hooks get their transcript from the client).

- Which file (``find_transcript``): a path (``~`` expanded); a session id (its file under
  the client's projects folder, this project's first); nothing: the newest transcript of
  the current folder's project.
- What it must be (``check_transcript``): a regular file that is a Claude Code transcript
  (locate.looks_like_transcript). A gzip-compressed one (``.jsonl.gz``: the gzip magic,
  whatever the name) is read where the whole file is read in order (``ctx-guard --replay``,
  through ``transcript_lines``: bounded decompression) and refused by name where a command
  seeks in it (the context count reads backwards, the capture keeps a byte position,
  the audit reads the end). Anything else is ``NotATranscript``: the command line named
  the wrong file, exit 2 (exit_codes.USAGE; ctx-audit's AUDIT_COULD_NOT_RUN is the same
  number).
- Its session (``session_of``): the ``sessionId`` its newest rows carry, from a bounded
  read of its end (else its start); the file name only when no row names a usable one (a
  copy, an export, a fixture: any name).

Plain os.path, and gzip and json imported only where they are needed: ctx-usage imports this.
"""

from __future__ import annotations

import os
import stat

from context_memory import TYPE_CHECKING
from context_memory.core.state import UnsafeNameError, validate_name
from context_memory.transcript.locate import (
    SNIFF_BYTES,
    TranscriptNotFound,
    first_line_is_row,
    looks_like_session_id,
    looks_like_transcript,
    newest_transcript,
    transcript_for_session,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

GZIP_MAGIC = b"\x1f\x8b"
# Read whole (ctx-guard --replay): at most this much decompressed, so a small .gz that
# expands to gigabytes (or never ends) costs bounded time and memory; a longer row than
# MAX_ROW_BYTES is skipped unread, as the client's readers skip rows they cannot parse.
MAX_DECOMPRESSED_BYTES = 512 * 1024 * 1024
MAX_ROW_BYTES = 64 * 1024 * 1024
# Where the session id is looked for: the first (else the last) this many bytes.
SESSION_SNIFF_BYTES = 1024 * 1024
TRANSCRIPT_SUFFIXES = (".jsonl.gz", ".jsonl")


class NotATranscript(ValueError):
    """The file named is no transcript this command can read; the message says why and
    what to do. Commands exit USAGE (2) on it."""


class TranscriptTooBig(OSError):
    """A transcript read whole that decompresses past MAX_DECOMPRESSED_BYTES."""


def _too_big() -> TranscriptTooBig:
    return TranscriptTooBig(
        f"more than {MAX_DECOMPRESSED_BYTES} bytes of transcript (decompressed); only files "
        "up to that size are read"
    )


def find_transcript(argument: str | None, cwd: str) -> str:
    """The absolute path TRANSCRIPT names: a path, a session id, or (None) the newest
    transcript of ``cwd``'s project. Raises TranscriptNotFound with where it looked."""
    if argument is None:
        return os.path.abspath(newest_transcript(cwd))
    candidate = os.path.expanduser(argument)
    if os.path.lexists(candidate):
        return os.path.abspath(candidate)
    if looks_like_session_id(argument):
        return transcript_for_session(argument, cwd)
    raise TranscriptNotFound(f"{candidate}: no such file (give a transcript path or a session id)")


def is_gzip(path: str) -> bool:
    with open(path, "rb") as handle:
        return handle.read(len(GZIP_MAGIC)) == GZIP_MAGIC


def not_a_transcript(path: str, command: str, takes_newest: bool = True) -> str:
    """What is wrong and where transcripts are; how ``command`` finds one itself when it
    ``takes_newest`` without an argument."""
    how = (
        f"run {command} without an argument in a project for its newest one, or pass a session id"
        if takes_newest
        else "pass one of them or a session id"
    )
    return (
        f"{path} is not a Claude Code transcript (its first and last lines are not "
        "transcript rows). Transcripts are the .jsonl files under "
        f"~/.claude/projects/<project folder>/; {how}"
    )


def check_transcript(
    path: str, command: str, *, gzip_ok: bool = False, takes_newest: bool = True
) -> None:
    """Raise NotATranscript unless ``path`` is a transcript ``command`` can read: a regular
    file, plain (or, with ``gzip_ok``, gzip-compressed) JSON Lines whose first or last
    line is a transcript row. OSError (no such file, permission) passes through."""
    info = os.stat(path)
    if stat.S_ISDIR(info.st_mode):
        raise NotATranscript(f"{path} is a directory, not a transcript file")
    if not stat.S_ISREG(info.st_mode):
        raise NotATranscript(f"{path} is not a regular file, so not a transcript")
    if is_gzip(path):
        if not gzip_ok:
            raise NotATranscript(
                f"{path} is gzip-compressed; {command} reads plain .jsonl transcripts "
                f"(ctx-guard --replay reads .jsonl.gz): gunzip -k {path} first"
            )
        if not _gzip_head_is_transcript(path):
            raise NotATranscript(not_a_transcript(path, command, takes_newest))
        return
    if not looks_like_transcript(path):
        raise NotATranscript(not_a_transcript(path, command, takes_newest))


def _gzip_head_is_transcript(path: str) -> bool:
    """Whether the first line of the decompressed file can be a transcript row (the read
    stops after SNIFF_BYTES of output); damaged gzip data is no transcript."""
    import gzip
    import zlib

    try:
        with gzip.open(path, "rb") as handle:
            head = handle.read(SNIFF_BYTES)
            whole = len(head) < SNIFF_BYTES
    except (OSError, EOFError, zlib.error):
        return False
    found = first_line_is_row(head, whole)
    return whole if found is None else found


def transcript_lines(path: str) -> Iterator[bytes]:
    """The lines of a transcript read whole, in file order, plain or gzip-compressed: at
    most MAX_DECOMPRESSED_BYTES in all (TranscriptTooBig past it), a line longer than
    MAX_ROW_BYTES skipped (never held in memory whole). Damaged gzip data: OSError. The
    messages name no path: the caller says which file."""
    import gzip
    import zlib

    read = 0
    try:
        with gzip.open(path, "rb") if is_gzip(path) else open(path, "rb") as handle:
            while True:
                line = handle.readline(MAX_ROW_BYTES + 1)
                if not line:
                    return
                read += len(line)
                if read > MAX_DECOMPRESSED_BYTES:
                    raise _too_big()
                if len(line) > MAX_ROW_BYTES:
                    read += _skip_line(handle, MAX_DECOMPRESSED_BYTES - read)
                    continue
                yield line
    except (EOFError, zlib.error) as exc:  # a cut or damaged .gz
        raise OSError(f"damaged gzip data ({exc})") from None


def _skip_line(handle: object, room: int) -> int:
    """Read past the rest of an overlong line; the bytes read (bounded by ``room``)."""
    readline = handle.readline  # type: ignore[attr-defined]
    skipped = 0
    while True:
        chunk = readline(1 << 20)
        skipped += len(chunk)
        if skipped > room:
            raise _too_big()
        if not chunk or chunk.endswith(b"\n"):
            return skipped


def session_of(path: str) -> str:
    """The session id of the transcript at ``path``: the ``sessionId`` of its last row that
    carries one (in its last SESSION_SNIFF_BYTES, else of its first row that does), else
    its file name without ``.jsonl``. Raises UnsafeNameError when neither is a usable
    name."""
    found = _row_session(path)
    if found is not None:
        return found
    name = os.path.basename(path)
    for suffix in TRANSCRIPT_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    try:
        return validate_name(name)
    except UnsafeNameError as exc:
        raise UnsafeNameError(
            f"no row of {path} names its session (sessionId) and its file name cannot: {exc}"
        ) from None


def _row_session(path: str) -> str | None:
    import json

    try:
        with open(path, "rb") as handle:
            head = handle.read(SESSION_SNIFF_BYTES)
            size = handle.seek(0, os.SEEK_END)
            tail = b""
            if size > SESSION_SNIFF_BYTES:
                handle.seek(size - SESSION_SNIFF_BYTES)
                tail = handle.read(SESSION_SNIFF_BYTES)
    except OSError:
        return None
    # The newest rows first: they are the session writing the file (rows copied from an
    # earlier session, on a resume or a fork, may name that one). Whole lines only: the
    # head's last line and the tail's first may be cut.
    whole_head = head.split(b"\n")[:-1] if size > len(head) else head.split(b"\n")
    blocks = [tail.split(b"\n")[1:][::-1], whole_head] if tail else [whole_head[::-1]]
    for lines in blocks:
        for line in lines:
            if b'"sessionId"' not in line:
                continue
            try:
                row = json.loads(line)
            except (ValueError, RecursionError):
                continue
            value = row.get("sessionId") if isinstance(row, dict) else None
            if isinstance(value, str) and value:
                try:
                    return validate_name(value)
                except UnsafeNameError:
                    continue
    return None
