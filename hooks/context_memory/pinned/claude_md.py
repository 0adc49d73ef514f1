"""The ``@.working-state/pinned.md`` import line in a project's CLAUDE.md: added once,
removed cleanly, the file's own newlines kept.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.pinned.store import IMPORT_LINE

if TYPE_CHECKING:
    pass


# --------------------------------------------------------------------------- CLAUDE.md


def _newline_of(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _is_import(line: str) -> bool:
    return line.lstrip("\ufeff").strip() == IMPORT_LINE


def with_import_line(text: str | None) -> str | None:
    """CLAUDE.md with the import line added at the end; None when it is already there.

    The user's lines are kept byte for byte; the file's line ending (CRLF or LF) is used,
    and a file that did not end with a newline still does not.
    """
    if not text:
        return IMPORT_LINE + "\n"
    if any(_is_import(line) for line in text.splitlines()):
        return None
    newline = _newline_of(text)
    if text.endswith(("\n", "\r")):
        return text + IMPORT_LINE + newline
    return text + newline + IMPORT_LINE


def without_import_line(text: str) -> str | None:
    """CLAUDE.md without the import line (every copy of it); None when it is not there.
    Undoes with_import_line exactly, whatever the line ending."""
    lines = text.splitlines(True)
    kept = [line for line in lines if not _is_import(line)]
    if len(kept) == len(lines):
        return None
    if lines and _is_import(lines[-1]) and not lines[-1].endswith(("\n", "\r")) and kept:
        # The line was added to a file without a final newline: drop the one added with it.
        last = kept[-1]
        kept[-1] = last.rstrip("\r\n")
    result = "".join(kept)
    if text.startswith("\ufeff") and not result.startswith("\ufeff") and result:
        result = "\ufeff" + result
    return result
