"""ctx-budget: the UserPromptSubmit hook that injects a graded context-budget instruction.

Runs before every prompt, so it stays on the standard library (no click, no orjson) and
reads only the end of the transcript.
"""

from __future__ import annotations

import sys

from context_memory import TYPE_CHECKING
from context_memory.core import lightos
from context_memory.core.hookio import (
    HookInput,
    HookInputError,
    as_hook_input,
    context_output,
    log_line,
    run_hook,
)
from context_memory.core.prompt_tables import (
    AUDIT_PENDING_MARK,
    AUTOCOMPACT_STOPPED_TEXTS,
    AUTOCOMPACT_STOPPED_TURNS,
    BUDGET_PREFIX,
    CROSSED_MARK,
)
from context_memory.core.state import UnsafeNameError, session_dir
from context_memory.measure.bands import (
    band_thresholds,
    budget_text,
    format_tokens,
    language,
    usage_text,
)
from context_memory.measure.report import ContextReport, measure_context
from context_memory.measure.window_cache import window_for_hook
from context_memory.transcript.reader import recent_reply_tokens

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

HOOK_NAME = "ctx-budget"
EVENT = "UserPromptSubmit"


def leave_crossed_mark(hook: HookInput) -> None:
    try:
        folder = hook.session_folder()
        state_dir = hook.state_dir
    except (UnsafeNameError, OSError):
        return
    if folder is None:
        return
    mark = lightos.join(folder, CROSSED_MARK)
    if lightos.lexists(mark):
        return
    try:
        from context_memory.core.fsutil import touch

        touch(mark, root=state_dir)
    except OSError:
        pass  # a read-only or full state folder must not cost the user the instruction


def at_autocompact_threshold(report: ContextReport) -> bool:
    """The newest reply is at or above the threshold and auto-compaction is on."""
    threshold = report.autocompact_threshold
    return threshold is not None and report.source == "usage" and report.tokens >= threshold


def autocompact_stopped_text(report: ContextReport, transcript: str, lang: str) -> str | None:
    """The plain warning when auto-compaction seems to have stopped, else None.

    The client compacts before sending once the context is above the threshold; after 3
    failed attempts in a turn it stops trying, and the context grows until it refuses to
    send (about window - 23,000: 177K of 200K, 977K of 1M). Seen as: the last 2 replies
    since the last compaction both above the threshold, so a compaction was due between
    them and did not happen. Only read when the newest reply already is above.
    """
    threshold = report.autocompact_threshold
    if threshold is None or not at_autocompact_threshold(report):
        return None
    replies = recent_reply_tokens(transcript, AUTOCOMPACT_STOPPED_TURNS)
    if len(replies) < AUTOCOMPACT_STOPPED_TURNS or min(replies) < threshold:
        return None
    template = AUTOCOMPACT_STOPPED_TEXTS.get(lang, AUTOCOMPACT_STOPPED_TEXTS["en"])
    return template.format(
        prefix=BUDGET_PREFIX,
        usage=usage_text(report.tokens, report.window, report.percent),
        threshold=format_tokens(threshold),
        turns=len(replies),
    )


def compacting_now_text(hook: HookInput, report: ContextReport, lang: str) -> str | None:
    """At or above the threshold: the client compacts right after this hook.

    Returns the note that it does, with the session's recorded decisions (they survive
    the compaction in this text, and the audit after it leaves them out). decisions.jsonl
    is read only here.
    """
    threshold = report.autocompact_threshold
    if threshold is None or not at_autocompact_threshold(report):
        return None
    session = hook.session_id
    state_dir: str | None
    folder: str | None
    try:
        state_dir = hook.state_dir
        folder = hook.session_folder()
    except UnsafeNameError:
        state_dir = folder = None
    from context_memory.measure.turn_start import turn_start_text

    return turn_start_text(
        state_dir=state_dir if session else None,
        folder=folder,
        session=session or "",
        transcript=report.transcript,
        usage=usage_text(report.tokens, report.window, report.percent),
        threshold=format_tokens(threshold),
        prefix=BUDGET_PREFIX,
        lang=lang,
    )


def pending_audit_text(hook: HookInput, transcript: str) -> str | None:
    """A compaction audit ctx-audit left for injection, claimed so it is injected once.

    Client 2.1.332 runs SessionStart "compact" before PostCompact, so the audit waits here
    for the next prompt. Costs one stat per prompt; the audit module loads only when the
    mark is there.
    """
    session = hook.session_id
    if not session:
        return None
    state_dir = hook.state_dir
    try:
        folder = session_dir(state_dir, session)
    except (UnsafeNameError, OSError):  # a linked session folder
        return None
    if not lightos.exists(lightos.join(folder, AUDIT_PENDING_MARK)):
        return None
    from context_memory.audit.store import take_pending_injection

    try:
        return take_pending_injection(state_dir, session, transcript, HOOK_NAME)
    except OSError as exc:
        # Read-only or full: the audit stays pending, the budget instruction still goes out.
        log_line(state_dir, HOOK_NAME, session, f"compaction audit left pending: {exc}")
        return None


def is_first_prompt(hook: HookInput, transcript: str) -> bool:
    """True before the client has written this session's transcript.

    Client 2.1.332 creates ``<session_id>.jsonl`` only after the first UserPromptSubmit
    hook ran: an empty context, not an error. Any other missing path still fails (logged).
    """
    session = hook.session_id
    return (
        bool(session)
        and lightos.basename(transcript) == f"{session}.jsonl"
        and not lightos.exists(transcript)
    )


def budget_output(
    payload: HookInput | dict[str, Any], env: Mapping[str, str] | None = None
) -> str | None:
    """The hook's stdout for ``payload``: one JSON document, or None in the free band."""
    env = lightos.environ() if env is None else env
    hook = as_hook_input(payload)
    if hook.answers(EVENT) is None:
        return None  # registered for another event: JSON for ours would be rejected
    transcript = hook.transcript_path
    if not transcript:
        raise HookInputError("the hook input has no transcript_path")
    if is_first_prompt(hook, transcript):
        return None
    # The window ctx-statusline recorded for this session, when it runs: the exact one.
    report = measure_context(transcript, statusline_window=window_for_hook(hook), env=env)
    if report.percent >= band_thresholds(env)[2]:
        leave_crossed_mark(hook)
    lang = language(env)
    text = (
        autocompact_stopped_text(report, transcript, lang)
        or compacting_now_text(hook, report, lang)
        or budget_text(report.band, report.tokens, report.window, report.percent, lang)
    )
    audit = pending_audit_text(hook, transcript)
    if audit:
        text = f"{audit}\n\n{text}" if text else audit
    return context_output(EVENT, text) if text else None


def main(argv: list[str] | None = None) -> int:
    # A hook takes no arguments (everything comes on stdin) but answers --help, --version.
    return run_hook(HOOK_NAME, budget_output, argv=argv)


if __name__ == "__main__":
    sys.exit(main())
