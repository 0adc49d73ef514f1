from __future__ import annotations

import json
from pathlib import Path

import pytest

from context_memory.commands.usage import main as usage_main
from context_memory.core.prompt_tables import DEFAULT_BAND_THRESHOLDS
from context_memory.measure.timeline import biggest_jumps, build_timeline, candidate_lines
from context_memory.measure.timeline_chart import format_timeline, render_timeline
from helpers import transcript_rows as tr
from helpers.cli_run import run_main
from helpers.paths import SAMPLE_TRANSCRIPT


def reply(message_id: str, tokens: int, *blocks: dict) -> list[dict]:
    """One API response as the client writes it: one row per block, the same message id,
    provisional usage on all but the last row."""
    content = list(blocks) or [{"type": "text", "text": "done"}]
    rows = []
    for index, block in enumerate(content):
        final = index == len(content) - 1
        use = tr.usage(tokens, 0, 0, 0) if final else tr.usage(7, 0, 0, 1)
        rows.append(tr.assistant(message_id, use, content=[block]))
    return rows


def session_rows() -> list[dict]:
    read = tr.tool_use("Read", {"file_path": "/repo/src/big_module.py"})
    grep = tr.tool_use("Grep", {"pattern": "TODO"})
    bash = tr.tool_use("Bash", {"command": "pytest -q   tests/"})
    return [
        tr.user("start"),
        *reply("msg_a", 20_000, {"type": "text", "text": "looking"}, read),
        tr.tool_result(read["id"], "x" * 500),
        *reply("msg_b", 60_000, grep, bash),
        tr.assistant("side_1", tr.usage(90_000, 0, 0, 0), sidechain=True),
        tr.api_error(),
        tr.prompt_snapshot(5_000),
        *reply("msg_c", 75_000),
        *tr.bookkeeping(),
        tr.compact_boundary(75_000, 9_000, trigger="auto"),
        tr.compact_summary("the summary"),
        tr.user("go on"),
        *reply("msg_d", 30_000),
        tr.interrupted("msg_int"),
        *reply("msg_e", 31_000),
        *tr.bookkeeping(),
    ]


@pytest.fixture
def session(tmp_path: Path) -> Path:
    return tr.write_transcript(tmp_path / "s.jsonl", session_rows())


def test_points_compactions_and_tools(session):
    timeline = build_timeline(session)
    assert [(p.turn, p.tokens, p.message_id, p.tools) for p in timeline.points] == [
        (1, 20_000, "msg_a", ["Read /repo/src/big_module.py"]),
        (2, 60_000, "msg_b", ["Grep TODO", "Bash pytest -q tests/"]),
        (3, 75_000, "msg_c", []),
        (4, 30_000, "msg_d", []),
        (5, 31_000, "msg_e", []),
    ]
    assert [c.as_dict() for c in timeline.compactions] == [
        {
            "after_turn": 3,
            "trigger": "auto",
            "pre_tokens": 75_000,
            "post_tokens": 9_000,
            "timestamp": "2026-11-30T09:10:51.029Z",
        }
    ]


def test_biggest_jumps(session):
    jumps = [j.as_dict() for j in biggest_jumps(build_timeline(session))]
    assert jumps == [
        {
            "turn": 2,
            "added": 40_000,
            "from": 20_000,
            "to": 60_000,
            "tools": ["Read /repo/src/big_module.py"],
            "after_compaction": False,
        },
        {
            "turn": 4,
            "added": 21_000,
            "from": 9_000,
            "to": 30_000,
            "tools": [],
            "after_compaction": True,
        },
        {
            "turn": 3,
            "added": 15_000,
            "from": 60_000,
            "to": 75_000,
            "tools": ["Grep TODO", "Bash pytest -q tests/"],
            "after_compaction": False,
        },
        {
            "turn": 5,
            "added": 1_000,
            "from": 30_000,
            "to": 31_000,
            "tools": [],
            "after_compaction": False,
        },
    ]


@pytest.mark.parametrize("block_size", [16, 64, 100, 1000, 1 << 20])
def test_block_size_does_not_change_the_lines(session, block_size):
    assert list(candidate_lines(session, block_size=block_size)) == list(candidate_lines(session))


def test_only_candidate_rows_are_yielded(session):
    kinds = [json.loads(line)["type"] for line in candidate_lines(session)]
    assert set(kinds) == {"assistant", "system"}
    # 2 + 2 + 1 rows of replies, the sidechain row, the API error, 1 + interrupted + 1.
    assert kinds.count("assistant") == 10 and kinds.count("system") == 1


def test_half_written_last_line_and_no_final_newline(tmp_path):
    rows = [tr.user("go"), *reply("msg_a", 1_000), *reply("msg_b", 2_000)]
    path = tr.write_transcript(tmp_path / "s.jsonl", rows, tail=b'{"type":"assistant","mess')
    assert [p.tokens for p in build_timeline(path).points] == [1_000, 2_000]
    data = path.read_bytes()
    path.write_bytes(data[: data.rindex(b"\n")])  # last complete row without its newline
    assert [p.tokens for p in build_timeline(path).points] == [1_000, 2_000]


def test_spaced_json_is_read_too(tmp_path):
    rows = [tr.user("go"), *reply("msg_a", 1_000), tr.compact_boundary(1_000, 500)]
    path = tmp_path / "spaced.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    timeline = build_timeline(path)
    assert [p.tokens for p in timeline.points] == [1_000]
    assert [c.post_tokens for c in timeline.compactions] == [500]


def test_nested_assistant_objects_of_other_rows_are_not_points(tmp_path):
    progress = {
        "type": "progress",
        "data": {"message": tr.assistant("msg_nested", tr.usage(99_999, 0, 0, 0))},
    }
    rows = [tr.user("go"), progress, *reply("msg_a", 1_000)]
    path = tr.write_transcript(tmp_path / "s.jsonl", rows)
    assert [p.message_id for p in build_timeline(path).points] == ["msg_a"]


def test_empty_and_missing_files(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert build_timeline(empty).points == []
    with pytest.raises(FileNotFoundError):
        build_timeline(tmp_path / "missing.jsonl")


# --------------------------------------------------------------------------- drawing


def test_chart_exact(session):
    lines, per_column = render_timeline(
        build_timeline(session),
        window=100_000,
        band_bounds=DEFAULT_BAND_THRESHOLDS,
        autocompact=80_000,
        width=50,
        height=5,
    )
    # Rows of 20K; replies at 20K, 60K, 75K, then 30K and 31K after the compaction.
    assert per_column == 1
    assert lines == [
        "  80K ┤━━━━━ must-subagent 80%, stop 95%, auto-compact 80K",
        "  60K ┤┄┄▆┄┄ prefer-subagent 60%",
        "  40K ┤┄██┄┄ warn 40%",
        "      │ ██▄▄",
        "      │█████",
        "    0 └─────",
        "          ▲",
        "       turns 1-5",
    ]


def test_grouped_columns_show_the_peak(tmp_path):
    rows = [tr.user("go")]
    for i in range(1, 301):
        rows.extend(reply(f"msg_{i}", 1_000 * i))
    path = tr.write_transcript(tmp_path / "s.jsonl", rows)
    text = format_timeline(
        build_timeline(path),
        window=400_000,
        window_source="model-table",
        band_bounds=DEFAULT_BAND_THRESHOLDS,
        autocompact=367_000,
        transcript=str(path),
        width=80,
    )
    lines = text.splitlines()
    assert lines[0] == (
        "Context per turn: 300 replies, 0 compactions, window 400K (from model-table)"
    )
    # 80 columns - 7 for the axis - 20 for the widest label ("prefer-subagent 60%" and a
    # space) leave 53: 300 replies need 6 per column, so 50 columns.
    axis = next(line for line in lines if line.lstrip().startswith("0 └"))
    assert axis == "    0 └" + "─" * 50
    assert "1 column = 6 turns (peak)   ┄ band thresholds   ━ auto-compact" in lines
    assert lines[-6:] == [
        "Biggest jumps:",
        "  turn 2         +1,000  (1,000 -> 2,000)  after a user message",
        "  turn 3         +1,000  (2,000 -> 3,000)  after a user message",
        "  turn 4         +1,000  (3,000 -> 4,000)  after a user message",
        "  turn 5         +1,000  (4,000 -> 5,000)  after a user message",
        "  turn 6         +1,000  (5,000 -> 6,000)  after a user message",
    ]
    # The last column holds turns 295-300: its peak, 300K, is 75% of the window.
    prefer_row = next(line for line in lines if line.endswith(" prefer-subagent 60%"))
    assert prefer_row.endswith("▂▃▄▆▇██████ prefer-subagent 60%")


def test_colour_codes_only_when_asked(session):
    kwargs = {
        "window": 100_000,
        "window_source": "x",
        "band_bounds": DEFAULT_BAND_THRESHOLDS,
        "autocompact": 80_000,
        "transcript": "t",
        "band_colors": {"free": "32", "warn": "33", "prefer-subagent": "1;33"},
    }
    timeline = build_timeline(session)
    assert "\x1b[" not in format_timeline(timeline, **kwargs)
    coloured = format_timeline(timeline, color=True, **kwargs)
    assert "\x1b[1;33m█\x1b[0m" in coloured and "\x1b[32m█\x1b[0m" in coloured
    assert "\x1b[33m" not in coloured.replace("\x1b[1;33m", "")  # no reply in the warn band


# --------------------------------------------------------------------------- ctx-usage


def test_usage_timeline_json_on_the_sample():
    result = run_main(usage_main, ["--timeline", "--json", str(SAMPLE_TRANSCRIPT)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [(t["turn"], t["tokens"], t["tools"]) for t in data["turns"]] == [
        (1, 24_020, ["Write /home/dev/cache-service/config/redis.yaml"]),
        (2, 25_520, ["Edit /home/dev/cache-service/config/redis.yaml"]),
        (3, 27_020, ["Agent (check codis)"]),
        (4, 29_045, []),
        (5, 1_220, []),
    ]
    assert data["compactions"] == [
        {
            "after_turn": 5,
            "trigger": "manual",
            "pre_tokens": 1_220,
            "post_tokens": 2_743,
            "timestamp": data["compactions"][0]["timestamp"],
        }
    ]
    assert [(j["turn"], j["added"]) for j in data["jumps"]] == [(4, 2_025), (2, 1_500), (3, 1_500)]
    assert (data["window"], data["window_source"], data["autocompact_threshold"]) == (
        200_000,
        "model-table",
        167_000,
    )
    assert data["band_thresholds"]["must-subagent"] == {"percent": 80.0, "tokens": 160_000}


SAMPLE_TIMELINE = """\
Context per turn: 5 replies, 1 compaction, window 200K (from model-table)
{path}

 190K ┤┄┄┄┄┄┄ stop 95%
 167K ┤━━━━━━ auto-compact 167K
 160K ┤┄┄┄┄┄┄ must-subagent 80%
      │
 120K ┤┄┄┄┄┄┄ prefer-subagent 60%
      │
      │
  80K ┤┄┄┄┄┄┄ warn 40%
      │
      │
      │▄▄▅▆
      │████▁▁
    0 └──────
            ▲
       turns 1-5

▲ compaction   ┄ band thresholds   ━ auto-compact

Biggest jumps:
  turn 4         +2,025  (27,020 -> 29,045)  after Agent (check codis)
  turn 2         +1,500  (24,020 -> 25,520)  after Write /home/dev/cache-service/config/redis.yaml
  turn 3         +1,500  (25,520 -> 27,020)  after Edit /home/dev/cache-service/config/redis.yaml
"""


def test_usage_timeline_text_on_the_sample(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    result = run_main(usage_main, ["--timeline", str(SAMPLE_TRANSCRIPT)])
    assert result.exit_code == 0, result.output
    assert result.stdout == SAMPLE_TIMELINE.format(path=SAMPLE_TRANSCRIPT)


def test_usage_timeline_no_replies(tmp_path):
    path = tr.write_transcript(tmp_path / "s.jsonl", [tr.user("hello"), *tr.bookkeeping()])
    result = run_main(usage_main, ["--timeline", str(path)])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == (
        "No assistant reply in this transcript yet: nothing to draw."
    )


def test_usage_timeline_missing_file(tmp_path):
    result = run_main(usage_main, ["--timeline", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {tmp_path / 'nope.jsonl'}: no such file (give a transcript path or a session id)\n"
    )
