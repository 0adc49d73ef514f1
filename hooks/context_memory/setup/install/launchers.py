"""The programs ``./install`` registers: our own minimal launchers, not pip's wrappers.

pip writes a console-script wrapper per entry point, and its text depends on pip's version:
the pip bundled with Python 3.10 to 3.12 (23.x) writes ``import re`` into every one, which
costs a hook about half its start-up time before every prompt. Paths with spaces get a
``#!/bin/sh`` trampoline whose quoting breaks on ``$``, backticks and quotes. So after pip
has installed the package, the installer replaces each wrapper in ``<venv>/bin`` with a
launcher of its own (same name, same place, so PATH links and settings stay the same)::

    #!/home/me/.local/share/context-memory/venv/bin/python
    import sys
    from context_memory.handlers.budget import main
    ...
    sys.exit(main())

When the interpreter's path cannot go on a ``#!`` line (whitespace, control characters, or
longer than the kernel reads), the launcher is a POSIX ``sh`` script that execs the
interpreter with the same code in ``-c`` (the path in single quotes: nothing in it is
special there). Every launcher answers ``--version`` without running the command, which
is how the installer checks that each registered command really runs.

Standard library only: the installer runs this module with the system python.
"""

from __future__ import annotations

import configparser
import glob
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

# Linux reads 127 bytes of a #! line before 5.1 (256 since): stay within the smaller.
MAX_SHEBANG_BYTES = 127
VERSION_OPTION = "--version"
MARK = "# context-memory launcher"


class LauncherError(Exception):
    """The virtualenv's entry points cannot be found; ``str()`` says how to fix it."""


def entry_points(venv: Path | str) -> dict[str, str]:
    """``{command: "module:function"}`` from the installed package's ``entry_points.txt``
    (what pip made wrappers for), in name order."""
    pattern = os.path.join(
        glob.escape(os.fspath(venv)),
        "lib",
        "python3*",
        "site-packages",
        "context_memory-*.dist-info",
        "entry_points.txt",
    )
    found = sorted(glob.glob(pattern))
    if len(found) != 1:
        raise LauncherError(
            f"expected one installed context-memory in {venv}, found {len(found)}. "
            "Run ./install again (it reinstalls the package)."
        )
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keep names as written
    parser.read(found[0], encoding="utf-8")
    if not parser.has_section("console_scripts"):
        raise LauncherError(f"{found[0]} lists no console scripts. Run ./install again.")
    return dict(sorted(parser.items("console_scripts")))


def shebang_safe(python: str) -> bool:
    """Whether ``python`` can be the interpreter of a ``#!`` line as it is."""
    data = python.encode("utf-8", "surrogateescape")
    return (
        len(data) + 2 <= MAX_SHEBANG_BYTES
        and os.path.isabs(python)
        and not any(ch.isspace() or not ch.isprintable() for ch in python)
    )


def _python_code(command: str, target: str) -> list[str]:
    module, _, function = target.partition(":")
    names_ok = all(part.isidentifier() for part in [*module.split("."), function])
    if not (names_ok and command.replace("-", "_").isidentifier()):
        raise LauncherError(f"unexpected entry point {command} = {target}")
    return [
        "import sys",
        f"from {module} import {function}",
        f'if sys.argv[1:] == ["{VERSION_OPTION}"]:',
        "    from context_memory import __version__",
        f'    sys.stdout.write("{command} " + __version__ + "\\n")',
        "    sys.exit(0)",
        f"sys.exit({function}())",
    ]


def sh_quote(text: str) -> str:
    """``text`` as one POSIX shell word in single quotes."""
    return "'" + text.replace("'", "'\"'\"'") + "'"


def launcher_text(python: str, command: str, target: str) -> str:
    """The launcher for ``command`` (``module:function``) run by the interpreter ``python``."""
    code = _python_code(command, target)
    if shebang_safe(python):
        return "\n".join([f"#!{python}", MARK, *code]) + "\n"
    # -c puts '' (the current folder) first on sys.path; take it off before any import.
    # "$0" becomes sys.argv[0], as it is for a #! script.
    # (Not there under -P or PYTHONSAFEPATH, hence the test.)
    body = "\n".join(
        ["import sys", 'if sys.path[:1] == [""]: del sys.path[0]', "del sys.argv[0]", *code[1:]]
    )
    return (
        "\n".join(
            [
                "#!/bin/sh",
                MARK + " (a shell script: the interpreter's path cannot go on a #! line)",
                f'exec {sh_quote(python)} -c {sh_quote(body)} "$0" "$@"',
            ]
        )
        + "\n"
    )


def write_launchers(venv: Path | str) -> list[str]:
    """Replace the wrappers in ``<venv>/bin`` with our launchers (atomically, mode 0755);
    returns the commands whose file changed."""
    bin_dir = os.path.join(os.path.abspath(os.fspath(venv)), "bin")
    python = os.path.join(bin_dir, "python")
    changed = []
    for command, target in entry_points(venv).items():
        text = launcher_text(python, command, target)
        path = os.path.join(bin_dir, command)
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as handle:
                if handle.read() == text and os.access(path, os.X_OK):
                    continue
        except OSError:
            pass
        tmp = os.path.join(bin_dir, f".{command}.context-memory.tmp")
        with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as handle:
            handle.write(text)
        os.chmod(tmp, 0o755)
        os.replace(tmp, path)
        changed.append(command)
    return changed
