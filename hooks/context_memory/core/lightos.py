"""The few ``os`` and ``os.path`` calls the prompt path makes, without importing ``os``.

``import os`` loads ``_collections_abc``, ``stat``, ``posixpath`` and ``genericpath``:
about 2 ms of CPU, an eighth of ``python -c pass``, in an interpreter started with ``-I -S``
(the installed launchers), where nothing else has imported them. The functions ``os``
wraps are in the built-in ``posix`` module, already loaded; the path helpers below are
``posixpath``'s, for ``str`` paths. Rare branches (``realpath``, a home folder without
``HOME``) import ``os`` when they run.

The environment: ``environ()`` is ``os.environ`` once something imported ``os`` (tests
that set variables in-process, and any later change the process makes), else the
environment the process started with, decoded as ``os`` decodes it.

POSIX only, as the rest of the toolkit (fcntl locks, O_NOFOLLOW): elsewhere ``posix`` is
missing and ``os`` stands in for it, which has all the names used here.
"""

from __future__ import annotations

import sys

try:
    import posix as _os
except ImportError:  # pragma: no cover - not POSIX
    import os as _os  # type: ignore[no-redef]

from context_memory import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

O_RDONLY: int = _os.O_RDONLY
O_WRONLY: int = _os.O_WRONLY
O_CREAT: int = _os.O_CREAT
O_APPEND: int = _os.O_APPEND
O_CLOEXEC: int = getattr(_os, "O_CLOEXEC", 0)
O_NOFOLLOW: int = getattr(_os, "O_NOFOLLOW", 0)
O_NONBLOCK: int = getattr(_os, "O_NONBLOCK", 0)
O_DIRECTORY: int = getattr(_os, "O_DIRECTORY", 0)

open = _os.open
close = _os.close
read = _os.read
write = _os.write
fstat = _os.fstat
lstat = _os.lstat
unlink = _os.unlink
getcwd = _os.getcwd
fspath = _os.fspath
stat = _os.stat
mkdir = _os.mkdir
listdir = _os.listdir

sep = "/"
devnull = "/dev/null"

if hasattr(_os, "pread"):
    pread = _os.pread
else:  # pragma: no cover - not POSIX: the same read, through the file offset

    def pread(fd: int, length: int, offset: int, /) -> bytes:
        _os.lseek(fd, offset, 0)
        return _os.read(fd, length)


# File types (stat.S_IFMT and friends; ``stat`` is one more import).
_S_IFMT = 0o170000
_S_IFDIR = 0o040000
_S_IFREG = 0o100000
_S_IFLNK = 0o120000


def S_ISDIR(mode: int) -> bool:
    return mode & _S_IFMT == _S_IFDIR


def S_ISREG(mode: int) -> bool:
    return mode & _S_IFMT == _S_IFREG


def S_ISLNK(mode: int) -> bool:
    return mode & _S_IFMT == _S_IFLNK


_started_environ: dict[str, str] | None = None


def environ() -> Mapping[str, str]:
    """``os.environ`` when ``os`` is loaded, else the process's starting environment."""
    global _started_environ
    loaded = sys.modules.get("os")
    if loaded is not None:
        current: Mapping[str, str] = loaded.environ
        return current
    if _started_environ is None:
        encoding = sys.getfilesystemencoding()
        _started_environ = {
            key.decode(encoding, "surrogateescape"): value.decode(encoding, "surrogateescape")
            for key, value in _os.environ.items()
        }
    return _started_environ


def getenv(name: str) -> str | None:
    return environ().get(name)


# posixpath's functions, for str paths.


def join(a: str, *p: str) -> str:
    path = a
    for b in p:
        if b.startswith(sep):
            path = b
        elif not path or path.endswith(sep):
            path += b
        else:
            path += sep + b
    return path


def basename(p: str) -> str:
    return p[p.rfind(sep) + 1 :]


def dirname(p: str) -> str:
    i = p.rfind(sep) + 1
    head = p[:i]
    if head and head != sep * len(head):
        head = head.rstrip(sep)
    return head


def isabs(s: str) -> bool:
    return s.startswith(sep)


def normpath(path: str) -> str:
    if not path:
        return "."
    initial_slashes = 2 if path.startswith("//") and not path.startswith("///") else 0
    if not initial_slashes and path.startswith(sep):
        initial_slashes = 1
    new_comps: list[str] = []
    for comp in path.split(sep):
        if comp in ("", "."):
            continue
        if (
            comp != ".."
            or (not initial_slashes and not new_comps)
            or (new_comps and new_comps[-1] == "..")
        ):
            new_comps.append(comp)
        elif new_comps:
            new_comps.pop()
    path = sep * initial_slashes + sep.join(new_comps)
    return path or "."


def abspath(path: str) -> str:
    path = fspath(path)
    if not isabs(path):
        path = join(getcwd(), path)
    return normpath(path)


def expanduser(path: str) -> str:
    """``~`` and ``~/...`` from HOME, as os.path.expanduser; the rest through it."""
    home = getenv("HOME")
    if home is None or not (path == "~" or path.startswith("~/")):
        import os.path

        return os.path.expanduser(path)
    home = home.rstrip(sep)
    return (home + path[1:]) or sep


def realpath(path: str) -> str:
    import os.path

    return os.path.realpath(path)


def _mode(path: str, *, follow: bool = True) -> int | None:
    """The ``st_mode`` of ``path`` (of a link itself unless ``follow``); None where there is
    nothing to stat or the path is unusable (a NUL in it)."""
    try:
        return (_os.stat(path) if follow else _os.lstat(path)).st_mode
    except (OSError, ValueError):
        return None


def exists(path: str) -> bool:
    return _mode(path) is not None


def lexists(path: str) -> bool:
    return _mode(path, follow=False) is not None


def isdir(path: str) -> bool:
    mode = _mode(path)
    return mode is not None and S_ISDIR(mode)


def isfile(path: str) -> bool:
    mode = _mode(path)
    return mode is not None and S_ISREG(mode)


def islink(path: str) -> bool:
    mode = _mode(path, follow=False)
    return mode is not None and S_ISLNK(mode)


def read_regular(path: str, limit: int) -> bytes | None:
    """The bytes of ``path`` when it is a regular file (no link followed, no FIFO waited on)
    of at most ``limit`` bytes; None otherwise, or on any error. The prompt path's small
    state files (the session registry's entries, ctx-guard's index)."""
    try:
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    except OSError:
        return None
    try:
        info = fstat(fd)
        if not S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        data = read(fd, limit + 1)
    except OSError:
        return None
    finally:
        close(fd)
    return data if len(data) <= limit else None
