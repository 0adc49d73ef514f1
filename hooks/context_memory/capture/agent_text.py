"""Source e: the agent's own settled choices, where its text says so (``by: agent``).

A sentence of the agent's text (main chain) is a choice when it names one option over
another ("instead of", "rather than", "in favour of", "switching to", "a cleaner
approach", "to avoid") and says the agent acts on it ("I'll use", "Let me use", "Used",
"Replaced", "Now uses", "Switched"): the AGENT_CHOICES and AGENT_ACTS of the tables of
the sentence's languages (capture/languages/<code>.txt). Diagnosis ("The issue is that X
returns Y instead of Z"), proposals still open (options, questions) and narration are not.
"""

from __future__ import annotations

import re

from context_memory.capture.cues import cues_for
from context_memory.capture.text import MAX_SCAN, sentences

_I = re.IGNORECASE
_NARRATION = re.compile(
    r"^(?:The (?:issue|problem|error|test|reason)|It (?:seems|looks)|This (?:means|is)|I see|"
    r"Looking at|Options?\b|Which|Would you)|\b(?:is|are|was|were) (?:returning|being|still)\b|"
    r"\bfalling back\b|\bcould\b|\bwould\b|\bmight\b",
    _I,
)


# A settled technical choice names a thing: a backticked span, an identifier, a file.
_NAMES = re.compile(r"`[^`\n]{1,80}`|\b\w+[._]\w+|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*")


def settled_choice(text: str) -> str:
    """The first sentence of ``text`` that states a choice the agent acts on, or ''."""
    for sentence in sentences(text):
        if sentence.endswith("?") or len(sentence) < 20 or sentence.startswith("|"):
            continue  # a question, a fragment, a table row (a summary of changes)
        cues = cues_for(sentence)
        if not (cues.agent_choices.search(sentence) and cues.agent_acts.search(sentence)):
            continue
        if _NAMES.search(sentence) and not _NARRATION.search(sentence):
            return sentence
    return ""


# --- what the agent offered: the options a short reply may pick -----------------------------

MAX_OPTIONS = 8
MAX_OPTION_CHARS = 200
# An option line: "1. X", "2) X", "**Option A**: X", "### Option 2 — X", "- B) X", "方案一：X",
# "Option-2: X", "Approach #1: X", "**Plan B** — X", "1️⃣ X" (a keycap emoji). Steps and
# phases are a plan's parts, not options.
_OPTION_LINE = re.compile(
    r"^[ \t]{0,3}(?:[-*+][ \t]+)?(?:#{1,4}[ \t]*)?(?:\*\*|__)?[ \t]*"
    r"(?:(?:option|choice|approach|alternative|solution|strategy|plan|variant|idea|opción|opcion|"
    r"opção|opcao|solución|solucion|solução|solucao|propuesta|proposta|proposition|variante|"
    r"lösung|loesung|möglichkeit|moeglichkeit|ansatz|vorschlag|вариант|решение|способ|方案|选项|"
    r"選項|オプション|案|パターン|옵션|방안|방법)[ \t]*(?:#|№|-|no\.)?[ \t]*"
    r"(?P<word>[1-9A-Fa-f一二三四五六七八九])(?!\w)|(?P<num>[1-9])(?:[.)、．]|\ufe0f?\u20e3)|"
    r"(?P<letter>[A-F])[.):]|\((?P<paren>[1-9a-fA-F])\))"
    r"(?:\*\*|__)?[ \t]*[:：.)\-—–]*[ \t]*(?:\*\*|__)?[ \t]*(?P<text>\S.*)$",
    re.MULTILINE | re.IGNORECASE,
)
# The text asks the user to choose (else a numbered list is a summary, not an offer).
_ASKS = re.compile(
    r"[?？]|\b(?:which|choose|prefer|pick|let me know|would you like|do you want|should I)\b|"
    r"选|選|どれ|どちら|어느|어떤|\b(?:cuál|qué opción|welche|lequel|laquelle|qual|какой|какую)\b",
    re.IGNORECASE,
)
# Code blocks and spans: a "?" in code (`nargs="?"`, a regex) asks the user nothing.
_CODE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.DOTALL)
_RECOMMEND = re.compile(
    r"\b(?:I(?:'d| would)? (?:recommend|suggest)|my recommendation|recommended|I(?:'d| would) go "
    r"with)\b|推荐|推薦|建议|建議|おすすめ|推奨|추천|권장|recomiendo|recomendad[oa]|empfehle|"
    r"empfohlen|recommande|recommandée?|recomendo|рекоменд",
    re.IGNORECASE,
)
_LABEL_AFTER = re.compile(
    r"(?:option|choice|approach|solution|strategy|plan|opción|opção|variante|вариант|方案|选项|"
    r"選項|案|옵션)?[ \t#-]*"
    r"\**(?P<label>[1-9A-F]|[一二三四五六七八九])\b",
    re.IGNORECASE,
)
# A single proposal the agent asks about, with an alternative in it ("Would you like me to
# use X instead?"): a "yes" accepts it.
_PROPOSES = re.compile(
    r"\b(?:would you like|do you want|should I|shall I|want me to|would you prefer)\b",
    re.IGNORECASE,
)
# A question that only asks whether to go ahead with what the text just proposed.
_GO_AHEAD = re.compile(
    r"^(?:so,? )?(?:shall|should) I (?:go ahead|proceed|do (?:that|it|this)|make (?:that|the|this) "
    r"change)|^(?:do you )?want me to (?:go ahead|proceed|do (?:that|it|this))|^(?:would you like|"
    r"do you want) me to (?:go ahead|proceed|do (?:that|it|this))|^(?:ok|okay|sound good|"
    r"sounds good|good|fine) (?:with you|to you)?\?$|^(?:ok|okay) to proceed\?$",
    re.IGNORECASE,
)
_ALTERNATIVE = re.compile(
    r"\binstead\b|\brather than\b|\bswitch(?:ing)? to\b|\breplac(?:e|ing)\b", re.IGNORECASE
)
_CJK_DIGITS = {"一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7",
               "八": "8", "九": "9"}  # fmt: skip


def _label(raw: str) -> str:
    raw = _CJK_DIGITS.get(raw, raw)
    return raw.lower()


# Two options named in one question: "Should I use SQLite or plain JSON files for the
# cache?", "Do you want the report as HTML or as a PDF?". The question asks the user to
# choose (_ASKS_CHOICE); each side is one to three words, the left one read back from " or "
# to the verb or article before it, the right one up to a preposition or the mark.
_ASKS_CHOICE = re.compile(
    r"^(?:so,? |and |or )?(?:should I|shall I|should we|do you (?:want|prefer)|would you "
    r"(?:like|prefer|rather)|which (?:do you|would you|one)|do we (?:want|use|go with)|"
    r"want me to)\b",
    re.IGNORECASE,
)
_SIDE = r"`?[\w.+#/@-]+`?"
_INLINE = re.compile(
    rf"(?P<left>{_SIDE}(?: {_SIDE}){{0,2}}),? or (?:(?:as|with|use|in|on|a|an|the) )*"
    rf"(?P<right>{_SIDE}(?: {_SIDE}){{0,2}}?)(?= (?:for|in|to|on|with|here|instead|so|now|"
    rf"first|then|as|at)\b|[,?]|$)",
    re.IGNORECASE,
)
# Words a side starts after ("use SQLite", "as HTML"), and sides that name no option
# ("or not", "or something else", "continue or stop"): what a reply to them settles is
# the flow of the work, not a choice among alternatives.
_LEADS = frozenset(
    "i we you use using keep add make go with choose pick prefer want like be the a an as to in "
    "it them should shall do would which one is are me my our your this that these those "
    "either".split()
)
_NOT_OPTIONS = frozenset(
    "not no else something anything both neither later now continue stop proceed wait "
    "skip yes ok are is am do does did should would can could will shall have has you i we "
    "they".split()
)


def inline_options(question: str) -> list[list[str]]:
    """The two options one question names ("... SQLite or plain JSON files ...?"), as
    [["1", left], ["2", right]], or [] when it names no two options."""
    if not _ASKS_CHOICE.search(question) or question.count(" or ") != 1:
        return []
    match = _INLINE.search(question)
    if match is None:
        return []
    before = question[: match.start()].rstrip()
    if before.endswith(","):
        words = before[:-1].split()
        if words and words[-1].lower() not in _LEADS | {"prefer", "choose", "rather"}:
            return []  # "SQLite, JSON or YAML": a list of three or more
    left_words = match.group("left").split()
    # read back from " or " to the last verb, preposition or article: "the report as HTML"
    for at in range(len(left_words) - 2, -1, -1):
        if left_words[at].lower().strip("`") in _LEADS:
            left_words = left_words[at + 1 :]
            break
    right_words = match.group("right").split()
    left, right = " ".join(left_words), " ".join(right_words)
    if not left or not right:
        return []
    if {w.lower().strip("`") for w in (*left_words[:1], *right_words[:1])} & _NOT_OPTIONS:
        return []
    return [["1", left.strip("`")], ["2", right.strip("`")]]


def offer_in(text: str) -> dict[str, object]:
    """What one text of the agent offers the user to choose: ``{"options": [[label, text],
    ...], "rec": label, "question": sentence, "proposal": sentence}`` (empty when it offers
    nothing). Options
    need two or more, and the text must ask; the recommended one is the option the text
    recommends ("I recommend option 2", an option marked recommended)."""
    text = text[:MAX_SCAN]
    found: list[list[str]] = []
    labelled: list[list[str]] = []
    for match in _OPTION_LINE.finditer(text):
        raw = match.group("word") or match.group("num") or match.group("letter")
        raw = raw or match.group("paren") or ""
        body = " ".join(match.group("text").replace("**", "").replace("__", "").split())
        entry = [_label(raw), body[:MAX_OPTION_CHARS]]
        target = labelled if match.group("word") else found
        if all(entry[0] != other[0] for other in target) and len(target) < MAX_OPTIONS:
            target.append(entry)
    options = labelled if len(labelled) >= 2 else found
    offer: dict[str, object] = {}
    if len(options) >= 2 and _ASKS.search(_CODE.sub(" ", text)):
        offer["options"] = options
        rec = ""
        for entry in options:
            if _RECOMMEND.search(entry[1]):
                rec = entry[0]
                break
        if not rec:
            for match in _RECOMMEND.finditer(text):
                after = _LABEL_AFTER.search(text, match.end(), match.end() + 60)
                if after and any(_label(after.group("label")) == e[0] for e in options):
                    rec = _label(after.group("label"))
                    break
        if rec:
            offer["rec"] = rec
        # What the options answer: the line that introduces them ("Two ways to store the
        # sessions:"), else the text's last question: the words a record of the pick needs
        # besides the option's own ("Which version tag?").
        first = _OPTION_LINE.search(text)
        lead = text[: first.start()].rstrip().rsplit("\n", 1)[-1] if first else ""
        lead = " ".join(lead.replace("**", "").lstrip("#").split())
        asked = [s for s in sentences(text) if s.endswith(("?", "？"))]
        question = lead or (asked[-1] if asked else "")
        if question:
            offer["question"] = question[:MAX_OPTION_CHARS]
    tail = sentences(text[-600:])
    if "options" not in offer and tail and tail[-1].endswith("?"):
        inline = inline_options(tail[-1])
        if inline:
            offer["options"] = inline
            offer["question"] = tail[-1][:MAX_OPTION_CHARS]
    asks = tail and tail[-1].endswith("?") and _PROPOSES.search(tail[-1])
    if asks and _ALTERNATIVE.search(tail[-1]):
        offer["proposal"] = tail[-1][:MAX_OPTION_CHARS]
    elif asks and len(tail) >= 2 and _GO_AHEAD.search(tail[-1]):
        # "I'd suggest switching to SQLite for the cache. Shall I go ahead?": the question
        # asks about the recommendation before it
        before = tail[-2]
        if _RECOMMEND.search(before) and _ALTERNATIVE.search(before):
            offer["proposal"] = before[:MAX_OPTION_CHARS]
    return offer
