"""ctx-audit: check each compaction against the decisions log and put back what it lost.

One entry point, two uses:

- as a hook (no arguments, hook JSON on stdin), registered for PostCompact and for
  SessionStart with matcher ``compact``. PostCompact audits ``compact_summary``, writes
  ``sessions/<id>/compact-audit.json`` and tells the user in one line; the lost decisions
  are injected once, by SessionStart ``compact`` when it comes after PostCompact, else by
  the next ctx-budget run. Client 2.1.332 runs SessionStart ``compact`` BEFORE PostCompact
  and writes the summary to the transcript only after both hooks (verified), so there the
  injection comes with the next prompt. The hook path is standard library only.
- by hand (``ctx-audit TRANSCRIPT [--json] [--all]``): a table per decision for the last
  compaction (or every one), exit 1 when something was lost. click is imported only there.

What survives a compaction: the summary, plus the messages the client kept verbatim
(``compactMetadata.preservedMessages``) and the rows after the summary.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import time

from context_memory.audit.matching import ContextIndex, Presence, check_decision
from context_memory.core.hookio import HookInputError, context_output, run_hook, str_field
from context_memory.core.safe_text import one_line
from context_memory.core.state import (
    STATE_DIRNAME,
    resolve_project_dir,
    resolve_state_dir,
    session_dir,
)
from context_memory.core.tables import (
    AUDIT_DEFAULT_LAST,
    AUDIT_PENDING_MARK,
    AUDIT_PREFIX,
    AUDIT_TEXTS,
    COMMAND_ECHO_PREFIXES,
    SUMMARY_END_MARKERS,
    SUMMARY_ROW_INTRO,
    SUMMARY_START_MARKER,
)
from context_memory.measure.bands import language
from context_memory.measure.turn_start import record_key, take_injected
from context_memory.memory.decisions import read_records, str_list
from context_memory.transcript.reader import (
    is_compact_boundary,
    iter_lines_backwards,
    max_scan_bytes,
    open_transcript,
    parse_row,
)

TYPE_CHECKING = False  # typing costs an import on the hook path; mypy still reads the block
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence
    from typing import Any

HOOK_NAME = "ctx-audit"
AUDIT_FILE = "compact-audit.json"
# Present while an audit with lost decisions waits to be injected; holds the audit id.
# ctx-budget looks for it before every prompt, so it is a plain file, cheap to stat.
PENDING_MARK = AUDIT_PENDING_MARK
AUDIT_VERSION = 1
# A PostCompact result (or a compaction in the transcript) younger than this belongs to
# the compaction a SessionStart "compact" event announces.
FRESH_SECONDS = 120.0
# Right after a compaction the new boundary sits near the end of the transcript; the hooks
# look no further back than this for it (a miss only means fewer messages count as kept).
RECENT_COMPACTION_BYTES = 8 * 1024 * 1024
KINDS_AUDITED = ("decided", "rejected")
TEAM_REJECTIONS_AUDITED = 10
SOURCE_SUMMARY = "summary"
SOURCE_KEPT = "kept messages"
SOURCE_TURN_START = "turn-start injection"
SOURCE_PINNED = "pinned digest"
MAX_DECISION_CHARS = 500
MAX_NAMES_CHARS = 160
# The [COMPACT AUDIT] injection, header and pointer included, never exceeds this; the
# decisions that do not fit are counted and pointed to (compact-audit.json lists them all).
MAX_INJECTION_CHARS = 4000
# compact-audit.json holds at most CTX_AUDIT_LAST decisions and the session's rejections,
# read from at most records.MAX_LOG_BYTES of log; a bigger file is not one the hook wrote.
MAX_AUDIT_BYTES = 48 * 1024 * 1024

EXIT_OK = 0
EXIT_LOST = 1
EXIT_USAGE = 2

_ROW_OF_INTEREST = re.compile(
    rb'"type"\s*:\s*"(?:user|assistant)"|"subtype"\s*:\s*"compact_boundary"'
)
_ISO_SECONDS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
_ANALYSIS_BLOCK = re.compile(r"<analysis>.*?(?:</analysis>|\Z)", re.DOTALL)
_SUMMARY_BLOCK = re.compile(r"<summary>(.*?)(?:</summary>|\Z)", re.DOTALL)


# -- configuration ---------------------------------------------------------------------------


def audit_last(env: Mapping[str, str] | None = None) -> int:
    """How many of the most recent decisions to audit: CTX_AUDIT_LAST, default 5."""
    env = os.environ if env is None else env
    raw = env.get("CTX_AUDIT_LAST", "").strip()
    try:
        value = int(raw)
    except ValueError:
        return AUDIT_DEFAULT_LAST
    return value if value > 0 else AUDIT_DEFAULT_LAST


# -- which decisions -------------------------------------------------------------------------


def _recorded_by(record: Mapping[str, object], cutoff: str | None) -> bool:
    """Whether ``record`` was written no later than ``cutoff`` (ISO time, to the second)."""
    if cutoff is None:
        return True
    ts = record.get("ts")
    if not isinstance(ts, str) or not _ISO_SECONDS.match(ts) or not _ISO_SECONDS.match(cutoff):
        return True  # cannot tell: auditing one decision too many is the cheap mistake
    return ts[:19] <= cutoff[:19]


def select_decisions(
    records: Sequence[dict[str, Any]],
    session: str | None,
    last: int,
    *,
    recorded_by: str | None = None,
    team_rejections: int = TEAM_REJECTIONS_AUDITED,
) -> list[dict[str, Any]]:
    """The decisions an audit checks, oldest first by recorded time.

    The ``last`` most recent decided or rejected records, plus every rejection of
    ``session`` (a lost rejection is the costliest loss: the agent proposes it again),
    plus the ``team_rejections`` newest rejections of any session or author (on a
    shared project a teammate's rejection matters as much as one's own). Records written
    after ``recorded_by`` (the compaction's time) are left out. Time order, not file order:
    git's union merge puts a teammate's records wherever the merge joins the two sides.
    """
    eligible = sorted(
        (
            record
            for record in records
            if record.get("kind") in KINDS_AUDITED and _recorded_by(record, recorded_by)
        ),
        key=lambda record: str(record.get("ts", "")),
    )
    chosen = {id(record) for record in eligible[-last:]}
    rejections = [record for record in eligible if record.get("kind") == "rejected"]
    if team_rejections > 0:
        chosen.update(id(record) for record in rejections[-team_rejections:])
    if session:
        chosen.update(id(record) for record in rejections if record.get("session") == session)
    return [record for record in eligible if id(record) in chosen]


# -- what survived ---------------------------------------------------------------------------


def summary_body(text: str) -> str:
    """The summary itself, without the framing the client or the summariser adds.

    ``compact_summary`` (PostCompact) is the summariser's raw answer: its <analysis> block
    is dropped by the client and never reaches the model, so it must not count. The
    transcript's summary row wraps the text in instructions and a transcript path.
    """
    if "<analysis>" in text or "<summary>" in text:
        text = _ANALYSIS_BLOCK.sub("", text)
        blocks = _SUMMARY_BLOCK.findall(text)
        if blocks:
            text = "\n".join(blocks)
    start = text.find(SUMMARY_START_MARKER)
    if start != -1:
        text = text[start + len(SUMMARY_START_MARKER) :]
    cut = len(text)
    for marker in SUMMARY_END_MARKERS:
        position = text.find(marker)
        if position != -1:
            cut = min(cut, position)
    return text[:cut].strip()


def given_text(row_text: str) -> str:
    """What the model received from a summary row: its text as written, framing aside.

    Unlike ``summary_body`` this keeps an ``Analysis:`` part: clients up to 2.1.39 wrote it
    into the row (``Analysis:`` then ``Summary:``) and sent the row as it is, so a decision
    named only in the analysis did reach the model. Only the client's opening line and
    closing instructions go.
    """
    text = row_text
    if text.startswith(SUMMARY_ROW_INTRO):
        newline = text.find("\n")
        text = text[newline + 1 :] if newline != -1 else ""
    cut = len(text)
    for marker in SUMMARY_END_MARKERS:
        position = text.find(marker)
        if position != -1:
            cut = min(cut, position)
    return text[:cut].strip()


def summary_fingerprint(body: str) -> str:
    """Identifies a summary across its two forms (hook field, transcript row)."""
    flat = " ".join(body.split())
    return hashlib.sha1(flat.encode("utf-8")).hexdigest()[:16]


def _texts_of(content: object) -> Iterator[str]:
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for block in content:
            if isinstance(block, str):
                yield block
            elif isinstance(block, dict):
                text = block.get("text")
                if isinstance(text, str):
                    yield text
                if "content" in block:  # tool_result
                    yield from _texts_of(block["content"])
                tool_input = block.get("input")
                if isinstance(tool_input, dict):  # tool_use: the model sees its input
                    yield json.dumps(tool_input, ensure_ascii=False)


def row_text(row: Mapping[str, Any]) -> str:
    """The text a user or assistant row puts in front of the model."""
    message = row.get("message")
    if not isinstance(message, dict):
        return ""
    return "\n".join(_texts_of(message.get("content")))


def _is_message_row(row: Mapping[str, Any]) -> bool:
    return row.get("type") in ("user", "assistant") and row.get("isSidechain") is not True


def _is_command_echo(row: Mapping[str, Any], text: str) -> bool:
    """A row the client wrote for a slash command or as a meta note, not a conversation turn."""
    return row.get("isMeta") is True or text.lstrip().startswith(COMMAND_ECHO_PREFIXES)


def kept_text(row: Mapping[str, Any]) -> str | None:
    """The text a kept row contributes, or None for command echoes and empty rows."""
    text = row_text(row)
    if not text.strip() or _is_command_echo(row, text):
        return None
    return text


def _preserved_ids(boundary: Mapping[str, Any]) -> tuple[set[str], str | None, str | None]:
    """The uuids the client kept verbatim, and the (head, tail) of a preserved segment."""
    metadata = boundary.get("compactMetadata")
    if not isinstance(metadata, dict):
        return set(), None, None
    ids: set[str] = set()
    preserved = metadata.get("preservedMessages")
    if isinstance(preserved, dict):
        for key in ("uuids", "allUuids"):
            ids.update(str_list(preserved.get(key)))
    segment = metadata.get("preservedSegment")
    head = tail = None
    if isinstance(segment, dict):
        head_value, tail_value = segment.get("headUuid"), segment.get("tailUuid")
        head = head_value if isinstance(head_value, str) else None
        tail = tail_value if isinstance(tail_value, str) else None
    return ids, head, tail


class Compaction:
    """One compaction as the transcript records it, and what survived it."""

    __slots__ = ("boundary_uuid", "timestamp", "trigger", "summary", "kept", "session", "number")

    def __init__(self, boundary: Mapping[str, Any]) -> None:
        uuid = boundary.get("uuid")
        self.boundary_uuid = uuid if isinstance(uuid, str) else None
        stamp = boundary.get("timestamp")
        self.timestamp = stamp if isinstance(stamp, str) else None
        metadata = boundary.get("compactMetadata")
        trigger = metadata.get("trigger") if isinstance(metadata, dict) else None
        self.trigger = trigger if isinstance(trigger, str) else None
        session = boundary.get("sessionId")
        self.session = session if isinstance(session, str) else None
        self.summary: str | None = None  # the summary row's text; None when not written
        self.kept: list[str] = []  # preserved messages and rows after the summary
        self.number = 0  # 1-based position among the transcript's compactions

    @property
    def body(self) -> str:
        return summary_body(self.summary or "")

    @property
    def given(self) -> str:
        """The summary as the model received it (``body`` plus an older client's analysis)."""
        return given_text(self.summary or "")


def recent_bytes() -> int:
    return min(max_scan_bytes(), RECENT_COMPACTION_BYTES)


def last_compaction(path: str, *, max_bytes: int | None = None) -> Compaction | None:
    """The transcript's last compaction, read backwards from the end (byte-bounded).

    Rows after the boundary are read first; past the boundary the reader goes on only to
    collect the preserved messages it names (2.1.332 keeps them where they were written,
    before the boundary), and stops at the previous boundary.
    """
    limit = max_scan_bytes() if max_bytes is None else max_bytes
    after: list[Mapping[str, Any]] = []
    compaction: Compaction | None = None
    wanted: set[str] = set()
    segment_head: str | None = None
    segment_tail: str | None = None
    in_segment = False
    kept_before: list[str] = []
    with open_transcript(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        for _, line in iter_lines_backwards(handle, size, max_bytes=limit):
            if not _ROW_OF_INTEREST.search(line):
                continue
            row = parse_row(line)
            if row is None:
                continue
            if compaction is None:
                if is_compact_boundary(row):
                    compaction = Compaction(row)
                    wanted, segment_head, segment_tail = _preserved_ids(row)
                    # Kept rows the client wrote again after the boundary are in hand.
                    seen = {str(r.get("uuid")) for r in after}
                    wanted -= seen
                    if segment_tail in seen:
                        segment_tail = None
                    if not wanted and segment_tail is None:
                        break
                elif _is_message_row(row):
                    after.append(row)
                continue
            if is_compact_boundary(row):
                break  # an earlier compaction: nothing before it survived this one
            if not _is_message_row(row):
                continue
            uuid = row.get("uuid")
            if uuid == segment_tail:
                in_segment = True
            if in_segment or uuid in wanted:
                text = kept_text(row)
                if text is not None:
                    kept_before.append(text)
                wanted.discard(str(uuid))
            if uuid == segment_head:
                in_segment = False
                segment_tail = None
            if not wanted and segment_tail is None:
                break
    if compaction is None:
        return None
    _fill_after(compaction, reversed(after))
    compaction.kept = list(reversed(kept_before)) + compaction.kept
    return compaction


def _fill_after(compaction: Compaction, rows: Iterable[Mapping[str, Any]]) -> None:
    for row in rows:
        if row.get("isCompactSummary") is True and compaction.summary is None:
            compaction.summary = row_text(row)
            continue
        text = kept_text(row)
        if text is not None:
            compaction.kept.append(text)


def all_compactions(path: str) -> list[Compaction]:
    """Every compaction of the transcript, oldest first (two forward passes over the file)."""
    found: list[tuple[Compaction, set[str], str | None, str | None]] = []
    with open_transcript(path) as handle:
        for line in handle:
            if b"compact_boundary" not in line:
                continue
            row = parse_row(line)
            if row is not None and is_compact_boundary(row):
                compaction = Compaction(row)
                compaction.number = len(found) + 1
                found.append((compaction, *_preserved_ids(row)))
    if not found:
        return []
    compactions = [item[0] for item in found]
    preserved_by: dict[str, list[int]] = {}
    for index, (_, ids, _, _) in enumerate(found):
        for uuid in ids:
            preserved_by.setdefault(uuid, []).append(index)
    segment_heads = {head: index for index, (_, _, head, _) in enumerate(found) if head}
    segment_tails = {tail: index for index, (_, _, _, tail) in enumerate(found) if tail}
    current = -1  # index of the last boundary passed
    open_segments: set[int] = set()
    with open_transcript(path) as handle:
        for line in handle:
            if not _ROW_OF_INTEREST.search(line):
                continue
            row = parse_row(line)
            if row is None:
                continue
            if is_compact_boundary(row):
                current += 1
                open_segments.clear()
                continue
            if not _is_message_row(row):
                continue
            raw_uuid = row.get("uuid")
            uuid = raw_uuid if isinstance(raw_uuid, str) else ""
            if current >= 0 and row.get("isCompactSummary") is True:
                if compactions[current].summary is None:
                    compactions[current].summary = row_text(row)
                continue
            text = kept_text(row)
            # Kept verbatim by a later compaction: written before that compaction's boundary.
            if uuid in segment_heads and segment_heads[uuid] > current:
                open_segments.add(segment_heads[uuid])
            later = set(open_segments)
            later.update(index for index in preserved_by.get(uuid, ()) if index > current)
            if uuid in segment_tails:
                open_segments.discard(segment_tails[uuid])
            if text is None:
                continue
            for index in sorted(later):
                compactions[index].kept.append(text)
            if current >= 0:
                compactions[current].kept.append(text)
    return compactions


# -- the audit -------------------------------------------------------------------------------


def _presence(record: Mapping[str, Any], index: ContextIndex) -> Presence:
    decision = record.get("decision")
    return check_decision(
        decision if isinstance(decision, str) else "", str_list(record.get("keywords")), index
    )


def audit_decisions(
    decisions: Sequence[Mapping[str, Any]], summary: str, kept: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """Each decision: survived or lost, where it was found, which terms were found or missing.

    A decision survives when it is present in the summary or in the kept messages; it is
    looked up in each on its own, and the terms shown are those of the better one.
    """
    summary_index = ContextIndex(summary)
    kept_text = "\n".join(text for text in kept if text)
    kept_index = ContextIndex(kept_text) if kept_text.strip() else None
    results: list[dict[str, Any]] = []
    for record in decisions:
        best = _presence(record, summary_index)
        where: str | None = SOURCE_SUMMARY if best.present else None
        if not best.present and kept_index is not None:
            in_kept = _presence(record, kept_index)
            if in_kept.present or len(in_kept.found) > len(best.found):
                best = in_kept
            if in_kept.present:
                where = SOURCE_KEPT
        reason = record.get("reason")
        results.append(
            {
                "id": record.get("id"),
                "kind": record.get("kind"),
                "decision": record.get("decision"),
                "reason": reason if isinstance(reason, str) else "",
                "keywords": str_list(record.get("keywords")),
                "session": record.get("session"),
                "status": "survived" if best.present else "lost",
                "where": where,
                "found": best.found,
                "missing": best.missing,
                "score": round(best.score, 2),
            }
        )
    return results


def mark_pinned(results: Sequence[dict[str, Any]], session_folder: str, when: float) -> None:
    """Decisions the pinned digest held at the compaction (snapshot taken by the PreCompact
    hook) reached the model with every request: survived, never lost nor re-injected."""
    from context_memory.memory.pinned import SNAPSHOT_FILE, ids_in_digest_at

    if not os.path.exists(os.path.join(session_folder, SNAPSHOT_FILE)):
        return
    ids = ids_in_digest_at(session_folder, when)
    for item in results:
        if item.get("status") == "lost" and item.get("id") in ids:
            item.update(status="survived", where=SOURCE_PINNED)


def _clip(text: str, limit: int) -> str:
    text = one_line(text)
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def injection_text(
    results: Sequence[Mapping[str, Any]],
    pointer: str | None,
    lang: str = "en",
    record: str | None = None,
) -> str | None:
    """The [COMPACT AUDIT] text for the lost decisions; None when nothing was lost.

    At most MAX_INJECTION_CHARS characters: the decisions that do not fit are replaced by
    one line counting them and naming ``record`` (the audit file) where all of them are.
    """
    lost = [item for item in results if item.get("status") == "lost"]
    if not lost:
        return None
    texts = AUDIT_TEXTS.get(lang, AUDIT_TEXTS["en"])
    header = texts["header"].format(prefix=AUDIT_PREFIX)
    footer = _clip(pointer or texts["fallback_pointer"], MAX_INJECTION_CHARS // 4)
    more_line = texts["more"].format(
        more=len(lost), cap=MAX_INJECTION_CHARS, record=record or "compact-audit.json"
    )
    room = MAX_INJECTION_CHARS - len(header) - len(footer) - len(more_line) - 3
    lines = [header]
    for index, item in enumerate(lost):
        reason = str(item.get("reason") or "")
        why = texts["why"].format(reason=_clip(reason, MAX_DECISION_CHARS)) if reason else ""
        template = texts["rejected"] if item.get("kind") == "rejected" else texts["decided"]
        decision = _clip(str(item.get("decision") or ""), MAX_DECISION_CHARS)
        line = template.format(decision=decision, why=why)
        if len(line) + 1 > room:
            lines.append(
                texts["more"].format(
                    more=len(lost) - index,
                    cap=MAX_INJECTION_CHARS,
                    record=record or "compact-audit.json",
                )
            )
            break
        room -= len(line) + 1
        lines.append(line)
    lines.append(footer)
    return "\n".join(lines)


def shown_audit_path(folder: str) -> str:
    """compact-audit.json of ``folder`` as the agent finds it from the project:
    ``.working-state/sessions/<id>/compact-audit.json`` for the usual state folder."""
    path = audit_path(folder)
    state = os.path.dirname(os.path.dirname(os.path.abspath(folder)))
    if os.path.basename(state) == STATE_DIRNAME:
        return os.path.relpath(path, os.path.dirname(state))
    return path


def user_line(results: Sequence[Mapping[str, Any]], lang: str = "en") -> str:
    """One line for the user after a compaction."""
    texts = AUDIT_TEXTS.get(lang, AUDIT_TEXTS["en"])
    lost = [item for item in results if item.get("status") == "lost"]
    if not lost:
        return texts["user_ok"].format(total=len(results))
    names = _clip("; ".join(str(item.get("decision")) for item in lost), MAX_NAMES_CHARS)
    return texts["user_lost"].format(lost=len(lost), total=len(results), names=names)


def recovery_pointer_for(state_dir: str, cwd: str | None) -> str | None:
    from context_memory.handlers.restore import recovery_pointer

    # The audit names the rejections it found lost itself.
    return recovery_pointer(state_dir, base=resolve_project_dir(cwd), with_rejections=False)


# -- the audit file --------------------------------------------------------------------------


def audit_path(folder: str) -> str:
    return os.path.join(folder, AUDIT_FILE)


def read_audit(folder: str) -> dict[str, Any] | None:
    """The session's audit; None when missing, damaged, too big, a link or a FIFO."""
    from context_memory.core.fsutil import read_bytes

    try:
        data = json.loads(read_bytes(audit_path(folder), MAX_AUDIT_BYTES))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _iso_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def build_audit(
    *,
    session: str,
    source: str,
    results: list[dict[str, Any]],
    summary: str,
    pointer: str | None,
    lang: str,
    boundary_uuid: str | None = None,
    trigger: str | None = None,
    fingerprint: str | None = None,
    record: str | None = None,
) -> dict[str, Any]:
    """The content of compact-audit.json for one audit (injection text included).

    ``fingerprint`` identifies the summary when ``summary`` is not its bare body (the
    transcript row's text with an older client's analysis).
    """
    lost = sum(1 for item in results if item["status"] == "lost")
    return {
        "version": AUDIT_VERSION,
        "id": os.urandom(6).hex(),
        "session": session,
        "source": source,
        "audited_at": _iso_now(),
        "audited_at_epoch": time.time(),
        "trigger": trigger,
        "boundary_uuid": boundary_uuid,
        "summary_chars": len(summary),
        "summary_fingerprint": fingerprint or summary_fingerprint(summary),
        "total": len(results),
        "lost": lost,
        "survived": len(results) - lost,
        "decisions": results,
        "lang": lang,
        "pointer": pointer,
        "injection": injection_text(results, pointer, lang, record),
        "injected": False,
        "injected_by": None,
    }


def write_audit(folder: str, audit: Mapping[str, Any]) -> None:
    from context_memory.core.fsutil import atomic_write

    text = json.dumps(audit, ensure_ascii=False, indent=2) + "\n"
    atomic_write(audit_path(folder), text)


def _set_pending(folder: str, audit: Mapping[str, Any]) -> None:
    from context_memory.core.fsutil import atomic_write

    atomic_write(os.path.join(folder, PENDING_MARK), str(audit["id"]))


def _clear_pending(folder: str) -> None:
    try:
        os.unlink(os.path.join(folder, PENDING_MARK))
    except FileNotFoundError:
        pass


def has_pending(folder: str) -> bool:
    return os.path.exists(os.path.join(folder, PENDING_MARK))


def claim_pending(folder: str) -> tuple[str, dict[str, Any]] | None:
    """Take the pending audit for injection; only one caller ever gets it.

    The claim is a rename of the pending mark (atomic): a racing hook finds it gone.
    Returns the claimed mark's path (release or finish it) and the audit, or None.
    """
    mark = os.path.join(folder, PENDING_MARK)
    claimed = f"{mark}.{os.getpid()}.claimed"
    try:
        os.rename(mark, claimed)
    except FileNotFoundError:
        return None
    audit = read_audit(folder)
    from context_memory.core.fsutil import read_bytes

    try:
        audit_id = read_bytes(claimed, 256).decode("ascii").strip()
    except (OSError, ValueError):
        audit_id = ""
    if audit is None or audit.get("id") != audit_id or audit.get("injected"):
        os.unlink(claimed)  # stale mark: its audit was replaced or already injected
        return None
    return claimed, audit


def release_claim(claimed: str) -> None:
    """Give a claimed audit back (the injection failed): the next hook tries again."""
    mark = claimed.rsplit(".", 2)[0]
    try:
        os.rename(claimed, mark)
    except OSError:
        pass


def finish_claim(folder: str, claimed: str, audit: dict[str, Any], by: str) -> None:
    audit["injected"] = True
    audit["injected_by"] = by
    audit["injected_at"] = _iso_now()
    write_audit(folder, audit)
    try:
        os.unlink(claimed)
    except FileNotFoundError:
        pass


def refine_with_transcript(audit: dict[str, Any], transcript: str | None) -> None:
    """Re-check lost decisions against the messages the client kept, once it has written them.

    PostCompact sees only the summary; by the next prompt the transcript holds the
    compaction with its kept messages. Used only when the transcript's last summary is
    the one that was audited.
    """
    if not transcript or not audit.get("lost"):
        return
    try:
        compaction = last_compaction(transcript, max_bytes=recent_bytes())
    except OSError:
        return
    if compaction is None or compaction.summary is None:
        return
    if summary_fingerprint(compaction.body) != audit.get("summary_fingerprint"):
        return
    audit["boundary_uuid"] = compaction.boundary_uuid
    # What the model got beyond the audited summary: the kept messages, and the analysis
    # part that older clients left in the summary row.
    extra = list(compaction.kept)
    if compaction.given != compaction.body:
        extra.insert(0, compaction.given)
    if not extra:
        return
    kept_index = ContextIndex("\n".join(extra))
    for item in audit.get("decisions", []):
        if not isinstance(item, dict) or item.get("status") != "lost":
            continue
        presence = check_decision(str(item.get("decision") or ""), _keywords_of(item), kept_index)
        if presence.present:
            item.update(
                status="survived",
                where=SOURCE_KEPT,
                found=presence.found,
                missing=presence.missing,
            )
    results = [item for item in audit.get("decisions", []) if isinstance(item, dict)]
    audit["lost"] = sum(1 for item in results if item.get("status") == "lost")
    audit["survived"] = len(results) - audit["lost"]


def _keywords_of(item: Mapping[str, Any]) -> list[str]:
    return str_list(item.get("keywords"))


def take_pending_injection(
    state_dir: str, session: str, transcript: str | None, by: str
) -> str | None:
    """The pending audit's injection text, claimed so that it is injected only once.

    Called by ctx-budget (when the pending mark exists) and by SessionStart ``compact``.
    Returns None when nothing is pending or nothing is lost any more.
    """
    folder = session_dir(state_dir, session)
    claim = claim_pending(folder)
    if claim is None:
        return None
    claimed, audit = claim
    try:
        refine_with_transcript(audit, transcript)
        # Rendered again from the decisions rather than taken as the file holds it: the
        # file lives in the state folder, whose contents are untrusted.
        decisions = audit.get("decisions")
        listed = decisions if isinstance(decisions, list) else []
        results = [item for item in listed if isinstance(item, dict)]
        audit["injection"] = injection_text(
            results,
            _pointer_from(audit),
            str(audit.get("lang") or "en"),
            shown_audit_path(folder),
        )
        text = audit.get("injection")
        if isinstance(text, str) and len(text) > MAX_INJECTION_CHARS:  # a file edited by hand
            text = (
                text[: MAX_INJECTION_CHARS - 40].rstrip()
                + f"\n[cut: see {shown_audit_path(folder)}]"
            )
        finish_claim(folder, claimed, audit, by)
    except BaseException:
        release_claim(claimed)
        raise
    return text if isinstance(text, str) and text else None


def _pointer_from(audit: Mapping[str, Any]) -> str | None:
    pointer = audit.get("pointer")
    return pointer if isinstance(pointer, str) else None


# -- the hook --------------------------------------------------------------------------------


class _HookContext:
    __slots__ = ("session", "cwd", "state_dir", "folder", "transcript", "lang")

    def __init__(self, payload: dict[str, Any], env: Mapping[str, str]) -> None:
        session = str_field(payload, "session_id")
        if not session:
            raise HookInputError("the hook input has no session_id")
        self.session = session
        self.cwd = str_field(payload, "cwd")
        self.state_dir = resolve_state_dir(self.cwd)
        self.folder = session_dir(self.state_dir, session)  # validates the id
        self.transcript = str_field(payload, "transcript_path") or None
        self.lang = language(env)


def _audit_and_store(
    hook: _HookContext,
    *,
    source: str,
    summary: str,
    kept: Sequence[str],
    env: Mapping[str, str],
    recorded_by: str | None = None,
    boundary_uuid: str | None = None,
    trigger: str | None = None,
    fingerprint: str | None = None,
) -> dict[str, Any] | None:
    records, _ = read_records(hook.state_dir)
    decisions = select_decisions(records, hook.session, audit_last(env), recorded_by=recorded_by)
    # Used up by any compaction; counts only for the automatic one right after the prompt.
    injected = take_injected(hook.folder, hook.transcript)
    if not decisions:
        return None
    results = audit_decisions(decisions, summary, kept)
    if trigger == "auto":
        mark_injected_at_turn_start(results, injected)
    mark_pinned(results, hook.folder, _epoch_of(recorded_by) or time.time())
    return build_audit(
        session=hook.session,
        source=source,
        results=results,
        summary=summary,
        pointer=recovery_pointer_for(hook.state_dir, hook.cwd),
        lang=hook.lang,
        boundary_uuid=boundary_uuid,
        trigger=trigger,
        fingerprint=fingerprint,
        record=shown_audit_path(hook.folder),
    )


def mark_injected_at_turn_start(results: list[dict[str, Any]], injected: set[str]) -> None:
    """Lost decisions ctx-budget put into the context as the compaction began: survived.

    That text is part of the new context (the client sends it after the compaction), so
    injecting them again would only repeat them.
    """
    if not injected:
        return
    for item in results:
        if item["status"] == "lost" and record_key(item) in injected:
            item["status"] = "survived"
            item["where"] = SOURCE_TURN_START


def _fresh(audit: Mapping[str, Any] | None, now: float) -> bool:
    if audit is None:
        return False
    stamp = audit.get("audited_at_epoch")
    return isinstance(stamp, (int, float)) and 0 <= now - stamp <= FRESH_SECONDS


def post_compact(payload: dict[str, Any], env: Mapping[str, str]) -> str | None:
    """PostCompact: audit compact_summary, store the result, tell the user in one line."""
    raw = payload.get("compact_summary")
    if not isinstance(raw, str):
        raise HookInputError("the PostCompact input has no compact_summary")
    hook = _HookContext(payload, env)
    summary = summary_body(raw)
    previous = read_audit(hook.folder)
    # This compaction supersedes whatever an earlier one left waiting.
    _clear_pending(hook.folder)
    kept: list[str] = []
    boundary_uuid: str | None = None
    given = summary
    if hook.transcript:
        # Clients that write the compaction before this hook runs show the kept messages.
        try:
            compaction = last_compaction(hook.transcript, max_bytes=recent_bytes())
        except OSError:
            compaction = None
        if (
            compaction is not None
            and compaction.summary is not None
            and summary_fingerprint(compaction.body) == summary_fingerprint(summary)
        ):
            kept = compaction.kept
            boundary_uuid = compaction.boundary_uuid
            given = compaction.given  # the row as the model gets it (older clients: + analysis)
    audit = _audit_and_store(
        hook,
        source="post-compact",
        summary=given,
        fingerprint=summary_fingerprint(summary),
        kept=kept,
        env=env,
        boundary_uuid=boundary_uuid,
        trigger=str_field(payload, "trigger"),
    )
    if audit is None:
        return None
    if (
        previous is not None
        and previous.get("source") == "transcript"
        and previous.get("summary_fingerprint") == audit["summary_fingerprint"]
        and _fresh(previous, time.time())
    ):
        # SessionStart "compact" ran first on a client that had written the transcript.
        audit["injected"] = bool(previous.get("injected"))
        audit["injected_by"] = previous.get("injected_by")
    write_audit(hook.folder, audit)
    if audit["injection"] and not audit["injected"]:
        _set_pending(hook.folder, audit)
    return user_line(audit["decisions"], hook.lang)


def session_start_compact(payload: dict[str, Any], env: Mapping[str, str]) -> str | None:
    """SessionStart "compact": inject the lost decisions if this compaction's audit is known.

    A fresh PostCompact result is reused. Otherwise the transcript is audited if it already
    holds this compaction. Client 2.1.332 has neither yet at this point: ctx-budget injects
    on the next prompt.
    """
    hook = _HookContext(payload, env)
    now = time.time()
    existing = read_audit(hook.folder)
    if has_pending(hook.folder) and _fresh(existing, now):
        text = take_pending_injection(hook.state_dir, hook.session, hook.transcript, HOOK_NAME)
        return context_output("SessionStart", text) if text else None
    if not hook.transcript:
        return None
    try:
        compaction = last_compaction(hook.transcript, max_bytes=recent_bytes())
    except OSError:
        return None
    if compaction is None or compaction.summary is None or not _just_now(compaction, now):
        return None
    if existing is not None and existing.get("boundary_uuid") == compaction.boundary_uuid:
        return None  # this compaction was audited already
    audit = _audit_and_store(
        hook,
        source="transcript",
        summary=compaction.given,
        fingerprint=summary_fingerprint(compaction.body),
        kept=compaction.kept,
        env=env,
        recorded_by=compaction.timestamp,
        boundary_uuid=compaction.boundary_uuid,
        trigger=compaction.trigger,
    )
    if audit is None:
        return None
    audit["injected"] = bool(audit["injection"])
    audit["injected_by"] = HOOK_NAME if audit["injection"] else None
    _clear_pending(hook.folder)
    write_audit(hook.folder, audit)
    text = audit["injection"]
    return context_output("SessionStart", text) if text else None


def _epoch_of(stamp: str | None) -> float | None:
    if not stamp or not _ISO_SECONDS.match(stamp):
        return None
    import calendar

    return float(calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")))


def _just_now(compaction: Compaction, now: float) -> bool:
    stamp = _epoch_of(compaction.timestamp)
    return stamp is not None and -FRESH_SECONDS <= now - stamp <= FRESH_SECONDS


def hook_output(payload: dict[str, Any], env: Mapping[str, str] | None = None) -> str | None:
    """The hook's stdout for ``payload`` (PostCompact or SessionStart "compact")."""
    env = os.environ if env is None else env
    event = str_field(payload, "hook_event_name")
    if event == "PostCompact":
        return post_compact(payload, env)
    if event == "SessionStart":
        if str_field(payload, "source") != "compact":
            return None
        return session_start_compact(payload, env)
    return None


# -- by hand ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Hook when run with no arguments and stdin is not a terminal; the CLI otherwise."""
    args = sys.argv[1:] if argv is None else argv
    if not args and sys.stdin is not None and not sys.stdin.isatty():
        return run_hook(HOOK_NAME, hook_output)
    if not args:
        # No hook input (stdin closed or a terminal) and no TRANSCRIPT. A hook never exits
        # 2 (the client would block on it): say how to use it, exit 0.
        sys.stderr.write(
            f"{HOOK_NAME}: no hook input on stdin and no TRANSCRIPT given; nothing to do "
            "(by hand: ctx-audit TRANSCRIPT, see ctx-audit --help)\n"
        )
        return EXIT_OK
    from context_memory.commands.audit import run_cli

    return run_cli(args)


if __name__ == "__main__":
    sys.exit(main())
