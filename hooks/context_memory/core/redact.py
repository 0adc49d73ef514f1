"""The one redaction rule: no credential a user typed or pasted is ever written to disk.

Records of the decisions log travel with git and reach the model (the pointer, the pinned
digest, handoffs, the merged record), so every text a record holds (its text, reason,
quote, alternatives, anchors, the rejected call) passes ``redact`` before it is written
(memory/decisions.py: make_record and make_captured_record, the one door of every writer;
memory/handoff.py and the extract for the other files that copy records).

What counts as a credential (``SHAPES``, one table): the published shapes of API keys
(``sk-``, ``sk-ant-``, ``ghp_``/``gho_``/``ghu_``/``ghs_``/``ghr_``, ``github_pat_``, AWS
``AKIA``/``ASIA``, Google ``AIza``, Slack ``xox?-``), JSON Web Tokens, PEM blocks, a
password in a URL (``https://user:secret@host``), the value of an assignment to a secret's
name (``password=...``, ``api_key: ...``, ``--password X``, ``Bearer X``), what is piped
into ``sudo -S`` or given to ``sshpass -p``, and long random tokens (32 characters or more
mixing upper case, lower case and digits, switching between them as random text does).

What is NOT a credential, on purpose (tests/core/test_redact.py checks each): git SHAs, uuids and
other hexadecimal (digests, hex colours: one case, no mix of classes), file paths (their
``/``-separated parts are judged one by one), identifiers in camelCase or snake_case
(words: few switches between classes), package integrity hashes (``sha512-...``).

A rejected call's reason is the user's typing at the permission prompt: one word with no
space given for a call that runs ``sudo``, ``su``, ``ssh``, ``login`` or ``passwd`` is the
password the prompt was mistaken for (``typed_password``); so is a one-word reason that
mixes three kinds of characters, digits among them (letters of both cases, digits,
symbols), like a password.

Standard library only: ``re`` is loaded by ``json`` on every path that writes a record.
"""

from __future__ import annotations

import itertools
import re

from context_memory.core.safe_text import CLIP_MARKS

REDACTED = "[redacted]"

_B = r"(?<![A-Za-z0-9_\-])"  # a token's start: not inside another word
_E = r"(?![A-Za-z0-9_\-])"
# (name, pattern, group to replace: 0 the whole match, 1.. that group only, triggers: what
# the lowercased text must contain for the pattern to be tried: most texts hold none, and a
# substring test costs far less than a regex scan)
SHAPES: tuple[tuple[str, str, int, tuple[str, ...]], ...] = (
    (
        "pem block",
        r"-----BEGIN [A-Z0-9 ]{0,40}-----.*?(?:-----END [A-Z0-9 ]{0,40}-----|\Z)",
        0,
        ("-----begin",),
    ),
    ("anthropic key", _B + r"sk-ant-(?=[A-Za-z0-9_\-]*[0-9])[A-Za-z0-9_\-]{16,}", 0, ("sk-ant-",)),
    ("openai key", _B + r"sk-(?=[A-Za-z0-9_\-]*[0-9])[A-Za-z0-9_\-]{20,}", 0, ("sk-",)),
    (
        "github token",
        _B + r"gh[pousr]_[A-Za-z0-9]{20,}" + _E,
        0,
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    ),
    ("github fine-grained token", _B + r"github_pat_[A-Za-z0-9_]{20,}", 0, ("github_pat_",)),
    ("aws access key", r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])", 0, ("akia", "asia")),
    ("google api key", _B + r"AIza[0-9A-Za-z_\-]{30,}", 0, ("aiza",)),
    ("slack token", _B + r"xox[abposr]-[0-9A-Za-z\-]{10,}", 0, ("xox",)),
    (
        "json web token",
        _B + r"eyJ[A-Za-z0-9_\-]{6,}\.eyJ[A-Za-z0-9_\-]{6,}\.[A-Za-z0-9_\-]{6,}",
        0,
        ("eyj",),
    ),
    (
        "password in a url",
        r"[a-z][a-z0-9+.\-]{1,20}://[^\s:/@]{1,100}:([^\s@/]{1,200})@",
        1,
        ("://",),
    ),
    (
        "password assignment",
        r"(?i)(?<![A-Za-z0-9])(?:password|passwd|passphrase)[\"']?\s*(?:=|:)\s*"
        r"(<[^<>]{0,60}>|\"[^\"]{1,200}\"|'[^']{1,200}'|[^\s,;\"'&|)]{1,200})",
        1,
        ("pass",),
    ),
    (
        "secret assignment",
        r"(?<![A-Za-z0-9])(?i:secret|api[_\-]?key|access[_\-]?key|secret[_\-]?key|"
        r"private[_\-]?key|auth[_\-]?token|access[_\-]?token|refresh[_\-]?token|token)"
        r"[\"']?\s*(?:=|:)\s*[\"'`]?((?=[^\s,;\"'`&|)]*[0-9A-Z_\-])[^\s,;\"'`&|)]{8,200})",
        1,
        ("secret", "key", "token"),
    ),
    (
        "password flag",
        r"(?i)(?<![\w\-])--?(?:password|passwd|pass)[= ]\s*(\S{1,200})",
        1,
        ("-pass",),
    ),
    (
        "bearer token",
        r"\b(?i:bearer)\s+((?=[A-Za-z0-9_\-.=+/]*[0-9])[A-Za-z0-9_\-.=+/]{12,})",
        1,
        ("bearer",),
    ),
    (
        "piped to sudo -S",
        r"\becho\s+(?:-n\s+)?(\S{1,200})\s*\|\s*sudo\s+(?:-\w+\s+)*-S\b",
        1,
        ("sudo",),
    ),
    ("sshpass password", r"\bsshpass\s+-p\s*(\S{1,200})", 1, ("sshpass",)),
)
_COMPILED = tuple(
    (re.compile(pattern, re.DOTALL), group, triggers) for _, pattern, group, triggers in SHAPES
)
# Values of an assignment that hold no secret: placeholders, variables, redactions.
# The name of a variable (``NPM_TOKEN``, with an underscore) is where a secret is kept.
_PLACEHOLDER = re.compile(
    r"^[\"'`]?(?:\$\{?\w+\}?|<[^>]*>|\*+|x+|\.\.\.|\[redacted\]|null|none|true|false|"
    r"\{\{.*\}\}|%\(?\w+\)?s?|[A-Z][A-Z0-9]*_[A-Z0-9_]+|)[\"'`]?$",
    re.IGNORECASE,
)
# Long random tokens: base64/base62 runs (``/`` and ``+`` included: AWS secret keys).
_RUN = re.compile(r"[A-Za-z0-9_\-+=/]{32,}")
_INTEGRITY = re.compile(r"(?i)sha(?:1|256|384|512)-")
MIN_RANDOM_CHARS = 32
SWITCH_PERCENT = 45
# Programs whose password prompt a permission prompt gets mistaken for.
PASSWORD_PROGRAMS = ("sudo", "su", "ssh", "login", "passwd", "doas", "pkexec", "sshpass")
_SHELL_SPLIT = re.compile(r"[\s;|&()`$]+")


def _classes(text: str) -> tuple[bool, bool, bool, bool]:
    lower = any("a" <= c <= "z" for c in text)
    upper = any("A" <= c <= "Z" for c in text)
    digit = any("0" <= c <= "9" for c in text)
    other = any(not c.isalnum() for c in text)
    return lower, upper, digit, other


def _kind(char: str) -> int:
    if "a" <= char <= "z":
        return 0
    if "A" <= char <= "Z":
        return 1
    if "0" <= char <= "9":
        return 2
    return 3


def is_random_token(run: str) -> bool:
    """Whether ``run`` reads as a random token rather than words, a path or hex: at least
    MIN_RANDOM_CHARS long, upper case, lower case and at least two digits, and its letters
    and digits (separators skipped) switching between the three at least every other
    character or so (random base62 switches at 62% of its characters; an identifier in
    camelCase about once every three, a path or a snake_case name less)."""
    if len(run) < MIN_RANDOM_CHARS:
        return False
    chars = [c for c in run if c.isascii() and c.isalnum()]
    if len(chars) < MIN_RANDOM_CHARS * 3 // 4:
        return False
    lower, upper, _, _ = _classes(run)
    if not (lower and upper) or sum(1 for c in chars if c.isdigit()) < 2:
        return False
    kinds = [_kind(c) for c in chars]
    switches = sum(1 for a, b in itertools.pairwise(kinds) if a != b)
    return switches * 100 >= len(chars) * SWITCH_PERCENT


def _redact_runs(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        run = match.group(0)
        if _INTEGRITY.match(run) or not is_random_token(run):
            return run  # sha512-<base64>: a package's integrity hash, no secret
        return REDACTED

    if not any(len(word) >= MIN_RANDOM_CHARS for word in text.split()):
        return text  # no run that long: the common case, without a regex scan
    return _RUN.sub(one, text)


def redact(text: str) -> str:
    """``text`` with every credential shape (module docstring) replaced by REDACTED."""
    if not text:
        return text
    lowered = text.lower()
    for pattern, group, triggers in _COMPILED:
        if not any(trigger in lowered for trigger in triggers):
            continue
        if group == 0:
            text = pattern.sub(REDACTED, text)
            continue

        def keep_name(match: re.Match[str], group: int = group) -> str:
            value = match.group(group)
            bare = value
            for mark in CLIP_MARKS:  # a clipped text's end
                bare = bare.removesuffix(mark)
            if _PLACEHOLDER.match(bare) or value.startswith(REDACTED):
                return match.group(0)
            start, end = match.span(group)
            base = match.start()
            whole = match.group(0)
            return whole[: start - base] + REDACTED + whole[end - base :]

        text = pattern.sub(keep_name, text)
    return _redact_runs(text)


def looks_like_credential(text: str) -> bool:
    """Whether ``text`` holds something ``redact`` takes out."""
    return redact(text) != text


def runs_password_program(command: str) -> bool:
    """Whether a shell command runs a program that asks for a password (PASSWORD_PROGRAMS,
    by name or path: ``sudo apt``, ``cd x && /usr/bin/ssh host``, ``echo | su -``)."""
    words = _SHELL_SPLIT.split(command)
    return any(word.rsplit("/", 1)[-1] in PASSWORD_PROGRAMS for word in words)


def _looks_like_password(word: str) -> bool:
    """A one-word reply that mixes three kinds of characters, digits among them, as
    password rules ask: not a path or a file name (``/``, ``.``), not a plain word
    (``Really?``, ``Doesn't``), number or identifier."""
    if len(word) < 6 or "/" in word or "." in word:
        return False
    classes = _classes(word)
    return classes[2] and sum(classes) >= 3


# The shapes of a command line that hand a program its password.
_GIVEN = tuple(
    (re.compile(pattern, re.DOTALL), group)
    for name, pattern, group, _ in SHAPES
    if name in ("piped to sudo -S", "sshpass password", "password flag")
)


def passwords_given(command: str) -> list[str]:
    """The passwords a shell command hands a program (piped into ``sudo -S``, given to
    ``sshpass -p`` or a ``--password`` flag; quotes taken off), placeholders left out: a
    word the user typed somewhere else in the session (a rejection's reason at a
    permission prompt mistaken for the password prompt) is that password too."""
    lowered = command.lower()
    if "sudo" not in lowered and "pass" not in lowered:
        return []
    found: list[str] = []
    for pattern, group in _GIVEN:
        for match in pattern.finditer(command):
            value = match.group(group).strip("'\"")
            if len(value) >= 4 and not _PLACEHOLDER.match(value) and value not in found:
                found.append(value)
    return found


def typed_password(reason: str, command: str = "") -> bool:
    """Whether a rejected call's typed reason is a password: one word with no space, given
    for a call that runs a password program (``command``), or one that looks like a
    password whatever the call (module docstring)."""
    word = reason.strip()
    if not word or any(c.isspace() for c in word):
        return False
    if looks_like_credential(word):
        return True
    return runs_password_program(command) or _looks_like_password(word)
