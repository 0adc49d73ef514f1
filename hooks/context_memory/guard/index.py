"""The guard's index, ``<state>/guard-index.json``: read before every guarded tool call.

The fast path of the hook, so it costs almost nothing: one ``lstat`` of the decisions log,
one read of the index's head (INDEX_HEAD_BYTES) and of its last bytes, and set lookups.
The file is one JSON document written one part per line, so that a part can be used
without reading or parsing the rest::

    {"version":5,"log":[SIZE,MTIME_NS,INODE],"memory":"HEX","memsig":[...6 numbers],
    "keys":"moment npm ...",
    "triggers":"|moment 0:61|moment 0:61 install npm|pnpm 63:120|...|",
    "entries":[
    {"id":"...","ruled_out":[{"kind":"package","value":"moment"}],...},
    ...
    ]}

The first line is compared as text with the log's (size, mtime_ns, inode) now, and with
Claude Code's auto-memory folder of the project as it is now (its path, hex-encoded, then
the (size, mtime_ns, inode) of the folder and of its MEMORY.md: two more ``lstat``): a log
or a memory folder that differs, or a missing, damaged, oversized or linked index, makes
the call rebuild it from the live records and the model's own feedback and project
memories (memory/native_read.py: the agent's records, which only remind), and save it
when the state folder takes it. The triggers line lists groups of pieces (lowercase runs
of letters and digits) that must all be in a call for an entry to match it at all
(entries.triggers_of), each ``|KEY FIRST:LAST PIECE...``: its first piece (the key), where
its entry's line is (bytes FIRST to LAST of the entries, so no other line is touched), the
other pieces; the keys line, every key. The call's own pieces are a set: most calls share
no key with the index and end there, after one set intersection. For the keys a call
holds, only their groups are read (one ``find`` of ``|KEY `` each: the triggers of a
10,000-record log's 400 entries are never split whole, nor are the entry lines); only the
entries a call triggers are parsed (lightjson), and only then is the matcher imported.
Standard library only, no ``re``, no ``json``.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core import lightos
from context_memory.core.state import GUARD_INDEX_FILE, decisions_path
from context_memory.guard.pieces import ANY_CALL, CallPieces

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from context_memory.guard.match import GuardEntry

# Here, not in core/tables.py: this module is the hook's fast path, and the tables module
# costs more to import than everything this module does.
INDEX_MAX_BYTES = 2 * 1024 * 1024
# Read first: the header, keys and triggers lines of an index (the 400 entries of a
# 10,000-record log: 11 KB of them, then 177 KB of entry lines no call needs whole).
INDEX_HEAD_BYTES = 64 * 1024
INDEX_VERSION = 5
MEMORY_INDEX = "MEMORY.md"  # memory/native.py's name (not imported: it loads json and os)
_KEYS_START = b'"keys":"'
_TRIGGERS_START = b'"triggers":"'
_ENTRIES_LINE = b'"entries":['
_END_LINE = b"]}"
_TAIL = b"\n" + _END_LINE + b"\n"
_GROUP_START = b"|"


def index_path(state_dir: str) -> str:
    return lightos.join(state_dir, GUARD_INDEX_FILE)


def log_signature(state_dir: str) -> list[int] | None:
    """(size, mtime_ns, inode) of the decisions log, or None when there is none (or it is
    not a regular file: a link is not followed)."""
    try:
        info = lightos.lstat(decisions_path(state_dir))
    except OSError:
        return None
    if (info.st_mode & 0o170000) != 0o100000:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ino]


def _lstat_triple(path: str) -> list[int]:
    try:
        info = lightos.lstat(path)
    except (OSError, ValueError):
        return [0, 0, 0]
    return [info.st_size, info.st_mtime_ns, info.st_ino]


def memory_signature(folder_hex: bytes) -> list[int]:
    """(size, mtime_ns, inode) of the auto-memory folder named by ``folder_hex`` (its path,
    UTF-8, hex-encoded: nothing to escape, nothing to parse) and of its MEMORY.md; zeros
    for what is missing. A memory file added or removed changes the folder's mtime, a
    pointer line MEMORY.md's."""
    if not folder_hex:
        return [0] * 6
    try:
        folder = bytes.fromhex(folder_hex.decode("ascii")).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return [0] * 6
    return _lstat_triple(folder) + _lstat_triple(lightos.join(folder, MEMORY_INDEX))


def header_line(
    signature: list[int], memory_hex: bytes = b"", memsig: list[int] | None = None
) -> bytes:
    """The index's first line: the log's signature, then the auto-memory folder's."""
    numbers = memsig if memsig is not None else memory_signature(memory_hex)
    head = b'{"version":%d,"log":[%d,%d,%d],"memory":"' % (INDEX_VERSION, *signature)
    return head + memory_hex + b'","memsig":[%d,%d,%d,%d,%d,%d],' % tuple(numbers)


_MEMORY_START = b'"memory":"'


def _memory_hex(header: bytes) -> bytes:
    """The hex-encoded auto-memory folder a header names (b"" when none)."""
    at = header.find(_MEMORY_START)
    if at < 0:
        return b""
    start = at + len(_MEMORY_START)
    end = header.find(b'"', start)
    return header[start:end] if end >= 0 else b""


# -- reading ---------------------------------------------------------------------------------


class IndexFile:
    """A whole index, built from the log as it is now. Parsed as far as a call needs:
    the keys (the first piece of every trigger group) always, the groups of the keys in
    the call, the entries the call triggers. The entry lines are in memory (``body``), or
    read where they are in the open index file (``fd``, from ``start``, ``size`` bytes):
    then ``close()`` when done."""

    __slots__ = ("_body", "_fd", "_size", "_start", "_triggers", "keys")

    def __init__(
        self,
        keys: set[str],
        triggers: bytes,
        body: bytes = b"",
        fd: int = -1,
        start: int = 0,
        size: int = 0,
    ) -> None:
        self.keys = keys
        self._triggers = triggers
        self._body = body
        self._fd = fd
        self._start = start
        self._size = len(body) if fd < 0 else max(size, 0)

    def _span(self, first: int, last: int) -> bytes:
        """Bytes ``first`` to ``last`` of the entry lines (cut to them; b"" on an error)."""
        first, last = max(first, 0), min(last, self._size)
        if first >= last:
            return b""
        if self._fd < 0:
            return self._body[first:last]
        try:
            return lightos.pread(self._fd, last - first, self._start + first)
        except OSError:
            return b""

    @property
    def body(self) -> bytes:
        """The entry lines, ``,\n`` between them: ``[`` + body + ``]`` is the JSON list of
        every entry."""
        return self._span(0, self._size)

    def close(self) -> None:
        if self._fd >= 0:
            lightos.close(self._fd)
            self._fd = -1

    def _groups(self, key: str) -> list[tuple[tuple[int, int], list[str]]] | None:
        """The trigger groups of ``key``: (where its entry's line is in the body, the
        pieces after the key); None when the line is damaged."""
        groups: list[tuple[tuple[int, int], list[str]]] = []
        line = self._triggers
        needle = _GROUP_START + key.encode("utf-8") + b" "
        at = line.find(needle)
        while at >= 0:
            end = line.find(_GROUP_START, at + 1)
            if end < 0:
                return None
            try:
                span, _, rest = line[at + len(needle) : end].decode("utf-8").partition(" ")
            except UnicodeDecodeError:
                return None
            first, _, last = span.partition(":")
            if not (first.isdigit() and last.isdigit()):
                return None
            groups.append(((int(first), int(last)), rest.split()))
            at = line.find(needle, end)
        return groups

    def triggered(self, call: CallPieces) -> list[tuple[int, int]] | None:
        """Where the entries the call triggers are (their lines in the body, in log
        order); None when the index is damaged."""
        keys = call.keys_in(self.keys)
        if not keys:
            return []  # most calls: no first piece of any group is in them
        hit: set[tuple[int, int]] = set()
        for key in keys:
            groups = self._groups(key)
            if groups is None:
                return None
            for span, rest in groups:
                group = rest if key == ANY_CALL else [key, *rest]
                if span not in hit and call.has(group):
                    hit.add(span)
        return sorted(hit)

    def entries(self, spans: list[tuple[int, int]]) -> list[GuardEntry] | None:
        """The entries whose lines are at ``spans``, None when one is damaged (a span
        that is not one whole line, a line that is no JSON object)."""
        from context_memory.core import lightjson

        found: list[GuardEntry] = []
        for first, last in spans:
            before = 1 if first > 0 else 0  # the newline that ends the line before
            chunk = self._span(first - before, last + 2)
            line = chunk[before : before + last - first]
            after = chunk[before + last - first :]
            whole = (
                first < last
                and len(line) == last - first
                and chunk[:before] == b"\n"[:before]
                and after == (b"" if last == self._size else b",\n")
            )
            if not whole:
                return None
            try:
                entry = lightjson.loads(line.decode("utf-8"))
            except (ValueError, UnicodeDecodeError, RecursionError):
                return None
            if not isinstance(entry, dict):
                return None
            # A line index_text wrote from entries.entry_of; only checked for being an
            # object here: the matcher reads its keys with .get.
            found.append(entry)  # type: ignore[arg-type]
        return found


def _line_at(data: bytes, start: int) -> tuple[bytes, int]:
    """The line that starts at ``start`` and where the next one starts (-1: no newline)."""
    end = data.find(b"\n", start)
    return (data[start:], -1) if end < 0 else (data[start:end], end + 1)


def _string_line(line: bytes, start: bytes) -> bytes | None:
    """The text of a ``"name":"text",`` line (written unescaped: pieces need none)."""
    if line.startswith(start) and line.endswith(b'",'):
        return line[len(start) : -2]
    return None


def parse_index(data: bytes, signature: list[int], fd: int = -1, size: int = 0) -> IndexFile | None:
    """The index when it is whole and its header names the log as it is now (the groups
    and entries are checked when a call needs them). ``data``: the whole file; or, with
    ``fd``, the open file of ``size`` bytes (its end checked already), its first bytes."""
    header, at = _line_at(data, 0)
    if at < 0 or header != header_line(signature, _memory_hex(header)):
        return None
    if fd < 0 and not data.endswith(_TAIL):
        return None
    keys_line, at = _line_at(data, at)
    triggers_line, at = _line_at(data, at) if at >= 0 else (b"", -1)
    entries_line, at = _line_at(data, at) if at >= 0 else (b"", -1)
    keys = _string_line(keys_line, _KEYS_START)
    triggers = _string_line(triggers_line, _TRIGGERS_START)
    if keys is None or triggers is None or entries_line != _ENTRIES_LINE or at < 0:
        return None
    try:
        key_set = set(keys.decode("utf-8").split())
    except UnicodeDecodeError:
        return None
    if fd >= 0:
        return IndexFile(key_set, triggers, fd=fd, start=at, size=size - len(_TAIL) - at)
    return IndexFile(key_set, triggers, data[at : len(data) - len(_TAIL)])


def read_index(state_dir: str, signature: list[int]) -> IndexFile | None:
    """The index file when it is whole and names the log as it is now: a regular file (no
    link followed) of at most INDEX_MAX_BYTES, of which only the first INDEX_HEAD_BYTES and
    the last bytes are read, the entry lines when a call needs them (the file stays open
    in the IndexFile: close it)."""
    try:
        fd = lightos.open(
            index_path(state_dir),
            lightos.O_RDONLY | lightos.O_NOFOLLOW | lightos.O_NONBLOCK | lightos.O_CLOEXEC,
        )
    except OSError:
        return None
    index = None
    try:
        info = lightos.fstat(fd)
        size = info.st_size
        if not lightos.S_ISREG(info.st_mode) or size > INDEX_MAX_BYTES:
            return None
        head = lightos.read(fd, INDEX_HEAD_BYTES)
        if len(head) < INDEX_HEAD_BYTES:  # the whole file
            return parse_index(head, signature)
        if lightos.pread(fd, len(_TAIL), size - len(_TAIL)) == _TAIL:
            index = parse_index(head, signature, fd, size)
        if index is None:  # triggers longer than the head read (or a damaged file)
            data = head + lightos.read(fd, INDEX_MAX_BYTES + 1 - len(head))
            return parse_index(data, signature) if len(data) <= INDEX_MAX_BYTES else None
        return index
    except OSError:
        return None
    finally:
        if index is None:
            lightos.close(fd)


# -- building --------------------------------------------------------------------------------


def live_records(state_dir: str) -> list[dict[str, Any]]:
    """The log's live records (core/decisions_log.live_records)."""
    from context_memory.core.decisions_log import live_records as read_live

    records, _ = read_live(state_dir)
    return list(records)


def auto_memory(project_dir: str) -> tuple[bytes, list[dict[str, Any]]]:
    """(the auto-memory folder, hex-encoded; the model's own feedback and project memories
    as records) of ``project_dir``; (b"", []) where there is none or it cannot be read."""
    if not project_dir:
        return b"", []
    try:
        from context_memory.memory.native_folder import native_location
        from context_memory.memory.native_read import auto_memory_records

        folder = native_location(project_dir).folder
        records = auto_memory_records(project_dir)
    except (OSError, ValueError, UnicodeError):
        return b"", []
    return folder.encode("utf-8").hex().encode("ascii"), list(records)


def index_text(signature: list[int], entries: list[GuardEntry], memory_hex: bytes = b"") -> bytes:
    """The index file for ``entries`` of the log with ``signature`` (and of the auto-memory
    folder ``memory_hex`` as it is now)."""
    from context_memory.core import lightjson
    from context_memory.guard.entries import triggers_of

    body = [lightjson.dumps(entry).encode("utf-8") for entry in entries]
    groups = []
    keys: dict[str, None] = {}
    first = 0
    for entry, line in zip(entries, body, strict=True):
        span = f"{first}:{first + len(line)}"
        first += len(line) + 2  # the line, its comma and its newline
        for group in triggers_of(entry):
            # Pieces hold letters and digits only: nothing to escape in a JSON string.
            key, rest = (group[0], group[1:]) if group else (ANY_CALL, [])
            groups.append(" ".join([key, span, *rest]))
            keys[key] = None
    lines = [
        header_line(signature, memory_hex),
        _KEYS_START + " ".join(keys).encode("utf-8") + b'",',
        _TRIGGERS_START + "".join(f"|{group}" for group in groups).encode("utf-8") + b'|",',
        _ENTRIES_LINE,
        *([b",\n".join(body)] if body else []),
        _END_LINE,
    ]
    return b"\n".join(lines) + b"\n"


def rebuild(
    state_dir: str,
    signature: list[int],
    log: Callable[[str], None] | None,
    project_dir: str = "",
) -> IndexFile:
    """The index built from the live records now (and the model's own auto memories of
    ``project_dir``), saved when the log did not change meanwhile and the state folder
    takes it (``log(message)`` hears why not)."""
    from context_memory.guard.entries import entries_of

    memory_hex, memories = auto_memory(project_dir)
    text = index_text(signature, entries_of([*memories, *live_records(state_dir)]), memory_hex)
    if log_signature(state_dir) == signature:  # not written to meanwhile
        try:
            from context_memory.core.fsutil import atomic_write

            atomic_write(index_path(state_dir), text, root=state_dir)
        except OSError as exc:
            if log is not None:
                log(f"guard index not saved: {exc}")
    built = parse_index(text, signature)
    if built is None:  # cannot happen: index_text writes what parse_index reads
        raise ValueError("the guard index just built does not parse")
    return built


def current_index(
    state_dir: str, log: Callable[[str], None] | None = None, project_dir: str = ""
) -> IndexFile | None:
    """The index of the log as it is now (read, else rebuilt); None when there is no log."""
    signature = log_signature(state_dir)
    if signature is None:
        return None
    return read_index(state_dir, signature) or rebuild(state_dir, signature, log, project_dir)


def entries_for_call(
    state_dir: str,
    tool_input: dict[str, Any],
    log: Callable[[str], None] | None = None,
    project_dir: str = "",
) -> list[GuardEntry]:
    """The entries that can match this call (oldest first): [] for most calls, which then
    need nothing more. ``project_dir``: whose auto-memory folder the index follows."""
    index = current_index(state_dir, log, project_dir)
    if index is None:
        return []
    try:
        call = CallPieces(tool_input)
        spans = index.triggered(call)
        if spans == []:
            return []
        entries = None if spans is None else index.entries(spans)
    finally:
        index.close()
    if entries is None:  # a damaged line: rebuild once
        signature = log_signature(state_dir)
        if signature is None:
            return []
        index = rebuild(state_dir, signature, log, project_dir)
        entries = index.entries(index.triggered(call) or [])
    return entries or []
