from __future__ import annotations

from pathlib import Path

import pytest

from context_memory.transcript.facts import files_touched, open_todos, scan_facts
from helpers import transcript_rows as tr
from helpers.paths import SAMPLE_TRANSCRIPT

PROJECT = "/home/dev/cache-service"


def write(tmp_path: Path, rows: list, tail: bytes = b"") -> Path:
    return tr.write_transcript(tmp_path / "t.jsonl", rows, tail)


def call(name: str, tool_input: dict, **extra):
    return tr.tool_call(name, tool_input, **extra)


def test_shipped_sample_write_then_edit_of_one_file():
    facts = scan_facts(SAMPLE_TRANSCRIPT)
    assert facts.edits == [
        (f"{PROJECT}/config/redis.yaml", "2026-11-30T09:10:51.029Z"),
        (f"{PROJECT}/config/redis.yaml", "2026-11-30T09:10:51.126Z"),
    ]
    assert facts.todos is None
    assert facts.truncated is False
    assert files_touched(facts.edits, PROJECT) == ["config/redis.yaml"]


def test_all_four_edit_tools_first_touched_order_deduplicated(tmp_path):
    rows = []
    for name, tool_input in [
        ("Write", {"file_path": f"{PROJECT}/b.py", "content": "x"}),
        ("Edit", {"file_path": f"{PROJECT}/a.py", "old_string": "1", "new_string": "2"}),
        ("MultiEdit", {"file_path": f"{PROJECT}/b.py", "edits": []}),
        ("NotebookEdit", {"notebook_path": f"{PROJECT}/nb/x.ipynb", "new_source": "1"}),
        ("Read", {"file_path": f"{PROJECT}/not-modified.py"}),
        ("Edit", {"file_path": "/etc/hosts", "old_string": "a", "new_string": "b"}),
    ]:
        row, tool_id = call(name, tool_input)
        rows += [row, tr.tool_result(tool_id), *tr.bookkeeping()]
    facts = scan_facts(write(tmp_path, rows))
    assert files_touched(facts.edits, PROJECT) == ["b.py", "a.py", "nb/x.ipynb", "/etc/hosts"]


def test_failed_and_sidechain_edits_do_not_count(tmp_path):
    ok, ok_id = call("Write", {"file_path": f"{PROJECT}/kept.py", "content": ""})
    refused, refused_id = call("Edit", {"file_path": f"{PROJECT}/refused.py"})
    sub, sub_id = call("Write", {"file_path": f"{PROJECT}/subagent.py"}, sidechain=True)
    rows = [
        ok,
        tr.tool_result(ok_id),
        refused,
        tr.tool_result(refused_id, "String to replace not found in file.", is_error=True),
        sub,
        tr.tool_result(sub_id),
    ]
    facts = scan_facts(write(tmp_path, rows))
    assert files_touched(facts.edits, PROJECT) == ["kept.py"]


def test_latest_todo_list_wins_and_open_items_keep_their_order(tmp_path):
    old, _ = call("TodoWrite", {"todos": [{"content": "old item", "status": "pending"}]})
    new, _ = call(
        "TodoWrite",
        {
            "todos": [
                {"content": "done item", "status": "completed", "activeForm": "x"},
                {"content": "wire  the\nconfig", "status": "in_progress"},
                {"content": "write tests", "status": "pending"},
                {"status": "pending"},
                "not an object",
            ]
        },
    )
    facts = scan_facts(write(tmp_path, [old, tr.user("next"), new, *tr.bookkeeping()]))
    assert facts.todos is not None
    assert open_todos(facts.todos) == ["wire the config", "write tests"]


def test_all_completed_todo_list_means_nothing_open(tmp_path):
    row, _ = call("TodoWrite", {"todos": [{"content": "a", "status": "completed"}]})
    facts = scan_facts(write(tmp_path, [row]))
    assert facts.todos == [{"content": "a", "status": "completed"}]
    assert open_todos(facts.todos) == []


def test_since_keeps_edits_from_that_second_on(tmp_path):
    rows = []
    for name, stamp in [
        ("early.py", "2026-11-30T09:00:00.500Z"),
        ("same.py", "2026-11-30T09:05:00.100Z"),
        ("late.py", "2026-11-30T09:06:00.000Z"),
    ]:
        row, _ = call("Write", {"file_path": f"{PROJECT}/{name}"}, timestamp=stamp)
        rows.append(row)
    facts = scan_facts(write(tmp_path, rows))
    assert files_touched(facts.edits, PROJECT, since="2026-11-30T09:05:00Z") == [
        "same.py",
        "late.py",
    ]
    assert len(files_touched(facts.edits, PROJECT)) == 3


def test_corrupt_and_half_written_lines_are_skipped(tmp_path):
    row, _ = call("Write", {"file_path": f"{PROJECT}/ok.py"})
    path = write(
        tmp_path,
        [row],
        tail=b'{"type":"assistant","name":"Write" broken\n'
        b'{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Write",'
        b'"input":{"file_path":"/x/half',
    )
    assert files_touched(scan_facts(path).edits, PROJECT) == ["ok.py"]


def test_byte_bound_reads_only_the_end(tmp_path):
    early, _ = call("Write", {"file_path": f"{PROJECT}/early.py"})
    late, _ = call("Write", {"file_path": f"{PROJECT}/late.py"})
    path = write(tmp_path, [early, tr.prompt_snapshot(200_000), late])
    facts = scan_facts(path, max_bytes=50_000)
    assert files_touched(facts.edits, PROJECT) == ["late.py"]
    assert facts.truncated is True


def test_missing_file_raises_oserror(tmp_path):
    with pytest.raises(FileNotFoundError):
        scan_facts(tmp_path / "missing.jsonl")


def test_paths_are_shown_from_the_project_only_when_inside_it() -> None:
    edits = [
        ("/p/src/a.py", ""),
        ("/p/../q/b.py", ""),  # normalised first: outside the project
        ("/pq/c.py", ""),  # a sibling whose name starts like the project's
        ("rel/d.py", ""),  # relative as the client wrote it: kept
        ("/p", ""),  # the project itself: absolute
        ("/p/src//a.py", ""),  # the same file again
    ]
    assert files_touched(edits, "/p") == ["src/a.py", "/q/b.py", "/pq/c.py", "rel/d.py", "/p"]
    assert files_touched(edits, None) == ["/p/src/a.py", "/q/b.py", "/pq/c.py", "rel/d.py", "/p"]
