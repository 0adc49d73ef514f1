"""Does a tool call act on what a live record ruled out? One verdict per call.

The call is read as its acts (calls/acts.py: add-package, run, write, delete, move,
rename, each on a typed subject), and each index entry's ruled-out subjects are matched
per kind:

- ``package``: an act that adds it (any package manager in any wrapper; a manifest edit
  that adds it);
- ``command``: a run of the same program whose subcommand and flag family cover the
  subject's (``git push --force`` covers ``-f``, ``--force-with-lease``, ``+main``); a
  rejected call's plain command (no flag family: ``git commit``, ``npm install``) matches
  only as an exact repeat, so one rejected commit does not stop every later commit;
- ``path``: a write, delete or move of the file, or of anything under the folder (or a
  delete/move of a folder that holds it);
- ``name``: a rename to or from it;
- ``approach``: free text, matched on nothing but a one-word approach that is an act's
  subject (an older record's avoid word): a reminder at most.

A call is ``ask`` when it acts on a ruled-out subject of a record that may ask
(constraint.can_ask: the user's, from the client's shapes, a prompt, a terminal or a
teammate), or repeats the user's rejected call exactly (the whole call: a record that
holds only a clipped start of it reminds at most); ``remind`` when the record is the
agent's own, the subject is an approach, the call also acts on what was preferred instead
(``npm install -g pnpm`` after "use pnpm, not npm"), or an edit of source code imports a
ruled-out package; nothing otherwise. A write
that only mentions a subject (docs, comments, a CHANGELOG, a commit message, a test
assertion, a lint rule banning it) is no act on it.

Standard library only, no ``re``: it runs before every tool call that names a subject.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.calls.acts import acts_of, edit_texts
from context_memory.calls.shell import commands_of
from context_memory.core.call_tables import (
    GUARD_GENERIC_PROGRAMS,
    GUARD_GIST_MIN_CHARS,
    GUARD_REASON_MAX_CHARS,
)
from context_memory.core.hookio import EDIT_TOOLS, GUARDED_TOOLS
from context_memory.core.safe_text import CLIP_MARKS, one_line
from context_memory.core.subject import ACTIONABLE_KINDS, path_covers, same_subject
from context_memory.guard.pieces import INPUT_MAX_CHARS as GUARD_INPUT_MAX_CHARS

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, TypedDict

    from context_memory.calls.acts import Act
    from context_memory.core.subject import Subject

    class GuardEntry(TypedDict):
        """One entry of the guard's index: what the guard needs of a live record
        (guard/entries.entry_of writes it). The index file holds it as a JSON line the
        state folder may have damaged, so the matcher reads every key with .get."""

        id: str
        when: str  # the record's time (the evidence row's, else the record's)
        by: str  # user | agent
        kind: str  # rejected | constraint | decided
        source: str
        text: str  # the record's decision, one line, clipped
        reason: str
        quote: str  # the user's words, clipped
        ruled_out: list[Subject]
        preferred: list[Subject]
        ask: bool  # constraint.can_ask: it may make the guard ask
        repeat_asks: bool  # constraint.users_own: an exact repeat of its call asks
        repeat_only: list[str]  # subjects that match only the whole call again
        removal_only: list[str]  # paths that match only another delete or move
        call: dict[str, str] | None  # the rejected call (tool, command | file, gist)


ASK = "ask"
REMIND = "remind"
ALLOW = "allow"
_RANK = {ALLOW: 0, REMIND: 1, ASK: 2}
# The client's own words when the user rejects a call: the user's words are the reason.
CLIENT_REJECTION_START = "The user doesn't want to"
_PATH_VERBS = ("write", "delete", "move")
# Files whose text is code that can import a package (a reminder, never a question).
_CODE_EXTENSIONS = frozenset(
    "js jsx ts tsx mjs cjs vue svelte py ipynb rb go rs java kt php cs swift ex exs".split()
)


class Verdict:
    """What the guard says about one call: ``verdict`` (allow, remind, ask), the index
    entry that matched, and ``what`` (what the call does to the ruled-out subject)."""

    __slots__ = ("entry", "verdict", "what")

    def __init__(self, verdict: str, entry: GuardEntry | None = None, what: str = "") -> None:
        self.verdict = verdict
        self.entry = entry
        self.what = what


def _squash(text: str) -> str:
    return " ".join(text.split())


def clipped(text: str) -> tuple[str, bool]:
    """``text`` without the mark a clipped record text ends with, and whether it had one
    (safe_text.CLIP_MARKS: the clip rule's, and the one older captured records carry)."""
    for mark in CLIP_MARKS:
        if text.endswith(mark):
            return text[: -len(mark)].rstrip(), True
    return text, False


def _same_file(one: str, other: str) -> bool:
    if not one or not other:
        return False
    one, other = one.rstrip("/"), other.rstrip("/")
    if one == other:
        return True
    # A relative path in one record, the absolute path in the call (or the reverse).
    longer, shorter = (one, other) if len(one) >= len(other) else (other, one)
    return not shorter.startswith("/") and longer.endswith("/" + shorter.lstrip("./"))


# -- an exact repeat of a rejected call --------------------------------------------------------


def _command_keys(command: str) -> list[tuple[str, ...]]:
    return [c.key() for c in commands_of(command) if c.program not in ("", "cd")]


def repeat_of(entry: GuardEntry, tool: str, tool_input: dict[str, Any]) -> str:
    """ASK when the call is the entry's rejected call again, whole: the same command (as
    the shell reads it, ``cd`` aside), or the same file with the same text; REMIND when
    the record holds only the start of the rejected call (clipped) and this call starts
    the same way: a prefix is no proof of the same call (a commit message's first words);
    ALLOW otherwise."""
    call = entry.get("call")
    if not isinstance(call, dict) or call.get("tool") != tool:
        return ALLOW
    if tool == "Bash":
        rejected, cut = clipped(_squash(str(call.get("command") or "")))
        given = tool_input.get("command")
        if not rejected or not isinstance(given, str):
            return ALLOW
        command = _squash(given[:GUARD_INPUT_MAX_CHARS])
        if cut:
            return (
                REMIND
                if len(rejected) >= GUARD_GIST_MIN_CHARS and command.startswith(rejected)
                else ALLOW
            )
        if command == rejected:
            return ASK
        keys = _command_keys(rejected)
        return ASK if keys and keys == _command_keys(given[:GUARD_INPUT_MAX_CHARS]) else ALLOW
    path = tool_input.get("file_path") or tool_input.get("notebook_path")
    if not isinstance(path, str) or not _same_file(str(call.get("file") or ""), path):
        return ALLOW
    gist, cut = clipped(_squash(str(call.get("gist") or "")))
    if not gist:
        return ALLOW
    written = _squash(" ".join(new for new, _ in edit_texts(tool, tool_input)))
    if cut:
        return REMIND if len(gist) >= GUARD_GIST_MIN_CHARS and written.startswith(gist) else ALLOW
    return ASK if written == gist else ALLOW


# -- acting on a subject -------------------------------------------------------------------


def _command_hit(item: Subject, act: Act) -> bool:
    wanted = item["value"].split()
    have = act["subject"]["value"].split()
    if not wanted or not have or wanted[0] != have[0]:
        return False
    words = set(have[1:]) | set(act["detail"].split()[1:])
    return all(word in words for word in wanted[1:])


def acts_on(item: Subject, act: Act) -> bool:
    """Whether ``act`` acts on the ruled-out subject ``item`` (module docstring)."""
    kind, verb, value = item["kind"], act["verb"], act["subject"]["value"]
    if kind == "package":
        return verb == "add-package" and same_subject(item, act["subject"])
    if kind == "command":
        return verb == "run" and _command_hit(item, act)
    if kind == "path":
        if verb not in _PATH_VERBS or act["subject"]["kind"] != "path":
            return False
        if path_covers(item["value"], value):
            return True
        return (
            verb in ("delete", "move") and value.endswith("/") and path_covers(value, item["value"])
        )
    if kind == "name":
        return verb == "rename" and value == item["value"]
    if kind == "approach":
        word = item["value"].lower()
        if " " in word:
            return False
        if verb in ("add-package", "rename"):
            return value.lower() == word
        if verb == "run":
            # git, python, make...: too common to be what an old avoid word meant
            return value.split(" ", 1)[0] == word and word not in GUARD_GENERIC_PROGRAMS
        base = value.rstrip("/").rsplit("/", 1)[-1].lower()
        return base.split(".", 1)[0] == word
    return False


def _prefers(entry: GuardEntry, acts: list[Act]) -> bool:
    """Whether the call also acts on what the entry preferred (a migration to it)."""
    for preferred in entry.get("preferred") or ():
        value = str(preferred.get("value", "")).lower()
        for act in acts:
            have = act["subject"]["value"].lower()
            if have == value or (act["verb"] == "run" and have.split(" ", 1)[0] == value):
                return True
    return False


def _describe(act: Act) -> str:
    value = act["subject"]["value"]
    if act["verb"] == "add-package":
        detail = act["detail"]  # the command that adds it, or the manifest edited
        if " " in detail:
            return detail
        return f"adds {value} to {detail}" if detail else f"adds {value}"
    if act["verb"] == "run":
        return act["detail"] or value
    if act["verb"] == "rename":
        return f"renames {act['detail']} {value}"
    return f"{act['verb']}s {value}"


def _imports(tool: str, tool_input: dict[str, Any], names: list[str]) -> str:
    """The ruled-out package an edit of a source file imports ('' for none)."""
    path = tool_input.get("file_path") or tool_input.get("notebook_path")
    if not isinstance(path, str) or path.rsplit(".", 1)[-1].lower() not in _CODE_EXTENSIONS:
        return ""
    for new, old in edit_texts(tool, tool_input):
        for line in new.splitlines():
            text = line.strip()
            if not text.startswith(("import ", "from ", "const ", "let ", "var ", "require")):
                continue
            for name in names:
                quoted = any(f"{q}{name}{end}" in text for q in "'\"" for end in ("'", '"', "/"))
                bare = text.startswith(("import ", "from ")) and (
                    f"import {name}" in text or f"from {name}" in text
                )
                if (quoted or bare) and line not in old:
                    return name
    return ""


def _entry_verdict(
    entry: GuardEntry, tool: str, tool_input: dict[str, Any], acts: list[Act]
) -> tuple[str, str]:
    repeat = repeat_of(entry, tool, tool_input)
    if repeat != ALLOW:
        command = tool_input.get("command") or tool_input.get("file_path") or ""
        if repeat == ASK and not entry.get("repeat_asks"):
            repeat = REMIND  # the agent's own rejection: a reminder, never a question
        if repeat == ASK:
            return ASK, _squash(str(command))[:200]
        best_repeat = (REMIND, _squash(str(command))[:200])
    else:
        best_repeat = (ALLOW, "")
    repeat_only = entry.get("repeat_only") or ()
    removal_only = entry.get("removal_only") or ()
    best, what = ALLOW, ""
    for item in entry.get("ruled_out") or ():
        if item["kind"] in ("command", "path") and item["value"] in repeat_only:
            continue  # the rejected call's own command or file: only the whole call again
        removal = item["kind"] == "path" and item["value"] in removal_only
        for act in acts:
            if not acts_on(item, act) or (removal and act["verb"] not in ("delete", "move")):
                continue
            verdict = ASK if entry.get("ask") and item["kind"] in ACTIONABLE_KINDS else REMIND
            if verdict == ASK and _prefers(entry, acts):
                verdict = REMIND
            if _RANK[verdict] > _RANK[best]:
                best, what = verdict, _describe(act)
    if best == ALLOW and tool in EDIT_TOOLS:
        names = [i["value"] for i in entry.get("ruled_out") or () if i["kind"] == "package"]
        imported = _imports(tool, tool_input, names) if names else ""
        if imported:
            best, what = REMIND, f"imports {imported}"
    if best == ALLOW:
        return best_repeat
    return best, what


def judge(tool: str, tool_input: dict[str, Any], entries: list[GuardEntry]) -> Verdict:
    """The verdict on one call against the index entries (newest last)."""
    if tool not in GUARDED_TOOLS or not isinstance(tool_input, dict) or not entries:
        return Verdict(ALLOW)
    acts = acts_of(tool, tool_input)
    best = Verdict(ALLOW)
    for entry in reversed(entries):  # the newest record wins a tie
        verdict, what = _entry_verdict(entry, tool, tool_input, acts)
        if _RANK[verdict] > _RANK[best.verdict]:
            best = Verdict(verdict, entry, what)
        if best.verdict == ASK:
            break
    return best


# -- the texts -------------------------------------------------------------------------------


def _clip(text: str, limit: int) -> str:
    return one_line(text, limit)


def _when(entry: Mapping[str, Any]) -> str:
    stamp = entry.get("when") or entry.get("ts") or ""
    return stamp[:10] if isinstance(stamp, str) and len(stamp) >= 10 else "an earlier date"


def _said(entry: Mapping[str, Any]) -> str:
    """The user's words (the quote), else the decision and its reason."""
    quote = entry.get("quote") or ""
    if quote and not quote.startswith(CLIENT_REJECTION_START):
        return _clip(quote, 240)
    text = entry.get("text") or ""
    reason = entry.get("reason") or ""
    return _clip(f"{text} ({reason})" if reason else text, 240)


def ask_text(verdict: Verdict) -> str:
    """The reason shown to the user (and, in ``-p`` mode, the model's tool result): what
    was ruled out, when, in the user's words, and what this call does."""
    entry: Mapping[str, Any] = verdict.entry or {}
    found = entry.get("call")
    call: dict[str, Any] = found if isinstance(found, dict) else {}
    rejected = call.get("command") or call.get("file") or entry.get("text") or ""
    what = _clip(verdict.what or rejected, 120)
    said = _said(entry)
    reason = entry.get("reason") or ""
    why = f" (why: {_clip(reason, 200)})" if reason and _clip(reason, 200) not in said else ""
    if entry.get("kind") == "rejected":
        text = f"You rejected `{_clip(rejected, 120)}` on {_when(entry)}: '{said}'{why}."
        if _squash(what) != _squash(_clip(rejected, 120)):
            text += f" This call {_runs(what)}."
    else:
        text = f"On {_when(entry)} you said: '{said}'{why}. This call {_runs(what)}."
    text += f" Run it anyway? [ctx-guard, record {entry.get('id', '?')}]"
    return _clip(text, GUARD_REASON_MAX_CHARS)


def _runs(what: str) -> str:
    verbs = ("adds ", "writes ", "deletes ", "moves ", "renames ", "imports ")
    return what if what.startswith(verbs) else f"runs `{what}`"


def remind_text(verdict: Verdict) -> str:
    """The reminder the model reads after the call ran."""
    entry: Mapping[str, Any] = verdict.entry or {}
    who = "the user" if entry.get("by") == "user" else "you (the agent)"
    what = _clip(verdict.what or entry.get("text") or "", 120)
    text = (
        f"[CONTEXT MEMORY] This call touches `{what}`, which {who} ruled out on "
        f"{_when(entry)}: '{_said(entry)}'. Check that it follows that decision "
        f"(record {entry.get('id', '?')})."
    )
    return _clip(text, GUARD_REASON_MAX_CHARS)
