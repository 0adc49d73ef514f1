"""The plugin end to end with the real client, offline, in a throwaway HOME:
``claude plugin install context-memory --marketplace <this checkout>``, then sessions against
the fake Messages API. No ./install, nothing on PATH, no --allowedTools: what the agent
needs comes from the plugin (hooks/hooks.json, bin/, the skill, the PreToolUse hook).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from context_memory import __version__

from .conftest import REPO_ROOT, ClaudeRunner, _run_in_own_group
from .fake_api import FakeMessagesApi, ScriptedTurn, Usage, texts_of, tool_use_block

pytestmark = pytest.mark.client

PLUGIN = "context-memory@context-memory"
BUDGET_MARKER = "[CONTEXT BUDGET]"
COMMANDS_MARKER = "[CONTEXT MEMORY]"
SKILL = "context-memory:context-memory"
# 150,000 tokens in all four usage fields: 75% of a 200K window.
USAGE_150K = Usage(
    input_tokens=20_000,
    cache_creation_input_tokens=30_000,
    cache_read_input_tokens=99_000,
    output_tokens=1_000,
)
SUMMARY = "1. Primary Request and Intent: design a cache layer. Chose Redis Cluster 6 nodes."
PLUGIN_TIMEOUT = 180.0  # the first ctx-decide may wait for the plugin's virtualenv (pip)


def claude_plugin(run_claude: ClaudeRunner, *args: str) -> subprocess.CompletedProcess[str]:
    result = _run_in_own_group(
        [str(run_claude.claude_bin), "plugin", *args],
        cwd=run_claude.project_dir,
        env=run_claude.child_env(),
        timeout=120,
    )
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result


def bash_turn(command: str) -> ScriptedTurn:
    return ScriptedTurn(blocks=(tool_use_block("Bash", {"command": command}),))


def given_decide_command(context: str) -> str:
    """The shell word the session-start context gave for recording a decision."""
    found = re.search(r"a decision: ('[^']*'|\S+) \"<decision>\"", context)
    assert found, context
    return found[1]


def plugin_processes(home: Path) -> list[str]:
    """Command lines of live processes of the plugin (a hook, a virtualenv build) started
    for the throwaway ``home``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        ours = any(mark in argv for mark in ("plugin_run.py", "context_memory.setup.plugin.venv"))
        if ours and f"HOME={home}".encode() in environ:
            found.append(argv)
    return found


@pytest.fixture(scope="session")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout as a fresh clone has it: the files git tracks or would (not .venv,
    .cache and other ignored folders). ``claude plugin install`` copies the whole
    marketplace folder, ignored folders included, into ~/.claude/plugins/cache: from this
    checkout in CI, with the client and a virtualenv in it, that is over 500 MB a test."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO_ROOT, capture_output=True, check=True, timeout=60,
    ).stdout.decode()  # fmt: skip
    folder = tmp_path_factory.mktemp("clone") / "context-memory"
    for name in filter(None, listed.split("\0")):
        source = REPO_ROOT / name
        if source.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name)
    return folder


@pytest.fixture
def plugin_runner(run_claude: ClaudeRunner, checkout: Path) -> ClaudeRunner:
    run_claude.timeout = PLUGIN_TIMEOUT
    claude_plugin(run_claude, "install", "context-memory", "--marketplace", str(checkout))
    return run_claude


def test_plugin_install_validates_and_registers_no_settings_hooks(
    plugin_runner: ClaudeRunner,
) -> None:
    claude_plugin(plugin_runner, "validate", str(REPO_ROOT))
    home = plugin_runner.home
    installed = json.loads((home / ".claude/plugins/installed_plugins.json").read_text())
    (entry,) = installed["plugins"][PLUGIN]
    assert entry["version"] == __version__
    # The client copies the folder (its hooks still run from the folder: see below).
    assert Path(entry["installPath"], ".claude-plugin", "plugin.json").is_file()
    settings = json.loads((home / ".claude/settings.json").read_text())
    assert settings["enabledPlugins"] == {PLUGIN: True}
    assert "hooks" not in settings  # the plugin's hooks live in its hooks.json only
    listed = json.loads(claude_plugin(plugin_runner, "list", "--json").stdout)
    assert [item["id"] for item in listed if not item["id"].endswith("@builtin")] == [PLUGIN]


def test_plugin_session_records_audits_and_uninstalls_cleanly(
    plugin_runner: ClaudeRunner, fake_api: FakeMessagesApi, checkout: Path
) -> None:
    run = plugin_runner
    project = run.project_dir
    fake_api.enqueue_text("Working on the cache layer.", USAGE_150K)
    run("design the cache layer")
    (first,) = fake_api.main_requests()
    # The skill is offered to the model; the session-start context names the commands.
    assert SKILL in first.body_json()
    (context,) = [c for c in first.hook_contexts("SessionStart") if COMMANDS_MARKER in c]
    decide = given_decide_command(context)
    # A folder marketplace's hooks run from the folder itself, not the client's copy.
    assert decide == shlex.quote(str(checkout / "bin" / "ctx-decide"))

    # The agent records through its Bash tool with the command it was given: the
    # PreToolUse hook allows it (no --allowedTools, -p mode would refuse otherwise).
    fake_api.clear_requests()
    fake_api.enqueue(
        bash_turn(f'{decide} "use Redis Cluster" --reason "sharding built in"'),
        bash_turn(f'{decide} --rejected "Codis" --reason "unmaintained"'),
        ScriptedTurn.text("Recorded.", USAGE_150K),
    )
    run("record the decisions", cont=True)
    assert fake_api.pending_turns == 0
    second = fake_api.main_requests()[0]
    (band,) = second.hook_contexts("UserPromptSubmit")
    assert band.startswith("[CONTEXT BUDGET] ~150K/200K (75%). ")
    session = second.session_id
    records = [
        json.loads(line)
        for line in (project / ".working-state" / "decisions.jsonl").read_text().splitlines()
    ]
    assert [(r["kind"], r["decision"], r["session"]) for r in records] == [
        ("decided", "use Redis Cluster", session),
        ("rejected", "Codis", session),
    ]

    # A compaction that drops the rejection: audited, and the loss put back.
    fake_api.set_summary(SUMMARY)
    run.compact()
    folder = project / ".working-state" / "sessions" / str(session)
    audit = json.loads((folder / "compact-audit.json").read_text())
    assert [(d["decision"], d["status"]) for d in audit["decisions"]] == [
        ("use Redis Cluster", "survived"),
        ("Codis", "lost"),
    ]
    fake_api.clear_requests()
    fake_api.enqueue_text("Continuing.")
    run("next", cont=True)
    (after,) = fake_api.requests_of("main")
    (injected,) = [t for t in texts_of(after) if "[COMPACT AUDIT]" in t]
    assert "- Rejected: Codis (why: unmaintained) Do not propose it again." in injected

    # Uninstall: nothing registered, nothing running, the project's working state kept.
    claude_plugin(run, "uninstall", PLUGIN)
    settings = json.loads((run.home / ".claude/settings.json").read_text())
    assert settings.get("enabledPlugins", {}).get(PLUGIN) is not True
    assert "hooks" not in settings
    installed = json.loads((run.home / ".claude/plugins/installed_plugins.json").read_text())
    assert PLUGIN not in installed["plugins"]
    assert plugin_processes(run.home) == []
    data = run.home / ".claude/plugins/data/context-memory-context-memory"
    assert not data.exists()  # the client deletes the plugin's data folder (its virtualenv)
    assert len((project / ".working-state" / "decisions.jsonl").read_text().splitlines()) == 2

    # A fresh session at 75%: no band text, no commands line, anywhere.
    fake_api.clear_requests()
    fake_api.enqueue_text("big", USAGE_150K)
    fake_api.enqueue_text("small")
    run("a new start")
    run("and now?", cont=True)
    for request in fake_api.main_requests():
        assert BUDGET_MARKER not in request.body_json()
        assert COMMANDS_MARKER not in request.body_json()
        assert SKILL not in request.body_json()
    assert len(fake_api.main_requests()) == 2
    assert os.path.isdir(project / ".working-state")


def plugin_checkout(checkout: Path, tmp_path: Path) -> Path:
    """A folder marketplace of its own (this test moves it)."""
    return Path(shutil.copytree(checkout, tmp_path / "checkout", symlinks=True))


def doctor_lines(run: ClaudeRunner, program: Path) -> dict[str, str]:
    done = subprocess.run(
        [str(program), "--json"], cwd=run.project_dir, env=run.child_env(),
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.stdout.startswith("{"), done.stderr
    return {c["check"]: f"{c['status']} {c['message']}" for c in json.loads(done.stdout)["checks"]}


def test_a_moved_checkout_stops_the_hooks_and_ctx_doctor_says_so(
    run_claude: ClaudeRunner, fake_api: FakeMessagesApi, checkout: Path, tmp_path: Path
) -> None:
    run = run_claude
    run.timeout = PLUGIN_TIMEOUT
    source = plugin_checkout(checkout, tmp_path)
    claude_plugin(run, "install", "context-memory", "--marketplace", str(source))
    checks = doctor_lines(run, source / "bin" / "ctx-doctor")
    assert checks["plugin"] == (
        f"OK {PLUGIN} {__version__} (user scope), hooks run from the folder {source} (moving or "
        "deleting it stops them)"
    )
    assert checks["hook ctx-budget"] == f"OK UserPromptSubmit through the plugin {PLUGIN}"

    fake_api.enqueue_text("hello")
    run("before the move")
    (before,) = fake_api.main_requests()
    assert [c for c in before.hook_contexts("SessionStart") if COMMANDS_MARKER in c]
    fake_api.clear_requests()

    moved = source.rename(tmp_path / "moved")
    # The client runs the hooks from the folder: moved, they stop without a word.
    fake_api.enqueue_text("big", USAGE_150K)
    fake_api.enqueue_text("small")
    run("first")
    run("second", cont=True)
    for request in fake_api.main_requests():
        assert BUDGET_MARKER not in request.body_json()
        assert COMMANDS_MARKER not in request.body_json()
    checks = doctor_lines(run, moved / "bin" / "ctx-doctor")
    assert checks["plugin folder"].startswith(
        f"FAIL {PLUGIN} {__version__} (user scope): its marketplace folder {source} is gone or "
        "moved"
    )
