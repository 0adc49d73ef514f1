"""The words of a tool call, as the guard compares them: a Bash command's simple commands
(program, subcommand, arguments), the words of a text written or replaced.

Not a shell: a tolerant reading that never raises. Quoted text that holds spaces (a commit
message, a ``python -c`` script) is prose, kept apart from the arguments: a name inside it
is talked about, not run. Here-document bodies are prose too. Standard library only, no
``re``: it runs before every tool call.
"""

from __future__ import annotations

from context_memory.core.prompt_tables import GUARD_WRAPPERS

# What separates two simple commands, and what a redirection starts with.
_OPERATOR_CHARS = frozenset(";&|\n()")
_REDIRECT_CHARS = frozenset("<>")
_BLANKS = frozenset(" \t\r")
# Characters that end a word of text (for Write/Edit texts and record texts).
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-.@/+")
_VERSION_MARKS = ("==", ">=", "<=", "~=", "!=", ">", "<", "^", "~", "=")


class Command:
    """One simple command: ``program`` (its base name, lowercase), ``words`` (the plain
    words after it, lowercase, options included), ``prose`` (quoted texts with spaces)."""

    __slots__ = ("program", "prose", "words")

    def __init__(self, program: str, words: list[str], prose: list[str]) -> None:
        self.program = program
        self.words = words
        self.prose = prose

    @property
    def subcommand(self) -> str:
        """The first word that is not an option ('' when there is none)."""
        for word in self.words:
            if not word.startswith("-"):
                return word
        return ""

    @property
    def arguments(self) -> list[str]:
        """The words that are not options, after the subcommand."""
        plain = [w for w in self.words if not w.startswith("-")]
        return plain[1:]

    def key(self) -> tuple[str, ...]:
        """What makes two calls the same call: program, every word and every prose text."""
        return (self.program, *self.words, *(" ".join(p.split()) for p in self.prose))

    def __repr__(self) -> str:
        return f"Command({self.program!r}, {self.words!r}, {self.prose!r})"


def _tokens(command: str) -> list[tuple[str, bool]]:
    """(text, is_prose) tokens and operators ('\\0;' for any separator)."""
    out: list[tuple[str, bool]] = []
    current: list[str] = []
    prose = False
    in_word = False
    heredocs: list[str] = []
    i, end = 0, len(command)

    def close() -> None:
        nonlocal current, prose, in_word
        if in_word:
            out.append(("".join(current), prose))
        current, prose, in_word = [], False, False

    while i < end:
        char = command[i]
        if char in _BLANKS:
            close()
            i += 1
            continue
        if char == "\n" and heredocs:
            close()
            out.append(("\0;", False))
            i = _skip_heredocs(command, i + 1, heredocs)
            heredocs = []
            continue
        if char == "#" and not in_word:
            newline = command.find("\n", i)
            i = end if newline < 0 else newline
            continue
        if char in _OPERATOR_CHARS:
            close()
            out.append(("\0;", False))
            i += 1
            continue
        if char in _REDIRECT_CHARS:
            if in_word and not prose and "".join(current).isdigit():
                current, in_word = [], False  # the descriptor of "2>&1"
            close()
            if command.startswith("<<", i) and not command.startswith("<<<", i):
                i += 2
                if i < end and command[i] == "-":
                    i += 1
                while i < end and command[i] in _BLANKS:
                    i += 1
                start = i
                while i < end and command[i] not in _BLANKS and command[i] not in "\n;&|)":
                    i += 1
                heredocs.append(command[start:i].strip("'\""))
                continue
            # The redirection's target is not an argument: skip it.
            while i < end and command[i] in "<>&0123456789":
                i += 1
            while i < end and command[i] in _BLANKS:
                i += 1
            i = _skip_word(command, i)
            continue
        if char in "'\"":
            close_at = command.find(char, i + 1)
            if char == '"':
                close_at = _closing_double_quote(command, i + 1)
            if close_at < 0:
                close_at = end
            text = command[i + 1 : close_at]
            current.append(text)
            if any(c in _BLANKS or c == "\n" for c in text):
                prose = True
            in_word, i = True, close_at + 1
            continue
        if char == "\\" and i + 1 < end:
            if command[i + 1] != "\n":
                current.append(command[i + 1])
                in_word = True
            i += 2
            continue
        if char == "$" and command.startswith("$(", i):
            # A command substitution outside quotes: its words are a command of their own.
            close()
            out.append(("\0;", False))
            i += 2
            continue
        if char == "`":
            close()
            out.append(("\0;", False))
            i += 1
            continue
        current.append(char)
        in_word, i = True, i + 1
    close()
    return out


def _closing_double_quote(command: str, start: int) -> int:
    i, end = start, len(command)
    while i < end:
        char = command[i]
        if char == "\\":
            i += 2
            continue
        if char == '"':
            return i
        i += 1
    return -1


def _skip_word(command: str, i: int) -> int:
    end = len(command)
    while i < end and command[i] not in _BLANKS and command[i] not in _OPERATOR_CHARS:
        if command[i] in "'\"":
            close_at = command.find(command[i], i + 1)
            i = end if close_at < 0 else close_at + 1
            continue
        i += 1
    return i


def _skip_heredocs(command: str, i: int, delimiters: list[str]) -> int:
    """The position after the bodies of the pending here-documents."""
    for delimiter in delimiters:
        while i < len(command):
            newline = command.find("\n", i)
            line = command[i:] if newline < 0 else command[i:newline]
            i = len(command) if newline < 0 else newline + 1
            if line.strip() == delimiter:
                break
    return i


def commands_of(command: str) -> list[Command]:
    """The simple commands of a Bash command line, in order."""
    found: list[Command] = []
    words: list[tuple[str, bool]] = []
    for token in (*_tokens(command), ("\0;", False)):
        if token[0] != "\0;":
            words.append(token)
            continue
        parsed = _command(words)
        if parsed is not None:
            found.append(parsed)
        words = []
    return found


def _command(tokens: list[tuple[str, bool]]) -> Command | None:
    index = 0
    while index < len(tokens):
        text, prose = tokens[index]
        bare = text.split("=", 1)[0]
        if not prose and "=" in text and bare and bare.replace("_", "a").isalnum():
            index += 1  # NAME=value before the program
            continue
        if not prose and text in GUARD_WRAPPERS:
            index += 1
            continue
        break
    if index >= len(tokens) or tokens[index][1]:
        return None
    program = tokens[index][0].rsplit("/", 1)[-1].lower()
    if not program:
        return None
    words = [text.lower() for text, prose in tokens[index + 1 :] if not prose and text]
    prose_texts = [text for text, prose in tokens[index + 1 :] if prose]
    return Command(program, words, prose_texts)


def package_name(word: str) -> str:
    """``moment`` for ``moment@2.29.4``, ``requests`` for ``requests>=2``, ``@scope/x`` for
    ``@scope/x@1``; a path's last part for a path."""
    word = word.strip().strip("'\"").lower()
    if word.startswith("@"):
        cut = word.find("@", 1)
        return word if cut < 0 else word[:cut]
    if "/" in word:
        return word.rstrip("/").rsplit("/", 1)[-1]
    for mark in ("@", *_VERSION_MARKS):
        cut = word.find(mark)
        if cut > 0:
            word = word[:cut]
    return word.split("[", 1)[0]


def text_words(text: str, limit: int) -> list[str]:
    """The lowercase words of ``text`` (letters, digits and ``_-.@/+``), up to ``limit``
    characters read; dots and slashes at a word's ends are dropped."""
    found: list[str] = []
    current: list[str] = []
    for char in text[:limit].lower():
        if char in _WORD_CHARS or char.isalnum():
            current.append(char)
            continue
        if current:
            word = "".join(current).strip("./-+@")
            if word:
                found.append(word)
            current = []
    if current:
        word = "".join(current).strip("./-+@")
        if word:
            found.append(word)
    return found


def name_parts(word: str) -> list[str]:
    """``word`` and the parts a path or file name is made of: ``src/moment.js`` ->
    ``src/moment.js``, ``moment.js``, ``src``, ``moment``."""
    parts = [word]
    for piece in word.split("/"):
        if piece and piece not in parts:
            parts.append(piece)
        stem = piece.split(".", 1)[0]
        if stem and stem not in parts:
            parts.append(stem)
    return parts
