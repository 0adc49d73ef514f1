"""Where ./install puts things and the state of its private virtualenv: the default
virtualenv, the settings file for a project, the hash of this source tree and the plan
the install script follows (``--venv-plan``: skip, current, create, recreate, update).
Standard library only (the installer runs with the system python).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from context_memory.core.client_config import claude_config_dir
from context_memory.core.command_table import HOOKS
from context_memory.setup.platforms import home

PREFIX = "context-memory:"
STAMP_NAME = "context-memory.stamp"
# The folder name that marks ours: <data>/context-memory/venv (the default virtualenv) and
# <venv>/context-memory/bin (our launchers in a virtualenv that pipx or uv owns).
OWN_FOLDER_NAME = "context-memory"
# The programs the settings run as hooks, each once, in core/command_table.HOOKS's order.
HOOK_NAMES = tuple(dict.fromkeys(spec.command for spec in HOOKS))
# The source tree this module was loaded from: <repo>/hooks/context_memory/setup/install/.
REPO_ROOT = Path(__file__).resolve().parents[4]

# Venv states, as printed by ``--venv-plan`` for the install script.
PLAN_SKIP = "skip"  # --dry-run / --uninstall: the script must not touch the virtualenv
PLAN_CURRENT = "current"  # holds this exact source: no pip
PLAN_CREATE = "create"  # missing or empty folder
PLAN_RECREATE = "recreate"  # a virtualenv whose python no longer runs
PLAN_UPDATE = "update"  # a working virtualenv without this source: pip install


def say(text: str) -> None:
    print(f"{PREFIX} {text}")


def warn(text: str) -> None:
    """A warning of the installer (something left alone, or not done): one line on stderr."""
    print(f"{PREFIX} warning: {text}", file=sys.stderr)


class InstallError(Exception):
    """Refused; ``str()`` is the whole message for people."""


def remove_empty(folder: Path) -> bool:
    """Remove ``folder`` if it is empty (a folder of ours that something else may use too);
    whether it is gone."""
    try:
        folder.rmdir()
    except OSError:
        return False
    return True


def remove_files(folder: Path, names: Sequence[str], what: str, would: bool) -> None:
    """Delete ``names`` (files of ours) in ``folder`` and say how many ``what`` went
    (``would``: only say so)."""
    for name in () if would else names:
        (folder / name).unlink()
    if names:
        say(f"{'would remove' if would else 'removed'} {len(names)} {what} from {folder}")


def default_venv(environ: Mapping[str, str]) -> str:
    """``$CTX_VENV``, else ``${XDG_DATA_HOME:-$HOME/.local/share}/context-memory/venv``."""
    if environ.get("CTX_VENV"):
        return environ["CTX_VENV"]
    data_home = environ.get("XDG_DATA_HOME") or os.path.join(home(environ), ".local", "share")
    return os.path.join(data_home, OWN_FOLDER_NAME, "venv")


def running_venv() -> Path | None:
    """The virtualenv of the running interpreter, or None. ``sys.prefix`` says it only when
    the ``site`` module ran; our launchers run ``-S`` (then ``sys.prefix`` is the base
    Python's), so the virtualenv is also found as ``site`` finds it: the ``pyvenv.cfg``
    next to the interpreter's folder (``<venv>/bin/python`` -> ``<venv>``)."""
    if sys.prefix != sys.base_prefix and os.path.isfile(os.path.join(sys.prefix, "pyvenv.cfg")):
        return Path(os.path.abspath(sys.prefix))
    if sys.executable:
        folder = os.path.dirname(os.path.abspath(sys.executable))  # a link's folder: unresolved
        for candidate in (folder, os.path.dirname(folder)):
            if os.path.isfile(os.path.join(candidate, "pyvenv.cfg")):
                return Path(candidate)
    return None


def owned_by_installer(venv: Path) -> bool:
    """Whether ``venv`` is ./install's own virtualenv (its stamp): its ``bin`` is ours to
    rewrite. Without the stamp it is pipx's, uv's or the user's: never rewritten."""
    return (venv / STAMP_NAME).is_file()


def launcher_dir_for(venv: Path) -> Path:
    """Where ctx-install puts our launchers in a virtualenv it does not own: a folder of its
    own inside it (``pipx uninstall`` and ``uv tool uninstall`` delete it with the rest)."""
    return venv / OWN_FOLDER_NAME / "bin"


def settings_path_for(project: str | None, environ: Mapping[str, str]) -> Path:
    """``DIR/.claude/settings.json`` for ``--project DIR``; else the user settings file,
    ``$CLAUDE_CONFIG_DIR/settings.json`` or ``~/.claude/settings.json``."""
    if project is not None:
        return Path(os.path.abspath(project)) / ".claude" / "settings.json"
    return Path(os.path.abspath(claude_config_dir(environ))) / "settings.json"


def source_hash(repo: Path) -> str:
    """sha256 over ``pyproject.toml`` and the ``hooks/`` tree (paths and contents), leaving
    out build and bytecode litter (``__pycache__``, ``*.pyc``, ``*.egg-info``) that pip
    and Python write there themselves."""
    files = [repo / "pyproject.toml"]
    for folder, dirnames, filenames in os.walk(repo / "hooks"):
        dirnames[:] = [d for d in dirnames if d != "__pycache__" and not d.endswith(".egg-info")]
        files.extend(
            Path(folder, name) for name in filenames if not name.endswith((".pyc", ".pyo"))
        )
    digest = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(repo).as_posix()):
        digest.update(path.relative_to(repo).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def venv_plan(venv: Path, repo: Path) -> str:
    """What the install script must do to ``venv`` so it holds the source in ``repo``:
    PLAN_CURRENT, PLAN_CREATE, PLAN_RECREATE or PLAN_UPDATE. Raises InstallError for a
    folder that is not a virtualenv, and for a broken virtualenv that has no stamp (only
    ones made by ./install are ever recreated)."""
    if not venv.exists() or (venv.is_dir() and not any(venv.iterdir())):
        return PLAN_CREATE
    if not (venv / "pyvenv.cfg").is_file():
        raise InstallError(
            f"{venv} exists but is not a virtualenv (no pyvenv.cfg), so it is left alone. "
            "Set CTX_VENV to another folder, or remove that one, then run ./install again."
        )
    try:
        argv = [str(venv / "bin" / "python"), "-c", ""]
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, timeout=60, check=False)
        works = done.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        works = False
    if not works:
        if not owned_by_installer(venv):
            raise InstallError(
                f"{venv} is a virtualenv whose python does not run, and not one that ./install "
                "made, so it is left alone. Remove it or set CTX_VENV to another folder, then "
                "run ./install again."
            )
        return PLAN_RECREATE
    try:
        stamp = (venv / STAMP_NAME).read_text(encoding="utf-8").strip()
    except OSError:
        stamp = ""
    if stamp != source_hash(repo) or missing_programs(venv / "bin"):
        return PLAN_UPDATE
    return PLAN_CURRENT


def show_venv_plan(venv: Path) -> None:
    """A dry run of ./install: what the install script would do to the virtualenv (not
    for ctx-install, which has no checkout)."""
    if not (REPO_ROOT / "pyproject.toml").is_file():
        return
    said = {
        PLAN_CURRENT: f"the virtualenv {venv} is up to date; pip would be skipped",
        PLAN_CREATE: f"would create the virtualenv {venv} and pip-install context-memory into it",
        PLAN_RECREATE: f"would recreate the broken virtualenv {venv} and pip-install "
        "context-memory into it",
        PLAN_UPDATE: f"would pip-install this copy of context-memory into {venv}",
    }
    say(f"{said[venv_plan(venv, REPO_ROOT)]}")


def missing_programs(bin_dir: Path, names: Iterable[str] = HOOK_NAMES) -> list[Path]:
    """The programs of ``names`` that ``bin_dir`` lacks (or cannot execute)."""
    paths = [bin_dir / name for name in dict.fromkeys(names)]
    return [path for path in paths if not (path.is_file() and os.access(path, os.X_OK))]
