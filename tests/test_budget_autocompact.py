"""ctx-budget when auto-compaction seems to have stopped, and the transcript reading behind it."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import transcript_rows as tr
from context_memory import budget
from context_memory.budget import autocompact_stopped_limit
from context_memory.transcript import recent_reply_tokens

SESSION = "11111111-2222-3333-4444-555555555555"
# claude-sonnet-4-6: 200K window, 32K max output -> threshold 167,000; limit 175,350.
STOPPED = (
    "[CONTEXT BUDGET] ~{usage}. Auto-compaction seems to have stopped: the context has been "
    "above the auto-compact threshold (167K) for 2 replies in a row with no compaction. Tell "
    "the user plainly: run /compact now, or write the handoff (ctx-handoff --draft) and start "
    "a new session, before the API refuses the request."
)


def replies(*tokens: int, boundary_after: int | None = None) -> list[dict]:
    rows: list[dict] = [tr.user("go"), tr.api_request("claude-sonnet-4-6")]
    for number, count in enumerate(tokens):
        rows.append(tr.assistant(f"msg_{number}", tr.usage(count)))
        rows.extend(tr.bookkeeping())
        if boundary_after == number:
            rows.append(tr.compact_boundary(count, 9_000))
            rows.append(tr.compact_summary("summary"))
    return rows


def run(monkeypatch, capsys, path: Path, project: Path) -> str:
    payload = {
        "session_id": SESSION,
        "transcript_path": str(path),
        "cwd": str(project),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "next",
    }
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode())))
    assert budget.main([]) == 0
    out = capsys.readouterr().out
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


def test_limit_is_five_percent_over_the_threshold_within_the_window():
    assert autocompact_stopped_limit(167_000, 200_000) == 175_350
    # 1M window: 5% (48,350) would be past the window; half the room (16,500) is used.
    assert autocompact_stopped_limit(967_000, 1_000_000) == 983_500


def test_two_replies_over_the_limit_replace_the_band_text(project, monkeypatch, capsys):
    path = tr.write_transcript(project / "s.jsonl", replies(176_000, 180_000))
    assert run(monkeypatch, capsys, path, project) == STOPPED.format(usage="180K/200K (90%)")


def test_chinese_text(project, monkeypatch, capsys):
    monkeypatch.setenv("CTX_LANG", "zh")
    path = tr.write_transcript(project / "s.jsonl", replies(176_000, 180_000))
    assert run(monkeypatch, capsys, path, project).startswith(
        "[CONTEXT BUDGET] ~180K/200K (90%)。自动压缩似乎已停止："
        "上下文已连续 2 次回复超过自动压缩阈值（167K）"
    )


@pytest.mark.parametrize(
    "rows",
    [
        replies(170_000, 180_000),  # the previous reply was within the margin
        replies(180_000),  # only one reply so far
        replies(190_000, 176_000, 180_000, boundary_after=1),  # a compaction in between
    ],
)
def test_band_text_otherwise(project, monkeypatch, capsys, rows):
    path = tr.write_transcript(project / "s.jsonl", rows)
    assert run(monkeypatch, capsys, path, project).startswith(
        "[CONTEXT BUDGET] ~180K/200K (90%). Context is nearly full"
    )


def test_no_warning_when_auto_compaction_is_off(project, monkeypatch, capsys):
    monkeypatch.setenv("DISABLE_AUTO_COMPACT", "1")
    path = tr.write_transcript(project / "s.jsonl", replies(176_000, 180_000))
    assert "Auto-compaction seems" not in run(monkeypatch, capsys, path, project)


def test_recent_reply_tokens_counts_each_reply_once_and_stops_at_a_boundary(tmp_path):
    first = tr.assistant("msg_a", tr.usage(100))
    provisional = tr.assistant("msg_b", tr.usage(150))
    final = tr.assistant("msg_b", tr.usage(200))
    rows = [
        tr.assistant("msg_old", tr.usage(999)),
        tr.compact_boundary(999, 50),
        tr.compact_summary("s"),
        first,
        tr.api_error(),
        provisional,
        final,
        tr.assistant("msg_side", tr.usage(5), sidechain=True),
        *tr.bookkeeping(),
    ]
    path = tr.write_transcript(tmp_path / "s.jsonl", rows)
    assert recent_reply_tokens(path, 2) == [200, 100]
    assert recent_reply_tokens(path, 5) == [200, 100]
    assert recent_reply_tokens(path, 1) == [200]
