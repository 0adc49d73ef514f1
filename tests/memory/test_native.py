"""Claude Code's auto memory (memory/native*.py): the folder the client uses, the mirror of
the user's records into it, the model's own memories read back, and their one delivery."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from context_memory.audit.check import mark_in_memory
from context_memory.commands.decide import cli as decide_cli
from context_memory.commands.pin import main as pin_main
from context_memory.core.tables import NATIVE_BLOCK_BEGIN, NATIVE_BLOCK_END, NATIVE_BLOCK_LINES
from context_memory.handlers.extract import main as extract_main
from context_memory.handlers.restore import main as restore_main
from context_memory.memory import native
from context_memory.memory.constraint import can_ask, constraints_of
from context_memory.memory.decisions import append_record, make_captured_record, make_record
from context_memory.memory.native_folder import native_location
from context_memory.memory.native_read import auto_memory_records
from context_memory.memory.pointer import recovery_pointer
from context_memory.transcript.locate import project_folder_name
from helpers.cli_run import run_hook_main
from helpers.throwaway_home import throwaway_home

SESSION = "11111111-2222-3333-4444-555555555555"
MODEL_LINE = "- [Terse answers](feedback_terse.md) — the user reads the diff"
# What would move Claude Code's auto memory or turn it (or the mirror) off: none is set.
NATIVE_MEMORY_VARS = (
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_DISABLE_AUTO_MEMORY",
    "CLAUDE_CODE_SIMPLE",
    "CTX_NATIVE_MEMORY",
    "CLAUDE_PROJECT_DIR",
)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return throwaway_home(tmp_path, monkeypatch, NATIVE_MEMORY_VARS)


@pytest.fixture
def app(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "app"
    (root / ".working-state").mkdir(parents=True)
    monkeypatch.chdir(root)
    return root


def memory_folder(home: Path, project: Path) -> Path:
    return home / ".claude" / "projects" / project_folder_name(str(project)) / "memory"


def captured(kind: str, text: str, source: str = "tool-rejection", **extra: Any) -> dict[str, Any]:
    item: dict[str, Any] = {
        "kind": kind,
        "by": "user",
        "source": source,
        "uuid": f"row-{text[:8]}",
        "decision": text,
        "quote": extra.pop("quote", text),
        **extra,
    }
    return make_captured_record(item, session=SESSION)


def stated_command(text: str, preferred: str, ruled_out: str) -> dict[str, Any]:
    """A constraint the user stated in a prompt: the command ``preferred``, not ``ruled_out``."""
    return captured(
        "constraint",
        text,
        source="prompt",
        ruled_out=[{"kind": "command", "value": ruled_out}],
        preferred=[{"kind": "command", "value": preferred}],
    )


def add(app: Path, record: dict[str, Any]) -> dict[str, Any]:
    append_record(str(app / ".working-state"), record)
    return record


def sync(app: Path, **kwargs: Any) -> native.SyncResult:
    return native.sync_native(str(app / ".working-state"), str(app), session=SESSION, **kwargs)


def log_lines(app: Path) -> list[dict[str, Any]]:
    text = (app / ".working-state" / "decisions.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


# -- where ----------------------------------------------------------------------------------


def test_the_folder_is_the_clients_for_the_project_its_git_root_and_worktrees(
    app: Path, home: Path, tmp_path: Path
) -> None:
    assert native_location(str(app)).folder == str(memory_folder(home, app))
    subprocess.run(["git", "init", "-q", str(app)], check=True)
    sub = app / "pkg"
    sub.mkdir()
    assert native_location(str(sub)).folder == str(memory_folder(home, app))
    worktree = tmp_path / "wt"
    worktree.mkdir()
    (worktree / ".git").write_text(f"gitdir: {app}/.git/worktrees/wt\n")
    assert native_location(str(worktree)).folder == str(memory_folder(home, app))


def test_long_folder_names_are_cut_and_hashed_as_the_client_does() -> None:
    # Measured with client 2.1.332: the memory folder of this path ended in "-nja6a5".
    path = "/tmp/i29pxmm_5yqm/repo/" + "/".join(["abcdefghij"] * 22)
    name = project_folder_name(path)
    assert len(name) == 200 + len("-nja6a5") and name.endswith("-a-nja6a5")
    assert project_folder_name("/a/\U0001f600b") == "-a---b"  # two UTF-16 units: two dashes


def test_config_dir_and_auto_memory_directory_are_honoured(
    app: Path, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    name = project_folder_name(str(app))
    assert native_location(str(app)).folder == str(config / "projects" / name / "memory")
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"autoMemoryDirectory": "~/mem"}))
    assert native_location(str(app)).folder == str(home / "mem")
    (app / ".claude").mkdir()
    (app / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryDirectory": "/p/m"}))
    assert native_location(str(app)).folder == "/p/m"
    local = app / ".claude" / "settings.local.json"
    local.write_text(json.dumps({"autoMemoryDirectory": "relative/no"}))
    # As the client: the first file that sets it decides; a relative folder there means
    # the default folder (not the next file's).
    assert native_location(str(app)).folder == str(config / "projects" / name / "memory")
    local.write_text(json.dumps({"autoMemoryDirectory": "/l/m/"}))
    assert native_location(str(app)).folder == "/l/m"


@pytest.mark.parametrize(
    ("user", "local", "env", "on"),
    [
        (None, None, {}, True),
        (False, None, {}, False),
        (False, True, {}, True),  # the local settings win over the user's
        (None, None, {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}, False),
        (False, None, {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}, True),  # "0" forces it on
        (None, None, {"CLAUDE_CODE_SIMPLE": "1"}, False),
        (None, None, {"CTX_NATIVE_MEMORY": "off"}, False),
    ],
)
def test_on_and_off(
    app: Path, home: Path, user: bool | None, local: bool | None, env: dict[str, str], on: bool
) -> None:
    if user is not None:
        (home / ".claude").mkdir()
        (home / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryEnabled": user}))
    if local is not None:
        (app / ".claude").mkdir()
        (app / ".claude" / "settings.local.json").write_text(
            json.dumps({"autoMemoryEnabled": local})
        )
    assert native_location(str(app), env).on is on


# -- the mirror -----------------------------------------------------------------------------


def test_the_users_records_are_mirrored_in_the_clients_format(app: Path, home: Path) -> None:
    rejected = add(
        app,
        captured(
            "rejected",
            "npm install moment",
            reason="moment is too big; we use date-fns",
            ruled_out=[{"kind": "package", "value": "moment"}],
            preferred=[{"kind": "package", "value": "date-fns"}],
            tier="structural",
        ),
    )
    stated = add(app, captured("constraint", "never push to main", source="prompt"))
    add(app, make_record("decided", "use Redis", session=SESSION))  # the agent's: stays out
    folder = memory_folder(home, app)
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(MODEL_LINE + "\n")
    (folder / "feedback_terse.md").write_text("---\nname: terse\n---\nbody\n")

    result = sync(app)

    assert result.written == [rejected["id"], stated["id"]] and result.retracted == []
    first = f"ctx_feedback_{rejected['id']}.md"
    second = f"ctx_feedback_{stated['id']}.md"
    assert sorted(os.listdir(folder)) == sorted(["MEMORY.md", "feedback_terse.md", first, second])
    assert (folder / "MEMORY.md").read_text() == "\n".join(
        [
            MODEL_LINE,
            "",
            NATIVE_BLOCK_BEGIN,
            f"- [Rejected: npm install moment]({first}) — moment is too big; we use date-fns",
            f'- [Rule: never push to main]({second}) — the user said: "never push to main"',
            NATIVE_BLOCK_END,
            "",
        ]
    )
    assert (folder / first).read_text() == (
        "---\n"
        'name: "Rejected: npm install moment"\n'
        'description: "Ruled out by the user: npm install moment"\n'
        "metadata:\n"
        "  type: feedback\n"
        "  source: context-memory\n"
        f"  record: {rejected['id']}\n"
        "---\n"
        "\n"
        "Do not do this again: npm install moment\n"
        "\n"
        "**Why:** moment is too big; we use date-fns\n"
        "**How to apply:** Never act on package moment (no tool call, no proposal). Use "
        "package date-fns instead. Ask the user before going against it.\n"
        "\n"
        f"(Mirrored by context-memory from the user's words; `ctx-decide --drop "
        f"{rejected['id']}` retracts it.)\n"
    )
    assert (folder / "feedback_terse.md").read_text() == "---\nname: terse\n---\nbody\n"
    assert sync(app).skipped == "up to date"


def test_a_superseded_record_leaves_and_a_removed_line_is_a_retraction(
    app: Path, home: Path
) -> None:
    pnpm = add(app, stated_command("use pnpm, not npm", preferred="pnpm", ruled_out="npm"))
    other = add(app, captured("rejected", "rm -rf build", reason="keep the cache"))
    sync(app)
    folder = memory_folder(home, app)
    npm = add(app, stated_command("use npm after all", preferred="npm", ruled_out="pnpm"))
    result = sync(app)
    assert result.written == [other["id"], npm["id"]]
    assert not (folder / f"ctx_feedback_{pnpm['id']}.md").exists()
    assert pnpm["id"] not in (folder / "MEMORY.md").read_text()

    # The user deletes a line in /memory: a drop mark, and the line is not written back.
    index = folder / "MEMORY.md"
    index.write_text("".join(line for line in index.read_text().splitlines(True)
                             if other["id"] not in line))  # fmt: skip
    result = sync(app)
    assert result.retracted == [other["id"]] and result.written == [npm["id"]]
    drop = log_lines(app)[-1]
    assert (drop["kind"], drop["target"]) == ("drop", other["id"])
    assert other["id"] not in index.read_text()
    assert not (folder / f"ctx_feedback_{other['id']}.md").exists()
    assert sync(app, force=True).retracted == []


def test_the_block_keeps_to_its_budget_and_the_clients_200_lines(app: Path, home: Path) -> None:
    ids = [add(app, captured("rejected", f"option number {n}"))["id"] for n in range(40)]
    folder = memory_folder(home, app)
    folder.mkdir(parents=True)
    model_lines = [f"- model line {n}" for n in range(180)]
    (folder / "MEMORY.md").write_text("\n".join(model_lines) + "\n")
    result = sync(app)
    lines = (folder / "MEMORY.md").read_text().splitlines()
    assert lines[:180] == model_lines
    assert len(lines) <= 200
    assert result.written == ids[-len(result.written) :]  # the newest
    assert result.unlisted == 40 - len(result.written)
    # The model shortens its own part: the block may grow to its own budget.
    (folder / "MEMORY.md").write_text("\n".join([MODEL_LINE, *lines[180:]]) + "\n")
    again = sync(app, force=True)
    assert again.retracted == [] and len(again.written) == NATIVE_BLOCK_LINES
    assert all(len(line) <= 150 for line in (folder / "MEMORY.md").read_text().splitlines())


def test_a_line_the_model_writes_during_the_sync_is_kept(
    app: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add(app, captured("rejected", "drop the users table"))
    folder = memory_folder(home, app)
    folder.mkdir(parents=True)
    index = folder / "MEMORY.md"
    index.write_text(MODEL_LINE + "\n")
    real = native.read_index
    calls = []

    def racing(where: str) -> bytes:
        calls.append(where)
        if len(calls) == 2:  # the re-read just before the replace: the model wrote a line
            index.write_text(MODEL_LINE + "\n- [New](feedback_new.md) — just now\n")
        return real(where)

    monkeypatch.setattr(native, "read_index", racing)
    sync(app)
    text = index.read_text()
    assert text.startswith(MODEL_LINE + "\n- [New](feedback_new.md) — just now\n\n")
    assert NATIVE_BLOCK_BEGIN in text and len(calls) == 4


def test_nothing_is_written_where_auto_memory_is_off_or_the_folder_is_a_link(
    app: Path, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add(app, captured("rejected", "npm install moment"))
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1")
    assert sync(app).skipped.startswith("auto memory off: CLAUDE_CODE_DISABLE_AUTO_MEMORY=1")
    assert not (home / ".claude").exists()
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = memory_folder(home, app)
    folder.parent.mkdir(parents=True)
    folder.symlink_to(elsewhere)
    assert "is not a folder" in sync(app).skipped
    assert list(elsewhere.iterdir()) == []


def test_uninstall_removes_only_the_toolkits_files_and_block(app: Path, home: Path) -> None:
    add(app, captured("rejected", "npm install moment"))
    folder = memory_folder(home, app)
    folder.mkdir(parents=True)
    model = f"{MODEL_LINE}\n\n- another line of the model's\n"
    (folder / "MEMORY.md").write_text(model)
    (folder / "feedback_terse.md").write_text("mine\n")
    (folder / "ctx_feedback_fake.md").write_text("not the toolkit's: no frontmatter mark\n")
    sync(app)
    assert native.toolkit_folders([str(app)]) == [str(folder)]
    assert main_pin(["--remove-auto-memory"]) == 0
    assert (folder / "MEMORY.md").read_text() == model
    assert sorted(os.listdir(folder)) == ["MEMORY.md", "ctx_feedback_fake.md", "feedback_terse.md"]
    # The hooks of this project do not write it back (the plugin runs until uninstalled).
    assert sync(app, force=True).skipped == native.REMOVED_TEXT


def main_pin(argv: list[str]) -> int:
    return pin_main(argv)


# -- the model's own memories ---------------------------------------------------------------


def test_the_models_own_memories_read_as_the_agents_records(app: Path, home: Path) -> None:
    folder = memory_folder(home, app)
    folder.mkdir(parents=True)
    (folder / "feedback_tests.md").write_text(
        "---\nname: real db\ndescription: integration tests hit a real database\n"
        "metadata:\n  type: feedback\n---\n\nNo mocks.\n\n**Why:** a mocked test hid a bug\n"
    )
    (folder / "user_role.md").write_text("---\nname: role\ntype: user\n---\nsenior dev\n")
    (folder / "project_freeze.md").write_text(
        "---\nname: merge freeze\ntype: project\n---\nfreeze after Thursday\n"
    )
    (folder / "MEMORY.md").write_text("- [Real db](feedback_tests.md) — no mocks\n")
    add(app, captured("rejected", "npm install moment"))
    sync(app)  # the toolkit's own file is no record of the model's
    records = sorted(auto_memory_records(str(app)), key=lambda r: str(r["id"]))
    shown = [(r["id"], r["kind"], r["decision"], r["reason"], r["in_index"]) for r in records]
    assert shown == [
        (
            "auto-memory:feedback_tests.md",
            "constraint",
            "integration tests hit a real database",
            "a mocked test hid a bug",
            True,
        ),
        ("auto-memory:project_freeze.md", "decided", "merge freeze", "", False),
    ]
    typed = constraints_of(auto_memory_records(str(app)))
    assert {(c["by"], c["source"]) for c in typed} == {("agent", "auto-memory")}
    assert not any(can_ask(c) for c in typed)


def test_ctx_decide_lists_them_and_drop_takes_the_line_out(app: Path, home: Path) -> None:
    record = add(app, captured("rejected", "npm install moment", reason="too big"))
    folder = memory_folder(home, app)
    folder.mkdir(parents=True)
    (folder / "feedback_x.md").write_text(
        "---\nname: x\ndescription: no emojis in commits\nmetadata:\n  type: feedback\n---\n"
    )
    sync(app)
    listed = CliRunner().invoke(decide_cli, ["--list"])
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert any("no emojis in commits" in ln and "[auto memory, agent]" in ln for ln in lines)
    assert any(record["id"] in ln and "[captured, user, in MEMORY.md, " in ln for ln in lines)
    dropped = CliRunner().invoke(decide_cli, ["--drop", str(record["id"])])
    assert dropped.exit_code == 0, dropped.output
    assert dropped.output.splitlines()[-1] == (f"auto memory: 0 line(s) in {folder}/MEMORY.md")
    assert not (folder / "MEMORY.md").exists()  # only the toolkit's block was in it
    assert not (folder / f"ctx_feedback_{record['id']}.md").exists()
    assert native.sync_native(str(app / ".working-state"), str(app)).retracted == []


# -- one delivery ---------------------------------------------------------------------------


def test_the_pointer_and_the_audit_do_not_repeat_what_memory_md_holds(
    app: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    mirrored = add(app, captured("rejected", "npm install moment", reason="too big"))
    other = add(app, make_record("rejected", "Codis", session=SESSION, reason="unmaintained"))
    payload = {"hook_event_name": "SessionStart", "session_id": SESSION, "cwd": str(app),
               "source": "startup"}  # fmt: skip
    # The first session start mirrors it, after the client read MEMORY.md: named this time.
    result = run_hook_main(monkeypatch, capsys, restore_main, payload)
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Codis (unmaintained)" in context and "npm install moment (too big" in context
    # The next one starts with its line in MEMORY.md: the client delivers it, not the pointer.
    result = run_hook_main(monkeypatch, capsys, restore_main, payload)
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Codis (unmaintained)" in context and "moment" not in context
    folder = memory_folder(home, app)
    assert mirrored["id"] in (folder / "MEMORY.md").read_text()
    state = str(app / ".working-state")
    assert "moment" in (recovery_pointer(state) or "")  # without the ids: named as before
    results: list[dict[str, Any]] = [
        {"id": mirrored["id"], "status": "lost"},
        {"id": other["id"], "status": "lost"},
    ]
    mark_in_memory(results, native.memory_ids(str(app)))
    assert [(r["status"], r.get("where")) for r in results] == [
        ("survived", "auto memory (MEMORY.md)"),
        ("lost", None),
    ]


def test_the_stop_hook_mirrors_after_capture(
    app: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = add(app, captured("constraint", "never use sudo", source="prompt"))
    payload = {"hook_event_name": "Stop", "session_id": SESSION, "cwd": str(app)}
    result = run_hook_main(monkeypatch, capsys, extract_main, payload)
    assert (result.exit_code, result.stdout) == (0, "")
    text = (memory_folder(home, app) / "MEMORY.md").read_text()
    assert f"ctx_feedback_{record['id']}.md" in text


def test_an_answer_names_the_options_the_user_did_not_choose(app: Path, home: Path) -> None:
    question = "Which date library?"
    record = add(
        app,
        captured("decided", f"{question} → date-fns", source="question",
                 alternatives=["moment"], quote="date-fns"),
    )  # fmt: skip
    sync(app)
    folder = memory_folder(home, app)
    name = f"ctx_project_{record['id']}.md"
    assert (folder / "MEMORY.md").read_text().splitlines()[1] == (
        f'- [Decided: {question} → date-fns]({name}) — not moment; the user said: "date-fns"'
    )
    assert (
        "**How to apply:** Not moment: the user chose otherwise. Ask the user"
        in (folder / name).read_text()
    )


def test_a_linked_memory_md_or_file_is_never_written_through(
    app: Path, home: Path, tmp_path: Path
) -> None:
    record = add(app, captured("rejected", "npm install moment"))
    folder = memory_folder(home, app)
    folder.mkdir(parents=True)
    target = tmp_path / "elsewhere.md"
    target.write_text("someone's file\n")
    (folder / "MEMORY.md").symlink_to(target)
    with pytest.raises(OSError, match="link"):
        sync(app)
    assert target.read_text() == "someone's file\n"
    (folder / "MEMORY.md").unlink()
    (folder / f"ctx_feedback_{record['id']}.md").symlink_to(target)
    assert sync(app).written == []  # the name is taken by a file that is not the toolkit's
    assert target.read_text() == "someone's file\n"
    assert not (folder / "MEMORY.md").exists()


def test_a_stop_that_captures_rebuilds_the_pinned_digest(
    app: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from context_memory.pinned import store as pinned

    state = app / ".working-state"
    pinned.rebuild(str(state))  # what --pin-decisions leaves: the digest exists
    assert "moment" not in (state / "pinned.md").read_text()
    prompt = (
        "Don't use moment for the dates, it is far too heavy for our bundle. Use date-fns instead."
    )
    row = {"type": "user", "uuid": "row-1", "parentUuid": None, "sessionId": SESSION,
           "timestamp": "2026-11-30T10:00:00.000Z", "cwd": str(app),
           "message": {"role": "user", "content": prompt}}  # fmt: skip
    transcript = app / "t.jsonl"
    transcript.write_text(json.dumps(row) + "\n")
    payload = {"hook_event_name": "Stop", "session_id": SESSION, "cwd": str(app),
               "transcript_path": str(transcript)}  # fmt: skip
    assert run_hook_main(monkeypatch, capsys, extract_main, payload).exit_code == 0
    assert [r["source"] for r in log_lines(app)] == ["prompt"]
    assert "Don't use moment for the dates" in (state / "pinned.md").read_text()


def test_ctx_doctor_shows_the_folder_the_block_and_its_budget(app: Path, home: Path) -> None:
    from context_memory.setup.doctor.checks_state import check_auto_memory

    for n in range(30):
        add(app, captured("rejected", f"option {n}"))
    sync(app)
    folder = memory_folder(home, app)
    block = (folder / "MEMORY.md").read_text().splitlines()[1:-1]
    chars = sum(len(line) + 1 for line in block)
    check = check_auto_memory(str(app), str(app / ".working-state"), os.environ)
    assert (check.status, check.message) == (
        "OK",
        f"{folder}: the toolkit's block 25 of 25 lines, {chars} of 3500 characters; "
        "MEMORY.md 27 of 200 lines (the client's default for this project); 5 more of the "
        "user's records left out (newest first)",
    )


def test_the_guard_reminds_on_the_models_own_memories_and_follows_their_folder(
    app: Path, home: Path
) -> None:
    """The model's own feedback memory counts as the agent's record: ctx-guard reminds on a
    call that acts on what it rules out, never asks; a memory the model adds later reaches
    the guard without any change of the decisions log (the index follows the folder)."""
    from context_memory.handlers.guard import guard_output

    state = app / ".working-state"
    add(app, captured("rejected", "npm install left-pad", reason="we vendor it"))
    folder = memory_folder(home, app)

    def call(command: str) -> dict[str, Any] | None:
        payload = {
            "hook_event_name": "PreToolUse",
            "session_id": SESSION,
            "cwd": str(app),
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
        out = guard_output(payload, env={"CTX_GUARD": "ask"})
        return None if out is None else json.loads(out)["hookSpecificOutput"]

    assert call("npm install moment") is None  # nothing rules moment out yet
    folder.mkdir(parents=True)
    (folder / "feedback_dates.md").write_text(
        "---\nname: dates\ndescription: never use moment, use date-fns\nmetadata:\n"
        "  type: feedback\n---\n\nnever use moment, use date-fns\n\n**Why:** bundle size\n"
    )
    (folder / "MEMORY.md").write_text("- [Dates](feedback_dates.md) — date-fns, not moment\n")
    said = call("npm install moment")
    assert said is not None
    assert sorted(said) == ["additionalContext", "hookEventName"]  # a reminder, no question
    assert "moment" in said["additionalContext"]
    assert call("npm install date-fns") is None
    assert (state / "guard-index.json").read_bytes().startswith(b'{"version":5,')
