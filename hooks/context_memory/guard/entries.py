"""The guard's index entries: what the guard needs of a live record, typed (memory/
constraint.py), and the pieces that must be in a call for the record to match it at all
(its triggers, precomputed so that the matcher loads only when a call's pieces hit).

Records that carry typed subjects (``ruled_out``/``preferred``) are taken as they are.
Records written before the typed model are read the way the guard can act on them: a
rejected call's subjects are what calls.acts.subjects_of_call says that call would have
acted on (the package it adds, not the package manager), its reason's stance
(calls.directives.stance_split) adds what the user preferred; other records get the stance of
their words (a ctx-decide ``--rejected "Codis; use Redis Cluster"``: Codis ruled out). What
is left of their old avoid words are approach subjects, which only remind.

Then the supersede rule (constraint.live_by_subject, read from the log's end:
constraint.live_newest) runs over the log, whichever source wrote a record. Not on the
hook's fast path: the index is built here when the log changed (guard/index.py reads it).
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.calls.acts import acts_of, subjects_of_call
from context_memory.calls.directives import stance_split
from context_memory.core.call_tables import (
    GUARD_INDEX_MAX_ENTRIES,
    GUARD_TEXT_CHARS,
    PACKAGE_MANAGERS,
)
from context_memory.core.hookio import EDIT_TOOLS
from context_memory.core.safe_text import clip
from context_memory.core.subject import ACTIONABLE_KINDS, merged_subjects, subject, subjects_from
from context_memory.guard.match import clipped
from context_memory.guard.pieces import pieces
from context_memory.memory.constraint import (
    can_ask,
    constraint_of,
    live_newest,
    subject_fields,
    users_own,
)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from context_memory.core.subject import Subject
    from context_memory.guard.match import GuardEntry

# Where the verb of a ctx-decide text turns to what was chosen ("Codis; use Redis").
_CHOICE_MARKS = ("; ", " -> ", " => ", ": use ", ", use ", " use ", " instead use ")


def _str(value: object, limit: int = GUARD_TEXT_CHARS) -> str:
    if not isinstance(value, str):
        return ""
    return clip(" ".join(value.split()), limit)


# -- the typed view of a record ----------------------------------------------------------------


def _call_input(call: Mapping[str, object]) -> tuple[str, dict[str, object]]:
    tool = str(call.get("tool") or "")
    if tool == "Bash":
        command, cut = clipped(str(call.get("command") or ""))
        # A clipped command's last word may be cut short: leave it out.
        return tool, {"command": command.rsplit(" ", 1)[0] if cut else command}
    if tool in EDIT_TOOLS:
        return tool, {"file_path": str(call.get("file") or "")}
    return tool, {}


def _rejected_text(text: str) -> tuple[list[Subject], list[Subject]]:
    """(ruled out, preferred) of a ctx-decide ``--rejected`` text: what it names before
    the choice mark is ruled out, its stance after it."""
    lower = text.lower()
    cut = min((lower.find(m) for m in _CHOICE_MARKS if lower.find(m) > 0), default=-1)
    head, tail = (text[:cut], text[cut:]) if cut > 0 else (text, "")
    out, pref = stance_split(tail) if tail else ([], [])
    head_out, head_pref = stance_split(f"avoid {head}")
    return merged_subjects(head_out, out), merged_subjects(pref, head_pref)


def _swapped_tool(
    tool: str, tool_input: Mapping[str, object], preferred: list[Subject]
) -> list[Subject]:
    """The package manager a rejected call ran, when the reason prefers another one
    (``npm install`` rejected with "use pnpm"): that program is what was ruled out."""
    chosen = {p["value"] for p in preferred if p["kind"] == "command"} & PACKAGE_MANAGERS
    if not chosen:
        return []
    found: list[Subject] = []
    for act in acts_of(tool, tool_input):
        program = act["subject"]["value"].split(" ", 1)[0]
        if act["verb"] == "run" and program in PACKAGE_MANAGERS and program not in chosen:
            made = subject("command", program)
            if made is not None:
                found.append(made)
    return found


def derived_subjects(record: Mapping[str, object]) -> tuple[list[Subject], list[Subject]]:
    """(ruled_out, preferred) of a record written before the typed model (module
    docstring); old avoid/prefer words that name nothing else stay as approach subjects."""
    typed = constraint_of(record)
    legacy_out = typed["ruled_out"] if typed else []
    legacy_pref = typed["preferred"] if typed else []
    text = _str(record.get("decision"), 2000)
    reason = _str(record.get("reason"), 2000)
    call = record.get("call")
    out: list[Subject] = []
    pref: list[Subject] = []
    if isinstance(call, dict) and call.get("tool"):
        tool, tool_input = _call_input(call)
        out = subjects_of_call(tool, tool_input)
        reason_out, pref = stance_split(reason)
        out = merged_subjects(out, reason_out, _swapped_tool(tool, tool_input, pref))
    elif record.get("kind") == "rejected" and "source" not in record:
        out, pref = _rejected_text(text)
        pref = merged_subjects(pref, stance_split(reason)[1])
    elif record.get("kind") == "decided" and "source" not in record:
        alternatives = record.get("alternatives")
        for alternative in alternatives if isinstance(alternatives, list) else ():
            if isinstance(alternative, str):
                out = merged_subjects(out, stance_split(f"avoid {alternative}")[0])
        pref = stance_split(f"use {text}")[1]
    else:
        quote = _str(record.get("quote"), 2000)
        out, pref = stance_split(quote if record.get("by") == "user" and quote else text)
    named = [s for s in out if s["kind"] in ACTIONABLE_KINDS]
    if not named:
        out = merged_subjects(out, legacy_out)
    return out, merged_subjects(pref, [p for p in legacy_pref if not named])


def typed_record(record: Mapping[str, object]) -> dict[str, object]:
    """``record`` with ``ruled_out``/``preferred`` (derived for an older record)."""
    found = dict(record)
    if "ruled_out" in record or "preferred" in record:
        found.update(
            subject_fields(
                subjects_from(record.get("ruled_out")), subjects_from(record.get("preferred"))
            )
        )
        return found
    out, pref = derived_subjects(record)
    found.update(subject_fields(out, pref))
    return found


# -- entries -----------------------------------------------------------------------------------


def _entry_call(call: object) -> dict[str, str] | None:
    if not isinstance(call, dict) or not isinstance(call.get("tool"), str):
        return None
    entry_call = {"tool": _str(call.get("tool"), 40)}
    for key in ("command", "file", "gist"):
        if isinstance(call.get(key), str):
            entry_call[key] = " ".join(str(call.get(key)).split())[:2000]
    return entry_call


def call_scopes(call: Mapping[str, str] | None) -> tuple[list[str], list[str]]:
    """(repeat only, removal only): the subjects a rejected call gives itself that match
    less than their kind would. The user said no to that call, not to everything on its
    subject: a plain command family (``git commit``, ``npm install``, ``python``) and a
    file it would have written match only the whole call again; a path it would have
    deleted or moved, only another delete or move of it. A package it would have added,
    and a flag family (``git push --force``), match as their kind does."""
    if call is None:
        return [], []
    tool, tool_input = _call_input(call)
    repeat: list[str] = []
    removal: list[str] = []
    for act in acts_of(tool, tool_input):
        value = act["subject"]["value"]
        plain_run = act["verb"] == "run" and not any(w.startswith("-") for w in value.split())
        if (plain_run or act["verb"] == "write") and value not in repeat:
            repeat.append(value)
        elif act["verb"] in ("delete", "move") and value not in removal:
            removal.append(value)
    return repeat, [v for v in removal if v not in repeat]


def entry_of(record: Mapping[str, object]) -> GuardEntry | None:
    """The index entry of a live record, or None when it rules nothing out (a typed record:
    it is not re-derived)."""
    kind = record.get("kind")
    if kind not in ("rejected", "constraint", "decided"):
        return None
    typed = record if "ruled_out" in record or "preferred" in record else typed_record(record)
    view = constraint_of(typed)
    if view is None:
        return None
    entry_call = _entry_call(record.get("call"))
    if not view["ruled_out"] and entry_call is None:
        return None
    source = record.get("source")
    by = view["by"]
    repeat_only, removal_only = call_scopes(entry_call)
    return {
        "repeat_only": repeat_only,
        "removal_only": removal_only,
        "id": _str(record.get("id"), 64),
        "when": _str(view["when"], 40),
        "by": by,
        "kind": kind,
        "source": view["source"] if isinstance(source, str) else "ctx-decide",
        "text": _str(record.get("decision")),
        "reason": _str(record.get("reason")),
        "quote": _str(record.get("quote"), 240),
        "ruled_out": view["ruled_out"],
        "preferred": view["preferred"],
        # constraint.can_ask: who may make the guard ask; an exact repeat of the user's
        # rejected call asks whatever its subjects (constraint.users_own: not the agent's
        # own records, not a rejection without the user's reason).
        "ask": can_ask(typed),
        "repeat_asks": users_own(typed),
        "call": entry_call,
    }


def entries_of(records: list[dict[str, Any]]) -> list[GuardEntry]:
    """The entries of the newest live records (log order, at most GUARD_INDEX_MAX_ENTRIES),
    after the supersede rule (constraint.live_newest: the tail of live_by_subject, read
    from the end, so a long log's older records are neither typed nor judged)."""
    entries: list[GuardEntry] = []
    # Live records that make no entry (risks, decisions that rule nothing out) are read
    # past: the window grows until it holds enough entries or the log is read whole.
    wanted = GUARD_INDEX_MAX_ENTRIES
    kinds = [r for r in records if isinstance(r, dict)]
    while True:
        live = live_newest(kinds, wanted, typed_record)
        entries = [e for e in (entry_of(r) for r in live) if e]
        if len(entries) >= GUARD_INDEX_MAX_ENTRIES or len(live) < wanted:
            return entries[-GUARD_INDEX_MAX_ENTRIES:]
        wanted *= 2


def subject_pieces(item: Subject) -> list[str]:
    """The pieces a call must hold to act on ``item``: a command's program and subcommand
    (``git push origin +main`` forces without the word), any other subject's value; none
    for an approach of more than one word (matched on nothing)."""
    value = item["value"]
    if item["kind"] == "command":
        return pieces(" ".join(w for w in value.split() if not w.startswith("-")))
    if item["kind"] == "approach" and len(value.split()) > 1:
        return []
    return pieces(value)


def triggers_of(entry: GuardEntry) -> list[list[str]]:
    """Groups of pieces (guard/pieces.py) such that the entry can match a call only when
    every piece of one group is among the call's pieces: each ruled-out subject's; every
    word of the rejected Bash call; the rejected file's name. match.judge needs one of
    these to say anything, so a call without any is allowed without loading the matcher."""
    groups: list[list[str]] = []
    for item in entry.get("ruled_out") or ():
        found = subject_pieces(item)
        if found:
            groups.append(found)
    call = entry.get("call")
    if isinstance(call, dict) and call.get("tool") == "Bash":
        command, cut = clipped(str(call.get("command") or ""))
        if command and not cut:
            groups.append(pieces(command))
    elif isinstance(call, dict) and isinstance(call.get("file"), str) and call.get("file"):
        groups.append(pieces(call["file"].rstrip("/").rsplit("/", 1)[-1]))
    ordered_groups: list[list[str]] = []
    for group in groups:
        # Longest first: the rarest piece settles most calls at the first look.
        ordered = sorted(dict.fromkeys(group), key=lambda piece: (-len(piece), piece))
        if ordered and ordered not in ordered_groups:
            ordered_groups.append(ordered)
    return ordered_groups
