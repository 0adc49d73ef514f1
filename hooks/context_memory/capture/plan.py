"""Source b: plan mode. An approved ``ExitPlanMode`` plan is the user's decision; a plan
rejected with feedback is a rejection (handled with the other rejections, source "plan").

The approval answers the call with ``User has approved your plan. You can now start
coding.`` and ``toolUseResult: {"plan": ..., "planWasEdited": ...}``; the plan there is the
one approved (the user may have edited it), else the call's ``input.plan``. Its anchors
come from the whole plan, not its first lines.

An approval resolves the plan rejections since the previous approval (the labelling rule:
"a rejected plan followed by an approved one is one decision at the approval row"): the
item lists their rows in ``resolves`` and the store marks them superseded. Feedback that
only defers or reorders the plan ("OK, so first commit, then proceed with this plan") is
no rejection: ``defers`` tells it.
"""

from __future__ import annotations

import re

from context_memory import TYPE_CHECKING
from context_memory.capture.items import PLAN_TOOLS, make_item
from context_memory.capture.result_texts import APPROVED_START
from context_memory.capture.text import clip

if TYPE_CHECKING:
    from typing import Any

MAX_PLAN = 24000
MAX_RESOLVED = 8
_MARKDOWN = re.compile(r"[#*`>|]+|\[([^\]\n]{0,200})\]\([^)\n]{0,300}\)")
# Feedback that lets the plan go ahead after something else: "first commit, then proceed",
# "go ahead with the plan after the tests pass", "proceed with this new plan".
_GO_AHEAD = (
    r"(?:proceed|go ahead|continue|carry on|implement(?:ing)?|execute|start)"
    r"(?:\s+(?:with|on|implementing))?(?:\s+(?:the|this|that|your))?(?:\s+(?:new|revised|same))?"
    r"\s+(?:plan|it|that)\b"
)
_DEFERS = re.compile(
    rf"\b(?:then|and then|after that|afterwards|once (?:that|it)(?:'s| is) done)\s*,?\s+"
    rf"(?:you can\s+|please\s+|we can\s+)?(?:{_GO_AHEAD}|proceed\b|go ahead\b|continue\b)"
    rf"|\b(?:first|before that|before you start)\b.{{0,200}}\b{_GO_AHEAD}"
    rf"|\b{_GO_AHEAD}.{{0,80}}\b(?:after|once|when)\b",
    re.IGNORECASE | re.DOTALL,
)


def plan_summary(plan: str) -> str:
    """The plan as one plain line (markdown marks and link targets dropped), bounded."""
    return clip(_MARKDOWN.sub(lambda m: m.group(1) or " ", plan[:4000]), 300)


def is_plan_tool(tool: str) -> bool:
    return tool in PLAN_TOOLS


def is_approval(row: dict[str, Any], text: str, tool: str) -> bool:
    """A plan approval: the client's text answering a plan call, or (its call no longer
    remembered) that text with the client's ``toolUseResult`` holding the plan."""
    if not text.startswith(APPROVED_START):
        return False
    if tool:
        return is_plan_tool(tool)
    result = row.get("toolUseResult")
    return isinstance(result, dict) and isinstance(result.get("plan"), str)


def defers(feedback: str) -> bool:
    """Whether plan feedback only defers or reorders the plan (it lets it go ahead)."""
    return bool(_DEFERS.search(feedback[:2000]))


def plan_item(
    row: dict[str, Any],
    text: str,
    call: dict[str, str],
    *,
    known: tuple[str, ...] = (),
    resolves: list[str] | None = None,
) -> dict[str, Any]:
    result = row.get("toolUseResult")
    plan = result.get("plan") if isinstance(result, dict) else None
    whole = plan if isinstance(plan, str) and plan.strip() else ""
    if not whole:
        plan = call.get("gist", "")
    summary = plan_summary(whole or str(plan))
    item = make_item(
        "decided",
        "user",
        "plan",
        row,
        decision=f"approved plan: {summary}" if summary else "approved plan",
        quote=text,
        call=dict(call) if call else {"tool": "ExitPlanMode"},
        whole=(whole[:MAX_PLAN],) if whole else (),
        known=known,
        tier="structural",
        subjects=([], []),
    )
    if resolves:
        item["resolves"] = list(resolves)[-MAX_RESOLVED:]
    return item
