"""Find Claude Code transcripts on disk: by path, by session id, or the newest of a project.

Plain os.path: ctx-usage imports this, and pathlib (with the ``re`` and ``urllib`` it
brings) would cost more than finding the file.
"""

from __future__ import annotations

import os

from context_memory.core.client_config import claude_config_dir
from context_memory.core.state import UnsafeNameError, validate_name


class TranscriptNotFound(LookupError):
    """No transcript matches what the user asked for; the message says where we looked."""


# The client (2.1.332) cuts a longer folder name to this many characters and appends a hash.
MAX_FOLDER_NAME = 200


def _utf16_units(text: str) -> list[int]:
    """The UTF-16 code units of ``text``: the client works on JavaScript strings."""
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def _name_hash(text: str) -> str:
    """The client's hash of a long path: Java's String.hashCode over UTF-16 units (32-bit,
    signed), its absolute value in base 36."""
    value = 0
    for unit in _utf16_units(text):
        value = (value * 31 + unit) & 0xFFFFFFFF
    if value >= 1 << 31:
        value -= 1 << 32
    value = abs(value)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while value:
        value, rest = divmod(value, 36)
        out = digits[rest] + out
    return out or "0"


def project_folder_name(cwd: str | os.PathLike[str]) -> str:
    """The client's folder name for a project: every UTF-16 unit outside [A-Za-z0-9] becomes
    '-'; a name longer than MAX_FOLDER_NAME is cut there and ``-<hash>`` appended (what
    2.1.332 does for transcripts and auto memory alike)."""
    path = os.fspath(cwd)
    name = "".join(chr(u) if u < 128 and chr(u).isalnum() else "-" for u in _utf16_units(path))
    if len(name) <= MAX_FOLDER_NAME:
        return name
    return f"{name[:MAX_FOLDER_NAME]}-{_name_hash(path)}"


def projects_dir() -> str:
    return os.path.join(claude_config_dir(), "projects")


def _session_files(folder: str) -> list[str]:
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    paths = (os.path.join(folder, name) for name in names if name.endswith(".jsonl"))
    return [path for path in paths if os.path.isfile(path)]


def newest_transcript(cwd: str | os.PathLike[str]) -> str:
    """The most recently written session transcript of the project at ``cwd``."""
    project = os.path.abspath(cwd)
    folder = os.path.join(projects_dir(), project_folder_name(project))
    candidates = _session_files(folder)
    if not candidates:
        raise TranscriptNotFound(
            f"no transcript for {project} in {folder}; pass a transcript path or a session id"
        )
    return max(candidates, key=lambda path: (os.stat(path).st_mtime, os.path.basename(path)))


def transcript_for_session(session_id: str, cwd: str | os.PathLike[str] | None = None) -> str:
    """The transcript of ``session_id``: the current project's folder first, then any project."""
    try:
        validate_name(session_id)
    except UnsafeNameError as exc:
        raise TranscriptNotFound(str(exc)) from None
    root = projects_dir()
    name = f"{session_id}.jsonl"
    if cwd is not None:
        direct = os.path.join(root, project_folder_name(os.path.abspath(cwd)), name)
        if os.path.isfile(direct):
            return direct
    try:
        projects = sorted(os.listdir(root))
    except OSError:
        projects = []
    for project in projects:
        candidate = os.path.join(root, project, name)
        if os.path.isfile(candidate):
            return candidate
    raise TranscriptNotFound(f"no transcript for session {session_id} under {root}")


def looks_like_session_id(text: str) -> bool:
    return "/" not in text and os.sep not in text and not text.endswith(".jsonl")


# What tells a transcript from any other file, read from its first and last lines only:
# every row the client writes (1.0.24 to 2.1.x: messages, summaries, snapshots, queue and
# mode rows) is one JSON object naming at least one of these fields.
ROW_FIELDS = (b'"type"', b'"uuid"', b'"parentUuid"', b'"sessionId"', b'"message"', b'"leafUuid"')
SNIFF_BYTES = 64 * 1024


def _row_like(line: bytes, complete: bool) -> bool:
    """Whether one line (``complete``: not cut by the bounded read) can be a transcript row."""
    text = line.strip()
    if not text.startswith(b'{"') or b"\0" in text:  # a NUL: a binary, not JSON
        return False
    # A row longer than the read: a JSON object that started like one is enough.
    return not complete or any(field in text for field in ROW_FIELDS)


def _first_line(block: bytes, whole_file: bool) -> tuple[bytes, bool] | None:
    """The first non-blank line of ``block`` and whether it is complete; None if none."""
    for line in block.split(b"\n")[:-1]:
        if line.strip():
            return line, True
    rest = block.rsplit(b"\n", 1)[-1]
    return (rest, whole_file) if rest.strip() else None


def first_line_is_row(block: bytes, whole_file: bool) -> bool | None:
    """Whether the first non-blank line of ``block`` (the start of a file; ``whole_file``:
    all of it) can be a transcript row; None when the block is blank."""
    first = _first_line(block, whole_file)
    return None if first is None else _row_like(*first)


def looks_like_transcript(path: str) -> bool:
    """Whether ``path`` can be a Claude Code transcript, from a bounded read of its first and
    last lines (a JSON object with a transcript row's fields). An empty file, or one whose
    first row is still being written, is a brand-new transcript: True. A first and last line
    that are no rows (a binary, README.md, a script, other JSON): False. Damaged rows in
    between (a NUL byte, cut JSON) do not count: the client's readers skip them."""
    with open(path, "rb") as handle:
        head = handle.read(SNIFF_BYTES)
        size = handle.seek(0, os.SEEK_END)
        if size > SNIFF_BYTES:
            handle.seek(size - SNIFF_BYTES)
            tail = handle.read(SNIFF_BYTES)
        else:
            tail = head
    whole = size <= SNIFF_BYTES
    first = first_line_is_row(head, whole)
    if first is None:
        return whole  # blank so far: a brand-new transcript (a bigger blank head: no)
    if first:
        return True
    lines = [line for line in tail.split(b"\n") if line.strip()]
    if not lines:
        return False
    # The last complete line: in the tail, every line but the first (cut by the seek, unless
    # the tail is the whole file) and the last (half-written, unless the file ends in \n).
    candidates = lines if whole else lines[1:]
    if candidates and not tail.endswith(b"\n") and len(candidates) > 1:
        candidates = candidates[:-1]
    return bool(candidates) and _row_like(candidates[-1], True)
