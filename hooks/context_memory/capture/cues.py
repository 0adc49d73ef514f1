"""The cue tables: the phrases that make a sentence a correction, rejection, standing
instruction or choice, and the phrases that make it none.

From the labelling rules (tests/fixtures/decision-labels/README.md): a decision is a
choice the session settled, a rejection an option turned down, a constraint a standing
instruction later work must obey; plain task requests, questions, narration and
one-answer formatting are not. A sentence is a candidate when one cue matches and no
veto does; a question counts only when it proposes ("could we", "should we", "do we even
need"), because users often propose by asking.
"""

from __future__ import annotations

import re

from context_memory.capture.language_table import load_tables

# --- languages as data ------------------------------------------------------------------
# One table per language: a data file, capture/languages/<code>.txt (en, zh, ja, ko, es, de,
# fr, pt, ru, vi, it, nl, pl, tr, id, in the order of languages/index.txt), read by
# capture/language_table.py (its format: docs/capture.md, "Language tables") and compiled
# here once. Each field is explained here, once; a table's comments say only what is
# particular to its language.
#
# A table holds these tuples of regular-expression sources (case-insensitive):
#
# - ``DIRECTIVES``: ``(pattern, kind)``: a sentence that matches states a rejection
#   (``rejected``), a standing instruction (``constraint``) or a choice (``decided``), in the
#   labelling rules' sense (the README of tests/fixtures/decision-labels): corrections,
#   standing rules and settled choices, never plain task requests, questions or narration;
# - ``PROPOSALS``: a question counts (is a proposal, and may be captured) only when it
#   matches one of these: "could we use X instead", "何不", "¿y si usamos";
# - ``DEFERS``: an answer typed as free text to an AskUserQuestion that matches settles
#   nothing (unsure, later, to be discussed, "explain first"): no decision (question.py);
# - ``NEITHER``: an answer typed as free text that starts so turns down every option the
#   question offered ("neither, we use luxon"): they are its ruled-out subjects (question.py);
# - ``AGENT_CHOICES`` and ``AGENT_ACTS``: a sentence of the agent's text that matches both
#   names one option over another and says the agent acts on it: the agent's own choice
#   (agent_text.py);
# - ``VETOES``: a sentence that matches is never captured, whatever its cues (thanks, the
#   form of one answer, the user describing the code);
# - ``PICKS``: a short reply that picks one of the options the agent just offered ("1",
#   "option 2", "let's go with B", "the first one"). The pattern matches the whole reply
#   (after trimming); its group ``n`` is the option's label (a digit, a letter or one of
#   ``ORDINALS``);
# - ``ORDINALS``: words of the language for the first, second, ... option (-> 1, 2, ...);
# - ``QUESTIONS``: a question typed without a question mark ("how", "wie", "如何"):
#   prompts.asks_only;
# - ``GOES_ON``: a reply that only says go on ("continue", "weiter"): after a call rejected
#   with no reason it carries no instruction, and the labelling rules count no item (set 2,
#   rule 3);
# - ``AFFIRMS``: a short reply that accepts the one option the agent recommended or
#   proposed ("yes, do that", "that would be perfect");
# - ``ACKNOWLEDGES``: how the agent's reply opens when it takes what the user just said as
#   a correction or an instruction ("You're right", "Good point", "Understood", "明白了",
#   "알겠습니다"): the prompt no other entry reads settled something (acknowledged.py);
# - ``ACCEPTS``: a rejected call's typed reason that starts by saying yes ("yes and be aware
#   I use nvm", "ok but show hidden files too"): unless the rest states a directive ("yes, but
#   use pnpm"), the call is not turned down (engine._rejected);
# - ``CHOOSES``: a short reply that names one of the offered options by its words picks it
#   when it also approves or chooses ("good", "let's", "nimm", "就"): prompts.picked_option;
# - ``STANCES``: ``(cue, form)`` for calls.directives.stance_split, which types a directive's
#   subjects: ``out`` before what it rules out, ``pref`` before what it prefers, ``pref-out``
#   between the two (English's: core/directive_tables.STANCE_CUES); ``SPACED`` is False for
#   languages written without spaces between words, whose cues are spaced out before the
#   split reads them;
# - ``NAMES``: the language's words for languages ("answer in Korean"), with their English
#   names;
# - ``RELAY_INTROS``: regular-expression sources of the words that, on a line that ends with
#   a colon, introduce text relayed from elsewhere ("Codex respondió:", "审查意见："): the
#   analysis of a prompt stops after that line (``PASTE_INTRO``). English's words are here;
# - ``BRIEF_OPENERS``: a prompt whose first line starts with one casts the agent in a role
#   ("Act as a senior python developer", "你是一名资深前端工程师"): written for the agent, it is
#   the user's brief, read whole like one that opens with a markdown heading
#   (prompts.is_brief). A role for a product ("You are a helpful support bot") is none;
# - ``RANGES``, ``LETTERS``, ``WORDS``: what shows a text may be in the language
#   (``languages_in``): a character of its script's ranges, one of its letters, or one of
#   its words (with its ordinals), none of them a word of another table's language.
#
# What no entry matches is not captured: precision first. Every entry has a test written
# from the rule it encodes (tests/capture/test_languages.py), not from a labelled line.
TABLES = load_tables()
_I = re.IGNORECASE
TYPE_CHECKING = False  # typing costs an import on the Stop path; mypy still reads the block
if TYPE_CHECKING:
    from typing import Any
# Kinds in the order a sentence is tested (rejections, standing rules, choices): the first
# kind that matches is the sentence's kind.
KIND_ORDER = ("rejected", "constraint", "decided")


class Cues:
    """The compiled patterns of the languages a text may be in (``cues_for``): directives
    in kind order, vetoes, proposals, picks, affirms. What a reply to an offer or a
    rejected call needs (picks, affirms, chooses, defers, accepts) is compiled when first
    asked for: most turns never ask (PICKS alone costs a fresh process ~4 ms)."""

    __slots__ = (
        "_lazy",
        "_tables",
        "agent_acts",
        "agent_choices",
        "directives",
        "goes_on",
        "proposals",
        "questions",
        "vetoes",
    )

    def __init__(self, tables: tuple[Any, ...]) -> None:
        self._tables = tables
        self._lazy: dict[str, Any] = {}
        self.directives: tuple[tuple[re.Pattern[str], str], ...] = tuple(
            (re.compile(pattern, _I), str(kind))
            for wanted in KIND_ORDER
            for table in tables
            for pattern, kind in table.DIRECTIVES
            if kind == wanted
        )
        proposals = [p for table in tables for p in table.PROPOSALS]
        self.proposals = re.compile("|".join(proposals), _I)
        # A sentence that matches one of these is never captured, whatever its cues.
        self.vetoes = tuple(re.compile(p, _I) for table in tables for p in table.VETOES)
        self.agent_choices = re.compile(
            "|".join(p for table in tables for p in table.AGENT_CHOICES), _I
        )
        self.agent_acts = re.compile("|".join(p for table in tables for p in table.AGENT_ACTS), _I)
        self.questions = tuple(re.compile(p, _I) for table in tables for p in table.QUESTIONS)
        self.goes_on = tuple(re.compile(p, _I) for table in tables for p in table.GOES_ON)

    def _each(self, field: str) -> tuple[re.Pattern[str], ...]:
        if field not in self._lazy:
            patterns = (p for table in self._tables for p in getattr(table, field))
            self._lazy[field] = tuple(re.compile(p, _I) for p in patterns)
        return self._lazy[field]  # type: ignore[no-any-return]

    picks = property(lambda self: self._each("PICKS"))
    affirms = property(lambda self: self._each("AFFIRMS"))
    defers = property(lambda self: self._each("DEFERS"))
    accepts = property(lambda self: self._each("ACCEPTS"))
    brief_openers = property(lambda self: self._each("BRIEF_OPENERS"))
    acknowledges = property(lambda self: self._each("ACKNOWLEDGES"))

    @property
    def chooses(self) -> re.Pattern[str]:
        if "CHOOSES" not in self._lazy:
            joined = "|".join(p for table in self._tables for p in table.CHOOSES)
            self._lazy["CHOOSES"] = re.compile(joined, _I)
        return self._lazy["CHOOSES"]  # type: ignore[no-any-return]


# Compiled once per set of languages, when a text in them is first read: a turn in
# English never pays for the other tables (compiling all of them costs a Stop ~20 ms).
_CUES: dict[tuple[str, ...], Cues] = {}
MAX_DETECT = 2000  # characters of a text looked at to tell its languages
_PUNCTUATION = str.maketrans(dict.fromkeys(",.;:!?¿¡()[]{}\"'`", " "))


def code_of(table: Any) -> str:
    return str(table.code)


# Each table's words that mark a text: its WORDS and its ordinals ("la primera").
_MARK_WORDS = {
    code_of(table): table.WORDS | {word.lower() for word in table.ORDINALS} for table in TABLES
}


def languages_in(text: str) -> tuple[str, ...]:
    """The codes of the languages ``text`` may be in: English always; another where the
    text has its script's characters, a letter of its alphabet or one of its words."""
    sample = text[:MAX_DETECT]
    found = ["en"]
    odd = {c for c in sample if ord(c) > 127}
    words = set(sample.lower().translate(_PUNCTUATION).split())
    for table in TABLES[1:]:
        if (
            any(lo <= c <= hi for c in odd for lo, hi in table.RANGES)
            or any(c in table.LETTERS for c in odd)
            or not words.isdisjoint(_MARK_WORDS[code_of(table)])
        ):
            found.append(code_of(table))
    return tuple(found)


def turns_every_option_down(text: str) -> bool:
    """Whether ``text`` starts by turning down every option offered (``NEITHER``), in any
    language's words: anchored words of one meaning, read whatever language the rest of the
    answer is taken for ("Nenhum, usamos luxon" reads as Spanish too)."""
    if "neither" not in _ONCE:
        joined = "|".join(f"(?:{p})" for table in TABLES for p in table.NEITHER)
        _ONCE["neither"] = re.compile(joined, _I) if joined else None
    pattern = _ONCE["neither"]
    return pattern is not None and pattern.match(text.strip()) is not None


def cues_for(text: str) -> Cues:
    """The compiled patterns for ``text`` (see ``languages_in``)."""
    codes = languages_in(text)
    cues = _CUES.get(codes)
    if cues is None:
        cues = _CUES[codes] = Cues(tuple(t for t in TABLES if code_of(t) in codes))
    return cues


# Read when a directive is typed, not at every Stop (a text's languages need only the marks
# of each table): each built once, at its first call.
_ONCE: dict[str, Any] = {}


def stances() -> dict[str, tuple[tuple[str, str], ...]]:
    """Each language's stance cues (``STANCES``), by code: those of the tables that have
    some."""
    if "stances" not in _ONCE:
        _ONCE["stances"] = {table.code: table.STANCES for table in TABLES if table.STANCES}
    return _ONCE["stances"]  # type: ignore[no-any-return]


def unspaced_cues() -> tuple[str, ...]:
    """The stance cues of the languages written without spaces, longest first (spaced out
    before a split)."""
    if "unspaced" not in _ONCE:
        cues = {cue for table in TABLES if not table.SPACED for cue, _ in table.STANCES}
        _ONCE["unspaced"] = tuple(sorted(cues, key=len, reverse=True))
    return _ONCE["unspaced"]  # type: ignore[no-any-return]


def language_names() -> dict[str, str]:
    """A language's own name for a language -> its English name ("한글" -> "korean")."""
    if "names" not in _ONCE:
        _ONCE["names"] = {
            word.lower(): english for table in TABLES for word, english in table.NAMES.items()
        }
    return _ONCE["names"]  # type: ignore[no-any-return]


ORDINALS: dict[str, int] = {
    word.lower(): number for table in TABLES for word, number in table.ORDINALS.items()
}

# Whole prompts that capture nothing: client wrappers, interrupt markers, continuations.
SKIP_PREFIXES = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "Caveat: The messages below were generated by the user while running local commands",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<user-prompt-submit-hook>",
    "<system-reminder>",
    "<task-notification>",
    "[Request interrupted by user",
    "This session is being continued from a previous conversation",
    "No response requested.",
)

# Lines that start a paste (log, traceback, compiler/linter/test output, a warning, a
# diff, code, data, a quoted document): analysis stops at the first one. An indented list
# item ("    - use pnpm") is the user's own words, not a paste.
_LIST_ITEM = r"(?![-*•+]\s|\d{1,2}[.)]\s)"
PASTE_LINE = re.compile(
    r"^(?:\s{4,}" + _LIST_ITEM + r"\S|\t" + _LIST_ITEM + r"|```|~~~|Traceback \(most recent|"
    # a stack frame ("    at foo (x.js:1:2)", "at com.x.Foo.bar(Foo.java:10)"), not "At least"
    r"\s*File \"|(?-i:\s+at (?:async )?[\w.$<>/]+ ?\(|\s*at (?:[\w$<>]+[./])+[\w$<>]+ ?\()|"
    r"[{}\[\]]\s*$|"
    r"\s*[{\[]\s*\"|\s*[$➜#>] |\s*#{2,6} |\s*\d{1,2}:\d{2}(?::\d{2})?|={3,}|-{3,}|_{3,}|"
    r"\s*\||(?-i:\s*(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(?:/|https?://|\"))|"
    # a tool's own prefix: lowercase ("note:", "hint:"), a logger's capitals ("INFO:"), or
    # an error's ("Error:", "Caused by:"); a typed "Note: ..." or "NOTE: ..." is the user's
    r"(?-i:\s*(?:error|warning|warn|info|debug|hint|note|fatal|remote|ERROR|WARNING|WARN|INFO|"
    r"DEBUG|FATAL|Error|Warning|Fatal|Caused by)[\[:])|\s*npm (?:warn|err!|error|notice)\b|"
    r"\s*[\w./-]+:\d+(?::\d+)?[: ]|\s*E\s{2,}|\s*>>>|\s*\$ |"
    r"(?-i:\s*[A-Z]\w*(?:Warning|Error|Exception):|\s*(?:FAIL|PASS|ERROR|WARN)\s|"
    r"\s*[A-Z]{1,4}\d{3,4}\b)|"
    r"\s*[✓✗✔✘×⎯]|\s*\S+@\d[\w.-]*:|\s*\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\s*##\[|"
    # a shell that cannot find a program ("Command 'flow' not found, but can be installed
    # with:", "zsh: command not found: uv")
    r"(?-i:\s*Command '[^']+' not found\b)|\s*(?:ba|z|fi|k)?sh: (?:[^:\n]+: )?command not found\b|"
    r"\s*Run [\w./-]+@|\s*(?:diff --git|index [0-9a-f]{7}|@@ |\+\+\+ |--- a/)|"
    # code keywords are lowercase: "Let me explain:" and "Return the list as JSON:" are typed
    r"(?-i:\s*(?:def|class|import|from [\w.]+ import|function|const|let|var|export|return|"
    r"#include|package|public|private|fn|impl|func)\s[^\n]*[({:;=]\s*$))",
    _I,
)
# A line that introduces text relayed from elsewhere ("Here is the review from Codex:",
# "The CI output:", "以下是报错：", and each table's ``RELAY_INTROS``: "Codex respondió:",
# "Der Reviewer schreibt:", "审查意见："): what follows is not the user's words. It names what
# is relayed or where it is from: "Here are my rules:" and "Please do the following:"
# introduce the user's own list.
_RELAY_SPACED = "|".join(w for t in TABLES if t.SPACED for w in t.RELAY_INTROS)
_RELAY_UNSPACED = "|".join(w for t in TABLES if not t.SPACED for w in t.RELAY_INTROS)
PASTE_INTRO = re.compile(
    r"(?:\b(?:review|feedback|output|log|logs|error|errors|response|reply|answer|says|said|"
    r"wrote|suggests|comments?|report|trace|message|result|results|pasted?|doc|docs|document|"
    r"email|article|snippet|transcript" + (f"|{_RELAY_SPACED}" if _RELAY_SPACED else "") + r")\b"
    r"[^:\n]{0,60}|\bfrom (?:the |another |my )?(?:other )?(?:ai|model|llm|agent|codex|gemini|"
    r"chatgpt|gpt-?\w*|copilot|cursor|colleague|coworker|teammate|reviewer)\b[^:\n]{0,40}|"
    # "as follows" relays unless it introduces the user's own rules ("要求如下：")
    r"(?<!要求)(?<!规则)(?<!規則)(?<!需求)(?<!约束)(?<!約束)(?<!原则)(?<!原則)(?:如下|以下|下面)|"
    r"报错|報錯|日志|日誌|输出|輸出|回复|回覆|以下の(?!ルール|要件|条件|仕様|手順|方針|制約)|次の(?!ルール|要件|条件|仕様|手順|方針|制約)|다음"
    + (f"|(?:{_RELAY_UNSPACED})[^:：\n]{{0,20}}" if _RELAY_UNSPACED else "")
    + r")[:：]\s*$",
    _I,
)
