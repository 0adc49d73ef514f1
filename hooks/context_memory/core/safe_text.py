"""The one rule for text that reaches the model (an injected context, the pinned digest,
a handoff, the merged record) or a terminal (a log line, ctx-doctor's report): it keeps
the lines it is allowed and carries no control or invisible formatting character.

Folder names and records are untrusted (the state folder may come from git, and readers
see names no writer would make): a session folder named ``x\\n## Decided\\n- ...`` must
not forge a section of ``merged/decisions.md`` or lines of an injected context, and a
U+202E in a record must not reverse what the model or a reader sees. The characters the
rule takes out (``UNSAFE``):

- C0 controls, DEL and C1 controls (NUL, ESC, the line breaks among them);
- bidirectional controls: U+202A-U+202E, U+2066-U+2069, U+200E/U+200F, U+061C;
- zero-width characters and the byte order mark: U+200B-U+200D, U+2060, U+FEFF;
- line and paragraph separators (U+2028, U+2029);
- lone surrogates (a str can hold them; UTF-8 cannot).

Each becomes a visible escape such as ``\\x1b`` or ``\\u202e`` (a reader sees that
something was there; the model cannot be steered by it), except line breaks and tabs,
which one_line turns into one space and safe_block into line breaks. Three forms, one
rule: ``one_line`` (whitespace runs collapsed, optionally clipped), ``safe_block`` (lines
kept, spaces kept), ``visible`` (one terminal line, spaces kept, line breaks escaped).

One clip rule (``clip``) for every bounded text of the toolkit, whatever reads it: cut to
the limit with the cut's trailing spaces taken out, ``CLIP_MARK`` marking the cut. Records
captured before the rule ended a cut with U+2026 instead (``CLIP_MARKS``: the ends a reader
of the log takes for a cut).

Standard library only, no ``re``: the prompt path uses it (tests/repo/test_import_cost.py).
"""

from __future__ import annotations

# What one_line and safe_block read as a line break (str.splitlines' set).
LINE_BREAKS = (0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029)
UNSAFE = (
    *range(0x20),  # C0 controls
    0x7F,  # DEL
    *range(0x80, 0xA0),  # C1 controls
    0x061C,  # Arabic letter mark
    *range(0x200B, 0x2010),  # zero-width space, non-joiner, joiner; LTR and RTL marks
    0x2028,  # line separator
    0x2029,  # paragraph separator
    *range(0x202A, 0x202F),  # bidirectional embeddings and overrides
    0x2060,  # word joiner
    *range(0x2066, 0x206A),  # bidirectional isolates
    0xFEFF,  # byte order mark / zero-width no-break space
)
CLIP_MARK = "..."
# What a clipped text may end with: the mark, and U+2026, which capture ended its cuts with
# before there was one rule (the log keeps such records).
CLIP_MARKS = (CLIP_MARK, "\u2026")
_SHORT = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}


def _escape(code: int) -> str:
    if code in _SHORT:
        return _SHORT[code]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# The translate tables, built the first time a text holds a character that is not
# printable (most texts hold none: every UNSAFE character and every lone surrogate is one
# that str.isprintable refuses, so a printable text is already safe). "escaped", for
# visible: everything escaped; "in_line", for one_line and safe_block: tabs are spaces
# (line breaks are taken out before the table applies).
_TABLES: dict[str, dict[int, str]] = {}


def _table(name: str) -> dict[int, str]:
    if not _TABLES:
        escaped = {code: _escape(code) for code in UNSAFE}
        _TABLES.update(escaped=escaped, in_line={**escaped, 0x09: " "})
    return _TABLES[name]


def _no_surrogates(text: str) -> str:
    """Lone surrogates as ``\\udxxx`` escapes; the common case is one UTF-8 encode."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _safe(text: str, table: str) -> str:
    """``text`` with the unsafe characters escaped by ``table`` (printable text: as it is)."""
    if text.isprintable():
        return text
    return _no_surrogates(text.translate(_table(table)))


def clip(text: str, limit: int | None) -> str:
    """``text`` cut to at most ``limit`` characters, ``CLIP_MARK`` marking the cut (the
    spaces before the mark taken out). The one clip rule: no other module cuts a text
    and marks it."""
    if limit is None or len(text) <= limit:
        return text
    return text[: max(limit - len(CLIP_MARK), 0)].rstrip() + CLIP_MARK


def one_line(text: object, limit: int | None = None) -> str:
    """``text`` as one safe line: whitespace runs (line breaks included) collapsed to one
    space, unsafe characters escaped, then clipped to ``limit`` characters."""
    return clip(_safe(" ".join(str(text).split()), "in_line"), limit)


def safe_block(text: object, limit: int | None = None) -> str:
    """``text`` with its lines kept (every line break becomes ``\\n``; a final one stays),
    spaces kept, tabs as spaces, unsafe characters escaped; clipped to ``limit``."""
    raw = str(text)
    block = "\n".join(_safe(line, "in_line") for line in raw.splitlines())
    if raw and ord(raw[-1]) in LINE_BREAKS:
        block += "\n"
    return clip(block, limit)


def visible(text: object) -> str:
    """``text`` on one terminal line with its spacing kept: every unsafe character, line
    breaks and tabs included, shown as an escape (a newline in a path reads ``\\n``)."""
    return _safe(str(text), "escaped")


def estimate_tokens(text: str) -> int:
    """The toolkit's token estimate for a text: UTF-8 bytes / CHARS_PER_TOKEN, rounded up.

    Four characters per token is the client's own offline estimate for English; counting
    bytes rather than characters makes Chinese and Japanese (about one token per
    character, three bytes each) come out higher rather than far too low.
    """
    from context_memory.core.tables import CHARS_PER_TOKEN

    return -(-len(text.encode("utf-8")) // CHARS_PER_TOKEN)
