"""The read doors into the state folder, and the folder walk every door takes: no link
followed out of it (fsutil's module docstring says how). fsutil re-exports every name here,
and its writers use them.

Apart from fsutil so that the prompt path reads its few files without fsutil's writers,
and without ``os`` (core/lightos.py): a hook that only reads loads this small module.
"""

from __future__ import annotations

import errno

from context_memory.core import lightos as _os

TYPE_CHECKING = False  # typing costs an import on the prompt path; mypy still reads the block
if TYPE_CHECKING:
    from os import PathLike as _PathLike

_CLOEXEC = _os.O_CLOEXEC
_NOFOLLOW = _os.O_NOFOLLOW
_NONBLOCK = _os.O_NONBLOCK
_DIRECTORY = _os.O_DIRECTORY
_DIR_FLAGS = _os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC


class UnsafePathError(OSError):
    """A path in the state folder that is a symbolic link, a FIFO, a device or a folder
    where a file belongs: not followed, not opened."""


class TooLargeError(OSError):
    """A file in the state folder bigger than its read bound."""


def _kind(mode: int) -> str:
    import stat  # an error message's: never on a common run

    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISREG(mode):
        return "a file where a folder belongs"
    return "not a regular file"


def _unsafe(path: str, what: str) -> UnsafePathError:
    return UnsafePathError(
        errno.ELOOP if what == "a symbolic link" else errno.EINVAL,
        f"{what}: not followed (the state folder holds regular files and folders only; "
        "replace it with a real one or remove it)",
        path,
    )


def _is_link(path: str, name: str, dir_fd: int | None) -> bool:
    try:
        return _os.S_ISLNK(_os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _components(root: str, folder: str) -> list[str]:
    """The names from ``root`` down to ``folder`` (both made absolute), as os.path.relpath
    gives them; UnsafePathError when ``folder`` is not ``root`` or below it."""
    start, target = _os.abspath(root), _os.abspath(folder)
    if target == start:
        return []
    prefix = start if start.endswith(_os.sep) else start + _os.sep
    if not target.startswith(prefix):
        raise UnsafePathError(errno.EINVAL, "outside the state folder " + root, folder)
    return target[len(prefix) :].split(_os.sep)


def open_dir(folder: str, *, root: str, create: bool = False) -> int:
    """A descriptor of ``folder``, every component below ``root`` opened without following
    a link (``create``: missing folders are made). ``root`` itself is opened as it is.
    Raises UnsafePathError for a link or a file on the way, OSError otherwise."""
    if create:
        try:
            fd = _os.open(root, _os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        except FileNotFoundError:
            import os  # writing: off the prompt path's common runs

            os.makedirs(root, exist_ok=True)
            fd = _os.open(root, _os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    else:
        fd = _os.open(root, _os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    here = root
    try:
        for part in _components(root, folder):
            here = _os.join(here, part)
            try:
                child = _os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    _os.mkdir(part, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass
                child = _os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    info = _os.stat(part, dir_fd=fd, follow_symlinks=False)
                    raise _unsafe(here, _kind(info.st_mode)) from None
                raise
            _os.close(fd)
            fd = child
    except BaseException:
        _os.close(fd)
        raise
    return fd


def _open_in(dir_fd: int | None, name: str, path: str, flags: int, mode: int) -> int:
    """Open ``name`` (in ``dir_fd``, else the path as given) without following a link or
    blocking on a FIFO; the result is a regular file or UnsafePathError is raised."""
    try:
        fd = _os.open(name, flags | _NOFOLLOW | _NONBLOCK | _CLOEXEC, mode, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP or (
            exc.errno == errno.ENXIO and not _is_link(path, name, dir_fd)
        ):
            what = "a symbolic link" if exc.errno == errno.ELOOP else "a FIFO"
            raise _unsafe(path, what) from None
        if exc.errno == errno.EISDIR:
            raise _unsafe(path, "a folder") from None
        raise
    try:
        info = _os.fstat(fd)
        if not _os.S_ISREG(info.st_mode):
            raise _unsafe(path, _kind(info.st_mode))
    except BaseException:
        _os.close(fd)
        raise
    return fd


def open_file(
    path: str | _PathLike[str],
    flags: int = _os.O_RDONLY,
    *,
    root: str | None = None,
    mode: int = 0o644,
    create_dirs: bool = False,
) -> int:
    """A descriptor of the regular file ``path`` (see the module docstring). With ``root``,
    the folders between ``root`` and the file are checked too (``create_dirs``: made)."""
    target = _os.fspath(path)
    if root is None:
        if create_dirs:
            import os  # writing: off the prompt path's common runs

            os.makedirs(_os.dirname(_os.abspath(target)), exist_ok=True)
        return _open_in(None, target, target, flags, mode)
    dir_fd = open_dir(_os.dirname(_os.abspath(target)), root=root, create=create_dirs)
    try:
        return _open_in(dir_fd, _os.basename(target), target, flags, mode)
    finally:
        _os.close(dir_fd)


def read_fd_bounded(fd: int, limit: int, path: str) -> bytes:
    """All of ``fd`` when it holds at most ``limit`` bytes, else TooLargeError."""
    chunks = []
    total = 0
    while True:
        chunk = _os.read(fd, min(1 << 20, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise TooLargeError(
                errno.EFBIG,
                f"larger than {limit} bytes: skipped (not a file the toolkit wrote)",
                path,
            )
    return b"".join(chunks)


def read_bytes(path: str | _PathLike[str], limit: int, *, root: str | None = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (else TooLargeError)."""
    fd = open_file(path, root=root)
    try:
        return read_fd_bounded(fd, limit, _os.fspath(path))
    finally:
        _os.close(fd)


def read_text(path: str | _PathLike[str], limit: int, *, root: str | None = None) -> str:
    """read_bytes decoded as UTF-8 (a leading byte-order mark dropped, bad bytes replaced)."""
    return read_bytes(path, limit, root=root).decode("utf-8-sig", errors="replace")


def list_dir(folder: str | _PathLike[str], *, root: str) -> list[str]:
    """The names in ``folder`` (no link followed from ``root`` down); [] when it is missing.
    Raises UnsafePathError when it or a folder above it (below ``root``) is not a folder."""
    target = _os.fspath(folder)
    try:
        fd = open_dir(target, root=root)
    except FileNotFoundError:
        return []
    try:
        return _os.listdir(fd)
    finally:
        _os.close(fd)


def is_regular_file(path: str | _PathLike[str]) -> bool:
    """Whether ``path`` itself (not what a link points to) is a regular file."""
    try:
        return _os.S_ISREG(_os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def check_no_links(root: str, path: str) -> str:
    """Return ``path`` unless a component below ``root`` is a link or a non-folder on the way
    (missing ones are fine); raises UnsafePathError. Cheap: one lstat per component."""
    here = root
    for part in _components(root, path):
        here = _os.join(here, part)
        try:
            mode = _os.lstat(here).st_mode
        except FileNotFoundError:
            return path
        if not _os.S_ISDIR(mode):
            raise _unsafe(here, _kind(mode))
    return path
