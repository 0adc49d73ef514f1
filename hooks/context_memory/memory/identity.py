"""Who and which machine wrote a record, and ids that never collide across clones.

Teams share ``.working-state/`` through git: several machines append to one
``decisions.jsonl`` and git's union merge joins their lines. Nothing coordinates them, so
a record id must be unique by construction (time-ordered plus randomness, like a ULID),
a record says who wrote it (git's ``user.name`` and ``user.email``, else user@host), and a
command run by hand, outside any Claude Code session, writes under a session name of its
own machine (two machines must never write the same handoff file).

Standard library only; the git lookup is one subprocess, remembered in the state folder
until a git config file changes.
"""

from __future__ import annotations

import os
import time

from context_memory.core.state import AUTHOR_CACHE_FILE  # per machine: not shared (team.py)

# json, subprocess, socket and hashlib are imported where used: decisions.py imports this
# module, and hooks that only read records should not pay for them.

# Crockford's base32: no I, L, O or U (nothing to misread), sorts like the numbers it encodes.
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
ID_LENGTH = 26  # 10 characters of milliseconds (48 bits) + 16 of randomness (80 bits)
MAX_CACHE_BYTES = 4096
MAX_AUTHOR_LENGTH = 200
GIT_TIMEOUT_SECONDS = 5.0
MANUAL_SESSION_PREFIX = "manual-"
_GIT_SEARCH_DEPTH = 64


def _base32(number: int, length: int) -> str:
    chars = []
    for _ in range(length):
        number, digit = divmod(number, 32)
        chars.append(_CROCKFORD[digit])
    return "".join(reversed(chars))


def new_record_id(now_ms: int | None = None) -> str:
    """A ULID-style id: 26 characters, ordered by creation time (to the millisecond), with 80
    random bits, so ids made on different machines at the same moment still differ."""
    stamp = int(time.time() * 1000) if now_ms is None else now_ms
    return _base32(stamp & (2**48 - 1), 10) + _base32(int.from_bytes(os.urandom(10), "big"), 16)


def is_new_style_id(value: object) -> bool:
    return (
        isinstance(value, str) and len(value) == ID_LENGTH and all(c in _CROCKFORD for c in value)
    )


# --------------------------------------------------------------------------- git


def git_dir(start: str) -> str | None:
    """The git folder of the work tree holding ``start`` (``.git``, or where a ``.git`` file
    of a linked worktree points), or None outside a work tree."""
    folder = os.path.abspath(start)
    for _ in range(_GIT_SEARCH_DEPTH):
        dot_git = os.path.join(folder, ".git")
        if os.path.isdir(dot_git):
            return dot_git
        if os.path.isfile(dot_git):
            try:
                with open(dot_git, encoding="utf-8") as handle:
                    first = handle.read(4096).splitlines()[:1]
            except (OSError, UnicodeDecodeError):
                return None
            if first and first[0].startswith("gitdir:"):
                target = first[0][len("gitdir:") :].strip()
                return os.path.normpath(os.path.join(folder, target))
            return None
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return None


def _config_files(project: str) -> list[str]:
    """The files git reads user.name and user.email from (a change to any of them, or its
    appearance, invalidates the cached author)."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files = [
        os.environ.get("GIT_CONFIG_GLOBAL") or os.path.join(home, ".gitconfig"),
        os.path.join(xdg, "git", "config"),
        os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig",
    ]
    found = git_dir(project)
    if found:
        files.append(os.path.join(found, "config"))
        files.append(os.path.join(found, "config.worktree"))
        try:
            with open(os.path.join(found, "commondir"), encoding="utf-8") as handle:
                common = handle.read(4096).strip()
            files.append(os.path.join(found, common, "config"))
        except (OSError, UnicodeDecodeError):
            pass
    return files


def _cache_key(project: str) -> list[object]:
    key: list[object] = [os.path.abspath(project)]
    for path in _config_files(project):
        try:
            info = os.stat(path)
            key.append([path, info.st_mtime_ns, info.st_size])
        except OSError:
            key.append([path, None, None])
    for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "HOME"):
        key.append(os.environ.get(name))
    return key


def _git_user(project: str) -> tuple[str, str]:
    """(user.name, user.email) as git sees them in ``project``; ('', '') when git is missing
    or says nothing."""
    import subprocess

    try:
        done = subprocess.run(
            ["git", "config", "--get-regexp", r"^user\.(name|email)$"],
            cwd=project if os.path.isdir(project) else None,
            capture_output=True,
            timeout=GIT_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "", ""
    name = email = ""
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        key, _, value = line.partition(" ")
        if key == "user.name":
            name = value.strip()  # the last one wins, as for git itself
        elif key == "user.email":
            email = value.strip()
    return name, email


def format_author(name: str, email: str) -> str:
    name, email = " ".join(name.split()), "".join(email.split())
    text = f"{name} <{email}>" if name and email else name or (f"<{email}>" if email else "")
    return unicode_only(text[:MAX_AUTHOR_LENGTH])


def unicode_only(text: str) -> str:
    """``text`` with each lone surrogate (a byte of the environment that is not UTF-8,
    GIT_AUTHOR_NAME in a Latin-1 shell) replaced by U+FFFD: an author is not the user's
    typing to refuse, and no file can hold a surrogate."""
    return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text)


def local_user() -> str:
    """user@host, for machines without a git identity."""
    import socket

    try:
        import getpass

        user = getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name in the environment or the password db
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    return f"{user}@{socket.gethostname() or 'localhost'}"


def _read_cache(path: str, key: list[object], root: str) -> str | None:
    import json

    from context_memory.core.fsutil import read_bytes

    try:  # no link followed, bounded: the state folder is untrusted input
        data = json.loads(read_bytes(path, MAX_CACHE_BYTES, root=root))
    except (OSError, ValueError, RecursionError):
        return None
    if isinstance(data, dict) and data.get("key") == key and isinstance(data.get("author"), str):
        return data["author"] or None
    return None


def record_author(project: str, state_dir: str | None = None) -> str:
    """Who writes a record: GIT_AUTHOR_NAME / GIT_AUTHOR_EMAIL, else git's user.name and
    user.email in ``project``, else user@host.

    The git answer is cached in ``<state>/.author-cache.json`` under the stat of every git
    config file it could come from, so a later ctx-decide skips the subprocess until one of
    them changes."""
    env_name = os.environ.get("GIT_AUTHOR_NAME", "")
    env_email = os.environ.get("GIT_AUTHOR_EMAIL", "")
    if env_name or env_email:
        return format_author(env_name, env_email)
    cache = os.path.join(state_dir, AUTHOR_CACHE_FILE) if state_dir else None
    key = _cache_key(project)
    if cache is not None and state_dir:
        cached = _read_cache(cache, key, state_dir)
        if cached:
            return cached
    author = format_author(*_git_user(project)) or unicode_only(local_user()[:MAX_AUTHOR_LENGTH])
    if cache is not None and state_dir and os.path.isdir(state_dir):
        import json

        try:
            from context_memory.core.fsutil import atomic_write

            atomic_write(cache, json.dumps({"key": key, "author": author}) + "\n", root=state_dir)
        except OSError:
            pass  # a cache that cannot be written costs one subprocess next time, nothing more
    return author


# --------------------------------------------------------------------------- sessions


def machine_tag() -> str:
    """10 hex digits that differ between machines (and users) and stay put on one."""
    import hashlib
    import socket

    machine = ""
    for path in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            with open(path, encoding="ascii") as handle:
                machine = handle.read(256).strip()
            break
        except (OSError, UnicodeDecodeError):
            continue
    seed = "\0".join((machine, socket.gethostname(), local_user(), os.path.expanduser("~")))
    return hashlib.sha256(seed.encode("utf-8", "replace")).hexdigest()[:10]


def manual_session() -> str:
    """The session name of commands run outside Claude Code on this machine:
    ``manual-<tag>``. Stable on one machine (its handoffs number on), different on the
    next (two clones never write the same ``sessions/<id>/handoffs/stage-N.md``)."""
    return MANUAL_SESSION_PREFIX + machine_tag()
