"""The packages a manifest text lists: package.json, requirements*.txt, pyproject.toml,
Cargo.toml, Pipfile, go.mod, Gemfile, environment.yml. Read line by line, tolerant of a
fragment (the new text of an Edit is a few lines of the file, not the whole of it):
what counts is a line's shape, not the section it sits in, so a ``"moment": "^2.29.4"``
added anywhere in package.json is moment, while ``"test": "jest"`` (a script) is nothing.

Standard library only, no ``re`` (the guard's matcher imports this module).
"""

from __future__ import annotations

from itertools import pairwise

from context_memory.calls.shell import quoted_strings
from context_memory.core.call_tables import MANIFESTS, REQUIREMENTS_PREFIXES
from context_memory.core.subject import package_key, package_name

# Keys of a manifest that are no dependency even when their value looks like a version.
_METADATA_KEYS = frozenset(
    "name version description main module types typings license author private type "
    "engines packagemanager homepage repository bugs readme requires-python python edition "
    "rust-version authors build-backend node npm yarn pnpm go toolchain workspace".split()
)
_VERSION_STARTS = (
    *"0123456789^~<>=*",
    "latest",
    "next",
    "workspace:",
    "npm:",
    "file:",
    "link:",
    "git",
    "http",
    "github:",
    "v",
)
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_.@/")
_SPEC_MARKS = ("==", ">=", "<=", "~=", "!=", "===", ">", "<", "[", ";", "@", "=")


def manifest_form(path: str) -> str:
    """The manifest form of ``path`` ("" for a file that is no manifest)."""
    base = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].lower()
    form = MANIFESTS.get(base, "")
    if form:
        return form
    folder = path.replace("\\", "/").lower().rsplit("/", 2)
    in_requirements = len(folder) >= 2 and folder[-2] == "requirements"
    if base.endswith((".txt", ".in")) and (
        base.startswith(REQUIREMENTS_PREFIXES) or in_requirements
    ):
        return "requirements"
    return ""


def _is_name(text: str) -> bool:
    return (bool(text) and text[0].isalnum()) or (text.startswith("@") and "/" in text)


def _plain_name(text: str) -> str:
    name = text.strip().lower()
    return name if name and all(c in _NAME_CHARS for c in name) and _is_name(name) else ""


def _looks_version(value: str) -> bool:
    value = value.strip().lower()
    return bool(value) and value.startswith(_VERSION_STARTS) and " " not in value.strip()


def _requirement(spec: str) -> str:
    """The package of a PEP 508 requirement (``httpx[http2]>=0.27 ; python_version>'3'``)."""
    text = spec.strip()
    if not text or text[0] in "-#./" or "://" in text:
        return ""
    cut = len(text)
    for mark in (*_SPEC_MARKS, " "):
        at = text.find(mark, 1)
        if 0 < at < cut:
            cut = at
    head, rest = text[:cut], text[cut:].strip()
    name = _plain_name(head)
    if not name or "/" in name or "@" in name:
        return ""
    if rest and not rest.startswith(tuple(m for m in _SPEC_MARKS if m != "@")) and rest[0] != "(":
        return ""  # words after the name: prose, not a requirement
    return package_name(name)


def _json_pairs(line: str) -> list[tuple[str, str]]:
    """The ``"key": "value"`` pairs of a line of JSON, in order."""
    pairs: list[tuple[str, str]] = []
    strings: list[tuple[int, int, str]] = []  # (start, end, text)
    i = 0
    while i < len(line):
        if line[i] == '"':
            close = line.find('"', i + 1)
            if close < 0:
                break
            strings.append((i, close + 1, line[i + 1 : close]))
            i = close + 1
            continue
        i += 1
    for (_, key_end, key), (value_start, _, value) in pairwise(strings):
        if line[key_end:value_start].strip() == ":":
            pairs.append((key, value))
    return pairs


def _json_line(line: str) -> list[str]:
    found: list[str] = []
    for key, value in _json_pairs(line):
        if key.lower() not in _METADATA_KEYS and _looks_version(value) and _plain_name(key):
            found.append(package_name(key))
    return found


def _toml_line(line: str) -> list[str]:
    stripped = line.strip()
    if not stripped or (stripped.startswith(("#", "[")) and "=" not in stripped):
        return []
    key, eq, value = stripped.partition("=")
    key = key.strip().strip("'\"")
    found: list[str] = []
    keyed = bool(eq and key and " " not in key and not any(c in key for c in "\"'<>!~"))
    if keyed:
        value = value.strip()
        if key.lower() in _METADATA_KEYS:
            return []
        if value.startswith("{") and any(
            w in value for w in ("version", "git", "path", "workspace")
        ):
            return [package_name(key)] if _plain_name(key) else []
        if value.startswith(('"', "'")):
            first = quoted_strings(value)
            if first and _looks_version(first[0]) and _plain_name(key):
                return [package_name(key)]
        if not value.startswith("["):
            return []
    # An array of requirements: dependencies = ["httpx>=0.27", ...], or one element per line.
    if stripped.startswith(('"', "'", "[")) or "[" in stripped:
        for spec in quoted_strings(value if keyed else stripped):
            name = _requirement(spec)
            if name:
                found.append(name)
    return found


def _gomod_line(line: str) -> str:
    words = line.split()
    if words and words[0] == "require":
        words = words[1:]
    version = words[1] if len(words) >= 2 else ""
    if ("." in words[0] or "/" in words[0]) and version[:1] == "v" and version[1:2].isdigit():
        return words[0].lower()
    return ""


def _gemfile_line(line: str) -> str:
    stripped = line.strip()
    if stripped.startswith(("gem ", "gem(")):
        quoted = quoted_strings(stripped)
        if quoted:
            return _plain_name(quoted[0])
    return ""


def _yaml_line(line: str) -> str:
    stripped = line.strip()
    if stripped.startswith("- ") and not stripped.endswith(":"):
        return _requirement(stripped[2:].strip().replace("=", "==", 1))
    return ""


def packages_in(form: str, text: str, limit: int = 64 * 1024) -> list[str]:
    """The packages the manifest text of ``form`` lists, in order, each once."""
    found: list[str] = []
    for line in text[:limit].splitlines():
        names: list[str] = []
        if form == "json":
            names = _json_line(line)
        elif form == "requirements":
            bare = line.split(" #", 1)[0].strip()
            names = [_requirement(bare)] if bare and not bare.startswith("#") else []
        elif form in ("pyproject", "toml-deps"):
            names = _toml_line(line)
        elif form == "gomod":
            names = [_gomod_line(line)]
        elif form == "gemfile":
            names = [_gemfile_line(line)]
        elif form == "yaml-list":
            names = [_yaml_line(line)]
        for name in names:
            if name and name not in found:
                found.append(name)
    return found


def added_packages(path: str, new_text: str, old_text: str = "") -> list[str]:
    """The packages an edit of ``path`` adds: listed in the new text and not in the text
    it replaces ([] when the file is no manifest)."""
    form = manifest_form(path)
    if not form:
        return []
    before = {package_key(name) for name in packages_in(form, old_text)}
    return [name for name in packages_in(form, new_text) if package_key(name) not in before]
