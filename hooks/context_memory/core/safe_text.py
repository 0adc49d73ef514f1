"""One rule for text from the state folder that reaches the model, a handoff or the merged
record: it stays on one line and carries no control characters.

Folder names and records are untrusted (the state folder may come from git, and readers
see names no writer would make): a session folder named ``x\\n## Decided\\n- ...`` must
not forge a section of ``merged/decisions.md`` or lines of an injected context. Runs of
whitespace (line breaks included) become one space; every other control or formatting
character (C0, DEL, C1, line and paragraph separators, bidirectional overrides) becomes
a visible escape such as ``\\x1b``. Standard library only, no ``re``: the prompt path
uses it.
"""

from __future__ import annotations


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_UNSAFE = (
    *range(0x00, 0x20),
    0x7F,
    *range(0x80, 0xA0),
    0x061C,  # Arabic letter mark
    0x200E,  # left-to-right mark
    0x200F,  # right-to-left mark
    0x2028,  # line separator
    0x2029,  # paragraph separator
    *range(0x202A, 0x202F),  # bidirectional embeddings and overrides
    *range(0x2066, 0x206A),  # bidirectional isolates
    0xFEFF,  # byte order mark / zero-width no-break space
)
_TABLE = {code: _escape(code) for code in _UNSAFE}


def one_line(text: object) -> str:
    """``text`` as one safe line: whitespace runs collapsed, control characters escaped."""
    return " ".join(str(text).split()).translate(_TABLE)


def estimate_tokens(text: str) -> int:
    """The toolkit's token estimate for a text: UTF-8 bytes / CHARS_PER_TOKEN, rounded up.

    Four characters per token is the client's own offline estimate for English; counting
    bytes rather than characters makes Chinese and Japanese (about one token per
    character, three bytes each) come out higher rather than far too low.
    """
    from context_memory.core.tables import CHARS_PER_TOKEN

    return -(-len(text.encode("utf-8")) // CHARS_PER_TOKEN)
