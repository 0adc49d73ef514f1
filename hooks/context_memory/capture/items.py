"""One captured item (the fields of a decisions-log record except id/ts/session/author),
and the short description of a tool call that rejections and plans carry.

An item carries the typed fields of memory/constraint.py: ``ruled_out`` and ``preferred``
(subjects of a kind, capture/subjects.py) and ``tier``: ``structural`` for what the
client's own shapes hold (a rejected call and its reason, plan feedback and approval, an
AskUserQuestion answer), ``stated`` for a directive typed in a prompt; the agent's own
choices have none. Its anchors come from its whole texts (``whole``: the full plan, edit or
reason), while the texts it stores are one bounded line each.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.capture.anchors import MAX_WHOLE, anchors_of, command_head, split_choice
from context_memory.capture.subjects import of_text
from context_memory.capture.text import MAX_GIST, clip
from context_memory.core.hookio import EDIT_TOOLS
from context_memory.core.redact import REDACTED

if TYPE_CHECKING:
    from typing import Any

    from context_memory.core.subject import Subject

    Item = dict[str, Any]
PLAN_TOOLS = ("ExitPlanMode", "exit_plan_mode")  # the older clients' name too


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
    if name in PLAN_TOOLS:
        call["gist"] = clip(data.get("plan", ""), 300)
        return call
    values = [v for v in list(data.values())[:6] if isinstance(v, str)]
    call["gist"] = clip(" ".join(values), MAX_GIST)
    return call


def call_texts(name: str, tool_input: object) -> tuple[str, ...]:
    """The whole texts of a call that anchors are read from: a command, every new text of
    an edit, a plan (each up to MAX_WHOLE characters)."""
    data = tool_input if isinstance(tool_input, dict) else {}
    texts: list[object] = []
    if name == "Bash":
        texts.append(data.get("command"))
    elif name in EDIT_TOOLS:
        texts.extend((data.get("file_path"), data.get("notebook_path")))
        texts.extend((data.get("new_string"), data.get("content"), data.get("new_source")))
        edits = data.get("edits")
        for edit in edits[:20] if isinstance(edits, list) else []:
            if isinstance(edit, dict):
                texts.append(edit.get("new_string"))
    elif name in PLAN_TOOLS:
        texts.append(data.get("plan"))
    return tuple(t[:MAX_WHOLE] for t in texts if isinstance(t, str) and t)


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
    whole: tuple[str, ...] = (),
    known: tuple[str, ...] = (),
    tier: str = "",
    subjects: tuple[list[Subject], list[Subject]] | None = None,
) -> Item:
    """One captured item; anchors from its texts (and ``whole``, read in full; ``known``:
    the call's own), avoid and prefer from ``choice_text``; ``subjects`` (ruled_out,
    preferred), else the stances of ``choice_text``."""
    first: tuple[str, ...] = ()
    if call and call.get("command"):
        first = (command_head(call["command"]),)
    ruled_out, preferred = subjects if subjects is not None else of_text(choice_text)
    # A package rejection is about the package, not the package manager.
    packages = tuple(s["value"] for s in ruled_out if s["kind"] == "package")
    if packages:
        first = packages
    base = anchors_of(decision, reason, quote, *whole, first=first, known=known)
    anchors, prefer, avoid = split_choice(base, clip(choice_text, 600))
    if call and call.get("command") and prefer and first and first[0] and first[0] not in prefer:
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
        "ruled_out": list(ruled_out),
        "preferred": list(preferred),
    }
    if tier:
        item["tier"] = tier
    if call is not None:
        item["call"] = dict(call)
    return item


def without_secrets(item: Item, secrets: list[str]) -> Item:
    """``item`` with each of ``secrets`` (passwords the agent later handed a program:
    core/redact.passwords_given) taken out of every text it holds: the user typed the
    password at a permission prompt, and capture took it for the rejection's reason."""
    if not secrets:
        return item

    def scrub(value: Any) -> Any:
        if isinstance(value, str):
            for secret in secrets:
                value = value.replace(secret, REDACTED)
            return value
        if isinstance(value, list):
            return [scrub(v) for v in value if not (isinstance(v, str) and v in secrets)]
        if isinstance(value, dict):
            return {k: scrub(v) for k, v in value.items()}
        return value

    return {key: scrub(value) if key not in ("kind", "by", "source", "uuid") else value
            for key, value in item.items()}  # fmt: skip
