"""ctx-allow, the plugin's PreToolUse hook: it allows one plain call of the toolkit's own
commands and stays silent for anything else (the client then asks as usual)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from context_memory.calls.shell import plain_words
from context_memory.handlers.allow import allow_output, is_allowed
from helpers.paths import subprocess_env

REPO = Path(__file__).resolve().parents[2]
ROOT = str(REPO)
BIN = REPO / "bin"
ALLOW = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "permissionDecisionReason": "context-memory's own command",
    }
}

ALLOWED_COMMANDS = [
    "ctx-decide x",
    'ctx-decide "Use Redis Cluster, 6 nodes" --reason "needs sharding" --alt Codis',
    "ctx-decide --rejected 'Codis' --reason 'unmaintained; $HOME `x` | y'",
    'ctx-decide "quote \\" inside" --reason "back\\\\slash"',
    "ctx-decide --list --last 5",
    "ctx-handoff --draft",
    "ctx-usage",
    "ctx-doctor --json",
    f"{BIN}/ctx-decide x --reason y",
    f"'{BIN}/ctx-decide' x",
    f"{BIN}/../bin/ctx-plan --show",
    "ctx-plan <<'EOF'\n# Plan\n- [ ] step $(not expanded)\nEOF",
    'ctx-plan <<"END"\nbody\nEND\n',
    "ctx-handoff <<-'EOF'\n## Decided\n- none\n\tEOF",
]

REFUSED_COMMANDS = [
    "",
    "ctx-decide x; rm -rf /",
    "ctx-decide x;rm -rf /",
    "ctx-decide x && rm -rf /",
    "ctx-decide x || rm -rf /",
    "ctx-decide x & rm -rf /",
    "ctx-decide x | sh",
    "ctx-decide $(rm -rf /)",
    'ctx-decide "$(rm -rf /)"',
    "ctx-decide `rm -rf /`",
    'ctx-decide "`rm -rf /`"',
    "ctx-decide $HOME",
    'ctx-decide "${HOME}"',
    "ctx-decide x > /etc/passwd",
    "ctx-decide x >> f",
    "ctx-decide x < /etc/shadow",
    "ctx-decide x 2>&1",
    "ctx-decide x\nrm -rf /",
    "ctx-decide x\rrm -rf /",
    "ctx-decide x \\\nrm",
    "(ctx-decide x)",
    "{ ctx-decide x; }",
    "ctx-decide *",
    "ctx-decide x # comment",
    "ctx-decide 'unclosed",
    'ctx-decide "unclosed',
    "PATH=/tmp ctx-decide x",
    "LD_PRELOAD=/tmp/x.so ctx-decide x",
    "env ctx-decide x",
    "sh -c 'ctx-decide x'",
    "rm -rf /",
    "ctx-pin",  # edits CLAUDE.md: the user is asked
    "ctx-merge a b c",
    "ctx-decidex",
    "/tmp/bin/ctx-decide x",
    "./ctx-decide x",
    "bin/ctx-decide x",
    f"{BIN}/ctx-run ctx-decide x",
    "ctx-plan <<EOF\n$(rm -rf /)\nEOF",
    "ctx-plan <<'EOF'\nx\nEOF\nrm -rf /",
    "ctx-plan <<'EOF'\nx\nEOF\nEOF",
    "ctx-plan <<'EOF'\nnever closed",
    "ctx-plan <<'EOF' ; rm -rf /\nx\nEOF",
    "ctx-plan <<'EOF' | sh\nx\nEOF",
    "ctx-plan > f <<'EOF'\nx\nEOF",
    "rm -rf / <<'EOF'\nx\nEOF",
    "ctx-decide x\x00",
    "ctx-decide \x1b[31m",
    "ctx-decide " + "x" * 70_000,
]


@pytest.mark.parametrize("command", ALLOWED_COMMANDS)
def test_plain_calls_of_the_toolkit_are_allowed(command: str) -> None:
    assert is_allowed(command, ROOT) is True


@pytest.mark.parametrize("command", REFUSED_COMMANDS)
def test_anything_else_is_left_to_the_client(command: str) -> None:
    assert is_allowed(command, ROOT) is False


def test_words_lose_their_quotes() -> None:
    assert plain_words("""a 'b c' "d \\" e" f\\ g""") == ["a", "b c", 'd " e', "f g"]


def payload(command: object, tool: str = "Bash", event: str = "PreToolUse") -> dict:
    return {
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": {"command": command},
        "session_id": "s1",
        "cwd": "/nonexistent",
    }


def test_output_is_the_allow_document_or_nothing() -> None:
    assert json.loads(allow_output(payload("ctx-decide x")) or "") == ALLOW
    assert allow_output(payload("ctx-decide x; id")) is None
    assert allow_output(payload("ctx-decide x", tool="Write")) is None
    assert allow_output(payload("ctx-decide x", event="PostToolUse")) is None
    assert allow_output(payload(["ctx-decide"])) is None
    assert allow_output({"hook_event_name": "PreToolUse", "tool_name": "Bash"}) is None


@pytest.mark.parametrize(
    ("command", "expected"),
    [("ctx-decide 'x'", json.dumps(ALLOW, separators=(",", ":")) + "\n"), ("ctx-decide $(id)", "")],
)
def test_the_hook_through_the_launcher(command: str, expected: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(BIN / "ctx-run"), "ctx-allow"],
        input=json.dumps(payload(command) | {"cwd": str(tmp_path)}),
        capture_output=True, text=True, env=subprocess_env(), timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")


def test_garbage_input_fails_open(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "hooks/context_memory/commands/plugin_run.py"), "ctx-allow"],
        input="{not json", cwd=tmp_path,
        capture_output=True, text=True, env=subprocess_env(), timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "")
    assert len(done.stderr.splitlines()) == 1


def test_the_hook_before_every_bash_call_stays_light(tmp_path: Path) -> None:
    """It runs before every Bash call: no json, re, click, orjson, filelock, typing."""
    done = subprocess.run(
        [sys.executable, "-S", "-X", "importtime",
         str(REPO / "hooks/context_memory/commands/plugin_run.py"), "ctx-allow"],
        input=json.dumps(payload("ctx-decide x") | {"cwd": str(tmp_path)}),
        capture_output=True, text=True, env=subprocess_env(), timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0
    assert '"allow"' in done.stdout
    imported = {
        line.split("|")[-1].strip().split(".")[0]
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert "context_memory" in imported
    heavy = {"json", "re", "enum", "click", "orjson", "filelock", "typing", "subprocess"}
    assert sorted(imported & heavy) == []
