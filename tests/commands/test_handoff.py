from __future__ import annotations

import os
import re
from pathlib import Path

from context_memory.commands.handoff import cli, main
from context_memory.core.decisions_log import read_records
from context_memory.core.isotime import parse_time
from context_memory.memory.decisions import append_record, make_record
from context_memory.memory.handoff import parse_handoff
from context_memory.memory.handoff_draft import last_handoff, records_since, write_stage
from context_memory.memory.identity import manual_session
from context_memory.transcript.locate import project_folder_name
from helpers import transcript_rows as tr
from helpers.cli_run import assert_refused, invoke

SESSION = "ec02a1e1-95f7-4797-b360-0048899b56dd"
GOOD = """# whatever title
## Decided
- Use Redis Cluster, 6 nodes (needs sharding)
## Rejected
- Codis (unmaintained)
## Risks
## Files Modified
* config/redis.yaml
## Remaining
1. load test
   under production traffic
"""
ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"


def run(args: list[str], stdin: str | None = None):
    return invoke(cli, args, stdin)


def handoffs(project: Path, session: str = SESSION) -> Path:
    return project / ".working-state" / "sessions" / session / "handoffs"


def record(project: Path, kind: str, text: str, ts: str, session: str = SESSION, **kw) -> None:
    append_record(project / ".working-state", make_record(kind, text, session=session, ts=ts, **kw))


def test_stdin_handoff_is_validated_and_written_with_front_matter(project, monkeypatch):
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", SESSION)
    result = run([], GOOD)
    path = handoffs(project) / "stage-1.md"
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"wrote .working-state/sessions/{SESSION}/handoffs/stage-1.md\n"
    text = path.read_text()
    assert re.fullmatch(
        "---\n"
        f"session: {SESSION}\n"
        "stage: 1\n"
        f"time: {ISO}\n"
        "tokens: 0\n"
        "---\n"
        "# Handoff: stage 1\n\n"
        "## Decided\n- Use Redis Cluster, 6 nodes \\(needs sharding\\)\n\n"
        "## Rejected\n- Codis \\(unmaintained\\)\n\n"
        "## Risks\n- none\n\n"
        "## Files Modified\n- config/redis.yaml\n\n"
        "## Remaining\n- load test under production traffic\n",
        text,
    ), text
    assert run([], GOOD).stdout.endswith("/stage-2.md\n")  # next free stage


def test_missing_or_misspelt_section_names_it_and_writes_nothing(project):
    cases = {
        GOOD.replace("## Risks\n", ""): "Error: missing section '## Risks'; nothing written\n",
        GOOD.replace("## Files Modified", "## Files Modifed"): (
            "Error: unknown section '## Files Modifed'; did you mean '## Files Modified'? "
            "(expected: ## Decided, ## Rejected, ## Risks, ## Files Modified, ## Remaining); "
            "nothing written\n"
        ),
        "## Remaining\n- x\n## Decided\n## Rejected\n## Risks\n## Files Modified\n": (
            "Error: sections out of order: expected Decided, Rejected, Risks, Files Modified, "
            "Remaining; got Remaining, Decided, Rejected, Risks, Files Modified; nothing written\n"
        ),
    }
    for text, message in cases.items():
        result = run(["--session", SESSION], text)
        assert (result.exit_code, result.stderr) == (1, message)
    assert not (project / ".working-state").exists()


def test_empty_stdin_names_draft(project):
    """Before: "missing sections ..." for an empty stdin, with no word of --draft."""
    for text in ("", "\n  \n"):
        result = run(["--session", SESSION], text)
        assert (result.exit_code, result.stderr) == (
            1,
            "Error: stdin is empty: give the handoff Markdown (ctx-handoff < handoff.md), or "
            "let ctx-handoff --draft assemble it from this session's decisions, transcript "
            "and plan; nothing written\n",
        )
    assert not (project / ".working-state").exists()


def test_unsafe_session_or_stage_is_refused(project, tmp_path):
    for bad in ["..", "../x", "/etc", "a\\b/c", "x" * 129]:
        result = run(["--session", bad], GOOD)
        assert result.exit_code == 1, bad
        assert result.stderr.startswith("Error: --session: session id")
    assert run(["--session", SESSION, "--stage", "0"], GOOD).exit_code == 2
    assert run(["--session", SESSION, "--stage", "-1"], GOOD).exit_code == 2
    assert not (project / ".working-state").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["project"]


def test_existing_stage_needs_force(project):
    assert run(["--session", SESSION, "--stage", "4"], GOOD).exit_code == 0
    other = GOOD.replace("load test", "something else")
    result = run(["--session", SESSION, "--stage", "4"], other)
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: stage 4 of session {SESSION} already exists; pass --force to replace it, "
        "or leave out --stage to write the next one\n",
    )
    assert "load test" in (handoffs(project) / "stage-4.md").read_text()
    assert run(["--session", SESSION, "--stage", "4", "--force"], other).exit_code == 0
    assert "something else" in (handoffs(project) / "stage-4.md").read_text()
    assert run(["--session", SESSION], GOOD).stdout.endswith("/stage-5.md\n")


def session_transcript(project: Path, config: Path) -> Path:
    folder = config / "projects" / project_folder_name(project)
    folder.mkdir(parents=True)
    write_row, write_id = tr.tool_call("Write", {"file_path": f"{project}/src/cache.py"})
    edit_row, edit_id = tr.tool_call("Edit", {"file_path": f"{project}/config/redis.yaml"})
    again_row, again_id = tr.tool_call("Edit", {"file_path": f"{project}/src/cache.py"})
    todo_row, _ = tr.tool_call(
        "TodoWrite",
        {
            "todos": [
                {"content": "design", "status": "completed"},
                {"content": "load test", "status": "in_progress"},
            ]
        },
    )
    rows = [
        tr.user("build the cache"),
        write_row,
        tr.tool_result(write_id),
        edit_row,
        tr.tool_result(edit_id),
        again_row,
        tr.tool_result(again_id),
        todo_row,
        tr.api_request("claude-sonnet-4-6"),
        tr.assistant("msg_last", tr.usage(41_000, 0, 1_000, 500)),
        *tr.bookkeeping(),
    ]
    return tr.write_transcript(folder / f"{SESSION}.jsonl", rows)


def test_draft_from_records_transcript_and_todos(project, tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", SESSION)
    session_transcript(project, tmp_path / "config")
    record(
        project,
        "decided",
        "Use Redis Cluster",
        "2026-11-30T09:00:00Z",
        reason="sharding",
        alternatives=["Codis"],
    )
    record(project, "decided", "Another session's idea", "2026-11-30T09:00:01Z", session="other")
    record(project, "rejected", "Codis", "2026-11-30T09:00:02Z", reason="unmaintained")
    record(project, "risk", "resharding untested", "2026-11-30T09:00:03Z")
    (project / ".working-state" / "current-plan.md").write_text("- [ ] from the plan\n")
    result = run(["--draft"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    handoff = parse_handoff((handoffs(project) / "stage-1.md").read_text())
    assert handoff.meta["tokens"] == "42500"
    assert handoff.sections == {
        "Decided": ["Use Redis Cluster (sharding; alternatives: Codis)"],
        "Rejected": ["Codis (unmaintained)"],
        "Risks": ["resharding untested"],
        "Files Modified": ["src/cache.py", "config/redis.yaml"],
        "Remaining": ["load test"],
    }


def test_second_draft_has_only_what_is_new_since_the_last_handoff(project, tmp_path):
    state = str(project / ".working-state")
    record(project, "decided", "old", "2026-11-30T09:00:00Z")
    record(project, "decided", "same second, listed", "2026-11-30T09:05:00Z")
    write_stage(
        state,
        SESSION,
        {"Decided": ["old", "same second, listed"]},
        tokens=0,
        now="2026-11-30T09:05:00Z",
    )
    record(project, "decided", "same second, not listed", "2026-11-30T09:05:00Z")
    record(project, "risk", "later", "2026-11-30T09:06:00Z")
    (project / ".working-state" / "current-plan.md").write_text(
        "# Plan\n- [x] done\n- [ ] open one\n  - [ ] nested open\n* [X] also done\n"
    )
    transcript = tr.write_transcript(tmp_path / "t.jsonl", [tr.user("hi")])
    result = run(["--draft", "--session", SESSION, "--transcript", str(transcript)])
    assert result.exit_code == 0, result.stderr
    handoff = parse_handoff((handoffs(project) / "stage-2.md").read_text())
    assert handoff.sections == {
        "Decided": ["same second, not listed"],
        "Rejected": [],
        "Risks": ["later"],
        "Files Modified": [],
        "Remaining": ["open one", "nested open"],
    }


def test_draft_without_transcript_warns_and_dry_run_writes_nothing(project):
    # Run by hand (no session id): this machine's manual session, for records and handoff.
    record(project, "decided", "D", "2026-11-30T09:00:00Z", session=manual_session())
    result = run(["--draft", "--dry-run"])
    assert result.exit_code == 0
    assert result.stderr == ("warning: no transcript found: Files Modified may be incomplete\n")
    assert re.fullmatch(
        f"---\nsession: {manual_session()}\nstage: next\ntime: {ISO}\ntokens: 0\n---\n"
        "# Handoff: stage next\n\n## Decided\n- D\n\n## Rejected\n- none\n\n## Risks\n- none\n\n"
        "## Files Modified\n- none\n\n## Remaining\n- none\n",
        result.stdout,
    ), result.stdout
    assert not (project / ".working-state" / "sessions").exists()


def test_draft_and_file_conflict_and_missing_transcript(project, capsys):
    assert main(["--draft", "--file", "x.md", "--session", SESSION]) == 1
    assert capsys.readouterr().err == "Error: --draft assembles the handoff itself; drop --file\n"
    assert main(["--draft", "--session", SESSION, "--transcript", "nope.jsonl"]) == 1
    assert capsys.readouterr().err == (
        "Error: --transcript nope.jsonl: no such file (give a transcript path or a session id)\n"
    )


def test_symlink_out_of_the_state_folder_is_refused(project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / ".working-state").mkdir()
    (project / ".working-state" / "sessions").symlink_to(outside)
    assert_refused(
        run(["--session", SESSION], GOOD),
        f"Error: {project / '.working-state' / 'sessions'}: a symbolic link: not followed "
        "(the state folder holds regular files and folders only; replace it with a real one "
        "or remove it); nothing written\n",
        outside,
    )


def test_parallel_writers_never_take_the_same_stage(project):
    from concurrent.futures import ThreadPoolExecutor

    state = str(project / ".working-state")

    def write_ten(writer: int) -> list[str]:
        return [
            write_stage(state, SESSION, {"Decided": [f"w{writer}-{n}"]}, tokens=n)
            for n in range(10)
        ]

    with ThreadPoolExecutor(4) as pool:
        paths = [p for batch in pool.map(write_ten, range(4)) for p in batch]
    assert sorted(Path(p).name for p in paths) == sorted(f"stage-{n}.md" for n in range(1, 41))
    items = [parse_handoff(Path(p).read_text()).sections["Decided"][0] for p in paths]
    assert sorted(items) == sorted(f"w{w}-{n}" for w in range(4) for n in range(10))


def test_the_next_draft_ignores_file_times_and_future_dates_of_the_last_handoff(project):
    """Issue 19: the last handoff's date decides which records the next draft repeats. A
    file time (git sets it at checkout) must not decide it, and a date after now (a clock
    that ran ahead) must not drop every record made since: both count as undated, and the
    draft keeps every record the last handoff does not list."""
    state = str(project / ".working-state")
    record(project, "decided", "listed", "2026-11-30T09:00:00Z")
    record(project, "decided", "not listed", "2026-11-30T09:01:00Z")
    now = parse_time("2026-11-30T10:00:00Z")
    for when in (None, "2099-01-01T00:00:00Z"):
        path = write_stage(state, SESSION, {"Decided": ["listed"]}, tokens=0, now=when or "x")
        if when is None:  # a hand-written handoff without a time
            text = Path(path).read_text().replace("time: x\n", "")
            Path(path).write_text(text)
        os.utime(path, (4_000_000_000, 4_000_000_000))  # file time far ahead
        last = last_handoff(state, SESSION, now=now)
        assert last is not None and last.time == ""
        records, _ = read_records(state)
        assert [r["decision"] for r in records_since(records, last)] == ["not listed"]
        os.unlink(path)
