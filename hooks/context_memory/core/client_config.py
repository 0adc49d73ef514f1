"""Claude Code's config folder: ``$CLAUDE_CONFIG_DIR`` (a leading ``~`` expanded), else
``~/.claude``. Transcripts are under its ``projects/``, plugins under ``plugins/``, the user's
settings in ``settings.json`` (docs/claude-code-protocol.md). The one rule: the transcript
finder, the auto-memory folder, the installers and ctx-doctor ask here.

Light: ``core.lightos`` only (the prompt path finds transcripts through it).
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core import lightos

if TYPE_CHECKING:
    from collections.abc import Mapping

CONFIG_DIR_ENV = "CLAUDE_CONFIG_DIR"


def claude_config_dir(environ: Mapping[str, str] | None = None) -> str:
    """The client's config folder for ``environ`` (default: this process's environment):
    its home is ``HOME`` there."""
    env = lightos.environ() if environ is None else environ
    home = (env.get("HOME") or lightos.expanduser("~")).rstrip("/")  # "" for "/"
    configured = env.get(CONFIG_DIR_ENV)
    if not configured:
        return lightos.join(home or "/", ".claude")
    if configured == "~" or configured.startswith("~/"):
        return (home + configured[1:]) or "/"
    return lightos.expanduser(configured)  # "~user/...", or a path as it is
