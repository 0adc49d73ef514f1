"""ctx-budget: the UserPromptSubmit hook that injects a graded context-budget instruction.

Runs before every prompt, so it stays on the standard library (no click, no orjson) and
reads only the end of the transcript.
"""

from __future__ import annotations

import os
import sys

from context_memory.bands import band_thresholds, budget_text, language
from context_memory.context_report import measure_context
from context_memory.hookio import HookInputError, context_output, run_hook, str_field
from context_memory.state import UnsafeNameError, resolve_state_dir, session_dir

TYPE_CHECKING = False  # typing costs an import on the prompt path; mypy still reads the block
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

HOOK_NAME = "ctx-budget"
EVENT = "UserPromptSubmit"
# Left in the session folder the first time the context reaches the must-subagent band;
# ctx-extract acts on the next Stop. A mark, not work: the prompt path stays light.
CROSSED_MARK = ".crossed-80"


def leave_crossed_mark(payload: dict[str, Any]) -> None:
    session = str_field(payload, "session_id")
    if not session:
        return
    try:
        folder = session_dir(resolve_state_dir(str_field(payload, "cwd")), session)
    except UnsafeNameError:
        return
    mark = os.path.join(folder, CROSSED_MARK)
    if os.path.exists(mark):
        return
    os.makedirs(folder, exist_ok=True)
    with open(mark, "a", encoding="ascii"):
        pass


def budget_output(payload: dict[str, Any], env: Mapping[str, str] | None = None) -> str | None:
    """The hook's stdout for ``payload``: one JSON document, or None in the free band."""
    env = os.environ if env is None else env
    transcript = str_field(payload, "transcript_path")
    if not transcript:
        raise HookInputError("the hook input has no transcript_path")
    report = measure_context(transcript, env=env)
    if report.percent >= band_thresholds(env)[2]:
        leave_crossed_mark(payload)
    text = budget_text(report.band, report.tokens, report.window, report.percent, language(env))
    return context_output(EVENT, text) if text else None


def main(argv: list[str] | None = None) -> int:
    del argv  # a hook takes no arguments; everything comes on stdin
    return run_hook(HOOK_NAME, budget_output)


if __name__ == "__main__":
    sys.exit(main())
