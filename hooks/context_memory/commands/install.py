"""``ctx-install``: register the hooks of an installed package (pipx, uv tool, pip).

``pipx install`` or ``uv tool install`` puts the commands on PATH but cannot touch Claude
Code's settings. This command runs the same installer as ``./install`` for the virtualenv
it is itself installed in (found from its interpreter: see ``running_venv``): hooks,
optional status line, crontab line and pinned digest, and ``ctx-install --uninstall``
removes them again (then ``pipx uninstall context-memory``).

pipx and uv own their virtualenv and the wrappers in its ``bin``: ctx-install never
creates, deletes or rewrites any of that. The hooks run our own launchers (isolated,
quick to start: setup/install/launchers.py), written into a folder of their own,
``<venv>/context-memory/bin``, which ``--uninstall`` removes (and ``pipx uninstall`` would
anyway). Run from ./install's own virtualenv (its stamp), it does what ./install does.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from context_memory.core import exit_codes
from context_memory.setup import platforms
from context_memory.setup.install import cli as installer
from context_memory.setup.install.venv import launcher_dir_for, owned_by_installer, running_venv

PROG = "ctx-install"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    refusal = platforms.unsupported()
    if refusal is not None:
        print(f"{PROG}: error: {refusal}", file=sys.stderr)
        return exit_codes.FAILURE
    venv = running_venv()
    where = venv if venv is not None else sys.prefix
    if any(a == "--venv" or a.startswith("--venv=") for a in args):
        print(f"{PROG}: error: --venv is not an option here: ctx-install registers the "
              f"virtualenv it runs from ({where})", file=sys.stderr)  # fmt: skip
        return exit_codes.USAGE
    if "--purge" in args:
        print(f"{PROG}: error: --purge is not an option here: the virtualenv belongs to pipx "
              "or uv; run ctx-install --uninstall, then pipx uninstall context-memory (or uv "
              "tool uninstall context-memory)", file=sys.stderr)  # fmt: skip
        return exit_codes.USAGE
    if venv is None:
        print(f"{PROG}: error: {sys.executable} is not a virtualenv's python; install "
              "context-memory with pipx install or uv tool install (or use ./install from "
              "a checkout), then run ctx-install", file=sys.stderr)  # fmt: skip
        return exit_codes.FAILURE
    if owned_by_installer(venv):  # ./install's virtualenv: the same as ./install
        return installer.main([*args, "--venv", str(venv)], prog=PROG)
    # pipx and uv put the commands on PATH with their own links: no links of ours; and
    # their wrappers stay theirs: our launchers go in a folder of their own.
    return installer.main(
        [*args, "--venv", str(venv), "--no-links", "--launcher-dir", str(launcher_dir_for(venv))],
        prog=PROG,
    )


if __name__ == "__main__":
    sys.exit(main())
