"""A language's cue table, read from its data file (capture/languages/<code>.txt).

One plain-text file per language; ``languages/index.txt`` lists the codes in the order
capture compiles them (English first: always read). What each field means, and how
capture uses it: capture/cues.py. The format, in short (docs/capture.md, "Language
tables", has it with an example):

- ``[FIELD]`` on a line of its own opens a field's section (``[DIRECTIVES]``, ``[VETOES]``,
  ...); ``[define NAME]`` opens a named piece of pattern, written ``{=NAME}`` inside the
  patterns below it (a part several entries share, like the words that lead a pick);
- a line whose first non-blank character is ``#`` is a comment; blank lines are ignored
  (so a pattern line that starts with ``#`` writes it ``[#]``, and one that would read as
  ``[NAME]`` writes its class another way);
- an entry starts at the line's first column; an indented line continues the entry above
  it: its text is appended with nothing in between (as adjacent string literals are in
  Python), so a long pattern is split wherever it reads best;
- patterns are raw regular expressions (no quoting, no doubled backslashes);
- whitespace at either end of a line is never part of the text (editors strip it): a
  space there is written ``\\x20`` (the loader reads it as a space, at either end of a line
  only; elsewhere the text is kept as written);
- typed fields: ``[DIRECTIVES]`` entries start with their kind, ``rejected:``,
  ``constraint:`` or ``decided:``; ``[ORDINALS]`` ``word -> number``; ``[STANCES]``
  ``cue -> form`` (``out``, ``out-named``, ``pref``, ``pref-out``); ``[NAMES]``
  ``word -> english name``; ``[RANGES]`` ``first last`` (a character or ``U+XXXX`` each);
  ``[LETTERS]`` the letters, ``[WORDS]`` words separated by spaces, ``[SPACED]`` ``true`` or
  ``false``. A field left out is empty (``SPACED``: true).

Only the sections a caller reads are parsed (``table.FIELD``): telling a text's languages
reads the marks of every table at every Stop, the patterns of a table are parsed when a
text in its language is first read. A malformed section raises ``TableError`` naming the
file and the line when it is read; ``check`` reads the whole file (an unknown or repeated
section, text before the first, every section), and the tests run it on every table
(tests/capture/test_language_table.py).

Standard library only (the Stop hook loads it), and the read is bounded.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing costs an import on the Stop path; mypy still reads the block
if TYPE_CHECKING:
    from typing import Any

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "languages")
INDEX = "index.txt"
MAX_BYTES = 256 * 1024  # a table is ~20 KB; a larger file is not one of ours
KINDS = ("rejected", "constraint", "decided")
FORMS = ("out", "out-named", "pref", "pref-out")
SPACE = "\\x20"

# Field -> what its entries are (the parser of each kind below).
PATTERNS = "patterns"
FIELDS: dict[str, str] = {
    "DIRECTIVES": "directives",
    "AGENT_CHOICES": PATTERNS,
    "AGENT_ACTS": PATTERNS,
    "PROPOSALS": PATTERNS,
    "DEFERS": PATTERNS,
    "NEITHER": PATTERNS,
    "VETOES": PATTERNS,
    "PICKS": PATTERNS,
    "ORDINALS": "ordinals",
    "QUESTIONS": PATTERNS,
    "GOES_ON": PATTERNS,
    "ACCEPTS": PATTERNS,
    "CHOOSES": PATTERNS,
    "AFFIRMS": PATTERNS,
    "ACKNOWLEDGES": PATTERNS,
    "RELAY_INTROS": PATTERNS,
    "BRIEF_OPENERS": PATTERNS,
    "STANCES": "stances",
    "SPACED": "flag",
    "NAMES": "names",
    "RANGES": "ranges",
    "LETTERS": "letters",
    "WORDS": "words",
}
DEFINE = "define "
# What a field left out holds.
EMPTY: dict[str, Any] = {
    field: {"flag": True, "ordinals": {}, "names": {}, "letters": "", "words": frozenset()}.get(
        kind, ()
    )
    for field, kind in FIELDS.items()
}
# A section without these is one entry a line with nothing to read but the line: comments,
# continuation lines, the space at a line's end and named pieces need the whole parse.
_SLOW_MARKS = ("#", "\n ", "\n\t", SPACE, "{=")


class TableError(ValueError):
    """A table file that cannot be read: the message names the file and the line."""


def _unspace(text: str) -> str:
    """A line's text with its ``\\x20`` ends read as spaces (an even run of backslashes
    before the one at the end: ``\\\\x20`` is a backslash and ``x20``)."""
    if SPACE not in text:
        return text
    lead = ""
    while text.startswith(SPACE):
        lead += " "
        text = text[len(SPACE) :]
    tail = ""
    while text.endswith(SPACE):
        before = text[: -len(SPACE)]
        if (len(before) - len(before.rstrip("\\"))) % 2:
            break
        tail += " "
        text = before
    return lead + text + tail


def _header(line: str) -> str | None:
    """The name in a section's header line, ``[NAME]`` or ``[define NAME]`` (ASCII letters,
    digits and ``_``), else None: a pattern line like ``['’]`` or ``[,.]`` is an entry."""
    line = line.rstrip()
    if not (line.startswith("[") and line.endswith("]")):
        return None
    name = line[1:-1]
    word = name.removeprefix(DEFINE)
    return name if word.isascii() and word.isidentifier() else None


def _plain(body: str) -> bool:
    """Whether a section's text is one entry a line with nothing to read but the line."""
    return body[:1] not in (" ", "\t") and not any(mark in body for mark in _SLOW_MARKS)


# Where a line is: (its section's name, line in the section), or ("", line in the file).
Where = tuple[str, int]


class LanguageTable:
    """The fields of one language's table (``FIELDS``), parsed when first read."""

    __slots__ = ("_bodies", "_defines", "_text", "_values", "code", "path")

    def __init__(self, code: str, path: str, text: str) -> None:
        self.code = code
        self.path = path
        self._values: dict[str, Any] = {}
        self._defines: dict[str, str] | None = None
        # One split (in C) at the lines that start with "[": most of them are headers.
        # What is before the first header, and unknown or repeated sections, are checked by
        # ``check`` (the tests run it on every table), not at every read.
        self._text = text
        chunks = ("\n" + text).split("\n[")
        bodies: dict[str, str] = {}
        last = ""
        for chunk in chunks[1:]:
            line, _, body = chunk.partition("\n")
            name = line.rstrip()
            name = name[:-1] if name[-1:] == "]" else ""  # "WORDS]" -> "WORDS"
            # (a field's name: no call, as for most headers)
            if name in FIELDS or _header("[" + line) is not None:
                bodies[name] = body
                last = name
            elif last:  # a pattern line like "[,.]": the section above goes on
                bodies[last] += "\n[" + chunk
        self._bodies = bodies

    def _header_line(self, name: str) -> int:
        """The line number of section ``name``'s header (the last one of that name)."""
        return [number for found, number in self._headers(check=False) if found == name][-1]

    def _headers(self, check: bool = True) -> list[tuple[str, int]]:
        """Every section's name and header line, in file order; raises TableError (when
        ``check``) for an unknown or repeated section and for text before the first."""
        found: list[tuple[str, int]] = []
        for number, line in enumerate(self._text.split("\n"), 1):
            name = _header(line)
            if name is None:
                if check and not found and line.strip() and not line.lstrip().startswith("#"):
                    raise self.error(("", number), "text before the first [section]")
                continue
            if check:
                self._open(name, ("", number), {seen for seen, _ in found})
            found.append((name, number))
        return found

    def _open(self, name: str, number: Where, seen: set[str]) -> None:
        known = name in FIELDS or (
            name.startswith(DEFINE) and name[len(DEFINE) :].strip().isidentifier()
        )
        if not known:
            raise self.error(
                number,
                f"unknown section [{name}]: the sections are "
                + ", ".join(f"[{field}]" for field in FIELDS)
                + " and [define NAME]",
            )
        if name in seen:
            raise self.error(number, f"[{name}] appears twice: keep one")

    def error(self, where: Where, problem: str) -> TableError:
        """The error at ``where``: (a section's name, line in the section), or ("", line
        number). Lines are counted only here: a read counts none."""
        section, line = where
        if section:
            line += self._header_line(section)
        return TableError(f"{self.path}:{line}: {problem}")

    def __getattr__(self, field: str) -> Any:
        # Only called for a name that is not a slot: a field, parsed at its first read.
        if field.startswith("_") or field not in FIELDS:
            raise AttributeError(field)
        if field not in self._values:
            if field in self._bodies:
                self._values[field] = self._parse(field)
            else:  # left out: empty (a dict of its own: the caller may keep it)
                empty = EMPTY[field]
                self._values[field] = {} if isinstance(empty, dict) else empty
        return self._values[field]

    def check(self) -> None:
        """Parse every section: raises TableError at the first malformed line."""
        self._headers()
        self._defines_()
        for field in FIELDS:
            getattr(self, field)

    def _pieces(self, name: str) -> list[tuple[Where, list[str]]]:
        """The entries of a section: (line number, the stripped text of each of its lines)."""
        body = self._bodies.get(name)
        if body is None:
            return []
        entries: list[tuple[Where, list[str]]] = []
        for index, line in enumerate(body.split("\n"), 1):
            if not line or line[0] == "#":
                continue
            if line[0] in " \t":
                text = line.strip()
                if not text or text[0] == "#":
                    continue
                if not entries:
                    raise self.error((name, index), "an indented line continues no entry above it")
                entries[-1][1].append(text)
            else:
                text = line.rstrip()  # "\r" of a CRLF file, a line of blanks
                if text:
                    entries.append(((name, index), [text]))
        return entries

    def _entries(self, name: str) -> list[tuple[Where, str]]:
        """The entries of a section: (line number, its lines' texts joined)."""
        return [
            (n, _unspace(pieces[0]) if len(pieces) == 1 else "".join(map(_unspace, pieces)))
            for n, pieces in self._pieces(name)
        ]

    def _pattern(self, number: Where, text: str) -> str:
        """``text`` with its ``{=NAME}`` pieces written out."""
        if "{=" not in text:
            return text
        defines = self._defines_()
        out = []
        rest = text
        while "{=" in rest:
            before, _, after = rest.partition("{=")
            name, closed, rest = after.partition("}")
            if not closed or name not in defines:
                raise self.error(
                    number,
                    f"{{={name}{'}' if closed else ''} names no [define {name}] above it",
                )
            out += [before, defines[name]]
        return "".join(out) + rest

    def _defines_(self) -> dict[str, str]:
        if self._defines is None:
            self._defines = {}
            # In file order: a piece may use the pieces defined above it.
            for name, start in self._headers():
                if not name.startswith(DEFINE):
                    continue
                entries = self._entries(name)
                if len(entries) != 1:
                    raise self.error(("", start), f"[{name}] holds {len(entries)} entries, not one")
                number, text = entries[0]
                self._defines[name[len(DEFINE) :].strip()] = self._pattern(number, text)
        return self._defines

    def _pairs(self, field: str) -> list[tuple[Where, str, str]]:
        """The ``key -> value`` entries of a section, one line each."""
        body = self._bodies[field]
        if _plain(body):  # one pass: no comment, no continuation, no \x20
            pairs = []
            for index, line in enumerate(body.split("\n"), 1):
                key, arrow, value = line.partition("->")
                key, value = key.strip(), value.strip()
                if key and value:
                    pairs.append(((field, index), key, value))
                elif key or arrow:
                    raise self.error(
                        (field, index), f"[{field}] entry {line!r} is not 'word -> value'"
                    )
            return pairs
        pairs = []
        for number, pieces in self._pieces(field):
            if len(pieces) > 1:
                raise self.error(
                    number, f"a [{field}] entry is one line (no indented continuation)"
                )
            key, arrow, value = pieces[0].partition("->")
            if not arrow or not key.strip() or not value.strip():
                raise self.error(number, f"[{field}] entry {pieces[0]!r} is not 'word -> value'")
            pairs.append((number, _unspace(key.strip()), _unspace(value.strip())))
        return pairs

    def _parse(self, field: str) -> Any:
        kind = FIELDS[field]
        body = self._bodies[field]
        if kind == PATTERNS:
            if _plain(body):  # one entry a line, as written
                return tuple(line.rstrip() for line in body.split("\n") if line.strip())
            return tuple(self._pattern(n, text) for n, text in self._entries(field))
        if kind == "directives":
            directives = []
            for number, (first, *rest) in self._pieces(field):
                head, colon, start = first.partition(":")
                if not colon or head.strip() not in KINDS:
                    raise self.error(
                        number,
                        "a directive starts with its kind: 'rejected:', 'constraint:' or "
                        f"'decided:' (found {first[:40]!r})",
                    )
                pieces = [start.strip(), *rest] if start.strip() else rest
                pattern = "".join(map(_unspace, pieces))
                if not pattern:
                    raise self.error(number, f"directive of kind {head.strip()} has no pattern")
                directives.append((self._pattern(number, pattern), head.strip()))
            return tuple(directives)
        if kind == "ordinals":
            ordinals = {}
            for number, word, value in self._pairs(field):
                try:
                    ordinals[word] = int(value)
                except ValueError:
                    problem = f"ordinal {word!r} -> {value!r} is not a whole number"
                    raise self.error(number, problem) from None
            return ordinals
        if kind == "names":
            return {word: value for _, word, value in self._pairs(field)}
        if kind == "stances":
            stances = []
            for number, cue, form in self._pairs(field):
                if form not in FORMS:
                    raise self.error(
                        number, f"stance form {form!r} is not one of {', '.join(FORMS)}"
                    )
                stances.append((cue, form))
            return tuple(stances)
        if kind == "flag":
            entries = self._entries(field)
            if not entries:
                return True
            if len(entries) != 1 or entries[0][1] not in ("true", "false"):
                raise self.error(entries[0][0], f"[{field}] is 'true' or 'false'")
            return entries[0][1] == "true"
        if kind == "ranges":
            ranges = []
            for number, text in self._entries(field):
                ends = text.split()
                if len(ends) != 2:
                    raise self.error(number, f"a range is 'first last', not {text!r}")
                first, last = (self._char(number, end) for end in ends)
                if first > last:
                    raise self.error(number, f"range {text!r} ends before it starts")
                ranges.append((first, last))
            return tuple(ranges)
        if kind == "letters":
            return "".join(text for _, text in self._entries(field))
        # Words: every line, indented or not, holds words separated by spaces.
        if "#" not in body:
            return frozenset(body.split())
        return frozenset(
            word for _, pieces in self._pieces(field) for piece in pieces for word in piece.split()
        )

    def _char(self, number: Where, end: str) -> str:
        if len(end) == 1:
            return end
        digits = end[2:]
        if end[:2].upper() == "U+" and digits.isascii() and digits.isalnum():
            try:
                return chr(int(digits, base=16))
            except ValueError:  # not hex digits, or past U+10FFFF
                pass
        raise self.error(number, f"{end!r} is neither one character nor U+XXXX")


def _read(path: str) -> bytes:
    """At most MAX_BYTES + 1 bytes of ``path`` (one read call: a table is read at every Stop)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, MAX_BYTES + 1)
    finally:
        os.close(fd)


def read_table(code: str, path: str) -> LanguageTable:
    """The table in ``path`` (bounded read; UTF-8)."""
    data = _read(path)
    if len(data) > MAX_BYTES:
        raise TableError(f"{path}: larger than {MAX_BYTES} bytes: not a language table")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise TableError(f"{path}: not UTF-8 ({error.reason} at byte {error.start})") from None
    return LanguageTable(code, path, text)


def language_codes(folder: str = FOLDER) -> tuple[str, ...]:
    """The codes in ``folder``'s index.txt, in its order (one a line, ``#`` comments)."""
    path = os.path.join(folder, INDEX)
    data = _read(path)
    if len(data) > MAX_BYTES:
        raise TableError(f"{path}: larger than {MAX_BYTES} bytes: not the index of the tables")
    codes = []
    for number, line in enumerate(data.decode("utf-8").split("\n"), 1):
        code = line.strip()
        if not code or code.startswith("#"):
            continue
        if not (code.isascii() and code.isalpha() and code.islower()) or code in codes:
            raise TableError(f"{path}:{number}: {code!r} is not a new language code (en, zh)")
        codes.append(code)
    return tuple(codes)


def load_tables(folder: str = FOLDER) -> tuple[LanguageTable, ...]:
    """Every table of ``folder``, in the index's order."""
    return tuple(
        read_table(code, os.path.join(folder, f"{code}.txt")) for code in language_codes(folder)
    )
