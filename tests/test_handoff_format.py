from __future__ import annotations

import pytest

from context_memory.core.state import UnsafeNameError
from context_memory.memory.handoff import (
    HandoffFormatError,
    next_free_stage,
    parse_handoff,
    render_handoff,
    stage_path,
)

META = {"session": "s-1", "stage": "2", "time": "2026-11-30T09:00:00Z", "tokens": "150000"}


def test_render_is_exact_and_round_trips():
    text = render_handoff(META, {"Decided": ["Use Redis Cluster, 6 nodes"], "Rejected": ["Codis"]})
    assert text == (
        "---\nsession: s-1\nstage: 2\ntime: 2026-11-30T09:00:00Z\ntokens: 150000\n---\n"
        "# Handoff: stage 2\n\n"
        "## Decided\n- Use Redis Cluster, 6 nodes\n\n"
        "## Rejected\n- Codis\n\n"
        "## Risks\n- none\n\n"
        "## Files Modified\n- none\n\n"
        "## Remaining\n- none\n"
    )
    parsed = parse_handoff(text)
    assert parsed.meta == META
    assert parsed.sections == {
        "Decided": ["Use Redis Cluster, 6 nodes"],
        "Rejected": ["Codis"],
        "Risks": [],
        "Files Modified": [],
        "Remaining": [],
    }
    assert (parsed.session, parsed.stage) == ("s-1", 2)


def test_bullets_checkboxes_and_continuations():
    body = (
        "## Decided\n* one\n  continued\n1. two\n"
        "## Rejected\n- none\n## Risks\nplain line\n## Files Modified\n- a.py\n"
        "## Remaining\n- [ ] todo\n- [x] done too\n"
    )
    sections = parse_handoff(body).sections
    assert sections["Decided"] == ["one continued", "two"]
    assert sections["Rejected"] == []
    assert sections["Risks"] == ["plain line"]
    assert sections["Remaining"] == ["todo", "done too"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "## Decided\n## Rejected\n## Risks\n## Files Modified\n",
            "missing section '## Remaining'",
        ),
        (
            "## Decided\n## Rejectd\n",
            "unknown section '## Rejectd'; did you mean '## Rejected'? (expected: ## Decided, "
            "## Rejected, ## Risks, ## Files Modified, ## Remaining)",
        ),
        (
            "## Rejected\n## Decided\n## Risks\n## Files Modified\n## Remaining\n",
            "sections out of order: expected Decided, Rejected, Risks, Files Modified, Remaining; "
            "got Rejected, Decided, Risks, Files Modified, Remaining",
        ),
        (
            "## Decided\n## Decided\n",
            "section '## Decided' appears twice",
        ),
        ("---\nsession: x\n## Decided\n", "front matter opened with '---' is never closed"),
    ],
)
def test_format_errors_name_the_problem(body, message):
    with pytest.raises(HandoffFormatError) as caught:
        parse_handoff(body)
    assert str(caught.value) == message


def test_stage_paths_stay_inside(tmp_path):
    state = str(tmp_path / ".working-state")
    assert stage_path(state, "s-1", 3) == f"{state}/sessions/s-1/handoffs/stage-3.md"
    for bad_session in ("../x", "/etc", "a/b", "..", "", "x" * 129, "a\x00b", ".hidden"):
        with pytest.raises(UnsafeNameError):
            stage_path(state, bad_session, 1)
    for bad_stage in (0, -1, 100_001):
        with pytest.raises(HandoffFormatError):
            stage_path(state, "s-1", bad_stage)


def test_next_free_stage(tmp_path):
    state = str(tmp_path)
    assert next_free_stage(state, "s") == 1
    folder = tmp_path / "sessions" / "s" / "handoffs"
    folder.mkdir(parents=True)
    for name in ("stage-1.md", "stage-4.md", "notes.md", "stage-x.md"):
        (folder / name).write_text("x")
    assert next_free_stage(state, "s") == 5
