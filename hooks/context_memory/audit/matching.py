"""Is a recorded decision still present in a text? Term extraction and a presence test.

A decision is reduced to its distinctive terms: its ``keywords`` when it has them, else
the words of 3+ characters that are not stop words, numbers with their unit, names in
code style (``redis.yaml``, ``max_connections``, ``read-through``) and, for Chinese and
Japanese, character bigrams. The decision is present in a text when most of its terms are.
Everything is compared after NFKC normalisation and case folding, so full-width and
half-width forms match, as do upper and lower case.

This is a rough approximation and is tuned to err one way: a decision reported lost when
the summary kept it costs a few tokens of re-injection, one reported kept when it was lost
costs the user a re-explanation. Pure functions, standard library only.

Size: about 480 lines, one algorithm: term extraction and the presence test are tuned
against each other (bench/bench_audit_quality.py measures them together); split, one
tuning would be spread over two files.
"""

from __future__ import annotations

import bisect
import math
import re
import unicodedata

from context_memory import TYPE_CHECKING
from context_memory.core.tables import (
    AUDIT_CJK_STOP_BIGRAMS,
    AUDIT_CJK_STOP_CHARS,
    AUDIT_PRESENT_FRACTION,
    AUDIT_REASON_MARKERS,
    AUDIT_STOP_WORDS,
    AUDIT_UNIT_ALIASES,
    AUDIT_UNITS,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

WORD = "word"
CODE = "code"
NUMBER = "number"
CJK = "cjk"

MIN_WORD_LENGTH = 3

_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{_CJK_CHARS}]+")
_HIRAGANA = re.compile("[\u3040-\u309f]")
_BACKTICKED = re.compile(r"`([^`\n]{1,120})`")
# Every spelling of every unit, longest first so that "ms" is not read as "m".
_CANONICAL_UNIT = {
    alias.casefold(): canonical
    for canonical, aliases in AUDIT_UNIT_ALIASES.items()
    for alias in aliases
}
_ALL_UNITS = sorted(
    {unit.casefold() for unit in AUDIT_UNITS} | set(_CANONICAL_UNIT), key=len, reverse=True
)
_UNIT_ALTERNATION = "|".join(re.escape(unit) for unit in _ALL_UNITS)
# Between a number and its unit: nothing, a space or a hyphen ("6-node"), and the Chinese
# measure word 个 ("6 个节点").
_UNIT_GAP = r"[\s\-]?(?:[个個]\s?)?"
# A number glued to (or one space from) a unit; "%" needs no word boundary after it.
_NUMBER_UNIT = re.compile(
    r"(?<![A-Za-z0-9_.])[+\-±~]?(\d+(?:[.,]\d+)?)"
    + _UNIT_GAP
    + rf"(?:(%)|({_UNIT_ALTERNATION})(?![A-Za-z0-9_]))",
    re.IGNORECASE,
)
_SEPARATED_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:(?:::|[._/\-])[A-Za-z0-9_]+)+"
_CAMEL_NAME = r"[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*"
_TOKEN = re.compile(
    rf"(?P<code>{_SEPARATED_NAME}|{_CAMEL_NAME})"
    r"|(?P<number>\d+(?:\.\d+)+|\d{2,})"
    r"|(?P<word>[^\W\d_][^\W_]*)"
)
_CAMEL = re.compile(_CAMEL_NAME)
_NAME_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])|[0-9]+")
_ALNUM_RUN = re.compile(r"[^\W_]+")
# A letter or digit that is not CJK: Latin words end where Chinese text begins ("会话TTL").
_LATIN_CHAR = rf"[^\W_{_CJK_CHARS}]"
_LATIN_RUN = re.compile(_LATIN_CHAR + "+")
_FIRST_WORD = re.compile(r"[^\W_]")
_SEPARATOR = r"[\s._/:\-]*"


def normalize(text: str) -> str:
    """NFKC (full-width -> half-width), case-folded, whitespace collapsed to single spaces."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def stem(word: str) -> str:
    """A light English stem, so that lock/locks/locked and cache/caching/cached meet."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "zes")):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls0123456789":
        word = word[:-1]
    return word


class Term:
    """One distinctive term: its kind, its normalised text (shown to people) and its test."""

    __slots__ = ("_pattern", "kind", "name", "piece", "strong", "text")

    def __init__(
        self, kind: str, text: str, *, strong: bool = False, name: bool | None = None
    ) -> None:
        self.kind = kind
        self.text = text
        # Names, code, numbers identify a decision on their own; a plain lower-case word
        # rarely does. ``name``: written like a name anywhere, even as a first word.
        self.strong = strong or kind in (CODE, NUMBER)
        self.name = self.strong if name is None else name
        # For a CJK bigram: (offset, piece) of the run of text it comes from.
        self.piece: tuple[int, str] | None = None
        self._pattern: re.Pattern[str] | None = None

    def __repr__(self) -> str:
        return f"Term({self.kind!r}, {self.text!r})"

    @property
    def weight(self) -> int:
        """Names count double: a summary that keeps a decision keeps its names."""
        return 2 if self.strong else 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and (self.kind, self.text) == (other.kind, other.text)

    def __hash__(self) -> int:
        return hash((self.kind, self.text))

    def pattern(self) -> re.Pattern[str]:
        if self._pattern is None:
            if self.kind == NUMBER:
                self._pattern = _number_pattern(self.text)
            else:
                parts = [re.escape(part) for part in _ALNUM_RUN.findall(self.text)]
                body = _SEPARATOR.join(parts) if parts else re.escape(self.text)
                # A trailing plural or verb ending is allowed on the last part.
                self._pattern = re.compile(
                    rf"(?<!{_LATIN_CHAR}){body}(?:s|es|ed|ing)?(?!{_LATIN_CHAR})"
                )
        return self._pattern


def unit_term(number: str, unit: str) -> Term:
    """The term of a number with its unit, the unit in its canonical spelling."""
    unit = unit.casefold()
    return Term(NUMBER, number + _CANONICAL_UNIT.get(unit, unit))


def _number_pattern(text: str) -> re.Pattern[str]:
    match = re.fullmatch(r"(\d+(?:[.,]\d+)?)(.*)", text)
    if match is None:
        return re.compile(re.escape(text))
    number, unit = match.groups()
    number = re.escape(number).replace(r"\.", "[.,]").replace(",", "[.,]")
    if not unit:
        return re.compile(rf"(?<![\d.,]){number}(?![\d]|[.,]\d)")
    spellings = AUDIT_UNIT_ALIASES.get(unit, (unit,))
    alternation = "|".join(
        re.escape(spelling.casefold()) for spelling in sorted(spellings, key=len, reverse=True)
    )
    after = "" if unit == "%" else "(?![a-z0-9_])"
    return re.compile(rf"(?<![\d.,]){number}{_UNIT_GAP}(?:{alternation}){after}")


def _word_term(word: str, *, first: bool = False) -> Term | None:
    folded = word.casefold()
    if folded in AUDIT_STOP_WORDS:
        return None
    # Shorter words count only as names in capitals or with a digit: IK, CI, S3, K8.
    if len(folded) < MIN_WORD_LENGTH and not (
        len(word) == MIN_WORD_LENGTH - 1
        and word[0].isalnum()
        and (word.isupper() or any(ch.isdigit() for ch in word))
        and not word.isdigit()
    ):
        return None
    # Capitals or digits mark a name (Codis, PostgreSQL, HTTP2), which is distinctive; the
    # capital of a text's first word is only the start of a sentence.
    digits = any(ch.isdigit() for ch in word)
    capitals = word[1:] if first else word
    strong = capitals != capitals.lower() or digits
    return Term(WORD, folded, strong=strong, name=word != word.lower() or digits)


def _code_term(name: str) -> Term | None:
    if _CAMEL.fullmatch(name):
        # Matched part by part with flexible separators: maxConnections ~ max_connections.
        parts = [part.casefold() for part in _NAME_PART.findall(name)]
        return Term(CODE, " ".join(parts)) if sum(map(len, parts)) >= MIN_WORD_LENGTH else None
    folded = name.casefold()
    parts = _ALNUM_RUN.findall(folded)
    if not parts or sum(len(part) for part in parts) < MIN_WORD_LENGTH:
        return None
    if folded in AUDIT_STOP_WORDS:
        return None
    return Term(CODE, folded)


def _cjk_pieces(run: str) -> list[tuple[int, str]]:
    """``run`` cut at glue characters, stop bigrams and hiragana (Japanese grammar: particles,
    verb endings): (offset, piece) of 2+ characters."""
    pieces: list[tuple[int, str]] = []
    start = 0
    index = 0
    while index <= len(run):
        cut = 0
        if index == len(run) or run[index] in AUDIT_CJK_STOP_CHARS or _HIRAGANA.match(run[index]):
            cut = 1
        elif run[index : index + 2] in AUDIT_CJK_STOP_BIGRAMS:
            cut = 2
        if cut:
            if index - start >= 2:
                pieces.append((start, run[start:index]))
            index += cut
            start = index
        else:
            index += 1
    return pieces


def _cjk_terms(run: str) -> list[tuple[int, Term]]:
    found: list[tuple[int, Term]] = []
    for offset, piece in _cjk_pieces(run):
        for index in range(len(piece) - 1):
            term = Term(CJK, piece[index : index + 2])
            term.piece = (offset, piece)
            found.append((offset + index, term))
    return found


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def extract_terms(text: str) -> list[Term]:
    """The distinctive terms of ``text``, in order of appearance, without duplicates."""
    source = unicodedata.normalize("NFKC", text)
    # The text's first word, if it is a Latin one, is capitalised as a sentence start.
    first_word = _FIRST_WORD.search(source)
    found: list[tuple[int, Term]] = []
    term: Term | None
    for match in _BACKTICKED.finditer(source):
        inner = match.group(1).strip()
        if _ALNUM_RUN.fullmatch(inner) and not _CAMEL.fullmatch(inner):
            term = _word_term(inner)
            if term is not None:
                term.strong = True  # written as code: a name
        else:
            term = _code_term(inner)
        if term is not None:
            found.append((match.start(), term))
        source = _blank(source, match.start(), match.end())
    for match in _NUMBER_UNIT.finditer(source):
        number, percent, unit = match.groups()
        found.append((match.start(), unit_term(number, percent or unit)))
        source = _blank(source, match.start(), match.end())
    for match in _CJK_RUN.finditer(source):
        for offset, term in _cjk_terms(match.group()):
            if term.piece is not None:
                term.piece = (match.start() + term.piece[0], term.piece[1])
            found.append((match.start() + offset, term))
        source = _blank(source, match.start(), match.end())
    for match in _TOKEN.finditer(source):
        kind = match.lastgroup
        value = match.group()
        if kind == "code":
            term = _code_term(value)
        elif kind == "number":
            term = Term(NUMBER, value)
        else:
            first = first_word is not None and match.start() == first_word.start()
            term = _word_term(value, first=first)
        if term is not None:
            found.append((match.start(), term))
    found.sort(key=lambda item: item[0])
    terms: list[Term] = []
    seen: set[Term] = set()
    for _, term in found:
        if term not in seen:
            seen.add(term)
            terms.append(term)
    return terms


def decision_head(text: str) -> str:
    """The part of a decision text before its justification ("X (because ...)" -> "X")."""
    folded = unicodedata.normalize("NFKC", text)
    cut = len(folded)
    lowered = folded.lower()
    for marker in AUDIT_REASON_MARKERS:
        position = lowered.find(unicodedata.normalize("NFKC", marker))
        if 0 < position < cut:
            cut = position
    return folded[:cut]


def keyword_terms(keywords: Iterable[str]) -> list[Term]:
    """Terms for a record's own keywords: each keyword is one term, matched as a phrase."""
    terms: list[Term] = []
    for keyword in keywords:
        folded = normalize(keyword)
        if not folded:
            continue
        match = _NUMBER_UNIT.fullmatch(folded)
        if match is not None:
            number, percent, unit = match.groups()
            term = unit_term(number, percent or unit)
        elif _CJK_RUN.search(folded):
            term = Term(CJK, folded.replace(" ", ""))
        elif " " in folded or not _ALNUM_RUN.fullmatch(folded):
            term = Term(CODE, folded)
        else:
            term = Term(WORD, folded, strong=True)
        if term not in terms:
            terms.append(term)
    return terms


def decision_terms(decision: str, keywords: Sequence[str] = ()) -> list[Term]:
    """The terms a summary must contain for ``decision`` to count as kept.

    Keywords win when the record has them. Otherwise the terms of the decision's name
    (the text before "because", "(", "因为" ...) are used when they identify it (two
    terms, or one name-like term); else the terms of the whole text.
    """
    if keywords:
        terms = keyword_terms(keywords)
        if terms:
            return terms
    head = decision_head(decision)
    if head != decision:
        head_terms = extract_terms(head)
        if len(head_terms) >= 2 or any(term.name for term in head_terms):
            return head_terms
    return extract_terms(decision)


# Prefix matches ("postgres" ~ "postgresql", "mongo" ~ "mongodb") need words this long,
# the shorter at least this share of the longer.
MIN_PREFIX_LENGTH = 5
MIN_PREFIX_SHARE = 0.7


class ContextIndex:
    """A text prepared for many presence tests: normalised once, its words stemmed once."""

    __slots__ = ("compact", "sorted_stems", "stems", "text")

    def __init__(self, text: str) -> None:
        self.text = normalize(text)
        words = set(_LATIN_RUN.findall(self.text))
        self.stems = words | {stem(word) for word in words}
        self.sorted_stems = sorted(self.stems)
        # CJK text is written without spaces; a summary may still put some in.
        self.compact = self.text.replace(" ", "")

    def _has_word(self, word: str) -> bool:
        stemmed = stem(word)
        if stemmed in self.stems or word in self.stems:
            return True
        if len(stemmed) < MIN_PREFIX_LENGTH:
            return False
        # A longer word of the text that starts with this one...
        position = bisect.bisect_left(self.sorted_stems, stemmed)
        while position < len(self.sorted_stems):
            candidate = self.sorted_stems[position]
            if not candidate.startswith(stemmed):
                break
            if len(stemmed) >= MIN_PREFIX_SHARE * len(candidate):
                return True
            position += 1
        # ...or a shorter one that this one starts with.
        shortest = max(MIN_PREFIX_LENGTH, math.ceil(MIN_PREFIX_SHARE * len(stemmed)))
        return any(stemmed[:size] in self.stems for size in range(shortest, len(stemmed)))

    def has(self, term: Term) -> bool:
        if term.kind == WORD:
            return self._has_word(term.text)
        if term.kind == CJK:
            return term.text in self.compact
        return term.pattern().search(self.text) is not None


class Presence:
    """The outcome of one presence test."""

    __slots__ = ("found", "missing", "present", "score")

    def __init__(
        self, present: bool, found: list[str], missing: list[str], score: float = 0.0
    ) -> None:
        self.present = present
        self.found = found
        self.missing = missing
        self.score = score  # weighted share of the terms found, 0..1

    def __repr__(self) -> str:
        return (
            f"Presence(present={self.present}, found={self.found}, missing={self.missing}, "
            f"score={self.score:.2f})"
        )


def is_present(found: float, total: float, fraction: float = AUDIT_PRESENT_FRACTION) -> bool:
    """Most (weighted) terms found. No terms at all cannot be confirmed: not present."""
    return total > 0 and found >= fraction * total - 1e-9


def _tiled_share(piece: str, hits: set[str]) -> float:
    """The share of ``piece`` covered by found bigrams that do not overlap.

    Chinese words are mostly two characters; a bigram that straddles two words is noise.
    The best tiling of the piece into found, non-overlapping bigrams counts each word once
    ("图片上传" = 图片 + 上传) and ignores the straddling ones ("片上"), while a piece that
    shares only a three-character word with the text ("服务端渲染" vs "服务端") covers
    two of its five characters, not three.
    """
    best = [0] * (len(piece) + 1)
    for end in range(1, len(piece) + 1):
        best[end] = best[end - 1]
        if end >= 2 and piece[end - 2 : end] in hits:
            best[end] = max(best[end], best[end - 2] + 2)
    return best[len(piece)] / len(piece)


def _cjk_coverage(terms: Sequence[Term], hits: set[Term]) -> tuple[float, float]:
    """(found, total) weight of the CJK bigrams, piece by piece.

    A piece of n characters weighs n-1 (its bigrams) and scores the share of its
    characters that found bigrams cover without overlapping.
    """
    pieces: dict[tuple[int, str], set[str]] = {}
    for term in terms:
        if term.kind == CJK and term.piece is not None:
            found_here = pieces.setdefault(term.piece, set())
            if term in hits:
                found_here.add(term.text)
    found = total = 0.0
    for (_, piece), found_here in pieces.items():
        total += len(piece) - 1
        found += (len(piece) - 1) * _tiled_share(piece, found_here)
    return found, total


def check_terms(terms: Sequence[Term], index: ContextIndex) -> Presence:
    hits = {term for term in terms if index.has(term)}
    found = [term.text for term in terms if term in hits]
    missing = [term.text for term in terms if term not in hits]
    plain = [term for term in terms if term.kind != CJK or term.piece is None]
    weight_found: float = sum(term.weight for term in plain if term in hits)
    weight_total: float = sum(term.weight for term in plain)
    cjk_found, cjk_total = _cjk_coverage(terms, hits)
    weight_found += cjk_found
    weight_total += cjk_total
    score = weight_found / weight_total if weight_total else 0.0
    return Presence(is_present(weight_found, weight_total), found, missing, score)


def check_decision(decision: str, keywords: Sequence[str], index: ContextIndex) -> Presence:
    """Whether ``decision`` is present in the indexed text, and which of its terms are.

    A decision with no usable term at all (only stop words) is looked up as a whole.
    """
    terms = decision_terms(decision, keywords)
    if terms:
        return check_terms(terms, index)
    whole = normalize(decision)
    present = bool(whole) and whole in index.text
    return Presence(
        present, [whole] if present else [], [] if present else [whole], 1.0 if present else 0.0
    )
