"""The typed subjects of a captured item (memory/constraint.py): what it rules out and what
it prefers, each a subject of a kind.

- a rejected call: what the call would have acted on (calls.acts.subjects_of_call: the
  packages it adds, never the package manager; else its command family; else the paths
  it writes), less what the user's reason prefers; the reason's own stances join them;
- a rejected plan: the packages its shell lines would add (``npm install moment`` in a
  numbered step or a code block), as far as the user's feedback names them ("not moment:
  too heavy"), and the feedback's own stances: a plan is rejected for what the feedback
  says, not for every step in it;
- an answered question: the chosen option is preferred and the options not chosen are
  ruled out, as packages where the question is about a library and the label is one word
  (question.py), else as approaches, which only remind;
- a prompt's directive: the stances of the text (calls.directives.stance_split).

The alternative a reason prefers takes the kind of what the call acted on where the reason
names it only by a word: "too heavy, use date-fns" on ``npm install moment`` prefers the
package date-fns.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core.subject import MAX_SUBJECTS, merged_subjects, same_subject, subject

if TYPE_CHECKING:
    from context_memory.core.subject import Subject

MAX_TEXT = 4000  # characters of a reason or directive read for its stances
# Kinds a bare word of a reason may take from the rejected call's subjects.
_RETYPED_FROM = ("name", "approach", "package", "command")


MAX_PLAN_LINES = 200  # lines of a plan looked at for shell commands
_LIST_MARKS = "-*+>#`$ \t"


def plan_packages(plan: str) -> list[Subject]:
    """The packages a plan's shell lines would add: each line (list markers, numbering,
    backticks and a ``$`` prompt taken off) that starts with a package manager is read as
    a Bash command."""
    from context_memory.calls.acts import subjects_of_call
    from context_memory.core.call_tables import PACKAGE_MANAGERS

    found: list[Subject] = []
    for raw in plan.splitlines()[:MAX_PLAN_LINES]:
        line = raw.strip().lstrip(_LIST_MARKS)
        number = line.split(".", 1)[0].split(")", 1)[0]
        if number.isdigit() and len(number) < 4:
            line = line[len(number) + 1 :].strip().lstrip(_LIST_MARKS)
        line = line.split("`", 1)[0] if line.count("`") % 2 else line.replace("`", " ")
        words = line.split()
        if not words or words[0] not in PACKAGE_MANAGERS:
            continue
        for item in subjects_of_call("Bash", {"command": " ".join(words)}):
            if item["kind"] == "package" and not any(same_subject(item, f) for f in found):
                found.append(item)
    return found[:MAX_SUBJECTS]


def named_in(items: list[Subject], text: str) -> list[Subject]:
    """The subjects of ``items`` whose value ``text`` names as a word of its own."""
    lowered = text.lower()
    found = []
    for item in items:
        value = item["value"].lower()
        at = lowered.find(value)
        while at >= 0:
            before = lowered[at - 1] if at else " "
            end = at + len(value)
            after = lowered[end] if end < len(lowered) else " "
            if not (before.isalnum() or before in "-_@/") and not (
                after.isalnum() or after in "-_"
            ):
                found.append(item)
                break
            at = lowered.find(value, at + 1)
    return found


def of_call(tool: str, tool_input: object) -> list[Subject]:
    """What a call acts on, as a rejection's subjects ([] for an input that is no object);
    for a plan, the packages its shell lines would add (plan_packages)."""
    if not isinstance(tool_input, dict):
        return []
    if tool in ("ExitPlanMode", "exit_plan_mode"):
        plan = tool_input.get("plan")
        return plan_packages(plan) if isinstance(plan, str) else []
    # calls/ is imported when an item needs it: a Stop that captures nothing does not pay.
    from context_memory.calls.acts import subjects_of_call

    try:
        return subjects_of_call(tool, tool_input)[:MAX_SUBJECTS]
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return []  # a damaged input states nothing; capture goes on


def of_text(text: str) -> tuple[list[Subject], list[Subject]]:
    """(ruled_out, preferred) that a directive names."""
    if not text.strip():
        return [], []
    from context_memory.calls.directives import stance_split

    try:
        ruled_out, preferred = stance_split(text[:MAX_TEXT])
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return [], []
    return list(ruled_out)[:MAX_SUBJECTS], list(preferred)[:MAX_SUBJECTS]


def _one_word(value: str) -> bool:
    return bool(value) and " " not in value and "/" not in value


def _retyped(item: Subject, kinds: set[str]) -> Subject:
    """``item`` as a subject of the one kind the call acted on, where it is a bare word."""
    if len(kinds) != 1 or item["kind"] in kinds or item["kind"] not in _RETYPED_FROM:
        return item
    (kind,) = kinds
    if kind not in ("package", "command") or not _one_word(item["value"]):
        return item
    return subject(kind, item["value"]) or item


def _without(items: list[Subject], drop: list[Subject]) -> list[Subject]:
    return [s for s in items if not any(same_subject(s, d) for d in drop)]


def of_rejection(call_subjects: list[Subject], reason: str) -> tuple[list[Subject], list[Subject]]:
    """(ruled_out, preferred) of a rejected call with the user's reason ('' for none)."""
    said_out, said_pref = of_text(reason)
    kinds = {s["kind"] for s in call_subjects}
    said_pref = [_retyped(s, kinds) for s in said_pref]
    said_out = [_retyped(s, kinds) for s in said_out]
    ruled_out = merged_subjects(_without(call_subjects, said_pref), said_out)[:MAX_SUBJECTS]
    return ruled_out, _without(said_pref, ruled_out)
