"""Does a tool call do what a live record ruled out? One verdict per call.

The index entries (guard/index.py) carry what a record ruled out (``avoid``), what it chose
instead (``prefer``) and, for a rejected tool call, the call itself (``call``). A call is:

- ``ask``: it repeats a call the user rejected (every simple command of the rejected Bash
  call again, word for word; or an Edit/Write of the same file whose text starts with the
  rejected text), or it runs, installs or writes a name the user ruled out (the program,
  a package or file argument, a file path, a word of the text an edit adds);
- ``remind``: the same, from a record the agent made itself (``by`` is not ``user``); or a
  weaker match: the ruled-out name beside what was chosen instead in the same command or
  text (``npm install -g pnpm``; "moment -> date-fns"), an edit of a rejected file whose
  text is close to the rejected one;
- nothing: anything else. Removing a ruled-out name (``npm uninstall moment``, ``rm``), a
  read-only look at it (``grep``, ``git log``), a name only in prose (a commit message),
  and the chosen option (``pnpm install`` after "use pnpm, not npm") are never flagged.

Standard library only, no ``re``: it runs before every tool call.
"""

from __future__ import annotations

from context_memory.calls.shell import Command, commands_of, name_parts, package_name, text_words
from context_memory.core.prompt_tables import (
    GUARD_GENERIC_PROGRAMS,
    GUARD_GIST_MIN_CHARS,
    GUARD_GIST_REMIND_OVERLAP,
    GUARD_READ_ONLY_PROGRAMS,
    GUARD_READ_ONLY_SUBCOMMANDS,
    GUARD_REASON_MAX_CHARS,
    GUARD_REMOVAL_PROGRAMS,
    GUARD_REMOVAL_SUBCOMMANDS,
)
from context_memory.core.safe_text import one_line
from context_memory.guard.pieces import INPUT_MAX_CHARS as GUARD_INPUT_MAX_CHARS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Check = Callable[[dict[str, Any]], tuple[str, str]]

ASK = "ask"
REMIND = "remind"
ALLOW = "allow"
EDIT_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
GUARDED_TOOLS = ("Bash", *EDIT_TOOLS)
_RANK = {ALLOW: 0, REMIND: 1, ASK: 2}
# The client's own words when the user rejects a call: the user's words are the reason.
CLIENT_REJECTION_START = "The user doesn't want to"


class Verdict:
    """What the guard says about one call: ``verdict`` (allow, remind, ask), the index
    entry that matched, and ``what`` (the words of the call that matched)."""

    __slots__ = ("entry", "verdict", "what")

    def __init__(self, verdict: str, entry: dict[str, Any] | None = None, what: str = "") -> None:
        self.verdict = verdict
        self.entry = entry
        self.what = what


# -- what a call is made of ------------------------------------------------------------------


def _text(value: object) -> str:
    return value[:GUARD_INPUT_MAX_CHARS] if isinstance(value, str) else ""


def call_file(tool_input: dict[str, Any]) -> str:
    return _text(tool_input.get("file_path") or tool_input.get("notebook_path"))


def call_texts(tool: str, tool_input: dict[str, Any]) -> tuple[str, str]:
    """(the text the call writes, the text it replaces) of an edit tool's input."""
    if tool == "Write":
        return _text(tool_input.get("content")), ""
    if tool == "NotebookEdit":
        return _text(tool_input.get("new_source")), ""
    if tool == "MultiEdit":
        edits = tool_input.get("edits")
        new: list[str] = []
        old: list[str] = []
        for edit in edits[:100] if isinstance(edits, list) else ():
            if isinstance(edit, dict):
                new.append(_text(edit.get("new_string")))
                old.append(_text(edit.get("old_string")))
        return "\n".join(new)[:GUARD_INPUT_MAX_CHARS], "\n".join(old)[:GUARD_INPUT_MAX_CHARS]
    return _text(tool_input.get("new_string")), _text(tool_input.get("old_string"))


def _squash(text: str) -> str:
    return " ".join(text.split())


def _same_file(one: str, other: str) -> bool:
    if not one or not other:
        return False
    one, other = one.rstrip("/"), other.rstrip("/")
    if one == other:
        return True
    # A relative path in one record, the absolute path in the call (or the reverse).
    longer, shorter = (one, other) if len(one) >= len(other) else (other, one)
    return not shorter.startswith("/") and longer.endswith("/" + shorter.lstrip("./"))


# -- matching --------------------------------------------------------------------------------


def _anchor_hit(anchor: str, names: set[str], sequence: list[str]) -> bool:
    if " " not in anchor:
        return anchor in names
    parts = anchor.split()
    width = len(parts)
    return any(sequence[i : i + width] == parts for i in range(len(sequence) - width + 1))


def _bash_names(command: Command) -> set[str]:
    names: set[str] = set()
    for word in command.words:
        if word.startswith("-"):
            continue
        names.add(word)
        names.add(package_name(word))
        names.update(name_parts(word))
    return names


def looks_only(command: Command) -> bool:
    if command.program in GUARD_READ_ONLY_PROGRAMS:
        return True
    sub = command.subcommand
    if not sub:  # ``npm --version``: options only
        return any(w in GUARD_READ_ONLY_SUBCOMMANDS for w in command.words)
    return sub in GUARD_READ_ONLY_SUBCOMMANDS


def _removes(command: Command) -> bool:
    return command.program in GUARD_REMOVAL_PROGRAMS or command.subcommand in (
        GUARD_REMOVAL_SUBCOMMANDS
    )


def _bash_avoid(entry: dict[str, Any], commands: list[Command]) -> tuple[str, str]:
    avoid: list[str] = entry.get("avoid") or []
    prefer: list[str] = entry.get("prefer") or []
    if not avoid:
        return ALLOW, ""
    best, what = ALLOW, ""
    for command in commands:
        if looks_only(command) or _removes(command):
            continue
        sequence = [command.program, *command.words]
        names = _bash_names(command)
        for anchor in avoid:
            as_program = anchor == command.program
            if as_program and anchor in GUARD_GENERIC_PROGRAMS:
                continue  # git, python, make...: only the rejected call itself counts
            if not (as_program or _anchor_hit(anchor, names, sequence)):
                continue
            chosen = any(p == command.program or _anchor_hit(p, names, sequence) for p in prefer)
            verdict = REMIND if chosen else ASK
            if _RANK[verdict] > _RANK[best]:
                best = verdict
                what = " ".join([command.program, *command.words[:4]])
    return best, what


def clipped(text: str) -> tuple[str, bool]:
    """``text`` without the ellipsis a clipped record text ends with, and whether it had one."""
    for mark in ("\u2026", "..."):
        if text.endswith(mark):
            return text[: -len(mark)].rstrip(), True
    return text, False


def _bash_repeat(
    entry: dict[str, Any], command_text: str, commands: list[Command]
) -> tuple[str, str]:
    call = entry.get("call")
    if not isinstance(call, dict) or call.get("tool") != "Bash":
        return ALLOW, ""
    rejected_text, cut = clipped(_squash(_text(call.get("command"))))
    if cut:
        # The record holds the start of a long command: the same start is the same call.
        if len(rejected_text) >= GUARD_GIST_MIN_CHARS and command_text.startswith(rejected_text):
            return ASK, rejected_text
        return ALLOW, ""
    rejected = [c for c in commands_of(rejected_text) if c.program != "cd" and not looks_only(c)]
    if not rejected:
        return ALLOW, ""
    keys = {c.key() for c in commands}
    if all(c.key() in keys for c in rejected):
        return ASK, rejected_text
    return ALLOW, ""


def _edit_repeat(entry: dict[str, Any], tool: str, path: str, new_text: str) -> tuple[str, str]:
    call = entry.get("call")
    if not isinstance(call, dict) or call.get("tool") not in EDIT_TOOLS:
        return ALLOW, ""
    if not _same_file(_text(call.get("file")), path):
        return ALLOW, ""
    gist, _ = clipped(_squash(_text(call.get("gist"))))
    new = _squash(new_text)
    if len(gist) >= GUARD_GIST_MIN_CHARS and new.startswith(gist):
        return ASK, path
    gist_words = set(text_words(gist, GUARD_INPUT_MAX_CHARS))
    if gist_words:
        shared = gist_words & set(text_words(new, len(gist) * 2 + 200))
        if len(shared) >= GUARD_GIST_REMIND_OVERLAP * len(gist_words):
            return REMIND, path
    return ALLOW, ""


def _edit_avoid(entry: dict[str, Any], path: str, added: set[str]) -> tuple[str, str]:
    avoid: list[str] = entry.get("avoid") or []
    prefer: list[str] = entry.get("prefer") or []
    path_names = set(name_parts(path.lower().rsplit("/", 1)[-1])) if path else set()
    best, what = ALLOW, ""
    for anchor in avoid:
        if " " in anchor:
            continue  # a command, not a name: texts are matched word by word
        if anchor in path_names:
            return ASK, path
        if anchor in added:
            chosen = any(p in added for p in prefer)
            verdict = REMIND if chosen else ASK
            if _RANK[verdict] > _RANK[best]:
                best, what = verdict, anchor
    return best, what


def judge(tool: str, tool_input: dict[str, Any], entries: list[dict[str, Any]]) -> Verdict:
    """The verdict on one call against the index entries (newest last)."""
    if tool not in GUARDED_TOOLS or not isinstance(tool_input, dict) or not entries:
        return Verdict(ALLOW)
    best = Verdict(ALLOW)
    if tool == "Bash":
        command_text = _text(tool_input.get("command"))
        commands = commands_of(command_text)
        if not commands:
            return best
        squashed = _squash(command_text)
        checks: list[Check] = [
            lambda e: _bash_repeat(e, squashed, commands),
            lambda e: _bash_avoid(e, commands),
        ]
    else:
        path = call_file(tool_input)
        new_text, old_text = call_texts(tool, tool_input)
        added = set(text_words(new_text, GUARD_INPUT_MAX_CHARS)) - set(
            text_words(old_text, GUARD_INPUT_MAX_CHARS)
        )
        checks = [
            lambda e: _edit_repeat(e, tool, path, new_text),
            lambda e: _edit_avoid(e, path, added),
        ]
    for entry in reversed(entries):  # the newest record wins a tie
        for check in checks:
            verdict, what = check(entry)
            if verdict == ASK and entry.get("by") != "user":
                verdict = REMIND  # the agent's own rejection: a reminder, never a question
            if _RANK[verdict] > _RANK[best.verdict]:
                best = Verdict(verdict, entry, what)
        if best.verdict == ASK:
            break
    return best


# -- the texts -------------------------------------------------------------------------------


def _clip(text: str, limit: int) -> str:
    return one_line(text, limit)


def _when(entry: dict[str, Any]) -> str:
    stamp = entry.get("when") or entry.get("ts") or ""
    return stamp[:10] if isinstance(stamp, str) and len(stamp) >= 10 else "an earlier date"


def _said(entry: dict[str, Any]) -> str:
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
    entry = verdict.entry or {}
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
            text += f" This call runs `{what}`."
    else:
        text = f"On {_when(entry)} you said: '{said}'{why}. This call uses `{what}`."
    text += f" Run it anyway? [ctx-guard, record {entry.get('id', '?')}]"
    return _clip(text, GUARD_REASON_MAX_CHARS)


def remind_text(verdict: Verdict) -> str:
    """The reminder the model reads after the call ran."""
    entry = verdict.entry or {}
    who = "the user" if entry.get("by") == "user" else "you (the agent)"
    what = _clip(verdict.what or entry.get("text") or "", 120)
    text = (
        f"[CONTEXT MEMORY] This call touches `{what}`, which {who} ruled out on "
        f"{_when(entry)}: '{_said(entry)}'. Check that it follows that decision "
        f"(record {entry.get('id', '?')})."
    )
    return _clip(text, GUARD_REASON_MAX_CHARS)
