"""Files Modified includes what subagents edited, from every place clients wrote it.

- older clients: ``isSidechain: true`` rows in the main transcript;
- 2.0.x: ``agent-<id>.jsonl`` next to the session file, rows carrying the parent's
  ``sessionId`` (real fixture agent-668b5ac2 of client 2.0.37: its rows name session
  741790a4-..., not cb2e607c, the other session of that project in the fixtures);
- 2.1.x: ``<session>/subagents/agent-*.jsonl``.
Rejected or failed edits never count; the reading is bounded.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from context_memory.commands.handoff import cli
from context_memory.core.state import EXTRACT_FILE
from context_memory.handlers.extract import act
from context_memory.memory.handoff import parse_handoff
from context_memory.memory.handoff_draft import draft_sections, session_facts
from context_memory.transcript import facts as tf
from context_memory.transcript.facts import files_touched, scan_facts, subagent_transcripts
from helpers import transcript_rows as tr
from helpers.real_fixture import CODERABBIT_AGENT, CODERABBIT_PARENT, real_lines, write_lines

REAL_PROJECT = "/Users/dain/workspace/coderabbit-review-helper"
REAL_FOLDER = "-Users-dain-workspace-coderabbit-review-helper"
AGENT_SESSION = "741790a4-4fe2-4644-9a51-fb4482074060"  # the session agent-668b5ac2 names
REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). STOP what you are doing and "
    "wait for the user to tell you how to proceed."
)
PROJECT = tr.CWD
SESSION = tr.SESSION


def real_agent_with_edits() -> list[bytes]:
    """The real subagent file, then an edit it made and one the user rejected, in its shape.

    The fixture's subagent only read files; the added rows are copies of its own rows (a
    tool call, a tool result) with the tool and the ids changed.
    """
    lines = real_lines(CODERABBIT_AGENT)
    call_row = json.loads(lines[2])  # assistant: Read
    result_row = json.loads(lines[4])  # user: tool_result of that Read
    assert call_row["message"]["content"][0]["name"] == "Read"
    assert result_row["message"]["content"][0]["type"] == "tool_result"
    added = []
    for number, (path, outcome) in enumerate(
        [("extract-coderabbit-feedback.py", None), ("test.md", REJECTED)]
    ):
        call = json.loads(json.dumps(call_row))
        tool_id = f"toolu_added{number}"
        call["message"]["content"][0].update(
            id=tool_id,
            name="Edit",
            input={"file_path": f"{REAL_PROJECT}/{path}", "old_string": "a", "new_string": "b"},
        )
        call["timestamp"] = f"2025-11-13T11:45:0{number}.000Z"
        result = json.loads(json.dumps(result_row))
        block = result["message"]["content"][0]
        block.update(tool_use_id=tool_id, content=outcome or "The file has been updated.")
        if outcome:
            block["is_error"] = True
        added += [call, result]
    return lines + [(json.dumps(row, separators=(",", ":")) + "\n").encode() for row in added]


def test_real_agent_file_belongs_to_its_own_session_only(tmp_path):
    folder = tmp_path / "projects" / REAL_FOLDER
    parent = write_lines(folder / f"{CODERABBIT_PARENT}.jsonl", real_lines(CODERABBIT_PARENT))
    agent = write_lines(folder / f"{CODERABBIT_AGENT}.jsonl", real_agent_with_edits())
    # cb2e607c's own subagent (agentId ea02459f) is not in the fixtures; 668b5ac2 is not its.
    assert subagent_transcripts(parent) == ([], False)
    facts = scan_facts(parent)
    assert files_touched(facts.edits, REAL_PROJECT, subagent_edits=facts.subagent_edits) == [
        "pyproject.toml",
        "README.md",
        "extract-coderabbit-feedback.py",
    ]
    own = tr.write_transcript(folder / f"{AGENT_SESSION}.jsonl", [tr.user("go")])
    assert subagent_transcripts(own) == ([str(agent)], False)


def test_real_agent_edits_reach_the_draft_and_the_extract(tmp_path, project):
    folder = tmp_path / "projects" / REAL_FOLDER
    write_lines(folder / f"{CODERABBIT_AGENT}.jsonl", real_agent_with_edits())
    main_edit, main_id = tr.tool_call("Edit", {"file_path": f"{REAL_PROJECT}/README.md"})
    parent = tr.write_transcript(
        folder / f"{AGENT_SESSION}.jsonl",
        [tr.user("fix the titles"), main_edit, tr.tool_result(main_id)],
    )
    state = str(project / ".working-state")
    facts = session_facts(state, AGENT_SESSION, str(parent))
    assert facts.subagent_edits == [
        (f"{REAL_PROJECT}/extract-coderabbit-feedback.py", "2025-11-13T11:45:00.000Z")
    ]
    sections = draft_sections(facts, state, AGENT_SESSION, REAL_PROJECT)
    expected = ["README.md", "extract-coderabbit-feedback.py (subagent)"]
    assert sections["Files Modified"] == expected
    payload = {"session_id": AGENT_SESSION, "cwd": REAL_PROJECT, "transcript_path": str(parent)}
    act(payload, state, AGENT_SESSION, "stop-interval")
    extract_path = Path(state) / "sessions" / AGENT_SESSION / EXTRACT_FILE
    extract = json.loads(extract_path.read_text(encoding="utf-8"))
    assert extract["files_modified"] == expected  # the project is the payload's cwd


def subagent_rows(*edits: tuple[str, bool]) -> list[dict]:
    rows: list[dict] = [tr.user("subagent task")]
    for path, ok in edits:
        row, tool_id = tr.tool_call("Write", {"file_path": f"{PROJECT}/{path}"}, sidechain=True)
        if ok:
            rows += [row, tr.tool_result(tool_id)]
        else:
            rows += [row, tr.tool_result(tool_id, REJECTED, is_error=True)]
    return rows


def main_transcript(folder: Path, *paths: str) -> Path:
    rows: list[dict] = [tr.user("go")]
    for path in paths:
        row, tool_id = tr.tool_call("Edit", {"file_path": f"{PROJECT}/{path}"})
        rows += [row, tr.tool_result(tool_id)]
    folder.mkdir(parents=True, exist_ok=True)
    return tr.write_transcript(folder / f"{SESSION}.jsonl", rows)


def test_2_1_subagents_folder(tmp_path, project):
    folder = tmp_path / "projects" / "p"
    transcript = main_transcript(folder, "main.py", "shared.py")
    subagents = folder / SESSION / "subagents"
    subagents.mkdir(parents=True)
    tr.write_transcript(
        subagents / "agent-a1.jsonl",
        subagent_rows(("sub.py", True), ("shared.py", True), ("refused.py", False)),
    )
    result = CliRunner().invoke(
        cli, ["--draft", "--dry-run", "--session", SESSION, "--transcript", str(transcript)]
    )
    assert result.exit_code == 0, result.stderr
    handoff = parse_handoff(result.stdout)
    # Run from another folder than the transcript's project: absolute paths.
    assert handoff.sections["Files Modified"] == [
        f"{PROJECT}/main.py",
        f"{PROJECT}/shared.py",
        f"{PROJECT}/sub.py (subagent)",
    ]


def test_sidechain_rows_of_older_clients(tmp_path):
    ok, ok_id = tr.tool_call("Write", {"file_path": f"{PROJECT}/main.py"})
    rows = [tr.user("go"), ok, tr.tool_result(ok_id), *subagent_rows(("sub.py", True))]
    rows += subagent_rows(("refused.py", False))
    todo, _ = tr.tool_call(
        "TodoWrite", {"todos": [{"content": "subagent's", "status": "pending"}]}, sidechain=True
    )
    rows.append(todo)
    facts = scan_facts(tr.write_transcript(tmp_path / "t.jsonl", rows))
    assert [path for path, _ in facts.edits] == [f"{PROJECT}/main.py"]
    assert [path for path, _ in facts.subagent_edits] == [f"{PROJECT}/sub.py"]
    assert facts.todos is None  # a subagent's to-do list is not the session's
    assert files_touched(facts.edits, PROJECT, subagent_edits=facts.subagent_edits) == [
        "main.py",
        "sub.py (subagent)",
    ]


def test_2_0_agent_files_of_other_sessions_are_left_alone(tmp_path):
    folder = tmp_path / "projects" / "p"
    transcript = main_transcript(folder, "main.py")
    mine = subagent_rows(("mine.py", True))
    theirs = subagent_rows(("theirs.py", True))
    for row in theirs:
        row["sessionId"] = "99999999-0000-0000-0000-000000000000"
    tr.write_transcript(folder / "agent-aaaa1111.jsonl", mine)
    tr.write_transcript(folder / "agent-bbbb2222.jsonl", theirs)
    facts = scan_facts(transcript)
    assert [path for path, _ in facts.subagent_edits] == [f"{PROJECT}/mine.py"]
    assert facts.subagents_truncated is False


def test_links_are_not_followed(tmp_path):
    folder = tmp_path / "projects" / "p"
    transcript = main_transcript(folder, "main.py")
    outside = tr.write_transcript(tmp_path / "elsewhere.jsonl", subagent_rows(("x.py", True)))
    os.symlink(outside, folder / "agent-link.jsonl")
    subagents = folder / SESSION / "subagents"
    subagents.mkdir(parents=True)
    os.symlink(outside, subagents / "agent-link.jsonl")
    assert subagent_transcripts(transcript) == ([], False)


def test_number_of_files_and_bytes_are_bounded(tmp_path, monkeypatch, project):
    folder = tmp_path / "projects" / "p"
    transcript = main_transcript(folder, "main.py")
    subagents = folder / SESSION / "subagents"
    subagents.mkdir(parents=True)
    for number in range(3):
        path = tr.write_transcript(
            subagents / f"agent-{number}.jsonl", subagent_rows((f"f{number}.py", True))
        )
        os.utime(path, (1_000_000 + number, 1_000_000 + number))
    monkeypatch.setattr(tf, "MAX_SUBAGENT_FILES", 2)
    facts = scan_facts(transcript)
    # The two newest files, oldest of them first; the third is left out and said so.
    assert [path for path, _ in facts.subagent_edits] == [f"{PROJECT}/f1.py", f"{PROJECT}/f2.py"]
    assert facts.subagents_truncated is True
    state = str(project / ".working-state")
    note = session_facts(state, SESSION, str(transcript)).transcript_note
    assert note == "some subagent transcripts were read only partly or not at all"

    monkeypatch.setattr(tf, "MAX_SUBAGENT_FILES", 32)
    monkeypatch.setattr(tf, "MAX_SUBAGENT_BYTES", 2_000)
    big = [
        *subagent_rows(("early.py", True)),
        tr.user("x" * 3000),
        *subagent_rows(("late.py", True)),
    ]
    tr.write_transcript(subagents / "agent-0.jsonl", big)
    facts = scan_facts(transcript)
    assert f"{PROJECT}/early.py" not in [path for path, _ in facts.subagent_edits]
    assert f"{PROJECT}/late.py" in [path for path, _ in facts.subagent_edits]
    assert facts.subagents_truncated is True


def test_agent_candidates_next_to_the_session_are_bounded(tmp_path, monkeypatch):
    folder = tmp_path / "projects" / "p"
    transcript = main_transcript(folder, "main.py")
    for number in range(3):
        path = tr.write_transcript(
            folder / f"agent-{number}.jsonl", subagent_rows((f"f{number}.py", True))
        )
        os.utime(path, (1_000_000 + number, 1_000_000 + number))
    monkeypatch.setattr(tf, "MAX_AGENT_CANDIDATES", 1)
    files, left_out = subagent_transcripts(transcript)
    assert (files, left_out) == ([str(folder / "agent-2.jsonl")], True)
