"""The session-wide check that the test suite leaves the user's real cache and ~/.claude as
it found them (tests/conftest.py runs it around the whole session).

Tests set CTX_CACHE_DIR (conftest._clean_env) and, where a command writes into ~/.claude,
a throwaway HOME. A test that drops those overrides half-way (``monkeypatch.undo()``) sends
the next command to the real folders: a session registry entry in the user's cache that
points into pytest's temporary folder, which a later ``ctx-capture`` in a shell with that
session id followed. The guard lists the real folders (names, types, sizes, times, link
targets: no file is read) at the start and compares at the end: ``pytest_sessionstart``
and ``pytest_sessionfinish`` below are pytest's hooks (tests/conftest.py imports them; a
run with ``-p helpers.home_guard`` loads them alone, as tests/repo/test_home_guard.py does).

Inside a Claude Code session (the developer's own, CLAUDECODE=1) the client writes its
transcripts and bookkeeping under ~/.claude while the tests run; those paths are the
client's, not ours, and are left out (CLIENT_OWN), as are its credentials (never looked at).
"""

from __future__ import annotations

import fnmatch
import os
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

# What the client writes under ~/.claude by itself while a session runs (relative paths,
# fnmatch patterns; "*" also matches "/"). The toolkit writes none of them: its files there
# are settings.json and the auto-memory folders (projects/<project>/memory/).
CLIENT_OWN = (
    ".credentials.json",
    "history.jsonl",
    "todos*",
    "statsig*",
    "shell-snapshots*",
    "session-env*",
    "file-history*",
    "debug*",
    "ide*",
    "plans*",
    "paste-cache*",
    "telemetry*",
    "projects/*.jsonl",
)
# A session's own folder beside its transcript (subagents, tool results) is the client's
# too; ``memory`` (auto memory) is where the toolkit writes its block.
_SESSION_FOLDER_DEPTH = 3

Entry = tuple[str, int, int, str]
Snapshot = dict[str, Entry]


def real_folders(environ: Mapping[str, str]) -> list[Path]:
    """The user's cache folder of the toolkit and the client's config folder, as the
    environment the test run started with names them (before conftest overrides them)."""
    home = Path(environ.get("HOME") or os.path.expanduser("~"))
    cache = environ.get("CTX_CACHE_DIR")
    if not cache:
        base = environ.get("XDG_CACHE_HOME") or str(home / ".cache")
        cache = os.path.join(base, "context-memory")
    claude = environ.get("CLAUDE_CONFIG_DIR") or str(home / ".claude")
    return [Path(cache).expanduser(), Path(claude).expanduser()]


def _client_own(relative: str) -> bool:
    if any(fnmatch.fnmatch(relative, pattern) for pattern in CLIENT_OWN):
        return True
    parts = relative.split("/")
    # projects/<project>/<session folder>/...: the client's, unless it is memory/.
    return len(parts) >= _SESSION_FOLDER_DEPTH and parts[0] == "projects" and parts[2] != "memory"


def snapshot(folder: Path, *, skip_client_own: bool) -> Snapshot:
    """Every path under ``folder`` (itself included, as "."): (type, size, mtime_ns, link
    target). Links are listed, never followed. A missing folder is an empty snapshot."""
    found: Snapshot = {}
    if not os.path.lexists(folder):
        return found
    found["."] = _entry(os.fspath(folder), "link" if folder.is_symlink() else "dir")
    for current, dirs, files in os.walk(folder, followlinks=False):
        for name in [*dirs, *files]:
            path = os.path.join(current, name)
            relative = os.path.relpath(path, folder).replace(os.sep, "/")
            if skip_client_own and _client_own(relative):
                if name in dirs:
                    dirs.remove(name)
                continue
            kind = "link" if os.path.islink(path) else "dir" if name in dirs else "file"
            found[relative] = _entry(path, kind)
    return found


def _entry(path: str, kind: str) -> Entry:
    """(kind, size, mtime_ns, link target); a folder's size and time are left out: what
    changes in it shows as its own entries."""
    try:
        info = os.lstat(path)
    except OSError:
        return ("gone", 0, 0, "")
    if kind == "dir":
        return (kind, 0, 0, "")
    target = os.readlink(path) if kind == "link" else ""
    return (kind, info.st_size, info.st_mtime_ns, target)


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What differs, one line per path: added, removed, changed."""
    lines = [f"added {path}" for path in sorted(after.keys() - before.keys())]
    lines += [f"removed {path}" for path in sorted(before.keys() - after.keys())]
    lines += [
        f"changed {path}"
        for path in sorted(before.keys() & after.keys())
        if before[path] != after[path]
    ]
    return lines


class HomeGuard:
    """Snapshots of the real folders at the start; ``violations()`` at the end."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.skip_client_own = bool(environ.get("CLAUDECODE"))
        self.folders = real_folders(environ)
        self.before = {
            folder: snapshot(folder, skip_client_own=self.skip_client_own)
            for folder in self.folders
        }

    def violations(self) -> list[str]:
        found: list[str] = []
        for folder, before in self.before.items():
            after = snapshot(folder, skip_client_own=self.skip_client_own)
            found.extend(f"{line} under {folder}" for line in changes(before, after))
        return found


_GUARD_KEY = pytest.StashKey[HomeGuard]()
MAX_SHOWN = 20
# The guard sees every writer of the folders, not only this run: on a machine where other
# checkouts' tests, a benchmark or a real session write into the same HOME at the same
# time, CTX_HOME_GUARD=warn reports what changed without failing. Ignored under CI.
MODE_ENV = "CTX_HOME_GUARD"


def pytest_sessionstart(session: pytest.Session) -> None:
    """List the user's real cache and ~/.claude before any test runs."""
    session.stash[_GUARD_KEY] = HomeGuard(os.environ)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when a test wrote into the user's real cache or ~/.claude."""
    guard = session.stash.get(_GUARD_KEY, None)
    found = guard.violations() if guard is not None else []
    if not found:
        return
    shown = "\n  ".join(found[:MAX_SHOWN])
    more = f"\n  ... and {len(found) - MAX_SHOWN} more" if len(found) > MAX_SHOWN else ""
    message = (
        "the test run changed the user's real folders (a test must keep its overrides: "
        f"CTX_CACHE_DIR, HOME):\n  {shown}{more}"
    )
    warn_only = os.environ.get(MODE_ENV) == "warn" and not os.environ.get("CI")
    if warn_only:
        message += f"\n({MODE_ENV}=warn: reported, not failed; another run may share HOME)"
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "real home touched", red=not warn_only, yellow=warn_only)
        reporter.write_line(message)
    else:
        sys.stderr.write(message + "\n")
    if not warn_only:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
