"""The only doors into the state folder: reads and writes that follow no link out of it.

The state folder may be committed to git (git stores symbolic links) or edited by hand, so
what it holds is untrusted input. Every file the toolkit reads or writes there goes
through this module:

- below the state folder (``root``), no component is followed if it is a symbolic link:
  folders are opened one by one with O_NOFOLLOW relative to their parent (openat), so a
  ``sessions`` link pointing elsewhere is refused, not written through;
- the file itself is opened with O_NOFOLLOW and O_NONBLOCK (a FIFO cannot block the
  open) and must be a regular file (fstat), else UnsafePathError;
- every read has a size bound (TooLargeError past it);
- whole-file writes go through a temporary file in the same folder and one rename;
  appends are locked; lock files are opened the same way, never truncated through a link.

UnsafePathError and TooLargeError are OSErrors, so callers that already skip an unreadable
file skip these too; their messages name the path and say what to do. Only ``os`` is
imported at load time: hooks on the prompt path use this module.

Size: over 450 lines on purpose: every door into the state folder is in this one module,
so a review of what could escape the folder (or follow a link out of it) reads one file.
"""

from __future__ import annotations

import errno
import os
import stat
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from filelock import FileLock

LOCK_TIMEOUT_SECONDS = 10.0
# Toolkit temporary files older than this are leftovers of a killed writer: removed.
STALE_TEMP_SECONDS = 3600.0
TEMP_SUFFIX = ".tmp"

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_DIR_FLAGS = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC


class UnsafePathError(OSError):
    """A path in the state folder that is a symbolic link, a FIFO, a device or a folder
    where a file belongs: not followed, not opened."""


class TooLargeError(OSError):
    """A file in the state folder bigger than its read bound."""


def _kind(mode: int) -> str:
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
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _components(root: str, folder: str) -> list[str]:
    rel = os.path.relpath(os.path.abspath(folder), os.path.abspath(root))
    if rel == os.curdir:
        return []
    parts = rel.split(os.sep)
    if os.pardir in parts:
        raise UnsafePathError(errno.EINVAL, "outside the state folder " + root, folder)
    return parts


def open_dir(folder: str, *, root: str, create: bool = False) -> int:
    """A descriptor of ``folder``, every component below ``root`` opened without following
    a link (``create``: missing folders are made). ``root`` itself is opened as it is.
    Raises UnsafePathError for a link or a file on the way, OSError otherwise."""
    if create:
        try:
            fd = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        except FileNotFoundError:
            os.makedirs(root, exist_ok=True)
            fd = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    else:
        fd = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    here = root
    try:
        for part in _components(root, folder):
            here = os.path.join(here, part)
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(part, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    info = os.stat(part, dir_fd=fd, follow_symlinks=False)
                    raise _unsafe(here, _kind(info.st_mode)) from None
                raise
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_in(dir_fd: int | None, name: str, path: str, flags: int, mode: int) -> int:
    """Open ``name`` (in ``dir_fd``, else the path as given) without following a link or
    blocking on a FIFO; the result is a regular file or UnsafePathError is raised."""
    try:
        fd = os.open(name, flags | _NOFOLLOW | _NONBLOCK | _CLOEXEC, mode, dir_fd=dir_fd)
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
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _unsafe(path, _kind(info.st_mode))
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_file(
    path: str | os.PathLike[str],
    flags: int = os.O_RDONLY,
    *,
    root: str | None = None,
    mode: int = 0o644,
    create_dirs: bool = False,
) -> int:
    """A descriptor of the regular file ``path`` (see the module docstring). With ``root``,
    the folders between ``root`` and the file are checked too (``create_dirs``: made)."""
    target = os.fspath(path)
    if root is None:
        if create_dirs:
            os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
        return _open_in(None, target, target, flags, mode)
    dir_fd = open_dir(os.path.dirname(os.path.abspath(target)), root=root, create=create_dirs)
    try:
        return _open_in(dir_fd, os.path.basename(target), target, flags, mode)
    finally:
        os.close(dir_fd)


def read_fd_bounded(fd: int, limit: int, path: str) -> bytes:
    """All of ``fd`` when it holds at most ``limit`` bytes, else TooLargeError."""
    chunks = []
    total = 0
    while True:
        chunk = os.read(fd, min(1 << 20, limit + 1 - total))
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


def read_bytes(path: str | os.PathLike[str], limit: int, *, root: str | None = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (else TooLargeError)."""
    fd = open_file(path, root=root)
    try:
        return read_fd_bounded(fd, limit, os.fspath(path))
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], limit: int, *, root: str | None = None) -> str:
    """read_bytes decoded as UTF-8 (a leading byte-order mark dropped, bad bytes replaced)."""
    return read_bytes(path, limit, root=root).decode("utf-8-sig", errors="replace")


def list_dir(folder: str | os.PathLike[str], *, root: str) -> list[str]:
    """The names in ``folder`` (no link followed from ``root`` down); [] when it is missing.
    Raises UnsafePathError when it or a folder above it (below ``root``) is not a folder."""
    target = os.fspath(folder)
    try:
        fd = open_dir(target, root=root)
    except FileNotFoundError:
        return []
    try:
        return os.listdir(fd)
    finally:
        os.close(fd)


def is_regular_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` itself (not what a link points to) is a regular file."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def check_no_links(root: str, path: str) -> str:
    """Return ``path`` unless a component below ``root`` is a link or a non-folder on the way
    (missing ones are fine); raises UnsafePathError. Cheap: one lstat per component."""
    here = root
    for part in _components(root, path):
        here = os.path.join(here, part)
        try:
            mode = os.lstat(here).st_mode
        except FileNotFoundError:
            return path
        if not stat.S_ISDIR(mode):
            raise _unsafe(here, _kind(mode))
    return path


def make_dirs(folder: str, *, root: str) -> None:
    """``os.makedirs`` that makes nothing through a link below ``root``."""
    os.close(open_dir(folder, root=root, create=True))


def touch(path: str | os.PathLike[str], *, root: str | None = None) -> None:
    """Create ``path`` if missing (a mark file); its folders are made, no link followed."""
    os.close(open_file(path, os.O_WRONLY | os.O_CREAT, root=root, create_dirs=True))


def remove(path: str | os.PathLike[str]) -> None:
    """Unlink ``path`` if present (a link is removed itself, never its target)."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def temp_name(name: str) -> str:
    """The name of a toolkit temporary file for ``name``: ``.<name>.<12 hex digits>.tmp``
    (is_toolkit_temp knows it, so what a killed writer left is swept)."""
    return f".{name}.{os.urandom(6).hex()}{TEMP_SUFFIX}"


def is_toolkit_temp(name: str, target_name: str | None = None) -> bool:
    """A temporary file of the toolkit: ``.<target>.<random>.tmp`` (atomic_write: 12 hex
    digits, or 8 characters from tempfile in earlier versions) or ``<target>.<pid>.tmp``
    (the counters of earlier versions)."""
    if not name.endswith(TEMP_SUFFIX):
        return False
    stem, _, middle = name[: -len(TEMP_SUFFIX)].rpartition(".")
    if not stem or not middle:
        return False
    if middle.isdigit() and middle.isascii():
        pass  # <target>.<pid>.tmp
    elif not name.startswith(".") or len(middle) not in (8, 12):
        return False
    elif not all(ch.isascii() and (ch.isalnum() or ch == "_") for ch in middle):
        return False
    else:
        stem = stem[1:]
    return target_name is None or stem == target_name


def clean_stale_temps(
    dir_fd: int, target_name: str | None = None, *, now: float | None = None
) -> list[str]:
    """Remove toolkit temporary files (of ``target_name``, else of any file) older than
    STALE_TEMP_SECONDS from the folder ``dir_fd``: what killed writers left. Returns them."""
    now = time.time() if now is None else now
    removed: list[str] = []
    try:
        names = os.listdir(dir_fd)
    except OSError:
        return removed
    for name in names:
        if not is_toolkit_temp(name, target_name):
            continue
        try:
            info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_TEMP_SECONDS:
                os.unlink(name, dir_fd=dir_fd)
                removed.append(name)
        except OSError:
            continue
    return removed


def sweep_stale_temps(root: str, *, depth: int = 4, now: float | None = None) -> list[str]:
    """clean_stale_temps in ``root`` and its folders down to ``depth`` levels (no link
    followed): what writers killed mid-write left anywhere in the state folder."""
    removed: list[str] = []
    base = os.path.abspath(root)
    for folder, dirs, _ in os.walk(base):  # os.walk follows no folder link by default
        level = 0 if folder == base else os.path.relpath(folder, base).count(os.sep) + 1
        if level >= depth:
            dirs[:] = []
        try:
            fd = open_dir(folder, root=base)
        except OSError:
            continue
        try:
            removed += [os.path.join(folder, n) for n in clean_stale_temps(fd, now=now)]
        finally:
            os.close(fd)
    return removed


def atomic_write(
    path: str | os.PathLike[str],
    data: str | bytes,
    *,
    mode: int | None = None,
    root: str | None = None,
    durable: bool = True,
) -> None:
    """Replace ``path`` with ``data`` in one step: readers see the old file or the new one.

    ``durable=False`` skips the flush to disk before the rename: for a file that may be
    lost in a crash at no cost but work done again (capture positions), where the flush
    would be most of a hook's time.

    The temporary file lives in the same folder (os.replace is atomic only within one
    file system), is created exclusively (never through a link) and flushed to disk before
    the rename; a link at ``path`` is replaced, its target untouched. With ``root`` no
    folder below it is followed if it is a link. Leftover temporary files of this target
    older than STALE_TEMP_SECONDS (a killed writer's) are removed.
    """
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    name = os.path.basename(target)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if root is None:
        os.makedirs(folder, exist_ok=True)
        dir_fd = os.open(folder, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    else:
        dir_fd = open_dir(folder, root=root, create=True)
    try:
        if mode is None:
            try:
                info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
                mode = info.st_mode & 0o7777 if stat.S_ISREG(info.st_mode) else None
            except FileNotFoundError:
                pass
            if mode is None:
                umask = os.umask(0)  # read it: the only way is to set it
                os.umask(umask)
                mode = 0o666 & ~umask
        tmp = temp_name(name)
        fd = os.open(
            tmp,
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC,
            0o600,
            dir_fd=dir_fd,
        )
        try:
            try:
                done = 0
                while done < len(payload):
                    done += os.write(fd, payload[done:])
                if durable:
                    os.fsync(fd)
                os.fchmod(fd, mode)
            finally:
                os.close(fd)
            os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=dir_fd)
            except OSError:
                pass
            raise
        clean_stale_temps(dir_fd, name)
    finally:
        os.close(dir_fd)


def prepare_lock_file(lock_path: str, *, root: str | None = None) -> str:
    """Make sure ``lock_path`` is a regular file (created if missing) before a FileLock
    opens it: some filelock releases open lock files with O_TRUNC and follow links, which
    would empty a link's target. A link, FIFO or folder there raises UnsafePathError."""
    os.close(open_file(lock_path, os.O_RDWR | os.O_CREAT, root=root, create_dirs=True))
    return lock_path


def lock_for(
    path: str | os.PathLike[str],
    timeout: float = LOCK_TIMEOUT_SECONDS,
    *,
    root: str | None = None,
) -> FileLock:
    """A FileLock on the sidecar ``<path>.lock`` (checked by prepare_lock_file first)."""
    from filelock import FileLock

    return FileLock(prepare_lock_file(os.fspath(path) + ".lock", root=root), timeout=timeout)


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
    root: str | None = None,
    settle: Callable[[], None] | None = None,
) -> None:
    """Append one whole line to ``path`` under its sidecar lock.

    If an earlier writer died mid-line, the file does not end with a newline; a newline
    goes first so the new record stays a whole line (the broken one stays as it was:
    readers report and skip it). A write that fails part-way (a full disk, a file-size
    limit) is cut back off, so the file never ends in half a record. Neither the file nor
    its lock is opened through a link or as anything but a regular file.

    Another program may replace the file by name without our lock (``git pull`` writes a
    merged ``decisions.jsonl`` as a new file). So the file is opened by name for every
    append; ``settle`` (which waits for such a writer to finish) runs before the write and
    after it, and if the name then leads to another file that lacks the line, the line is
    appended to that one too (a repeat, should both end up kept, reads once: same id).
    """
    if "\n" in line.rstrip("\n"):
        raise ValueError("a record must be a single line")
    target = os.fspath(path)
    encoded = (line.rstrip("\n") + "\n").encode("utf-8")
    with lock_for(target, root=root):
        for _ in range(APPEND_ATTEMPTS):
            if settle is not None:
                settle()  # not while git is writing it, if that can be helped
            # The file stays open until the check: a file that is still open keeps its
            # inode number, so a new file cannot reuse it and pass for the one we wrote.
            fd = _append_once(target, encoded, root)
            try:
                if settle is not None:
                    settle()
                info = os.fstat(fd)
                if _line_still_there(target, (info.st_dev, info.st_ino), encoded, root):
                    return
            finally:
                os.close(fd)
        raise OSError(
            f"{target} was replaced {APPEND_ATTEMPTS} times while a line was appended; "
            "run the command again once git (or whatever rewrites the file) is done"
        )


def _append_once(target: str, encoded: bytes, root: str | None) -> int:
    """Append ``encoded`` to the regular file now named ``target`` (no link followed);
    returns the open descriptor."""
    fd = open_file(target, os.O_RDWR | os.O_APPEND | os.O_CREAT, root=root, create_dirs=True)
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


def _line_still_there(
    target: str, written_to: tuple[int, int], encoded: bytes, root: str | None
) -> bool:
    """True when ``target`` is still the file the line went into, or holds the line as a
    whole line (a replacement that kept it). The replacement is opened like the original:
    no link followed, regular files only (UnsafePathError otherwise)."""
    try:
        fd = open_file(target, root=root)
    except FileNotFoundError:
        return False
    try:
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) == written_to:
            return True
        if info.st_size > MAX_CONFIRM_BYTES:
            return True  # too big to search: keep the line rather than risk a loop
        data = read_fd_bounded(fd, MAX_CONFIRM_BYTES, target)
    except TooLargeError:
        return True
    finally:
        os.close(fd)
    return data.startswith(encoded) or (b"\n" + encoded) in data
