"""Mirror what the user ruled out into Claude Code's own auto memory (MEMORY.md).

The client loads ``MEMORY.md`` of the project's auto-memory folder (memory/native_folder.py)
into every session's first request and again after each compaction
(docs/claude-code-protocol.md, section 10). The toolkit writes there, for each live record
the user stated (the structural tier: a rejected call with a reason, plan feedback, an
AskUserQuestion answer; and directives typed in a prompt), one file in the client's own
format and one pointer line inside a block of MEMORY.md marked as the toolkit's:

- ``ctx_feedback_<id>.md`` for a constraint or rejection, ``ctx_project_<id>.md`` for a
  decision: a frontmatter (``name``, ``description``, ``metadata.type``, and the toolkit's
  own ``metadata.source``/``metadata.record``), the rule, a ``**Why:**`` line with the
  user's reason, a ``**How to apply:**`` line;
- ``- [title](ctx_feedback_<id>.md) — hook`` lines between NATIVE_BLOCK_BEGIN and
  NATIVE_BLOCK_END (core/tables.py), within a budget of lines and characters (newest
  first) and under the client's 200-line cut of the whole file.

The model's own files and lines are never changed: only lines between the markers and files
with the toolkit's name and frontmatter are written or removed. A superseded or dropped
record leaves. A pointer line (or file) of the toolkit's that someone else removed since the
last sync (the model on the user's word, the user in ``/memory``) is a retraction: a drop
mark goes to decisions.jsonl and the record is not written back. What was last written is
kept in ``<state>/native-memory.json`` to tell.

Writes are whole-file replaces (core/fsutil.atomic_write); MEMORY.md is re-read just before
its replace and, if it changed meanwhile (the model wrote a line), the sync starts over
from the new text (a few tries), so no line written in between is lost. No link is followed
in the folder; every read is bounded. Nothing is written where auto memory is off or with
CTX_NATIVE_MEMORY=off.
"""

from __future__ import annotations

import json
import os
import stat

from context_memory import TYPE_CHECKING
from context_memory.core.decisions_log import live_records
from context_memory.core.fsutil import atomic_write, lock_for, read_bytes
from context_memory.core.state import NATIVE_MEMORY_FILE, STATE_DIRNAME, decisions_path
from context_memory.core.tables import (
    NATIVE_BLOCK_BEGIN,
    NATIVE_BLOCK_CHARS,
    NATIVE_BLOCK_END,
    NATIVE_BLOCK_LINES,
    NATIVE_CLIENT_LINES,
    NATIVE_FILE_MARK,
    NATIVE_FILE_PREFIX,
)
from context_memory.memory.decisions import append_record, make_mark_record
from context_memory.memory.native_folder import NativeLocation, native_location
from context_memory.memory.native_text import (
    file_name,
    memory_file_text,
    mirrored,
    pointer_line,
    safe_id,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from context_memory.memory.native_text import Mirrored

INDEX_FILE = "MEMORY.md"
MAX_INDEX_BYTES = 512 * 1024
MAX_MEMORY_FILE_BYTES = 64 * 1024
MAX_STATE_BYTES = 1024 * 1024
SYNC_TRIES = 4
REMOVED_TEXT = (
    f"taken out by ctx-pin --remove-auto-memory; delete {STATE_DIRNAME}/{NATIVE_MEMORY_FILE} "
    "to mirror again"
)
MAX_PROJECT_FOLDERS = 2000
# A memory folder holds a few dozen files; past this many names the rest are not looked at.
MAX_FOLDER_NAMES = 5000
RETRACT_AUTHOR = "auto memory (a line of the toolkit's was removed from MEMORY.md)"


class SyncResult:
    """What one sync did: the ids written and retracted, or why it wrote nothing."""

    __slots__ = ("folder", "retracted", "skipped", "unlisted", "written")

    def __init__(self, folder: str = "", skipped: str = "") -> None:
        self.folder = folder
        self.skipped = skipped
        self.written: list[str] = []
        self.retracted: list[str] = []
        self.unlisted = 0  # wanted records the budget left out

    def __repr__(self) -> str:
        return (
            f"SyncResult(written={self.written}, retracted={self.retracted}, "
            f"unlisted={self.unlisted}, skipped={self.skipped!r})"
        )


# -- MEMORY.md -------------------------------------------------------------------------------


class Index:
    """MEMORY.md split around the toolkit's block: the lines before and after it (the
    model's, never changed) and the block's lines (None when there is no block)."""

    __slots__ = ("after", "before", "block", "raw")

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        lines = raw.decode("utf-8", "replace").splitlines()
        self.block: list[str] | None = None
        self.before, self.after = lines, []
        if NATIVE_BLOCK_BEGIN in lines:
            start = lines.index(NATIVE_BLOCK_BEGIN)
            rest = lines[start + 1 :]
            end = rest.index(NATIVE_BLOCK_END) if NATIVE_BLOCK_END in rest else len(rest)
            self.before, self.block, self.after = lines[:start], rest[:end], rest[end + 1 :]

    def own_lines(self) -> int:
        return len(self.before) + len(self.after)

    def render(self, block: list[str]) -> str:
        """The file with ``block`` as the toolkit's lines ([]: no block at all)."""
        wrapped = [NATIVE_BLOCK_BEGIN, *block, NATIVE_BLOCK_END] if block else []
        if self.block is None:
            lines = [*self.before, *([""] if self.before and wrapped else []), *wrapped]
        elif wrapped:
            lines = [*self.before, *wrapped, *self.after]
        else:  # the block leaves, with the blank line put before it
            before = self.before
            if not self.after and before and not before[-1].strip():
                before = before[:-1]
            lines = [*before, *self.after]
        return "\n".join(lines) + "\n" if lines else ""


def ids_in_block(lines: list[str] | None) -> dict[str, str]:
    """Record id -> pointer line, for the toolkit's lines of a block."""
    found: dict[str, str] = {}
    for line in lines or []:
        start = line.find("](" + NATIVE_FILE_PREFIX)
        end = line.find(".md)", start)
        if start < 0 or end < 0:
            continue
        name = line[start + 2 : end]
        ident = name.rsplit("_", 1)[-1]
        if safe_id(ident):
            found[ident] = line
    return found


def _folder_ok(folder: str, create: bool) -> bool:
    """The folder is a real folder (created when ``create``), not a link."""
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        if not create:
            return False
        os.makedirs(folder, exist_ok=True)
        info = os.lstat(folder)
    return stat.S_ISDIR(info.st_mode)


def read_index(folder: str) -> bytes:
    try:
        return read_bytes(os.path.join(folder, INDEX_FILE), MAX_INDEX_BYTES, root=folder)
    except FileNotFoundError:
        return b""


def _is_ours(folder: str, name: str) -> bool:
    """A file the toolkit wrote: its name and its frontmatter's source say so."""
    if not name.startswith(NATIVE_FILE_PREFIX) or not name.endswith(".md"):
        return False
    try:
        head = read_bytes(os.path.join(folder, name), MAX_MEMORY_FILE_BYTES, root=folder)
    except OSError:
        return False
    return f"  source: {NATIVE_FILE_MARK}\n".encode() in head[:2048]


def memory_ids(project_dir: str, env: Mapping[str, str] | None = None) -> frozenset[str]:
    """Ids of the records whose pointer line is in the toolkit's block of MEMORY.md now:
    what the client loads by itself (the session-start pointer and the audit skip them)."""
    location = native_location(project_dir, env)
    if not location.on:
        return frozenset()
    try:
        return frozenset(ids_in_block(Index(read_index(location.folder)).block))
    except OSError:
        return frozenset()


# -- the state file --------------------------------------------------------------------------


def read_state(state_dir: str) -> dict[str, object]:
    try:
        data = json.loads(read_bytes(os.path.join(state_dir, NATIVE_MEMORY_FILE), MAX_STATE_BYTES,
                                     root=state_dir))  # fmt: skip
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _written(state: Mapping[str, object], folder: str) -> dict[str, str]:
    lines = state.get("lines")
    if state.get("folder") != folder or not isinstance(lines, dict):
        return {}
    return {k: v for k, v in lines.items() if isinstance(k, str) and isinstance(v, str)}


def _stamp(path: str) -> list[int]:
    try:
        info = os.lstat(path)
    except OSError:
        return [0, 0]
    return [info.st_size, info.st_mtime_ns]


def up_to_date(state_dir: str, location: NativeLocation) -> bool:
    """Nothing changed since the last sync: the log and MEMORY.md as they were then."""
    state = read_state(state_dir)
    return (
        state.get("folder") == location.folder
        and state.get("log") == _stamp(decisions_path(state_dir))
        and state.get("index") == _stamp(os.path.join(location.folder, INDEX_FILE))
    )


# -- the sync --------------------------------------------------------------------------------


def _budget(wanted: list[Mirrored], own_lines: int) -> list[Mirrored]:
    """The newest records whose lines fit the block's budget and the client's line cut, in
    log order."""
    room = min(NATIVE_BLOCK_LINES, NATIVE_CLIENT_LINES - own_lines - 3)
    chars = len(NATIVE_BLOCK_BEGIN) + len(NATIVE_BLOCK_END) + 2
    kept: list[Mirrored] = []
    for constraint in reversed(wanted):
        line = pointer_line(constraint)
        if len(kept) >= room or chars + len(line) + 1 > NATIVE_BLOCK_CHARS:
            break
        chars += len(line) + 1
        kept.append(constraint)
    return list(reversed(kept))


def _retract(state_dir: str, ids: list[str], session: str) -> None:
    for ident in ids:
        append_record(
            state_dir, make_mark_record("drop", ident, session=session, author=RETRACT_AUTHOR)
        )


def _remove_file(folder: str, name: str) -> None:
    if _is_ours(folder, name):
        try:
            os.unlink(os.path.join(folder, name))
        except FileNotFoundError:
            pass


def sync_native(
    state_dir: str,
    project_dir: str,
    *,
    session: str = "",
    env: Mapping[str, str] | None = None,
    force: bool = False,
) -> SyncResult:
    """Bring the project's auto memory in line with the decisions log (module docstring).
    Cheap when nothing changed since the last sync (two stats), unless ``force``."""
    location = native_location(project_dir, env)
    if not location.on:
        return SyncResult(location.folder, location.why)
    if read_state(state_dir).get("removed"):
        return SyncResult(location.folder, REMOVED_TEXT)
    if not force and up_to_date(state_dir, location):
        return SyncResult(location.folder, "up to date")
    records, _ = live_records(state_dir)
    if not mirrored(records) and not _written(read_state(state_dir), location.folder):
        return SyncResult(location.folder, "nothing to mirror")
    folder = location.folder
    if not _folder_ok(folder, create=True):
        return SyncResult(folder, f"{folder} is not a folder (a link?): nothing written")
    with lock_for(os.path.join(state_dir, NATIVE_MEMORY_FILE), root=state_dir):
        return _sync_locked(state_dir, folder, session)


def _sync_locked(state_dir: str, folder: str, session: str) -> SyncResult:
    result = SyncResult(folder)
    state = read_state(state_dir)
    previous = _written(state, folder)
    saved = state.get("files")
    previous_files = (
        {k: v for k, v in saved.items() if isinstance(v, str)} if isinstance(saved, dict) else {}
    )
    files: dict[str, str] = {}
    block: list[str] = []
    for _ in range(SYNC_TRIES):
        raw = read_index(folder)
        index = Index(raw)
        present = ids_in_block(index.block)
        names = set(os.listdir(folder)[:MAX_FOLDER_NAMES])
        gone = [
            ident
            for ident in previous
            if ident not in present or previous_files.get(ident, "") not in names
        ]
        if gone:
            _retract(state_dir, gone, session)
            result.retracted.extend(gone)
            previous = {k: v for k, v in previous.items() if k not in gone}
        records, _ = live_records(state_dir)
        wanted = mirrored(records)
        kept = _budget(wanted, index.own_lines())
        result.unlisted = len(wanted) - len(kept)
        block, files = [], {}
        for constraint in kept:
            name = file_name(constraint)
            if name in names and not _is_ours(folder, name):
                continue  # someone else's file under our name: left alone
            atomic_write(os.path.join(folder, name), memory_file_text(constraint), root=folder)
            files[constraint["id"]] = name
            block.append(pointer_line(constraint))
        text = index.render(block)
        if read_index(folder) != raw:
            continue  # MEMORY.md changed meanwhile: start over from its new text
        if (index.block is not None or block) and text.encode("utf-8") != raw:
            if text.strip():
                atomic_write(os.path.join(folder, INDEX_FILE), text, root=folder)
            else:  # it held the toolkit's block alone
                os.unlink(os.path.join(folder, INDEX_FILE))
        break
    else:
        result.skipped = "MEMORY.md kept changing; tried again at the next sync"
        return result
    ours = set(files.values())
    for name in sorted(names):
        if name.startswith(NATIVE_FILE_PREFIX) and name not in ours:
            _remove_file(folder, name)
    result.written = list(files)
    lines = {ident: line for ident, line in ids_in_block(block).items() if ident in files}
    new_state = {
        "version": 1,
        "folder": folder,
        "lines": lines,
        "files": {ident: files[ident] for ident in lines},
        "unlisted": result.unlisted,
        "log": _stamp(decisions_path(state_dir)),
        "index": _stamp(os.path.join(folder, INDEX_FILE)),
    }
    atomic_write(os.path.join(state_dir, NATIVE_MEMORY_FILE), json.dumps(new_state, indent=1),
                 root=state_dir)  # fmt: skip
    return result


def remove_native(folder: str) -> list[str]:
    """Take the toolkit's files and block out of an auto-memory folder (every uninstall):
    the model's files and lines stay as they are. Returns what was removed."""
    removed: list[str] = []
    try:
        if not _folder_ok(folder, create=False):
            return removed
        names = os.listdir(folder)[:MAX_FOLDER_NAMES]
    except OSError:
        return removed
    for name in names:
        if _is_ours(folder, name):
            _remove_file(folder, name)
            removed.append(os.path.join(folder, name))
    for _ in range(SYNC_TRIES):
        raw = read_index(folder)
        index = Index(raw)
        if index.block is None:
            break
        text = index.render([])
        if read_index(folder) != raw:
            continue
        path = os.path.join(folder, INDEX_FILE)
        if text.strip():
            atomic_write(path, text, root=folder)
        else:
            os.unlink(path)
        removed.append(f"{path} (the toolkit's block)")
        break
    return removed


def has_toolkit_files(folder: str) -> bool:
    """Whether an auto-memory folder holds the toolkit's block or one of its files."""
    try:
        if not _folder_ok(folder, create=False):
            return False
        if any(_is_ours(folder, name) for name in os.listdir(folder)[:MAX_FOLDER_NAMES]):
            return True
        return Index(read_index(folder)).block is not None
    except OSError:
        return False


def toolkit_folders(projects: Iterable[str], env: Mapping[str, str] | None = None) -> list[str]:
    """The auto-memory folders holding the toolkit's files or block: those of ``projects``
    (their ``autoMemoryDirectory`` included, auto memory on or off) and every
    ``<config>/projects/*/memory`` (a user-level install mirrors in every project)."""
    from context_memory.transcript.locate import projects_dir

    candidates = [native_location(project, env).folder for project in projects]
    root = projects_dir()
    try:
        names = sorted(os.listdir(root))[:MAX_PROJECT_FOLDERS]
    except OSError:
        names = []
    candidates.extend(os.path.join(root, name, "memory") for name in names)
    return [f for f in dict.fromkeys(candidates) if has_toolkit_files(f)]


def remove_everywhere(
    projects: Iterable[str], state_dir: str | None = None, env: Mapping[str, str] | None = None
) -> list[str]:
    """Every uninstall: the toolkit's files and block out of every folder toolkit_folders
    finds; with ``state_dir``, the hooks of that project stop mirroring (a plugin's hooks
    still run until the plugin is uninstalled)."""
    removed: list[str] = []
    for folder in toolkit_folders(list(projects), env):
        removed.extend(remove_native(folder))
    if state_dir is not None and os.path.isdir(state_dir):
        atomic_write(os.path.join(state_dir, NATIVE_MEMORY_FILE), json.dumps({"removed": True}),
                     root=state_dir)  # fmt: skip
    return removed
