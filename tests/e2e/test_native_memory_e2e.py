"""Claude Code's own auto memory end to end with the real client (2.1.332): what the user
ruled out reaches a new session's first request through MEMORY.md, again after /compact,
leaves after ctx-decide --drop; nothing is written with auto memory off; the model's own
lines and files stay as they were.

The prompt is captured at Stop (ctx-extract) as the user's constraint and mirrored into
``~/.claude/projects/<project>/memory/`` (memory/native.py). The client itself then loads
MEMORY.md into the first request of every session, "Contents of .../MEMORY.md (user's
auto-memory, persists across conversations)", and after each compaction.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import ClaudeRunner, ctx_decide, edit_settings
from .fake_api import FakeMessagesApi, texts_of

pytestmark = pytest.mark.client

PROMPT = "Don't use moment for the dates, it is far too heavy for our bundle. Use date-fns instead."
SUMMARY = "1. Primary Request and Intent: format the dates on the invoice page."
MODEL_INDEX = "- [Terse answers](feedback_terse.md) — the user reads the diff\n"
MODEL_FILE = (
    "---\nname: terse answers\ndescription: no summary at the end\nmetadata:\n"
    "  type: feedback\n---\n\nNo trailing summaries.\n\n**Why:** the user reads the diff\n"
)
BEGIN = "<!-- context-memory: begin."


def memory_contents(texts: list[str], folder: Path) -> str | None:
    """The MEMORY.md text the client put into a request, or None."""
    head = f"Contents of {folder}/MEMORY.md (user's auto-memory, persists across conversations):"
    for text in texts:
        if head in text:
            return text[text.index(head) + len(head) :]
    return None


def records(project: Path) -> list[dict[str, object]]:
    log = project / ".working-state" / "decisions.jsonl"
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_a_captured_constraint_reaches_new_sessions_through_memory_md(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    project = run_claude.project_dir
    folder = run_claude.memory_dir
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(MODEL_INDEX, encoding="utf-8")
    (folder / "feedback_terse.md").write_text(MODEL_FILE, encoding="utf-8")

    fake_api.enqueue_text("Understood, date-fns it is.")
    run_claude(PROMPT)
    (record,) = records(project)
    ident = str(record["id"])
    own_file = folder / f"ctx_feedback_{ident}.md"
    assert own_file.is_file()
    index = (folder / "MEMORY.md").read_text(encoding="utf-8")
    assert index.startswith(MODEL_INDEX + "\n" + BEGIN)  # the model's line first, unchanged
    (pointer_line,) = [line for line in index.splitlines() if ident in line]
    assert pointer_line.startswith("- [Rule: Don't use moment for the dates")
    assert (folder / "feedback_terse.md").read_text(encoding="utf-8") == MODEL_FILE

    # A new session: the client loads MEMORY.md by itself; the pointer does not repeat it.
    fake_api.clear_requests()
    fake_api.enqueue_text("Hello.")
    run_claude("hello")
    first = fake_api.requests_of("main")[0]
    loaded = memory_contents(texts_of(first), folder)
    assert loaded is not None and pointer_line in loaded and MODEL_INDEX.strip() in loaded
    contexts = first.hook_contexts("SessionStart")
    assert contexts and all("moment" not in text for text in contexts)

    # /compact with a summary that drops it: the next request carries MEMORY.md again, and
    # the audit counts it as kept (nothing re-injected).
    fake_api.set_summary(SUMMARY)
    run_claude.compact()
    fake_api.clear_requests()
    fake_api.enqueue_text("Continuing.")
    run_claude("next", cont=True)
    (after,) = fake_api.requests_of("main")
    loaded = memory_contents(texts_of(after), folder)
    assert loaded is not None and pointer_line in loaded
    assert not [t for t in texts_of(after) if "[COMPACT AUDIT]" in t and "moment" in t]
    audits = list((project / ".working-state" / "sessions").glob("*/compact-audit.json"))
    (audit,) = [json.loads(path.read_text(encoding="utf-8")) for path in audits]
    (checked,) = [item for item in audit["decisions"] if item["id"] == ident]
    assert (checked["status"], checked["where"]) == ("survived", "auto memory (MEMORY.md)")

    # Dropped: the line and the file leave; the model's stay.
    session = str(record["session"])
    ctx_decide(ctx_venv, project, session, "--drop", ident, HOME=str(installed_home))
    assert not own_file.exists()
    assert (folder / "MEMORY.md").read_text(encoding="utf-8") == MODEL_INDEX
    fake_api.clear_requests()
    fake_api.enqueue_text("Hi.")
    run_claude("hi again")
    loaded = memory_contents(texts_of(fake_api.requests_of("main")[0]), folder)
    assert loaded is not None and "moment" not in loaded and MODEL_INDEX.strip() in loaded


def test_nothing_is_written_where_auto_memory_is_off(
    installed_home: Path,
    ctx_venv: Path,
    run_claude: ClaudeRunner,
    fake_api: FakeMessagesApi,
) -> None:
    edit_settings(installed_home, lambda settings: settings.update(autoMemoryEnabled=False))
    fake_api.enqueue_text("Understood.")
    run_claude(PROMPT)
    assert [r["kind"] for r in records(run_claude.project_dir)] == ["constraint"]
    folder = run_claude.memory_dir
    assert not folder.exists() or sorted(p.name for p in folder.iterdir()) == []
    # Without auto memory the session-start pointer names it, as before.
    fake_api.clear_requests()
    fake_api.enqueue_text("Hello.")
    run_claude("hello")
    contexts = fake_api.requests_of("main")[0].hook_contexts("SessionStart")
    assert any("Don't use moment for the dates" in text for text in contexts), contexts
