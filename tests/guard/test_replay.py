"""ctx-guard --replay: the verdicts on the shared real transcripts (the issue 21 targets),
the command line in-process, as a console script and as installed, and that it writes
nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from context_memory.guard.replay import read_rows, render_text, replay, replay_main
from context_memory.handlers import guard as guard_hook
from helpers.cli_run import run_console_script, run_main

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real-transcripts"
PREFIX = "daaain__claude-code-log__test_test_data_real_projects_-Users-dain-workspace-"
JSS = PREFIX + "JSSoundRecorder_7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl.gz"
SAMPLE = PREFIX + "claude-code-log-sample_0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl.gz"
SAMPLE_2 = PREFIX + "claude-code-log-sample_37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl.gz"
RABBIT = PREFIX + "coderabbit-review-helper_cb2e607c-c758-415a-8b45-c49e4631906a.jsonl.gz"
TOKENIZER = PREFIX + "danieldemmel-me-next_9e953218-585f-4692-89df-9e0747a31c68.jsonl.gz"
# Every verdict that is not allow on the 17 shared transcripts, as recorded: (transcript,
# tool_use_id, verdict, the matched record's reason). The one ask of issue 21's guard, a
# commit whose message starts as the clipped rejected one did, became a reminder, and is
# none now: its record is written when the turn that rejected the call ends (Stop), after
# the call the agent made next in that turn.
EXPECTED: list[tuple[str, str, str, str]] = []
# With the final live records preloaded (as the next session sees them): the one ask is a
# rejected call itself, whole, the reason typed into the rejection ("use pnpm"); the
# reminders, rejected calls whose reason came from the user's next prompt (a bare "no" in
# the permission prompt: constraint.users_own), whose reason only put them off ("please
# add transformer.js too first": nothing ruled out), or that the records hold only the
# start of.
EXPECTED_PRELOADED = [
    (JSS, "toolu_01JyEnPQaw3p4uHE5KH14kTY", "remind"),
    (JSS, "toolu_011v8qQUhd84LQXKGc9RVofA", "ask"),
    (SAMPLE, "toolu_01SJuu2VVYNTgcSxBLg2B9gf", "remind"),
    (SAMPLE, "toolu_012bp8MER5iLbumvxDTBJ5XR", "remind"),
    (SAMPLE, "toolu_01K1NsJHRJHZSTfFzt9UUWqU", "remind"),
    (SAMPLE_2, "toolu_01X3AHK9hmPmJqASckfkMLmu", "remind"),
    (SAMPLE_2, "toolu_0187RDqBSmhH9bWDVXf8Eb2j", "remind"),
    (RABBIT, "toolu_0182PGVY3LpsbfVfKfBxDJeu", "remind"),
    (TOKENIZER, "toolu_01YKFv5mcsGBX463DAn2h9YD", "remind"),
    (TOKENIZER, "toolu_015TsTNXBfZx3YZBpA3zLCXF", "remind"),
    (TOKENIZER, "toolu_01AJLEsJp78E5Sfgradfa5yz", "remind"),
    (TOKENIZER, "toolu_01Vd6siQci7BePxZfZCgaaFW", "remind"),
]
ASK_TEXT = (
    "You rejected `npm install` on 2025-11-18: 'use pnpm'. Run it anyway? "
    "[ctx-guard, record replay-4]"
)
PROMPT = "Don't use moment for the dates, it is far too heavy for our bundle. Use date-fns instead."


def test_the_shared_transcripts_give_exactly_these_asks_and_reminders() -> None:
    paths = sorted(REAL.glob("*.jsonl.gz"))
    assert len(paths) == 17
    found = []
    preloaded = []
    calls = 0
    for path in paths:
        results = replay(read_rows(str(path)))
        calls += len(results)
        found += [
            (path.name, r["tool_use_id"], r["verdict"], r["record"]["reason"])
            for r in results
            if r["verdict"] != "allow"
        ]
        preloaded += [
            (path.name, r["tool_use_id"], r["verdict"])
            for r in replay(read_rows(str(path)), preload=True)
            if r["verdict"] != "allow"
        ]
    assert found == EXPECTED
    assert preloaded == EXPECTED_PRELOADED
    assert calls == 852
    for verdicts in (found, preloaded):
        asks = sum(1 for item in verdicts if item[2] == "ask")
        assert 100 * asks / calls <= 1.0  # the target: at most 1 ask per 100 calls


def test_a_preloaded_ask_on_a_real_transcript_quotes_the_user() -> None:
    results = replay(read_rows(str(REAL / JSS)), preload=True)
    [ask] = [r for r in results if r["tool_use_id"] == "toolu_011v8qQUhd84LQXKGc9RVofA"]
    assert ask["text"] == ASK_TEXT
    assert ask["record"]["by"] == "user"
    assert ask["record"]["kind"] == "rejected"
    assert ask["record"]["call"] == {"tool": "Bash", "command": "npm install"}


def rows(*commands: str) -> list[dict[str, Any]]:
    """A session: the user's directive and the agent's answer (one turn: capture writes
    its record at the turn's end, Stop), then a request, and one assistant row per command
    (each answered)."""
    found: list[dict[str, Any]] = [
        {
            "type": "user",
            "uuid": "u0",
            "isSidechain": False,
            "timestamp": "2026-11-30T10:00:00.000Z",
            "message": {"role": "user", "content": PROMPT},
        },
        {
            "type": "assistant",
            "uuid": "a0",
            "isSidechain": False,
            "timestamp": "2026-11-30T10:00:02.000Z",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]},
        },
        {
            "type": "user",
            "uuid": "u1",
            "isSidechain": False,
            "timestamp": "2026-11-30T10:00:04.000Z",
            "message": {"role": "user", "content": "Now add the date picker."},
        },
    ]
    for number, command in enumerate(commands, 1):
        found.append(
            {
                "type": "assistant",
                "uuid": f"a{number}",
                "isSidechain": False,
                "timestamp": "2026-11-30T10:00:05.000Z",
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": f"toolu_{number}",
                            "name": "Bash",
                            "input": {"command": command},
                        }
                    ],
                },
            }
        )
        found.append(
            {
                "type": "user",
                "uuid": f"r{number}",
                "isSidechain": False,
                "timestamp": "2026-11-30T10:00:06.000Z",
                "message": {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": f"toolu_{number}", "content": "ok"}
                    ],
                },
            }
        )
    return found


def test_as_recorded_a_turns_records_exist_from_its_end_or_a_compaction_on() -> None:
    from helpers import transcript_rows as tr

    first, _ = tr.tool_call("Bash", {"command": "npm install moment"})
    second, _ = tr.tool_call("Bash", {"command": "npm install moment"})
    rows_ = [
        tr.user(PROMPT),
        first,  # the same turn: capture has not written the directive yet (Stop)
        tr.compact_boundary(150_000, 3_000, "auto"),  # PreCompact captures it
        second,
    ]
    verdicts = [r["verdict"] for r in replay(rows_)]
    assert verdicts == ["allow", "ask"]


@pytest.fixture
def session(tmp_path: Path) -> Path:
    path = tmp_path / "session.jsonl"
    data = rows("npm install moment", "npm install date-fns")
    path.write_text("".join(json.dumps(row) + "\n" for row in data))
    return path


ASK_LINE = (
    "         On 2026-11-30 you said: 'Don't use moment for the dates, it is far too heavy "
    "for our bundle. Use date-fns instead.'. This call runs `npm install moment`. Run it "
    "anyway? [ctx-guard, record replay-1]\n"
)
TEXT_OUTPUT = (
    "a1       ask    Bash: npm install moment\n"
    + ASK_LINE
    + "a2       allow  Bash: npm install date-fns\n"
    + "2 tool calls, 2 guarded: 1 ask, 0 remind\n"
)


def check_json(output: str) -> None:
    found = json.loads(output)
    assert [(r["uuid"], r["tool_use_id"], r["verdict"]) for r in found] == [
        ("a1", "toolu_1", "ask"),
        ("a2", "toolu_2", "allow"),
    ]
    assert found[0]["record"]["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert found[0]["record"]["preferred"] == [{"kind": "package", "value": "date-fns"}]
    assert found[0]["record"]["quote"] == PROMPT
    assert found[0]["text"] == ASK_LINE.strip()
    assert found[1]["record"] is None


def test_replay_in_process(session: Path) -> None:
    result = run_main(guard_hook.main, ["--replay", str(session)])
    assert (result.exit_code, result.stdout, result.stderr) == (0, TEXT_OUTPUT, "")
    result = run_main(guard_hook.main, ["--replay", str(session), "--json"])
    assert (result.exit_code, result.stderr) == (0, "")
    check_json(result.stdout)
    assert render_text(replay(read_rows(str(session)))) == TEXT_OUTPUT


@pytest.mark.parametrize(
    ("args", "code", "stderr"),
    [
        ([], 2, "usage: ctx-guard --replay TRANSCRIPT [--preload] [--json]\n"),
        (["a", "b"], 2, "usage: ctx-guard --replay TRANSCRIPT [--preload] [--json]\n"),
        (
            ["/nonexistent/t.jsonl"],
            1,
            "ctx-guard: /nonexistent/t.jsonl: no such file (give a transcript path or a "
            "session id)\n",
        ),
    ],
)
def test_replay_usage_and_a_missing_transcript(args: list[str], code: int, stderr: str) -> None:
    result = run_main(replay_main, args)
    assert (result.exit_code, result.stdout, result.stderr) == (code, "", stderr)


def tree(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(path.relative_to(root)): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
    }


def project_with_state(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    state = project / ".working-state"
    state.mkdir()
    (state / "decisions.jsonl").write_text(
        json.dumps({"id": "x", "ts": "2026-11-30T00:00:00Z", "kind": "rejected",
                    "decision": "date-fns", "session": "s"}) + "\n"
    )  # fmt: skip
    return project


def test_the_console_script_in_a_fresh_process_writes_nothing(
    session: Path, tmp_path: Path
) -> None:
    project = project_with_state(tmp_path)
    before = tree(project)
    done = run_console_script("ctx-guard", "--replay", str(session), cwd=project)
    assert (done.returncode, done.stdout, done.stderr) == (0, TEXT_OUTPUT, "")
    done = run_console_script("ctx-guard", "--replay", str(session), "--json", cwd=project)
    assert (done.returncode, done.stderr) == (0, "")
    check_json(done.stdout)
    assert tree(project) == before  # no index, no log line, the log untouched


def test_the_installed_command_replays_a_real_transcript(
    installed_project: Any, session: Path, tmp_path: Path
) -> None:
    project = project_with_state(tmp_path)
    before = tree(project)
    done = installed_project.run_program("ctx-guard", ["--replay", str(session)], cwd=project)
    assert (done.returncode, done.stdout.decode(), done.stderr) == (0, TEXT_OUTPUT, b"")
    real = REAL / JSS
    done = installed_project.run_program(
        "ctx-guard", ["--replay", str(real), "--preload", "--json"]
    )
    assert (done.returncode, done.stderr) == (0, b"")
    found = json.loads(done.stdout)
    assert [(r["tool_use_id"], r["verdict"]) for r in found if r["verdict"] != "allow"] == [
        (tool_use_id, verdict) for name, tool_use_id, verdict in EXPECTED_PRELOADED if name == JSS
    ]
    assert [r["text"] for r in found if r["verdict"] == "ask"] == [ASK_TEXT]
    assert tree(project) == before
    assert not os.path.exists(project / ".working-state" / "guard-index.json")


def test_preload_judges_every_call_against_the_final_records(tmp_path: Path) -> None:
    """The user rules moment out after the call: as recorded the call was allowed (nothing
    was known yet); preloaded, as the next session would see it, it is asked."""
    data = rows("npm install moment", "npm install date-fns")
    prompt = data.pop(0)
    data.append(dict(prompt, uuid="u9", timestamp="2026-11-30T10:01:00.000Z"))
    path = tmp_path / "late.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in data))
    assert [r["verdict"] for r in replay(read_rows(str(path)))] == ["allow", "allow"]
    assert [r["verdict"] for r in replay(read_rows(str(path)), preload=True)] == [
        "ask",
        "allow",
    ]
    result = run_main(guard_hook.main, ["--replay", str(path), "--preload"])
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.endswith("2 tool calls, 2 guarded: 1 ask, 0 remind\n")
