"""ctx-doctor's checks of a project's working state (the list: docs/install.md): the state
folder, the crontab line, the hooks' errors and breakers, and Claude Code's auto memory
(memory/native.py).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping

from context_memory.core.fsutil import list_dir, open_file
from context_memory.core.hookio import BREAKER_LIMIT, breaker_failures
from context_memory.core.isotime import parse_time
from context_memory.core.state import (
    BREAKER_SUFFIX,
    HOOKS_LOG,
    LOGS_DIR,
    SESSIONS_DIR,
    STATE_DIR_ENV,
    breaker_file,
)
from context_memory.core.tables import (
    NATIVE_BLOCK_CHARS,
    NATIVE_BLOCK_LINES,
    NATIVE_CLIENT_LINES,
)
from context_memory.memory.native import INDEX_FILE, Index, read_index, read_state
from context_memory.memory.native_folder import native_location
from context_memory.setup.doctor.check import FAIL, OK, WARN, Check, plural, shortlist
from context_memory.setup.doctor.checks_install import PluginInstall, program_problem
from context_memory.setup.install.settings_edit import command_word

LOG_TAIL_BYTES = 1024 * 1024
ERROR_WINDOW_SECONDS = 24 * 3600


def check_state_dir(state_dir: str) -> Check:
    name = "state folder"
    if os.path.isdir(state_dir):
        try:
            fd, probe = tempfile.mkstemp(prefix=".doctor-", dir=state_dir)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            fix = f"chmod u+w {state_dir}, or set {STATE_DIR_ENV} to a writable folder"
            return Check(name, FAIL, f"{state_dir} is not writable ({exc.strerror or exc})", fix)
        return Check(name, OK, f"{state_dir} is writable")
    if os.path.exists(state_dir):
        fix = "move that file away (the hooks keep their files in a folder of that name)"
        return Check(name, FAIL, f"{state_dir} exists but is not a folder", fix)
    parent = os.path.dirname(state_dir)
    while parent and not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if parent and os.access(parent, os.W_OK | os.X_OK):
        return Check(name, OK, f"{state_dir} does not exist yet; it will be created on first use")
    found = f"{state_dir} does not exist and {parent or '/'} is not writable"
    return Check(name, FAIL, found, f"set {STATE_DIR_ENV} to a writable folder")


def check_cron(
    project: str,
    read_crontab: Callable[[], str] | None = None,
    installer: str = "./install",
    plugin: PluginInstall | None = None,
) -> Check:
    """The hourly ctx-merge line ``./install --cron`` adds for this project; ``installer``
    is the command that adds it for this install (``ctx-install`` for pipx and uv).
    ``plugin``: an active plugin install, which sets up no crontab line: without one, how
    a plugin user merges."""
    name = "cron (ctx-merge)"

    def none_found(found: str, why: str) -> Check:
        if plugin is None:
            return Check(name, OK, f"{found} ({installer} --cron {why})")
        ctx_run = os.path.join(plugin.source_dir or plugin.install_path, "bin", "ctx-run")
        return Check(name, OK, f"{found} (the plugin sets up no cron job; {ctx_run} ctx-merge "
                     "merges by hand, and a crontab line can run it hourly)")  # fmt: skip

    from context_memory.setup.install import crontab

    if read_crontab is None and crontab.crontab_missing():
        return none_found("no crontab command here", "needs cron")
    try:
        text = (read_crontab or crontab.read_crontab)()
    except crontab.CrontabError as exc:
        fix = "check that cron works: crontab -l"
        return Check(name, WARN, f"cannot read the crontab: {exc}", fix)
    ours = [line for line in text.splitlines() if crontab.is_project_line(line, project)]
    if not ours:
        return none_found(f"no hourly ctx-merge for {project}", "adds it")
    if len(ours) > 1:
        found = f"{len(ours)} ctx-merge lines for {project}: the merge runs several times"
        return Check(name, WARN, found, f"run {installer} --cron again (it keeps exactly one)")
    fields = ours[0].split(None, 5)
    program = command_word(fields[5]) if len(fields) == 6 else None
    problem = program_problem(program) if program else "the line has no command"
    if problem:
        found = f"the crontab line for {project}: {problem}"
        return Check(name, FAIL, found, f"run {installer} --cron")
    when = f"hourly at :{int(fields[0]):02d}" if fields[0].isdigit() else f"at '{fields[0]}'"
    return Check(name, OK, f"{when} for {project}: {program}")


def check_logs(state_dir: str, now: float | None = None) -> Check:
    """Errors logged in the last day, per hook, in every ``*.log`` of ``<state>/logs``
    (hooks.log first). Lines are hookio.log_line's: UTC stamp, hook, session, message,
    tab-separated; other lines are passed over."""
    name = "hook errors (24 h)"
    now = time.time() if now is None else now
    folder = os.path.join(state_dir, LOGS_DIR)
    try:
        names = sorted((n for n in os.listdir(folder) if n.endswith(".log")),
                       key=lambda n: (n != HOOKS_LOG, n))  # fmt: skip
    except OSError:
        names = []
    paths = [os.path.join(folder, n) for n in names]
    if not paths:
        return Check(name, OK, "no hook has logged an error")
    per_hook: Counter[str] = Counter()
    last: tuple[str, str, str] | None = None
    for path in paths:
        try:  # the last LOG_TAIL_BYTES (no link followed, no FIFO waited on)
            with open(open_file(path), "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                handle.seek(max(0, size - LOG_TAIL_BYTES))
                lines = handle.read(LOG_TAIL_BYTES).decode("utf-8", errors="replace").splitlines()
        except OSError as exc:
            return Check(name, WARN, f"cannot read {path}: {exc.strerror or exc}", None)
        lines = lines[1:] if size > LOG_TAIL_BYTES else lines  # the first line may be cut
        for parts in (line.split("\t", 3) for line in lines):
            stamp = parse_time(parts[0]) if len(parts) == 4 else None
            if stamp is None or now - stamp > ERROR_WINDOW_SECONDS:
                continue
            per_hook[parts[1]] += 1
            if last is None or parts[0] >= last[0]:
                last = (parts[0], parts[1], parts[3])
    if not per_hook or last is None:
        return Check(name, OK, "none in the last day")
    counts = ", ".join(f"{hook} {count}" for hook, count in sorted(per_hook.items()))
    found = f"{plural(sum(per_hook.values()), 'error')} ({counts}); last at {last[0]}, {last[1]}"
    fix = f"read {' and '.join(paths) if len(paths) <= 2 else folder}"
    return Check(name, WARN, f"{found}: {last[2]}", fix)


def check_breakers(state_dir: str) -> Check:
    """The breakers at or past the limit, read as the hooks read their own
    (core/hookio.breaker_failures)."""
    name = "circuit breakers"
    sessions = os.path.join(state_dir, SESSIONS_DIR)
    found: list[str] = []
    try:
        names = sorted(list_dir(sessions, root=state_dir))
    except OSError:
        names = []
    for session in names:
        try:
            files = sorted(list_dir(os.path.join(sessions, session), root=state_dir))
        except OSError:
            continue
        hooks = [n[1 : -len(BREAKER_SUFFIX)] for n in files
                 if n[:1] == "." and n.endswith(BREAKER_SUFFIX)]  # fmt: skip
        found.extend(
            f"{hook} in session {session}"
            for hook in hooks
            if breaker_failures(state_dir, hook, session) >= BREAKER_LIMIT
        )
    if not found:
        return Check(name, OK, "none open")
    off = f"{plural(len(found), 'hook')} switched off after {BREAKER_LIMIT} failures"
    breaker = os.path.join(state_dir, SESSIONS_DIR, "<session>", breaker_file("<hook>"))
    fix = f"fix the error in {LOGS_DIR}/{HOOKS_LOG}, then delete {breaker}"
    return Check(name, WARN, f"{off}: {shortlist(found)}", fix)


AUTO_MEMORY = "auto memory"


def check_auto_memory(project: str, state_dir: str, environ: Mapping[str, str]) -> Check:
    """Where the client's auto memory is, whether the toolkit writes there, and the block:
    its lines and characters against the budget, the whole MEMORY.md against the client's
    200-line cut."""
    location = native_location(project, environ)
    folder = location.folder
    if not location.on:
        return Check(AUTO_MEMORY, OK, f"{folder}: nothing mirrored ({location.why})")
    try:
        index = Index(read_index(folder))
    except OSError as exc:
        fix = "make it a regular file the user can read, or set CTX_NATIVE_MEMORY=off"
        found = f"{os.path.join(folder, INDEX_FILE)}: {exc.strerror or exc}"
        return Check(AUTO_MEMORY, WARN, found, fix)
    block = index.block or []
    chars = sum(len(line) + 1 for line in block)
    total = index.own_lines() + (len(block) + 2 if index.block is not None else 0)
    state = read_state(state_dir)
    written = state.get("folder") == folder
    unlisted = state.get("unlisted") if written else 0
    message = (
        f"{folder}: the toolkit's block {len(block)} of {NATIVE_BLOCK_LINES} lines, "
        f"{chars} of {NATIVE_BLOCK_CHARS} characters; MEMORY.md {total} of "
        f"{NATIVE_CLIENT_LINES} lines ({location.why})"
    )
    if isinstance(unlisted, int) and unlisted > 0:
        message += f"; {unlisted} more of the user's records left out (newest first)"
    if not written and index.block is None:
        message += "; nothing mirrored yet (the next Stop or session start does it)"
    if total > NATIVE_CLIENT_LINES:
        fix = f"shorten {os.path.join(folder, INDEX_FILE)} (/memory in Claude Code)"
        cut = f"; lines past {NATIVE_CLIENT_LINES} are cut by the client"
        return Check(AUTO_MEMORY, WARN, message + cut, fix)
    return Check(AUTO_MEMORY, OK, message)
