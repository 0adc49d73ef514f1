"""The real client in a terminal: ``claude`` (no ``-p``) in a pseudo-terminal, driven by
keys, for what only an interactive session does (the permission prompt, where the user
rejects a call and types feedback; protocol file section 11).

Behind the local fake API the client cannot reach auto mode's server-side check: it says
so once ("Enter to stay in auto mode") and then asks for each such call with the usual
prompt (``Do you want to proceed? No / Yes``, "Tab to amend"). ``Terminal`` reads the
screen as plain text (escape sequences dropped, spaces ignored when matching) and as a
terminal emulator renders it (vt.py), and waits for what the client shows, never for a
fixed time.
"""

from __future__ import annotations

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
from collections.abc import Mapping
from pathlib import Path

from .vt import Rendered

ROWS, COLUMNS = 40, 120
WAIT_SECONDS = 60.0
WAIT_RETRY = 8.0
_ESCAPES = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]"  # CSI: cursor moves, colours, modes
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: titles, links
    rb"|\x1b[()][0-9A-Za-z]|\x1b[=>78]"  # charsets, keypad, cursor save
)


def trust_project(home: Path, project: Path, api_key: str) -> None:
    """What a first interactive start would ask, answered: onboarding done, the project
    trusted, the API key from the environment approved (~/.claude.json)."""
    path = home / ".claude.json"
    config = json.loads(path.read_text()) if path.exists() else {}
    config.update(hasCompletedOnboarding=True, theme="dark")
    config["customApiKeyResponses"] = {"approved": [api_key[-20:]], "rejected": []}
    projects = config.setdefault("projects", {})
    projects.setdefault(str(project), {}).update(
        hasTrustDialogAccepted=True, hasCompletedProjectOnboarding=True
    )
    path.write_text(json.dumps(config, indent=2))


class Terminal:
    """One interactive client in a pseudo-terminal of its own process group."""

    def __init__(self, argv: list[str], *, cwd: Path, env: Mapping[str, str]) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: becomes the client
            try:
                os.chdir(cwd)
                os.execve(argv[0], argv, {**env, "TERM": "xterm-256color"})
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.raw = b""
        self._rendered = Rendered(COLUMNS, ROWS)
        self._since = 0  # the first rendered screen wait_for and seen look at (forget)

    def _read(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the client exited
                return
            if not chunk:
                return
            self.raw += chunk
            self._rendered.feed(chunk)

    @property
    def screen(self) -> str:
        """Everything the client printed, as plain text."""
        return _ESCAPES.sub(b"", self.raw).decode("utf-8", errors="replace")

    def seen(self, text: str) -> bool:
        """Whether the output, or a screen it rendered (vt.py: the client redraws only the
        cells that change), shows ``text``, spaces ignored."""
        if "".join(text.split()) in "".join(self.screen.split()):
            return True
        return self._rendered.shows(text, self._since)

    def wait_for(self, *texts: str, timeout: float = WAIT_SECONDS) -> str:
        """The first of ``texts`` the screen shows (spaces ignored); fails with the screen's
        end when none shows within ``timeout``."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for text in texts:
                if self.seen(text):
                    return text
            self._read(0.3)
        raise AssertionError(
            f"the client never showed {texts!r}; screen ends:\n{self.screen[-3000:]}"
        )

    def settle(self, quiet: float = 1.0, longest: float = 3.0) -> None:
        """Wait until the client has printed nothing for ``quiet`` seconds, or ``longest``
        (its spinners never stop): a dialog takes keys only once it is drawn."""
        end = time.monotonic() + longest
        while time.monotonic() < end:
            before = len(self.raw)
            self._read(quiet)
            if len(self.raw) == before:
                return

    def answer(self, keys: str, until: str, *, unless: str, tries: int = 3) -> None:
        """Type ``keys`` until ``until`` shows: again when it has not within WAIT_RETRY
        seconds (the keys came before the dialog took them), never once ``unless`` was
        drawn after them (the keys would answer that instead)."""
        for _ in range(tries):
            self.settle()
            mark = len(self.raw)
            self.type(keys)
            end = time.monotonic() + WAIT_RETRY
            while time.monotonic() < end and not self.seen(until):
                self._read(0.3)
            if self.seen(until):
                return
            later = _ESCAPES.sub(b"", self.raw[mark:]).decode("utf-8", errors="replace")
            if "".join(unless.split()) in "".join(later.split()):
                break
        raise AssertionError(
            f"the client never showed {until!r}; screen ends:\n{self.screen[-3000:]}"
        )

    def type(self, keys: str, settle: float = 0.5) -> None:
        os.write(self.fd, keys.encode())
        self._read(settle)

    def forget(self) -> None:
        """Drop what was read so far (the next wait_for sees only what comes after)."""
        self.raw = b""
        self._since = len(self._rendered.frames)

    def close(self) -> None:
        """End the client and every process it started (hooks included)."""
        try:
            os.killpg(self.pid, signal.SIGTERM)
        except OSError:
            pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            done, _ = os.waitpid(self.pid, os.WNOHANG)
            if done:
                break
            self._read(0.2)
        else:
            os.killpg(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)
