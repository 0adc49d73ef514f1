"""The pieces of a text: lowercase runs of letters and digits. What the guard's index keys
and triggers are made of (guard/entries.py writes them, guard/index.py reads them), and
what a call is checked against before anything else: standard library only, no ``re``.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

# What a call's text is read up to (the matcher reads as much).
INPUT_MAX_CHARS = 64 * 1024
# The key of a group without pieces (a ruled-out name of punctuation only): every call.
ANY_CALL = "*"

# Every ASCII character that is not a letter or a digit separates two pieces.
_SEPARATORS = "".join(chr(c) for c in range(128) if not chr(c).isalnum())
_TO_SPACE = str.maketrans(_SEPARATORS, " " * len(_SEPARATORS))
# The shell's reading joins what quotes and backslashes split ("mom""ent", mom\ent).
_QUOTES = "'\"\\"
_JOINED = str.maketrans(
    "".join(c for c in _SEPARATORS if c not in _QUOTES),
    " " * (len(_SEPARATORS) - len(_QUOTES)),
    _QUOTES,
)


def pieces(text: str) -> list[str]:
    """The lowercase runs of letters and digits of ``text`` (non-ASCII characters stay in
    their piece), in order."""
    return text.lower().translate(_TO_SPACE).split()


class CallPieces:
    """The pieces of a call's texts (command, file path, text written), both as written
    and as the shell joins them; ``has(group)``: every piece of the group is there.

    Every word the matcher can compare (a shell word, a package name, a part of a path, a
    word of an edit) is made of such pieces, so an entry whose groups are all absent
    cannot match. Non-ASCII text is looked up by substring: a non-ASCII separator may
    sit inside a piece."""

    __slots__ = ("found", "texts")

    def __init__(self, tool_input: dict[str, Any]) -> None:
        texts: list[str] = []
        for value in tool_input.values():
            if isinstance(value, str):
                texts.append(value[:INPUT_MAX_CHARS].lower())
            elif isinstance(value, list):  # MultiEdit's edits
                for item in value[:100]:
                    if isinstance(item, dict):
                        texts.extend(
                            v[:INPUT_MAX_CHARS].lower() for v in item.values() if isinstance(v, str)
                        )
        found: set[str] = set()
        for text in texts:
            found.update(text.translate(_TO_SPACE).split())
            if "\\" in text or "'" in text or '"' in text:
                found.update(text.replace("\\\n", "").translate(_JOINED).split())
        self.found = found
        self.texts = [text for text in texts if not text.isascii()]

    def keys_in(self, keys: set[str]) -> set[str]:
        """The ``keys`` among the call's pieces (the quick first look: most calls, none);
        ANY_CALL when it is one of them."""
        hit = self.found & keys
        if ANY_CALL in keys:
            hit.add(ANY_CALL)
        if self.texts:
            hit.update(key for key in keys if any(key in text for text in self.texts))
        return hit

    def has(self, group: list[str]) -> bool:
        found = self.found
        if all(piece in found for piece in group):
            return True
        return any(all(piece in text for piece in group) for text in self.texts)
