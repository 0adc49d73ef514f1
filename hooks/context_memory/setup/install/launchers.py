"""The programs ``./install`` registers: our own launchers in place of pip's wrappers, a
``#!<venv>/bin/python -IS`` script (or a ``sh`` one when that path cannot go on a ``#!``
line) that appends the virtualenv's site-packages and the folders of its plain ``.pth``
lines itself (no ``site``) and answers ``--version`` without running the command: the
installer's check that each registered command runs. Why, and what ``-IS`` keeps out:
docs/install.md. Standard library only (the system python runs it).
"""

from __future__ import annotations

import configparser
import contextlib
import glob
import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from context_memory.core.fsutil import atomic_write
from context_memory.setup.install.options import Step
from context_memory.setup.install.settings_edit import command_for
from context_memory.setup.install.venv import InstallError, remove_empty, remove_files

# Linux reads 127 bytes of a #! line before 5.1 (256 since): stay within the smaller.
MAX_SHEBANG_BYTES = 127
# Isolated (-I) and without the site module (-S): docs/install.md. One word on a
# #! line (Linux passes what follows the interpreter as one argument).
ISOLATION_FLAGS = "-IS"
VERSION_OPTION = "--version"
VERIFY_TIMEOUT_SECONDS = 60
MARK = "# context-memory launcher"


def _dist_info(venv: Path | str) -> str:
    """The installed package's ``entry_points.txt`` in the virtualenv's site-packages."""
    site = os.path.join(glob.escape(os.fspath(venv)), "lib", "python3*", "site-packages")
    found = sorted(glob.glob(os.path.join(site, "context_memory-*.dist-info", "entry_points.txt")))
    if len(found) != 1:
        raise InstallError(
            f"expected one installed context-memory in {venv}, found {len(found)}. "
            "Run ./install again (it reinstalls the package)."
        )
    return found[0]


def package_paths(venv: Path | str) -> list[str]:
    """What the launchers put on sys.path, as ``site`` would have: the site-packages holding
    the package, then the folders named by its plain ``.pth`` lines (an editable install's
    source folder). ``import`` lines of .pth files are not run (nor are they under -S)."""
    site_packages = os.path.dirname(os.path.dirname(_dist_info(venv)))
    paths = [site_packages]
    for pth in sorted(glob.glob(os.path.join(glob.escape(site_packages), "*.pth"))):
        try:
            with open(pth, encoding="utf-8") as handle:
                lines = handle.read(64 * 1024).splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for line in lines:
            line = line.rstrip()
            if not line or line.startswith(("#", "import ", "import\t")):
                continue
            folder = os.path.join(site_packages, line)
            if os.path.isdir(folder) and os.path.abspath(folder) not in paths:
                paths.append(os.path.abspath(folder))
    return paths


def entry_points(venv: Path | str) -> dict[str, str]:
    """``{command: "module:function"}`` from the installed package's ``entry_points.txt``
    (what pip made wrappers for), in name order."""
    found = _dist_info(venv)
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keep names as written
    parser.read(found, encoding="utf-8")
    if not parser.has_section("console_scripts"):
        raise InstallError(f"{found} lists no console scripts. Run ./install again.")
    return dict(sorted(parser.items("console_scripts")))


def sh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def launcher_text(python: str, command: str, target: str, paths: list[str]) -> str:
    """The launcher for ``command`` (``module:function``) run by the interpreter ``python``
    isolated, with ``paths`` (package_paths) appended to sys.path: a ``#!`` script when
    ``python`` can be the interpreter of a ``#!`` line as it is, else a ``sh`` script."""
    module, _, function = target.partition(":")
    names_ok = all(part.isidentifier() for part in [*module.split("."), function])
    if not (names_ok and command.replace("-", "_").isidentifier()):
        raise InstallError(f"unexpected entry point {command} = {target}")
    code = [
        *(f"sys.path.append({path!r})" for path in paths),
        f"from {module} import {function}",
        f'if sys.argv[1:] == ["{VERSION_OPTION}"]:',
        "    from context_memory import __version__",
        f'    sys.stdout.write("{command} " + __version__ + "\\n")',
        "    sys.exit(0)",
        f"sys.exit({function}())",
    ]
    shebang = f"#!{python} {ISOLATION_FLAGS}"
    if (
        len(shebang.encode("utf-8", "surrogateescape")) <= MAX_SHEBANG_BYTES
        and os.path.isabs(python)
        and not any(ch.isspace() or not ch.isprintable() for ch in python)
    ):
        return "\n".join([shebang, MARK, "import sys", *code]) + "\n"
    # -c puts '' (the current folder) first on sys.path; take it off before any import.
    # "$0" becomes sys.argv[0], as it is for a #! script.
    # (Not there under -P or PYTHONSAFEPATH, hence the test.)
    lines = ["import sys", 'if sys.path[:1] == [""]: del sys.path[0]', "del sys.argv[0]", *code]
    body = sh_quote("\n".join(lines))
    run = f'exec {sh_quote(python)} {ISOLATION_FLAGS} -c {body} "$0" "$@"'
    shell = MARK + " (a shell script: the interpreter's path cannot go on a #! line)"
    return "\n".join(["#!/bin/sh", shell, run]) + "\n"


def write_launchers(venv: Path | str, bin_dir: Path | str) -> list[str]:
    """Write our launchers (atomically, mode 0755) into ``bin_dir`` (InstallOptions.bin_dir:
    which folder, and why). Each names the virtualenv's python by its absolute path and
    appends its site-packages itself, so it needs no ``site`` module to know its virtualenv.
    Returns the commands whose file changed."""
    python = os.path.join(os.path.abspath(venv), "bin", "python")
    target_dir = os.path.abspath(bin_dir)
    os.makedirs(target_dir, exist_ok=True)
    changed = []
    paths = package_paths(venv)
    for command, target in entry_points(venv).items():
        data = launcher_text(python, command, target, paths).encode("utf-8", "surrogateescape")
        path = os.path.join(target_dir, command)
        with contextlib.suppress(OSError), open(path, "rb") as handle:
            if handle.read() == data and os.access(path, os.X_OK):
                continue  # already this launcher
        atomic_write(path, data, mode=0o755)
        changed.append(command)
    return changed


def verify_commands(bin_dir: Path, programs: Sequence[str]) -> None:
    """Run each program once as Claude Code will, ``sh -c '<command as registered>'``, with
    ``--version`` (which our launchers answer without doing anything); raise InstallError
    naming the first that does not run."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for name in programs:
        command = command_for(bin_dir, name)
        try:
            done = subprocess.run(
                ["/bin/sh", "-c", f"{command} {VERSION_OPTION}"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                env=environment,
                timeout=VERIFY_TIMEOUT_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            problem = f"it did not finish in {VERIFY_TIMEOUT_SECONDS} s"
        else:
            out = done.stdout.decode("utf-8", "replace")
            if done.returncode == 0 and out.startswith(f"{name} "):
                continue
            err = " ".join(done.stderr.decode("utf-8", "replace").split())[-300:]
            problem = f"exit status {done.returncode}" + (f": {err}" if err else "")
        raise InstallError(
            f"the command {command} does not run through sh as Claude Code will run it "
            f"({problem}), so the settings were not changed. Run ./install again (it "
            "reinstalls the virtualenv); if that does not help, set CTX_VENV to a folder "
            "whose path has only plain characters."
        )


@dataclass(frozen=True)
class PreparePrograms(Step):
    """The installer's first step (not planned for a dry run): our launchers in ``bin_dir``
    (not pip's wrappers); then each program that the settings will name must run through
    sh, as the client runs it, before anything of the user's is changed."""

    venv: Path
    programs: tuple[str, ...]
    bin_dir: Path  # InstallOptions.bin_dir

    def run(self, would: bool) -> None:
        if would:
            return
        write_launchers(self.venv, self.bin_dir)
        verify_commands(self.bin_dir, self.programs)


def our_launchers(bin_dir: Path) -> list[str]:
    """The names (sorted) of our launchers in ``bin_dir`` (files whose second line is the
    mark); links and other files are not."""
    try:
        names = sorted(os.listdir(bin_dir))
    except OSError:
        return []
    found = []
    for name in (n for n in names if not (bin_dir / n).is_symlink()):
        try:
            with open(bin_dir / name, "rb") as handle:
                head = handle.read(4096).split(b"\n")
        except OSError:
            continue
        if len(head) > 1 and head[1].startswith(MARK.encode()):
            found.append(name)
    return found


@dataclass(frozen=True)
class RemoveLaunchers(Step):
    """The installer's step for --uninstall of ctx-install: our launchers' own folder
    (venv.launcher_dir_for) and its parent when that is empty then; anything else in them
    stays."""

    bin_dir: Path

    def run(self, would: bool) -> None:
        remove_files(self.bin_dir, our_launchers(self.bin_dir), "launchers", would)
        # <venv>/context-memory is ours too; a folder something else is in stays.
        if not would and remove_empty(self.bin_dir):
            remove_empty(self.bin_dir.parent)
