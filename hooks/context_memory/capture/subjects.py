"""The typed subjects of a captured item (memory/constraint.py): what it rules out and what
it prefers, each a subject of a kind.

- a rejected call: what the call would have acted on (calls.acts.subjects_of_call: the
  packages it adds, never the package manager; else its command family; else the paths
  it writes), less what the user's reason prefers; the reason's own stances join them;
- a prompt's directive, plan feedback, an answer: the stances of the text
  (calls.acts.stance_split).

The alternative a reason prefers takes the kind of what the call acted on where the reason
names it only by a word: "too heavy, use date-fns" on ``npm install moment`` prefers the
package date-fns.
"""

from __future__ import annotations

from context_memory.memory.constraint import MAX_SUBJECTS, same_subject, subject

TYPE_CHECKING = False  # typing costs an import on the Stop path; mypy still reads the block
if TYPE_CHECKING:
    from context_memory.memory.constraint import Subject

MAX_TEXT = 4000  # characters of a reason or directive read for its stances
# Kinds a bare word of a reason may take from the rejected call's subjects.
_RETYPED_FROM = ("name", "approach", "package", "command")


def of_call(tool: str, tool_input: object) -> list[Subject]:
    """What a call acts on, as a rejection's subjects ([] for an input that is no object)."""
    if not isinstance(tool_input, dict):
        return []
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
    from context_memory.calls.acts import stance_split

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


def _merged(*lists: list[Subject]) -> list[Subject]:
    found: list[Subject] = []
    for items in lists:
        for item in items:
            if not any(same_subject(item, f) for f in found):
                found.append(item)
    return found[:MAX_SUBJECTS]


def of_rejection(call_subjects: list[Subject], reason: str) -> tuple[list[Subject], list[Subject]]:
    """(ruled_out, preferred) of a rejected call with the user's reason ('' for none)."""
    said_out, said_pref = of_text(reason)
    kinds = {s["kind"] for s in call_subjects}
    said_pref = [_retyped(s, kinds) for s in said_pref]
    said_out = [_retyped(s, kinds) for s in said_out]
    ruled_out = _merged(_without(call_subjects, said_pref), said_out)
    return ruled_out, _without(said_pref, ruled_out)
