"""The read doors into the state folder, and the folder walk every door takes: no link
followed out of it (fsutil's module docstring says how). fsutil re-exports every name here,
and its writers use them.

Apart from fsutil so that the prompt path reads its few files without fsutil's writers,
and without ``os`` (core/lightos.py): a hook that only reads loads this small module.
"""

from __future__ import annotations

import errno

from context_memory import TYPE_CHECKING
from context_memory.core import lightos

if TYPE_CHECKING:
    from os import PathLike as _PathLike

_CLOEXEC = lightos.O_CLOEXEC
_NOFOLLOW = lightos.O_NOFOLLOW
_NONBLOCK = lightos.O_NONBLOCK
_DIRECTORY = lightos.O_DIRECTORY
_DIR_FLAGS = lightos.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC


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
        return lightos.S_ISLNK(lightos.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _components(root: str, folder: str) -> list[str]:
    """The names from ``root`` down to ``folder`` (both made absolute), as os.path.relpath
    gives them; UnsafePathError when ``folder`` is not ``root`` or below it."""
    start, target = lightos.abspath(root), lightos.abspath(folder)
    if target == start:
        return []
    prefix = start if start.endswith(lightos.sep) else start + lightos.sep
    if not target.startswith(prefix):
        raise UnsafePathError(errno.EINVAL, "outside the state folder " + root, folder)
    return target[len(prefix) :].split(lightos.sep)


def open_dir(folder: str, *, root: str, create: bool = False) -> int:
    """A descriptor of ``folder``, every component below ``root`` opened without following
    a link (``create``: missing folders are made). ``root`` itself is opened as it is.
    Raises UnsafePathError for a link or a file on the way, OSError otherwise."""
    if create:
        try:
            fd = lightos.open(root, lightos.O_RDONLY | _DIRECTORY | _CLOEXEC)
        except FileNotFoundError:
            import os  # writing: off the prompt path's common runs

            os.makedirs(root, exist_ok=True)
            fd = lightos.open(root, lightos.O_RDONLY | _DIRECTORY | _CLOEXEC)
    else:
        fd = lightos.open(root, lightos.O_RDONLY | _DIRECTORY | _CLOEXEC)
    here = root
    try:
        for part in _components(root, folder):
            here = lightos.join(here, part)
            try:
                child = lightos.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    lightos.mkdir(part, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass
                child = lightos.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    info = lightos.stat(part, dir_fd=fd, follow_symlinks=False)
                    raise _unsafe(here, _kind(info.st_mode)) from None
                raise
            lightos.close(fd)
            fd = child
    except BaseException:
        lightos.close(fd)
        raise
    return fd


def _open_in(dir_fd: int | None, name: str, path: str, flags: int, mode: int) -> int:
    """Open ``name`` (in ``dir_fd``, else the path as given) without following a link or
    blocking on a FIFO; the result is a regular file or UnsafePathError is raised."""
    try:
        fd = lightos.open(name, flags | _NOFOLLOW | _NONBLOCK | _CLOEXEC, mode, dir_fd=dir_fd)
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
        info = lightos.fstat(fd)
        if not lightos.S_ISREG(info.st_mode):
            raise _unsafe(path, _kind(info.st_mode))
    except BaseException:
        lightos.close(fd)
        raise
    return fd


def open_file(
    path: str | _PathLike[str],
    flags: int = lightos.O_RDONLY,
    *,
    root: str | None = None,
    mode: int = 0o644,
    create_dirs: bool = False,
) -> int:
    """A descriptor of the regular file ``path`` (see the module docstring). With ``root``,
    the folders between ``root`` and the file are checked too (``create_dirs``: made)."""
    target = lightos.fspath(path)
    if root is None:
        if create_dirs:
            import os  # writing: off the prompt path's common runs

            os.makedirs(lightos.dirname(lightos.abspath(target)), exist_ok=True)
        return _open_in(None, target, target, flags, mode)
    dir_fd = open_dir(lightos.dirname(lightos.abspath(target)), root=root, create=create_dirs)
    try:
        return _open_in(dir_fd, lightos.basename(target), target, flags, mode)
    finally:
        lightos.close(dir_fd)


def open_file_at(dir_fd: int, name: str, path: str) -> int:
    """A read-only descriptor of the regular file ``name`` in the folder ``dir_fd`` (from
    open_dir: many files of one folder without checking the folders again each time);
    ``path`` names it in errors. Raises UnsafePathError for a link, a FIFO or a folder."""
    return _open_in(dir_fd, name, path, lightos.O_RDONLY, 0o644)


def read_fd_bounded(fd: int, limit: int, path: str) -> bytes:
    """All of ``fd`` when it holds at most ``limit`` bytes, else TooLargeError."""
    chunks = []
    total = 0
    while True:
        chunk = lightos.read(fd, min(1 << 20, limit + 1 - total))
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
        return read_fd_bounded(fd, limit, lightos.fspath(path))
    finally:
        lightos.close(fd)


def read_text(path: str | _PathLike[str], limit: int, *, root: str | None = None) -> str:
    """read_bytes decoded as UTF-8 (a leading byte-order mark dropped, bad bytes replaced)."""
    return read_bytes(path, limit, root=root).decode("utf-8-sig", errors="replace")


def list_dir(folder: str | _PathLike[str], *, root: str) -> list[str]:
    """The names in ``folder`` (no link followed from ``root`` down); [] when it is missing.
    Raises UnsafePathError when it or a folder above it (below ``root``) is not a folder."""
    target = lightos.fspath(folder)
    try:
        fd = open_dir(target, root=root)
    except FileNotFoundError:
        return []
    try:
        return lightos.listdir(fd)
    finally:
        lightos.close(fd)


def is_regular_file(path: str | _PathLike[str]) -> bool:
    """Whether ``path`` itself (not what a link points to) is a regular file."""
    try:
        return lightos.S_ISREG(lightos.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def check_no_links(root: str, path: str) -> str:
    """Return ``path`` unless a component below ``root`` is a link or a non-folder on the way
    (missing ones are fine); raises UnsafePathError. Cheap: one lstat per component."""
    here = root
    for part in _components(root, path):
        here = lightos.join(here, part)
        try:
            mode = lightos.lstat(here).st_mode
        except FileNotFoundError:
            return path
        if not lightos.S_ISDIR(mode):
            raise _unsafe(here, _kind(mode))
    return path
