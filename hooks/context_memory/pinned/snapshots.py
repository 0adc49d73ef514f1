"""What the digest held at each compaction: the PreCompact hook snapshots the pinned ids
of the session, and the audit counts a decision the digest carried as present.
"""

from __future__ import annotations

import json
import os
import time

from context_memory import TYPE_CHECKING
from context_memory.core.state import PINNED_SNAPSHOT_FILE
from context_memory.pinned.store import (
    CLAUDE_MD,
    IMPORT_LINE,
    MAX_SMALL_FILE_BYTES,
    digest_path,
    generation_of,
    index_path,
    read_bounded,
)

if TYPE_CHECKING:
    from typing import Any


# The PreCompact hook keeps this many snapshots per session; the audit takes the newest
# one taken before the compaction, if it is no older than SNAPSHOT_MAX_AGE (a summarisation
# takes minutes at most).
SNAPSHOTS_KEPT = 10
SNAPSHOT_MAX_AGE = 1800.0
SNAPSHOT_CLOCK_SLACK = 5.0
# --------------------------------------------------------------------------- compactions


def _claude_md_imports(project_dir: str) -> bool:
    raw = read_bounded(os.path.join(project_dir, CLAUDE_MD), MAX_SMALL_FILE_BYTES)
    if raw is None:
        return False
    text = raw.decode("utf-8", "replace").lstrip("\ufeff")
    return any(line.strip() == IMPORT_LINE for line in text.splitlines())


def read_snapshots(session_folder: str) -> list[dict[str, Any]]:
    raw = read_bounded(os.path.join(session_folder, PINNED_SNAPSHOT_FILE), MAX_SMALL_FILE_BYTES)
    if raw is None:
        return []
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return []
    snapshots = data.get("snapshots") if isinstance(data, dict) else None
    return [s for s in snapshots if isinstance(s, dict)] if isinstance(snapshots, list) else []


def index_ids(state_dir: str) -> list[str]:
    """The record ids pinned-index.json lists (none when it is missing or unreadable)."""
    raw = read_bounded(index_path(state_dir), MAX_SMALL_FILE_BYTES)
    try:
        index = json.loads(raw.decode("utf-8")) if raw is not None else None
    except (UnicodeDecodeError, ValueError):
        return []
    ids = index.get("ids") if isinstance(index, dict) else None
    return [i for i in ids if isinstance(i, str)] if isinstance(ids, list) else []


def digest_ids_now(state_dir: str, project_dir: str) -> list[str] | None:
    """The record ids the client sends with every request right now: the index's ids when
    pinned.md exists, the index describes this very file, and CLAUDE.md imports it. None
    when the digest does not reach the model (or cannot be told)."""
    text = read_bounded(digest_path(state_dir), MAX_SMALL_FILE_BYTES)
    raw_index = read_bounded(index_path(state_dir), MAX_SMALL_FILE_BYTES)
    if text is None or raw_index is None or not _claude_md_imports(project_dir):
        return None
    try:
        index = json.loads(raw_index.decode("utf-8"))
        digest_text = text.decode("utf-8")
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(index, dict) or index.get("generation") != generation_of(digest_text):
        return None  # a rebuild was interrupted between the two writes
    ids = index.get("ids")
    return [i for i in ids if isinstance(i, str)] if isinstance(ids, list) else None


def snapshot_for_compaction(
    state_dir: str, session_folder: str, project_dir: str, trigger: str, now: float | None = None
) -> list[str] | None:
    """PreCompact: note in the session's folder which records the digest holds now.

    Written when the project uses the digest, or once did (a snapshot with no ids then
    tells the audit that this compaction had none). Returns the ids noted.
    """
    from context_memory.core.fsutil import atomic_write

    path = os.path.join(session_folder, PINNED_SNAPSHOT_FILE)
    if not os.path.lexists(digest_path(state_dir)) and not os.path.lexists(path):
        return None
    ids = digest_ids_now(state_dir, project_dir)
    stamp = time.time() if now is None else now
    entry = {
        "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp)),
        "epoch": stamp,
        "trigger": trigger,
        "active": ids is not None,
        "ids": ids or [],
    }
    snapshots = ([*read_snapshots(session_folder), entry])[-SNAPSHOTS_KEPT:]
    atomic_write(path, json.dumps({"version": 1, "snapshots": snapshots}, indent=2) + "\n")
    return ids or []


def ids_in_digest_at(session_folder: str, when: float) -> set[str]:
    """The record ids the digest held at a compaction at ``when`` (epoch seconds): those of
    the newest snapshot taken before it, if recent enough; else none."""
    best: dict[str, Any] | None = None
    for snapshot in read_snapshots(session_folder):
        epoch = snapshot.get("epoch")
        if not isinstance(epoch, (int, float)):
            continue
        if not (when - SNAPSHOT_MAX_AGE <= epoch <= when + SNAPSHOT_CLOCK_SLACK):
            continue
        if best is None or epoch >= best["epoch"]:
            best = snapshot
    if best is None:
        return set()
    ids = best.get("ids")
    return {i for i in ids if isinstance(i, str)} if isinstance(ids, list) else set()
