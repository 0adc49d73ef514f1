"""The texts the toolkit writes into Claude Code's auto memory (memory/native.py): which
records go there, each one's memory file in the client's format (frontmatter, the rule, a
``**Why:**`` and a ``**How to apply:**`` line) and its pointer line in MEMORY.md.

Every text comes from the decisions log (what the user said): one line each, through
core/safe_text, with nothing that could close the block's marker comments or break a
Markdown link.
"""

from __future__ import annotations

import json

from context_memory import TYPE_CHECKING
from context_memory.core.safe_text import one_line
from context_memory.core.subject import ACTIONABLE_KINDS, describe
from context_memory.core.tables import NATIVE_FILE_MARK, NATIVE_FILE_PREFIX, NATIVE_POINTER_CHARS
from context_memory.memory.constraint import constraint_of, live_by_subject

if TYPE_CHECKING:
    from collections.abc import Mapping

    from context_memory.memory.constraint import Constraint

    class Mirrored(Constraint):
        others: list[str]  # the alternatives the user did not choose (an answer's options)


TITLE_CHARS = 70
OTHER_CHARS = 40
MAX_OTHERS = 4
RULE_CHARS = 600
# Where a record's tier is not written (capture before the typed model), its source says it.
STRUCTURAL_SOURCES = ("tool-rejection", "plan", "question")
STATED_SOURCES = ("prompt",)
MIRRORED_KINDS = {"rejected": "feedback", "constraint": "feedback", "decided": "project"}
_SAFE_ID = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


# -- which records ---------------------------------------------------------------------------


def tier_of(constraint: Mapping[str, object]) -> str:
    """The record's tier, or the one its capture source implies (older captured records)."""
    tier = constraint.get("tier")
    if tier in ("structural", "stated"):
        return str(tier)
    source = constraint.get("source")
    if source in STRUCTURAL_SOURCES:
        return "structural"
    return "stated" if source in STATED_SOURCES else ""


def mirrored(records: list[dict[str, object]]) -> list[Mirrored]:
    """The live records (supersede rule applied) the user stated, in log order: what goes to
    auto memory, each with the alternatives the user did not choose. The agent's own
    records, auto memory's and a teammate's merged ones stay out (the pinned digest is the
    team's channel)."""
    found: list[Mirrored] = []
    for record in live_by_subject(records):
        constraint = constraint_of(record)
        if constraint is None or constraint["kind"] not in MIRRORED_KINDS:
            continue
        if constraint["by"] != "user" or constraint["source"] in ("auto-memory", "merge"):
            continue
        if not tier_of(constraint) or not safe_id(constraint["id"]):
            continue
        raw = record.get("alternatives")
        items = raw if isinstance(raw, list) else []
        others = [one_line(a, OTHER_CHARS) for a in items if isinstance(a, str) and a.strip()]
        found.append({**constraint, "others": others[:MAX_OTHERS]})
    return found


def safe_id(ident: str) -> bool:
    return 0 < len(ident) <= 64 and all(char in _SAFE_ID for char in ident)


# -- the texts -------------------------------------------------------------------------------


def _text(value: object, limit: int) -> str:
    # One line, no control characters; nothing that could close or fake the block's marker
    # comments or break a Markdown link.
    text = one_line(value, limit)
    for old, new in (("<!--", "<! --"), ("-->", "- ->"), ("](", "] (")):
        text = text.replace(old, new)
    return text


def file_name(constraint: Mirrored) -> str:
    return f"{NATIVE_FILE_PREFIX}{MIRRORED_KINDS[constraint['kind']]}_{constraint['id']}.md"


def rule_of(constraint: Mirrored) -> str:
    text = _text(constraint["text"], RULE_CHARS)
    if constraint["kind"] == "rejected":
        return f"Do not do this again: {text}"
    return text


def _title(constraint: Mirrored) -> str:
    lead = {"rejected": "Rejected", "constraint": "Rule", "decided": "Decided"}[constraint["kind"]]
    return _text(f"{lead}: {constraint['text']}", TITLE_CHARS).replace("[", "(").replace("]", ")")


def how_to_apply(constraint: Mirrored) -> str:
    out = [describe(s) for s in constraint["ruled_out"] if s["kind"] in ACTIONABLE_KINDS]
    pref = [describe(s) for s in constraint["preferred"] if s["kind"] in ACTIONABLE_KINDS]
    parts = []
    if out:
        parts.append("Never act on " + "; ".join(out) + " (no tool call, no proposal).")
    if pref:
        parts.append("Use " + "; ".join(pref) + " instead.")
    if constraint["others"]:
        parts.append("Not " + "; ".join(constraint["others"]) + ": the user chose otherwise.")
    if not parts:
        parts.append("Follow this in every session of this project until the user says otherwise.")
    parts.append("Ask the user before going against it.")
    return _text(" ".join(parts), RULE_CHARS)


def why_of(constraint: Mirrored) -> str:
    if constraint["reason"]:
        return _text(constraint["reason"], RULE_CHARS)
    if constraint["quote"]:
        return _text(f'the user said: "{constraint["quote"]}"', RULE_CHARS)
    return "the user said so."


def memory_file_text(constraint: Mirrored) -> str:
    """The memory file of a record, in the client's format (frontmatter, rule, Why, How)."""
    kind = MIRRORED_KINDS[constraint["kind"]]
    description = _text(
        f"{'Ruled out' if kind == 'feedback' else 'Decided'} by the user: {constraint['text']}",
        NATIVE_POINTER_CHARS,
    )
    return "\n".join(
        [
            "---",
            f"name: {json.dumps(_title(constraint), ensure_ascii=False)}",
            f"description: {json.dumps(description, ensure_ascii=False)}",
            "metadata:",
            f"  type: {kind}",
            f"  source: {NATIVE_FILE_MARK}",
            f"  record: {constraint['id']}",
            "---",
            "",
            rule_of(constraint),
            "",
            f"**Why:** {why_of(constraint)}",
            f"**How to apply:** {how_to_apply(constraint)}",
            "",
            f"(Mirrored by context-memory from the user's words; `ctx-decide --drop "
            f"{constraint['id']}` retracts it.)",
            "",
        ]
    )


def pointer_line(constraint: Mirrored) -> str:
    """``- [title](file) — hook``, under NATIVE_POINTER_CHARS."""
    head = f"- [{_title(constraint)}]({file_name(constraint)}) — "
    hook = why_of(constraint)
    if constraint["others"]:
        hook = f"not {', '.join(constraint['others'])}; {hook}"
    room = NATIVE_POINTER_CHARS - len(head)
    return head + (_text(hook, room) if room > 10 else "the user's rule")
