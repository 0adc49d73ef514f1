from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from context_memory.core.decisions_log import read_records
from context_memory.core.fsutil import append_line_locked, atomic_write
from context_memory.memory.decisions import append_record, make_record


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
    with pytest.raises(OSError):  # noqa: PT011 (whatever os.replace raised, passed on)
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
    with pytest.raises(ValueError, match="line"):
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


# -- the state folder as untrusted input -------------------------------------------------------

from context_memory.core import fsutil  # noqa: E402


def test_read_bytes_refuses_links_fifos_folders_and_too_much(tmp_path):
    (tmp_path / "good").write_bytes(b"12345")
    (tmp_path / "link").symlink_to(tmp_path / "good")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    assert fsutil.read_bytes(tmp_path / "good", 5, root=str(tmp_path)) == b"12345"
    with pytest.raises(fsutil.TooLargeError, match="larger than 4 bytes"):
        fsutil.read_bytes(tmp_path / "good", 4)
    for name, what in (("link", "a symbolic link"), ("fifo", "a FIFO"), ("folder", "a folder")):
        with pytest.raises(fsutil.UnsafePathError) as caught:
            fsutil.read_bytes(tmp_path / name, 100, root=str(tmp_path))
        assert caught.value.strerror.startswith(f"{what}: not followed"), name
        assert caught.value.filename == str(tmp_path / name)
    with pytest.raises(FileNotFoundError):
        fsutil.read_bytes(tmp_path / "missing", 100, root=str(tmp_path))


def test_no_folder_below_the_root_is_followed(tmp_path):
    root, outside = tmp_path / "state", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "x").write_text("outside\n")
    (root / "sessions").symlink_to(outside)
    (root / "plain").write_text("a file\n")
    for call in (
        lambda: fsutil.read_bytes(root / "sessions" / "x", 100, root=str(root)),
        lambda: fsutil.atomic_write(root / "sessions" / "y", "new", root=str(root)),
        lambda: fsutil.append_line_locked(root / "sessions" / "z", "line", root=str(root)),
        lambda: fsutil.make_dirs(str(root / "sessions" / "a" / "b"), root=str(root)),
        lambda: fsutil.list_dir(root / "sessions", root=str(root)),
        lambda: fsutil.check_no_links(str(root), str(root / "sessions" / "s1")),
    ):
        with pytest.raises(fsutil.UnsafePathError) as caught:
            call()
        assert caught.value.filename == str(root / "sessions")
    with pytest.raises(fsutil.UnsafePathError, match="a file where a folder belongs"):
        fsutil.make_dirs(str(root / "plain" / "sub"), root=str(root))
    assert sorted(os.listdir(outside)) == ["x"]
    fsutil.atomic_write(root / "new" / "deep" / "f", "ok", root=str(root))
    assert (root / "new" / "deep" / "f").read_text() == "ok"


def test_atomic_write_replaces_a_link_never_its_target(tmp_path):
    target = tmp_path / "target"
    target.write_text("keep\n")
    (tmp_path / "plan.md").symlink_to(target)
    fsutil.atomic_write(tmp_path / "plan.md", "new\n", root=str(tmp_path))
    assert not (tmp_path / "plan.md").is_symlink()
    assert (tmp_path / "plan.md").read_text() == "new\n"
    assert target.read_text() == "keep\n"


def test_stale_temporary_files_of_the_toolkit_only(tmp_path):
    names = {
        ".current-plan.md.k2j4h5g6.tmp": True,  # tempfile's 8 characters (earlier versions)
        ".current-plan.md.0123456789ab.tmp": True,
        ".stop-count.4242.tmp": True,
        "notes.tmp": False,
        ".current-plan.md.tmp": False,
        ".x.toolong-name-here.tmp": False,
    }
    assert {name: fsutil.is_toolkit_temp(name) for name in names} == names
    old = 1_000_000.0
    for name in names:
        (tmp_path / name).write_text("x")
        os.utime(tmp_path / name, (old, old))
    (tmp_path / ".fresh.aaaaaaaaaaaa.tmp").write_text("x")
    removed = fsutil.sweep_stale_temps(str(tmp_path))
    assert sorted(os.path.basename(p) for p in removed) == sorted(n for n, v in names.items() if v)
    assert (tmp_path / ".fresh.aaaaaaaaaaaa.tmp").exists()


def test_read_records_skips_huge_and_nested_lines_and_a_bom(tmp_path):
    good = make_record("decided", "Use Redis", session="s")
    later = make_record("decided", "Use Redis Cluster", session="s")  # another id: not a repeat
    log = tmp_path / "decisions.jsonl"
    log.write_bytes(
        b"\xef\xbb\xbf"
        + json.dumps(good).encode()
        + b"\n"
        + b"[" * 100_000
        + b"\n"
        + b'{"x":"'
        + b"y" * 200_000
        + b'"}\n'
        + json.dumps(later).encode()
        + b"\n"
    )
    records, problems = read_records(str(tmp_path))
    assert records == [good, later]
    assert [str(p) for p in problems] == [
        f"{log}:2: longer than 65536 bytes; skipped",
        f"{log}:3: longer than 65536 bytes; skipped",
    ]
    log.write_bytes(b"[" * 5000 + b"\n")
    assert [p.reason for p in read_records(str(tmp_path))[1]] == ["not valid JSON"]


def test_atomic_write_still_current_refuses_a_changed_file(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    target.write_bytes(b"theirs")
    assert fsutil.atomic_write(target, b"ours", still_current=lambda held: held == b"old") is False
    assert target.read_bytes() == b"theirs"
    assert fsutil.atomic_write(target, b"ours", still_current=lambda held: held == b"theirs")
    assert target.read_bytes() == b"ours"
    assert sorted(os.listdir(tmp_path)) == ["settings.json"]


def test_atomic_write_puts_back_a_write_that_slipped_in_before_the_rename(tmp_path: Path) -> None:
    """Another program replaces the file after the check: Linux's renameat2 swap shows it
    (the displaced file is not the one checked), and its file goes back."""
    target = tmp_path / "settings.json"
    target.write_bytes(b"old")
    seen: list[bytes | None] = []

    def still_current(held: bytes | None) -> bool:
        seen.append(held)
        if len(seen) == 1:  # the check before the rename: now the other program writes
            (tmp_path / "other.tmp").write_bytes(b"slipped in")
            os.replace(tmp_path / "other.tmp", target)
            return True
        return held == b"old"

    done = fsutil.atomic_write(target, b"ours", still_current=still_current)
    assert (done, seen, target.read_bytes()) == (False, [b"old", b"slipped in"], b"slipped in")
    assert sorted(os.listdir(tmp_path)) == ["settings.json"]
