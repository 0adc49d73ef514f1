"""What a terminal shows, as a terminal emulator (pyte) renders it: the interactive client
redraws only the cells that change (it moves the cursor over the letters already there), so
the bytes it writes do not hold its words in one run ("Tab to amend" arrives as "Tab" and
"amend" when "to" was drawn before). The pty driver (terminal.py) looks for a text in the
raw output and in each rendered screen."""

from __future__ import annotations

import pyte


def squeezed_text(text: str) -> str:
    """``text`` without whitespace (the client moves the cursor instead of writing spaces)."""
    return "".join(text.split())


class Rendered:
    """The screens a pty's output draws, one after each chunk read, whitespace removed."""

    def __init__(self, columns: int, rows: int) -> None:
        self._screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self._screen)
        self.frames: list[str] = []

    def feed(self, data: bytes) -> None:
        self._stream.feed(data)
        self.frames.append(squeezed_text("".join(self._screen.display)))

    def shows(self, text: str, since: int = 0) -> bool:
        """Whether a screen drawn since frame ``since`` shows ``text`` (spaces ignored)."""
        want = squeezed_text(text)
        return any(want in frame for frame in self.frames[since:])
