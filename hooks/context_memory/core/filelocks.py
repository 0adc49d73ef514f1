"""File locks, one rule for every lock of the package (``file_lock``).

A program that has loaded filelock (the by-hand commands do: commands/common.py) locks
with it: portable, the design card's choice. A hook does not load it: filelock's import
loads inspect and typing, several times a hook's budget (docs/benchmarks.md, "Cost
of the hooks and commands"), and the plugin's hooks before its virtualenv is built
and the installer run with ``python -S`` have no filelock at all. Those lock with the
standard library's ``fcntl.flock`` here: the same lock as filelock's UnixFileLock (the lock
file flocked, polled), so the two exclude each other (tests/setup/test_plugin_launcher.py checks
both ways). Native Windows, where only filelock would lock, is refused by the installer
(setup/platforms.py). Either lock's timeout is a ``TimeoutError``.
"""

from __future__ import annotations

import os
import sys
import time

from context_memory import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

POLL_SECONDS = 0.05


def file_lock(lock_file: str | os.PathLike[str], timeout: float = -1) -> FileLock:
    """A lock on ``lock_file`` (not taken yet); ``timeout`` -1 waits for ever. filelock's
    when this program has loaded it, else the standard library's (see above)."""
    return FileLock(lock_file, timeout=timeout, portable="filelock" in sys.modules)


class Timeout(TimeoutError):
    """The lock stayed taken for the whole timeout (filelock's Timeout is a TimeoutError)."""

    def __init__(self, lock_file: str) -> None:
        super().__init__(f"The file lock '{lock_file}' could not be acquired.")
        self.lock_file = lock_file


class FileLock:
    """``with FileLock(path, timeout=s):`` or acquire()/release(); reentrant per object.
    ``portable``: filelock's lock does the work (it must be importable)."""

    def __init__(
        self, lock_file: str | os.PathLike[str], timeout: float = -1, *, portable: bool = False
    ) -> None:
        self.lock_file = os.fspath(lock_file)
        self.timeout = timeout
        self._fd: int | None = None
        self._depth = 0
        self._portable: Any = None
        if portable:
            import filelock

            self._portable = filelock.FileLock(self.lock_file, timeout=timeout)

    @property
    def is_locked(self) -> bool:
        if self._portable is not None:
            return bool(self._portable.is_locked)
        return self._fd is not None

    def acquire(
        self, timeout: float | None = None, poll_interval: float = POLL_SECONDS
    ) -> FileLock:
        if self._portable is not None:
            import filelock

            try:
                self._portable.acquire(timeout=timeout, poll_interval=poll_interval)
            except filelock.Timeout:
                raise Timeout(self.lock_file) from None
            return self
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
        if self._portable is not None:
            self._portable.release(force=force)
            return
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
