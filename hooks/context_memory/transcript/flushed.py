"""Whether the client has written the turn a Stop hook is about, waiting a bounded time.

The client flushes the transcript before it runs the Stop hook, but for at most 2 s
(protocol file, section 1); on a loaded machine the turn's last rows (the user's tool
result, the reply) can still be in its write buffer when the hook reads the file, and what
they state is captured a turn late, or never when the session ends there (seen in the real
client, 2.1.332, under CI load). The Stop payload names the reply: ``last_assistant_message``
is the text of the turn's last assistant message. Until the file's tail holds its start,
the hook polls for the writer, at most WAIT_SECONDS; then it reads what is there (the next
Stop reads the rest from its position). Standard library only, bounded reads.
"""

from __future__ import annotations

import time

from context_memory import TYPE_CHECKING
from context_memory.transcript.rows import open_transcript

if TYPE_CHECKING:
    from collections.abc import Callable

WAIT_SECONDS = 3.0  # the client's own flush bound (2 s) and a margin
POLL_SECONDS = 0.05
TAIL_BYTES = 256 * 1024  # the reply's row is among the last rows the client wrote
MIN_NEEDLE = 8  # characters: a shorter start ("OK.") says nothing of which reply it is
MAX_NEEDLE = 60


def needle_of(reply: object) -> bytes | None:
    """The bytes of the reply's start as the client writes them inside its JSON row: its
    first line, up to the first character JSON escapes (a quote, a backslash, a control
    character), at most MAX_NEEDLE characters; None when shorter than MIN_NEEDLE (or no
    text): nothing to wait for."""
    if not isinstance(reply, str):
        return None
    start = reply.strip().split("\n", 1)[0]
    for at, char in enumerate(start):
        if char in '"\\' or ord(char) < 0x20:
            start = start[:at]
            break
    start = start[:MAX_NEEDLE].rstrip()
    if len(start) < MIN_NEEDLE:
        return None
    return start.encode("utf-8", "replace")


def tail_holds(path: str, needle: bytes) -> bool:
    """Whether the last TAIL_BYTES of the transcript at ``path`` hold ``needle``."""
    with open_transcript(path) as handle:
        size = handle.seek(0, 2)
        handle.seek(max(0, size - TAIL_BYTES))
        return needle in handle.read(TAIL_BYTES)


def wait_for_reply(
    path: str,
    reply: object,
    *,
    seconds: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """True once the transcript's tail holds the start of ``reply`` (at once when there is
    nothing to wait for: no reply text, or a file that cannot be read, which capture
    reports itself); False when ``seconds`` (WAIT_SECONDS) passed without it."""
    needle = needle_of(reply)
    if needle is None:
        return True
    deadline = clock() + (WAIT_SECONDS if seconds is None else seconds)
    while True:
        try:
            if tail_holds(path, needle):
                return True
        except OSError:
            return True
        if clock() >= deadline:
            return False
        sleep(POLL_SECONDS)
