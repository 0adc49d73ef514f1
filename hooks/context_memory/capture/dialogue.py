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
- A directive typed in a prompt is ``stated_item``; one that names a language in its own
  words ("한글로", "中文") carries the language's English name as an anchor
  (``with_languages``): the word a handoff uses.
"""

from __future__ import annotations

from context_memory.capture.agent_text import MAX_OPTION_CHARS, MAX_OPTIONS
from context_memory.capture.items import make_item
from context_memory.capture.plan import MAX_PLAN, plan_summary
from context_memory.capture.prompts import language_names, stated_subjects
from context_memory.capture.text import clip

TYPE_CHECKING = False  # typing costs an import on the Stop path; mypy still reads the block
if TYPE_CHECKING:
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


def picked_item(row: dict[str, Any], typed: str, label: str, option: str) -> Item:
    """The user's decision: the option of the agent's offer that a short reply picks."""
    chosen = f"option {label}: {option}" if label else option
    item = make_item(
        "decided",
        "user",
        "prompt",
        row,
        decision=f"chose {chosen}",
        reason="the user's reply to the options the agent offered",
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
    for key in ("rec", "proposal"):
        value = offer.get(key)
        if isinstance(value, str) and value:
            out[key] = clip(value, MAX_OPTION_CHARS if key == "proposal" else 4)
    return out
