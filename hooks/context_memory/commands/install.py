"""``ctx-install``: register the hooks of an installed package (pipx, uv tool, pip).

``pipx install`` or ``uv tool install`` puts the commands on PATH but cannot touch Claude
Code's settings. This command runs the same installer as ``./install`` for the virtualenv
it is itself installed in (``sys.prefix``): hooks, optional status line, crontab line and
pinned digest, and ``ctx-install --uninstall`` removes them again (then ``pipx uninstall
context-memory``). It never creates or deletes a virtualenv: pipx or uv owns it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from context_memory.core import exit_codes
from context_memory.setup.install import cli as installer

PROG = "ctx-install"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a == "--venv" or a.startswith("--venv=") for a in args):
        print(f"{PROG}: error: --venv is not an option here: ctx-install registers the "
              f"virtualenv it runs from ({sys.prefix})", file=sys.stderr)  # fmt: skip
        return exit_codes.USAGE
    if "--purge" in args:
        print(f"{PROG}: error: --purge is not an option here: the virtualenv belongs to pipx "
              "or uv; run ctx-install --uninstall, then pipx uninstall context-memory (or uv "
              "tool uninstall context-memory)", file=sys.stderr)  # fmt: skip
        return exit_codes.USAGE
    if sys.prefix == sys.base_prefix:
        print(f"{PROG}: error: {sys.executable} is not a virtualenv's python; install "
              "context-memory with pipx install or uv tool install (or use ./install from "
              "a checkout), then run ctx-install", file=sys.stderr)  # fmt: skip
        return exit_codes.FAILURE
    # pipx and uv put the commands on PATH with their own links: no links of ours.
    return installer.main([*args, "--venv", sys.prefix, "--no-links"], prog=PROG)


if __name__ == "__main__":
    sys.exit(main())
