"""ctx-audit: check each compaction against the decisions log and put back what it lost.

One entry point, two uses:

- as a hook (no arguments, hook JSON on stdin), registered for PostCompact and for
  SessionStart with matcher ``compact``. PostCompact audits ``compact_summary``, writes
  ``sessions/<id>/compact-audit.json`` and tells the user in one line; the lost decisions
  are injected once, by SessionStart ``compact`` when it comes after PostCompact, else by
  the next ctx-budget run. Client 2.1.332 runs SessionStart ``compact`` BEFORE PostCompact
  and writes the summary to the transcript only after both hooks (verified), so there the
  injection comes with the next prompt. The hook path is standard library only.
- by hand (``ctx-audit [TRANSCRIPT] [--json] [--all]``; typed with no argument in a
  terminal, or with only options: the newest session of this folder): a table per
  decision for the last compaction (or every one), exit 1 when something was lost, 2 when
  it could not tell. click is imported only there.

What survives a compaction: the summary, plus the messages the client kept verbatim
(``compactMetadata.preservedMessages``) and the rows after the summary.
"""

from __future__ import annotations

import os
import sys
import time

from context_memory import TYPE_CHECKING
from context_memory.audit.check import (
    audit_decisions,
    epoch_of,
    mark_in_memory,
    mark_pinned,
    recovery_pointer_for,
    select_decisions,
    user_line,
    with_auto_memory,
)
from context_memory.audit.compactions import (
    Compaction,
    last_compaction,
    recent_bytes,
    summary_body,
    summary_fingerprint,
)
from context_memory.audit.config import FRESH_SECONDS, HOOK_NAME, SOURCE_TURN_START, audit_last
from context_memory.audit.store import (
    build_audit,
    clear_pending,
    has_pending,
    read_audit,
    set_pending,
    shown_audit_path,
    take_pending_injection,
    write_audit,
)
from context_memory.core.decisions_log import live_records
from context_memory.core.hookio import (
    HookInput,
    HookInputError,
    as_hook_input,
    context_output,
    run_hook,
)
from context_memory.core.state import (
    session_dir,
)
from context_memory.measure.bands import language
from context_memory.measure.turn_start import record_key, take_injected

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

# -- the hook --------------------------------------------------------------------------------


class _HookContext:
    """What an audit run needs of the hook's input (HookInput), plus the session's folder
    and the language: an audit needs a session."""

    __slots__ = ("cwd", "folder", "lang", "project_dir", "session", "state_dir", "transcript")

    def __init__(self, hook: HookInput, env: Mapping[str, str]) -> None:
        if not hook.session_id:
            raise HookInputError("the hook input has no session_id")
        self.session = hook.session_id
        self.cwd = hook.cwd
        self.project_dir = hook.project_dir
        self.state_dir = hook.state_dir
        self.folder = session_dir(self.state_dir, self.session)
        self.transcript = hook.transcript_path
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
    records, _ = live_records(hook.state_dir)
    try:
        records, in_memory = with_auto_memory(records, hook.project_dir)
    except Exception:  # noqa: BLE001 - the client's folder is untrusted: audit the log alone
        in_memory = frozenset()
    decisions = select_decisions(records, hook.session, audit_last(env), recorded_by=recorded_by)
    # Used up by any compaction; counts only for the automatic one right after the prompt.
    injected = take_injected(hook.folder, hook.transcript)
    if not decisions:
        return None
    results = audit_decisions(decisions, summary, kept)
    if trigger == "auto":
        mark_injected_at_turn_start(results, injected)
    mark_pinned(results, hook.folder, epoch_of(recorded_by) or time.time())
    mark_in_memory(results, in_memory)
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


def post_compact(payload: HookInput | dict[str, Any], env: Mapping[str, str]) -> str | None:
    """PostCompact: audit compact_summary, store the result, tell the user in one line."""
    hook_input = as_hook_input(payload)
    raw = hook_input.get("compact_summary")
    if not isinstance(raw, str):
        raise HookInputError("the PostCompact input has no compact_summary")
    hook = _HookContext(hook_input, env)
    summary = summary_body(raw)
    previous = read_audit(hook.folder)
    # This compaction supersedes whatever an earlier one left waiting.
    clear_pending(hook.folder)
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
        trigger=hook_input.text("trigger"),
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
        set_pending(hook.folder, audit)
    return user_line(audit["decisions"], hook.lang)


def session_start_compact(
    payload: HookInput | dict[str, Any], env: Mapping[str, str]
) -> str | None:
    """SessionStart "compact": inject the lost decisions if this compaction's audit is known.

    A fresh PostCompact result is reused. Otherwise the transcript is audited if it already
    holds this compaction. Client 2.1.332 has neither yet at this point: ctx-budget injects
    on the next prompt.
    """
    hook = _HookContext(as_hook_input(payload), env)
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
    clear_pending(hook.folder)
    write_audit(hook.folder, audit)
    text = audit["injection"]
    return context_output("SessionStart", text) if text else None


def _just_now(compaction: Compaction, now: float) -> bool:
    stamp = epoch_of(compaction.timestamp)
    return stamp is not None and -FRESH_SECONDS <= now - stamp <= FRESH_SECONDS


def hook_output(
    payload: HookInput | dict[str, Any], env: Mapping[str, str] | None = None
) -> str | None:
    """The hook's stdout for ``payload`` (PostCompact or SessionStart "compact")."""
    env = os.environ if env is None else env
    hook = as_hook_input(payload)
    event = hook.answers("PostCompact", "SessionStart")
    if event == "PostCompact":
        return post_compact(hook, env)
    if event == "SessionStart":
        if hook.text("source") != "compact":
            return None
        return session_start_compact(hook, env)
    return None


# -- by hand ---------------------------------------------------------------------------------


def _typed_in_a_terminal() -> bool:
    """Whether stdin is a terminal: the client always pipes the event's JSON to the hook."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):  # a closed stdin
        return False


def main(argv: list[str] | None = None) -> int:
    """The hook when run with no arguments and stdin is not a terminal; the CLI otherwise
    (no arguments in a terminal: the newest session of this folder, as ctx-usage)."""
    args = sys.argv[1:] if argv is None else argv
    if not args and not _typed_in_a_terminal():
        # The hook; with nothing on stdin (`ctx-audit < /dev/null`) run_hook says what
        # the command is and how to use it, exit 0.
        return run_hook(HOOK_NAME, hook_output, argv=args)
    from context_memory.commands.audit import run_cli

    return run_cli(args)


if __name__ == "__main__":
    sys.exit(main())
