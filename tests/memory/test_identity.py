"""Record ids, authors and manual session names for projects shared through git."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from context_memory.core.decisions_log import read_records
from context_memory.core.state import AUTHOR_CACHE_FILE
from context_memory.memory import identity
from context_memory.memory.decisions import make_record
from context_memory.memory.identity import (
    format_author,
    is_new_style_id,
    manual_session,
    new_record_id,
    record_author,
)

ULID = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")
needs_git = pytest.mark.skipif(
    shutil.which("git") is None and not os.environ.get("CI"), reason="git is not installed"
)


def test_ids_are_time_ordered_and_unique() -> None:
    ids = [new_record_id(1_796_000_000_000 + n // 100) for n in range(10_000)]
    assert all(ULID.fullmatch(i) for i in ids)
    assert len(set(ids)) == 10_000  # same millisecond, 80 random bits apart
    assert [i[:10] for i in ids] == sorted(i[:10] for i in ids)
    assert new_record_id(0)[:10] == "0000000000"
    assert new_record_id(2**48 - 1)[:10] == "7ZZZZZZZZZ"
    earlier, later = new_record_id(1_000), new_record_id(1_001)
    assert earlier < later
    assert is_new_style_id(earlier) and not is_new_style_id("0123456789ab")


def test_make_record_carries_the_author_only_when_known() -> None:
    record = make_record("decided", "x", session="s", author="  Ada   Lovelace <a@x> ")
    assert record["author"] == "Ada Lovelace <a@x>"
    assert ULID.fullmatch(str(record["id"]))
    assert "author" not in make_record("decided", "x", session="s")


def test_format_author() -> None:
    assert format_author("Ada", "ada@x") == "Ada <ada@x>"
    assert format_author("Ada", "") == "Ada"
    assert format_author("", "ada@x") == "<ada@x>"
    assert format_author("", "") == ""
    assert len(format_author("a" * 500, "")) == identity.MAX_AUTHOR_LENGTH


def git_repo(path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("GIT_AUTHOR_NAME", raising=False)
    monkeypatch.delenv("GIT_AUTHOR_EMAIL", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    subprocess.run(["git", "-C", str(path), "config", "user.name", "Bob Smith"], check=True)
    subprocess.run(["git", "-C", str(path), "config", "user.email", "bob@x.org"], check=True)


@needs_git
def test_author_from_git_is_cached_until_the_config_changes(tmp_path, monkeypatch) -> None:
    project, home = tmp_path / "p", tmp_path / "home"
    home.mkdir()
    git_repo(project, home, monkeypatch)
    state = project / ".working-state"
    state.mkdir()
    assert record_author(str(project), str(state)) == "Bob Smith <bob@x.org>"
    cache = json.loads((state / AUTHOR_CACHE_FILE).read_text())
    assert cache["author"] == "Bob Smith <bob@x.org>"

    calls = []
    real_run = subprocess.run

    def counting_run(*args, **kwargs):
        calls.append(args)
        return real_run(*args, **kwargs)

    monkeypatch.setattr(subprocess, "run", counting_run)
    assert record_author(str(project), str(state)) == "Bob Smith <bob@x.org>"
    assert calls == []  # from the cache: no git process
    real_run(["git", "-C", str(project), "config", "user.name", "Robert Smith"], check=True)
    assert record_author(str(project), str(state)) == "Robert Smith <bob@x.org>"
    assert len(calls) == 1


def test_author_from_the_environment_then_user_at_host(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Env Name")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "env@x")
    assert record_author(str(tmp_path)) == "Env Name <env@x>"
    monkeypatch.delenv("GIT_AUTHOR_NAME")
    monkeypatch.delenv("GIT_AUTHOR_EMAIL")
    monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))  # git cannot be found
    author = record_author(str(tmp_path), str(tmp_path))
    assert author == identity.local_user()
    assert re.fullmatch(r"[^@\s]+@\S+", author)


def test_manual_session_is_stable_and_differs_between_machines(tmp_path, monkeypatch) -> None:
    first = manual_session()
    assert re.fullmatch(r"manual-[0-9a-f]{10}", first)
    assert manual_session() == first
    monkeypatch.setenv("HOME", str(tmp_path))  # another user account: another name
    assert manual_session() != first


def test_a_union_merge_duplicate_reads_once_and_old_records_still_read(tmp_path) -> None:
    old = (
        '{"id":"0123456789ab","ts":"2026-11-01T00:00:00Z","session":"s","kind":"decided",'
        '"decision":"old"}'
    )
    no_id = '{"ts":"2026-11-01T00:00:01Z","kind":"rejected","decision":"no id"}'
    new = make_record("risk", "new", session="t", author="Ada <a@x>")
    new_line = json.dumps(new, separators=(",", ":"))
    # The same record re-serialised (another key order) still has its id: read once.
    reordered = json.dumps(dict(reversed(list(new.items()))))
    other_no_id = '{"ts":"2026-11-01T00:00:02Z","kind":"rejected","decision":"no id"}'
    (tmp_path / "decisions.jsonl").write_text(
        "\n".join([old, no_id, new_line, old, no_id, reordered, new_line, other_no_id]) + "\n"
    )
    records, problems = read_records(str(tmp_path))
    assert problems == []
    assert [r["decision"] for r in records] == ["old", "no id", "new", "no id"]
    assert records[0]["id"] == "0123456789ab" and "author" not in records[0]
    assert records[2]["author"] == "Ada <a@x>"
