"""What a tool call acts on: its acts, each a verb and a subject of the typed constraint
model (memory/constraint.py).

Verbs:

- ``add-package`` (subject kind package): a package manager adds or installs it, in any
  wrapper (``bash -c``, ``sh -c``, ``npx``, ``cd x &&``, ``env``/``sudo`` prefixes,
  ``python -c "subprocess.run([...])"``, ``node -e "execSync(...)"``, a here-document fed
  to a shell), or an edit of a manifest adds it (package.json, requirements*.txt,
  pyproject.toml, Cargo.toml, go.mod, Gemfile: calls/manifests.py), by Edit, Write,
  MultiEdit or a here-document redirected into the file;
- ``run`` (kind command): a command, as program + subcommand + canonical flag family
  (``git push -f``, ``--force-with-lease``, ``origin +main`` -> ``git push --force``);
  ``detail`` holds all its words;
- ``write`` / ``delete`` / ``move`` (kind path): Edit/Write/MultiEdit/NotebookEdit, ``>``
  and ``>>``, ``tee``, ``touch``, ``cp``'s target, ``sed -i``; ``rm``, ``git rm``; ``mv``,
  ``git mv`` (both ends; ``detail`` names the other one);
- ``rename`` (kind name): a rename to or from an identifier or a file name (``mv``'s base
  names; an edit that swaps identifiers; ``sed -i 's/Old/New/'``); ``detail`` is ``from``
  or ``to``.

Text a call only writes is no act on what it mentions: a doc that says "we do not use
moment" writes docs/…, it adds no package. The reading of directives in prose
(subjects_in_text, stance_split) is in calls/directives.py (capture's), re-exported here;
the acts of a Bash command line in calls/bash.py.
Standard library only, no ``re``.
"""

from __future__ import annotations

from context_memory.calls.bash import (
    IDENT_CHARS,
    IDENT_START,
    INPUT_MAX_CHARS,
    bash_acts,
    make_act,
    may_be_manifest,
)
from context_memory.core.call_tables import (
    COPYING_PROGRAMS,
    DELETING_PROGRAMS,
    GUARD_READ_ONLY_PROGRAMS,
    IN_PLACE_OPTIONS,
    MOVING_PROGRAMS,
    WRITING_PROGRAMS,
)
from context_memory.core.hookio import EDIT_TOOLS
from context_memory.memory.constraint import same_subject

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from context_memory.calls.bash import Act as Act
    from context_memory.memory.constraint import Subject

MAX_ACTS = 64
MAX_RENAMED = 3  # an edit that swaps at most this many identifiers for as many is a rename


def _text(value: object) -> str:
    return value[:INPUT_MAX_CHARS] if isinstance(value, str) else ""


# -- edits -----------------------------------------------------------------------------------


def edit_texts(tool: str, tool_input: Mapping[str, object]) -> list[tuple[str, str]]:
    """(new text, old text) pairs of an edit tool's input."""
    if tool == "Write":
        return [(_text(tool_input.get("content")), "")]
    if tool == "NotebookEdit":
        return [(_text(tool_input.get("new_source")), "")]
    if tool == "MultiEdit":
        edits = tool_input.get("edits")
        pairs: list[tuple[str, str]] = []
        for edit in edits[:100] if isinstance(edits, list) else ():
            if isinstance(edit, dict):
                pairs.append((_text(edit.get("new_string")), _text(edit.get("old_string"))))
        return pairs
    return [(_text(tool_input.get("new_string")), _text(tool_input.get("old_string")))]


def identifiers(text: str) -> list[str]:
    """The identifiers of ``text`` (letters, digits, ``_``, ``$``; not starting with a digit)."""
    found: list[str] = []
    current: list[str] = []
    for char in (*text, " "):
        if char in IDENT_CHARS:
            current.append(char)
            continue
        if current:
            word = "".join(current)
            if word[0] in IDENT_START and word not in found:
                found.append(word)
            current = []
    return found


def _renames(new: str, old: str) -> list[Act | None]:
    if not old or not new:
        return []
    before, after = identifiers(old), identifiers(new)
    gone = [w for w in before if w not in after]
    came = [w for w in after if w not in before]
    if not (1 <= len(gone) <= MAX_RENAMED and 1 <= len(came) <= MAX_RENAMED):
        return []
    return [make_act("rename", "name", w, "from") for w in gone] + [
        make_act("rename", "name", w, "to") for w in came
    ]


def _edit_acts(tool: str, tool_input: Mapping[str, object]) -> list[Act]:
    path = _text(tool_input.get("file_path") or tool_input.get("notebook_path"))
    found: list[Act | None] = [make_act("write", "path", path, tool)]
    manifest = may_be_manifest(path)
    for new, old in edit_texts(tool, tool_input):
        if manifest:
            from context_memory.calls.manifests import added_packages

            found.extend(
                make_act("add-package", "package", n, path) for n in added_packages(path, new, old)
            )
        found.extend(_renames(new, old))
    acts: list[Act] = []
    for act in found:
        if act is not None and act not in acts:
            acts.append(act)
    return acts


# -- the API ---------------------------------------------------------------------------------


def acts_of(tool: str, tool_input: Mapping[str, object]) -> list[Act]:
    """What the call acts on, in order, each act once (at most MAX_ACTS)."""
    if not isinstance(tool_input, dict):
        return []
    if tool == "Bash":
        return bash_acts(_text(tool_input.get("command")))[:MAX_ACTS]
    if tool in EDIT_TOOLS:
        return _edit_acts(tool, tool_input)[:MAX_ACTS]
    return []


# Programs whose run is no decision about anything (a rejected ``cd x && npm i y`` is about
# npm, not cd).
# A rejected ``rm x``, ``mv a b``, ``cat > f`` is about its files: those programs' runs are
# no subject either (the paths are).
_NO_FAMILY = (
    frozenset(("cd", "pushd", "popd", "export", "set", "source", ".", "true"))
    | GUARD_READ_ONLY_PROGRAMS
    | DELETING_PROGRAMS
    | MOVING_PROGRAMS
    | WRITING_PROGRAMS
    | COPYING_PROGRAMS
    | frozenset(IN_PLACE_OPTIONS)
)


def subjects_of_call(tool: str, tool_input: Mapping[str, object]) -> list[Subject]:
    """What a REJECTED call would have acted on (capture's subject of a rejection): the
    packages it adds (never the package manager), else its command families, else the
    paths it writes, deletes or moves. The runs of ``cd``, of read-only programs and of the
    programs that only handle files (``rm``, ``mv``, ``cp``, ``tee``, ``sed -i``...) are no
    family: a rejected ``rm -rf build/`` is about build/, not about every ``rm``."""
    acts = acts_of(tool, tool_input)
    for verbs in (("add-package",), ("run",), ("write", "delete", "move")):
        found: list[Subject] = []
        for act in acts:
            if act["verb"] not in verbs:
                continue
            if act["verb"] == "run" and act["subject"]["value"].split(" ", 1)[0] in _NO_FAMILY:
                continue
            if not any(same_subject(act["subject"], f) for f in found):
                found.append(act["subject"])
        if found:
            return found
    return []


def subjects_in_text(text: str) -> list[Subject]:
    """The things a user's directive names (calls/directives.py)."""
    from context_memory.calls.directives import subjects_in_text as read

    return read(text)


def stance_split(
    text: str, cues: Mapping[str, tuple[tuple[str, str], ...]] | None = None
) -> tuple[list[Subject], list[Subject]]:
    """(ruled_out, preferred) of a directive (calls/directives.py)."""
    from context_memory.calls.directives import stance_split as split

    return split(text, cues)
