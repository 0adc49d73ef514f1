"""Where the toolkit runs: Linux and other POSIX systems. Native Windows cannot run it
(NATIVE_WINDOWS says why), so the installers (``./install``, ``ctx-install``) and the
plugin's dispatcher and virtualenv build refuse it in one line, before they change
anything. WSL is Linux here. And the home folder every part of setup/ starts from (the
client's config folder: core/client_config).

Standard library only, and cheap: the plugin's hooks ask before every prompt.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

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


def home(environ: Mapping[str, str]) -> str:
    return environ.get("HOME") or os.path.expanduser("~")
