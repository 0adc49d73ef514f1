"""Faults around the hooks: a read-only state folder, a full disk (RLIMIT_FSIZE), a state
folder that is a symlink to elsewhere. Each entry point runs as a whole process; the
commands people and the agent run (ctx-decide, ctx-handoff) are checked too."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from context_memory.core.decisions_log import read_records
from helpers.paths import subprocess_env
from hostile.harness import (
    ENTRY_POINTS,
    SESSION,
    Entry,
    Run,
    Sandbox,
    check_invariants,
    check_state_files_whole,
    run_console,
    snapshot,
)

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

# Root ignores file modes (CAP_DAC_OVERRIDE): drop those capabilities first, so a
# read-only folder is read-only for the hook too. Any other user needs nothing. Dropped
# from the bounding set as well, so they stay dropped across the exec of the installed
# command (root regains every capability of the bounding set at execve).
DROP_DAC_OVERRIDE = """
import ctypes, os
if os.geteuid() == 0:
    _libc = ctypes.CDLL(None, use_errno=True)
    for _cap in (1, 2):  # PR_CAPBSET_DROP
        if _libc.prctl(24, _cap, 0, 0, 0) != 0:
            raise SystemExit("prctl(PR_CAPBSET_DROP) failed: errno %d" % ctypes.get_errno())
    class _Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]
    class _Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]
    _libc = ctypes.CDLL(None, use_errno=True)
    _header, _data = _Header(0x20080522, 0), (_Data * 2)()
    if _libc.capget(ctypes.byref(_header), _data) != 0:
        raise SystemExit("capget failed: errno %d" % ctypes.get_errno())
    _keep = ~((1 << 1) | (1 << 2)) & 0xFFFFFFFF  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
    _data[0].effective &= _keep
    _data[0].permitted &= _keep
    if _libc.capset(ctypes.byref(_header), _data) != 0:
        raise SystemExit("capset failed: errno %d" % ctypes.get_errno())
"""


def file_size_limit(limit: int) -> str:
    return f"import resource\nresource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"


def make_read_only(root: Path) -> None:
    for folder, _, files in os.walk(root):
        for name in files:
            os.chmod(os.path.join(folder, name), 0o444)
        os.chmod(folder, 0o555)


def run_cli(module: str, args: list[str], sandbox: Sandbox, prelude: str, stdin: bytes = b""):
    code = f"{prelude}\nimport sys\nfrom {module} import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        input=stdin,
        capture_output=True,
        cwd=sandbox.project,
        env=subprocess_env(**sandbox.env()),
        timeout=60,
    )


def budget_text(run: Run) -> str:
    return json.loads(run.stdout)["hookSpecificOutput"]["additionalContext"]


# -- a read-only state folder ----------------------------------------------------------------


def test_dropping_the_override_makes_modes_count(tmp_path: Path) -> None:
    """The read-only tests mean something: with the prelude, even root cannot write there."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    code = DROP_DAC_OVERRIDE + f"\nopen({str(folder / 'x')!r}, 'w')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=30)
    folder.chmod(0o755)
    assert done.returncode == 1 and b"PermissionError" in done.stderr, done.stderr


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
def test_read_only_state_folder(entry: Entry, sandbox: Sandbox) -> None:
    make_read_only(sandbox.state)
    raw = json.dumps(sandbox.payload(entry)).encode()
    before = snapshot(sandbox.root)
    run = run_console(entry, raw, sandbox, prelude=DROP_DAC_OVERRIDE)
    check_invariants(sandbox, entry, raw, run, before, may_change_state=False)
    # What only reads still works: the instruction, the pointer, the status line.
    if entry.command == "ctx-budget":
        assert "[CONTEXT BUDGET] ~171K/200K (85.4%)" in budget_text(run)
    if entry.command == "ctx-restore":
        assert b"[WORKING STATE]" in run.stdout
    if entry.command == "ctx-statusline":
        assert b"171K/200K" in run.stdout


def test_read_only_state_folder_ctx_decide(sandbox: Sandbox) -> None:
    make_read_only(sandbox.state)
    before = snapshot(sandbox.root)
    done = run_cli("context_memory.commands.decide", ["Use Redis"], sandbox, DROP_DAC_OVERRIDE)
    assert done.returncode == 1, done.stderr
    assert done.stdout == b""
    assert done.stderr.startswith(b"Error: ") and done.stderr.count(b"\n") == 1, done.stderr
    assert b"nothing recorded" in done.stderr and b"Permission denied" in done.stderr
    assert snapshot(sandbox.root) == before


# -- a full disk -----------------------------------------------------------------------------


@pytest.mark.parametrize("limit", [0, 100, 4096])
@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
def test_full_disk(entry: Entry, sandbox: Sandbox, limit: int) -> None:
    """RLIMIT_FSIZE: writes past ``limit`` bytes fail (EFBIG), as on a full disk."""
    raw = json.dumps(sandbox.payload(entry)).encode()
    before = snapshot(sandbox.root)
    run = run_console(entry, raw, sandbox, prelude=file_size_limit(limit))
    check_invariants(sandbox, entry, raw, run, before)
    check_state_files_whole(sandbox.state)
    if entry.command == "ctx-budget":
        assert "[CONTEXT BUDGET] ~171K/200K (85.4%)" in budget_text(run)


def test_full_disk_ctx_decide_leaves_no_half_record(sandbox: Sandbox) -> None:
    """The limit falls inside the new record: the part written is cut off again."""
    log = sandbox.state / "decisions.jsonl"
    old = log.read_bytes()
    prelude = file_size_limit(len(old) + 10)
    done = run_cli("context_memory.commands.decide", ["Use Redis Cluster"], sandbox, prelude)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(b"Error: ") and done.stderr.count(b"\n") == 1, done.stderr
    assert b"File too large; nothing recorded" in done.stderr
    assert log.read_bytes() == old
    # With room again, the next record lands whole after the old ones.
    done = run_cli("context_memory.commands.decide", ["Use Redis Cluster"], sandbox, "")
    assert done.returncode == 0, done.stderr
    records, problems = read_records(str(sandbox.state))
    assert problems == [] and records[-1]["decision"] == "Use Redis Cluster"
    assert log.read_bytes().startswith(old)


def test_full_disk_ctx_handoff_writes_nothing(sandbox: Sandbox) -> None:
    handoff = (
        b"## Decided\n- Use Redis Cluster\n## Rejected\n- none\n## Risks\n- none\n"
        b"## Files Modified\n- none\n## Remaining\n- none\n"
    )
    before = snapshot(sandbox.root)
    done = run_cli(
        "context_memory.commands.handoff",
        ["--session", SESSION],
        sandbox,
        file_size_limit(50),
        stdin=handoff,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(b"Error: ") and b"nothing written" in done.stderr
    assert done.stderr.count(b"\n") == 1, done.stderr
    assert not (sandbox.state / "sessions" / SESSION / "handoffs" / "stage-2.md").exists()
    check_state_files_whole(sandbox.state)
    changed = {
        path
        for path in set(before) | set(snapshot(sandbox.root))
        if before.get(path) != snapshot(sandbox.root).get(path)
    }
    assert all(".lock" in path or path.endswith("handoffs") for path in changed), changed


# -- a state folder that is a symlink --------------------------------------------------------


def link_state_elsewhere(sandbox: Sandbox) -> Path:
    elsewhere = sandbox.root / "elsewhere"
    shutil.move(sandbox.state, elsewhere)
    sandbox.state.symlink_to(elsewhere, target_is_directory=True)
    return elsewhere


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.id)
def test_symlinked_state_folder(entry: Entry, sandbox: Sandbox) -> None:
    elsewhere = link_state_elsewhere(sandbox)
    raw = json.dumps(sandbox.payload(entry)).encode()
    before = snapshot(sandbox.root)
    run = run_console(entry, raw, sandbox)
    # Nothing changes anywhere: not through the link, not beside it.
    check_invariants(sandbox, entry, raw, run, before, may_change_state=False)
    if entry.is_hook:
        assert run.stdout == b""
        assert run.stderr.startswith(f"{entry.command}: UnsafeStateDirError: ".encode())
        assert f"Set CTX_STATE_DIR={elsewhere} to keep".encode() in run.stderr
    else:
        assert b"171K/200K" in run.stdout  # the status line only reads


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("context_memory.commands.decide", ["Use Redis"]),
        ("context_memory.commands.decide", ["--list"]),
        ("context_memory.commands.handoff", ["--draft"]),
        ("context_memory.commands.merge", ["--force"]),
    ],
)
def test_symlinked_state_folder_commands(sandbox: Sandbox, module: str, args: list[str]):
    elsewhere = link_state_elsewhere(sandbox)
    before = snapshot(sandbox.root)
    done = run_cli(module, args, sandbox, "")
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(b"Error: ") and done.stderr.count(b"\n") == 1, done.stderr
    assert b"is a symbolic link" in done.stderr and str(elsewhere).encode() in done.stderr
    assert snapshot(sandbox.root) == before


def test_ctx_state_dir_may_point_anywhere(sandbox: Sandbox) -> None:
    """The sanctioned way to keep the state elsewhere still writes there."""
    elsewhere = link_state_elsewhere(sandbox)
    sandbox.state.unlink()
    env_prelude = f"import os\nos.environ['CTX_STATE_DIR'] = {str(elsewhere)!r}\n"
    done = run_cli("context_memory.commands.decide", ["Use Redis"], sandbox, env_prelude)
    assert done.returncode == 0, done.stderr
    records, _ = read_records(str(elsewhere))
    assert records[-1]["decision"] == "Use Redis"
