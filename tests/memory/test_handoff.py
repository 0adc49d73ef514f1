from __future__ import annotations

import os

import pytest

from context_memory.core.state import UnsafeNameError
from context_memory.memory.handoff import (
    HandoffFormatError,
    existing_stages,
    latest_handoff,
    parse_handoff,
    render_handoff,
    stage_path,
)
from helpers.handoff_files import write_handoff

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


def test_front_matter_keeps_the_four_keys_it_knows():
    """Handoff.meta is typed (HandoffMeta): a hand-written file's other fields are not read."""
    text = render_handoff(META, {}).replace("tokens: 150000\n", "tokens: 150000\nowner: dee\n")
    assert "owner: dee" in text
    assert parse_handoff(text).meta == META
    assert parse_handoff(text.replace("time: 2026-11-30T09:00:00Z\n", "")).meta == {
        "session": "s-1",
        "stage": "2",
        "tokens": "150000",
    }


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


def test_existing_stages_are_the_stage_files_in_order(tmp_path):
    state = str(tmp_path)
    assert existing_stages(state, "s") == []
    folder = tmp_path / "sessions" / "s" / "handoffs"
    folder.mkdir(parents=True)
    for name in ("stage-4.md", "stage-1.md", "notes.md", "stage-x.md", "stage-0.md"):
        (folder / name).write_text("x")
    assert existing_stages(state, "s") == [1, 4]


def test_the_latest_handoff_is_the_newest_by_its_own_date_not_its_file_time(tmp_path):
    """Issue 19: the pointer's "Latest handoff" was the newest file time, which git sets at
    checkout (every clone named another one), and a clock that ran ahead won for ever."""
    state = tmp_path / ".working-state"
    newest = write_handoff(state, "b-newest", 1, "2026-05-03T00:00:00Z", decided=["x"])
    write_handoff(state, "a-older", 4, "2026-05-02T00:00:00Z", decided=["x"])
    write_handoff(state, "c-ahead", 1, "2031-01-01T00:00:00Z", decided=["x"])
    write_handoff(state, "d-undated", 2, None, decided=["x"])
    write_handoff(state, "e-session", 1, "2026-04-01T00:00:00Z", decided=["x"])
    write_handoff(state, "e-session", 2, "2026-04-02T00:00:00Z", decided=["x"])
    now = 1_780_000_000.0  # 2026-05-28
    for file_time in (1_600_000_000, 2_000_000_000):
        for path in (state / "sessions").glob("*/handoffs/*.md"):
            os.utime(path, (file_time, file_time))
        os.utime(newest, (1_500_000_000, 1_500_000_000))  # the oldest file of all
        assert latest_handoff(str(state), now=now) == str(newest)
    # Once 2031 has come, the handoff dated then is the newest.
    ahead = state / "sessions" / "c-ahead" / "handoffs" / "stage-1.md"
    assert latest_handoff(str(state), now=1_925_000_000.0) == str(ahead)
    # With no dated handoff at all: the last session's highest stage (by name), not a file time.
    for path in (state / "sessions").glob("*/handoffs/*.md"):
        if path.parent.parent.name != "d-undated":
            path.unlink()
    write_handoff(state, "a-undated", 9, None, decided=["x"])
    expected = state / "sessions" / "d-undated" / "handoffs" / "stage-2.md"
    assert latest_handoff(str(state), now=now) == str(expected)
