from __future__ import annotations

import json
import os
import stat

import pytest

from context_memory.fsutil import append_line_locked, atomic_write
from context_memory.records import append_record, make_record, read_records


def test_atomic_write_replaces_and_keeps_mode(tmp_path):
    target = tmp_path / "plan.md"
    target.write_text("old")
    target.chmod(0o600)
    atomic_write(target, "new ✓")
    assert target.read_text(encoding="utf-8") == "new ✓"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["plan.md"]


def test_atomic_write_failure_leaves_old_file(tmp_path, monkeypatch):
    target = tmp_path / "plan.md"
    target.write_text("old")

    def boom(*_args, **_kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write(target, "new")
    assert target.read_text() == "old"
    assert sorted(os.listdir(tmp_path)) == ["plan.md"]


def test_append_repairs_nothing_but_keeps_new_line_whole(tmp_path):
    log = tmp_path / "decisions.jsonl"
    log.write_bytes(b'{"kind":"decided","decision":"a"}\n{"kind":"deci')
    append_line_locked(log, '{"kind":"decided","decision":"b"}')
    assert log.read_bytes() == (
        b'{"kind":"decided","decision":"a"}\n{"kind":"deci\n{"kind":"decided","decision":"b"}\n'
    )


def test_append_refuses_multiline(tmp_path):
    with pytest.raises(ValueError):
        append_line_locked(tmp_path / "x", "a\nb")


def test_records_round_trip_and_corrupt_lines_reported(tmp_path):
    record = make_record(
        "rejected", "Codis", session="s1", reason="unmaintained", keywords=["Codis"]
    )
    append_record(tmp_path, record)
    with open(tmp_path / "decisions.jsonl", "ab") as handle:
        handle.write(b"not json\n[1]\n")
    append_record(tmp_path, make_record("decided", "Redis  Cluster", session="s1"))
    with open(tmp_path / "decisions.jsonl", "ab") as handle:
        handle.write(b'{"kind":"risk","decis')
    records, problems = read_records(tmp_path)
    assert [r["decision"] for r in records] == ["Codis", "Redis Cluster"]
    assert records[0] == record
    path = str(tmp_path / "decisions.jsonl")
    assert [str(p) for p in problems] == [
        f"{path}:2: not valid JSON",
        f"{path}:3: not a decision record",
        f"{path}:5: half-written last line",
    ]
    assert set(json.loads((tmp_path / "decisions.jsonl").read_text().splitlines()[0])) == {
        "id",
        "ts",
        "session",
        "kind",
        "decision",
        "reason",
        "alternatives",
        "keywords",
    }
