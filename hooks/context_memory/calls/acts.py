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
(subjects_in_text, stance_split) is in calls/directives.py (capture's).
Standard library only, no ``re``.

Size: one module for the acts of a Bash command line (packages added through any
wrapper, the command families run, the files written, deleted and moved, the renames) and
of an edit, because ctx-guard's matcher loads it for every call that names a record's
subject, before every such tool call: as two modules it was one more import there (a
tenth of a millisecond of the hook's few), and no caller wanted one half without the
other.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.calls.shell import Command, commands_of, quoted_strings
from context_memory.core.call_tables import (
    COPYING_PROGRAMS,
    DELETING_PROGRAMS,
    DELETING_SUBCOMMANDS,
    FLAG_FAMILIES,
    FORCE_REFSPEC,
    GUARD_READ_ONLY_PROGRAMS,
    IN_PLACE_OPTIONS,
    MANIFEST_ENDINGS,
    MANIFEST_NAMES,
    MOVING_PROGRAMS,
    MOVING_SUBCOMMANDS,
    NO_FILE_TARGETS,
    PACKAGE_ADDER_PREFIXES,
    PACKAGE_ADDERS,
    PACKAGE_VALUE_OPTIONS,
    PROCESS_CALLS,
    RUNNER_PROGRAMS,
    RUNNER_SUBCOMMANDS,
    SCRIPT_RUNNERS,
    SHELLS,
    SUBCOMMAND_ALIASES,
    SUBCOMMAND_PROGRAMS,
    WRITING_PROGRAMS,
)
from context_memory.core.hookio import EDIT_TOOLS
from context_memory.core.subject import same_subject, subject

SOURCE_QUOTES = "'\"`"  # the string literals of Python, JavaScript and Ruby

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TypedDict

    from context_memory.core.subject import Subject

    class Act(TypedDict):
        verb: str  # add-package | run | write | delete | move | rename
        subject: Subject
        detail: str


MAX_ACTS = 64
MAX_RENAMED = 3  # an edit that swaps at most this many identifiers for as many is a rename
MAX_DEPTH = 4  # bash -c 'sh -c "..."': wrappers read this deep
MAX_SCRIPT_COMMANDS = 16  # the process calls of one python -c / node -e script read
INPUT_MAX_CHARS = 64 * 1024
_DETAIL_CHARS = 300
IDENT_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
IDENT_CHARS = IDENT_START | frozenset("0123456789")


def make_act(verb: str, kind: str, value: str, detail: str = "") -> Act | None:
    """An act on the normalised subject (None when nothing is left of the value)."""
    made = subject(kind, value)
    if made is None:
        return None
    return {"verb": verb, "subject": made, "detail": detail[:_DETAIL_CHARS]}


def may_be_manifest(path: str) -> bool:
    """Whether ``path`` can be a manifest (calls/manifests.manifest_form says which): a
    cheap look, so that calls/manifests loads only for such a file."""
    base = path.rstrip("/").rsplit("/", 1)[-1].lower()
    return base.endswith(MANIFEST_ENDINGS) or base in MANIFEST_NAMES


def identifier(text: str) -> bool:
    return bool(text) and text[0] in IDENT_START and all(c in IDENT_CHARS for c in text)


# -- Bash ----------------------------------------------------------------------------------


def _plain(
    words: list[str], raw: list[str], values: frozenset[str] = PACKAGE_VALUE_OPTIONS
) -> list[tuple[int, str]]:
    """(position, raw word) of the words that are no option and no option's value (the
    options of ``values`` take one)."""
    found: list[tuple[int, str]] = []
    skip = False
    for at, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word.startswith("-") and len(word) > 1:
            skip = raw[at] in values and "=" not in word
            continue
        found.append((at, raw[at]))
    return found


def _subcommand(program: str, words: list[str], raw: list[str]) -> tuple[str, int]:
    """The canonical subcommand of a program that has one, and where it is (-1: none)."""
    if program not in SUBCOMMAND_PROGRAMS:
        return "", -1
    plain = _plain(words, raw)
    if not plain:
        return "", -1
    at, word = plain[0]
    word = word.lower()
    return SUBCOMMAND_ALIASES.get((program, word), word), at


def family_of(program: str, words: list[str], raw: list[str]) -> str:
    """``git push --force`` for ``git push origin +main``: program, canonical subcommand,
    the flag families the call's options belong to (sorted)."""
    sub, at = _subcommand(program, words, raw)
    families: set[str] = set()
    table = FLAG_FAMILIES.get((program, sub), {})
    for index, word in enumerate(raw):
        if index == at or not word.startswith("-") or word == "-":
            continue
        whole = word.split("=", 1)[0]
        if whole in table:
            families.add(table[whole])
        elif not word.startswith("--"):
            families.update(table[f"-{c}"] for c in word[1:] if f"-{c}" in table)
    force = FORCE_REFSPEC.get((program, sub))
    if force and any(len(w) > 1 and w.startswith("+") for _, w in _plain(words, raw)[1:]):
        families.add(force)
    return " ".join(w for w in (program, sub, *sorted(families)) if w)


def _unwrap(command: Command) -> tuple[str, list[str], list[str]]:
    """The program a runner starts (``npx tsc`` -> tsc, ``pnpm dlx x`` -> x) with its
    words; the command itself otherwise."""
    program, words, raw = command.program, command.words, command.raw
    for _ in range(3):
        if program in RUNNER_PROGRAMS:
            start = 0
        elif words and (program, words[0]) in RUNNER_SUBCOMMANDS:
            start = 1
        else:
            break
        plain = _plain(words[start:], raw[start:])
        if not plain or (program == "timeout" and len(plain) < 2):
            break
        at = plain[1][0] if program == "timeout" else plain[0][0]
        at += start
        program = raw[at].rsplit("/", 1)[-1].lower()
        words, raw = words[at + 1 :], raw[at + 1 :]
    return program, words, raw


def _package_words(program: str, words: list[str], raw: list[str]) -> list[str] | None:
    """The words that name packages when this command adds packages (None: it does not)."""
    sequence = [program, *words]
    for prefix in PACKAGE_ADDER_PREFIXES:
        if tuple(sequence[: len(prefix)]) == prefix:
            rest = len(prefix) - 1
            return [w for _, w in _plain(words[rest:], raw[rest:])]
    if program == "pacman":
        return (
            [w for _, w in _plain(words, raw)] if any(w.startswith("-s") for w in words) else None
        )
    if (program, "") in PACKAGE_ADDERS:
        return [w for _, w in _plain(words, raw)][1:]
    plain = _plain(words, raw)
    if not plain or (program, plain[0][1].lower()) not in PACKAGE_ADDERS:
        return None
    names = [w for _, w in plain[1:]]
    if program == "dotnet" and names and names[0].lower() == "package":
        names = names[1:]
    return names


def _package_of_word(program: str, word: str) -> str:
    """The package a word names, '' for a path, a URL, a file or a requirements list."""
    text = word.strip().strip("'\"")
    if not text or text[0] in "./~" or "://" in text or text.startswith("git+"):
        return ""
    if text.endswith((".whl", ".tgz", ".tar.gz", ".zip", ".txt", ".json", ".toml")):
        return ""
    if program == "go":
        return text.split("@", 1)[0].lower()
    if "/" in text and not text.startswith("@"):
        return ""  # user/repo shorthand or a path
    return text


def _script_commands(script: str) -> list[str]:
    """The command lines a ``python -c``/``node -e`` script starts: the first argument of
    each process call, a list of strings (``['npm', 'install', 'x']``) or one string."""
    found: list[str] = []
    for call in PROCESS_CALLS:
        start = 0
        while len(found) < MAX_SCRIPT_COMMANDS:
            at = script.find(call, start)
            if at < 0:
                break
            start = at + len(call)
            if call == "exec(" and at > 0 and script[at - 1] in IDENT_CHARS:
                continue  # execSync( is its own entry; os.exec(... is not a shell
            rest = script[start : start + 2000].lstrip()
            if rest.startswith("["):
                close = rest.find("]")
                items = quoted_strings(rest[1 : close if close > 0 else len(rest)], SOURCE_QUOTES)
                if items:
                    found.append(" ".join(_quote_word(i) for i in items))
            elif rest[:1] in ("'", '"', "`"):
                items = quoted_strings(rest, SOURCE_QUOTES, first_only=True)
                if items:
                    found.append(items[0])
    return found


def _quote_word(word: str) -> str:
    return word if word and not any(c in word for c in " \t'\"\\;&|<>()$`") else f"'{word}'"


def _option_argument(command: Command, letters: str) -> str:
    """The script after ``-c`` (or ``-e``, ``-lc``...): a prose text, or the next word."""
    for at, word in enumerate(command.words):
        if word.startswith("-") and not word.startswith("--") and word[-1] in letters:
            if command.prose:
                return command.prose[0]
            return command.raw[at + 1] if at + 1 < len(command.raw) else ""
    return ""


def _file_acts(
    program: str, words: list[str], raw: list[str], prose: list[str]
) -> list[Act | None]:
    acts: list[Act | None] = []
    plain = [w for _, w in _plain(words, raw, frozenset())]
    sub = plain[0].lower() if plain else ""
    if program in DELETING_PROGRAMS or (program, sub) in DELETING_SUBCOMMANDS:
        paths = plain[1:] if (program, sub) in DELETING_SUBCOMMANDS else plain
        acts.extend(make_act("delete", "path", p) for p in paths)
    elif program in MOVING_PROGRAMS or (program, sub) in MOVING_SUBCOMMANDS:
        paths = plain[1:] if (program, sub) in MOVING_SUBCOMMANDS else plain
        if len(paths) >= 2:
            target = paths[-1]
            for source in paths[:-1]:
                acts.append(make_act("move", "path", source, f"-> {target}"))
                acts.append(make_act("move", "path", target, f"<- {source}"))
                old, new = _base(source), _base(target)
                if old != new and not target.endswith("/"):
                    acts.append(make_act("rename", "name", old, "from"))
                    acts.append(make_act("rename", "name", new, "to"))
                    # The names without the extension: UserService.ts -> UserService.
                    old_stem, new_stem = old.split(".", 1)[0], new.split(".", 1)[0]
                    if old_stem != new_stem and (old_stem, new_stem) != (old, new):
                        acts.append(make_act("rename", "name", old_stem, "from"))
                        acts.append(make_act("rename", "name", new_stem, "to"))
    elif program in WRITING_PROGRAMS:
        acts.extend(make_act("write", "path", p) for p in plain)
    elif program in COPYING_PROGRAMS and len(plain) >= 2:
        acts.append(make_act("write", "path", plain[-1]))
    elif program in IN_PLACE_OPTIONS and any(
        w.startswith(IN_PLACE_OPTIONS[program]) for w in words
    ):
        script = "" if any(w in ("-e", "--expression") for w in words) else (plain[:1] or [""])[0]
        files = plain[1:] if script else plain
        if prose and not any(w in ("-e", "--expression") for w in words):
            script, files = prose[0], plain  # the script was quoted with a space in it
        acts.extend(make_act("write", "path", p) for p in files)
        acts.extend(_sed_renames(script))
    return acts


def _sed_renames(script: str) -> list[Act | None]:
    if len(script) < 4 or script[0] != "s":
        return []
    parts = script[2:].split(script[1])
    if len(parts) < 2:
        return []
    old, new = parts[0], parts[1]
    if identifier(old) and identifier(new) and old != new:
        return [make_act("rename", "name", old, "from"), make_act("rename", "name", new, "to")]
    return []


def _base(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def _redirect_acts(command: Command) -> list[Act | None]:
    acts: list[Act | None] = []
    targets = [t for op, t in command.redirects if ">" in op and t and t not in NO_FILE_TARGETS]
    if command.program == "tee":
        targets += [w for _, w in _plain(command.words, command.raw, frozenset())]
    for at, target in enumerate(targets):
        if target not in targets[:at]:
            acts.append(make_act("write", "path", target))
        form = ""
        if may_be_manifest(target):
            from context_memory.calls.manifests import manifest_form

            form = manifest_form(target)
        if form:
            from context_memory.calls.manifests import packages_in

            for body in (*command.heredocs, *command.prose[:1]):
                acts.extend(
                    make_act("add-package", "package", n, target) for n in packages_in(form, body)
                )
    return acts


def _command_acts(command: Command, depth: int) -> list[Act | None]:
    acts: list[Act | None] = list(_redirect_acts(command))
    if not command.program:
        return acts
    program, words, raw = _unwrap(command)
    if program in SHELLS or program == "eval":
        script = " ".join(command.prose) if program == "eval" else _option_argument(command, "c")
        if not script and program != "eval" and command.heredocs:
            script = "\n".join(command.heredocs)  # bash <<EOF ... EOF
        if script and depth < MAX_DEPTH:
            return acts + list(bash_acts(script, depth + 1))
    if program in SCRIPT_RUNNERS and depth < MAX_DEPTH:
        script = _option_argument(command, "ce")
        for line in _script_commands(script):
            acts.extend(bash_acts(line, depth + 1))
    names = _package_words(program, words, raw)
    for word in names or ():
        package = _package_of_word(program, word)
        if package:
            acts.append(make_act("add-package", "package", package, " ".join([program, *words])))
    acts.append(
        make_act("run", "command", family_of(program, words, raw), " ".join([program, *words]))
    )
    acts.extend(_file_acts(program, words, raw, command.prose))
    return acts


def bash_acts(command_text: str, depth: int = 0) -> list[Act]:
    acts: list[Act] = []
    for command in commands_of(command_text):
        for act in _command_acts(command, depth):
            if act is not None and act not in acts:
                acts.append(act)
    return acts


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
