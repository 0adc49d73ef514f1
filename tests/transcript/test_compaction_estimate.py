"""After a compaction without postTokens and before the next reply: an estimate, never 0.

The real transcript of client 2.0.65 (slopometry fixture) has such a compaction: its
boundary has preTokens 155,317 and no postTokens; the next reply measured 34,935 tokens.
The fixtures hold no other compaction without postTokens (bench/bench_compaction_estimate.py
lists every one it finds).
"""

from __future__ import annotations

import json
from pathlib import Path

from context_memory.commands.handoff import tokens_in
from context_memory.core.state import EXTRACT_FILE
from context_memory.handlers.budget import budget_output
from context_memory.handlers.extract import act
from context_memory.handlers.statusline import context_numbers, format_line
from context_memory.transcript import compaction_estimate as ce
from context_memory.transcript.reader import scan_transcript
from helpers import transcript_rows as tr
from helpers.paths import run_bare_python
from helpers.real_fixture import SLOPOMETRY, real_lines, row_index, write_lines

SESSION = "0f112eb4-a676-476d-8986-d6c78693cd5b"
# baseline 22,153 + (summary 12,062 + files 29,434 + plan 3,139 + todos 972 chars) / 4
ESTIMATE = 33_555
NEXT_REPLY = 34_935


def cut_after_summary(folder: Path) -> Path:
    lines = real_lines(SLOPOMETRY)
    summary = row_index(lines, b'"isCompactSummary":true')
    return write_lines(folder / f"{SESSION}.jsonl", lines[: summary + 1])


def cut_after_next_reply(folder: Path) -> Path:
    """The same transcript, up to the last row of the first reply after the compaction."""
    lines = real_lines(SLOPOMETRY)
    summary = row_index(lines, b'"isCompactSummary":true')
    first = summary + 1
    assert b'"type":"assistant"' in lines[first]
    message_id = json.loads(lines[first])["message"]["id"]
    last = first
    while json.loads(lines[last + 1]).get("message", {}).get("id") == message_id:
        last += 1
    return write_lines(folder / "next.jsonl", lines[: last + 1])


def test_real_compaction_lands_within_10_percent_of_the_next_reply(tmp_path):
    """Before the re-attached files were counted whole, with the plan and todo list, it was
    28,030 (-19.8%: just inside the issue's 20%, so the bound here is 10%; now -4%)."""
    reading = scan_transcript(cut_after_summary(tmp_path))
    real = scan_transcript(cut_after_next_reply(tmp_path))
    assert (real.tokens, real.source) == (NEXT_REPLY, "usage")
    assert (reading.tokens, reading.source) == (ESTIMATE, "compaction-estimate")
    assert abs(reading.tokens - real.tokens) <= 0.10 * real.tokens
    assert reading.model == "claude-opus-4-5-20251101"


def test_the_parts_of_the_estimate(tmp_path):
    path = cut_after_summary(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    boundary = row_index(lines, b'"subtype":"compact_boundary"')
    start = sum(len(line) for line in lines[:boundary])
    end = start + len(lines[boundary]) - 1
    with path.open("rb") as handle:
        size = path.stat().st_size
        assert ce.baseline_tokens(handle, size) == 22_153  # the first reply's input
        assert ce.chars_after(handle, size, end) == 12_062  # the summary row's text
        parts = ce.restored_parts(handle, start)
        # The 5 files edited last, whole (3 over 5,000 tokens: a note each); the last
        # ExitPlanMode plan; the last TodoWrite list; no skill.
        assert (parts.files, parts.file_count) == (29_434, 5)
        assert (parts.plan, parts.todos, parts.skills) == (3_139, 972, 0)
        assert ce.restored_chars(handle, start) == 33_545
        assert ce.estimate_after_compaction(handle, size, start, end) == ESTIMATE


def test_post_tokens_stays_exact(tmp_path):
    rows = [tr.user("go"), tr.assistant("m1", tr.usage(90_000)), tr.compact_boundary(90_000, 4_321)]
    rows.append(tr.compact_summary("x" * 40_000))
    reading = scan_transcript(tr.write_transcript(tmp_path / "t.jsonl", rows))
    assert (reading.tokens, reading.source) == (4_321, "compaction")


def test_synthetic_without_post_tokens(tmp_path):
    """Baseline from the first reply, summary and a new prompt at 4 characters a token."""
    rows = [
        tr.user("go"),
        tr.assistant("m1", tr.usage(10, 5_000, 12_000, output_tokens=700)),
        tr.assistant("m2", tr.usage(10, 500, 150_000)),
        tr.compact_boundary(150_510, None, "auto"),
        tr.compact_summary("s" * 4_000),
        tr.user("p" * 400),
    ]
    reading = scan_transcript(tr.write_transcript(tmp_path / "t.jsonl", rows))
    summary_chars = len(rows[4]["message"]["content"])
    assert reading.source == "compaction-estimate"
    assert reading.tokens == 17_010 + -(-(summary_chars + 400) // 4)


def test_no_reply_within_reach_uses_the_default_baseline(tmp_path, monkeypatch):
    monkeypatch.setattr(ce, "BASELINE_SCAN_BYTES", 1_000)
    rows = [
        tr.user("q" * 2_000),
        tr.assistant("m1", tr.usage(10, 5_000, 12_000)),
        tr.compact_boundary(17_010, None),
        tr.compact_summary("s"),
    ]
    reading = scan_transcript(tr.write_transcript(tmp_path / "t.jsonl", rows))
    summary_chars = len(rows[3]["message"]["content"])
    assert reading.tokens == ce.DEFAULT_BASELINE_TOKENS + -(-summary_chars // 4)


def test_reading_after_the_boundary_is_bounded(tmp_path, monkeypatch):
    """Past AFTER_SCAN_BYTES the bytes count as characters, unread."""
    monkeypatch.setattr(ce, "AFTER_SCAN_BYTES", 10_000)
    rows = [
        tr.assistant("m1", tr.usage(1_000)),
        tr.compact_boundary(1_000, None),
        tr.compact_summary("s" * 100),
        tr.user("p" * 50_000),
    ]
    path = tr.write_transcript(tmp_path / "t.jsonl", rows)
    data = path.read_bytes()
    boundary_end = data.index(b"\n", data.index(b"compact_boundary"))
    beyond = len(data) - boundary_end - 10_000
    reading = scan_transcript(path)
    # The summary row is read; the 50,000-character prompt is cut by the bound.
    summary_chars = len(rows[2]["message"]["content"])
    partial = 10_000 - len(tr._dump(rows[2])) - 2  # both newlines, then the cut row's bytes
    assert reading.tokens == 1_000 + -(-(summary_chars + partial + beyond) // 4)


def test_nothing_yet_stays_zero(tmp_path):
    reading = scan_transcript(tr.write_transcript(tmp_path / "t.jsonl", [tr.user("hello")]))
    assert (reading.tokens, reading.source) == (0, "none")


def test_ctx_usage_in_a_fresh_process(tmp_path):
    path = cut_after_summary(tmp_path)
    # The estimate itself stays off re/json (the first ctx-usage run writes the compaction
    # count cache, whose temp file brings re: measured separately, before the report).
    code = (
        "import sys\n"
        "from context_memory.measure.report import measure_context\n"
        "from context_memory.commands.usage import main\n"
        f"tokens = measure_context({str(path)!r}).tokens\n"
        "heavy = [m for m in ('re', 'json') if m in sys.modules]\n"
        f"status = main([{str(path)!r}])\n"
        "print('status', status, 'tokens', tokens, 'heavy', heavy)\n"
    )
    done = run_bare_python(code)
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "33,555 / 200,000 tokens (16.8%)  band: free"
    assert lines[1] == (
        "  tokens        33,555 (estimated after a compaction that recorded no figure, "
        "no reply since)"
    )
    assert lines[5] == "  compactions   1"
    assert lines[-1] == "status 0 tokens 33555 heavy []"


def test_statusline_falls_back_to_the_estimate(tmp_path):
    path = cut_after_summary(tmp_path)
    payload = {
        "transcript_path": str(path),
        "model": {"id": "claude-opus-4-5-20251101"},
        "context_window": {"context_window_size": 200_000, "used_percentage": None},
    }
    numbers = context_numbers(payload, {})
    assert (numbers.tokens, numbers.source) == (ESTIMATE, "compaction-estimate")
    assert format_line(numbers) == (
        "█▋░░░░░░░░ 34K/200K 16.8% free · 133K to auto-compact (compacted, estimated)"
    )


def test_handoff_and_extract_carry_the_estimate(tmp_path, project):
    path = cut_after_summary(tmp_path)
    assert tokens_in(str(path)) == ESTIMATE
    payload = {"session_id": SESSION, "cwd": str(project), "transcript_path": str(path)}
    act(payload, str(project / ".working-state"), SESSION, "pre-compact-auto")
    extract_path = project / ".working-state" / "sessions" / SESSION / EXTRACT_FILE
    extract = json.loads(extract_path.read_text(encoding="utf-8"))
    assert (extract["tokens"], extract["tokens_source"]) == (ESTIMATE, "compaction-estimate")


def test_ctx_budget_shows_the_estimate(tmp_path):
    """With bands set low enough to speak, the budget text carries the estimate, not 0."""
    path = cut_after_summary(tmp_path)
    payload = {
        "session_id": SESSION,
        "transcript_path": str(path),
        "cwd": str(tmp_path),
        "hook_event_name": "UserPromptSubmit",
    }
    out = budget_output(payload, {"CTX_BANDS": "10,20,30,95"})
    assert out is not None
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert text.startswith("[CONTEXT BUDGET] ~34K/200K (16.8%)")


def _result_row(tool_use_result: dict, shown: str = "") -> dict:
    row = tr.user("")
    row["message"]["content"] = [{"type": "tool_result", "tool_use_id": "t", "content": shown}]
    row["toolUseResult"] = tool_use_result
    return row


def _read(path: str, content: str, lines: int, total: int) -> dict:
    read = {"filePath": path, "content": content, "numLines": lines, "totalLines": total}
    return _result_row({"type": "text", "file": read})


def _tool_call(name: str, tool_input: dict) -> dict:
    block = {"type": "tool_use", "id": "t", "name": name, "input": tool_input}
    return tr.assistant(f"m-{name}", tr.usage(10), content=[block])


def test_each_re_attached_part(tmp_path):
    """Files whole (a partial read scaled, an edit's file after it), a note over 5,000
    tokens, only the 5 used last; the last plan, todo list and skill."""
    line = "x" * 19 + "\n"  # 20 characters, 27 with its line number
    edit = {"filePath": "/p/edited.py", "originalFile": line * 100, "oldString": "a"}
    edit["newString"] = "bbb"
    plan = "# Plan\n" + "step\n" * 10
    todos = [{"content": "write tests", "status": "pending", "activeForm": "writing tests"}]
    skill = tr.user("Base directory for this skill: /p/.claude/skills/s\n\nbody " * 3)
    skill["isMeta"] = True
    rows = [
        tr.assistant("m1", tr.usage(10, 5_000, 12_000)),
        _read("/p/old.py", line * 10, 10, 10),  # the sixth file back: not re-attached
        _read("/p/partial.py", line * 50, 50, 200),  # a quarter shown
        _read("/p/huge.py", line * 1_000, 1_000, 1_000),  # 27,000: over 5,000 tokens
        _result_row(edit),
        _result_row({"type": "create", "filePath": "/p/new.py", "content": line * 4}),
        _read("/p/small.py", line * 2, 2, 2),
        _tool_call("ExitPlanMode", {"plan": plan}),
        _tool_call("TodoWrite", {"todos": todos}),
        skill,
        tr.compact_boundary(150_000, None, "auto"),
        tr.compact_summary("s" * 400),
    ]
    path = tr.write_transcript(tmp_path / "t.jsonl", rows)
    data = path.read_bytes()
    start = data.rindex(b"\n", 0, data.index(b"compact_boundary")) + 1
    with path.open("rb") as handle:
        parts = ce.restored_parts(handle, start)
    frame = ce.FILE_FRAME_CHARS
    # Each text ends with a newline: one more (empty) line numbered.
    whole = [(27 * 50 + 7) * 200 // 50, 27 * 100 + 7 + 2, 27 * 4 + 7, 27 * 2 + 7]
    assert parts.file_count == 5
    assert parts.files == sum(chars + frame for chars in whole) + ce.TOO_LARGE_NOTE_CHARS
    assert parts.plan == ce.PLAN_FRAME_CHARS + len(plan)
    texts = len("write tests") + len("pending") + len("writing tests")
    assert parts.todos == ce.TODO_FRAME_CHARS + texts + ce.TODO_ITEM_CHARS
    assert parts.skills == len(skill["message"]["content"]) + ce.SKILLS_FRAME_CHARS
