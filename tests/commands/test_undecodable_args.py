"""Bytes that are not UTF-8 on the command line (issue 25, item 8): Python hands them over
as lone surrogates (``$(printf '\\xff\\xfe x')`` is "\\udcff\\udcfe x"), which no file can
hold. Every by-hand command that takes text refuses them with one clear line, or treats
them as the name they are; never a traceback, never a record."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from context_memory.commands import capture, decide, handoff, plan, usage
from context_memory.handlers import audit, guard
from context_memory.memory.decisions import RecordError, append_record, make_record
from helpers.cli_run import run_console_script, run_main

UNDECODABLE = os.fsdecode(b"\xff\xfe x")
REFUSED = (
    "not UTF-8 text (byte 0xff at character 1); nothing recorded. Type it again in a UTF-8 "
    "terminal (LANG/LC_ALL such as C.UTF-8)"
)


@pytest.mark.parametrize(
    ("args", "where"),
    [
        ([UNDECODABLE], "'[DECISION]'"),
        (["--rejected", UNDECODABLE], "'--rejected'"),
        (["--risk", UNDECODABLE], "'--risk'"),
        (["Use pnpm", "--reason", UNDECODABLE], "'--reason'"),
        (["Use pnpm", "--alt", "yarn", "--alt", UNDECODABLE], "'--alt'"),
        (["Use pnpm", "--keywords", UNDECODABLE], "'--keywords'"),
    ],
)
def test_ctx_decide_refuses_each_text(project: Path, args: list[str], where: str) -> None:
    result = run_main(decide.main, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.endswith(f"Error: Invalid value for {where}: {REFUSED}\n")
    assert not (project / ".working-state" / "decisions.jsonl").exists()


def test_the_readmes_example_in_a_fresh_process(project: Path) -> None:
    result = run_console_script("ctx-decide", "--rejected", UNDECODABLE, cwd=project)
    assert (result.returncode, result.stdout) == (2, "")
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == f"Error: Invalid value for '--rejected': {REFUSED}"
    assert not (project / ".working-state" / "decisions.jsonl").exists()


def test_the_log_refuses_what_no_file_can_hold(tmp_path: Path) -> None:
    """The library's own door, for a writer that did not check (a \\ud800 escape read
    from a transcript): an error that says so, nothing written."""
    record = make_record("rejected", "npm \ud800", session="s")
    with pytest.raises(RecordError, match="not valid Unicode"):
        append_record(tmp_path, record)
    assert not (tmp_path / "decisions.jsonl").exists()


Main = Callable[[list[str]], int]
OTHERS: list[tuple[Main, list[str]]] = [
    (decide.main, ["--list", "--author", UNDECODABLE]),
    (decide.main, ["--list", "--session", UNDECODABLE]),
    (decide.main, ["--pin", UNDECODABLE]),
    (decide.main, ["--drop", UNDECODABLE]),
    (decide.main, ["Use pnpm", "--session", UNDECODABLE]),
    (plan.main, ["--file", UNDECODABLE]),
    (handoff.main, ["--draft", "--dry-run", "--session", UNDECODABLE]),
    (handoff.main, ["--file", UNDECODABLE]),
    (handoff.main, ["--draft", "--dry-run", "--transcript", UNDECODABLE]),
    (capture.main, [UNDECODABLE]),
    (usage.main, [UNDECODABLE]),
    (audit.main, [UNDECODABLE]),
    (guard.main, ["--replay", UNDECODABLE]),
]


@pytest.mark.parametrize(("main", "args"), OTHERS)
def test_every_other_text_gets_one_line(project: Path, main: Main, args: list[str]) -> None:
    """Ids, session ids, paths: refused or not found, in one last line; no traceback."""
    result = run_main(main, args)
    assert result.exit_code in (0, 1, 2), result.stderr
    assert "Traceback" not in result.stderr
    assert "UnicodeEncodeError" not in result.stderr
    assert result.stderr.strip(), "nothing said"
    assert not (project / ".working-state" / "decisions.jsonl").exists()


def test_an_author_from_an_environment_that_is_not_utf8_is_replaced(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GIT_AUTHOR_NAME is not the user's typing: its undecodable bytes become U+FFFD."""
    monkeypatch.setenv("GIT_AUTHOR_NAME", os.fsdecode(b"Jos\xe9"))
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "jose@example.com")
    result = run_main(decide.main, ["Use pnpm"])
    assert result.exit_code == 0, result.stderr
    line = (project / ".working-state" / "decisions.jsonl").read_text(encoding="utf-8")
    assert '"author":"Jos\ufffd <jose@example.com>"' in line
