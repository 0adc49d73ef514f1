"""The shell reader: the simple commands of a Bash command line (program, its words,
redirections, here-documents), ctx-allow's plain-command test, and the quoted strings of a
script or a manifest line.

Not a shell: a tolerant reading that never raises. Quoted text that holds spaces (a commit
message, a ``python -c`` script) is prose, kept apart from the arguments: a name inside it
is talked about, not run (calls/acts.py reads the scripts of ``bash -c`` and ``python -c``
on purpose). Here-document bodies are prose too, kept with the command that reads them.
The reader also notes what a shell would expand, chain or redirect (``Lexed.unsafe``):
ctx-allow lets a command run unprompted only when there is nothing of the kind.
Standard library only, no ``re``: it runs before every tool call that names a record's
subject.
"""

from __future__ import annotations

from context_memory.core.call_tables import (
    GUARD_SHELL_CLOSERS,
    GUARD_SHELL_HEADERS,
    GUARD_WRAPPERS,
)

# What separates two simple commands, and what a redirection starts with.
_OPERATOR_CHARS = frozenset(";&|\n()")
_REDIRECT_CHARS = frozenset("<>")
_BLANKS = frozenset(" \t\r")
# Characters a shell expands outside quotes (ctx-allow refuses them).
_GLOB_CHARS = frozenset("*?[]{}")
_SEP = "\0;"
_REDIRECT = "\0>"
_HEREDOC = "\0<"


class Command:
    """One simple command: ``program`` (its base name, lowercase), ``words`` (the plain
    words after it, lowercase, options included), ``raw`` (the same words as written),
    ``prose`` (quoted texts with spaces), ``redirects`` ((operator, target) pairs: ``>``,
    ``>>``, ``<``), ``heredocs`` (the bodies of its here-documents)."""

    __slots__ = ("heredocs", "program", "prose", "raw", "redirects", "words")

    def __init__(
        self,
        program: str,
        words: list[str],
        prose: list[str],
        raw: list[str] | None = None,
        redirects: list[tuple[str, str]] | None = None,
        heredocs: list[str] | None = None,
    ) -> None:
        self.program = program
        self.words = words
        self.prose = prose
        self.raw = words if raw is None else raw
        self.redirects = redirects or []
        self.heredocs = heredocs or []

    def key(self) -> tuple[str, ...]:
        """What makes two calls the same call: program, every word and every prose text."""
        return (self.program, *self.words, *(" ".join(p.split()) for p in self.prose))

    def __repr__(self) -> str:
        return f"Command({self.program!r}, {self.words!r}, {self.prose!r})"


class Lexed:
    """The tokens of a command line and what a shell would do beyond running one plain
    command (``unsafe``: one short reason per kind seen, in order)."""

    __slots__ = ("tokens", "unsafe")

    def __init__(self) -> None:
        # (text, is_prose); operators are _SEP, redirections _REDIRECT + op + " " + target,
        # here-documents _HEREDOC + body.
        self.tokens: list[tuple[str, bool]] = []
        self.unsafe: list[str] = []

    def note(self, reason: str) -> None:
        if reason not in self.unsafe:
            self.unsafe.append(reason)


def lex(command: str) -> Lexed:
    """The tokens of ``command`` (never raises)."""
    lexed = Lexed()
    out = lexed.tokens
    current: list[str] = []
    prose = False
    in_word = False
    heredocs: list[tuple[str, int]] = []  # (delimiter, token index of its body)
    i, end = 0, len(command)

    def close() -> None:
        nonlocal current, prose, in_word
        if in_word:
            out.append(("".join(current), prose))
        current, prose, in_word = [], False, False

    while i < end:
        char = command[i]
        if char in _BLANKS:
            if char == "\r":
                lexed.note("a carriage return")
            close()
            i += 1
            continue
        if char == "\n" and heredocs:
            close()
            out.append((_SEP, False))
            i = _read_heredocs(command, i + 1, heredocs, out)
            heredocs = []
            continue
        if char == "#" and not in_word:
            lexed.note("a comment")
            newline = command.find("\n", i)
            i = end if newline < 0 else newline
            continue
        if char in _OPERATOR_CHARS:
            lexed.note("a newline" if char == "\n" else f"the shell operator {char!r}")
            close()
            out.append((_SEP, False))
            i += 1
            continue
        if char in _REDIRECT_CHARS:
            if in_word and not prose and "".join(current).isdigit():
                current, in_word = [], False  # the descriptor of "2>&1"
            close()
            if command.startswith("<<", i) and not command.startswith("<<<", i):
                lexed.note("a here-document")
                i += 2
                if i < end and command[i] == "-":
                    i += 1
                while i < end and command[i] in _BLANKS:
                    i += 1
                start = i
                while i < end and command[i] not in _BLANKS and command[i] not in "\n;&|)":
                    i += 1
                word = command[start:i]
                if len(word) < 3 or word[0] not in "'\"" or word[-1] != word[0]:
                    lexed.note("an unquoted here-document delimiter")
                heredocs.append((word.strip("'\""), len(out)))
                out.append((_HEREDOC, True))
                continue
            lexed.note("a redirection")
            start = i
            while i < end and command[i] in "<>&|0123456789":
                i += 1
            operator = command[start:i]
            if "&" in operator and (operator[-1].isdigit() or operator.endswith("&-")):
                continue  # "2>&1": a descriptor, no file
            while i < end and command[i] in _BLANKS:
                i += 1
            after = _skip_word(command, i)
            target = command[i:after].strip("'\"")
            out.append((f"{_REDIRECT}{operator} {target}", False))
            i = after
            continue
        if char in "'\"":
            close_at = command.find(char, i + 1)
            if char == '"':
                close_at = _closing_double_quote(command, i + 1, lexed)
            if close_at < 0:
                lexed.note("an unclosed quote")
                close_at = end
            text = command[i + 1 : close_at]
            if char == '"' and "\\" in text:
                text = _unescape_double(text)
            current.append(text)
            if any(c in _BLANKS or c == "\n" for c in text):
                prose = True
            in_word, i = True, close_at + 1
            continue
        if char == "\\" and i + 1 < end:
            if command[i + 1] in "\n\r":
                lexed.note("a line continuation")
            else:
                current.append(command[i + 1])
                in_word = True
            i += 2
            continue
        if char == "\\":
            lexed.note("a line continuation")
            i += 1
            continue
        if char == "$":
            lexed.note("an expansion")
            if command.startswith("$(", i):
                # A command substitution outside quotes: its words are a command of their own.
                close()
                out.append((_SEP, False))
                i += 2
                continue
        if char == "`":
            lexed.note("an expansion")
            close()
            out.append((_SEP, False))
            i += 1
            continue
        if char in _GLOB_CHARS or char == "#" or (char == "~" and not in_word):
            lexed.note(f"the shell character {char!r}")
        if ord(char) < 32 or char == "\x7f":
            lexed.note("a control character")
        current.append(char)
        in_word, i = True, i + 1
    close()
    return lexed


def _closing_double_quote(command: str, start: int, lexed: Lexed) -> int:
    i, end = start, len(command)
    while i < end:
        char = command[i]
        if char in "$`":
            lexed.note("an expansion inside double quotes")
        if char == "\\":
            if i + 1 < end and command[i + 1] in "$`\n":
                lexed.note("an escape inside double quotes")
            i += 2
            continue
        if char == '"':
            return i
        i += 1
    return -1


def _unescape_double(text: str) -> str:
    """A double-quoted text as the shell reads it: ``\\"``, ``\\\\``, ``\\$`` and ``\\```
    lose their backslash, a backslash-newline goes."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in '"\\$`\n':
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _skip_word(command: str, i: int) -> int:
    end = len(command)
    while i < end and command[i] not in _BLANKS and command[i] not in _OPERATOR_CHARS:
        if command[i] in "'\"":
            close_at = command.find(command[i], i + 1)
            i = end if close_at < 0 else close_at + 1
            continue
        i += 1
    return i


def _read_heredocs(
    command: str, i: int, pending: list[tuple[str, int]], out: list[tuple[str, bool]]
) -> int:
    """Reads the bodies of the pending here-documents into their tokens; the position
    after them."""
    for delimiter, at in pending:
        lines: list[str] = []
        while i < len(command):
            newline = command.find("\n", i)
            line = command[i:] if newline < 0 else command[i:newline]
            i = len(command) if newline < 0 else newline + 1
            if line.strip() == delimiter:
                break
            lines.append(line)
        out[at] = (_HEREDOC + "\n".join(lines), True)
    return i


def commands_of(command: str) -> list[Command]:
    """The simple commands of a Bash command line, in order."""
    return commands_in(lex(command))


def commands_in(lexed: Lexed) -> list[Command]:
    found: list[Command] = []
    words: list[tuple[str, bool]] = []
    for token in (*lexed.tokens, (_SEP, False)):
        if token[0] != _SEP:
            words.append(token)
            continue
        parsed = _command(words)
        if parsed is not None:
            found.append(parsed)
        words = []
    return found


def plain_words(command: str) -> list[str] | None:
    """The words of ``command`` when it is ONE plain simple command (quotes removed):
    nothing a shell would expand, redirect or chain, at most one here-document with a
    quoted delimiter on its last lines; None otherwise (ctx-allow's test)."""
    lexed = lex(command)
    unsafe = [r for r in lexed.unsafe if r not in ("a here-document", "a newline")]
    if unsafe:
        return None
    words = [t for t, _ in lexed.tokens if not t.startswith(_HEREDOC)]
    while words and words[-1] == _SEP:
        words.pop()  # the line end before a here-document's body
    heredocs = [t for t, _ in lexed.tokens if t.startswith(_HEREDOC)]
    if _SEP in words or len(heredocs) > 1:
        return None
    if "\n" in command and not heredocs:
        return None
    if heredocs and not _heredoc_closes_at_end(command):
        return None
    if any(w.startswith("\0") for w in words):
        return None
    return words


def _heredoc_closes_at_end(command: str) -> bool:
    first, _, rest = command.partition("\n")
    delimiter = first.rpartition("<<")[2].strip().lstrip("-").strip()
    word = delimiter[1:-1]
    if not word or any(c in _BLANKS or c in "'\"$`\\;&|<>()" for c in word):
        return False
    body = rest.split("\n")
    while body and body[-1] == "":
        body.pop()
    return (
        bool(body)
        and body[-1].lstrip("\t") == word
        and word not in (b.lstrip("\t") for b in body[:-1])
    )


def _command(tokens: list[tuple[str, bool]]) -> Command | None:
    redirects: list[tuple[str, str]] = []
    heredocs: list[str] = []
    plain: list[tuple[str, bool]] = []
    for text, prose in tokens:
        if text.startswith(_REDIRECT):
            operator, _, target = text[len(_REDIRECT) :].partition(" ")
            redirects.append((operator, target))
        elif text.startswith(_HEREDOC):
            heredocs.append(text[len(_HEREDOC) :])
        else:
            plain.append((text, prose))
    index = 0
    while index < len(plain):
        text, prose = plain[index]
        bare = text.split("=", 1)[0]
        if not prose and "=" in text and bare and bare.replace("_", "a").isalnum():
            index += 1  # NAME=value before the program
            continue
        if not prose and (text in GUARD_WRAPPERS or text in GUARD_SHELL_CLOSERS):
            index += 1
            continue
        break
    header = index < len(plain) and not plain[index][1] and plain[index][0] in GUARD_SHELL_HEADERS
    if index >= len(plain) or plain[index][1] or header:
        if redirects:  # "> file" alone still writes the file
            return Command("", [], [], [], redirects, heredocs)
        return None
    program = plain[index][0].rsplit("/", 1)[-1].lower()
    if not program:
        return None
    rest = plain[index + 1 :]
    raw = [text for text, prose in rest if not prose and text]
    prose_texts = [text for text, prose in rest if prose]
    return Command(program, [w.lower() for w in raw], prose_texts, raw, redirects, heredocs)


def quoted_strings(text: str, quotes: str = "'\"", first_only: bool = False) -> list[str]:
    """The quoted strings of ``text`` in order, each without its quotes (a quote is any
    character of ``quotes``; no escapes: source code and manifest lines, not shell words,
    which ``lex`` reads); the first only with ``first_only``. An unclosed quote ends it."""
    found: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char in quotes:
            close = text.find(char, i + 1)
            if close < 0:
                break
            found.append(text[i + 1 : close])
            if first_only:
                break
            i = close + 1
            continue
        i += 1
    return found
