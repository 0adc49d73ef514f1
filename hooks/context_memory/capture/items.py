"""One captured item (the fields of a decisions-log record except id/ts/session/author),
and the short description of a tool call that rejections and plans carry."""

from __future__ import annotations

from context_memory.capture.anchors import anchors_of, command_head, split_choice
from context_memory.capture.text import MAX_GIST, clip

TYPE_CHECKING = False  # typing costs an import on the Stop path; mypy still reads the block
if TYPE_CHECKING:
    from typing import Any

    Item = dict[str, Any]
EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")


def call_of(name: str, tool_input: object) -> dict[str, str]:
    """What a tool call does, short: {"tool", "command"} or {"tool", "file", "gist"}."""
    data = tool_input if isinstance(tool_input, dict) else {}
    call = {"tool": clip(name, 60)}
    if name == "Bash":
        call["command"] = clip(data.get("command", ""), MAX_GIST)
        return call
    if name in EDIT_TOOLS:
        call["file"] = clip(data.get("file_path") or data.get("notebook_path") or "", MAX_GIST)
        body = data.get("new_string") or data.get("content") or data.get("new_source") or ""
        edits = data.get("edits")
        if not body and isinstance(edits, list) and edits and isinstance(edits[0], dict):
            body = edits[0].get("new_string", "")
        call["gist"] = clip(body if isinstance(body, str) else "", MAX_GIST)
        return call
    if name == "ExitPlanMode":
        call["gist"] = clip(data.get("plan", ""), 300)
        return call
    values = [v for v in list(data.values())[:6] if isinstance(v, str)]
    call["gist"] = clip(" ".join(values), MAX_GIST)
    return call


def describe_call(call: dict[str, str]) -> str:
    tool = call.get("tool", "")
    if "command" in call:
        return f"{tool}: {call['command']}"
    if call.get("file"):
        return f"{tool} {call['file']}: {call.get('gist', '')}"
    return f"{tool}: {call.get('gist', '')}"


def _row_ts(row: dict[str, Any]) -> str:
    stamp = row.get("timestamp")
    return clip(stamp, 40) if isinstance(stamp, str) else ""


def make_item(
    kind: str,
    by: str,
    source: str,
    row: dict[str, Any],
    *,
    decision: str,
    reason: str = "",
    quote: str = "",
    alternatives: list[str] | None = None,
    call: dict[str, str] | None = None,
    choice_text: str = "",
) -> Item:
    """One captured item; anchors from its texts, avoid/prefer from ``choice_text``."""
    first: tuple[str, ...] = ()
    if call and call.get("command"):
        first = (command_head(call["command"]),)
    decision, reason, quote = clip(decision), clip(reason), clip(quote)
    base = anchors_of(decision, reason, quote, first=first)
    anchors, prefer, avoid = split_choice(base, clip(choice_text, 600))
    if call and call.get("command") and prefer and first[0] and first[0] not in prefer:
        avoid = [first[0], *[a for a in avoid if a != first[0]]]
    item: Item = {
        "kind": kind,
        "by": by,
        "source": source,
        "uuid": clip(row.get("uuid", ""), 80) if isinstance(row.get("uuid"), str) else "",
        "row_ts": _row_ts(row),
        "decision": clip(decision),
        "reason": clip(reason),
        "quote": clip(quote),
        "alternatives": [clip(a, 120) for a in (alternatives or [])][:8],
        "anchors": anchors,
        "avoid": avoid,
        "prefer": prefer,
    }
    if call is not None:
        item["call"] = dict(call)
    return item
