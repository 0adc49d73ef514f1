"""The [WORKING STATE] pointer: a few lines naming the plan, the decisions log, the latest
handoff, the merged decisions and the newest rejections, so the agent reads them itself.

ctx-restore injects it into a new session; the compaction audit adds it to what it puts
back. It is paid for in every session, so it stays short, and a project without working
state gets nothing at all. Standard library only.
"""

from __future__ import annotations

import os
import stat

from context_memory.core.decisions_log import live_records
from context_memory.core.safe_text import estimate_tokens, one_line
from context_memory.core.state import (
    MERGED_DECISIONS_MD,
    MERGED_DIR,
    PLAN_FILE,
    decisions_path,
    relative_path,
    usual_project,
)
from context_memory.core.tables import POINTER_REJECTION_TOKENS
from context_memory.memory.constraint import constraints_of, live_by_subject
from context_memory.memory.handoff import latest_handoff

POINTER_PREFIX = "[WORKING STATE]"
# The rejections are named in the pointer itself, whoever recorded them: on a shared project
# (ctx-doctor --team) a teammate's rejection reaches the next session on every clone. As
# many as fit in POINTER_REJECTION_TOKENS (core/tables.py), newest first; then a count.
REJECTION_CHARS = 200
REJECTIONS_TAIL_BYTES = 1024 * 1024  # union merges append at the end: the tail holds the news


def _has_content(path: str) -> bool:
    """A regular file (not a link: the agent is never pointed through one) with content."""
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size > 0


def recent_rejections(
    state_dir: str, limit: int | None = None, skip: frozenset[str] = frozenset()
) -> list[str]:
    """The live rejections of the log's last MB (any session, any author), newest first
    by when they were stated (the row's time of a captured record), the newest ``limit``
    when given, each as ``text (reason)`` cut to REJECTION_CHARS (``; user`` added for
    what the user stated); a line seen twice (a union merge) counts once, a record a
    supersede or drop mark retires, or a later record supersedes (memory/constraint.py's
    rule, applied at read time), not at all; nor one whose id is in ``skip`` (its line is
    in Claude Code's MEMORY.md: the client loads it by itself)."""
    return recent_records(state_dir, "rejected", limit, skip)


# Lines parsed besides those of the wanted kind: marks (which retire records), and typed
# records (any kind), as a typed record of another kind may supersede one of this kind (an
# approved plan, the rejections it resolved).
_ALSO_PARSED = (b'"target"', b'"ruled_out"', b'"preferred"')


def recent_records(
    state_dir: str, kind: str, limit: int | None = None, skip: frozenset[str] = frozenset()
) -> list[str]:
    """recent_rejections for records of ``kind`` (rejected or constraint), each item
    redacted (core/redact.py: a record written before the rule may hold a credential)."""
    from context_memory.core.redact import redact

    wanted = (f'"{kind}"'.encode(), *_ALSO_PARSED)
    records, _ = live_records(state_dir, tail_bytes=REJECTIONS_TAIL_BYTES, wanted=wanted)
    found: list[tuple[str, str]] = []
    for constraint in constraints_of(live_by_subject(records)):
        if constraint["kind"] != kind or not constraint["text"].strip():
            continue
        if constraint["id"] and constraint["id"] in skip:
            continue
        notes = [constraint["reason"]] if constraint["reason"].strip() else []
        if constraint["by"] == "user":
            notes.append("user")
        text = constraint["text"]
        item = f"{text} ({'; '.join(notes)})" if notes else text
        found.append((constraint["when"], one_line(redact(item), REJECTION_CHARS)))
    newest = sorted(found, key=lambda pair: pair[0], reverse=True)
    return [item for _, item in newest][:limit]


def budgeted_sentence(
    lead: str, items: list[str], noun: str, budget: int = POINTER_REJECTION_TOKENS
) -> str:
    """``<lead>a; b; c.``: the items (newest first) that fit in ``budget`` estimated tokens,
    then how many more there are and where to see them."""
    named: list[str] = []
    for item in items:
        if named and estimate_tokens("; ".join([*named, item])) > budget:
            break
        named.append(item)  # the newest is always named (it is cut to REJECTION_CHARS)
    sentence = lead + "; ".join(named) + "."
    more = len(items) - len(named)
    if more:
        sentence += f" And {more} more {noun} (ctx-decide --list shows them all)."
    return sentence


def rejections_sentence(rejected: list[str], budget: int = POINTER_REJECTION_TOKENS) -> str:
    """``Rejected, do not propose again: a; b; c.`` within ``budget`` estimated tokens."""
    return budgeted_sentence("Rejected, do not propose again: ", rejected, "rejections", budget)


def recovery_pointer(
    state_dir: str,
    base: str | None = None,
    *,
    with_rejections: bool = True,
    in_memory: frozenset[str] = frozenset(),
) -> str | None:
    """The short pointer to the working state in ``state_dir``, or None when there is none.
    Rejections and constraints whose ids are in ``in_memory`` (their lines are in Claude
    Code's MEMORY.md, memory/native.py) are not named again.

    Paths are shown relative to ``base`` (default: the project, when the state folder is
    the usual ``<project>/.working-state``) and absolute otherwise.
    """
    if base is None:
        base = usual_project(state_dir)
    first = [
        path
        for path in (os.path.join(state_dir, PLAN_FILE), decisions_path(state_dir))
        if _has_content(path)
    ]
    handoff = latest_handoff(state_dir)
    merged = os.path.join(state_dir, MERGED_DIR, MERGED_DECISIONS_MD)
    if not _has_content(merged):
        merged = ""
    if not first and not handoff and not merged:
        return None
    sentences = [f"{POINTER_PREFIX} This project keeps its working memory on disk."]
    if first:
        sentences.append("Read " + " and ".join(relative_path(p, base) for p in first) + " first.")
    rejected = recent_rejections(state_dir, skip=in_memory) if with_rejections else []
    if rejected:
        sentences.append(rejections_sentence(rejected))
    required = recent_records(state_dir, "constraint", skip=in_memory) if with_rejections else []
    if required:
        sentences.append(budgeted_sentence("Constraints: ", required, "constraints"))
    if handoff:
        sentences.append(f"Latest handoff: {relative_path(handoff, base)}.")
    if merged:
        sentences.append(f"Merged decisions: {relative_path(merged, base)}.")
    sentences.append("Record new decisions with ctx-decide.")
    # Paths hold folder names nobody checked: one line, no control characters.
    return one_line(" ".join(sentences))
