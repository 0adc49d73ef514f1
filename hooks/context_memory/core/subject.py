"""Subjects of a kind: what a record rules out or prefers (memory/constraint.py) and what
a tool call acts on (calls/acts.py), compared the same way on both sides:

- ``package``  a dependency, whatever the package manager (``moment``, ``@types/node``,
  ``requests``): the value is the bare name, lowercase, without version or extras;
- ``command``  a program, its subcommand and a flag family (``git push --force``, ``npm``,
  ``rm -rf``): words separated by one space, the program lowercase;
- ``path``     a file, or a folder and everything under it (a folder ends with ``/``):
  ``migrations/``, ``src/legacy/api.py``; relative to the project where it can be;
- ``name``     an identifier or file name to keep or not to use (``UserService``);
- ``approach`` free text: nothing a tool call can be matched on (it only reminds).

A subject is ``{"kind": ..., "value": ...}`` with its value normalised by ``subject()``;
``same_subject`` says when two are one (packages across spellings, paths with or without
a folder's ``/``), ``path_covers`` when a path subject covers a path. Apart from the
record model (memory/constraint.py: supersede, who may make the guard ask), because
ctx-guard's matcher needs only this part before a tool call that names a record's
subject. Standard library only, no ``re``; the TypedDict exists for mypy only.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypedDict

    class Subject(TypedDict):
        kind: str  # one of SUBJECT_KINDS
        value: str  # normalised by subject()


SUBJECT_KINDS = ("package", "command", "path", "name", "approach")
# Kinds a tool call can be matched on: a record of kind approach only reminds.
ACTIONABLE_KINDS = ("package", "command", "path", "name")
MAX_SUBJECTS = 8
MAX_SUBJECT_CHARS = 200
_VERSION_MARKS = ("==", ">=", "<=", "~=", "!=", "===", ">", "<", "[", ";", " ")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def package_name(raw: str) -> str:
    """The bare package name: ``moment@2.29`` -> ``moment``, ``@types/node@20`` ->
    ``@types/node``, ``requests[socks]>=2`` -> ``requests``, ``Django`` -> ``django``."""
    name = raw.strip().strip("'\"`").lower()
    if name.startswith("@"):
        scope, _, rest = name[1:].partition("/")
        rest = rest.split("@", 1)[0]
        name = f"@{scope}/{rest}" if rest else ""
    else:
        name = name.split("@", 1)[0]
    for mark in _VERSION_MARKS:
        name = name.split(mark, 1)[0]
    return name.strip()


def package_key(name: str) -> str:
    """Names that are one package across spellings (PEP 503: ``-``, ``_`` and ``.`` alike)."""
    out = []
    for char in name.lower():
        out.append("-" if char in "-_." else char)
    key = "".join(out)
    while "--" in key:
        key = key.replace("--", "-")
    return key


def path_value(raw: str) -> str:
    """A path as a subject: ``./migrations`` -> ``migrations``, ``a//b/`` -> ``a/b/``; a
    trailing ``/`` (a folder) is kept."""
    text = raw.strip().strip("'\"`").replace("\\", "/")
    folder = text.endswith("/")
    parts = [p for p in text.split("/") if p and p != "."]
    value = "/".join(parts)
    if text.startswith("/"):
        value = "/" + value
    if folder and value and value != "/":
        value += "/"
    return value


def subject(kind: str, value: str) -> Subject | None:
    """A normalised subject, or None when ``kind`` is unknown or nothing is left."""
    if kind not in SUBJECT_KINDS or not isinstance(value, str):
        return None
    text = _one_line(value)
    if kind == "package":
        text = package_name(text)
    elif kind == "command":
        words = text.split(" ")
        words[0] = words[0].lower()
        text = " ".join(words)
    elif kind == "path":
        text = path_value(text)
    elif kind == "name":
        text = text.strip("'\"`")
    if not text or len(text) > MAX_SUBJECT_CHARS:
        if kind != "approach" or not text:
            return None
        from context_memory.core.safe_text import clip  # the one clip rule; a rare branch

        text = clip(text, MAX_SUBJECT_CHARS)
    return {"kind": kind, "value": text}


def subjects_from(value: object) -> list[Subject]:
    """The valid subjects of a record field (a list of {"kind", "value"}), each once."""
    found: list[Subject] = []
    if not isinstance(value, list):
        return found
    for item in value[: MAX_SUBJECTS * 2]:
        if not isinstance(item, dict):
            continue
        made = subject(str(item.get("kind", "")), item.get("value", ""))
        if made is not None and not any(same_subject(made, other) for other in found):
            found.append(made)
    return found[:MAX_SUBJECTS]


def same_subject(a: Subject, b: Subject) -> bool:
    """One subject: the same kind and value (packages across spellings, paths with or
    without the folder's ``/``, approaches case-insensitively)."""
    kind = a.get("kind")
    if kind != b.get("kind"):
        return False
    left, right = a.get("value", ""), b.get("value", "")
    if kind == "package":
        return package_key(left) == package_key(right)
    if kind == "path":
        return left.rstrip("/") == right.rstrip("/")
    if kind == "approach":
        return left.casefold() == right.casefold()
    return left == right


def merged_subjects(*lists: list[Subject]) -> list[Subject]:
    """The subjects of ``lists`` in order, each once (``same_subject``: the first kept)."""
    found: list[Subject] = []
    for items in lists:
        for item in items:
            if not any(same_subject(item, other) for other in found):
                found.append(item)
    return found


def path_covers(folder_or_file: str, path: str) -> bool:
    """Whether the path subject ``folder_or_file`` covers ``path`` (the file itself, or
    anything under the folder), comparing whole path components; a relative subject
    covers an absolute path that ends with it (``migrations/`` covers
    ``/home/ana/app/migrations/001.sql``)."""
    want = [p for p in path_value(folder_or_file).split("/") if p]
    have = [p for p in path_value(path).split("/") if p]
    if not want:
        return False
    absolute = folder_or_file.startswith("/")
    starts = [0] if absolute else range(len(have) - len(want) + 1)
    return any(have[start : start + len(want)] == want for start in starts)


def subject_key(item: Subject) -> tuple[str, str]:
    """The key under which ``same_subject`` subjects are equal."""
    kind, value = item.get("kind", ""), item.get("value", "")
    if kind == "package":
        return kind, package_key(value)
    if kind == "path":
        return kind, value.rstrip("/")
    if kind == "approach":
        return kind, value.casefold()
    return kind, value


def describe(subject_: Subject) -> str:
    """A subject for people: ``package moment``, ``command git push --force``."""
    return f"{subject_.get('kind', '')} {subject_.get('value', '')}".strip()
