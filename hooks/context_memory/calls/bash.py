"""The acts of a Bash command line (calls/acts.py's verbs): packages added through any
wrapper, the command families run, the files written, deleted and moved, the renames.

Standard library only, no ``re``.
"""

from __future__ import annotations

from context_memory.calls.shell import Command, commands_of, quoted_strings
from context_memory.core.call_tables import (
    COPYING_PROGRAMS,
    DELETING_PROGRAMS,
    DELETING_SUBCOMMANDS,
    FLAG_FAMILIES,
    FORCE_REFSPEC,
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
from context_memory.memory.constraint import subject

SOURCE_QUOTES = "'\"`"  # the string literals of Python, JavaScript and Ruby

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypedDict

    from context_memory.memory.constraint import Subject

    class Act(TypedDict):
        verb: str  # add-package | run | write | delete | move | rename
        subject: Subject
        detail: str


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
