"""File locks from the standard library, for every lock of the package: the code on a
hook's path then works with the system's Python alone (the plugin's hooks before its
virtualenv is built, the installer run with ``python -S``), and there is one lock rule.

The same lock as filelock's UnixFileLock (``fcntl.flock`` on the lock file, polled), so
this and a filelock held by another program (an older context-memory) exclude each other
(tests/test_plugin_launcher.py checks both ways). Its ``Timeout`` is a ``TimeoutError``,
as filelock's is.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

POLL_SECONDS = 0.05


def file_lock(lock_file: str | os.PathLike[str], timeout: float = -1) -> FileLock:
    """A lock on ``lock_file`` (not taken yet); ``timeout`` -1 waits for ever."""
    return FileLock(lock_file, timeout=timeout)


class Timeout(TimeoutError):
    """The lock stayed taken for the whole timeout (filelock's Timeout is a TimeoutError)."""

    def __init__(self, lock_file: str) -> None:
        super().__init__(f"The file lock '{lock_file}' could not be acquired.")
        self.lock_file = lock_file


class FileLock:
    """``with FileLock(path, timeout=s):`` or acquire()/release(); reentrant per object."""

    def __init__(self, lock_file: str | os.PathLike[str], timeout: float = -1) -> None:
        self.lock_file = os.fspath(lock_file)
        self.timeout = timeout
        self._fd: int | None = None
        self._depth = 0

    @property
    def is_locked(self) -> bool:
        return self._fd is not None

    def acquire(
        self, timeout: float | None = None, poll_interval: float = POLL_SECONDS
    ) -> FileLock:
        import fcntl

        if self._fd is not None:
            self._depth += 1
            return self
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait if wait >= 0 else None
        fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if deadline is not None and time.monotonic() >= deadline:
                        raise Timeout(self.lock_file) from None
                    time.sleep(poll_interval)
        except BaseException:
            os.close(fd)
            raise
        self._fd, self._depth = fd, 1
        return self

    def release(self, force: bool = False) -> None:
        if self._fd is None:
            return
        self._depth = 0 if force else self._depth - 1
        if self._depth <= 0:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing drops the flock

    def __enter__(self) -> FileLock:
        return self.acquire()

    def __exit__(self, *exc_info: Any) -> None:
        self.release()
