"""The real client in a terminal: ``claude`` (no ``-p``) in a pseudo-terminal against the
fake API, driven by keys, for what only an interactive session does (the permission
prompt, where the user rejects a call and types why; what the terminal shows them, such as
``Stop says: ...``; protocol file section 11).

``Terminal`` starts the client in the test's throwaway HOME, with onboarding, the folder's
trust dialog and the API key's approval answered in ``~/.claude.json`` beforehand, and
reads what it draws two ways: as plain text (escape sequences dropped, whitespace ignored
when matching: the client moves the cursor instead of writing spaces) and as a terminal
emulator renders it (vt.py: it redraws only the cells that change, so a text is also looked
for on each rendered screen). It waits for what the client shows, never for a fixed time;
a ``Mark`` taken before a key makes a wait look only at what was drawn after it.

Behind the local fake API the client's auto mode cannot run its server-side check: it says
so once ("Enter to stay in auto mode") and then asks for each such call with the usual
prompt (``Do you want to proceed? ... No``, "Tab to amend"); ``--permission-mode default``
asks that prompt straight away.
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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .conftest import DEFAULT_MODEL
from .vt import Rendered
from .vt import squeezed_text as squeezed

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from .conftest import ClaudeRunner

ROWS, COLUMNS = 50, 200
WAIT_SECONDS = 60.0
WAIT_RETRY = 8.0
CLOSE_SECONDS = 10.0
KEY_DOWN = "\x1b[B"
KEY_RIGHT = "\x1b[C"
KEY_TAB = "\t"
KEY_SHIFT_TAB = "\x1b[Z"
KEY_ENTER = "\r"
KEY_ESC = "\x1b"
CAPTURE_SECONDS = 60.0  # what a test waits for the Stop hook's records at most
_ESCAPES = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]"  # CSI: cursor moves, colours, modes
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: titles, links
    rb"|\x1b[()][0-9A-Za-z]|\x1b[=>78]"  # charsets, keypad, cursor save
)


def plain(raw: bytes) -> str:
    """What the client printed, as text: escape sequences dropped."""
    return _ESCAPES.sub(b"", raw).decode("utf-8", errors="replace")


def trust_home(home: Path, project: Path, api_key: str) -> None:
    """What a first interactive start would ask, answered in ``home``'s .claude.json:
    onboarding done, ``project`` trusted, ``api_key`` (the one in the client's environment)
    approved."""
    path = home / ".claude.json"
    config = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    config.update(
        hasCompletedOnboarding=True,
        theme="dark",
        customApiKeyResponses={"approved": [api_key[-20:]], "rejected": []},
    )
    config.setdefault("projects", {}).setdefault(str(project), {}).update(
        hasTrustDialogAccepted=True, hasCompletedProjectOnboarding=True, allowedTools=[]
    )
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")


@dataclass(frozen=True)
class Mark:
    """A point in what the terminal drew: its bytes so far and its rendered screens so far."""

    raw: int
    frames: int


class Terminal:
    """One interactive client in a pseudo-terminal of its own process group (its hooks
    included); everything it drew so far is in ``screen``."""

    def __init__(
        self,
        runner: ClaudeRunner,
        args: Sequence[str] = (),
        *,
        env: Mapping[str, str] | None = None,
    ) -> None:
        child_env = runner.child_env({**(env or {}), "TERM": "xterm-256color"})
        trust_home(runner.home, runner.project_dir, child_env["ANTHROPIC_API_KEY"])
        argv = [str(runner.claude_bin), *args]
        pid, fd = pty.fork()
        if pid == 0:  # the child: the client, in the project, in its own session (pty.fork)
            try:
                os.chdir(runner.project_dir)
                os.execve(argv[0], argv, child_env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.raw = b""
        self._rendered = Rendered(COLUMNS, ROWS)

    @property
    def screen(self) -> str:
        """Everything the client printed, as plain text."""
        return plain(self.raw)

    def mark(self) -> Mark:
        """Where the terminal stands now (for ``wait_for(..., since=)``)."""
        return Mark(len(self.raw), len(self._rendered.frames))

    def _read(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], min(0.1, seconds))
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

    def seen(self, text: str, since: Mark | None = None) -> bool:
        """Whether the output, or a screen it rendered, shows ``text`` (whitespace ignored),
        counting only what was drawn after ``since``."""
        start = since or Mark(0, 0)
        if squeezed(text) in squeezed(plain(self.raw[start.raw :])):
            return True
        return self._rendered.shows(text, start.frames)

    def wait_for(
        self, *texts: str, timeout: float = WAIT_SECONDS, since: Mark | None = None
    ) -> str:
        """The first of ``texts`` the terminal shows after ``since``; fails the test with the
        end of the screen when none shows within ``timeout``."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for text in texts:
                if self.seen(text, since):
                    return text
            self._read(0.3)
        pytest.fail(f"the client never showed {texts!r}; screen ends:\n{self.screen[-3000:]}")

    def pause(self, seconds: float) -> None:
        """Read for ``seconds`` (the client redraws after each key)."""
        self._read(seconds)

    def settle(self, quiet: float = 1.0, longest: float = 3.0) -> None:
        """Wait until the client has printed nothing for ``quiet`` seconds, or ``longest``
        (its spinners never stop): a dialog takes keys only once it is drawn."""
        end = time.monotonic() + longest
        while time.monotonic() < end:
            before = len(self.raw)
            self._read(quiet)
            if len(self.raw) == before:
                return

    def type(self, keys: str, pause: float = 0.5) -> None:
        """Type ``keys`` (text or keys such as KEY_ENTER) at once, then read for ``pause``."""
        os.write(self.fd, keys.encode("utf-8"))
        self._read(pause)

    def send(self, text: str) -> None:
        """Type ``text`` and, once the client has drawn it, Enter: a prompt or an answer
        sent."""
        self.type(text)
        self.settle()
        self.type(KEY_ENTER)

    def press(self, *keys: str, pause: float = 0.4) -> None:
        """Press ``keys`` one after the other, reading for ``pause`` after each."""
        for key in keys:
            self.type(key, pause)

    def answer(self, keys: str, until: str, *, unless: str, tries: int = 3) -> None:
        """Type ``keys`` until ``until`` shows: again when it has not within WAIT_RETRY
        seconds (the keys came before the dialog took them), never once ``unless`` was
        drawn after them (the keys would answer that instead)."""
        for _ in range(tries):
            self.settle()
            mark = self.mark()
            self.type(keys)
            end = time.monotonic() + WAIT_RETRY
            while time.monotonic() < end and not self.seen(until):
                self._read(0.3)
            if self.seen(until):
                return
            if squeezed(unless) in squeezed(plain(self.raw[mark.raw :])):
                break
        pytest.fail(f"the client never showed {until!r}; screen ends:\n{self.screen[-3000:]}")

    def close(self) -> None:
        """End the client (SIGTERM, then SIGKILL after CLOSE_SECONDS) and every process of
        its group still running (hooks included)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGTERM)
        deadline = time.monotonic() + CLOSE_SECONDS
        while time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(self.pid, os.WNOHANG)[0] == 0:
                    self._read(0.2)
                    continue
            break
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        with contextlib.suppress(OSError):
            os.close(self.fd)


@contextlib.contextmanager
def session(
    runner: ClaudeRunner, api_key: str, *args: str, ready: str = "auto mode"
) -> Iterator[Terminal]:
    """The client started in a terminal with ``args`` (and the test's default model), once
    it shows ``ready`` (its permission mode's line); closed when the block ends, its screen
    still readable."""
    env = {"ANTHROPIC_API_KEY": api_key}
    terminal = Terminal(runner, ["--model", DEFAULT_MODEL, *args], env=env)
    try:
        terminal.wait_for(ready)
        yield terminal
    finally:
        terminal.close()


def decisions_log(project: Path) -> Path:
    """The project's decisions log, as capture writes it."""
    return project / ".working-state" / "decisions.jsonl"


def records_of(log: Path) -> list[dict[str, object]]:
    """The records of a decisions log, in order ([] before the first is written)."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]


def tool_result_texts(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The text of every ``tool_result`` block of a session's user rows, in order."""
    return [
        block["content"]
        for row in rows
        if row.get("type") == "user" and isinstance(row["message"]["content"], list)
        for block in row["message"]["content"]
        if block.get("type") == "tool_result"
    ]


def answering_row(rows: Sequence[Mapping[str, Any]], call_id: str) -> Mapping[str, Any]:
    """The one user row whose first block is the result of the call ``call_id``."""
    (row,) = [
        row
        for row in rows
        if row.get("type") == "user"
        and isinstance(row["message"]["content"], list)
        and row["message"]["content"][0].get("tool_use_id") == call_id
    ]
    return row


def wait_for_records(log: Path, terminal: Terminal, count: int = 1) -> list[dict[str, object]]:
    """The log's records once it holds ``count`` (the Stop hook runs after the turn),
    reading the screen meanwhile; fails the test with the screen's end after
    CAPTURE_SECONDS."""
    deadline = time.monotonic() + CAPTURE_SECONDS
    while time.monotonic() < deadline:
        found = records_of(log)
        if len(found) >= count:
            return found
        terminal.pause(0.5)  # keep reading the screen while the hooks run
    pytest.fail(
        f"{len(records_of(log))} of {count} records; screen ends:\n{terminal.screen[-3000:]}"
    )
