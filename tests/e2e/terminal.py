"""Drive the real client's interactive terminal (a pseudo-terminal) against the fake API.

``claude -p`` never shows a permission prompt, so what a user does there (reject a call and
type why) and what the terminal shows them (``Stop says: ...``) need the interactive client.
``Terminal`` starts it in a pty in the test's throwaway HOME, with onboarding, the folder's
trust dialog and the API key's approval answered in ``~/.claude.json`` beforehand, and reads
what it draws. Screens are compared with ANSI sequences and spaces taken out: the client
moves the cursor instead of writing spaces, so the words of a line arrive without them; and
it redraws only the cells that change, so a text is also looked for on each screen a terminal
emulator renders (vt.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import termios
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .vt import Rendered

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .conftest import ClaudeRunner

ANSI = re.compile(
    r"\x1b\[[0-9;?<>=]*[A-Za-z~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]"
)
ROWS, COLUMNS = 50, 200
KEY_DOWN = b"\x1b[B"
KEY_TAB = b"\t"
KEY_ENTER = b"\r"


def squeezed(text: str) -> str:
    """``text`` without ANSI sequences and whitespace (how needles are compared)."""
    return "".join(ANSI.sub("", text).split())


def trust_home(home: Path, project: Path, api_key: str = "test") -> None:
    """Answer the first-run questions of an interactive client in ``home``'s .claude.json:
    onboarding done, ``project`` trusted, the test API key approved."""
    config = home / ".claude.json"
    data = json.loads(config.read_text(encoding="utf-8")) if config.exists() else {}
    data.update(
        hasCompletedOnboarding=True,
        theme="dark",
        customApiKeyResponses={"approved": [api_key[-20:]], "rejected": []},
    )
    data.setdefault("projects", {}).setdefault(str(project), {}).update(
        hasTrustDialogAccepted=True, allowedTools=[]
    )
    config.write_text(json.dumps(data), encoding="utf-8")


class Terminal:
    """One interactive client in a pty; everything it drew so far is in ``screen``."""

    def __init__(self, runner: ClaudeRunner, args: Sequence[str] = ()) -> None:
        trust_home(runner.home, runner.project_dir)
        env = runner.child_env({"TERM": "xterm-256color"})
        argv = [str(runner.claude_bin), *args]
        pid, fd = pty.fork()
        if pid == 0:  # the child: the client, in the project, in its own session (pty.fork)
            try:
                os.chdir(runner.project_dir)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self._chunks: list[str] = []
        self._rendered = Rendered(COLUMNS, ROWS)
        self._frame_at: list[int] = []  # the screen's length after each rendered frame

    @property
    def screen(self) -> str:
        return "".join(self._chunks)

    def _read(self, seconds: float) -> None:
        ready, _, _ = select.select([self.fd], [], [], seconds)
        if ready:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            if data:
                self._chunks.append(data.decode("utf-8", "replace"))
                self._rendered.feed(data)
                self._frame_at.append(len(self.screen))

    def wait_for(self, needle: str, timeout: float = 45.0, since: int = 0) -> int:
        """Read until ``needle`` (compared squeezed) is drawn after offset ``since`` of the
        screen; return the offset where the screen stood when it appeared. Fails the test
        with the end of the screen when it does not come."""
        want = squeezed(needle)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            first = next((i for i, at in enumerate(self._frame_at) if at > since), None)
            drawn = first is not None and self._rendered.shows(needle, first)
            if drawn or want in squeezed(self.screen[since:]):
                return len(self.screen)
            self._read(0.2)
        pytest.fail(
            f"the terminal never showed {needle!r}; it ends with:\n{squeezed(self.screen)[-3000:]}"
        )

    def settle(self, seconds: float = 0.5) -> None:
        """Read for ``seconds`` (the client redraws after each key)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._read(0.05)

    def press(self, *keys: bytes, pause: float = 0.4) -> None:
        for key in keys:
            os.write(self.fd, key)
            self.settle(pause)

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode("utf-8"))
        self.settle(0.5)

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)  # its own session: the client and its hooks
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        with contextlib.suppress(OSError):
            os.close(self.fd)
