"""Where the toolkit runs: Linux and other POSIX systems. Native Windows cannot run it (the
hooks lock files with ``fcntl`` and the launchers are POSIX ``#!`` and ``sh`` scripts), so
the installers (``./install``, ``ctx-install``) and the plugin's dispatcher and virtualenv
build refuse it in one line, before they change anything. WSL is Linux here.

Standard library only, and cheap: the plugin's hooks ask before every prompt.
"""

from __future__ import annotations

import os
import sys

NATIVE_WINDOWS = (
    "native Windows is not supported (the hooks need POSIX file locks, fcntl, and POSIX "
    "launchers); nothing was changed. Use WSL (Windows Subsystem for Linux) and install "
    "context-memory there"
)


def unsupported(platform: str | None = None, os_name: str | None = None) -> str | None:
    """Why the toolkit cannot run on this system (one line, for people), or None when it
    can. ``platform`` and ``os_name`` default to ``sys.platform`` and ``os.name``."""
    platform = sys.platform if platform is None else platform
    os_name = os.name if os_name is None else os_name
    if platform == "win32" or os_name == "nt":
        return NATIVE_WINDOWS
    return None
