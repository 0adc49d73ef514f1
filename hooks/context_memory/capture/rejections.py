"""Source a: tool calls the user rejected in the permission prompt (protocol file section 9).

Three shapes of a rejecting ``tool_result`` (``is_error: true``, in a main-chain user row):
- ``The user doesn't want to proceed with this tool use. The tool use was rejected ...``,
  with no reason: the reason is the user's next prompt;
- the same text ending ``The user provided the following reason for the rejection:  <reason>``
  (clients up to 2.1.x), or ``... To tell you how to proceed, the user said:\\n<reason>``
  (newer clients);
- client 2.0.5: the content is the user's typed feedback alone.
Other calls of the same reply get ``The user doesn't want to take this action right now``:
the user did not weigh them, nothing is captured. Tool failures (``<tool_use_error>``,
``Exit code 1``, test output, permission notices) are not rejections.
"""

from __future__ import annotations

import re

REJECT_START = "The user doesn't want to proceed with this tool use"
SIBLING_START = "The user doesn't want to take this action right now"
REASON_MARKS = (
    "The user provided the following reason for the rejection:",
    "To tell you how to proceed, the user said:",
)
MAX_FEEDBACK = 1500
# Texts the client or a tool writes into an error result: never the user's feedback.
_TOOL_ERROR = re.compile(
    r"^(?:<tool_use_error>|Exit code \d|Error\b|Traceback|ERROR|FAILED|Found \d+ match|"
    r"String to replace|File has not been read|File does not exist|No such|"
    r"Claude requested permissions|This (?:Bash )?command|Permission|Interrupted|"
    r"Request interrupted|Shell \w+ is not running|InputValidationError|\[|\{|=+|-+|\s)",
)
_ERROR_INSIDE = re.compile(
    r"\b(?:was blocked|requires approval|not granted|No such file|command not found|"
    r"Traceback|exit code|errno|stderr|timed out|is not running)\b|:\d+:\d+|\n\s+at ",
    re.IGNORECASE,
)
# The user talks to the agent: first or second person plural, requests.
_ADDRESSED = re.compile(
    r"\b(?:we|us|our|I|I'm|I'd|let'?s|please|don'?t|do not|no|instead|wait|stop|use)\b",
    re.IGNORECASE,
)


def rejection_reason(text: str) -> tuple[bool, str]:
    """(is a rejection, typed reason) for a tool_result text of the full rejection shape."""
    head = text.lstrip()
    if not head.startswith(REJECT_START):
        return False, ""
    for mark in REASON_MARKS:
        at = head.find(mark)
        if at >= 0:
            return True, head[at + len(mark) :].strip()[:MAX_FEEDBACK]
    return True, ""


def is_sibling_refusal(text: str) -> bool:
    return text.lstrip().startswith(SIBLING_START)


def bare_feedback(text: str) -> str:
    """The user's typed feedback when ``text`` is one (client 2.0.5's shape), else ''."""
    text = text.strip()
    if not text or len(text) > MAX_FEEDBACK or text.count("\n") > 6:
        return ""
    if _TOOL_ERROR.match(text) or _ERROR_INSIDE.search(text):
        return ""
    if not _ADDRESSED.search(text):
        return ""
    return text
