"""The audit file, ``sessions/<id>/compact-audit.json``, and the pending mark that has
ctx-budget inject the lost decisions once (claimed, then released or finished).
"""

from __future__ import annotations

import json
import os
import time

from context_memory import TYPE_CHECKING
from context_memory.audit.check import injection_text
from context_memory.audit.compactions import last_compaction, recent_bytes, summary_fingerprint
from context_memory.audit.config import (
    AUDIT_VERSION,
    MAX_AUDIT_BYTES,
    MAX_INJECTION_CHARS,
    PENDING_MARK,
    SOURCE_KEPT,
)
from context_memory.audit.matching import ContextIndex, check_decision
from context_memory.core.state import AUDIT_FILE, session_dir, shown_state_path
from context_memory.memory.decisions import str_list

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def shown_audit_path(folder: str) -> str:
    """compact-audit.json of ``folder`` as the agent finds it from the project:
    ``.working-state/sessions/<id>/compact-audit.json`` for the usual state folder."""
    state = os.path.dirname(os.path.dirname(os.path.abspath(folder)))  # <state>/sessions/<id>
    return shown_state_path(state, audit_path(folder))


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


def set_pending(folder: str, audit: Mapping[str, Any]) -> None:
    from context_memory.core.fsutil import atomic_write

    atomic_write(os.path.join(folder, PENDING_MARK), str(audit["id"]))


def clear_pending(folder: str) -> None:
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
