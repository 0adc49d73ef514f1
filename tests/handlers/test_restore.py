from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from context_memory.core.safe_text import estimate_tokens
from context_memory.core.tables import POINTER_REJECTION_TOKENS
from context_memory.handlers import restore
from context_memory.memory import pointer
from context_memory.memory.pointer import recovery_pointer
from helpers.cli_run import run_hook_main
from helpers.paths import subprocess_env

SESSION = "ec02a1e1-95f7-4797-b360-0048899b56dd"


def state(project: Path) -> Path:
    folder = project / ".working-state"
    folder.mkdir(exist_ok=True)
    return folder


def handoff(project: Path, session: str, stage: int, age: float = 0) -> Path:
    folder = state(project) / "sessions" / session / "handoffs"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"stage-{stage}.md"
    # Ranked by the time in its front matter (never the file time: git sets those).
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - age))
    path.write_text(f"---\ntime: {stamp}\n---\n")
    return path


def run_main(monkeypatch, capsys, payload: dict | str):
    return run_hook_main(monkeypatch, capsys, restore.main, payload)


def payload(project: Path, source: str = "startup") -> dict:
    return {
        "session_id": SESSION,
        "transcript_path": "",
        "cwd": str(project),
        "hook_event_name": "SessionStart",
        "source": source,
    }


def test_nothing_at_all_without_working_state(project, monkeypatch, capsys):
    assert recovery_pointer(str(project / ".working-state")) is None
    state(project)
    (project / ".working-state" / "decisions.jsonl").write_text("")  # empty: nothing to read
    assert recovery_pointer(str(project / ".working-state")) is None
    assert run_main(monkeypatch, capsys, payload(project)) == (0, "", "")


def test_full_pointer_names_plan_decisions_latest_handoff_and_merged(project):
    folder = state(project)
    (folder / "current-plan.md").write_text("- [ ] x\n")
    (folder / "decisions.jsonl").write_text("{}\n")
    handoff(project, "older-session", 7, age=100)
    handoff(project, SESSION, 2, age=10)
    handoff(project, SESSION, 1, age=50)
    (folder / "merged").mkdir()
    (folder / "merged" / "decisions.md").write_text("# merged\n")
    assert recovery_pointer(str(folder)) == (
        "[WORKING STATE] This project keeps its working memory on disk. "
        "Read .working-state/current-plan.md and .working-state/decisions.jsonl first. "
        f"Latest handoff: .working-state/sessions/{SESSION}/handoffs/stage-2.md. "
        "Merged decisions: .working-state/merged/decisions.md. "
        "Record new decisions with ctx-decide."
    )


def test_only_a_handoff(project):
    handoff(project, SESSION, 3)
    assert recovery_pointer(str(project / ".working-state")) == (
        "[WORKING STATE] This project keeps its working memory on disk. "
        f"Latest handoff: .working-state/sessions/{SESSION}/handoffs/stage-3.md. "
        "Record new decisions with ctx-decide."
    )


def test_state_dir_outside_the_project_is_shown_absolute(tmp_path):
    folder = tmp_path / "custom-state"
    folder.mkdir()
    (folder / "decisions.jsonl").write_text("{}\n")
    assert recovery_pointer(str(folder)) == (
        "[WORKING STATE] This project keeps its working memory on disk. "
        f"Read {folder}/decisions.jsonl first. Record new decisions with ctx-decide."
    )


@pytest.mark.parametrize("source", ["startup", "resume", "clear"])
def test_hook_injects_session_start_context(project, monkeypatch, capsys, source):
    (state(project) / "current-plan.md").write_text("plan\n")
    status, out, err = run_main(monkeypatch, capsys, payload(project, source))
    assert (status, err) == (0, "")
    assert json.loads(out) == {
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": "[WORKING STATE] This project keeps its working memory on "
            "disk. Read .working-state/current-plan.md first. Record new decisions with "
            "ctx-decide.",
        }
    }


@pytest.mark.parametrize("source", ["compact", "fork"])
def test_other_sources_get_nothing(project, monkeypatch, capsys, source):
    (state(project) / "current-plan.md").write_text("plan\n")
    assert run_main(monkeypatch, capsys, payload(project, source)) == (0, "", "")


def test_claude_project_dir_wins_over_cwd(project, tmp_path, monkeypatch, capsys):
    other = tmp_path / "real-project"
    (other / ".working-state").mkdir(parents=True)
    (other / ".working-state" / "decisions.jsonl").write_text("{}\n")
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(other))
    _, out, _ = run_main(monkeypatch, capsys, payload(project))
    assert "Read .working-state/decisions.jsonl first." in out


def test_bad_input_fails_open_with_exit_0(project):
    for stdin in [b"{", b"[]", b"\xff"]:  # empty: a by-hand run (test_hook_by_hand.py)
        result = subprocess.run(
            [sys.executable, "-m", "context_memory.handlers.restore"],
            input=stdin,
            capture_output=True,
            env=subprocess_env(),
            cwd=project,
            timeout=30,
        )
        assert (result.returncode, result.stdout) == (0, b"")
        assert result.stderr.startswith(b"ctx-restore: HookInputError")


def rejection(number: int, ts: str, author: str, reason: str = "") -> str:
    record = {
        "id": f"id{number}",
        "ts": ts,
        "session": f"s{number}",
        "kind": "rejected",
        "decision": f"Option {number}",
        "reason": reason,
        "author": author,
    }
    return json.dumps(record)


def test_pointer_names_every_rejection_that_fits_newest_first(project):
    """Before: only the 5 newest were named; a teammate's sixth (Codis) was cut."""
    folder = state(project)
    decided = json.dumps(
        {"id": "d", "ts": "2026-11-30T12:00:00Z", "kind": "decided", "decision": "D"}
    )
    lines = [
        rejection(1, "2026-11-28T09:00:00Z", "Ada", "too slow"),
        rejection(2, "2026-11-30T09:00:00Z", "Bob", "x" * 300),
        decided,
        rejection(3, "2026-11-29T09:00:00Z", "Ada"),
        rejection(2, "2026-11-30T09:00:00Z", "Bob", "x" * 300),  # a union merge's duplicate
        rejection(4, "2026-11-27T09:00:00Z", "Cy"),
        rejection(5, "2026-11-26T09:00:00Z", "Cy"),
        json.dumps(
            {
                "id": "id6",
                "ts": "2026-11-25T09:00:00Z",
                "session": "s6",
                "kind": "rejected",
                "decision": "Codis",
                "reason": "Redis Cluster is simpler",
                "author": "Dee",
            }
        ),  # the sixth newest, a teammate's: still named
        '{"kind": "rejected", "decision": "half',
    ]
    (folder / "decisions.jsonl").write_text("\n".join(lines) + "\n")
    long_item = ("Option 2 (" + "x" * 300)[: pointer.REJECTION_CHARS - 3] + "..."
    assert recovery_pointer(str(folder)) == (
        "[WORKING STATE] This project keeps its working memory on disk. "
        "Read .working-state/decisions.jsonl first. "
        f"Rejected, do not propose again: {long_item}; Option 3; Option 1 (too slow); "
        "Option 4; Option 5; Codis (Redis Cluster is simpler). "
        "Record new decisions with ctx-decide."
    )
    assert "Rejected" not in str(recovery_pointer(str(folder), with_rejections=False))


def test_rejections_past_the_token_budget_are_counted_and_located(project):
    folder = state(project)
    # 40 rejections of about 150 characters: about 1,500 tokens, over the 600 budget.
    lines = [
        rejection(n, f"2026-10-{n % 28 + 1:02d}T{n // 28:02d}:00:00Z", "Ada", "r" * 140)
        for n in range(1, 41)
    ]
    (folder / "decisions.jsonl").write_text("\n".join(lines) + "\n")
    text = str(recovery_pointer(str(folder)))
    named = text.split("Rejected, do not propose again: ", 1)[1].split(". ", 1)[0]
    items = named.split("; ")
    assert POINTER_REJECTION_TOKENS == 600
    assert estimate_tokens(named) <= POINTER_REJECTION_TOKENS
    assert len(items) == 15  # 15 items of 38 to 40 tokens fit in 600; a 16th would not
    # newest first: the 27th is dated 2026-10-28, the newest day
    assert [item.split(" (")[0] for item in items[:3]] == ["Option 27", "Option 26", "Option 25"]
    assert f"And {40 - 15} more rejections (ctx-decide --list shows them all)" in text


def test_pointer_reads_only_the_tail_of_a_big_log(project, monkeypatch):
    folder = state(project)
    monkeypatch.setattr(pointer, "REJECTIONS_TAIL_BYTES", 400)
    lines = [rejection(n, f"2026-11-{n:02d}T09:00:00Z", "Ada") for n in range(1, 10)]
    (folder / "decisions.jsonl").write_text("\n".join(lines) + "\n")
    found = pointer.recent_rejections(str(folder))
    assert found == ["Option 9", "Option 8"]  # what fits in the last 400 bytes, whole lines
