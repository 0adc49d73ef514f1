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

Standard library only: the installer imports it with the system python.
"""

from __future__ import annotations

import hashlib
import json
import os
import time

from context_memory.core.state import STATE_DIRNAME
from context_memory.core.tables import CHARS_PER_TOKEN
from context_memory.memory.decisions import DECISIONS_FILE, read_records
from context_memory.memory.handoff_draft import RECORD_SECTIONS, plan_open_items, record_item
from context_memory.memory.identity import is_new_style_id
from context_memory.merge.layout import DECISIONS_JSON, MERGED_DIRNAME
from context_memory.merge.merge import merge_handoffs
from context_memory.merge.rules import parse_time
from context_memory.merge.sources import HandoffFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from typing import Any

    from filelock import FileLock

PINNED_FILE = "pinned.md"
INDEX_FILE = "pinned-index.json"
SNAPSHOT_FILE = "pinned-at-compact.json"
IMPORT_LINE = f"@{STATE_DIRNAME}/{PINNED_FILE}"
CLAUDE_MD = "CLAUDE.md"

CAP_ENV = "CTX_PIN_TOKENS"
DEFAULT_CAP_TOKENS = 1500
MIN_CAP_TOKENS = 200
MAX_ITEM_CHARS = 300
INDEX_VERSION = 1
# Bounds on what is read: the merged record of 10,000 handoffs is a few MB.
MAX_MERGED_BYTES = 64 * 1024 * 1024
MAX_SMALL_FILE_BYTES = 1024 * 1024
# The PreCompact hook keeps this many snapshots per session; the audit takes the newest
# one taken before the compaction, if it is no older than SNAPSHOT_MAX_AGE (a summarisation
# takes minutes at most).
SNAPSHOTS_KEPT = 10
SNAPSHOT_MAX_AGE = 1800.0
SNAPSHOT_CLOCK_SLACK = 5.0

REJECTED = "rejected"
DECIDED = "decided"
RISK = "risk"
PLAN = "plan"
SECTION_ORDER = (REJECTED, DECIDED, RISK, PLAN)
SECTION_TITLES = {
    REJECTED: "Rejected (do not propose again)",
    DECIDED: "Decided",
    RISK: "Open risks",
    PLAN: "Open plan items",
}
TITLE = "# Pinned decisions"
INTRO = (
    "Rebuilt by context-memory whenever the decisions log, the plan or the merged record "
    "changes; do not edit. Pinned entries first, then newest first."
)
EMPTY = "No decisions, risks or open plan items recorded yet."
# Handoff section names of merge.py, by the kinds used here.
_MERGED_KEYS = (("decided", "Decided"), ("rejected", "Rejected"), ("risks", "Risks"))
_CONTROL = {code: " " for code in (*range(0, 32), *range(127, 160))}


def estimate_tokens(text: str) -> int:
    """The toolkit's token estimate for a text: UTF-8 bytes / CHARS_PER_TOKEN, rounded up.

    Four characters per token is the client's own offline estimate for English; counting
    bytes rather than characters makes Chinese and Japanese (about one token per
    character, three bytes each) come out higher rather than far too low.
    """
    return -(-len(text.encode("utf-8")) // CHARS_PER_TOKEN)


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


# --------------------------------------------------------------------------- in force


class Item:
    """One line of the digest: its section, text, time (newest first) and record id."""

    __slots__ = ("section", "text", "time", "order", "record_id", "pinned")

    def __init__(
        self, section: str, text: str, stamp: float, order: int, record_id: str | None
    ) -> None:
        self.section = section
        self.text = text
        self.time = stamp
        self.order = order
        self.record_id = record_id
        self.pinned = False


def pinned_ids(pins: Iterable[Mapping[str, Any]]) -> set[str]:
    """The record ids whose latest pin record is a pin: by time, then by id when both are
    ULID-style (their first characters are the milliseconds: the same order on every clone,
    whatever order git's union merge left the lines in), then by log order."""
    latest: dict[str, tuple[str, str, int, str]] = {}
    for index, pin in enumerate(pins):
        target = pin.get("target")
        ts = pin.get("ts")
        if not isinstance(target, str):
            continue
        ident = pin.get("id")
        key = (
            ts if isinstance(ts, str) else "",
            ident if isinstance(ident, str) and is_new_style_id(ident) else "",
            index,
            str(pin.get("kind")),
        )
        if target not in latest or key[:3] >= latest[target][:3]:
            latest[target] = key
    return {target for target, key in latest.items() if key[3] == "pin"}


def _stamp(value: object) -> float:
    stamp = parse_time(value) if isinstance(value, str) and value.strip() else None
    return stamp if stamp is not None else 0.0


def _merged_handoffs(merged: Mapping[str, Any] | None) -> list[HandoffFile]:
    """The merged record's current entries, one pseudo-handoff per original handoff (the
    entries of one handoff never override each other)."""
    if not isinstance(merged, dict):
        return []
    groups: dict[tuple[str, int, str], HandoffFile] = {}
    for key, section in _MERGED_KEYS:
        entries = merged.get(key)
        if not isinstance(entries, list):
            continue
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
                continue
            session = entry.get("session")
            stage = entry.get("stage")
            when = entry.get("time")
            group = (
                session if isinstance(session, str) else "?",
                stage if isinstance(stage, int) else 0,
                when if isinstance(when, str) else "",
            )
            handoff = groups.get(group)
            if handoff is None:
                handoff = groups[group] = HandoffFile(
                    MERGED_DIRNAME, group[0], group[1], _stamp(group[2]), "merged", {}
                )
            handoff.sections.setdefault(section, []).append(entry["text"])
    return list(groups.values())


def items_in_force(
    records: Sequence[Mapping[str, Any]],
    merged: Mapping[str, Any] | None = None,
) -> list[Item]:
    """The log's and the merged record's entries still in force, by merge.py's rule.

    Log records are taken as one-entry handoffs at their own time, the merged record's
    entries at their handoff's time; at equal times the log comes first, so a handoff
    that restates a logged decision is a duplicate and the record (with its id) is kept.
    """
    sources: list[tuple[float, int, int, HandoffFile, Mapping[str, Any] | None]] = []
    for index, record in enumerate(records):
        section = RECORD_SECTIONS.get(str(record.get("kind")))
        if section is None:
            continue
        session = record.get("session")
        handoff = HandoffFile(
            DECISIONS_FILE,
            session if isinstance(session, str) else "?",
            0,
            _stamp(record.get("ts")),
            "record",
            {section: [record_item(dict(record))]},
        )
        sources.append((handoff.time, 0, index, handoff, record))
    for index, handoff in enumerate(_merged_handoffs(merged)):
        sources.append((handoff.time, 1, index, handoff, None))
    sources.sort(key=lambda source: source[:3])
    result = merge_handoffs(source[3] for source in sources)
    items: list[Item] = []
    for section, entries in ((DECIDED, result.decided), (REJECTED, result.rejected)):
        items.extend(_item(section, entry, sources) for entry in entries)
    items.extend(_item(RISK, entry, sources) for entry in result.risks)
    return items


def _item(section: str, entry: Any, sources: list[Any]) -> Item:
    record = sources[entry.handoff][4]
    record_id = record.get("id") if record is not None else None
    return Item(
        section,
        entry.text,
        entry.time,
        entry.handoff,
        record_id if isinstance(record_id, str) else None,
    )


# --------------------------------------------------------------------------- rendering


class Digest:
    """The rendered digest and what it holds."""

    __slots__ = ("text", "ids", "shown", "total", "tokens", "cap")

    def __init__(
        self, text: str, ids: list[str], shown: int, total: int, tokens: int, cap: int
    ) -> None:
        self.text = text
        self.ids = ids  # record ids of the log entries shown, in digest order
        self.shown = shown
        self.total = total
        self.tokens = tokens
        self.cap = cap

    @property
    def omitted(self) -> int:
        return self.total - self.shown


def one_line(text: str, limit: int = MAX_ITEM_CHARS) -> str:
    """``text`` on one line (no control characters that could forge structure), clipped."""
    flat = " ".join(text.translate(_CONTROL).split())
    return flat if len(flat) <= limit else flat[: limit - 3].rstrip() + "..."


def footer_line(omitted: int, total: int, cap: int, where: str) -> str:
    return (
        f"Left out to stay under {cap:,} tokens: {omitted} of {total} entries. Full record: "
        f"ctx-decide --list ({where}/{DECISIONS_FILE}), {where}/{MERGED_DIRNAME}/decisions.md, "
        f"{where}/current-plan.md."
    )


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def render_digest(
    records: Sequence[Mapping[str, Any]],
    pins: Iterable[Mapping[str, Any]] = (),
    plan_items: Sequence[str] = (),
    merged: Mapping[str, Any] | None = None,
    *,
    cap: int = DEFAULT_CAP_TOKENS,
    where: str = STATE_DIRNAME,
) -> Digest:
    """The digest of ``records`` (the log's decisions), ``pins`` (its pin records),
    ``plan_items`` (the plan's open items, in plan order) and ``merged`` (decisions.json).

    Entries are taken by priority (pinned ones, then rejections, decisions and risks newest
    first, then plan items) until the next one would pass ``cap`` tokens; the rest are
    counted in the last line. A pure function: same input, same text.
    """
    pinned = pinned_ids(pins)
    items = items_in_force(records, merged)
    for item in items:
        item.pinned = item.record_id is not None and item.record_id in pinned
        item.text = one_line(item.text)
    items.sort(key=lambda item: (not item.pinned, -item.time, -item.order))
    items.extend(
        Item(PLAN, one_line(text), 0.0, index, None)
        for index, text in enumerate(plan_items)
        if one_line(text)
    )
    by_priority = [item for item in items if item.pinned] + [
        item
        for section in SECTION_ORDER
        for item in items
        if item.section == section
        if not item.pinned
    ]
    total = len(by_priority)
    head = f"{TITLE}\n\n{INTRO}\n"
    if not total:
        head += f"\n{EMPTY}\n"
    budget = cap * CHARS_PER_TOKEN
    used = _size(head) + _size(f"\n{footer_line(total, total, cap, where)}\n")
    opened: set[str] = set()
    chosen: set[int] = set()
    for item in by_priority:
        cost = _size(f"- {item.text}\n")
        if item.section not in opened:
            cost += _size(f"\n## {SECTION_TITLES[item.section]}\n")
        if used + cost > budget:
            break
        used += cost
        opened.add(item.section)
        chosen.add(id(item))
    parts = [head]
    ids: list[str] = []
    for section in SECTION_ORDER:
        shown = [item for item in items if item.section == section and id(item) in chosen]
        if not shown:
            continue
        parts.append(f"\n## {SECTION_TITLES[section]}\n")
        for item in shown:
            parts.append(f"- {item.text}\n")
            if item.record_id is not None:
                ids.append(item.record_id)
    parts.append(f"\n{footer_line(total - len(chosen), total, cap, where)}\n")
    text = "".join(parts)
    return Digest(text, ids, len(chosen), total, estimate_tokens(text), cap)


# --------------------------------------------------------------------------- files


def digest_path(state_dir: str) -> str:
    return os.path.join(state_dir, PINNED_FILE)


def index_path(state_dir: str) -> str:
    return os.path.join(state_dir, INDEX_FILE)


def enabled(state_dir: str) -> bool:
    """Whether the project opted in: the installer created pinned.md (a regular file)."""
    path = digest_path(state_dir)
    return os.path.isfile(path) and not os.path.islink(path)


def _read_bounded(path: str, limit: int) -> bytes | None:
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
    raw = _read_bounded(os.path.join(state_dir, MERGED_DIRNAME, DECISIONS_JSON), MAX_MERGED_BYTES)
    if raw is None:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def shown_where(state_dir: str) -> str:
    """How the digest names the state folder: ``.working-state`` when it is the project's."""
    return STATE_DIRNAME if os.path.basename(state_dir) == STATE_DIRNAME else state_dir


def build(state_dir: str, cap: int) -> Digest:
    """Read the log, the plan and the merged record, and render the digest."""
    pins: list[dict[str, Any]] = []
    records, _ = read_records(state_dir, pins)
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


class _FlockLock:
    """The installer's lock on ``<pinned.md>.lock`` when filelock is not importable (it runs
    with the system python): the same flock(2) on the same file that filelock takes on
    Unix, so the two exclude each other."""

    def __init__(self, path: str, timeout: float, root: str) -> None:
        self.path = path
        self.timeout = timeout
        self.root = root
        self.fd = -1

    def __enter__(self) -> _FlockLock:
        import fcntl

        from context_memory.core.fsutil import open_file

        # Like every file of the state folder: no link followed, a regular file or nothing.
        self.fd = open_file(self.path, os.O_RDWR | os.O_CREAT, root=self.root)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(self.fd)
                    raise TimeoutError(f"{self.path} stayed locked") from None
                time.sleep(0.05)

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)  # closing releases the lock


def _lock(path: str, root: str) -> FileLock | _FlockLock:
    from context_memory.core.fsutil import LOCK_TIMEOUT_SECONDS, lock_for

    try:
        import filelock  # noqa: F401
    except ImportError:
        return _FlockLock(path + ".lock", LOCK_TIMEOUT_SECONDS, root)
    return lock_for(path, root=root)


def rebuild(state_dir: str, cap: int | None = None) -> Digest:
    """Build the digest and write it: the index first, then pinned.md, each atomically,
    under pinned.md's lock (the last writer read after every append that came before it).
    Raises OSError (TimeoutError when the lock stays taken)."""
    from context_memory.core.fsutil import atomic_write

    if cap is None:
        cap = cap_tokens()[0]
    path = digest_path(state_dir)
    os.makedirs(state_dir, exist_ok=True)
    with _lock(path, state_dir):
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


# --------------------------------------------------------------------------- compactions


def _claude_md_imports(project_dir: str) -> bool:
    raw = _read_bounded(os.path.join(project_dir, CLAUDE_MD), MAX_SMALL_FILE_BYTES)
    if raw is None:
        return False
    text = raw.decode("utf-8", "replace").lstrip("\ufeff")
    return any(line.strip() == IMPORT_LINE for line in text.splitlines())


def read_snapshots(session_folder: str) -> list[dict[str, Any]]:
    raw = _read_bounded(os.path.join(session_folder, SNAPSHOT_FILE), MAX_SMALL_FILE_BYTES)
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
    raw = _read_bounded(index_path(state_dir), MAX_SMALL_FILE_BYTES)
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
    text = _read_bounded(digest_path(state_dir), MAX_SMALL_FILE_BYTES)
    raw_index = _read_bounded(index_path(state_dir), MAX_SMALL_FILE_BYTES)
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

    path = os.path.join(session_folder, SNAPSHOT_FILE)
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
    snapshots = (read_snapshots(session_folder) + [entry])[-SNAPSHOTS_KEPT:]
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


# --------------------------------------------------------------------------- CLAUDE.md


def _newline_of(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _is_import(line: str) -> bool:
    return line.lstrip("\ufeff").strip() == IMPORT_LINE


def with_import_line(text: str | None) -> str | None:
    """CLAUDE.md with the import line added at the end; None when it is already there.

    The user's lines are kept byte for byte; the file's line ending (CRLF or LF) is used,
    and a file that did not end with a newline still does not.
    """
    if not text:
        return IMPORT_LINE + "\n"
    if any(_is_import(line) for line in text.splitlines()):
        return None
    newline = _newline_of(text)
    if text.endswith(("\n", "\r")):
        return text + IMPORT_LINE + newline
    return text + newline + IMPORT_LINE


def without_import_line(text: str) -> str | None:
    """CLAUDE.md without the import line (every copy of it); None when it is not there.
    Undoes with_import_line exactly, whatever the line ending."""
    lines = text.splitlines(True)
    kept = [line for line in lines if not _is_import(line)]
    if len(kept) == len(lines):
        return None
    if lines and _is_import(lines[-1]) and not lines[-1].endswith(("\n", "\r")) and kept:
        # The line was added to a file without a final newline: drop the one added with it.
        last = kept[-1]
        kept[-1] = last.rstrip("\r\n")
    result = "".join(kept)
    if text.startswith("\ufeff") and not result.startswith("\ufeff") and result:
        result = "\ufeff" + result
    return result
