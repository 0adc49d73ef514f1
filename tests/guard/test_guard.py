"""ctx-guard: the verdicts on tool calls, the index, the hook's output, failing open.

Records are written in the capture spec's shape (docs/guard.md): a user's rejection of
``npm install`` with the reason "use pnpm", a user's constraint "not moment, use date-fns",
a ctx-decide record with no anchors. The compliant calls of the issue are never flagged.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from context_memory.calls.shell import commands_of
from context_memory.core.command_table import HOOKS, HookSpec
from context_memory.core.hookio import GUARDED_TOOLS
from context_memory.core.state import GUARD_INDEX_FILE
from context_memory.guard import index as guard_index
from context_memory.guard.entries import entries_of as guard_entries_of
from context_memory.guard.entries import entry_of
from context_memory.guard.index import INDEX_MAX_BYTES as GUARD_INDEX_MAX_BYTES
from context_memory.guard.match import ALLOW, ASK, REMIND, judge
from context_memory.guard.pieces import CallPieces
from context_memory.handlers import guard as guard_hook
from context_memory.memory.decisions import append_record, make_record
from helpers.cli_run import run_hook_main

SESSION = "5e1f0c3a-2b4d-4e6f-8a9b-0c1d2e3f4a5b"
PNPM = {
    "id": "rec-pnpm",
    "ts": "2026-11-30T10:00:05Z",
    "session": SESSION,
    "kind": "rejected",
    "by": "user",
    "source": "tool-rejection",
    "uuid": "01cc930d-b9f5-4b8e-8d2e-5a3f8e8e2c11",
    "row_ts": "2026-11-30T10:00:00Z",
    "decision": "npm install",
    "reason": "use pnpm",
    "quote": "use pnpm",
    "alternatives": [],
    "keywords": [],
    "anchors": ["npm", "pnpm"],
    "avoid": ["npm"],
    "prefer": ["pnpm"],
    "call": {"tool": "Bash", "command": "npm install"},
}
MOMENT = {
    "id": "rec-moment",
    "ts": "2026-12-01T08:00:05Z",
    "session": SESSION,
    "kind": "constraint",
    "by": "user",
    "source": "prompt",
    "uuid": "7b0e9c1d-0000-4000-8000-000000000001",
    "row_ts": "2026-12-01T08:00:00Z",
    "decision": "Do not use moment for dates; use date-fns",
    "reason": "it is far too heavy for our bundle",
    "quote": "Don't use moment for the dates, it is far too heavy for our bundle. "
    "Use date-fns instead.",
    "alternatives": [],
    "keywords": [],
    "anchors": ["moment", "date-fns"],
    "avoid": ["moment"],
    "prefer": ["date-fns"],
}
REWRITE = {
    "id": "rec-edit",
    "ts": "2026-12-01T09:00:05Z",
    "session": SESSION,
    "kind": "rejected",
    "by": "user",
    "source": "tool-rejection",
    "uuid": "7b0e9c1d-0000-4000-8000-000000000002",
    "row_ts": "2026-12-01T09:00:00Z",
    "decision": "Write test_combined_link.py in the repository root",
    "reason": "",
    "quote": "",
    "alternatives": [],
    "keywords": [],
    "anchors": ["test_combined_link.py"],
    "avoid": [],
    "prefer": [],
    "call": {
        "tool": "Write",
        "file": "/work/app/test_combined_link.py",
        "gist": '#!/usr/bin/env python3 """Test script to verify the combined transcript link',
    },
}


def entries(*records: dict[str, Any]) -> list[dict[str, Any]]:
    found = [entry_of(r) for r in records]
    assert all(found)
    return [e for e in found if e]


def verdict_of(tool: str, tool_input: dict[str, Any], *records: dict[str, Any]) -> str:
    return judge(tool, tool_input, entries(*records)).verdict


# -- the words of a command ------------------------------------------------------------------


def test_commands_of_splits_chains_and_keeps_prose_apart() -> None:
    found = commands_of(
        "cd web && FOO=1 sudo npm i moment@2.29 --save 2>&1 | tail -5; "
        "git commit -m \"$(cat <<'EOF'\nUse moment here\nEOF\n)\""
    )
    assert [(c.program, c.words, c.prose) for c in found] == [
        ("cd", ["web"], []),
        ("npm", ["i", "moment@2.29", "--save"], []),
        ("tail", ["-5"], []),
        ("git", ["commit", "-m"], ["$(cat <<'EOF'\nUse moment here\nEOF\n)"]),
    ]


def test_a_here_document_body_is_not_a_command() -> None:
    found = commands_of("cat > notes.md <<'EOF'\nnpm install moment\nEOF\necho done")
    assert [(c.program, c.words) for c in found] == [("cat", []), ("echo", ["done"])]


# -- the typed view of older records ---------------------------------------------------------


def subjects(entry: dict[str, Any], key: str = "ruled_out") -> list[str]:
    return [f"{s['kind']} {s['value']}" for s in entry[key]]


def test_older_records_are_typed_from_their_call_and_words() -> None:
    """A rejected call's subjects are what it would have acted on; its reason's stance
    adds the preferred (and the package manager it swaps away from); a prompt's record,
    its quote's stance; a ctx-decide text, what it names before the choice."""
    [pnpm, moment] = entries(PNPM, MOMENT)
    assert (subjects(pnpm), subjects(pnpm, "preferred")) == (
        ["command npm install", "command npm"],
        ["command pnpm"],
    )
    assert pnpm["repeat_only"] == ["npm install"]  # its own plain command: a repeat only
    assert (subjects(moment), subjects(moment, "preferred")) == (
        ["package moment"],
        ["package date-fns"],
    )
    codis = make_record("rejected", "Codis; use Redis Cluster", session=SESSION, reason="old")
    [entry] = entries(codis)
    assert (subjects(entry), entry["by"], entry["ask"]) == (["package codis"], "agent", False)
    decided = make_record(
        "decided", "Use Redis Cluster", session=SESSION, alternatives=["Codis", "Sentinel"]
    )
    [entry] = entries(decided)
    assert subjects(entry) == ["package codis", "package sentinel"]


def test_typed_records_are_taken_as_they_are() -> None:
    record = dict(
        MOMENT,
        ruled_out=[{"kind": "path", "value": "migrations/"}],
        preferred=[],
        tier="stated",
    )
    [entry] = entries(record)
    assert (subjects(entry), entry["ask"]) == (["path migrations/"], True)


# -- verdicts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("npm install", ASK),  # the rejected call itself
        ("npm ci", ASK),  # npm at all, after "use pnpm"
        ("cd web && npm run build", ASK),
        ("pnpm install", ALLOW),  # what the user chose
        ("pnpm add date-fns", ALLOW),
        ("npm install -g pnpm", REMIND),  # npm, to get the chosen pnpm: a weaker match
        ("grep -rn npm docs", ALLOW),
        ("git commit -m 'switch from npm to pnpm'", ALLOW),  # prose
    ],
)
def test_use_pnpm_not_npm(command: str, expected: str) -> None:
    assert verdict_of("Bash", {"command": command}, PNPM) == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("npm install moment", ASK),
        ("pnpm add moment@2.30.1", ASK),
        ("bash -c 'yarn add moment'", ASK),
        ("yarn add moment date-fns", REMIND),  # both named: a migration, a weaker match
        ("npm install date-fns", ALLOW),  # the compliant call of the issue
        ("npm test", ALLOW),
        ("npm uninstall moment", ALLOW),  # removing it follows the decision
        ("rm -rf node_modules/moment", ALLOW),
        ("grep -rn moment src", ALLOW),
        ("git log --oneline -- moment.js", ALLOW),
        ("npm install moment-timezone", ALLOW),  # another package
    ],
)
def test_not_moment_use_date_fns(command: str, expected: str) -> None:
    assert verdict_of("Bash", {"command": command}, MOMENT) == expected


@pytest.mark.parametrize(
    ("tool", "tool_input", "expected"),
    [
        (
            "Edit",
            {
                "file_path": "/a/package.json",
                "old_string": '"dependencies": {',
                "new_string": '"dependencies": {\n    "moment": "^2.29.4",',
            },
            ASK,
        ),
        (
            "Edit",
            {
                "file_path": "/a/src/d.js",
                "old_string": "x",
                "new_string": "import moment from 'moment'",
            },
            REMIND,  # code that imports it: a reminder, the package is added elsewhere
        ),
        (
            "Edit",
            {
                "file_path": "/a/src/d.js",
                "old_string": "import moment from 'moment'",
                "new_string": "import { format } from 'date-fns'",
            },
            ALLOW,
        ),
        ("Write", {"file_path": "/a/src/moment.js", "content": "export {}"}, ALLOW),
        (
            "Write",
            {"file_path": "/a/docs/dates.md", "content": "We use date-fns, not moment."},
            ALLOW,  # it only mentions moment
        ),
        (
            "MultiEdit",
            {
                "file_path": "/a/package.json",
                "edits": [{"old_string": '"moment": "^2"', "new_string": '"date-fns": "^3"'}],
            },
            ALLOW,
        ),
        ("NotebookEdit", {"notebook_path": "/a/n.ipynb", "new_source": "import moment"}, REMIND),
        ("Read", {"file_path": "/a/src/moment.js"}, ALLOW),  # not a guarded tool
    ],
)
def test_edits_against_not_moment(tool: str, tool_input: dict[str, Any], expected: str) -> None:
    assert verdict_of(tool, tool_input, MOMENT) == expected


def test_a_rejected_write_again_is_asked_whole_and_a_clipped_one_only_reminds() -> None:
    content = '#!/usr/bin/env python3 """Test script to verify the combined transcript link'
    again = {"file_path": "/work/app/test_combined_link.py", "content": content}
    # A bare "no" in the permission prompt (no reason): the same call again only reminds.
    assert verdict_of("Write", again, REWRITE) == REMIND
    rewrite = dict(REWRITE, reason="put it under test/", quote="put it under test/")
    assert verdict_of("Write", again, rewrite) == ASK
    # Another edit of the same file is no repeat: the user said no to that text.
    other = dict(again, content='"""Unit tests for the combined transcript link."""\n')
    assert verdict_of("Write", other, rewrite) == ALLOW
    elsewhere = dict(again, file_path="/work/app/test/test_combined_transcript_link.py")
    assert verdict_of("Write", elsewhere, rewrite) == ALLOW
    # The record holds only the start of a longer text: the same start reminds.
    clipped = dict(rewrite, call=dict(REWRITE["call"], gist=content + "\u2026"))
    longer = dict(again, content=content + ' works."""\nimport sys\n')
    assert verdict_of("Write", longer, clipped) == REMIND


def test_a_clipped_rejected_command_is_no_proof_of_the_same_call() -> None:
    """The issue's false alarm: a commit whose message starts as the rejected one's did."""
    start = 'git commit -m "Add tokenizer application files and comprehensive README - Add'
    record = dict(
        PNPM,
        id="rec-commit",
        decision=start,
        reason="please add transformer.js too first",
        quote="please add transformer.js too first",
        call={"tool": "Bash", "command": start + "\u2026"},
    )
    later = start + ' index.html and the transformer.js loader"'
    assert verdict_of("Bash", {"command": later}, record) == REMIND
    assert verdict_of("Bash", {"command": "git commit -m 'Other'"}, record) == ALLOW


def test_a_rejection_the_agent_made_only_reminds() -> None:
    agent = dict(MOMENT, by="agent", id="rec-agent")
    assert verdict_of("Bash", {"command": "npm install moment"}, agent) == REMIND
    approach = dict(MOMENT, id="rec-approach", ruled_out=[{"kind": "approach", "value": "moment"}])
    assert verdict_of("Bash", {"command": "npm install moment"}, approach) == REMIND
    # An old record's avoid word that is a common program never matches its runs.
    git = dict(approach, id="rec-git", ruled_out=[{"kind": "approach", "value": "git"}])
    assert verdict_of("Bash", {"command": "git push origin main"}, git) == ALLOW


@pytest.mark.parametrize(
    ("source", "by", "expected"),
    [
        ("tool-rejection", "user", ASK),  # the user's reason typed into the rejection
        ("plan", "user", ASK),  # plan feedback
        ("question", "user", ASK),  # an AskUserQuestion answer
        ("prompt", "user", ASK),
        ("merge", "user", ASK),  # a teammate's record, merged
        ("ctx-decide", "user", ASK),  # typed in a terminal
        ("ctx-decide", "agent", REMIND),  # the agent ran ctx-decide itself
        ("agent-text", "user", REMIND),
        ("auto-memory", "user", REMIND),
    ],
)
def test_who_may_make_the_guard_ask(source: str, by: str, expected: str) -> None:
    record = dict(
        MOMENT,
        id=f"rec-{source}-{by}",
        source=source,
        by=by,
        quote="too heavy",
        ruled_out=[{"kind": "package", "value": "moment"}],
        preferred=[],
    )
    assert verdict_of("Bash", {"command": "yarn add moment"}, record) == expected


def test_a_later_record_supersedes_an_earlier_one_on_the_same_subject() -> None:
    again = dict(
        MOMENT,
        id="rec-after-all",
        decision="use moment after all",
        quote="ok, use moment after all",
        ruled_out=[],
        preferred=[{"kind": "package", "value": "moment"}],
    )
    assert [e["id"] for e in guard_entries_of([MOMENT, again])] == []
    assert verdict_of("Bash", {"command": "npm install moment"}, MOMENT) == ASK
    assert judge(
        "Bash", {"command": "npm i moment"}, guard_entries_of([MOMENT, again])
    ).verdict == (ALLOW)


def test_the_newest_record_wins_and_texts_are_exact() -> None:
    verdict = judge("Bash", {"command": "npm install moment"}, entries(PNPM, MOMENT))
    assert verdict.entry is not None and verdict.entry["id"] == "rec-moment"
    from context_memory.guard.match import ask_text, remind_text

    assert ask_text(verdict) == (
        "On 2026-12-01 you said: 'Don't use moment for the dates, it is far too heavy for our "
        "bundle. Use date-fns instead.'. This call runs `npm install moment`. Run it anyway? "
        "[ctx-guard, record rec-moment]"
    )
    verdict = judge("Bash", {"command": "npm install"}, entries(PNPM))
    assert ask_text(verdict) == (
        "You rejected `npm install` on 2026-11-30: 'use pnpm'. Run it anyway? "
        "[ctx-guard, record rec-pnpm]"
    )
    verdict = judge("Bash", {"command": "npm install -g pnpm"}, entries(PNPM))
    assert remind_text(verdict) == (
        "[CONTEXT MEMORY] This call touches `npm install -g pnpm`, which the user ruled out "
        "on 2026-11-30: 'use pnpm'. Check that it follows that decision (record rec-pnpm)."
    )


def test_texts_are_bounded_and_on_one_line() -> None:
    from context_memory.guard.match import ask_text

    huge = dict(MOMENT, quote="moment\n\x1b[31m" + "y" * 5000, reason="z" * 5000)
    huge["ruled_out"] = [{"kind": "package", "value": "moment"}]
    verdict = judge("Bash", {"command": "npm install moment"}, entries(huge))
    text = ask_text(verdict)
    assert len(text) <= 600 and "\n" not in text and "\x1b" not in text


# -- the index -----------------------------------------------------------------------------


def load_entries(state_dir: str, log: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """Every entry of the index as the hook reads it (built when the log changed)."""
    index = guard_index.current_index(state_dir, log)
    if index is None:
        return []
    try:
        entries: list[dict[str, Any]] = json.loads(b"[" + index.body + b"]")
    finally:
        index.close()
    return entries


def write_log(state: Path, *records: dict[str, Any]) -> None:
    state.mkdir(parents=True, exist_ok=True)
    for record in records:
        append_record(str(state), record)


def test_the_index_holds_live_records_and_is_rebuilt_when_the_log_changes(tmp_path: Path) -> None:
    state = tmp_path / ".working-state"
    write_log(state, PNPM, make_record("risk", "flaky CI", session=SESSION))
    assert [e["id"] for e in load_entries(str(state))] == ["rec-pnpm"]
    index = json.loads((state / GUARD_INDEX_FILE).read_text())
    info = os.lstat(state / "decisions.jsonl")
    assert index["log"] == [info.st_size, info.st_mtime_ns, info.st_ino]
    write_log(
        state,
        MOMENT,
        {
            "id": "m1",
            "ts": "2026-12-02T00:00:00Z",
            "session": SESSION,
            "kind": "drop",
            "target": "rec-pnpm",
        },
    )
    assert [e["id"] for e in load_entries(str(state))] == ["rec-moment"]


def test_a_fresh_index_is_read_without_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / ".working-state"
    write_log(state, PNPM)
    load_entries(str(state))

    def no_log(state_dir: str) -> list[dict[str, Any]]:
        raise AssertionError("the log was read")

    monkeypatch.setattr(guard_index, "live_records", no_log)
    assert [e["id"] for e in load_entries(str(state))] == ["rec-pnpm"]


@pytest.mark.parametrize(
    "damage",
    [b"{not json", b"", b"[1, 2]", b'{"version": 1, "log": [1, 2, 3], "entries": []}', b"\xff\xfe"],
)
def test_a_damaged_index_is_rebuilt(tmp_path: Path, damage: bytes) -> None:
    state = tmp_path / ".working-state"
    write_log(state, PNPM)
    (state / GUARD_INDEX_FILE).write_bytes(damage)
    assert [e["id"] for e in load_entries(str(state))] == ["rec-pnpm"]
    assert json.loads((state / GUARD_INDEX_FILE).read_text())["entries"][0]["id"] == "rec-pnpm"


def test_a_huge_index_is_not_read_whole(tmp_path: Path) -> None:
    state = tmp_path / ".working-state"
    write_log(state, PNPM)
    (state / GUARD_INDEX_FILE).write_bytes(b" " * (GUARD_INDEX_MAX_BYTES + 1))
    assert [e["id"] for e in load_entries(str(state))] == ["rec-pnpm"]
    assert (state / GUARD_INDEX_FILE).stat().st_size < 10_000


def test_a_damaged_log_keeps_its_whole_records(tmp_path: Path) -> None:
    state = tmp_path / ".working-state"
    write_log(state, PNPM)
    with open(state / "decisions.jsonl", "ab") as handle:
        handle.write(b"{half a line\n\xff\xfe\n" + b"x" * (70 * 1024) + b"\n")
    write_log(state, MOMENT)
    assert [e["id"] for e in load_entries(str(state))] == ["rec-pnpm", "rec-moment"]


def many_constraints(count: int) -> list[dict[str, Any]]:
    return [
        dict(
            MOMENT,
            id=f"rec-{n:04d}",
            decision=f"Do not use tool-{n} for the dates; use library-{n}",
            quote=f"Don't use tool-{n}, use library-{n} instead.",
            ruled_out=[{"kind": "package", "value": f"tool-{n}"}],
            preferred=[{"kind": "package", "value": f"library-{n}"}],
        )
        for n in range(count)
    ]


def test_a_big_index_is_read_in_part(tmp_path: Path) -> None:
    """An index longer than INDEX_HEAD_BYTES: its head, then the triggered entry lines
    where they are in the file; the entries the whole index gives."""
    state = tmp_path / ".working-state"
    write_log(state, *many_constraints(300))
    every = load_entries(str(state))
    assert (state / GUARD_INDEX_FILE).stat().st_size > 2 * guard_index.INDEX_HEAD_BYTES
    for n in (0, 150, 299):
        found = guard_index.entries_for_call(str(state), {"command": f"npm install tool-{n}"})
        assert [e["id"] for e in found] == [f"rec-{n:04d}"]
        assert found == [e for e in every if e["id"] == f"rec-{n:04d}"]


@pytest.mark.parametrize("damage", ["entry", "span", "tail"])
def test_a_damaged_big_index_is_rebuilt(tmp_path: Path, damage: str) -> None:
    state = tmp_path / ".working-state"
    write_log(state, *many_constraints(300))
    load_entries(str(state))
    path = state / GUARD_INDEX_FILE
    data = path.read_bytes()
    if damage == "entry":  # the triggered entry's line no longer JSON
        at = data.index(b'{"repeat_only"', data.index(b'"id":"rec-0299"') - 200)
        data = data[:at] + b"#" + data[at + 1 :]
    elif damage == "span":  # its span one byte off
        group = re.search(rb"\|tool (\d+):(\d+) 299\|", data)
        assert group is not None
        moved = b"|tool %d:%s 299|" % (int(group[1]) + 1, group[2])
        data = data.replace(group[0], moved)
    else:
        data = data[:-3] + b"}\n"
    path.write_bytes(data)
    found = guard_index.entries_for_call(str(state), {"command": "npm install tool-299"})
    assert [e["id"] for e in found] == ["rec-0299"]
    assert path.read_bytes() != data  # rebuilt and saved


def test_a_linked_index_is_not_followed(tmp_path: Path) -> None:
    state = tmp_path / ".working-state"
    write_log(state, PNPM)
    outside = tmp_path / "outside.json"
    outside.write_text("keep")
    (state / GUARD_INDEX_FILE).symlink_to(outside)
    assert [e["id"] for e in load_entries(str(state))] == ["rec-pnpm"]
    assert outside.read_text() == "keep"


def test_no_log_no_entries_and_no_index(tmp_path: Path) -> None:
    state = tmp_path / ".working-state"
    state.mkdir()
    assert load_entries(str(state)) == []
    assert not (state / GUARD_INDEX_FILE).exists()


def test_a_read_only_state_folder_still_guards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from context_memory.core import fsutil

    state = tmp_path / ".working-state"
    write_log(state, PNPM)
    heard: list[str] = []

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(fsutil, "atomic_write", read_only)
    assert [e["id"] for e in load_entries(str(state), log=heard.append)] == ["rec-pnpm"]
    assert heard == ["guard index not saved: [Errno 30] Read-only file system"]
    assert not (state / GUARD_INDEX_FILE).exists()


# -- the hook ------------------------------------------------------------------------------


def payload(project: Path, command: str, tool: str = "Bash") -> dict[str, Any]:
    return {
        "session_id": SESSION,
        "transcript_path": str(project / "t.jsonl"),
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command},
        "tool_use_id": "toolu_01",
    }


@pytest.fixture
def guarded(project: Path) -> Path:
    (project / ".git").mkdir()
    write_log(project / ".working-state", PNPM, MOMENT)
    return project


def test_the_hook_asks_with_the_users_words(
    guarded: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    result = run_hook_main(
        monkeypatch, capsys, guard_hook.main, payload(guarded, "npm install moment")
    )
    assert (result.exit_code, result.stderr) == (0, "")
    assert json.loads(result.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": (
                "On 2026-12-01 you said: 'Don't use moment for the dates, it is far too heavy "
                "for our bundle. Use date-fns instead.'. This call runs `npm install moment`. "
                "Run it anyway? [ctx-guard, record rec-moment]"
            ),
        }
    }


@pytest.mark.parametrize("command", ["pnpm install", "npm install date-fns" + "", "ls -la"])
def test_compliant_calls_print_nothing(
    guarded: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    if command == "npm install date-fns":
        # Only the moment constraint: "use pnpm" would rightly flag npm itself.
        (guarded / ".working-state" / "decisions.jsonl").unlink()
        write_log(guarded / ".working-state", MOMENT)
    result = run_hook_main(monkeypatch, capsys, guard_hook.main, payload(guarded, command))
    assert result == (0, "", "")


@pytest.mark.parametrize(("mode", "key"), [("remind", "additionalContext"), ("off", None)])
def test_ctx_guard_mode(
    guarded: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    mode: str,
    key: str | None,
) -> None:
    monkeypatch.setenv("CTX_GUARD", mode)
    result = run_hook_main(
        monkeypatch, capsys, guard_hook.main, payload(guarded, "npm install moment")
    )
    if key is None:
        assert result == (0, "", "")
        assert not (guarded / ".working-state" / GUARD_INDEX_FILE).exists()
    else:
        specific = json.loads(result.stdout)["hookSpecificOutput"]
        assert sorted(specific) == ["additionalContext", "hookEventName"]
        assert "moment" in specific[key] and "far too heavy" in specific[key]


def test_another_event_or_tool_gets_nothing(
    guarded: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stop = dict(payload(guarded, "npm install moment"), hook_event_name="Stop")
    assert run_hook_main(monkeypatch, capsys, guard_hook.main, stop) == (0, "", "")
    read = dict(payload(guarded, "x"), tool_name="Read", tool_input={"file_path": "moment.js"})
    assert run_hook_main(monkeypatch, capsys, guard_hook.main, read) == (0, "", "")


def test_a_broken_index_folder_fails_open(
    guarded: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(state_dir: str, log: object = None, project_dir: str = "") -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(guard_index, "current_index", broken)
    result = run_hook_main(
        monkeypatch, capsys, guard_hook.main, payload(guarded, "npm install moment")
    )
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == "ctx-guard: OSError: disk on fire\n"
    log = (guarded / ".working-state" / "logs" / "hooks.log").read_text()
    assert log.endswith(f"\tctx-guard\t{SESSION}\tOSError: disk on fire\n")


# -- registration --------------------------------------------------------------------------


def test_registered_for_the_tools_that_change_things() -> None:
    # core/command_table has no imports (bin/ctx-run reads it): its matcher is hookio's list.
    assert "|".join(GUARDED_TOOLS) == "Bash|Write|Edit|MultiEdit|NotebookEdit"
    assert (
        HookSpec("PreToolUse", "Bash|Write|Edit|MultiEdit|NotebookEdit", "ctx-guard", 10) in HOOKS
    )
    plugin = json.loads((Path(__file__).parents[2] / "hooks" / "hooks.json").read_text())
    groups = plugin["hooks"]["PreToolUse"]
    assert {g.get("matcher"): g["hooks"][0]["command"] for g in groups} == {
        "Bash": '"${CLAUDE_PLUGIN_ROOT}/bin/ctx-run" ctx-allow',
        "Bash|Write|Edit|MultiEdit|NotebookEdit": '"${CLAUDE_PLUGIN_ROOT}/bin/ctx-run" ctx-guard',
    }
    from context_memory.core.command_table import HOOK, PLUGIN_COMMANDS

    assert PLUGIN_COMMANDS["ctx-guard"] == ("context_memory.handlers.guard:main", HOOK)


def test_the_installed_hook_in_a_fresh_process(installed_project: Any, tmp_path: Path) -> None:
    """./install registered it with its matcher; the client's command line asks, and is
    silent for the compliant call."""
    settings = installed_project.settings["hooks"]["PreToolUse"]
    assert any(
        g.get("matcher") == "Bash|Write|Edit|MultiEdit|NotebookEdit"
        and g["hooks"][0]["command"].endswith('/ctx-guard"')
        for g in settings
    )
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    write_log(project / ".working-state", MOMENT)
    ask = installed_project.run_registered(
        "ctx-guard", json.dumps(payload(project, "npm install moment")).encode(), cwd=project
    )
    assert (ask.returncode, ask.stderr) == (0, b"")
    decision = json.loads(ask.stdout)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "ask"
    assert "far too heavy" in decision["permissionDecisionReason"]
    quiet = installed_project.run_registered(
        "ctx-guard", json.dumps(payload(project, "npm install date-fns")).encode(), cwd=project
    )
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, b"", b"")
    assert (project / ".working-state" / GUARD_INDEX_FILE).exists()


# -- the index's triggers: a call the index filters out is one the matcher allows ----------

FILTER_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("Bash", {"command": "npm install"}),
    ("Bash", {"command": "pnpm install"}),
    ("Bash", {"command": "npm install date-fns", "description": "not moment"}),
    ("Bash", {"command": 'npm install "mom""ent"'}),  # the shell joins quoted pieces
    ("Bash", {"command": "npm install mom\\ent"}),
    ("Bash", {"command": "npm install mo\\\nment"}),  # a line continuation
    ("Bash", {"command": "NPM=1 /usr/bin/NPM ci"}),
    ("Bash", {"command": "yarn add moment@2.29.4 date-fns"}),
    ("Bash", {"command": "ls"}),
    ("Edit", {"file_path": "/a/d.js", "old_string": "x", "new_string": "import moment，x"}),
    ("Edit", {"file_path": "/a/d.js", "old_string": "x", "new_string": "import dayjs"}),
    ("Write", {"file_path": "/a/src/moment.js", "content": "export {}"}),
    ("Write", {"file_path": "/a/src/dates.js", "content": "// date-fns, not moment"}),
    ("Write", {"file_path": "app/test_combined_link.py", "content": REWRITE["call"]["gist"]}),
    (
        "MultiEdit",
        {"file_path": "/a/p.json", "edits": [{"old_string": "a", "new_string": '"moment"'}]},
    ),
    ("NotebookEdit", {"notebook_path": "/a/n.ipynb", "new_source": "import moment"}),
]


@pytest.mark.parametrize(("tool", "tool_input"), FILTER_CALLS)
def test_the_index_filter_never_changes_a_verdict(
    tmp_path: Path, tool: str, tool_input: dict[str, Any]
) -> None:
    state = tmp_path / ".working-state"
    write_log(state, PNPM, MOMENT, REWRITE)
    every = judge(tool, tool_input, load_entries(str(state)))
    some = guard_index.entries_for_call(str(state), tool_input)
    filtered = judge(tool, tool_input, some)
    assert (filtered.verdict, filtered.entry) == (every.verdict, every.entry)
    if every.verdict == ALLOW and tool_input.get("command") in ("pnpm install", "ls"):
        assert some == []  # nothing for the matcher to look at


def test_the_filter_catches_what_the_shell_joins() -> None:
    assert verdict_of("Bash", {"command": 'npm install "mom""ent"'}, MOMENT) == ASK
    assert verdict_of("Bash", {"command": "npm install mo\\\nment"}, MOMENT) == ASK
    assert CallPieces({"command": 'npm i "mom""ent"'}).has(["moment"])
    assert CallPieces({"new_string": "import moment，x"}).has(["moment"])
    assert not CallPieces({"command": "npm i momentum"}).has(["moment"])
