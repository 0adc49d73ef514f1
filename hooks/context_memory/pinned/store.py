"""The pinned digest, ``<state>/pinned.md``: the decisions that matter most, in a file the
client sends with every request.

A project opts in with ``./install --project DIR --pin-decisions``, which adds the line
``@.working-state/pinned.md`` to DIR/CLAUDE.md. The client then sends the file's content
with every main request, including the summarisation request and the first request after
a compaction (protocol notes, section 7): what is in it cannot be lost by a compaction. It
costs its tokens on every request, so it has a hard cap (CTX_PIN_TOKENS, default 1,500,
by estimate_tokens).

What it holds, in this order: the rejections still in force with their reasons (a lost
rejection is the costliest loss: the agent proposes it again), the decisions in force,
the open risks, the plan's open items. Decisions come from the log and from the merged
record; the merge's override rule applies across both (a later entry on the same subject
replaces an earlier one), so overridden entries are left out. Pinned entries
(``ctx-decide --pin ID``) come first, then newest first. The last line says how many
entries did not fit and where the full record is.

The digest is derived: rebuilt (atomically, under a lock) by the commands that change what
it is built from (ctx-decide, ctx-plan, ctx-merge), and only where pinned.md exists (the
installer creates it). Never merged, never edited by hand, never touched by the prompt
hook. ``pinned-index.json`` next to it names the records it holds; the PreCompact hook
copies that list into the session's folder, so the audit knows which decisions reached
the model anyway.

The digest's content is digest.py; the compaction snapshots snapshots.py;
the CLAUDE.md import line claude_md.py. Standard library only: the installer imports it
with the system python.
"""

from __future__ import annotations

import hashlib
import json
import os
import time

from context_memory import TYPE_CHECKING
from context_memory.core.decisions_log import live_records
from context_memory.core.state import (
    MERGED_DECISIONS_JSON,
    MERGED_DIR,
    PINNED_FILE,
    PINNED_INDEX_FILE,
    STATE_DIRNAME,
    shown_state_path,
)
from context_memory.memory.handoff_draft import plan_open_items
from context_memory.pinned.digest import DEFAULT_CAP_TOKENS, Digest, render_digest

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


IMPORT_LINE = f"@{STATE_DIRNAME}/{PINNED_FILE}"
CLAUDE_MD = "CLAUDE.md"

CAP_ENV = "CTX_PIN_TOKENS"
MIN_CAP_TOKENS = 200
INDEX_VERSION = 1
# Bounds on what is read: the merged record of 10,000 handoffs is a few MB.
MAX_MERGED_BYTES = 64 * 1024 * 1024
MAX_SMALL_FILE_BYTES = 1024 * 1024


def cap_tokens(env: Mapping[str, str] | None = None) -> tuple[int, str | None]:
    """(the cap, a warning when CTX_PIN_TOKENS is set to something unusable)."""
    raw = (os.environ if env is None else env).get(CAP_ENV, "").strip()
    if not raw:
        return DEFAULT_CAP_TOKENS, None
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < MIN_CAP_TOKENS:
        return DEFAULT_CAP_TOKENS, (
            f"{CAP_ENV}={raw!r} is not a whole number of tokens of at least {MIN_CAP_TOKENS}; "
            f"using {DEFAULT_CAP_TOKENS:,}. Set it to {MIN_CAP_TOKENS} or more, or unset it"
        )
    return value, None


# --------------------------------------------------------------------------- files


def digest_path(state_dir: str) -> str:
    return os.path.join(state_dir, PINNED_FILE)


def index_path(state_dir: str) -> str:
    return os.path.join(state_dir, PINNED_INDEX_FILE)


def enabled(state_dir: str) -> bool:
    """Whether the project opted in: the installer created pinned.md (a regular file)."""
    path = digest_path(state_dir)
    return os.path.isfile(path) and not os.path.islink(path)


def read_bounded(path: str, limit: int) -> bytes | None:
    """The file's bytes, or None when it is missing, not a regular file, or too big."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        import stat

        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        return handle.read(limit + 1)[:limit]


def read_merged(state_dir: str) -> dict[str, Any] | None:
    """merged/decisions.json, or None when there is none or it is unreadable."""
    raw = read_bounded(os.path.join(state_dir, MERGED_DIR, MERGED_DECISIONS_JSON), MAX_MERGED_BYTES)
    if raw is None:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def shown_where(state_dir: str) -> str:
    """How the digest names the state folder: ``.working-state`` when it is the project's."""
    return shown_state_path(state_dir)


def build(state_dir: str, cap: int) -> Digest:
    """Read the log, the plan and the merged record, and render the digest."""
    pins: list[dict[str, Any]] = []
    records, _ = live_records(state_dir, pins)
    return render_digest(
        records,
        pins,
        plan_open_items(state_dir),
        read_merged(state_dir),
        cap=cap,
        where=shown_where(state_dir),
    )


def generation_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def rebuild(state_dir: str, cap: int | None = None) -> Digest:
    """Build the digest and write it: the index first, then pinned.md, each atomically,
    under pinned.md's lock (the last writer read after every append that came before it).
    Raises OSError (TimeoutError when the lock stays taken)."""
    from context_memory.core.fsutil import atomic_write

    if cap is None:
        cap = cap_tokens()[0]
    path = digest_path(state_dir)
    os.makedirs(state_dir, exist_ok=True)
    from context_memory.core.fsutil import lock_for

    # filelock's, or the same flock(2) from the standard library (the installer runs with
    # the system python): core/filelocks.py.
    with lock_for(path, root=state_dir):
        digest = build(state_dir, cap)
        index = {
            "version": INDEX_VERSION,
            "generation": generation_of(digest.text),
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "ids": digest.ids,
            "shown": digest.shown,
            "total": digest.total,
            "tokens": digest.tokens,
            "cap": digest.cap,
        }
        atomic_write(index_path(state_dir), json.dumps(index, indent=2) + "\n")
        atomic_write(path, digest.text)
    return digest


def describe(digest: Digest, shown_path: str) -> str:
    return (
        f"rebuilt {shown_path}: {digest.shown} of {digest.total} entries, "
        f"~{digest.tokens:,} tokens (cap {digest.cap:,})"
    )


def refresh(state_dir: str, show: Callable[[str], str] = str) -> list[str]:
    """After a command changed the record: rebuild the digest if the project opted in.

    Returns the lines to print (none when the project did not opt in). Never raises for
    a digest problem: the record itself was written, so the command still succeeded;
    the warning says how to recover.
    """
    if not enabled(state_dir):
        return []
    cap, warning = cap_tokens()
    lines = [f"warning: {warning}"] if warning else []
    try:
        digest = rebuild(state_dir, cap)
    except TimeoutError:
        lines.append(
            f"warning: {show(digest_path(state_dir))} stayed locked; not rebuilt. Run "
            "ctx-decide --pin-rebuild to rebuild it"
        )
        return lines
    except OSError as exc:
        lines.append(
            f"warning: {show(digest_path(state_dir))} not rebuilt: {exc.strerror or exc}. Fix "
            "that, then run ctx-decide --pin-rebuild"
        )
        return lines
    lines.append(describe(digest, show(digest_path(state_dir))))
    return lines
