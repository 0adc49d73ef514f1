"""Which project each Claude Code session works in, recorded where hooks and commands both
find it.

Hooks know the project (CLAUDE_PROJECT_DIR, the payload's cwd). Commands the agent runs
through its Bash tool know only CLAUDE_CODE_SESSION_ID, and the agent may have changed
directory. So every hook records ``<cache>/sessions/<session id>`` (one small JSON
object: the project and its state folder) and the commands read it first: they write
where that session's hooks read. The cache is ``$CTX_CACHE_DIR``, else
``${XDG_CACHE_HOME:-~/.cache}/context-memory``, outside every project. An entry is
rewritten only when it is missing or names another folder: one small read per hook.

Standard library only: this module is on the prompt path.
"""

from __future__ import annotations

from context_memory.core import lightjson, lightos
from context_memory.core.state import UnsafeNameError, validate_name

# An entry is two paths; anything bigger is not ours.
MAX_ENTRY_BYTES = 16 * 1024
# Entries untouched this long are removed when a new one is written (once per session, off
# the per-prompt path). A hook of a session still running rewrites its entry at its next
# prompt, so a long pause costs at most the commands' fallback search until then.
STALE_ENTRY_SECONDS = 30 * 24 * 3600
# At most this many folder entries looked at per clean-up: bounded work in any cache.
MAX_PRUNE_SCAN = 10_000


def cache_dir() -> str:
    """``$CTX_CACHE_DIR``, else ``${XDG_CACHE_HOME:-~/.cache}/context-memory``."""
    configured = lightos.environ().get("CTX_CACHE_DIR")
    if configured:
        return configured
    base = lightos.getenv("XDG_CACHE_HOME") or lightos.join(lightos.expanduser("~"), ".cache")
    return lightos.join(base, "context-memory")


def entry_path(session: str) -> str:
    """Where the entry of ``session`` lives; raises UnsafeNameError for an unsafe id."""
    return lightos.join(cache_dir(), "sessions", validate_name(session))


def _entry_bytes(project: str, state_dir: str) -> bytes:
    return (lightjson.dumps({"project": project, "state_dir": state_dir}) + "\n").encode(
        "utf-8", "surrogateescape"
    )


def _read_entry(path: str) -> bytes | None:
    """The entry's bytes: a regular file, not a link, at most MAX_ENTRY_BYTES; else None."""
    return lightos.read_regular(path, MAX_ENTRY_BYTES)


def remember_session(session: str | None, project: str, state_dir: str) -> None:
    """Record that ``session`` works in ``project`` (state in ``state_dir``); never raises.

    Written only when the entry is missing or different, with fsutil.atomic_write, so a
    command never reads half an entry.
    """
    if not session:
        return
    try:
        path = entry_path(session)
    except UnsafeNameError:
        return
    wanted = _entry_bytes(lightos.abspath(project), lightos.abspath(state_dir))
    if _read_entry(path) == wanted:
        return
    import os  # a write: once per session, not before every prompt

    from context_memory.core.fsutil import atomic_write

    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        atomic_write(path, wanted, mode=0o600, durable=False)  # as before: no fsync
    except OSError:
        return
    prune_stale_entries(lightos.dirname(path))


def prune_stale_entries(folder: str, now: float | None = None) -> int:
    """Remove entries (and leftover temporary files) not written for STALE_ENTRY_SECONDS:
    one file per session would otherwise pile up forever. Regular files only, no link
    followed; never raises. Returns how many were removed."""
    import os
    import time

    cutoff = (time.time() if now is None else now) - STALE_ENTRY_SECONDS
    removed = 0
    try:
        with os.scandir(folder) as entries:
            for count, entry in enumerate(entries):
                if count >= MAX_PRUNE_SCAN:
                    break
                try:
                    info = entry.stat(follow_symlinks=False)
                    if lightos.S_ISREG(info.st_mode) and info.st_mtime < cutoff:
                        lightos.unlink(entry.path)
                        removed += 1
                except OSError:
                    continue
    except OSError:
        pass
    return removed


def _usable_path(value: object) -> str | None:
    if not isinstance(value, str) or not lightos.isabs(value):
        return None
    if any(char in value for char in "\x00\n\r"):
        return None
    return lightos.normpath(value)


def recorded_location(session: str | None) -> tuple[str, str] | None:
    """(project, state folder) the hooks of ``session`` recorded, or None.

    None too when the entry is unreadable or the project folder no longer exists (the
    caller then searches as if run by hand).
    """
    if not session:
        return None
    try:
        raw = _read_entry(entry_path(session))
    except UnsafeNameError:
        return None
    if raw is None:
        return None
    try:
        data = lightjson.loads(raw.decode("utf-8", "surrogateescape"))
    except (lightjson.JSONError, RecursionError, UnicodeError):
        return None
    if not isinstance(data, dict):
        return None
    project = _usable_path(data.get("project"))
    state_dir = _usable_path(data.get("state_dir"))
    if project is None or state_dir is None or not lightos.isdir(project):
        return None
    return project, state_dir
