"""Where the toolkit keeps its files, and the guards that keep writes inside that folder.

The one state-location rule: which folder is the state folder (CTX_STATE_DIR, else
``<project>/.working-state``, refused when that is a symbolic link), the name of every file
and folder in it, and how a path in it is shown. Every other module asks this one
(tests/core/test_state_layout.py fails when another module spells a name of the table below),
so moving the state folder or renaming a file in it changes this module only.

Paths are plain strings here: this module is on the prompt path, and pathlib costs more
to import than the hook's own work. Callers off that path wrap them in Path freely.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core import lightos

if TYPE_CHECKING:
    from os import PathLike

# -- The state folder and what it holds ----------------------------------------------------
STATE_DIRNAME = ".working-state"  # in the project folder
STATE_DIR_ENV = "CTX_STATE_DIR"  # keeps the state elsewhere (an absolute or relative path)
PROJECT_MARKERS = (STATE_DIRNAME, ".claude", ".git")

# At the top of the state folder.
DECISIONS_FILE = "decisions.jsonl"  # the decisions log (memory/decisions, core/decisions_log)
PLAN_FILE = "current-plan.md"  # ctx-plan's plan
PINNED_FILE = "pinned.md"  # the pinned digest CLAUDE.md imports (pinned/store)
PINNED_INDEX_FILE = "pinned-index.json"  # the ids the digest holds
GUARD_INDEX_FILE = "guard-index.json"  # ctx-guard's index of the log (guard/index)
NATIVE_MEMORY_FILE = "native-memory.json"  # what was last written to auto memory
AUTHOR_CACHE_FILE = ".author-cache.json"  # this machine's git identity (memory/identity)
MERGE_LOCK_FILE = "merge.lock"  # ctx-merge's lock
MERGED_DIR = "merged"  # ctx-merge's record (a link to its newest generation, merge/layout)
MERGED_DECISIONS_MD = "decisions.md"  # in merged/: the merged decisions, for people
MERGED_DECISIONS_JSON = "decisions.json"  # in merged/: the same, for the pinned digest
CAPTURE_DIR = "capture"  # capture's positions and records, one file per session
LOGS_DIR = "logs"
HOOKS_LOG = "hooks.log"  # in logs/: one line per hook failure
SESSIONS_DIR = "sessions"  # one folder per session (session_dir)

# In a session's folder (``sessions/<id>/``).
BREAKER_SUFFIX = ".failures"  # ``.<hook>.failures``: a hook's failures in a row (hookio)
HANDOFFS_DIR = "handoffs"  # ctx-handoff's stage-N.md files
AUDIT_FILE = "compact-audit.json"  # the compaction audit
EXTRACT_FILE = "compaction-extract.json"  # what ctx-extract saved before a compaction
TURN_START_FILE = "turn-start-injection.json"  # what a turn-start compaction carried
PINNED_SNAPSHOT_FILE = "pinned-at-compact.json"  # the digest's ids at a compaction
STATUSLINE_FILE = "statusline.json"  # the status line's window cache
MAX_NAME_LENGTH = 128

# Session ids written by the client are UUIDs; people pass shorter names by hand.
# Anything that could name another folder is refused rather than cleaned up.
# Checked by hand rather than with a regular expression: ``re`` costs more to import than
# the hook's work.
_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_NAME_CHARS = _ALNUM | frozenset("._-")


def _is_safe_name(value: str) -> bool:
    return value[0] in _ALNUM and all(char in _NAME_CHARS for char in value)


class UnsafeNameError(ValueError):
    """A session id or stage name that could leave the state folder."""


class UnsafeStateDirError(UnsafeNameError):
    """The project's state folder is a symbolic link: writes would land somewhere else."""


def validate_name(value: object, what: str = "session id") -> str:
    """Return ``value`` if it is one safe path component, else raise UnsafeNameError."""
    if not isinstance(value, str) or not value:
        raise UnsafeNameError(f"{what} is empty")
    if "\x00" in value:
        raise UnsafeNameError(f"{what} contains a NUL byte")
    if len(value) > MAX_NAME_LENGTH:
        raise UnsafeNameError(f"{what} is longer than {MAX_NAME_LENGTH} characters")
    if ".." in value or not _is_safe_name(value):
        raise UnsafeNameError(
            f"{what} {value!r} is not allowed: use letters, digits, '.', '_' or '-' "
            "(no '/', no '..', not starting with '.')"
        )
    return value


def _home_or_above(folder: str) -> bool:
    """True for the home folder and every folder above it (``/home``, ``/``)."""
    home = lightos.expanduser("~")
    for candidate_home in {lightos.abspath(home), lightos.realpath(home)}:
        below = folder.rstrip(lightos.sep) + lightos.sep
        if candidate_home == folder or candidate_home.startswith(below):
            return True
    return False


def _is_submodule_git_file(path: str) -> bool:
    """True when ``path`` is the ``.git`` file of a submodule (``gitdir: .../.git/modules/...``).

    A git worktree also has a ``.git`` file (``gitdir: .../.git/worktrees/...``): that one
    is a checkout of its own and stays a project root.
    """
    try:
        if not lightos.isfile(path) or lightos.islink(path):
            return False
        with open(path, "rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    if not head.startswith("gitdir:"):
        return False
    gitdir = head[len("gitdir:") :].strip().replace("\\", "/")
    return "/.git/modules/" in "/" + gitdir + "/" or gitdir.startswith(".git/modules/")


def is_project_marker(folder: str, marker: str) -> bool:
    """Whether ``folder/marker`` makes ``folder`` a project root.

    Two look-alikes do not: ``~/.claude`` (the client's own config folder, there for every
    user) at the home folder or above, and the ``.git`` file of a submodule, which belongs
    to the repository around it.
    """
    path = lightos.join(folder, marker)
    if not lightos.exists(path):
        return False
    if marker == ".claude" and _home_or_above(folder):
        return False
    return not (marker == ".git" and _is_submodule_git_file(path))


def search_project_root(start: str) -> str | None:
    """The nearest ancestor of ``start`` (itself included) holding a project marker, or None.

    Commands run by hand have no session to ask, so the root has to be found rather
    than assumed (commands the agent runs ask the session registry first).
    """
    candidate = lightos.abspath(start)
    while True:
        for marker in PROJECT_MARKERS:
            if is_project_marker(candidate, marker):
                return candidate
        parent = lightos.dirname(candidate)
        if parent == candidate:
            return None
        candidate = parent


def find_project_root(start: str) -> str:
    """The nearest ancestor of ``start`` holding a project marker, else ``start`` itself."""
    return search_project_root(start) or lightos.abspath(start)


def resolve_project_dir(cwd: str | None = None, *, search_up: bool = False) -> str:
    """The project folder: CLAUDE_PROJECT_DIR, else the hook's cwd, else the current directory.

    ``search_up`` (for commands run by hand or through Bash) looks for the nearest
    ancestor with a project marker instead of taking the directory as it is.
    """
    env_dir = lightos.environ().get("CLAUDE_PROJECT_DIR")
    if env_dir:
        return lightos.abspath(env_dir)
    base = cwd or lightos.getcwd()
    return find_project_root(base) if search_up else lightos.abspath(base)


def state_dir_override() -> str | None:
    """CTX_STATE_DIR as an absolute path, or None when it is not set (or empty)."""
    override = lightos.environ().get(STATE_DIR_ENV)
    return lightos.abspath(override) if override else None


def usual_state_dir(project: str) -> str:
    """``<project>/.working-state``, the state folder a project has without CTX_STATE_DIR
    (what CLAUDE.md's ``@.working-state/pinned.md`` line and ctx-doctor --team name)."""
    return lightos.join(lightos.abspath(project), STATE_DIRNAME)


def state_dir_of(project: str, *, refuse_link: bool = True) -> str:
    """The state folder of ``project``: CTX_STATE_DIR, else ``<project>/.working-state``.

    Raises UnsafeStateDirError when ``<project>/.working-state`` is a symbolic link, unless
    ``refuse_link`` is False (ctx-doctor reports the link itself).
    """
    # The variable first: with it, the project's path is not even made absolute.
    return state_dir_override() or state_dir_in(usual_state_dir(project), refuse_link=refuse_link)


def state_dir_in(folder: str, *, refuse_link: bool = True) -> str:
    """The state folder when ``folder`` is the one a project would have: CTX_STATE_DIR,
    else ``folder`` (a project's usual one, or the one its hooks recorded for a session).

    Raises UnsafeStateDirError when ``folder`` is a symbolic link, unless ``refuse_link``
    is False.
    """
    override = state_dir_override()
    if override:
        return override
    return check_state_dir(folder) if refuse_link else folder


def resolve_state_dir(cwd: str | None = None, *, search_up: bool = False) -> str:
    """The state folder of the project resolve_project_dir finds (see state_dir_of).

    Raises UnsafeStateDirError when ``<project>/.working-state`` is a symbolic link.
    """
    override = state_dir_override()  # first: with it, no project has to be found
    if override:
        return override
    return state_dir_of(resolve_project_dir(cwd, search_up=search_up))


def check_state_dir(path: str) -> str:
    """Return ``path`` unless it is a symbolic link (then raise UnsafeStateDirError).

    A ``.working-state`` link (say, in a cloned repository) would send every write of
    the hooks somewhere else. Keeping the state elsewhere is what CTX_STATE_DIR is for.
    """
    if lightos.islink(path):
        target = lightos.realpath(path)
        raise UnsafeStateDirError(
            f"{path} is a symbolic link: nothing is written through it. Set "
            f"{STATE_DIR_ENV}={target} to keep the state there, or make it a real folder"
        )
    return path


def usual_project(state_dir: str) -> str | None:
    """The project whose usual state folder ``state_dir`` is (``<project>/.working-state``),
    or None for a state folder kept elsewhere (CTX_STATE_DIR)."""
    folder = lightos.abspath(state_dir)
    return lightos.dirname(folder) if lightos.basename(folder) == STATE_DIRNAME else None


def relative_path(path: str, base: str | None) -> str:
    """``path`` relative to ``base`` when it lies below it (shorter), else absolute."""
    path = lightos.abspath(path)
    if base:
        base = lightos.abspath(base)
        if path.startswith(base + lightos.sep):
            return path[len(base) + 1 :]
    return path


def shown_state_path(state_dir: str, path: str | None = None) -> str:
    """How ``path`` in the state folder (default: the folder itself) is shown to the agent
    and the user: from the project (``.working-state/decisions.jsonl``) when the state
    folder is the project's usual one, which is what the agent's tools find from there;
    absolute for a state folder kept elsewhere."""
    return relative_path(state_dir if path is None else path, usual_project(state_dir))


def decisions_path(state_dir: str | PathLike[str]) -> str:
    """``<state>/decisions.jsonl``, the decisions log (core/decisions_log reads it)."""
    return lightos.join(lightos.fspath(state_dir), DECISIONS_FILE)


def breaker_file(hook: str) -> str:
    """The name of ``hook``'s failure counter in a session's folder."""
    return f".{hook}{BREAKER_SUFFIX}"


def ensure_inside(root: str, path: str) -> str:
    """Return ``path`` if it resolves inside ``root``; raise UnsafeNameError otherwise."""
    real_root = lightos.realpath(root)
    real = lightos.realpath(path)
    if real != real_root and not real.startswith(real_root + lightos.sep):
        raise UnsafeNameError(f"{path} is outside the state folder {root}")
    return path


def session_dir(state_dir: str, session_id: str) -> str:
    """``<state>/sessions/<id>``; raises UnsafeNameError for an unsafe id and
    fsutil.UnsafePathError when ``sessions`` or the session's folder is a link or a file
    (nothing in it is then read or written)."""
    from context_memory.core.fsread import check_no_links

    path = lightos.join(state_dir, SESSIONS_DIR, validate_name(session_id))
    return check_no_links(state_dir, path)
