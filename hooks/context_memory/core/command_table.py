"""The one command registry: every command of the toolkit, what runs it, and the hook table.

Derived from it: pyproject.toml's ``[project.scripts]`` (static, so
tests/core/test_command_table.py checks it equals ``SCRIPTS``), the plugin's dispatcher
(``PLUGIN_COMMANDS``, read by bin/ctx-run through commands/plugin_run.py), the command links
(setup/install/command_links.LINKED_COMMANDS: every script), the entry points ctx-doctor
expects, and the by-hand guides (``HOOK_GUIDES``, written out by core/hookio). ``HOOKS`` is
the table the installer registers, ctx-doctor checks and the plugin's hooks/hooks.json is
made from. Adding a hook event touches its handler, ``HOOKS`` (and the guide's events text
of that command) and their test.

No imports: the by-hand answer of every hook and bin/ctx-run read it.
"""

from __future__ import annotations

# What a command needs under the plugin (commands/plugin_run.py): "hook" runs with the
# standard library only; "hook+venv" also uses the plugin's venv when it is ready; "venv"
# needs it (built on demand).
HOOK = "hook"
HOOK_VENV = "hook+venv"
VENV = "venv"


class Command:
    """One command. A plain class, not a NamedTuple: typing is too heavy for ctx-allow,
    which reads this table before every Bash call (tests/handlers/test_allow.py)."""

    __slots__ = ("guide", "name", "plugin", "plugin_target", "script", "target")

    def __init__(
        self,
        name: str,
        target: str,
        plugin: str | None,
        *,
        plugin_target: str | None = None,
        script: bool = True,
        guide: tuple[str, str, str] | None = None,
    ) -> None:
        self.name = name
        self.target = target  # module:function, the console script's entry point
        self.plugin = plugin  # HOOK, HOOK_VENV or VENV under the plugin; None: not in it
        self.plugin_target = plugin_target  # what bin/ctx-run runs, where it differs
        self.script = script  # a console script of pyproject.toml (so a linked command)
        # A hook's answer when tried by hand (--help, or nothing on stdin): (the events
        # Claude Code runs it for, what it does, an example payload to pipe in).
        self.guide = guide


# In the order ./install links them (and says so).
COMMANDS: tuple[Command, ...] = (
    Command(
        "ctx-usage",
        "context_memory.commands.usage:main",
        HOOK,
    ),
    Command(
        "ctx-decide",
        "context_memory.commands.decide:main",
        VENV,
    ),
    Command(
        "ctx-plan",
        "context_memory.commands.plan:main",
        VENV,
    ),
    Command(
        "ctx-capture",
        "context_memory.commands.capture:main",
        VENV,
    ),
    Command(
        "ctx-handoff",
        "context_memory.commands.handoff:main",
        VENV,
    ),
    Command(
        "ctx-audit",
        "context_memory.handlers.audit:main",
        HOOK_VENV,
        guide=(
            "PostCompact and SessionStart (compact)",
            "after a compaction it checks which recorded decisions the summary kept; by hand, "
            "ctx-audit TRANSCRIPT audits a session's compactions",
            '{"hook_event_name": "PostCompact", "trigger": "manual", "session_id": "by-hand", '
            '"compact_summary": "Summary: ...", "cwd": "."}',
        ),
    ),
    Command(
        "ctx-merge",
        "context_memory.commands.merge:main",
        VENV,
    ),
    Command(
        "ctx-doctor",
        "context_memory.commands.doctor:main",
        VENV,
    ),
    Command(
        "ctx-statusline",
        "context_memory.handlers.statusline:main",
        HOOK,
        guide=(
            "statusLine",
            "on each status refresh it prints one line: a context bar, tokens/window, percent, "
            "band, tokens left before auto-compaction",
            '{"model": {"id": "claude-sonnet-4-6"}, "transcript_path": "/path/to/session.jsonl", '
            '"workspace": {"project_dir": "."}}',
        ),
    ),
    Command(
        "ctx-guard",
        "context_memory.handlers.guard:main",
        HOOK,
        guide=(
            "PreToolUse",
            "before each Bash, Write, Edit, MultiEdit or NotebookEdit call it asks you first when "
            "the call redoes what you rejected",
            '{"hook_event_name": "PreToolUse", "tool_name": "Bash", '
            '"tool_input": {"command": "npm install moment"}, "cwd": "."}',
        ),
    ),
    Command(
        "ctx-budget",
        "context_memory.handlers.budget:main",
        HOOK,
        guide=(
            "UserPromptSubmit",
            "before each prompt it adds a graded context-budget instruction when the context "
            "is filling up",
            '{"hook_event_name": "UserPromptSubmit", "transcript_path": "/path/to/session.jsonl", '
            '"cwd": "."}',
        ),
    ),
    Command(
        "ctx-extract",
        "context_memory.handlers.extract:main",
        HOOK_VENV,
        guide=(
            "Stop and PreCompact",
            "after each reply and before a compaction it keeps the session's facts (files, "
            "decisions) in the handoff draft under .working-state/",
            '{"hook_event_name": "PreCompact", "trigger": "manual", "session_id": "by-hand", '
            '"transcript_path": "/path/to/session.jsonl", "cwd": "."}',
        ),
    ),
    Command(
        "ctx-restore",
        "context_memory.handlers.restore:main",
        HOOK,
        plugin_target="context_memory.handlers.plugin_restore:main",
        guide=(
            "SessionStart",
            "at the start of a session it points the model at the working state (plan, "
            "handoff, decisions) under .working-state/",
            '{"hook_event_name": "SessionStart", "source": "startup", "cwd": "."}',
        ),
    ),
    Command(
        "ctx-install",
        "context_memory.commands.install:main",
        None,
    ),
    Command(
        "ctx-allow",
        "context_memory.handlers.allow:main",
        HOOK,
        script=False,
        guide=(
            "PreToolUse",
            "it lets the plugin's own ctx- commands run without a permission prompt",
            '{"hook_event_name": "PreToolUse", "tool_name": "Bash", '
            '"tool_input": {"command": "ctx-usage"}}',
        ),
    ),
    Command(
        "ctx-pin",
        "context_memory.commands.pin:main",
        VENV,
        script=False,
    ),
)


class HookSpec(tuple[str, "str | None", str, int]):
    """One hook registration: (event, matcher or None, command, timeout in seconds).
    UserPromptSubmit and Stop ignore matchers; SessionStart matches ``source``,
    PreCompact/PostCompact match ``trigger``. A tuple with names, as a NamedTuple would be
    without importing typing (see Command)."""

    __slots__ = ()

    def __new__(cls, event: str, matcher: str | None, command: str, timeout: int) -> HookSpec:
        return tuple.__new__(cls, (event, matcher, command, timeout))

    @property
    def event(self) -> str:
        return self[0]

    @property
    def matcher(self) -> str | None:
        return self[1]

    @property
    def command(self) -> str:
        return self[2]

    @property
    def timeout(self) -> int:
        return self[3]

    def __repr__(self) -> str:
        return f"HookSpec{tuple.__repr__(self)}"


HOOKS: tuple[HookSpec, ...] = (
    HookSpec("UserPromptSubmit", None, "ctx-budget", 10),
    HookSpec("Stop", None, "ctx-extract", 30),
    HookSpec("PreCompact", None, "ctx-extract", 30),
    HookSpec("SessionStart", "startup|resume|clear", "ctx-restore", 10),
    HookSpec("PostCompact", None, "ctx-audit", 30),
    HookSpec("SessionStart", "compact", "ctx-audit", 30),
    HookSpec("PreToolUse", "Bash|Write|Edit|MultiEdit|NotebookEdit", "ctx-guard", 10),
)

SCRIPTS: dict[str, str] = {c.name: c.target for c in COMMANDS if c.script}
PLUGIN_COMMANDS: dict[str, tuple[str, str]] = {
    c.name: (c.plugin_target or c.target, c.plugin) for c in COMMANDS if c.plugin is not None
}
HOOK_GUIDES: dict[str, tuple[str, str, str]] = {
    c.name: c.guide for c in COMMANDS if c.guide is not None
}
