"""The model's own auto memories as records: what Claude Code's model saved in the project's
auto-memory folder (memory/native_folder.py) counts as a decision of the agent's.

Each ``feedback`` or ``project`` memory file the model wrote (not one of the toolkit's
``ctx_*`` files) reads as a log-shaped record: kind ``constraint`` (feedback) or
``decided`` (project), ``by: agent``, ``source: auto-memory``, its id ``auto-memory:<file>``,
its text the description (else the name, else the first body line), its reason the
``**Why:**`` line, and ``in_index`` whether MEMORY.md points at it (then the client loads
its line in every request). constraint.can_ask says no for them: the guard only reminds.

Readers add them to what they read from decisions.jsonl: ``ctx-decide --list`` (marked
``auto memory``), the compaction audit, and the guard's index. Bounded: at most
MAX_FILES files of at most MAX_FILE_BYTES each; no link followed; a file that does not
parse is skipped.
"""

from __future__ import annotations

import os
import stat
import time

from context_memory import TYPE_CHECKING
from context_memory.core.fsutil import read_bytes
from context_memory.core.safe_text import clip
from context_memory.core.tables import NATIVE_FILE_MARK, NATIVE_FILE_PREFIX
from context_memory.memory.native import INDEX_FILE, read_index
from context_memory.memory.native_folder import native_location

if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_FILES = 200
MAX_FILE_BYTES = 64 * 1024
MAX_TEXT = 300
ID_PREFIX = "auto-memory:"
TYPE_KINDS = {"feedback": "constraint", "project": "decided"}
SOURCE = "auto-memory"


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value


def parse_memory_file(text: str) -> dict[str, str] | None:
    """name, description, type (``metadata.type`` or a top-level ``type``), why and the
    first body line of a memory file; None without a frontmatter."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    try:
        end = lines.index("---", 1)
    except ValueError:
        return None
    fields: dict[str, str] = {}
    for line in lines[1:end]:
        key, sep, value = line.strip().partition(":")
        if sep and key in ("name", "description", "type", "source") and key not in fields:
            fields[key] = _unquote(value)
    body = [line.strip() for line in lines[end + 1 :] if line.strip()]
    for line in body:
        if line.startswith("**Why:**"):
            fields["why"] = line[len("**Why:**") :].strip()
            break
    fields["first"] = next((line for line in body if not line.startswith("**")), "")
    return fields


def _clip(text: str) -> str:
    return clip(" ".join(text.split()), MAX_TEXT)


def _iso(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def auto_memory_records(
    project_dir: str, env: Mapping[str, str] | None = None
) -> list[dict[str, object]]:
    """The model's feedback and project memories of the project, oldest first, as records
    shaped like decisions.jsonl's (module docstring); [] where auto memory is off."""
    location = native_location(project_dir, env)
    folder = location.folder
    try:
        if not location.on or not stat.S_ISDIR(os.lstat(folder).st_mode):
            return []
        names = sorted(os.listdir(folder))[: MAX_FILES * 2]
        index = read_index(folder).decode("utf-8", "replace")
    except OSError:
        return []
    found: list[tuple[float, dict[str, object]]] = []
    for name in names:
        if not name.endswith(".md") or name == INDEX_FILE or name.startswith(NATIVE_FILE_PREFIX):
            continue
        if len(found) >= MAX_FILES:
            break
        path = os.path.join(folder, name)
        try:
            mtime = os.lstat(path).st_mtime
            text = read_bytes(path, MAX_FILE_BYTES, root=folder).decode("utf-8", "replace")
        except OSError:
            continue
        fields = parse_memory_file(text)
        if fields is None or fields.get("source") == NATIVE_FILE_MARK:
            continue
        kind = TYPE_KINDS.get(fields.get("type", ""))
        decision = _clip(fields.get("description") or fields.get("name") or fields["first"])
        if kind is None or not decision:
            continue
        record: dict[str, object] = {
            "id": ID_PREFIX + name,
            "ts": _iso(mtime),
            "session": "",
            "kind": kind,
            "decision": decision,
            "reason": _clip(fields.get("why", "")),
            "alternatives": [],
            "keywords": [],
            "by": "agent",
            "source": SOURCE,
            "file": path,
            "in_index": f"]({name})" in index,
        }
        found.append((mtime, record))
    found.sort(key=lambda pair: pair[0])
    return [record for _, record in found]


def listed_auto_memory(
    project_dir: str, env: Mapping[str, str] | None = None
) -> tuple[list[dict[str, object]], frozenset[str]]:
    """The model's own memories as records, and the ids of the records whose lines are in
    MEMORY.md now (the toolkit's block, or the model's own pointer to its file): what
    ctx-decide --list and the audit add to the log's records."""
    from context_memory.memory.native import memory_ids

    own = auto_memory_records(project_dir, env)
    indexed = {str(r["id"]) for r in own if r.get("in_index")}
    return own, memory_ids(project_dir, env) | indexed
