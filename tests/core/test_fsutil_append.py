"""Appends to decisions.jsonl while something replaces the file by name, as ``git pull`` does.

Real processes: appenders run ``append_record`` (the path ctx-decide takes) in a loop; a
"git" process holds ``.git/index.lock`` while it reads the log, writes a new file that
keeps every whole line, and renames it over the old one (a new inode), over and over.
No line may be lost, torn or repeated when read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from context_memory.core.decisions_log import read_records
from context_memory.core.fsutil import UnsafePathError, append_line_locked
from helpers.paths import subprocess_env

APPENDERS = 3
PER_APPENDER = 60

APPENDER = textwrap.dedent(
    """
    import sys
    from context_memory.memory.decisions import append_record, make_record

    state, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    for number in range(count):
        record = make_record("decided", f"{name} {number} " + "x" * 300, session=name)
        append_record(state, record)
    """
)

# Like git: take the index lock, read the committed content (here: every whole line of
# the file), write the merged file anew, drop the lock. Slow on purpose between the read
# and the rename, where an append that does not wait for git would be lost.
REPLACER = textwrap.dedent(
    """
    import os, sys, time
    state, stop = sys.argv[1], sys.argv[2]
    log = os.path.join(state, "decisions.jsonl")
    lock = os.path.join(os.path.dirname(state), ".git", "index.lock")
    rounds = 0
    while not os.path.exists(stop):
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        try:
            with open(log, "rb") as handle:
                data = handle.read()
            data = data[: data.rfind(b"\\n") + 1]  # git merges committed, whole lines
            time.sleep(0.004)
            tmp = log + ".git-tmp"
            with open(tmp, "wb") as handle:
                handle.write(data)
            os.replace(tmp, log)
            rounds += 1
        finally:
            os.close(fd)
            os.unlink(lock)
        time.sleep(0.01)
    print(rounds)
    """
)


def test_no_append_is_lost_or_torn_while_git_replaces_the_log(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    state = project / ".working-state"
    state.mkdir()
    log = state / "decisions.jsonl"
    log.write_text("")
    stop = tmp_path / "stop"
    env = subprocess_env()
    replacer = subprocess.Popen(
        [sys.executable, "-c", REPLACER, str(state), str(stop)],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    appenders = [
        subprocess.Popen(
            [sys.executable, "-c", APPENDER, str(state), f"writer{i}", str(PER_APPENDER)],
            env=env,
        )
        for i in range(APPENDERS)
    ]
    try:
        assert [p.wait(timeout=240) for p in appenders] == [0] * APPENDERS
    finally:
        stop.write_text("")
        rounds = int(replacer.communicate(timeout=60)[0])
    assert rounds > 10  # the file really was replaced many times during the appends

    lines = log.read_bytes().split(b"\n")
    assert lines[-1] == b""
    parsed = [json.loads(line) for line in lines[:-1]]  # no torn line anywhere
    records, problems = read_records(str(state))
    assert problems == []
    expected = sorted(
        f"writer{i} {n} " + "x" * 300 for i in range(APPENDERS) for n in range(PER_APPENDER)
    )
    assert sorted(str(r["decision"]) for r in records) == expected
    # A line appended again after a replacement may be there twice; it reads once.
    assert len(parsed) >= len(expected)


def replaced_after_the_first_write(
    log: Path, content: Callable[[bytes], bytes]
) -> tuple[Callable[[], None], list[int]]:
    """A ``settle`` hook that replaces ``log`` (temp file + rename, as git does) right after
    the first write with ``content(what the log holds then)``, and the list of its calls."""
    calls: list[int] = []

    def replace_it() -> None:
        calls.append(1)
        if len(calls) == 2:  # settle runs before and after each write: this is after the first
            new = log.with_name("new")
            new.write_bytes(content(log.read_bytes()))
            os.replace(new, log)

    return replace_it, calls


def test_a_line_lost_to_a_replacement_is_appended_again(tmp_path: Path) -> None:
    """In-process: the replacement happens right after the write (inside ``settle``)."""
    log = tmp_path / "decisions.jsonl"
    log.write_bytes(b'{"old":1}\n')
    git_replaces_with_old_content, calls = replaced_after_the_first_write(
        log, lambda _: b'{"old":1}\n{"theirs":2}\n'
    )
    append_line_locked(log, '{"mine":3}', settle=git_replaces_with_old_content)
    assert log.read_bytes() == b'{"old":1}\n{"theirs":2}\n{"mine":3}\n'
    assert len(calls) == 4


def test_a_replacement_that_kept_the_line_is_not_appended_twice(tmp_path: Path) -> None:
    log = tmp_path / "decisions.jsonl"
    log.write_bytes(b"")
    git_keeps_it, calls = replaced_after_the_first_write(log, lambda data: b'{"theirs":2}\n' + data)
    append_line_locked(log, '{"mine":3}', settle=git_keeps_it)
    assert log.read_bytes() == b'{"theirs":2}\n{"mine":3}\n'
    assert len(calls) == 2


def test_a_replacement_by_a_link_is_not_followed(tmp_path: Path) -> None:
    """The re-open by name keeps fsutil's rules: a link put in the file's place (by whatever
    replaced it) is refused, not read or appended through; what it points to stays as it was."""
    state = tmp_path / "state"
    state.mkdir()
    log = state / "decisions.jsonl"
    outside = tmp_path / "outside.jsonl"
    outside.write_bytes(b'{"keep":1}\n')
    calls = []

    def replaced_by_a_link() -> None:
        calls.append(1)
        if len(calls) == 2:
            log.unlink()
            log.symlink_to(outside)

    with pytest.raises(UnsafePathError, match="a symbolic link: not followed"):
        append_line_locked(log, '{"mine":3}', root=str(state), settle=replaced_by_a_link)
    assert outside.read_bytes() == b'{"keep":1}\n'
    assert log.is_symlink()
