"""Source b: plan mode. An approved ``ExitPlanMode`` plan is the user's decision; a plan
rejected with feedback is a rejection (handled with the other rejections, source "plan").

The approval answers the call with ``User has approved your plan. You can now start
coding.`` and ``toolUseResult: {"plan": ..., "planWasEdited": ...}``; the plan there is the
one approved (the user may have edited it), else the call's ``input.plan``.
"""

from __future__ import annotations

import re

from context_memory.capture.items import make_item
from context_memory.capture.text import clip

TYPE_CHECKING = False  # typing costs an import on the Stop path; mypy still reads the block
if TYPE_CHECKING:
    from typing import Any

APPROVED_START = "User has approved your plan"
_MARKDOWN = re.compile(r"[#*`>|]+|\[([^\]\n]{0,200})\]\([^)\n]{0,300}\)")


def plan_summary(plan: str) -> str:
    """The plan as one plain line (markdown marks and link targets dropped), bounded."""
    return clip(_MARKDOWN.sub(lambda m: m.group(1) or " ", plan[:4000]), 300)


def plan_item(row: dict[str, Any], text: str, call: dict[str, str]) -> dict[str, Any]:
    result = row.get("toolUseResult")
    plan = result.get("plan") if isinstance(result, dict) else None
    if not isinstance(plan, str) or not plan.strip():
        plan = call.get("gist", "")
    summary = plan_summary(plan)
    return make_item(
        "decided",
        "user",
        "plan",
        row,
        decision=f"approved plan: {summary}" if summary else "approved plan",
        quote=text,
        call=dict(call) if call else {"tool": "ExitPlanMode"},
    )
