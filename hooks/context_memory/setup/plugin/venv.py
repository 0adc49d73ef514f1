"""The plugin's private virtualenv (click, orjson, filelock) under ``$CLAUDE_PLUGIN_DATA``,
which the by-hand commands need (docs/plugin.md): ``ready()`` (two small reads, no imports:
hooks call it), a detached build from SessionStart, and ``build()`` under the lock, whose
stamp is written last so that a half-built venv is never used. Standard library only.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from context_memory.core.filelocks import FileLock

# The [project] dependencies of pyproject.toml (a test keeps them equal).
DEPENDENCIES = ("click>=8.1", "orjson>=3.8", "filelock>=3.12")
PLUGIN_NAME = "context-memory"
MARKETPLACE_NAME = "context-memory"
VENV_DIRNAME = "venv"
STAMP_FILE = "context-memory-plugin.stamp"
LOCK_FILE = "venv.lock"
BUILD_LOG = "venv-build.log"
BUILD_MARK = "context-memory: building"
# Two of the plugin's files (plugin/files.py makes them): the client reads them.
MANIFEST = os.path.join(".claude-plugin", "plugin.json")
HOOKS_FILE = os.path.join("hooks", "hooks.json")
MAX_MANIFEST_BYTES = 64 * 1024
BUILD_WAIT_SECONDS = 600.0
PIP_TIMEOUT_SECONDS = 600.0
PREFIX = "context-memory:"


class BuildError(Exception):
    """The virtualenv could not be built; ``str()`` says why and how to fix it."""


def plugin_root() -> str:
    """The plugin folder: hooks/context_memory/setup/plugin/venv.py -> the folder above
    hooks/."""
    return os.path.normpath(os.path.join(os.path.abspath(__file__), *[os.pardir] * 5))


def data_dir(environ: Mapping[str, str] | None = None) -> str:
    """``$CLAUDE_PLUGIN_DATA`` (hooks get it), else the folder the client gives this plugin
    (the agent's Bash tool does not get the variable)."""
    environ = os.environ if environ is None else environ
    given = environ.get("CLAUDE_PLUGIN_DATA", "")
    if given:
        return os.path.abspath(given)
    from context_memory.core.client_config import claude_config_dir

    folder = f"{PLUGIN_NAME}-{MARKETPLACE_NAME}"
    return os.path.join(claude_config_dir(environ), "plugins", "data", folder)


def venv_dir(data: str) -> str:
    return os.path.join(data, VENV_DIRNAME)


def wanted_stamp(root: str | None = None) -> bytes:
    """What the stamp of a current venv holds: the plugin manifest's bytes (its version) and
    the interpreter's X.Y (the venv's site-packages are for that Python only)."""
    path = os.path.join(root or plugin_root(), MANIFEST)
    try:
        with open(path, "rb") as handle:
            manifest = handle.read(MAX_MANIFEST_BYTES)
    except OSError:
        manifest = b""
    return manifest + b"\npython %d.%d\n" % sys.version_info[:2]


def ready(data: str, root: str | None = None) -> str | None:
    """The venv's site-packages folder when the venv is built for this plugin and Python."""
    try:
        with open(os.path.join(venv_dir(data), STAMP_FILE), "rb") as handle:
            stamp = handle.read(MAX_MANIFEST_BYTES + 64)
    except OSError:
        return None
    if stamp != wanted_stamp(root):
        return None
    python = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    found = os.path.join(venv_dir(data), "lib", python, "site-packages")
    return found if os.path.isdir(found) else None


def use_venv(data: str, root: str | None = None) -> bool:
    """Put a ready venv's packages on sys.path (last: the plugin's own code comes first)."""
    found = ready(data, root)
    if found is None:
        return False
    if found not in sys.path:
        sys.path.append(found)
    return True


def build_lock(data: str, timeout: float = -1) -> FileLock:
    """The lock on ``venv.lock`` (not taken yet): two sessions never build at once. Hooks
    and the build have no filelock (it is what the build installs): core/filelocks then
    locks with the standard library's flock, the same lock."""
    from context_memory.core.filelocks import file_lock

    os.makedirs(data, mode=0o700, exist_ok=True)
    return file_lock(os.path.join(data, LOCK_FILE), timeout=timeout)


def building(data: str) -> bool:
    try:
        with build_lock(data, timeout=0):
            return False
    except TimeoutError:
        return True
    except OSError:
        return False


def _build_locked(data: str, root: str, python: str, log: int) -> None:
    import subprocess

    from context_memory.core.fsutil import atomic_write, remove

    venv = venv_dir(data)
    remove(os.path.join(venv, STAMP_FILE))  # stale from here on, whatever happens
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    steps = (
        [python, "-m", "venv", "--clear", venv],
        [os.path.join(venv, "bin", "python"), "-m", "pip", "install", "--quiet", *DEPENDENCIES],
    )
    for argv in steps:
        try:
            done = subprocess.run(
                argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                timeout=PIP_TIMEOUT_SECONDS, check=False,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise BuildError(f"{argv[0]} {argv[2]} failed: {exc}") from None
        if done.returncode != 0:
            raise BuildError(
                f"`{' '.join(argv[:4])} ...` exited {done.returncode}; see "
                f"{os.path.join(data, BUILD_LOG)}. On Debian/Ubuntu install python3-venv; "
                "without network, point pip at a wheel folder (PIP_FIND_LINKS)"
            )
    atomic_write(os.path.join(venv, STAMP_FILE), wanted_stamp(root))


def build(
    data: str,
    root: str | None = None,
    python: str | None = None,
    wait: float = BUILD_WAIT_SECONDS,
) -> str:
    """Build the venv unless it is ready; returns its site-packages. Waits up to ``wait``
    seconds for another builder (then uses what it built). Raises BuildError."""
    from context_memory.setup.platforms import unsupported

    refusal = unsupported()
    if refusal is not None:
        raise BuildError(refusal)  # before any folder is made
    root = root or plugin_root()
    found = ready(data, root)
    if found is not None:
        return found
    lock = build_lock(data, timeout=wait)
    try:
        lock.acquire(poll_interval=0.2)
    except TimeoutError:
        raise BuildError(
            f"another process has been building {venv_dir(data)} for {wait:.0f} s; try again later"
        ) from None
    try:
        found = ready(data, root)  # the other builder may have finished it
        if found is not None:
            return found
        log = os.open(
            os.path.join(data, BUILD_LOG), os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW,
            0o600,
        )  # fmt: skip
        try:
            os.write(log, f"{BUILD_MARK} {venv_dir(data)} (pid {os.getpid()})\n".encode())
            _build_locked(data, root, python or sys.executable, log)
        finally:
            os.close(log)
    finally:
        lock.release()
    found = ready(data, root)
    if found is None:
        raise BuildError(f"{venv_dir(data)} was built but is not usable; see {BUILD_LOG}")
    return found


def start_background_build(data: str, root: str | None = None) -> bool:
    """Spawn a detached build when the venv is not ready and nobody builds it; True when
    one was started. Never waits for it."""
    from context_memory.setup.platforms import unsupported

    root = root or plugin_root()
    if unsupported() is not None or ready(data, root) is not None or building(data):
        return False
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = os.path.join(root, "hooks")
    env["CLAUDE_PLUGIN_DATA"] = data
    subprocess.Popen(
        [sys.executable, "-m", "context_memory.setup.plugin.venv", "build"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=data,
        start_new_session=True,  # not in the hook's process group: the hook returns at once
        close_fds=True,
    )
    return True


def main(argv: list[str] | None = None) -> int:
    """``python -m context_memory.setup.plugin.venv build``: what the background start runs."""
    args = sys.argv[1:] if argv is None else argv
    if args != ["build"]:
        print("usage: python -m context_memory.setup.plugin.venv build", file=sys.stderr)
        return 2
    data = data_dir()
    try:
        build(data)
    except (BuildError, OSError) as exc:
        print(f"{PREFIX} plugin virtualenv: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
