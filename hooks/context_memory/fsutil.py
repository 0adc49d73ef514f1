"""Writes that never lose data: atomic replace for whole files, locked appends for logs.

filelock (and tempfile) are imported only when a write needs them, so hooks that merely
read stay light.
"""

from __future__ import annotations

import os

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


def append_line_locked(path: str | os.PathLike[str], line: str) -> None:
    """Append one whole line to ``path`` under its sidecar lock.

    If an earlier writer died mid-line, the file does not end with a newline; a newline
    goes first so the new record stays a whole line (the broken one stays as it was:
    readers report and skip it). A write that fails part-way (a full disk, a file-size
    limit) is cut back off, so the file never ends in half a record.
    """
    if "\n" in line.rstrip("\n"):
        raise ValueError("a record must be a single line")
    target = os.fspath(path)
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    encoded = (line.rstrip("\n") + "\n").encode("utf-8")
    with lock_for(target):
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
        finally:
            os.close(fd)
