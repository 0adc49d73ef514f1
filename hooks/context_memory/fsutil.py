"""Writes that never lose data: atomic replace for whole files, locked appends for logs.

filelock (and tempfile) are imported only when a write needs them, so hooks that merely
read stay light.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

LOCK_TIMEOUT_SECONDS = 10.0


def atomic_write(
    path: str | os.PathLike[str], data: str | bytes, *, mode: int | None = None
) -> None:
    """Replace ``path`` with ``data`` in one step: readers see the old file or the new one.

    The temporary file lives in the same folder (os.replace is atomic only within one
    file system) and is flushed to disk before the rename.
    """
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    os.makedirs(folder, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if mode is None:
        try:
            mode = os.stat(target).st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)  # read it: the only way is to set it
            os.umask(umask)
            mode = 0o666 & ~umask
    import tempfile

    fd, tmp = tempfile.mkstemp(
        prefix="." + os.path.basename(target) + ".", suffix=".tmp", dir=folder
    )
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def lock_for(path: str | os.PathLike[str], timeout: float = LOCK_TIMEOUT_SECONDS):  # noqa: ANN201
    """A FileLock on the sidecar ``<path>.lock``."""
    from filelock import FileLock

    return FileLock(os.fspath(path) + ".lock", timeout=timeout)


def _cut_back(fd: int, size: int) -> None:
    """Drop whatever a failed append left past ``size`` (we hold the lock: nobody else wrote)."""
    try:
        if os.fstat(fd).st_size > size:
            os.ftruncate(fd, size)
    except OSError:
        pass


APPEND_ATTEMPTS = 20
MAX_CONFIRM_BYTES = 256 * 1024 * 1024


def append_line_locked(
    path: str | os.PathLike[str],
    line: str,
    *,
    settle: Callable[[], None] | None = None,
) -> None:
    """Append one whole line to ``path`` under its sidecar lock.

    If an earlier writer died mid-line, the file does not end with a newline; a newline
    goes first so the new record stays a whole line (the broken one stays as it was:
    readers report and skip it). A write that fails part-way (a full disk, a file-size
    limit) is cut back off, so the file never ends in half a record.

    Another program may replace the file by name without our lock (``git pull`` writes a
    merged ``decisions.jsonl`` as a new file). So the file is opened by name for every
    append; ``settle`` (which waits for such a writer to finish) runs before the write and
    after it, and if the name then leads to another file that lacks the line, the line is
    appended to that one too (a repeat, should both end up kept, reads once: same id).
    """
    if "\n" in line.rstrip("\n"):
        raise ValueError("a record must be a single line")
    target = os.fspath(path)
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    encoded = (line.rstrip("\n") + "\n").encode("utf-8")
    with lock_for(target):
        for _ in range(APPEND_ATTEMPTS):
            if settle is not None:
                settle()  # not while git is writing it, if that can be helped
            # The file stays open until the check: a file that is still open keeps its
            # inode number, so a new file cannot reuse it and pass for the one we wrote.
            fd = _append_once(target, encoded)
            try:
                if settle is not None:
                    settle()
                info = os.fstat(fd)
                if _line_still_there(target, (info.st_dev, info.st_ino), encoded):
                    return
            finally:
                os.close(fd)
        raise OSError(
            f"{target} was replaced {APPEND_ATTEMPTS} times while a line was appended; "
            "run the command again once git (or whatever rewrites the file) is done"
        )


def _append_once(target: str, encoded: bytes) -> int:
    """Append ``encoded`` to the file now named ``target``; returns the open descriptor."""
    fd = os.open(target, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        size = os.fstat(fd).st_size
        if size > 0 and os.pread(fd, 1, size - 1) != b"\n":
            encoded = b"\n" + encoded
        try:
            done = 0
            while done < len(encoded):  # the retry of a short write raises the reason
                written = os.write(fd, encoded[done:])
                if written <= 0:
                    raise OSError(f"short write to {target}: {done} of {len(encoded)} bytes")
                done += written
        except BaseException:
            _cut_back(fd, size)
            raise
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _line_still_there(target: str, written_to: tuple[int, int], encoded: bytes) -> bool:
    """True when ``target`` is still the file the line went into, or holds the line as a
    whole line (a replacement that kept it)."""
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return False
    if (info.st_dev, info.st_ino) == written_to:
        return True
    if info.st_size > MAX_CONFIRM_BYTES:
        return True  # too big to search: keep the line rather than risk a loop
    with open(target, "rb") as handle:
        data = handle.read(MAX_CONFIRM_BYTES)
    return data.startswith(encoded) or (b"\n" + encoded) in data
