"""The window size the status line was told, kept per session for the hooks and ctx-usage.

The status line's stdin is the only place where Claude Code states the context window
(``context_window.context_window_size``). ctx-statusline records it in
``<state>/sessions/<session-id>/statusline.json``; ctx-budget and ctx-usage read it back and
rank it above the model table (``window_source: statusline``), so that a new model or a
changed window needs no update of this toolkit.

The status line refreshes often: the file is rewritten (atomically) only when what it
records changes. Standard library only: ctx-budget reads it on the prompt path.
"""

from __future__ import annotations

import time

from context_memory import TYPE_CHECKING
from context_memory.core import lightjson, lightos
from context_memory.core.hookio import HookInput, as_hook_input
from context_memory.core.state import (
    STATUSLINE_FILE,
    UnsafeNameError,
    resolve_state_dir,
    session_dir,
)

if TYPE_CHECKING:
    from typing import Any

# The cached fields that matter; a change of anything else does not rewrite the file.
COMPARED_FIELDS = ("context_window_size", "model_id")
# Small enough to read whole; a bigger file is not one we wrote.
MAX_CACHE_BYTES = 64 * 1024
# How far into a transcript to look for the session's recorded cwd.
CWD_LOOKAHEAD_BYTES = 256 * 1024
# The client writes compact JSON; the ": " spelling covers re-serialised files.
_CWD_KEYS = ('"cwd":"', '"cwd": "')


def cache_path(state_dir: str, session_id: str) -> str:
    """``<state>/sessions/<session-id>/statusline.json``; raises UnsafeNameError for a bad id."""
    return lightos.join(session_dir(state_dir, session_id), STATUSLINE_FILE)


def valid_window(value: object) -> int | None:
    """A usable window size (a positive int, not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        return None
    return value


def read_cache(state_dir: str, session_id: str | None) -> dict[str, object] | None:
    """The cached record of ``session_id``, or None when there is none or it is unusable."""
    if not session_id:
        return None
    from context_memory.core.fsread import read_bytes

    try:  # no link followed, no FIFO waited on, at most MAX_CACHE_BYTES read
        raw = read_bytes(cache_path(state_dir, session_id), MAX_CACHE_BYTES, root=state_dir)
    except (OSError, UnsafeNameError):
        return None
    try:
        record = lightjson.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


def cached_window(state_dir: str, session_id: str | None) -> int | None:
    """The window the status line last reported for ``session_id``, or None."""
    record = read_cache(state_dir, session_id)
    return valid_window(record.get("context_window_size")) if record else None


def write_cache(state_dir: str, session_id: str, window: int, model_id: str | None = None) -> bool:
    """Record ``window`` for the session; True when the file was (re)written.

    Nothing is written when the cached record already says the same, so a refresh that
    changes nothing costs one small read. Raises UnsafeNameError for a bad session id and
    OSError when the folder cannot be written.
    """
    record: dict[str, object] = {
        "session_id": session_id,
        "context_window_size": window,
        "model_id": model_id,
    }
    old = read_cache(state_dir, session_id)
    if old is not None and all(old.get(key) == record[key] for key in COMPARED_FIELDS):
        return False
    record["updated"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    # fsutil.atomic_write imports tempfile; only a change pays for it.
    from context_memory.core.fsutil import atomic_write

    atomic_write(cache_path(state_dir, session_id), lightjson.dumps(record) + "\n", root=state_dir)
    return True


def window_for_hook(payload: HookInput | dict[str, Any]) -> int | None:
    """The cached window for a hook's input (its session and state folder); never raises."""
    try:
        hook = as_hook_input(payload)
        if hook.session_id is None:
            return None
        return cached_window(hook.state_dir, hook.session_id)
    except (OSError, ValueError):  # HookInputError, UnsafeNameError: no cache for it
        return None


def transcript_cwd(transcript: str) -> str | None:
    """The ``cwd`` the client recorded near the start of ``transcript``, or None."""
    from context_memory.transcript.rows import read_head

    head = read_head(transcript, CWD_LOOKAHEAD_BYTES)
    if head is None:
        return None
    text = head.decode("utf-8", errors="replace")
    found = [(text.find(key), key) for key in _CWD_KEYS]
    found = [(at, key) for at, key in found if at != -1]
    if not found:
        return None
    at, key = min(found)
    try:
        value, _ = lightjson.string_at(text, at + len(key) - 1)
    except ValueError:
        return None
    return value if lightos.isabs(value) else None


def window_for_transcript(transcript: str, cwd: str | None = None) -> int | None:
    """The cached window for the session whose transcript is ``transcript``.

    The session id is the file's stem (``<session-id>.jsonl``). The state folder is the
    one above ``cwd`` (the current directory by default), then the one of the cwd the
    transcript records, so ``ctx-usage PATH`` works from anywhere. Never raises.
    """
    stem = lightos.basename(transcript)
    session = stem.removesuffix(".jsonl")
    candidates: list[str] = []
    recorded = transcript_cwd(transcript)
    bases: list[tuple[str | None, bool]] = [(cwd, True)]
    if recorded:
        bases += [(recorded, False), (recorded, True)]
    for base, search_up in bases:
        try:
            candidates.append(resolve_state_dir(base, search_up=search_up))
        except (OSError, UnsafeNameError):  # no current directory; a symlinked state folder
            pass
    seen: set[str] = set()
    for state_dir in candidates:
        if state_dir in seen:
            continue
        seen.add(state_dir)
        window = cached_window(state_dir, session)
        if window is not None:
            return window
    return None
