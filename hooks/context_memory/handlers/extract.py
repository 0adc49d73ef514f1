"""ctx-extract: the Stop and PreCompact hook that saves the session's key facts to disk.

A compaction summary keeps what the summariser decides to keep; the state folder keeps
everything. When it acts, this hook writes ``sessions/<id>/compaction-extract.json``
(decisions, rejections, risks, files modified, pending items, tokens, trigger, time) and,
when something is new since the last handoff, a draft handoff stage.

- ``PreCompact``: always acts, and prints the session's decisions and rejections as plain
  text, which the client appends to the compaction instructions: the one moment the
  summary can still be steered.
- ``Stop``: acts on every Nth stop of the session (COMPACTION_EXTRACT_INTERVAL, default 15)
  and at the first stop after ctx-budget marked the 80% crossing. Other stops cost one
  counter update. Subagent stops and re-entered stops are skipped.

- Both first capture what the user (and the agent) decided, rejected or required in the
  rows since the last capture (capture/store.py; ``CTX_CAPTURE=off`` turns it off): at
  PreCompact before the steering text is built, so what was just said reaches the
  summariser. A failed capture is logged and the rest goes on. Then the user's live
  records are mirrored into Claude Code's auto memory (memory/native.py; two stats when
  nothing changed; ``CTX_NATIVE_MEMORY=off`` turns it off).
- At Stop, when capture added records, the hook prints ``{"systemMessage": ...}``: one line
  per record with the id ``ctx-decide --drop ID`` takes (capture/notice.py). The client shows
  it to the user only (``Stop says: ...``); ``CTX_CAPTURE_NOTICE=off`` silences it.

It never blocks: no exit 2, no ``"decision": "block"`` (a blocked automatic compaction can
deadlock a session); errors fail open through hookio.run_hook, whose circuit breaker stops
trying for a session after 3 consecutive failures. Standard library only at import; the
acting path imports the rest.
"""

from __future__ import annotations

import os
import sys

from context_memory import TYPE_CHECKING
from context_memory.core.hookio import HookInput, HookInputError, as_hook_input, log_line, run_hook
from context_memory.core.prompt_tables import CROSSED_MARK
from context_memory.core.safe_text import clip, one_line, safe_block
from context_memory.core.state import EXTRACT_FILE, relative_path, session_dir
from context_memory.transcript import flushed

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from context_memory.memory.handoff_draft import SessionFacts

HOOK_NAME = "ctx-extract"
STOP_COUNTER = ".stop-count"
# Next to ctx-budget's mark: the crossing it records has been acted on. The mark itself
# stays (ctx-budget would only leave it again on the next prompt).
CROSSED_HANDLED = CROSSED_MARK + ".handled"
INTERVAL_ENV = "COMPACTION_EXTRACT_INTERVAL"
DEFAULT_INTERVAL = 15
# The PreCompact list is added to every compaction request: newest first, bounded.
MAX_STEERING_ITEMS = 20
MAX_STEERING_ITEM_CHARS = 300

# What the steering text lists (live records: superseded and dropped ones are left out).
STEERING_LABELS = {"decided": "Decided", "rejected": "Rejected", "constraint": "Constraint"}

TRIGGER_INTERVAL = "stop-interval"
TRIGGER_CROSSED = "stop-crossed-80"
TRIGGER_PRECOMPACT = "pre-compact-"  # + "manual" or "auto"


def extract_interval(env: Mapping[str, str] | None = None) -> int:
    """Stops between extractions; 0 turns the periodic extraction off. Bad values: default."""
    raw = (os.environ if env is None else env).get(INTERVAL_ENV, "").strip()
    if not raw:
        return DEFAULT_INTERVAL
    try:
        value = int(raw)
    except ValueError:
        return DEFAULT_INTERVAL
    return max(value, 0)


def bump_stop_counter(folder: str, state_dir: str) -> int:
    """Add one to the session's stop counter and return the new count.

    Stops of one session run one after another, so a plain replace is enough.
    """
    from context_memory.core.fsutil import atomic_write, read_bytes

    path = os.path.join(folder, STOP_COUNTER)
    try:
        count = int(read_bytes(path, 64, root=state_dir).strip() or b"0")
    except (OSError, ValueError):  # missing, damaged, a link or a FIFO: counting restarts
        count = 0
    count += 1
    atomic_write(path, str(count), root=state_dir)  # removes its temporary file on error
    return count


def stop_trigger(folder: str, count: int, interval: int) -> str | None:
    """Why this stop acts (TRIGGER_CROSSED first), or None."""
    if os.path.lexists(os.path.join(folder, CROSSED_MARK)) and not os.path.lexists(
        os.path.join(folder, CROSSED_HANDLED)
    ):
        return TRIGGER_CROSSED
    if interval and count % interval == 0:
        return TRIGGER_INTERVAL
    return None


def _touch(path: str, state_dir: str) -> None:
    from context_memory.core.fsutil import touch

    touch(path, root=state_dir)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def act(
    payload: HookInput | dict[str, Any], state_dir: str, session: str, trigger: str
) -> SessionFacts:
    """Write the extract and, when there is news, a draft handoff stage; return the facts."""
    import json

    from context_memory.core.fsutil import atomic_write
    from context_memory.measure.report import measure_context
    from context_memory.memory.decisions import utc_now_iso
    from context_memory.memory.extract import extract_document
    from context_memory.memory.handoff_draft import (
        StageRangeError,
        draft_sections,
        has_news,
        pending_items,
        session_facts,
        write_stage,
    )

    hook = as_hook_input(payload)
    project_dir = hook.project_dir
    transcript = hook.transcript_path
    tokens = 0
    tokens_source = "none"
    if transcript:
        try:
            report = measure_context(transcript)
            tokens, tokens_source = report.tokens, report.source
        except OSError:
            tokens = 0
    facts = session_facts(state_dir, session, transcript)
    if facts.problems:
        shown = ", ".join(str(p) for p in facts.problems[:5])
        more = f" and {len(facts.problems) - 5} more" if len(facts.problems) > 5 else ""
        log_line(state_dir, HOOK_NAME, session, f"skipped unreadable lines: {shown}{more}")
    now = utc_now_iso()
    sections = draft_sections(facts, state_dir, session, project_dir)
    handoff = None
    if has_news(sections):
        try:
            handoff = write_stage(state_dir, session, sections, tokens=tokens, now=now)
        except StageRangeError as exc:
            # A stage file numbered at the end of the range (made by hand or by an older
            # version): no draft, but the extract and the steering still go out.
            log_line(state_dir, HOOK_NAME, session, f"no draft handoff: {exc}")
    extract = extract_document(
        facts,
        session=session,
        trigger=trigger,
        time=now,
        tokens=tokens,
        tokens_source=tokens_source,
        pending=pending_items(facts, state_dir),
        handoff=handoff,
        state_dir=state_dir,
        project_dir=project_dir,
        transcript=transcript,
    )
    atomic_write(
        os.path.join(session_dir(state_dir, session), EXTRACT_FILE),
        json.dumps(extract, ensure_ascii=False, indent=2) + "\n",
        root=state_dir,
    )
    return facts


def steering_text(facts: SessionFacts, state_dir: str, project_dir: str) -> str | None:
    """The PreCompact stdout: the decisions and rejections the summary must keep."""
    from context_memory.core.state import decisions_path
    from context_memory.memory.constraint import constraint_of
    from context_memory.memory.decisions import str_list
    from context_memory.memory.handoff_draft import constraint_item

    kept = [
        (c, str_list(r.get("alternatives")))
        for r in facts.records
        if (c := constraint_of(r)) is not None and c["kind"] in STEERING_LABELS
    ]
    if not kept:
        return None
    shown = kept[-MAX_STEERING_ITEMS:]
    lines = [
        "Keep these recorded decisions and rejections, with their reasons, in the summary "
        "(they are also on disk):"
    ]
    for constraint, alternatives in shown:
        label = STEERING_LABELS[constraint["kind"]]
        item = clip(constraint_item(constraint, alternatives), MAX_STEERING_ITEM_CHARS)
        lines.append(f"- {label}: {item}")
    log = relative_path(decisions_path(state_dir), project_dir)
    earlier = len(kept) - len(shown)
    older = f"; {earlier} older ones are only there" if earlier else ""
    lines.append(
        one_line(f"Also state that the full decision log is {log} (ctx-decide --list){older}.")
    )
    return safe_block("\n".join(lines))


def _snapshot_digest(
    state_dir: str, folder: str, session: str, project_dir: str, trigger: str
) -> None:
    """Note which decisions the pinned digest holds as this compaction starts: they reach
    the model with every request, so the audit neither reports nor re-injects them."""
    from context_memory.pinned.snapshots import snapshot_for_compaction

    try:
        snapshot_for_compaction(state_dir, folder, project_dir, trigger)
    except (OSError, ValueError) as exc:  # the steering text below matters more
        log_line(state_dir, HOOK_NAME, session, f"pinned digest snapshot not written: {exc}")


def author_of(hook: HookInput) -> str:
    """Who the captured records are written by (as ctx-decide's: git's user, cached)."""
    from context_memory.memory.identity import record_author

    return record_author(hook.project_dir, hook.state_dir)


def capture_rows(
    hook: HookInput, state_dir: str, session: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Capture the rows since the session's last capture and return the records added and
    those a rewind took back (fails open on its own: the extract and the steering text
    matter more)."""
    transcript = hook.transcript_path
    if not transcript:
        return [], []
    from context_memory.capture.store import capture_enabled, capture_session

    if not capture_enabled():
        return [], []
    written = hook.event != "Stop" or reply_written(hook)
    try:
        result = capture_session(state_dir, session, transcript, author=lambda: author_of(hook))
    except FileNotFoundError as exc:
        if exc.filename == transcript:
            return [], []  # no transcript (yet): nothing to capture
        log_line(state_dir, HOOK_NAME, session, f"capture skipped: {exc}")
        return [], []
    except Exception as exc:  # noqa: BLE001 - fail open: the engine reads untrusted rows
        log_line(state_dir, HOOK_NAME, session, f"capture skipped: {type(exc).__name__}: {exc}")
        return [], []
    if not written:  # logged after capture, which makes the state folder of a new project
        log_line(
            state_dir,
            HOOK_NAME,
            session,
            f"the transcript did not hold the last reply after {flushed.WAIT_SECONDS:g} s: "
            "captured what was written, the rest at the next Stop",
        )
    if result.added or result.superseded or result.dropped:
        refresh_digest(state_dir, session)
    if result.skipped_bytes:
        log_line(
            state_dir,
            HOOK_NAME,
            session,
            f"capture read only the newest part of the transcript ({result.skipped_bytes} "
            "bytes skipped)",
        )
    return result.added, result.dropped


def reply_written(hook: HookInput) -> bool:
    """Whether the transcript holds the reply the Stop payload names, after waiting a
    bounded time for the client to write it (its flush before the hook is bounded too:
    transcript/flushed.py)."""
    return flushed.wait_for_reply(str(hook.transcript_path), hook.get("last_assistant_message"))


def capture_notice(added: list[dict[str, Any]], dropped: list[dict[str, Any]]) -> str | None:
    """The Stop hook's stdout when capture added records or a rewind dropped some:
    ``{"systemMessage": ...}``, shown to the user only (None when there are none or
    CTX_CAPTURE_NOTICE is off)."""
    if not added and not dropped:
        return None
    from context_memory.capture.notice import notice_enabled, notice_text

    if not notice_enabled():
        return None
    text = notice_text(added, dropped)
    if text is None:
        return None
    from context_memory.core.lightjson import dumps

    return dumps({"systemMessage": text})


def refresh_digest(state_dir: str, session: str) -> None:
    """Rebuild the pinned digest after capture changed the log, where the project opted in
    (as ctx-decide does after a record): what the user said reaches the team's channel at
    this Stop, not at the next command. A problem is logged; the records are written."""
    from context_memory.pinned.store import enabled, refresh

    if not enabled(state_dir):
        return
    for line in refresh(state_dir):
        if line.startswith("warning:"):
            log_line(state_dir, HOOK_NAME, session, f"pinned digest: {line}")


def mirror_to_auto_memory(hook: HookInput, state_dir: str, session: str, name: str) -> None:
    """Mirror the user's live records into Claude Code's auto memory (memory/native.py),
    right after capture; fails open on its own (logged), as capture does."""
    from context_memory.memory.native import sync_native

    try:
        result = sync_native(state_dir, hook.project_dir, session=session)
    except Exception as exc:  # noqa: BLE001 - fail open: a folder of the client's, untrusted
        log_line(state_dir, name, session, f"auto memory skipped: {type(exc).__name__}: {exc}")
        return
    if result.retracted:
        log_line(
            state_dir,
            name,
            session,
            f"auto memory: {len(result.retracted)} line(s) removed from MEMORY.md by someone "
            f"else; retracted {', '.join(result.retracted)}",
        )


def extract_output(payload: HookInput | dict[str, Any]) -> str | None:
    """The hook's stdout: the steering text on PreCompact; at Stop the capture notice when
    capture added records; nothing otherwise."""
    hook = as_hook_input(payload)
    event = hook.answers("Stop", "PreCompact")
    if event is None:
        return None  # SubagentStop, or registered for an event it does not handle
    if event == "Stop" and (
        hook.get("agent_id") is not None or hook.get("stop_hook_active") is True
    ):
        return None
    session = hook.session_id
    if not session:
        raise HookInputError("the hook input has no session_id")
    state_dir = hook.state_dir
    folder = session_dir(state_dir, session)
    added, dropped = capture_rows(hook, state_dir, session)
    mirror_to_auto_memory(hook, state_dir, session, HOOK_NAME)
    if event == "Stop":
        trigger = stop_trigger(folder, bump_stop_counter(folder, state_dir), extract_interval())
        if trigger is not None:
            act(hook, state_dir, session, trigger)
            if trigger == TRIGGER_CROSSED:
                _touch(os.path.join(folder, CROSSED_HANDLED), state_dir)
        return capture_notice(added, dropped)
    compaction = hook.text("trigger") or "manual"
    # First: an older snapshot must not stand in for this compaction if the rest fails.
    _snapshot_digest(state_dir, folder, session, hook.project_dir, compaction)
    facts = act(hook, state_dir, session, TRIGGER_PRECOMPACT + compaction)
    # After the compaction the context starts low again: a new crossing is a new event.
    _remove(os.path.join(folder, CROSSED_MARK))
    _remove(os.path.join(folder, CROSSED_HANDLED))
    return steering_text(facts, state_dir, hook.project_dir)


def main(argv: list[str] | None = None) -> int:
    # A hook takes no arguments (everything comes on stdin) but answers --help, --version.
    return run_hook(HOOK_NAME, extract_output, argv=argv)


if __name__ == "__main__":
    sys.exit(main())
