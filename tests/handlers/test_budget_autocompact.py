"""ctx-budget when auto-compaction seems to have stopped, and the transcript reading behind it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from context_memory.handlers import budget
from context_memory.transcript.reader import recent_reply_tokens
from helpers import transcript_rows as tr
from helpers.cli_run import run_hook_main
from helpers.hook_payloads import prompt_payload

SESSION = "11111111-2222-3333-4444-555555555555"
# claude-sonnet-4-6: 200K window, 32K max output -> threshold 167,000 (refused from ~177,000).
STOPPED = (
    "[CONTEXT BUDGET] ~{usage}. Auto-compaction seems to have stopped: the context has been "
    "above the auto-compact threshold ({threshold}) for 2 replies in a row with no compaction. "
    "Tell the user plainly: run /compact now, or write the handoff (ctx-handoff --draft) and "
    "start a new session, before the API refuses the request."
)
COMPACTING = "[CONTEXT BUDGET] ~{usage}: at the auto-compact threshold ({threshold}), so the client"


def replies(
    *tokens: int, boundary_after: int | None = None, model: str = "claude-sonnet-4-6"
) -> list[dict]:
    rows: list[dict] = [tr.user("go"), tr.api_request(model)]
    for number, count in enumerate(tokens):
        rows.append(
            tr.assistant(f"msg_{number}", tr.usage(count), model=model, requested_model=model)
        )
        rows.extend(tr.bookkeeping())
        if boundary_after == number:
            rows.append(tr.compact_boundary(count, 9_000))
            rows.append(tr.compact_summary("summary"))
    return rows


def run(monkeypatch, capsys, path: Path, project: Path) -> str:
    payload = prompt_payload(SESSION, path, project)
    status, out, _ = run_hook_main(monkeypatch, capsys, budget.main, payload)
    assert status == 0
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


@pytest.mark.parametrize(
    ("tokens", "usage"),
    [
        # Just above the threshold twice: 10K before the client refuses (~177K).
        ((167_500, 168_000), "168K/200K (84%)"),
        ((176_000, 172_000), "172K/200K (86%)"),
    ],
)
def test_two_replies_above_the_threshold_replace_the_band_text(
    project, monkeypatch, capsys, tokens, usage
):
    path = tr.write_transcript(project / "s.jsonl", replies(*tokens))
    assert run(monkeypatch, capsys, path, project) == STOPPED.format(usage=usage, threshold="167K")


def test_warning_on_a_1m_window_before_the_refusal_point(project, monkeypatch, capsys):
    # claude-opus-4-7: 1M window, compacts from 967,000; refused from about 977,000.
    rows = replies(968_000, 970_000, model="claude-opus-4-7")
    path = tr.write_transcript(project / "s.jsonl", rows)
    assert run(monkeypatch, capsys, path, project) == STOPPED.format(
        usage="970K/1M (97%)", threshold="967K"
    )


@pytest.mark.parametrize(
    ("env", "tokens", "threshold"),
    [
        ({"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50"}, (91_000, 92_000), "90K"),
        ({"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "100000"}, (68_000, 69_000), "67K"),
    ],
)
def test_the_threshold_follows_the_client_settings(
    project, monkeypatch, capsys, env, tokens, threshold
):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    path = tr.write_transcript(project / "s.jsonl", replies(*tokens))
    assert run(monkeypatch, capsys, path, project).endswith(
        f"above the auto-compact threshold ({threshold}) for 2 replies in a row with no "
        "compaction. Tell the user plainly: run /compact now, or write the handoff "
        "(ctx-handoff --draft) and start a new session, before the API refuses the request."
    )


def test_chinese_text(project, monkeypatch, capsys):
    monkeypatch.setenv("CTX_LANG", "zh")
    path = tr.write_transcript(project / "s.jsonl", replies(168_000, 170_000))
    assert run(monkeypatch, capsys, path, project).startswith(
        "[CONTEXT BUDGET] ~170K/200K (85%)。自动压缩似乎已停止："
        "上下文已连续 2 次回复超过自动压缩阈值（167K）"
    )


@pytest.mark.parametrize(
    "rows",
    [
        replies(160_000, 170_000),  # the previous reply was below the threshold
        replies(170_000),  # only one reply so far
        replies(190_000, 168_000, 170_000, boundary_after=1),  # a compaction in between
    ],
)
def test_one_reply_above_the_threshold_announces_the_compaction(project, monkeypatch, capsys, rows):
    path = tr.write_transcript(project / "s.jsonl", rows)
    assert run(monkeypatch, capsys, path, project).startswith(
        COMPACTING.format(usage="170K/200K (85%)", threshold="167K")
    )


def test_below_the_threshold_the_band_text(project, monkeypatch, capsys):
    path = tr.write_transcript(project / "s.jsonl", replies(166_000, 166_999))
    assert run(monkeypatch, capsys, path, project).startswith(
        "[CONTEXT BUDGET] ~167K/200K (83.5%). Context is nearly full"
    )


@pytest.mark.parametrize("name", ["DISABLE_AUTO_COMPACT", "DISABLE_COMPACT"])
def test_band_text_when_auto_compaction_is_off(project, monkeypatch, capsys, name):
    monkeypatch.setenv(name, "1")
    path = tr.write_transcript(project / "s.jsonl", replies(176_000, 180_000))
    assert run(monkeypatch, capsys, path, project).startswith(
        "[CONTEXT BUDGET] ~180K/200K (90%). Context is nearly full"
    )


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
