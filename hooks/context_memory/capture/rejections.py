"""Source a: tool calls the user rejected in the permission prompt (protocol file sections
9 and 11). Only the client's own shapes count; every other error result is the tool's.

A rejecting ``tool_result`` (``is_error: true``, in a main-chain ``user`` row) is one of:
- ``The user doesn't want to proceed with this tool use. The tool use was rejected ...``,
  with no reason: the reason is the user's next prompt;
- the same text ending ``The user provided the following reason for the rejection:  <reason>``
  (clients up to 2.1.x), or ``... To tell you how to proceed, the user said:\\n<reason>``
  (newer clients; 2.1.332 also sets ``toolDenialKind: "user-rejected"`` and
  ``userFeedback``: the typed text alone);
- clients 2.0.0 to 2.0.36 (2.0.5 in the real transcripts): the content is the user's typed
  feedback alone, with ``toolUseResult: "Error: <the same text>"``.
2.1.332 writes the result again in an ``api-request-blob`` row: the engine reads ``user``
rows only, so one rejection is one record.

Never a rejection: the ``The user doesn't want to take this action right now`` of the other
calls of the same reply (the user did not weigh them); a ``toolDenialKind`` other than
``user-rejected`` (a settings rule, auto mode's check, an interrupt); and every tool's own
error: ``<tool_use_error>``, ``Exit code 1``, linter and test output, a PreToolUse hook's
block (``PreToolUse:Bash hook error: ...``, ``Blocked by ...``), a settings rule's
``Permission to use Bash with command ... has been denied``, MCP and Task errors, a Read
limit. Text a tool prints (a ``cat`` of a file quoting these sentences) is no error result.
"""

from __future__ import annotations

import re

from context_memory import TYPE_CHECKING
from context_memory.capture.text import strip_wrappers

if TYPE_CHECKING:
    from typing import Any

REJECT_START = "The user doesn't want to proceed with this tool use"
SIBLING_START = "The user doesn't want to take this action right now"
INTERRUPT_START = "[Request interrupted by user"
REASON_MARKS = (
    "The user provided the following reason for the rejection:",
    "To tell you how to proceed, the user said:",
)
# toolDenialKind (2.1.x): the user's own answer in the permission prompt, and the kinds
# that stop a call without anybody weighing it (an interrupt is the user's, with no words).
USER_REJECTED = "user-rejected"
INTERRUPT_KINDS = ("interrupted", "cancelled")
# Clients that wrote the user's typed feedback as the whole result: from 2.0.0 (1.0.x had
# no feedback in the prompt) to before 2.0.37, the first seen writing the marked reason.
BARE_FEEDBACK_VERSIONS = ((2, 0, 0), (2, 0, 37))
# Tools whose error results are never a permission prompt's answer.
NO_PROMPT_TOOLS = frozenset(
    ("Task", "Agent", "TaskOutput", "TodoWrite", "KillShell", "AskUserQuestion", "ExitPlanMode")
)
MAX_FEEDBACK = 1500
# Texts the client or a tool writes into an error result: never the user's feedback.
_TOOL_ERROR = re.compile(
    r"^(?:<tool_use_error>|Exit code \d|Error\b|Traceback|ERROR|FAILED|FAIL\b|PASS\b|"
    r"Found \d+ match|String to replace|File has not been read|File does not exist|"
    r"File content \(|No such|Claude requested permissions|This (?:Bash )?command|Permission|"
    r"Interrupted|Request interrupted|Shell \w+ is not running|InputValidationError|"
    r"PreToolUse|PostToolUse|Blocked by|MCP error|Agent type|npm (?:ERR|error|warn)|"
    r"\[|\{|=+|-+|\s|/|\w:\\)",
)
_ERROR_INSIDE = re.compile(
    r"\b(?:was blocked|blocked by|requires approval|not granted|has been denied|No such file|"
    r"command not found|Traceback|exit code|errno|stderr|timed out|is not running|"
    r"exceeds maximum|hook error|MCP error)\b|:\d+:\d+|\n\s+at |\n\s*\d+:\d+\s+error\b",
    re.IGNORECASE,
)
# The user talks to the agent: first or second person plural, requests.
_ADDRESSED = re.compile(
    r"\b(?:we|us|our|I|I'm|I'd|let'?s|please|don'?t|do not|no|instead|wait|stop|use)\b",
    re.IGNORECASE,
)


# A prompt that turns down what the agent was doing: the words of a correction at its
# start, or a negation anywhere (English, then the other languages capture reads).
_CORRECTS = re.compile(
    r"^\W*(?:no|nope|nah|wait|stop|hold on|wrong|not (?:that|this|like that)|undo|revert)\b"
    r"|\b(?:don'?t|do not|never|instead|rather than|not|shouldn'?t|no need)\b"
    r"|不要|别|不用|不是|不对|違う|やめ|じゃなく|ではなく|아니|하지 ?마|말고|"
    r"\b(?:nein|nicht|kein|non|pas|não|nao|nunca|nada de)\b|\bне\b|\bнет\b",
    re.IGNORECASE,
)


# A reason that only puts the call off or asks about it ("please add transformer.js too
# first", "wait a sec, we need to copy the favicon too", "would this work standalone?"):
# the user did not turn down what the call does, so it rules none of it out.
_DEFERS = re.compile(
    r"\b(?:first|wait|hold on|hang on|not yet|before (?:that|you|we|doing|committing)|"
    r"let me|later)\b|先|まず|먼저|\b(?:primero|zuerst|d'abord|primeiro)\b|сначала",
    re.IGNORECASE,
)


def only_defers(reason: str) -> bool:
    """Whether a rejection's reason puts the call off or asks about it (module comment)."""
    text = reason.strip()
    return text.endswith(("?", "？")) or bool(_DEFERS.search(text[:2000]))


def corrects(text: str) -> bool:
    """Whether a prompt typed right after an interrupt corrects the interrupted action."""
    return bool(_CORRECTS.search(text[:2000]))


def _version(value: object) -> tuple[int, ...] | None:
    if not isinstance(value, str):
        return None
    parts = value.strip().split(".")[:3]
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    return tuple(int(p) for p in parts)


def marked_reason(text: str) -> str:
    """The typed reason of a full rejection text ('' when it carries none)."""
    for mark in REASON_MARKS:
        at = text.find(mark)
        if at >= 0:
            return strip_wrappers(text[at + len(mark) :]).strip()[:MAX_FEEDBACK]
    return ""


def is_sibling_refusal(text: str) -> bool:
    return text.lstrip().startswith(SIBLING_START)


def bare_feedback(text: str) -> str:
    """The user's typed feedback when ``text`` reads as one, else '' (no tool's error)."""
    text = text.strip()
    if not text or len(text) > MAX_FEEDBACK or text.count("\n") > 6:
        return ""
    if _TOOL_ERROR.match(text) or _ERROR_INSIDE.search(text):
        return ""
    if not _ADDRESSED.search(text):
        return ""
    return text


def _bare_feedback_row(row: dict[str, Any], text: str, tool: str) -> bool:
    """Whether ``row`` is in the shape of 2.0.x's bare feedback: a client of those
    versions, ``toolUseResult`` exactly ``Error: <the content>``, a tool that asks."""
    version = _version(row.get("version"))
    low, high = BARE_FEEDBACK_VERSIONS
    if version is None or not low <= version < high or tool in NO_PROMPT_TOOLS:
        return False
    if tool.startswith("mcp__"):
        return False
    result = row.get("toolUseResult")
    return isinstance(result, str) and result == f"Error: {text}"


def read_result(row: dict[str, Any], text: str, tool: str) -> tuple[str, str]:
    """What an error ``tool_result`` of ``row`` (joined to a call of ``tool``, '' when not
    known) says: ("rejected", typed reason or ''), ("interrupted", '') or ("", '')."""
    denial = row.get("toolDenialKind")
    head = text.lstrip()
    if isinstance(denial, str):
        if denial in INTERRUPT_KINDS:
            return "interrupted", ""
        if denial != USER_REJECTED:
            return "", ""  # a settings rule, auto mode's check: nobody answered a prompt
        feedback = row.get("userFeedback")
        if isinstance(feedback, str) and feedback.strip():
            return "rejected", strip_wrappers(feedback).strip()[:MAX_FEEDBACK]
        return "rejected", marked_reason(head)
    if head.startswith(REJECT_START):
        return "rejected", marked_reason(head)
    if head.startswith(INTERRUPT_START):
        return "interrupted", ""
    if is_sibling_refusal(head):
        return "", ""
    if _bare_feedback_row(row, text, tool):
        feedback = bare_feedback(text)
        if feedback:
            return "rejected", feedback
    return "", ""
