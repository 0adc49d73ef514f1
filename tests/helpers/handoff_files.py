"""Handoff files in the real format (handoff.render_handoff), for the merge tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from context_memory.core.isotime import parse_time
from context_memory.memory.handoff import render_handoff
from context_memory.merge.sources import HandoffFile


def sections(
    decided: Sequence[str] = (),
    rejected: Sequence[str] = (),
    risks: Sequence[str] = (),
    files: Sequence[str] = (),
    remaining: Sequence[str] = (),
) -> dict[str, list[str]]:
    return {
        "Decided": list(decided),
        "Rejected": list(rejected),
        "Risks": list(risks),
        "Files Modified": list(files),
        "Remaining": list(remaining),
    }


def write_handoff(
    state: Path,
    session: str,
    stage: int,
    time: str | None,
    **items: Sequence[str],
) -> Path:
    """``<state>/sessions/<session>/handoffs/stage-<stage>.md``; ``time`` None leaves the
    front matter without a time (the merge then uses the file time)."""
    meta = {"session": session, "stage": str(stage)}
    if time is not None:
        meta["time"] = time
    path = state / "sessions" / session / "handoffs" / f"stage-{stage}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_handoff(meta, sections(**items)), encoding="utf-8")
    return path


def handoff(session: str, stage: int, time: str, **items: Sequence[str]) -> HandoffFile:
    """An in-memory handoff, as scan_handoffs returns it."""
    stamp = parse_time(time)
    assert stamp is not None
    path = f"/state/sessions/{session}/handoffs/stage-{stage}.md"
    return HandoffFile(path, session, stage, stamp, "front matter", sections(**items))
