"""Anchors: the distinctive words of a captured item that a later check matches.

Distinctive = what names a thing rather than talks about it: backticked spans, file names
and paths, package and command names (``date-fns``, ``pnpm``, ``uv``), identifiers
(``group.visible``, ``_generate_html``, ``camelCase``), versions. Plain English words count
only right after a verb of choice ("use pnpm", "switch to vite", "don't use moment").

``avoid`` is what the user ruled out, ``prefer`` what they chose instead; both are subsets
of the anchors. All lowercase, at most ``MAX_ANCHORS`` (memory/constraint.py).
"""

from __future__ import annotations

import re

from context_memory.capture.text import MAX_SCAN
from context_memory.memory.constraint import MAX_ANCHORS, MAX_AUDIT_TERMS
from context_memory.memory.decisions import MAX_ANCHOR_CHARS

MAX_WHOLE = 24000  # characters of one text read for anchors (a whole plan, edit or reason)
MAX_HEAD = 300  # its opening: what the record's one-line text shows

_TOKEN = re.compile(r"[A-Za-z0-9_@~$][A-Za-z0-9_.@/+~:#-]{0,200}")
_BACKTICK = re.compile(r"`([^`\n]{1,80})`")
_CAMEL = re.compile(r"[a-z][A-Z]")
# Verbs of choice: the word after them names what is chosen or ruled out.
_PREFER = re.compile(
    r"(?:\b(?:use|using|prefer|switch(?:ing)? to|migrate to|go with|stick (?:with|to)|"
    r"move (?:it )?to|let'?s do|do|install)\s+|(?:改成|改用|换成|用)\s*)"
    r"(?:the\s+|a\s+|an\s+)?`?([A-Za-z0-9_@][A-Za-z0-9_.@/+-]{0,60})",
    re.IGNORECASE,
)
_AVOID = re.compile(
    r"(?:\b(?:don'?t|do not|never|stop|no longer|not)\s+(?:use|using|install|run)|"
    r"\binstead of|\brather than|\bavoid|\bno more|不要用|别用|不用)\s*"
    r"(?:the\s+|a\s+|an\s+)?`?([A-Za-z0-9_@][A-Za-z0-9_.@/+-]{0,60})"
    r"|\bnot\s+`?([A-Za-z0-9_@][A-Za-z0-9_.@/+-]{0,60})`?(?=\s*(?:[,.;)]|$|\s+but\b))",
    re.IGNORECASE,
)
STOP_WORDS = frozenset(
    """a an the this that these those it its it's them they we you i me my our your us
    and or but if then so as of to in on at by for with from into onto about over under
    is are was were be been being do does did done doing have has had can could would
    should will shall may might must not no yes ok okay please just also only all any some
    more most less least very really too much many one two three first second last same
    other another each every both either neither such own here there now when where why
    how what which who whom whose up down out off again once before after while because
    something anything everything nothing way thing things stuff bit lot e.g i.e etc
    like want need make let let's use using used get got go going see look think know
    work works working file files code test tests change changes new old good fine better
    instead rather than""".split()
)


def _clean(token: str) -> str:
    token = token.strip(".,:;!?'\"()[]{}<>`").lower()
    token = token.removeprefix("@")
    return token[:MAX_ANCHOR_CHARS]


def _distinctive(token: str) -> bool:
    if token.startswith(("http:", "https:")) or len(token) < 2:
        return False
    inner = token[1:-1]
    if any(mark in inner for mark in "._/-@+:#~") and any(ch.isalpha() for ch in token):
        return True
    has_digit = any(ch.isdigit() for ch in token)
    return has_digit and any(ch.isalpha() for ch in token)


def _add(found: list[str], token: str) -> None:
    token = _clean(token)
    if token and token not in STOP_WORDS and token not in found and len(found) < MAX_ANCHORS:
        found.append(token)


def choice_words(text: str) -> tuple[list[str], list[str]]:
    """(prefer, avoid): the words named right after a verb of choice or of refusal."""
    text = text[:MAX_SCAN]
    prefer: list[str] = []
    avoid: list[str] = []
    for match in _AVOID.finditer(text):
        word = match.group(1) or match.group(2)
        # "instead of X" / "rather than X" name a thing only when X looks like a name
        if match.group(0).lower().startswith(("instead", "rather", "avoid", "no more")) and not (
            _distinctive(_clean(word)) or _CAMEL.search(word)
        ):
            continue
        _add(avoid, word)
    for match in _PREFER.finditer(text):
        start = match.start()
        before = text[max(0, start - 12) : start].lower()
        if "not" in before or "n't" in before or "never" in before or "stop" in before:
            continue  # "don't use X" is the avoid side
        _add(prefer, match.group(1))
    prefer = [word for word in prefer if word not in avoid]
    return prefer, avoid


def anchors_of(*texts: str, first: tuple[str, ...] = (), known: tuple[str, ...] = ()) -> list[str]:
    """The distinctive words of ``texts`` (``first`` lead the list), at most MAX_ANCHORS;
    ``known`` are anchors found before (a call's, from its whole input), each counted twice.

    Read whole (up to MAX_WHOLE characters each: a plan, an edit, a reason), not their first
    lines: when more than fit, those named most often win (a name in the opening
    MAX_HEAD characters counts as named twice more). The MAX_AUDIT_TERMS best come first,
    in the order they first appear (the words the audit looks for), then the others, in
    that order too.
    """
    found: list[str] = []
    for word in first:
        _add(found, word)
    seen: dict[str, list[int]] = {}  # word -> [weight, first position]
    position = 0
    for text in texts:
        text = text[:MAX_WHOLE]
        spans = [(m.start(), m.group(1).strip()) for m in _BACKTICK.finditer(text)]
        tokens = [
            (m.start(), m.group(0))
            for m in _TOKEN.finditer(text)
            if _distinctive(_clean(m.group(0))) or _CAMEL.search(m.group(0).strip(".,:;!?'\"()`"))
        ]
        for start, raw in sorted(
            [(at, span if " " not in span else span.split()[0]) for at, span in spans] + tokens
        ):
            word = _clean(raw)
            if not any(ch.isalnum() for ch in word) or word in STOP_WORDS or word in found:
                continue
            entry = seen.setdefault(word, [0, position + start])
            entry[0] += 3 if position + start < MAX_HEAD else 1
        position += len(text) + 1
    for word in known:
        word = _clean(word)
        if word and word not in STOP_WORDS and word not in found:
            entry = seen.setdefault(word, [0, position])
            entry[0] += 2
            position += 1
    room = MAX_ANCHORS - len(found)
    if room > 0:
        best = sorted(seen.items(), key=lambda kv: (-kv[1][0], kv[1][1]))[:room]
        lead = max(0, MAX_AUDIT_TERMS - len(found))
        for part in (best[:lead], best[lead:]):
            found.extend(word for word, _ in sorted(part, key=lambda kv: kv[1][1]))
    return found


def command_head(command: str) -> str:
    """The program a shell command runs (``npm`` for ``cd x && sudo npm install``), lowercase."""
    segments = re.split(r"&&|\|\||;|\|", command[:MAX_SCAN])
    words: list[str] = []
    for segment in segments:
        words = segment.strip().split()
        if words and words[0] not in ("cd", "pushd", "export", "set", "source", "."):
            break
        words = []
    while words and (words[0] in ("sudo", "env", "time", "nohup", "exec") or "=" in words[0]):
        words = words[1:]
    if not words:
        return ""
    return _clean(words[0].rsplit("/", 1)[-1])


def split_choice(anchors: list[str], text: str) -> tuple[list[str], list[str], list[str]]:
    """(anchors, prefer, avoid) for ``text``: choice words join the anchors first."""
    prefer, avoid = choice_words(text)
    merged: list[str] = []
    for word in [*avoid, *prefer, *anchors]:
        if word not in merged and len(merged) < MAX_ANCHORS:
            merged.append(word)
    return merged, [w for w in prefer if w in merged], [w for w in avoid if w in merged]
