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
file skip these too; their messages name the path and say what to do.

The read doors and the folder walk are in core/fsread.py, re-exported here under the same
names: the prompt path imports only that module (no ``os``, none of the writers below).
A review of what could escape the folder (or follow a link out of it) reads these two
files.
"""

from __future__ import annotations

import os
import stat
import time

from context_memory import TYPE_CHECKING
from context_memory.core import fsread

if TYPE_CHECKING:
    from collections.abc import Callable

    from context_memory.core.filelocks import FileLock

LOCK_TIMEOUT_SECONDS = 10.0
# Toolkit temporary files older than this are leftovers of a killed writer: removed.
STALE_TEMP_SECONDS = 3600.0
TEMP_SUFFIX = ".tmp"

# The read doors and the folder walk live in fsread (the prompt path loads only that
# module); every name stays importable from here.
_CLOEXEC = fsread._CLOEXEC
_DIR_FLAGS = fsread._DIR_FLAGS
_DIRECTORY = fsread._DIRECTORY
_NOFOLLOW = fsread._NOFOLLOW
_NONBLOCK = fsread._NONBLOCK
TooLargeError = fsread.TooLargeError
UnsafePathError = fsread.UnsafePathError
_components = fsread._components
_is_link = fsread._is_link
_kind = fsread._kind
_open_in = fsread._open_in
_unsafe = fsread._unsafe
check_no_links = fsread.check_no_links
is_regular_file = fsread.is_regular_file
list_dir = fsread.list_dir
open_dir = fsread.open_dir
open_file = fsread.open_file
open_file_at = fsread.open_file_at
read_bytes = fsread.read_bytes
read_fd_bounded = fsread.read_fd_bounded
read_text = fsread.read_text


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
    elif (
        not name.startswith(".")
        or len(middle) not in (8, 12)
        or not all(ch.isascii() and (ch.isalnum() or ch == "_") for ch in middle)
    ):
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
    still_current: Callable[[bytes | None], bool] | None = None,
) -> bool:
    """Replace ``path`` with ``data`` in one step: readers see the old file or the new one.

    ``still_current``: for a file another program may rewrite meanwhile (Claude Code's
    settings.json). Given what the file holds (None: no file), it says whether that is
    still what the new text was made from; once the temporary file is complete it is asked
    just before the rename, and where Linux's renameat2 can swap the two files it is asked
    again about the file the swap displaced, which is put back when a write slipped in
    (on a loaded machine the check and a plain rename are milliseconds apart:
    tests/setup/test_settings_safety.py). False, with nothing replaced, when it says no;
    otherwise atomic_write returns True.

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
            if still_current is None:
                os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            else:
                replaced = _replace_if_current(tmp, name, dir_fd, payload, still_current)
                try:
                    os.unlink(tmp, dir_fd=dir_fd)  # a link's second name, a displaced file
                except FileNotFoundError:
                    pass
                if not replaced:
                    return False
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=dir_fd)
            except OSError:
                pass
            raise
        clean_stale_temps(dir_fd, name)
    finally:
        os.close(dir_fd)
    return True


MAX_CHECKED_BYTES = 64 * 1024 * 1024
RENAME_EXCHANGE = 2  # linux/fs.h


def _held(name: str, dir_fd: int) -> bytes | None:
    """What the file ``name`` in ``dir_fd`` holds (None: no such file); no link followed."""
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | _NONBLOCK, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    try:
        return read_fd_bounded(fd, MAX_CHECKED_BYTES, name)
    finally:
        os.close(fd)


def _replace_if_current(
    tmp: str, name: str, dir_fd: int, payload: bytes, still_current: Callable[[bytes | None], bool]
) -> bool:
    """atomic_write's rename with its ``still_current`` check (see there)."""
    held = _held(name, dir_fd)
    if not still_current(held):
        return False
    if held is None:
        try:
            os.link(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)  # fails if it appeared
        except FileExistsError:
            return False
        return True
    if not _exchange(tmp, name, dir_fd):
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        return True
    # Swapped: ``tmp`` holds the file we displaced. If a write slipped in between the check
    # and the swap, it is that write: put it back and let the caller redo its edit.
    if still_current(_held(tmp, dir_fd)):
        return True
    _exchange(tmp, name, dir_fd)
    if _held(tmp, dir_fd) != payload:
        _exchange(tmp, name, dir_fd)  # yet another write meanwhile: the newest goes back
    return False


def _exchange(first: str, second: str, dir_fd: int) -> bool:
    """Swap two names of ``dir_fd`` atomically (Linux renameat2 RENAME_EXCHANGE): the file
    a rename would displace is kept. False where the system or file system cannot."""
    try:
        import ctypes

        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (ImportError, OSError, AttributeError):
        return False
    renameat2.argtypes = [
        ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint
    ]  # fmt: skip
    done = renameat2(dir_fd, os.fsencode(first), dir_fd, os.fsencode(second), RENAME_EXCHANGE)
    if done == 0:
        return True
    import errno

    error = ctypes.get_errno()
    if error in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EPERM):
        return False
    raise OSError(error, os.strerror(error), second)


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
    """A FileLock on the sidecar ``<path>.lock`` (checked by prepare_lock_file first):
    the standard library's, which filelock's excludes too (core/filelocks.py)."""
    from context_memory.core.filelocks import file_lock

    return file_lock(prepare_lock_file(os.fspath(path) + ".lock", root=root), timeout)


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
