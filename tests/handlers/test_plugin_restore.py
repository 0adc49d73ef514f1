"""The plugin's SessionStart context: one line naming the exact commands (quoted for the
shell when the plugin folder needs it), then the usual pointer to the working state. The
commands it names are the ones the allow hook lets run without a prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from context_memory.handlers import plugin_restore
from context_memory.handlers.allow import is_allowed

ROOT = "/home/me/src/context-memory"


def test_the_commands_line_names_the_exact_paths() -> None:
    assert plugin_restore.commands_text(ROOT) == (
        "[CONTEXT MEMORY] Keep this project's working memory with these commands (they run "
        "without a permission prompt; the skill context-memory:context-memory says when): "
        f'a decision: {ROOT}/bin/ctx-decide "<decision>" --reason "<why>"; '
        f'a rejected option: {ROOT}/bin/ctx-decide --rejected "<option>" --reason "<why>"; '
        f"the plan (Markdown on stdin): {ROOT}/bin/ctx-plan <<'EOF' ... EOF; "
        f"a stage handoff: {ROOT}/bin/ctx-handoff --draft; "
        f"list decisions: {ROOT}/bin/ctx-decide --list."
    )


@pytest.mark.parametrize("folder", ["plain", "with space", "it's", "$HOME;x"])
def test_the_given_commands_run_without_a_prompt(tmp_path: Path, folder: str) -> None:
    root = tmp_path / folder
    (root / "bin").mkdir(parents=True)
    decide = plugin_restore.command_path("ctx-decide", str(root))
    plan = plugin_restore.command_path("ctx-plan", str(root))
    assert is_allowed(f'{decide} "use X" --reason "why"', str(root))
    assert is_allowed(f"{decide} --list", str(root))
    assert is_allowed(f"{plan} <<'EOF'\n# Plan\nEOF", str(root))
    assert not is_allowed(f"{decide} x; id", str(root))


def test_the_pointer_follows_when_there_is_working_state(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CTX_PLUGIN_ROOT", ROOT)
    monkeypatch.setattr(plugin_restore, "_start_venv_build", lambda *args: None)
    payload = {"hook_event_name": "SessionStart", "source": "startup", "cwd": str(project)}
    text = json.loads(plugin_restore.plugin_restore_output(payload) or "")
    assert text["hookSpecificOutput"]["additionalContext"] == plugin_restore.commands_text(ROOT)
    (project / ".working-state").mkdir()
    (project / ".working-state" / "current-plan.md").write_text("# Plan\n")
    text = json.loads(plugin_restore.plugin_restore_output(payload) or "")
    first, second = text["hookSpecificOutput"]["additionalContext"].split("\n")
    assert first == plugin_restore.commands_text(ROOT)
    assert second.startswith("[WORKING STATE] This project keeps its working memory on disk. ")
    # Other sources and events get nothing.
    assert plugin_restore.plugin_restore_output(payload | {"source": "compact"}) is None
    assert plugin_restore.plugin_restore_output(payload | {"hook_event_name": "Stop"}) is None
