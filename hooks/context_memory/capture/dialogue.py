"""The dialogue context of a prompt: what the agent's previous turn offered, and the items a
reply to it states (issue 26, item 3).

- The agent's latest text may offer options (agent_text.offer_in: a numbered or lettered
  list, "Option A:" headings, with a question; the one it recommends; a single proposal
  with an alternative). The engine carries that offer, bounded (``bounded_offer``), until
  the user's next prompt; a short reply that picks one ("1", "option 2", "the first one",
  "1번으로 진행해줘", "yes, do that" for the recommended one) is the user's decision with
  the option's own text (``picked_item``; prompts.picked_option reads the reply).
- "Implement the following plan:" is the prompt the client writes when the user approves
  a plan and clears the context: the user's approved plan (``handoff_item``), anchors from
  the whole plan.
- A directive typed in a language other than English (a prompt, an AskUserQuestion
  answer, a rejection's reason) waits for the agent's reply, whose names (backticked spans,
  identifiers, the Latin words of a reply in another script) join its anchors
  (``Dialogue.hold``, ``reply_names``); so do the English words of the reply's thinking
  where it restates what the user said ("The user wants a skill ...", ``thinking_gist``):
  the words a handoff and the audit use for it (the labelling rules' terms for a
  non-English item are such words).
- A directive typed in a prompt is ``stated_item``; one that names a language in its own
  words ("한글로", "中文") carries the language's English name as an anchor
  (``with_languages``): the word a handoff uses.
"""

from __future__ import annotations

import re

from context_memory import TYPE_CHECKING
from context_memory.capture.agent_text import MAX_OPTION_CHARS, MAX_OPTIONS, offer_in
from context_memory.capture.items import make_item
from context_memory.capture.plan import MAX_PLAN, plan_summary
from context_memory.capture.prompts import language_names, stated_subjects
from context_memory.capture.text import clip
from context_memory.memory.constraint import MAX_ANCHORS

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from context_memory.capture.items import Item

# The prompt the client writes when the user approves a plan and clears the context: the
# plan follows; it is the user's approval (an approved plan), not the user's own words.
HANDOFF_START = "Implement the following plan:"


def handoff_item(row: dict[str, Any], text: str) -> Item:
    """The approved plan a hand-off prompt carries (anchors from the whole plan)."""
    plan = text.lstrip()[len(HANDOFF_START) :]
    summary = plan_summary(plan)
    return make_item(
        "decided",
        "user",
        "plan",
        row,
        decision=f"approved plan: {summary}" if summary else "approved plan",
        quote=clip(text),
        call={"tool": "ExitPlanMode", "gist": summary},
        whole=(plan[:MAX_PLAN],),
        tier="structural",
        subjects=([], []),
    )


def picked_item(
    row: dict[str, Any], typed: str, label: str, option: str, question: str = ""
) -> Item:
    """The user's decision: the option of the agent's offer that a short reply picks; its
    reason names the question the options answer, when the agent asked one."""
    chosen = f"option {label}: {option}" if label else option
    asked = f": {question}" if question else ""
    item = make_item(
        "decided",
        "user",
        "prompt",
        row,
        decision=f"chose {chosen}",
        reason=f"the user's reply to the options the agent offered{asked}",
        quote=typed,
        choice_text=option,
        tier="stated",
        subjects=stated_subjects("decided", option),
    )
    return with_languages(item, option)


def stated_item(row: dict[str, Any], kind: str, text: str, quote: str) -> Item:
    """The item of a directive typed in a prompt (prompts.classify): tier ``stated``, its
    subjects typed with every language's stance cues."""
    item = make_item(
        kind,
        "user",
        "prompt",
        row,
        decision=text,
        quote=quote,
        choice_text=text,
        tier="stated",
        subjects=stated_subjects(kind, text),
    )
    return with_languages(item, text)


def with_languages(item: Item, text: str) -> Item:
    """``item`` with the English names of the languages ``text`` names as anchors
    ("한글로" -> korean): the word a handoff uses."""
    for name in language_names(text):
        if name not in item["anchors"]:
            item["anchors"].append(name)
    return item


# A question the user left with "Chat about this" stays open while they talk it over: the
# agent's replies that offer nothing new do not replace it, and the prompts that only ask
# back do not use it up, for at most this many prompts (the key: prompts it stays open for).
OPEN = "open"
MAX_OPEN_PROMPTS = 3
# The agent's calls that only look things up while the question is talked over ("which is
# smaller?" may need a search); any other call (an edit, a command, a new question, a plan)
# moves the work on, and the question talked over is closed.
LOOKUP_TOOLS = frozenset(
    ("Read", "Grep", "Glob", "LS", "WebSearch", "WebFetch", "TodoWrite", "ToolSearch")
)


def bounded_offer(offer: dict[str, Any]) -> dict[str, Any]:
    """An offer read back from a carried state, with only the expected, bounded fields."""
    out: dict[str, Any] = {}
    options = offer.get("options")
    if isinstance(options, list):
        kept = [
            [clip(o[0], 4), clip(o[1], MAX_OPTION_CHARS)]
            for o in options[:MAX_OPTIONS]
            if isinstance(o, list) and len(o) == 2 and all(isinstance(v, str) for v in o)
        ]
        if kept:
            out["options"] = kept
    for key in ("rec", "proposal", "question"):
        value = offer.get(key)
        if isinstance(value, str) and value:
            out[key] = clip(value, 4 if key == "rec" else MAX_OPTION_CHARS)
    still_open = offer.get(OPEN)
    if out.get("options") and type(still_open) is int and 0 < still_open <= MAX_OPEN_PROMPTS:
        out[OPEN] = still_open
    return out


# --- the carried context -------------------------------------------------------------------

MAX_HELD = 4  # prompt items waiting for the agent's reply (and those behind them)
_BEHIND = "_behind"  # the mark of an item that waits only for its turn
# How many of an item's anchors are its own (the rest the agent's reply added): the audit's
# words (memory/decisions.make_captured_record).
OWN_ANCHORS = "own_anchors"
MAX_CALL_NAMES = 4  # anchors of one of the agent's calls that a held item takes
# The agent's first calls after an item is held name what it acted on in answer; reading
# every call of a long turn would cost a Stop a few ms per hundred calls for little.
MAX_NAMING_CALLS = 3
MAX_HELD_ANCHORS = MAX_ANCHORS  # a held item's anchors, its own and those its reply adds
MAX_REPLY_NAMES = 4  # names a reply adds to a held item's anchors
REPLY_SCAN = 2000  # characters of the reply read for names
_TOKEN_TRIM = " \t\n.,;:!?()[]{}<>\"'*，。；：！？、（）「」《》"


def reply_names(reply: str) -> list[str]:
    """The names the agent's reply uses (lowercase, each once): its backticked spans and
    identifiers; in a reply mostly in a language without Latin letters, also its Latin
    words (there they are the technical names: "worktree", "skill")."""
    text = reply[:REPLY_SCAN]
    found: list[str] = []
    spans = text.split("`")
    for span in spans[1::2]:
        if 0 < len(span) <= 40 and "\n" not in span:
            found.append(span.strip().lower())
    latin = sum(1 for c in text if c.isascii() and c.isalpha())
    # Han, kana and Hangul say in one character what Latin says in three or four
    mostly_other = 3 * sum(1 for c in text if c.isalpha() and not c.isascii()) >= latin
    for raw in "".join(spans[0::2]).split():
        word = raw.strip(_TOKEN_TRIM)
        if not word.isascii() or len(word) < 3 or not any(c.isalpha() for c in word):
            continue
        shaped = any(c in word for c in "_./") or (word[1:] != word[1:].lower())
        if shaped or mostly_other:
            found.append(word.lower())
    names: list[str] = []
    for name in found:
        if name and name not in names:
            names.append(name)
    return names[:MAX_REPLY_NAMES]


MAX_GIST_WORDS = 20  # words a thinking or an English reply adds to a held item
GIST_SCAN = 1500  # characters of a thinking block read
MAX_LISTED = 6  # lines of the list a sentence about the user introduces
_LIST_LINE = re.compile(r"\s*(?:[-*•]|\d{1,2}[.)])\s+\S")
# A sentence of the agent's thinking about what the user said, wants or turned down.
_ABOUT_USER = re.compile(
    r"\b(?:the user|user's|user (?:is|wants|wanted|asks|asked|said|says|prefers|would like|"
    r"needs|chose|picked|selected|rejected|declined|does(?:n't| not)|did(?:n't| not))|"
    r"they want|they'd like)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z][A-Za-z-]{2,23}")
# Words of the restating itself and grammar, not of what is restated (content words such as
# "new", "all", "old", which the anchors' STOP_WORDS leave out, stay: "a new worktree").
_GIST_STOP = frozenset(
    """a an the this that these those it its it's they them we you i me my our your us and
    or but if then so as of to in on at by for with from into onto about over is are was
    were be been being do does did done have has had can could would should will shall may
    might must not no yes ok okay please just also very really too here there now when
    where why how what which who whose want need like make going get got see look think know
    user user's users wants wanted asks asked asking says said saying mentioned mentions
    prefers needs chose picked selected declined
    tells told telling would they them their he she his her him means meaning seems
    clarifying clarify clarified understand understood trying tried request requested
    requesting requests let's let me now okay right actually basically already""".split()
)


def thinking_gist(thinking: str) -> list[str]:
    """The English words (lowercase, each once) of the first two sentences of the agent's
    thinking and of those that restate the user ("The user wants the dashboard as an HTML
    file"), and of the list
    such a sentence introduces ("The user wants me to:" then "1. ...", "- ..."), bounded:
    words of letters only, so no token or number is taken."""
    # Its first two sentences say what it is about to do about the message, like an English
    # reply's first two (reply_gist).
    chosen: list[str] = _sentences(thinking)[:2]
    listing = 0  # list lines still to take after "The user ...:"
    for line in thinking[:GIST_SCAN].split("\n"):
        if listing and _LIST_LINE.match(line):
            chosen.append(line)
            listing -= 1
            continue
        listing = 0
        for sentence in _sentences(line):
            if _ABOUT_USER.search(sentence):
                chosen.append(sentence)
                listing = MAX_LISTED if sentence.rstrip().endswith((":", "：")) else 0
    return _gist(chosen)


def reply_gist(reply: str) -> list[str]:
    """The English words of the first two sentences of a reply written in English to a
    message that was not ("Let me install Flutter and set up the desktop app in
    parallel"): the reply says in English what it does about the message."""
    if 3 * sum(1 for c in reply if c.isalpha() and not c.isascii()) >= sum(
        1 for c in reply if c.isascii() and c.isalpha()
    ):
        return []  # a reply in the message's own language: its names only (reply_names)
    return _gist(_sentences(reply)[:2])


def call_gist(tool: str, tool_input: object) -> list[str]:
    """The English words a call's own prose uses: its ``description`` (Bash, Task, Agent)
    and, for TodoWrite, the items it lists; not its command, code or content."""
    if not isinstance(tool_input, dict):
        return []
    texts: list[str] = []
    description = tool_input.get("description")
    if isinstance(description, str):
        texts.append(description[:GIST_SCAN])
    todos = tool_input.get("todos") if tool == "TodoWrite" else None
    for todo in todos[:MAX_LISTED] if isinstance(todos, list) else []:
        content = todo.get("content") if isinstance(todo, dict) else None
        if isinstance(content, str):
            texts.append(content[:GIST_SCAN])
    return _gist(texts)


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text[:GIST_SCAN]) if s.strip()]


def _gist(sentences: Iterable[str]) -> list[str]:
    words: list[str] = []
    for sentence in sentences:
        for raw in _WORD.findall(sentence):
            word = raw.lower()
            if word in _GIST_STOP or word in words:
                continue
            words.append(word)
            if len(words) >= MAX_GIST_WORDS:
                return words
    return words


class Dialogue:
    """What the engine carries of the dialogue: the options the agent's latest text offered
    (until the user's next prompt takes them), and items typed in a language other than
    English, held for the agent's turn in reply (until the next prompt or the end of the
    data read, ``release``): the names its text, thinking and calls use join their anchors,
    the English words a handoff and the audit use for them. Items captured while one is
    held wait behind it (``behind``), so that records keep the order of their rows: a later
    record supersedes an earlier one. JSON-able and bounded (``to_state``)."""

    def __init__(self, state: object = None) -> None:
        self._offer: dict[str, Any] = {}
        self._held: list[Item] = []
        self._calls_named = 0  # calls that named the held items (a new hold starts again)
        if isinstance(state, dict):
            offer = state.get("offer")
            self._offer = bounded_offer(offer) if isinstance(offer, dict) else {}
            held = state.get("held")
            if isinstance(held, list):
                self._held = [i for i in held[-MAX_HELD:] if isinstance(i, dict)]
            named = state.get("calls_named")
            self._calls_named = named if isinstance(named, int) and named >= 0 else 0

    def to_state(self) -> dict[str, Any]:
        return {"offer": self._offer, "held": self._held, "calls_named": self._calls_named}

    def agent_text(self, text: str) -> None:
        """The agent wrote ``text``: its offer replaces the last one; held items take the
        names it uses, and the words of its first sentences when it is in English
        (``reply_gist``)."""
        if not text.strip():
            return
        offer = offer_in(text)
        if offer.get("options") or not self._offer.get(OPEN):
            self._offer = offer  # a question talked over stays, unless options replace it
        if self._held:
            # Held items are typed in another language: an English reply restates them.
            self._name_held(reply_names(text) + reply_gist(text))

    def agent_thinking(self, thinking: str) -> None:
        """The agent thought ``thinking``: held items take the words of its sentences
        about the user (``thinking_gist``)."""
        if self._held and thinking.strip():
            self._name_held(thinking_gist(thinking))

    def agent_call_words(self, tool: str, tool_input: object) -> None:
        """The agent's call says in English what it is about to do (its ``description``,
        the items of a TodoWrite): held items take its words (``call_gist``)."""
        if self.wants_call_names():
            self._name_held(call_gist(tool, tool_input))

    def wants_call_names(self) -> bool:
        """Whether the agent's next call should name the held items (``agent_call``)."""
        return self.holds() and self._calls_named < MAX_NAMING_CALLS

    def agent_call(self, names: list[str]) -> None:
        """The agent called a tool on ``names`` (the call's anchors): held items take the
        first few (what the agent acted on in answer)."""
        if self._held:
            self._calls_named += 1
            self._name_held(names[:MAX_CALL_NAMES])

    def _name_held(self, names: list[str]) -> None:
        for item in self._held:
            if item.get(_BEHIND):
                continue  # in English, or no reply's: only waiting for its turn
            anchors = item.setdefault("anchors", [])
            for name in names:
                if len(anchors) >= MAX_HELD_ANCHORS:
                    break
                if name not in anchors:
                    anchors.append(name)

    def offered(self, offer: dict[str, Any], *, talked_over: bool = False) -> None:
        """What the next prompt may pick from, offered other than in the agent's text (a
        question the user turned down to type the answer); one ``talked_over`` ("Chat about
        this") stays open for the prompts that talk it over (``OPEN``)."""
        if offer.get("options"):
            self._offer = bounded_offer({**offer, OPEN: MAX_OPEN_PROMPTS if talked_over else 0})

    def take_offer(self) -> dict[str, Any]:
        """The offer a prompt answers: used once, except a question talked over, which
        stays for the next prompt too (one fewer) until ``settled``."""
        offer = self._offer
        left = offer.get(OPEN, 0) - 1
        self._offer = {**offer, OPEN: left} if left > 0 else {}
        return offer

    def settled(self) -> None:
        """The prompt answered the question talked over: it is closed."""
        if self._offer.get(OPEN):
            self._offer = {}

    def agent_called(self, tool: str) -> None:
        """The agent called ``tool``: a question talked over is closed unless the call only
        looks something up (LOOKUP_TOOLS)."""
        if tool not in LOOKUP_TOOLS:
            self.settled()

    def holds(self) -> bool:
        """Whether an item waits for the agent's reply (the reply's names are wanted)."""
        return any(not item.get(_BEHIND) for item in self._held)

    def release(self) -> list[Item]:
        """The held items in their order, without a reply (a new prompt came first, or the
        run ends)."""
        out, self._held = self._held, []
        self._calls_named = 0
        for item in out:
            item.pop(_BEHIND, None)
        return out

    def behind(self, items: list[Item]) -> list[Item]:
        """``items`` now, or, while an item is held, after it: captured later, they are
        written later (a record supersedes the earlier ones it contradicts)."""
        out: list[Item] = []
        for item in items:
            if not self._held:
                out.append(item)
                continue
            item[_BEHIND] = True
            out.extend(self._queue(item))
        return out

    def _queue(self, item: Item) -> list[Item]:
        """Append ``item``; the oldest leave (in order) beyond MAX_HELD."""
        self._held = [*self._held, item]
        out = self._held[: max(0, len(self._held) - MAX_HELD)]
        self._held = self._held[len(out) :]
        for left in out:
            left.pop(_BEHIND, None)
        return out

    def hold(self, item: Item) -> list[Item]:
        """``item`` held for the agent's reply: the words its text, thinking and calls use
        in answer join its anchors (the labels' terms are often the agent's word for what
        the user said: a typo corrected, a message in another language restated). When the
        user's words (its text, or the reason typed for a rejected call) are English, they
        stay the words the audit looks for."""
        said = f"{item.get('decision', '')} {item.get('reason', '')}"
        if not any(c.isalpha() and not c.isascii() for c in said):
            # In English the user's own words say it: the reply's words come after them,
            # and only the user's are the words the audit looks for (OWN_ANCHORS).
            item[OWN_ANCHORS] = len(item.get("anchors", []))
        return self._queue(item)
