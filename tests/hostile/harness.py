"""Shared machinery of the hostile suite.

- ENTRY_POINTS: one case per hook registration in core/command_table.HOOKS (the console script
  and module come from pyproject's [project.scripts]), plus ctx-statusline. A hook added to
  the registry is covered by every hostile test without an edit here.
- validate_hook_stdout: section 2 of the protocol file, as the client applies it.
- Sandbox: a home, a project with seeded working state (decisions, handoffs, a plan, a
  pending compaction audit) and a transcript in the real shape, plus awkward paths.
- run_in_process / run_console: one run of an entry point; stdout and stderr as bytes
  (run_console: the installed command, a fresh process; run_in_process: its main()).
- check_invariants: what must hold after every run, whatever the input.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from context_memory.core.command_table import HOOKS
from context_memory.core.decisions_log import read_records
from context_memory.core.prompt_tables import AUDIT_PENDING_MARK
from context_memory.memory.decisions import append_record, make_record
from context_memory.memory.handoff import parse_handoff, render_handoff
from context_memory.transcript.locate import project_folder_name
from helpers import installed
from helpers import transcript_rows as tr
from helpers.paths import REPO, subprocess_env

SESSION = tr.SESSION
OTHER_SESSION = "0f0e0d0c-1111-4222-8333-944445555666"
STATE_DIRNAME = ".working-state"
STATUSLINE_EVENT = "StatusLine"  # not a hook event: the status line command's own case
# Far beyond anything a hook should take; only a hang reaches it.
HANG_SECONDS = 30.0


# -- the entry points ------------------------------------------------------------------------


def console_scripts() -> dict[str, str]:
    """pyproject's [project.scripts]: command -> "module:function"."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.scripts]", 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r'^([\w-]+)\s*=\s*"([\w.]+:\w+)"', section, re.MULTILINE))


class Entry(NamedTuple):
    command: str
    target: str  # "module:function", as the console script calls it
    event: str  # the event the client runs it for (STATUSLINE_EVENT for the status line)
    source: str | None  # SessionStart: the first source its matcher accepts

    @property
    def module(self) -> str:
        return self.target.split(":")[0]

    @property
    def function(self) -> str:
        return self.target.split(":")[1]

    @property
    def is_hook(self) -> bool:
        return self.event != STATUSLINE_EVENT

    @property
    def id(self) -> str:
        return f"{self.command}-{self.event}" + (f"-{self.source}" if self.source else "")


def _entries() -> tuple[tuple[Entry, ...], Entry]:
    scripts = console_scripts()
    hooks: dict[Entry, None] = {}
    for spec in HOOKS:
        source = None
        if spec.event == "SessionStart" and spec.matcher:
            source = spec.matcher.split("|")[0]
        # KeyError here: a registered hook without a console script.
        hooks[Entry(spec.command, scripts[spec.command], spec.event, source)] = None
    statusline = Entry("ctx-statusline", scripts["ctx-statusline"], STATUSLINE_EVENT, None)
    return tuple(hooks), statusline


HOOK_ENTRIES, STATUSLINE = _entries()
ENTRY_POINTS: tuple[Entry, ...] = (*HOOK_ENTRIES, STATUSLINE)


def entry_for(command: str, event: str) -> Entry:
    return next(e for e in ENTRY_POINTS if e.command == command and e.event == event)


# -- the protocol (docs/claude-code-protocol.md, section 2) ----------------------------------------

TOP_LEVEL_TYPES: dict[str, type] = {
    "continue": bool,
    "suppressOutput": bool,
    "stopReason": str,
    "decision": str,
    "reason": str,
    "systemMessage": str,
    "hookSpecificOutput": dict,
}
DECISIONS = ("approve", "block")
NO_SPECIFIC_OUTPUT = ("PreCompact", "PostCompact", "SessionEnd")
ADDITIONAL_CONTEXT_EVENTS = (
    "UserPromptSubmit",
    "SessionStart",
    "Stop",
    "SubagentStop",
    "PostToolUse",
    "PreToolUse",
)
# PreToolUse alone may answer for the permission prompt (protocol section 9).
PERMISSION_DECISIONS = ("allow", "ask", "deny")
# Plain text has a meaning here (context, compaction instructions, a line for the user).
PLAIN_TEXT_EVENTS = ("UserPromptSubmit", "SessionStart", "PreCompact", "PostCompact")


class ProtocolError(AssertionError):
    """Stdout the client would discard or show as a hook error."""


def validate_hook_stdout(event: str, stdout: bytes) -> object:
    """Check ``stdout`` as the client does for ``event``: None (empty), the plain text, or
    the JSON document. Raises ProtocolError for anything the client would reject."""
    if not stdout:
        return None
    try:
        text = stdout.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"stdout is not UTF-8: {exc}") from None
    if not text.strip():
        raise ProtocolError("stdout holds only whitespace")
    if not text.lstrip().startswith("{"):
        if event not in PLAIN_TEXT_EVENTS:
            raise ProtocolError(f"plain text on stdout goes nowhere for {event}: {text[:80]!r}")
        return text
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise ProtocolError(f"stdout is not exactly one JSON document: {exc}") from None
    if not isinstance(document, dict):
        raise ProtocolError(f"stdout JSON is a {type(document).__name__}, not an object")
    for key, value in document.items():
        expected = TOP_LEVEL_TYPES.get(key)
        if expected is None:
            raise ProtocolError(f"unknown top-level key {key!r}")
        if not isinstance(value, expected):
            raise ProtocolError(f"{key!r} must be a {expected.__name__}, not {value!r}")
    if "decision" in document and document["decision"] not in DECISIONS:
        raise ProtocolError(f"decision must be approve or block, not {document['decision']!r}")
    specific = document.get("hookSpecificOutput")
    if specific is not None:
        if event in NO_SPECIFIC_OUTPUT:
            raise ProtocolError(f"{event} takes no hookSpecificOutput")
        if specific.get("hookEventName") != event:
            raise ProtocolError(
                f"hookSpecificOutput.hookEventName is {specific.get('hookEventName')!r}, "
                f"the running event is {event!r}"
            )
        known = {"hookEventName", "additionalContext"}
        if event == "PreToolUse":
            known |= {"permissionDecision", "permissionDecisionReason"}
            decision = specific.get("permissionDecision")
            if decision is not None and decision not in PERMISSION_DECISIONS:
                raise ProtocolError(f"permissionDecision {decision!r} is not a valid decision")
            reason = specific.get("permissionDecisionReason")
            if reason is not None and not isinstance(reason, str):
                raise ProtocolError("permissionDecisionReason must be a string")
        unknown = set(specific) - known
        if unknown:
            raise ProtocolError(f"unknown hookSpecificOutput keys {sorted(unknown)}")
        if "additionalContext" in specific:
            if not isinstance(specific["additionalContext"], str):
                raise ProtocolError("additionalContext must be a string")
            if event not in ADDITIONAL_CONTEXT_EVENTS:
                raise ProtocolError(f"{event} takes no additionalContext")
    return document


def validate_harmless(event: str, stdout: bytes) -> object:
    """validate_hook_stdout, plus this toolkit's own rule: never block, never stop Claude."""
    document = validate_hook_stdout(event, stdout)
    if isinstance(document, dict):
        if document.get("decision") == "block":
            raise ProtocolError('"decision": "block" (erases the prompt or blocks compaction)')
        if document.get("continue") is False:
            raise ProtocolError('"continue": false stops Claude')
        specific = document.get("hookSpecificOutput") or {}
        if specific.get("permissionDecision") == "deny":
            raise ProtocolError('"permissionDecision": "deny" blocks a tool call on its own')
    return document


def validate_statusline_stdout(stdout: bytes) -> str | None:
    """The status line prints nothing or one line of text."""
    if not stdout:
        return None
    text = stdout.decode("utf-8")
    if not text.endswith("\n") or "\n" in text[:-1] or not text.strip():
        raise ProtocolError(f"the status line must be one line, got {text[:120]!r}")
    return text


def judged_event(entry: Entry, raw: bytes) -> str:
    """The event a run's stdout is judged for: the payload's hook_event_name when it is a
    string (the client always sends the running event there), else the registration's."""
    try:
        payload = json.loads(raw.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return entry.event
    if isinstance(payload, dict) and isinstance(payload.get("hook_event_name"), str):
        return payload["hook_event_name"]
    return entry.event


# -- the sandbox -----------------------------------------------------------------------------

SUMMARY = (
    "<analysis>\nThe user rejected Codis earlier.\n</analysis>\n\n"
    "<summary>\n1. Primary Request: design the cache layer. Chose Redis Cluster with 6 nodes "
    "(needs sharding).\n</summary>"
)


def base_transcript_rows(project: Path) -> list[dict[str, Any]]:
    """A session in the real shape: bookkeeping, a ~100 KB system-prompt row, streamed
    duplicates, a sidechain, tool calls, a compaction, then a reply at 85% of 200K."""
    write_row, write_id = tr.tool_call(
        "Write", {"file_path": str(project / "src" / "cache.py"), "content": "x = 1\n"}
    )
    todo_row, todo_id = tr.tool_call(
        "TodoWrite",
        {
            "todos": [
                {"content": "wire the cache", "status": "in_progress", "activeForm": "Wiring"},
                {"content": "write the docs", "status": "completed", "activeForm": "Writing"},
            ]
        },
    )
    return [
        tr.user("design the cache layer"),
        tr.model_attachment("claude-sonnet-4-6"),
        tr.prompt_snapshot(100_000),
        tr.api_request("claude-sonnet-4-6"),
        tr.assistant("msg_a1", tr.usage(3, 0, 90_000, 10)),
        tr.assistant("msg_a1", tr.usage(3, 0, 90_000, 900)),
        write_row,
        tr.tool_result(write_id),
        todo_row,
        tr.tool_result(todo_id),
        tr.assistant("msg_side", tr.usage(10, 0, 5_000, 10), sidechain=True),
        tr.compact_boundary(150_000, 20_000, "auto"),
        tr.compact_summary("1. Primary Request: design the cache layer. Chose Redis Cluster."),
        tr.user("continue"),
        tr.api_request("claude-sonnet-4-6"),
        tr.assistant("msg_a2", tr.usage(5, 2_000, 168_000, 100)),
        tr.assistant("msg_a2", tr.usage(5, 2_000, 168_000, 800)),
        tr.api_error(),
        *tr.bookkeeping(),
    ]


def transcript_bytes(rows: list[dict[str, Any]]) -> bytes:
    return "".join(
        json.dumps(row, separators=(",", ":"), ensure_ascii=False) + "\n" for row in rows
    ).encode("utf-8")


def snapshot(root: Path) -> dict[str, tuple[object, ...]]:
    """Every path under ``root`` (symlinks not followed) with what identifies its content."""
    found: dict[str, tuple[object, ...]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            full = os.path.join(folder, name)
            rel = os.path.relpath(full, root)
            info = os.lstat(full)
            if stat.S_ISREG(info.st_mode):
                digest = None
                if info.st_size <= 1024 * 1024 and info.st_mode & 0o444:
                    with open(full, "rb") as handle:
                        digest = hashlib.blake2b(handle.read(), digest_size=16).hexdigest()
                found[rel] = ("file", info.st_size, info.st_mtime_ns, digest)
            elif stat.S_ISLNK(info.st_mode):
                found[rel] = ("link", os.readlink(full))
            elif stat.S_ISDIR(info.st_mode):
                found[rel] = ("dir", info.st_mode & 0o7777)
            else:
                found[rel] = ("other", stat.S_IFMT(info.st_mode))
    return found


def changed_paths(before: Mapping[str, object], after: Mapping[str, object]) -> list[str]:
    return sorted(path for path in set(before) | set(after) if before.get(path) != after.get(path))


class Sandbox:
    """A home, a project with seeded working state, a transcript and awkward paths.

    The state folder is restored from ``template`` before every case (``reset``), so one
    case's stop counter or circuit breaker never changes the next.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.project = root / "project"
        self.state = self.project / STATE_DIRNAME
        self.template = root / "template-state"
        self.cache = root / "cache"
        self.transcripts = self.home / ".claude" / "projects" / project_folder_name(self.project)
        self.transcript = self.transcripts / f"{SESSION}.jsonl"
        self.special = root / "special"
        self.seeded_decisions = b""
        self.seeded_handoffs: dict[str, bytes] = {}
        self.base_transcript = b""

    # -- building

    def build(self) -> Sandbox:
        for folder in (self.home, self.project, self.cache, self.transcripts, self.special):
            folder.mkdir(parents=True, exist_ok=True)
        (self.project / ".git").mkdir()
        self.base_transcript = transcript_bytes(base_transcript_rows(self.project))
        self.transcript.write_bytes(self.base_transcript)
        self._seed(self.template)
        self._make_special_paths()
        self.reset()
        return self

    def _seed(self, state: Path) -> None:
        records = [
            make_record(
                "decided",
                "Use Redis Cluster with 6 nodes",
                session=SESSION,
                reason="needs sharding",
                alternatives=["Codis", "Sentinel"],
                keywords=["Redis Cluster"],
                ts="2026-11-30T09:00:00Z",
            ),
            make_record(
                "rejected",
                "Codis",
                session=SESSION,
                reason="unmaintained",
                ts="2026-11-30T09:01:00Z",
            ),
            make_record(
                "risk",
                "resharding under load is untested",
                session=SESSION,
                ts="2026-11-30T09:02:00Z",
            ),
            make_record(
                "decided", "采用 Redis 集群（需要分片）", session=SESSION, ts="2026-11-30T09:03:00Z"
            ),
            make_record("decided", "Postgres 16 for the ledger", session=OTHER_SESSION),
        ]
        for record in records:
            append_record(str(state), record)
        self.seeded_decisions = (state / "decisions.jsonl").read_bytes()
        (state / "current-plan.md").write_text(
            "# Plan\n\n- [ ] wire the cache\n- [x] pick a store\n"
        )
        handoffs = {
            (SESSION, 1): {"Decided": ["Use Redis Cluster with 6 nodes (needs sharding)"]},
            (OTHER_SESSION, 1): {"Decided": ["Postgres 16 for the ledger"]},
            (OTHER_SESSION, 2): {"Risks": ["ledger migration"], "Remaining": ["backfill"]},
        }
        for (session, stage), sections in handoffs.items():
            rel = f"sessions/{session}/handoffs/stage-{stage}.md"
            meta = {"session": session, "stage": str(stage), "time": "2026-11-29T10:00:00Z"}
            text = render_handoff(meta, sections).encode("utf-8")
            (state / rel).parent.mkdir(parents=True, exist_ok=True)
            (state / rel).write_bytes(text)
            self.seeded_handoffs[rel] = text

    def _make_special_paths(self) -> None:
        special = self.special
        (special / "directory.jsonl").mkdir()
        os.mkfifo(special / "fifo.jsonl")
        unreadable = special / "unreadable.jsonl"
        unreadable.write_bytes(self.base_transcript)
        unreadable.chmod(0)
        (special / "empty.jsonl").write_bytes(b"")
        (special / "loop.jsonl").symlink_to(special / "loop.jsonl")
        (special / "dangling.jsonl").symlink_to(special / "nowhere" / "x.jsonl")

    def special_paths(self) -> dict[str, str]:
        """Awkward values of transcript_path, by name."""
        return {
            "transcript": str(self.transcript),
            "missing": str(self.special / "missing.jsonl"),
            "first-prompt": str(self.special / "not-yet" / f"{SESSION}.jsonl"),
            "directory": str(self.special / "directory.jsonl"),
            "fifo": str(self.special / "fifo.jsonl"),
            "unreadable": str(self.special / "unreadable.jsonl"),
            "dev-zero": "/dev/zero",
            "dev-null": "/dev/null",
            "empty-file": str(self.special / "empty.jsonl"),
            "empty-string": "",
            "relative": "transcript.jsonl",
            "nul-byte": str(self.special / "bad\x00.jsonl"),
            "too-long": "/" + "a" * 5000,
            "symlink-loop": str(self.special / "loop.jsonl"),
            "dangling-symlink": str(self.special / "dangling.jsonl"),
        }

    def reset(self) -> None:
        if self.state.is_symlink() or self.state.is_file():
            self.state.unlink()
        elif self.state.exists():
            _make_writable(self.state)
            shutil.rmtree(self.state)
        shutil.copytree(self.template, self.state, symlinks=True)

    def keep_state_as_template(self) -> None:
        """After seeding through a hook run: what the state folder holds is the template."""
        shutil.rmtree(self.template)
        shutil.copytree(self.state, self.template, symlinks=True)

    def write_transcript(self, data: bytes) -> None:
        self.transcript.write_bytes(data)

    # -- running

    def env(self) -> dict[str, str]:
        """What the client sets for a hook, pointed at the sandbox."""
        return {
            "HOME": str(self.home),
            "CLAUDE_PROJECT_DIR": str(self.project),
            "CLAUDE_CODE_SESSION_ID": SESSION,
            "CLAUDECODE": "1",
            "CTX_CACHE_DIR": str(self.cache),
            "XDG_CACHE_HOME": str(self.cache),
            # Every Stop acts, so every Stop case exercises the extraction.
            "COMPACTION_EXTRACT_INTERVAL": "1",
        }

    def payload(self, entry: Entry, **changes: object) -> dict[str, Any]:
        """A valid stdin for ``entry``, with ``changes`` applied."""
        if not entry.is_hook:
            data: dict[str, Any] = {
                "session_id": SESSION,
                "transcript_path": str(self.transcript),
                "cwd": str(self.project),
                "model": {"id": "claude-sonnet-4-6", "display_name": "Sonnet 4.6"},
                "workspace": {"current_dir": str(self.project), "project_dir": str(self.project)},
                "context_window": {
                    "context_window_size": 200_000,
                    "used_percentage": None,
                    "current_usage": None,
                },
            }
        else:
            data = {
                "session_id": SESSION,
                "transcript_path": str(self.transcript),
                "cwd": str(self.project),
                "hook_event_name": entry.event,
                "permission_mode": "default",
            }
            extra: dict[str, dict[str, Any]] = {
                "UserPromptSubmit": {"prompt": "next step"},
                "Stop": {
                    "stop_hook_active": False,
                    "last_assistant_message": "done",
                    "background_tasks": [],
                    "session_crons": [],
                },
                "PreCompact": {"trigger": "auto", "custom_instructions": None},
                "PostCompact": {"trigger": "auto", "compact_summary": SUMMARY},
                "SessionStart": {"source": entry.source or "startup", "model": "claude-sonnet-4-6"},
                # A call the seeded rejection of Codis rules out: the guard has work to do.
                "PreToolUse": {
                    "tool_name": "Bash",
                    "tool_input": {"command": "pip install codis"},
                    "tool_use_id": "toolu_01guard",
                },
            }
            data.update(extra.get(entry.event, {}))
        data.update(changes)
        return data

    # -- checking

    def check_seeded(self) -> None:
        """Nothing already in decisions.jsonl or in a handoff changed."""
        decisions = (self.state / "decisions.jsonl").read_bytes()
        assert decisions.startswith(self.seeded_decisions), "decisions.jsonl was rewritten"
        for rel, content in self.seeded_handoffs.items():
            assert (self.state / rel).read_bytes() == content, f"{rel} changed"

    def outside_state(self, paths: list[str]) -> list[str]:
        """Changed paths outside the state folder, but for the session registry's entries
        (``<cache>/sessions/<id>``, where hooks record their project by design; never a
        temporary file left behind)."""
        state = os.path.relpath(self.state, self.root)
        registry = os.path.relpath(self.cache / "sessions", self.root)
        return [
            p
            for p in paths
            if p != state
            and not p.startswith(state + os.sep)
            and p != registry
            and not (os.path.dirname(p) == registry and not p.endswith(".tmp"))
        ]


def seeded_sandbox(tmp_path: Path, monkeypatch: Any) -> Sandbox:
    """A seeded sandbox, its environment set and the project as the current directory.

    The seed includes a compaction audit waiting for injection (PostCompact found the
    rejection of Codis missing from the summary), so ctx-budget and SessionStart "compact"
    have a claim to make in every case.
    """
    box = Sandbox(tmp_path / "box").build()
    for name, value in box.env().items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(box.project)
    post_compact = entry_for("ctx-audit", "PostCompact")
    run = run_in_process(post_compact, json.dumps(box.payload(post_compact)).encode())
    assert (run.status, run.stderr) == (0, b""), run.stderr
    assert (box.state / "sessions" / SESSION / AUDIT_PENDING_MARK).exists()
    box.keep_state_as_template()
    box.reset()
    return box


SPECIAL_PATH_NAMES = tuple(Sandbox(Path("/nowhere")).special_paths())


def _make_writable(root: Path) -> None:
    for folder, _, files in os.walk(root):
        os.chmod(folder, 0o755)
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                os.chmod(path, 0o644)


# -- running an entry point ------------------------------------------------------------------


class Run(NamedTuple):
    status: object
    stdout: bytes
    stderr: bytes
    hung: bool = False


class _Hung(BaseException):
    pass


def run_in_process(entry: Entry, raw: bytes, *, hang_seconds: float = HANG_SECONDS) -> Run:
    """Call the entry point's main() as its console script does, stdin/stdout/stderr swapped.

    A hang is cut off by SIGALRM and reported (the hooks catch every exception, so a flag
    records it). Anything escaping main() is written to stderr as the console would.
    """
    main: Callable[..., object] = getattr(importlib.import_module(entry.module), entry.function)
    out, err = io.BytesIO(), io.BytesIO()
    hung: list[bool] = []

    def on_alarm(signum: int, frame: object) -> None:
        hung.append(True)
        raise _Hung

    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    saved = sys.stdin, sys.stdout, sys.stderr
    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, hang_seconds)
    sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    try:
        status: object = main([])
    except BaseException as exc:  # noqa: BLE001 - the console would print a traceback
        status = f"main() raised {type(exc).__name__}"
        stderr.write("".join(traceback.format_exception(exc)))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin, sys.stdout, sys.stderr = saved
        for stream in (stdout, stderr):
            try:
                stream.flush()
            except (ValueError, UnicodeError):
                pass
    result = Run(status, out.getvalue(), err.getvalue(), bool(hung))
    for stream in (stdin, stdout, stderr):
        try:
            stream.detach()  # else closing the wrapper closes the buffer too
        except ValueError:
            pass
    return result


# Variables the client does not set that change what runs (this checkout instead of the
# installed package) or how (unbuffered stdout).
_UNSET_PYTHON_VARS = ("env", "-u", "PYTHONPATH", "-u", "PYTHONUNBUFFERED")


def console_command(entry: Entry, prelude: str = "") -> list[str]:
    """What the client runs for ``entry``: the command line ./install registered in
    settings.json (tests/helpers/installed.py, the Python running the tests), through ``sh -c``,
    without PYTHONPATH (the installed package, not this checkout).

    ``prelude`` (Python code) runs first in the virtualenv's python, which then execs that
    command line: what it sets for the process (resource limits, a dropped capability
    bounding set) carries over to the hook.
    """
    install = installed.get(installed.primary_label())
    line = install.command_for(entry.command, entry.event if entry.is_hook else None)
    # "exec": the shell becomes the hook (dash would otherwise stay its parent, and a test
    # that kills the process would kill only the shell).
    script = f"exec {line}"
    if not prelude:
        return [*_UNSET_PYTHON_VARS, "sh", "-c", script]
    code = f"{prelude}\nimport os\nos.execv('/bin/sh', ['sh', '-c', {script!r}])"
    return [*_UNSET_PYTHON_VARS, install.python, "-c", code]


def run_console(
    entry: Entry,
    raw: bytes,
    sandbox: Sandbox,
    *,
    prelude: str = "",
    extra_env: Mapping[str, str] | None = None,
    timeout: float = 60.0,
) -> Run:
    """One whole process, as the client starts it (cwd = the project, stdin piped)."""
    env = subprocess_env(**sandbox.env())
    env.update(extra_env or {})
    try:
        done = subprocess.run(
            console_command(entry, prelude),
            input=raw,
            capture_output=True,
            cwd=sandbox.project,
            env=env,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        return Run("timeout", exc.stdout or b"", exc.stderr or b"", True)
    return Run(done.returncode, done.stdout, done.stderr)


# -- the invariants --------------------------------------------------------------------------


def check_invariants(
    sandbox: Sandbox,
    entry: Entry,
    raw: bytes,
    run: Run,
    before: Mapping[str, object],
    *,
    may_change_state: bool = True,
) -> object:
    """Everything that must hold after any run; returns the checked stdout document."""
    assert not run.hung, f"{entry.command} did not finish within {HANG_SECONDS:g} s"
    assert run.status == 0, f"{entry.command} exited {run.status!r}: {run.stderr[-2000:]!r}"
    assert b"Traceback" not in run.stderr, run.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in run.stdout
    if raw.strip():
        assert run.stderr.count(b"\n") <= 1 and (not run.stderr or run.stderr.endswith(b"\n")), (
            f"stderr must be at most one line: {run.stderr[:2000]!r}"
        )
    else:  # nothing on stdin: tried by hand, the answer says how to use it (and is no log)
        assert run.stderr.startswith(f"{entry.command}: no hook input on stdin".encode()), (
            run.stderr[:2000]
        )
        assert run.stdout == b""
    if entry.is_hook:
        document = validate_harmless(judged_event(entry, raw), run.stdout)
    else:
        document = validate_statusline_stdout(run.stdout)
    changed = changed_paths(before, snapshot(sandbox.root))
    if not raw.strip():
        assert not [path for path in changed if "hooks.log" in str(path)], changed
    outside = sandbox.outside_state(changed)
    assert not outside, f"{entry.command} changed files outside the state folder: {outside}"
    if not may_change_state:
        assert not changed, f"{entry.command} changed {changed}"
    if sandbox.state.is_dir() and not sandbox.state.is_symlink():
        sandbox.check_seeded()
        log = sandbox.state / "logs" / "hooks.log"
        if log.exists():
            assert b"Traceback" not in log.read_bytes()
    return document


def check_state_files_whole(state: Path, *, temp_files_allowed: bool = False) -> None:
    """After any fault: every JSON file parses, every handoff parses, decisions.jsonl holds
    whole records only, and (unless a process was killed mid-write) no temporary litter."""
    for folder, _, files in os.walk(state):
        for name in files:
            path = Path(folder, name)
            if name.endswith(".tmp"):
                assert temp_files_allowed, f"temporary file left behind: {path}"
                continue
            if name.endswith(".json"):
                json.loads(path.read_bytes())
            if name.startswith("stage-") and name.endswith(".md"):
                parse_handoff(path.read_text(encoding="utf-8"))
    records, problems = read_records(str(state))
    assert problems == [] and len(records) >= 5, problems
