"""Where Claude Code keeps its own auto memory for a project, and whether it is on.

What the client 2.1.332 does (docs/claude-code-protocol.md, section 10, verified with the
real client against a local API):

- on unless ``CLAUDE_CODE_DISABLE_AUTO_MEMORY`` is a true value (``1``, ``true``, ``yes``,
  ``on``; a false value such as ``0`` turns it on whatever the settings say),
  ``CLAUDE_CODE_SIMPLE`` is set, or the settings say ``"autoMemoryEnabled": false``;
- the folder is ``autoMemoryDirectory`` of the first settings file that sets it (managed,
  then the project's ``.claude/settings.local.json``, then ``.claude/settings.json``, then
  the user's ``settings.json``; ``~/`` expanded; a relative or too short value is ignored),
  else ``<config>/projects/<name>/memory/``: ``<config>`` is CLAUDE_CONFIG_DIR or
  ``~/.claude``, ``<name>`` the transcripts folder name (transcript/locate.py) of the
  project's **git root**, and for a git worktree the root of its main repository (a
  session in ``repo/pkg`` or in a worktree of ``repo`` uses the folder of ``repo``).

``CTX_NATIVE_MEMORY=off`` keeps the toolkit out of that folder whatever the client does.
Settings files are read bounded and without following a link; one that cannot be read or
parsed counts as saying nothing (the client's own reader skips it as well).
"""

from __future__ import annotations

import json
import os

from context_memory import TYPE_CHECKING
from context_memory.core.client_config import claude_config_dir
from context_memory.transcript.locate import project_folder_name

if TYPE_CHECKING:
    from collections.abc import Mapping

NATIVE_ENV = "CTX_NATIVE_MEMORY"
DISABLE_ENV = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
SIMPLE_ENV = "CLAUDE_CODE_SIMPLE"
REMOTE_DIR_ENV = "CLAUDE_CODE_REMOTE_MEMORY_DIR"
MEMORY_FOLDER = "memory"
MANAGED_SETTINGS = "/etc/claude-code/managed-settings.json"
MAX_SETTINGS_BYTES = 1024 * 1024
MAX_GIT_FILE_BYTES = 4096
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


class NativeLocation:
    """The auto-memory folder of a project and whether the toolkit may write there."""

    __slots__ = ("folder", "on", "why")

    def __init__(self, folder: str, on: bool, why: str) -> None:
        self.folder = folder  # absolute, no trailing separator
        self.on = on
        self.why = why  # where the folder or the "off" came from, for ctx-doctor

    def __repr__(self) -> str:
        return f"NativeLocation({self.folder!r}, on={self.on}, why={self.why!r})"


def _read_json(path: str) -> dict[str, object]:
    """A settings file's object, or {} (missing, a link, too big, not JSON)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except OSError:
        return {}
    try:
        import stat

        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return {}
        data = os.read(fd, MAX_SETTINGS_BYTES + 1)
    except OSError:
        return {}
    finally:
        os.close(fd)
    if len(data) > MAX_SETTINGS_BYTES:
        return {}
    try:
        value = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def settings_files(project_dir: str) -> list[tuple[str, str]]:
    """(name, path) of the settings files the client reads, highest precedence first."""
    claude = os.path.join(project_dir, ".claude")
    return [
        ("managed settings", MANAGED_SETTINGS),
        ("local settings", os.path.join(claude, "settings.local.json")),
        ("project settings", os.path.join(claude, "settings.json")),
        ("user settings", os.path.join(claude_config_dir(), "settings.json")),
    ]


def _first_setting(project_dir: str, key: str) -> tuple[object, str] | None:
    for name, path in settings_files(project_dir):
        value = _read_json(path).get(key)
        if value is not None:
            return value, f"{key} in {name} ({path})"
    return None


def _git_root(start: str) -> str | None:
    """The nearest folder at or above ``start`` holding ``.git``; for a worktree (a ``.git``
    file naming ``.../.git/worktrees/<name>``) the main repository's folder."""
    here = os.path.abspath(start)
    while True:
        marker = os.path.join(here, ".git")
        if os.path.isdir(marker) and not os.path.islink(marker):
            return here
        if os.path.isfile(marker) and not os.path.islink(marker):
            return _worktree_main(here, marker) or here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _worktree_main(folder: str, marker: str) -> str | None:
    try:
        with open(marker, "rb") as handle:
            head = handle.read(MAX_GIT_FILE_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    if not head.startswith("gitdir:"):
        return None
    gitdir = head[len("gitdir:") :].strip()
    gitdir = os.path.normpath(os.path.join(folder, gitdir))
    parts = gitdir.replace("\\", "/").split("/")
    if len(parts) >= 3 and parts[-2] == "worktrees" and parts[-3] == ".git":
        return "/".join(parts[:-3]) or "/"
    return None


def memory_key(project_dir: str) -> str:
    """The folder whose transcripts-folder name names the memory folder: the git root (the
    main repository's for a worktree), else the project folder."""
    return _git_root(project_dir) or os.path.abspath(project_dir)


def _configured_folder(value: object) -> str | None:
    if not isinstance(value, str) or not value:
        return None
    text = value
    if text.startswith(("~/", "~\\")):
        rest = text[2:]
        if os.path.normpath(rest or ".").startswith(".."):
            return None
        text = os.path.join(os.path.expanduser("~"), rest)
    folder = os.path.normpath(text).rstrip("/\\")
    if not os.path.isabs(folder) or len(folder) < 3 or "\0" in folder:
        return None
    return folder


def client_memory_on(project_dir: str, env: Mapping[str, str] | None = None) -> tuple[bool, str]:
    """Whether the client's auto memory is on for the project, and what says so."""
    environ = os.environ if env is None else env
    raw = environ.get(DISABLE_ENV, "").strip().lower()
    if raw in _TRUE:
        return False, f"{DISABLE_ENV}={environ.get(DISABLE_ENV)}"
    if raw in _FALSE:
        return True, f"{DISABLE_ENV}={environ.get(DISABLE_ENV)}"
    if environ.get(SIMPLE_ENV):
        return False, f"{SIMPLE_ENV} is set"
    found = _first_setting(project_dir, "autoMemoryEnabled")
    if found is not None and isinstance(found[0], bool):
        return found[0], f"autoMemoryEnabled: {str(found[0]).lower()} ({found[1]})"
    return True, "on by default"


def native_location(project_dir: str, env: Mapping[str, str] | None = None) -> NativeLocation:
    """The project's auto-memory folder and whether the toolkit mirrors records into it
    (the client's auto memory on, and CTX_NATIVE_MEMORY not ``off``)."""
    environ = os.environ if env is None else env
    found = _first_setting(project_dir, "autoMemoryDirectory")
    folder = _configured_folder(found[0]) if found is not None else None
    why = found[1] if folder is not None and found is not None else ""
    if folder is None:
        base = environ.get(REMOTE_DIR_ENV) or claude_config_dir(environ)
        name = project_folder_name(memory_key(project_dir))
        folder = os.path.join(base, "projects", name, MEMORY_FOLDER)
        why = "the client's default for this project"
    if environ.get(NATIVE_ENV, "").strip().lower() in _FALSE:
        return NativeLocation(folder, False, f"{NATIVE_ENV}={environ.get(NATIVE_ENV)}")
    on, because = client_memory_on(project_dir, environ)
    return NativeLocation(folder, on, why if on else f"auto memory off: {because}")
