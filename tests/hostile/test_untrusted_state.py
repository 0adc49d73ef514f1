"""The state folder as untrusted input (issue 11, items 2 to 4): links, FIFOs, damaged and
huge files inside it. Every case runs the entry points as whole processes, with a time
limit (a regression fails, it does not hang the run) and a memory limit (a read without a
bound fails with MemoryError instead of waking the OOM killer)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from context_memory.audit import check as audit_module
from context_memory.memory.decisions import append_record, make_record
from helpers.paths import subprocess_env
from hostile.harness import (
    SESSION,
    Run,
    Sandbox,
    check_invariants,
    entry_for,
    run_console,
    snapshot,
)

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

MEMORY_LIMIT = f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({1 << 30}, {1 << 30}))\n"
# Far above what any case takes once fixed (each is well under 2 s); only a hang or a
# runaway read reaches it.
LIMIT_SECONDS = 20.0
MAX_INJECTION_CHARS = 4000  # audit.MAX_INJECTION_CHARS, the cap the README states

PRE_COMPACT = entry_for("ctx-extract", "PreCompact")
STOP = entry_for("ctx-extract", "Stop")
POST_COMPACT = entry_for("ctx-audit", "PostCompact")
BUDGET = entry_for("ctx-budget", "UserPromptSubmit")
RESTORE = entry_for("ctx-restore", "SessionStart")


def hook(sandbox: Sandbox, entry, **changes: object) -> Run:
    raw = json.dumps(sandbox.payload(entry, **changes)).encode()
    return run_console(entry, raw, sandbox, prelude=MEMORY_LIMIT, timeout=LIMIT_SECONDS)


def command(
    sandbox: Sandbox, module: str, args: list[str], stdin: bytes = b"", prelude: str = ""
) -> subprocess.CompletedProcess[bytes]:
    code = f"{MEMORY_LIMIT}{prelude}\nimport sys\nfrom {module} import main\n"
    code += "sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        input=stdin,
        capture_output=True,
        cwd=sandbox.project,
        env=subprocess_env(**sandbox.env()),
        timeout=LIMIT_SECONDS,
    )


def merge(sandbox: Sandbox, *args: str) -> subprocess.CompletedProcess[bytes]:
    return command(sandbox, "context_memory.commands.merge", ["--force", *args])


def handoff_path(sandbox: Sandbox, session: str = SESSION, stage: int = 1) -> Path:
    return sandbox.state / "sessions" / session / "handoffs" / f"stage-{stage}.md"


def replace_with_link(path: Path, target: str | Path) -> None:
    path.unlink(missing_ok=True)
    path.symlink_to(target)


def replace_with_fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def assert_ok(run: Run) -> None:
    assert not run.hung, f"did not finish within {LIMIT_SECONDS:g} s"
    assert run.status == 0 and b"Traceback" not in run.stderr, run.stderr[-2000:]


# -- item 2: nothing followed out of the state folder, nothing that blocks or exhausts --------


@pytest.mark.parametrize("name", ["decisions.jsonl", "current-plan.md", "handoff"])
def test_links_to_dev_zero_are_not_read(sandbox: Sandbox, name: str) -> None:
    path = handoff_path(sandbox) if name == "handoff" else sandbox.state / name
    replace_with_link(path, "/dev/zero")
    for entry in (PRE_COMPACT, POST_COMPACT, BUDGET, RESTORE):
        run = hook(sandbox, entry)
        assert_ok(run)
    done = merge(sandbox)
    assert done.returncode == 0, done.stderr
    if name == "handoff":
        assert f"skipped {path}: a symbolic link: not followed".encode() in done.stderr
    if name == "current-plan.md":
        shown = command(sandbox, "context_memory.commands.plan", ["--show"])
        assert (shown.returncode, shown.stdout) == (1, b"")
        assert shown.stderr.startswith(b"Error: ") and b"a symbolic link" in shown.stderr
    if name == "decisions.jsonl":
        listed = command(sandbox, "context_memory.commands.decide", ["--list"])
        assert listed.returncode == 0 and listed.stdout == b"", listed.stderr
        assert listed.stderr.startswith(f"warning: {path}: a symbolic link: not followed".encode())


@pytest.mark.parametrize("name", ["decisions.jsonl", "handoff", "plan"])
def test_fifos_block_nothing(sandbox: Sandbox, name: str) -> None:
    path = {
        "decisions.jsonl": sandbox.state / "decisions.jsonl",
        "handoff": handoff_path(sandbox),
        "plan": sandbox.state / "current-plan.md",
    }[name]
    replace_with_fifo(path)
    for entry in (POST_COMPACT, PRE_COMPACT, STOP, RESTORE):
        assert_ok(hook(sandbox, entry))
    if name == "plan":
        shown = command(sandbox, "context_memory.commands.plan", ["--show"])
        assert shown.returncode == 1 and b"a FIFO: not followed" in shown.stderr
    done = command(sandbox, "context_memory.commands.merge", ["--quiet"])
    assert done.returncode == 0, done.stderr
    done = merge(sandbox)
    assert done.returncode == 0, done.stderr
    if name == "handoff":
        assert f"skipped {path}: a FIFO: not followed".encode() in done.stderr


def test_ctx_decide_never_appends_through_a_link(sandbox: Sandbox, tmp_path: Path) -> None:
    rc = tmp_path / "bashrc"
    rc.write_text("export PATH=/usr/bin\n")
    log = sandbox.state / "decisions.jsonl"
    replace_with_link(log, rc)
    done = command(sandbox, "context_memory.commands.decide", ["run $(touch /tmp/pwned)"])
    assert done.returncode == 1
    assert (
        done.stderr
        == (
            f"Error: {log}: a symbolic link: not followed (the state folder holds regular files "
            "and folders only; replace it with a real one or remove it); nothing recorded\n"
        ).encode()
    )
    assert rc.read_text() == "export PATH=/usr/bin\n"


# What filelock 3.12.0 (allowed by filelock>=3.12) does to take a lock: open the path with
# O_TRUNC, following a link. Installed as filelock.FileLock in the process under test, so
# the case holds whichever filelock release is installed.
FILELOCK_3_12_0 = """
import fcntl, os, time, filelock
class _FileLock3120:
    def __init__(self, lock_file, timeout=-1):
        self.lock_file, self.timeout, self._fd = os.fspath(lock_file), timeout, None
    @property
    def is_locked(self):
        return self._fd is not None
    def acquire(self, timeout=None, poll_interval=0.05):
        timeout = self.timeout if timeout is None else timeout
        start = time.monotonic()
        fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._fd = fd
                return self
            except OSError:
                if 0 <= timeout <= time.monotonic() - start:
                    os.close(fd)
                    raise filelock.Timeout(self.lock_file)
                time.sleep(poll_interval)
    def release(self, force=False):
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
    def __enter__(self):
        return self.acquire()
    def __exit__(self, *exc):
        self.release()
filelock.FileLock = _FileLock3120
"""


def test_a_linked_lock_file_is_never_truncated(sandbox: Sandbox, tmp_path: Path) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    for lock in (
        sandbox.state / "decisions.jsonl.lock",
        sandbox.state / "merge.lock",
        sandbox.state / "sessions" / SESSION / ".handoffs.lock",
    ):
        lock.unlink(missing_ok=True)
        lock.symlink_to(precious)
    old_filelock = {"prelude": FILELOCK_3_12_0}
    decided = command(sandbox, "context_memory.commands.decide", ["Use Redis"], **old_filelock)
    assert decided.returncode == 1 and b"a symbolic link: not followed" in decided.stderr
    merged = command(sandbox, "context_memory.commands.merge", ["--force"], **old_filelock)
    assert merged.returncode == 1 and b"a symbolic link: not followed" in merged.stderr
    drafted = command(sandbox, "context_memory.commands.handoff", ["--draft"], **old_filelock)
    assert drafted.returncode == 1 and b"a symbolic link: not followed" in drafted.stderr
    raw = json.dumps(sandbox.payload(PRE_COMPACT)).encode()
    run = run_console(PRE_COMPACT, raw, sandbox, prelude=FILELOCK_3_12_0, timeout=LIMIT_SECONDS)
    assert_ok(run)
    assert precious.read_text() == "keep me\n"


def test_a_linked_sessions_folder_is_not_written_through(sandbox: Sandbox, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (sandbox.state / "sessions").rename(outside)
    (sandbox.state / "sessions").symlink_to(outside)
    before = snapshot(outside)
    for entry in (BUDGET, STOP, PRE_COMPACT, POST_COMPACT, RESTORE):
        assert_ok(hook(sandbox, entry))
    for module, args in (
        ("context_memory.commands.handoff", ["--draft"]),
        ("context_memory.commands.merge", ["--force"]),
    ):
        command(sandbox, module, args)
    assert snapshot(outside) == before


# -- item 3: damaged state is skipped and reported, never fatal, never deleted ----------------


def test_deeply_nested_line_and_a_bom(sandbox: Sandbox) -> None:
    log = sandbox.state / "decisions.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + log.read_bytes() + b"[" * 100_000 + b"\n")
    listed = command(sandbox, "context_memory.commands.decide", ["--list", "--json"])
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)) == 5  # the first record survives its BOM
    assert listed.stderr == (
        f"warning: {log}:6: longer than 65536 bytes; skipped (line skipped)\n".encode()
    )
    done = command(sandbox, "context_memory.commands.handoff", ["--draft"])
    assert done.returncode == 0, done.stderr
    for entry in (PRE_COMPACT, POST_COMPACT):
        run = hook(sandbox, entry)
        assert_ok(run)
        assert run.stderr == b""


def test_stage_numbers_are_bounded(sandbox: Sandbox) -> None:
    text = handoff_path(sandbox).read_bytes()
    done = command(sandbox, "context_memory.commands.handoff", ["--stage", "100000"], text)
    assert done.returncode == 1
    assert (
        done.stderr
        == (
            f"Error: stage 100000 is too far ahead: the next free stage of session {SESSION} is 2 "
            "(at most 10 past it may be given); nothing written\n"
        ).encode()
    )
    done = command(sandbox, "context_memory.commands.handoff", ["--stage", "100001"], text)
    assert done.returncode == 2
    done = command(sandbox, "context_memory.commands.handoff", ["--stage", "5"], text)
    assert done.returncode == 0, done.stderr
    done = command(sandbox, "context_memory.commands.handoff", [], text)
    assert done.returncode == 0 and done.stdout.endswith(b"stage-6.md\n"), done.stderr
    # A last stage made by hand (or by an older version) at the end of the range: the
    # PreCompact extraction still writes its extract and steers the summary.
    handoff_path(sandbox, stage=100_000).write_bytes(text)
    append_record(str(sandbox.state), make_record("rejected", "Memcached", session=SESSION))
    run = hook(sandbox, PRE_COMPACT)
    assert_ok(run)
    assert run.stderr == b""
    assert b"- Rejected: Memcached" in run.stdout
    extract = json.loads(
        (sandbox.state / "sessions" / SESSION / "compaction-extract.json").read_text()
    )
    assert extract["handoff"] is None and extract["rejections"][-1]["decision"] == "Memcached"
    log = (sandbox.state / "logs" / "hooks.log").read_text()
    assert f"no draft handoff: session {SESSION} has used every stage number up to 100000" in log


def test_damaged_merge_state_and_stray_files(sandbox: Sandbox) -> None:
    assert merge(sandbox).returncode == 0
    state_json = sandbox.state / "merged" / "state.json"
    state_json.resolve().write_bytes(b"[" * 100_000)
    (sandbox.state / "sessions" / "desktop.ini").write_text("[.ShellClassInfo]\n")
    (sandbox.state / "sessions" / "README").write_text("session folders\n")
    env_hours = {"CTX_MERGE_MIN_HOURS": "0", "CTX_MERGE_MIN_SESSIONS": "0"}
    code = (
        "import sys\nfrom context_memory.commands.merge import main\nsys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        cwd=sandbox.project,
        env=subprocess_env(**sandbox.env(), **env_hours),
        timeout=LIMIT_SECONDS,
    )
    assert done.returncode == 0, done.stderr
    assert b"ctx-merge: merged 3 handoffs" in done.stdout, done.stdout
    sessions = sandbox.state / "sessions"
    assert f"skipped {sessions / 'README'}: not a session folder; skipped".encode() in done.stderr
    assert f"{state_json}: unreadable (nested too deeply)".encode() in done.stderr
    assert (sessions / "desktop.ini").read_text() == "[.ShellClassInfo]\n"


def test_a_hand_made_merged_folder_is_never_deleted(sandbox: Sandbox) -> None:
    notes = sandbox.state / "merged"
    notes.mkdir()
    (notes / "my-notes.md").write_text("why we chose Redis\n")
    first = merge(sandbox)
    assert first.returncode == 0, first.stderr
    assert b"moved to merged.moved-aside-" in first.stderr
    for _ in range(3):
        assert merge(sandbox).returncode == 0
    kept = [p for p in sandbox.state.iterdir() if p.name.startswith("merged.moved-aside-")]
    assert [(p / "my-notes.md").read_text() for p in kept] == ["why we chose Redis\n"]


def test_leftover_temporary_files_are_swept(sandbox: Sandbox) -> None:
    old = time.time() - 7200
    stale = [
        sandbox.state / ".current-plan.md.k2j4h5g6.tmp",  # a killed ctx-plan (tempfile)
        sandbox.state / ".current-plan.md.0123456789ab.tmp",
        sandbox.state / "sessions" / SESSION / ".stop-count.4242.tmp",
    ]
    fresh = sandbox.state / ".current-plan.md.aaaaaaaaaaaa.tmp"  # a writer still at work
    mine = sandbox.state / "notes.tmp"  # not the toolkit's naming
    for path in (*stale, fresh, mine):
        path.write_bytes(b"x" * 1024)
    for path in (*stale, mine):
        os.utime(path, (old, old))
    assert merge(sandbox).returncode == 0
    assert [p.exists() for p in stale] == [False, False, False]
    assert fresh.exists() and mine.exists()
    done = command(sandbox, "context_memory.commands.plan", [], b"# Plan\n")
    assert done.returncode == 0, done.stderr


# -- item 4: bounded time and output ----------------------------------------------------------


def test_one_huge_record_costs_no_hook_its_timeout(sandbox: Sandbox) -> None:
    log = sandbox.state / "decisions.jsonl"
    huge = make_record("decided", "x", session=SESSION)
    huge["reason"] = "y" * (50 * 1024 * 1024)
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(huge) + "\n")
    append_record(str(sandbox.state), make_record("rejected", "Memcached", session=SESSION))
    for entry in (POST_COMPACT, PRE_COMPACT):
        started = time.monotonic()
        run = hook(sandbox, entry)
        assert_ok(run)
        assert time.monotonic() - started < 10, entry.id
    extract = sandbox.state / "sessions" / SESSION / "compaction-extract.json"
    assert extract.stat().st_size < 64 * 1024
    assert "Memcached" in extract.read_text()
    for path in (sandbox.state / "sessions" / SESSION / "handoffs").iterdir():
        assert path.stat().st_size < 64 * 1024


def test_the_stated_cap_is_the_one_applied() -> None:
    assert audit_module.MAX_INJECTION_CHARS == MAX_INJECTION_CHARS


def test_the_audit_injection_is_capped_with_a_pointer() -> None:
    lost = [
        {
            "status": "lost",
            "kind": "rejected",
            "decision": f"option {n} " + "z" * 400,
            "reason": "r" * 600,
        }
        for n in range(671)
    ]
    record = ".working-state/sessions/s/compact-audit.json"
    text = audit_module.injection_text(
        lost, "Full record: .working-state/decisions.jsonl.", "en", record
    )
    assert text is not None and len(text) <= MAX_INJECTION_CHARS
    shown = text.count("\n- Rejected: ")
    assert 1 <= shown < 671
    assert f"and {671 - shown} more lost decisions" in text and record in text
    assert text.endswith("Full record: .working-state/decisions.jsonl.")


def test_the_audit_injection_reaches_the_model_capped(sandbox: Sandbox) -> None:
    for n in range(60):
        append_record(
            str(sandbox.state),
            make_record("rejected", f"option {n}", session=SESSION, reason="q" * 3000),
        )
    env = {"CTX_AUDIT_LAST": "100"}
    raw = json.dumps(sandbox.payload(POST_COMPACT)).encode()
    before = snapshot(sandbox.root)
    run = run_console(POST_COMPACT, raw, sandbox, extra_env=env, timeout=LIMIT_SECONDS)
    check_invariants(sandbox, POST_COMPACT, raw, run, before)
    raw = json.dumps(sandbox.payload(BUDGET)).encode()
    run = run_console(BUDGET, raw, sandbox, extra_env=env, timeout=LIMIT_SECONDS)
    assert_ok(run)
    context = json.loads(run.stdout)["hookSpecificOutput"]["additionalContext"]
    audit = context[context.index("[COMPACT AUDIT]") :]
    # The budget's own text follows the audit after a blank line (here the turn-start note:
    # the sandbox transcript is above the threshold); it has its own cap.
    audit = audit.split("\n\n[CONTEXT BUDGET]", 1)[0]
    assert len(audit) <= MAX_INJECTION_CHARS
    assert "more lost decisions, not shown" in audit
    assert f".working-state/sessions/{SESSION}/compact-audit.json" in audit
