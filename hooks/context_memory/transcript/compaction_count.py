"""How many compactions a session had, without re-reading a whole transcript every time.

Counting needs every byte of the file once. Transcripts only grow, so the count and the
offset it reached are cached per file (``$CTX_CACHE_DIR``, else
``${XDG_CACHE_HOME:-~/.cache}/context-memory``) and the next call reads only what was
appended. A cache that does not match the file (another inode, a shorter file, other
bytes before the offset) is ignored and rebuilt.
"""

from __future__ import annotations

import os
import zlib

from context_memory.core import lightjson
from context_memory.core.fsutil import atomic_write
from context_memory.core.session_registry import cache_dir as registry_cache_dir
from context_memory.transcript.reader import count_boundaries

_CHECK_BYTES = 64


def cache_dir() -> str:
    return registry_cache_dir()


def _cache_file(real_path: str) -> str:
    # A file name, not a security boundary: the record also holds the path and is ignored
    # when it names another file. zlib is built in; hashlib costs an import.
    raw = real_path.encode("utf-8", "surrogateescape")
    key = f"{zlib.crc32(raw):08x}{zlib.adler32(raw):08x}"
    return os.path.join(cache_dir(), "compactions", key + ".json")


def _check_bytes(path: str, offset: int) -> str:
    with open(path, "rb") as handle:
        handle.seek(max(0, offset - _CHECK_BYTES))
        return handle.read(min(offset, _CHECK_BYTES)).hex()


def count_compactions(path: str | os.PathLike[str], *, use_cache: bool = True) -> int:
    """compact_boundary rows in the whole transcript (cached incrementally)."""
    real = os.path.realpath(os.fspath(path))
    stat = os.stat(real)
    cache_path = _cache_file(real)
    start, base_count = 0, 0
    if use_cache:
        try:
            with open(cache_path, encoding="utf-8") as handle:
                cached = lightjson.loads(handle.read())
            offset = int(cached["offset"])
            if (
                cached.get("path") == real
                and cached.get("dev") == stat.st_dev
                and cached.get("ino") == stat.st_ino
                and offset <= stat.st_size
                and cached.get("check") == _check_bytes(real, offset)
            ):
                # Cached offsets sit just after a newline, so no match straddles them.
                start, base_count = offset, int(cached["count"])
        except (OSError, ValueError, KeyError, TypeError):
            start, base_count = 0, 0
    added, end, at_line_end = count_boundaries(real, start)
    total = base_count + added
    # A file that does not end with a newline is mid-write: count it, cache nothing.
    if use_cache and end != start and at_line_end:
        record = {
            "path": real,
            "dev": stat.st_dev,
            "ino": stat.st_ino,
            "offset": end,
            "count": total,
            "check": _check_bytes(real, end),
        }
        try:
            atomic_write(cache_path, lightjson.dumps(record))
        except OSError:
            pass  # a cache that cannot be written only costs time next run
    return total
