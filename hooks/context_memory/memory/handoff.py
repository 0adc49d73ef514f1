"""Stage handoffs: ``sessions/<id>/handoffs/stage-N.md``, five sections in a fixed order.

    ---
    session: <id>
    stage: 3
    time: 2026-11-30T09:10:51Z
    tokens: 150000
    ---
    # Handoff: stage 3

    ## Decided
    - Use Redis Cluster, 6 nodes (needs sharding)
    ## Rejected
    - Codis (unmaintained)
    ## Risks
    - none
    ## Files Modified
    - config/redis.yaml
    ## Remaining
    - none

Parsing is strict about section names and order (a handoff the merge cannot read is
worse than none) and lenient about bullets and blank lines.
"""

from __future__ import annotations

import os
import re
import time

from context_memory import TYPE_CHECKING
from context_memory.core.fsutil import list_dir, open_dir, open_file_at
from context_memory.core.isotime import parse_time
from context_memory.core.safe_text import one_line
from context_memory.core.state import HANDOFFS_DIR, SESSIONS_DIR, session_dir, validate_name

if TYPE_CHECKING:
    from typing import Literal, TypedDict

    MetaKey = Literal["session", "stage", "time", "tokens"]
    SectionName = Literal["Decided", "Rejected", "Risks", "Files Modified", "Remaining"]
    # The five sections' items (a key of the functional form: "Files Modified" has a
    # space). A section being built or read may be absent: readers use .get(name, []).
    HandoffSections = TypedDict(
        "HandoffSections",
        {
            "Decided": list[str],
            "Rejected": list[str],
            "Risks": list[str],
            "Files Modified": list[str],
            "Remaining": list[str],
        },
        total=False,
    )

    class HandoffMeta(TypedDict, total=False):
        """A handoff's front matter (each key optional: a file written by hand may lack
        it; render_handoff writes every one)."""

        session: str
        stage: str  # the stage number, or "next" (ctx-handoff --dry-run)
        time: str  # ISO 8601, UTC
        tokens: str  # the context's size when it was written


# Stage numbers run from 1 to MAX_STAGE. A stage given by hand may run at most
# MAX_STAGE_GAP past the next free one, so no command can push a session to the end of
# the range (after which no handoff could be written).
MAX_STAGE = 100_000
# How much of a handoff latest_handoff reads for its time (the front matter comes first).
HEAD_BYTES = 4096
MAX_STAGE_GAP = 10
# A handoff is a page of Markdown; a bigger file is not one to read whole.
MAX_HANDOFF_BYTES = 4 * 1024 * 1024

SECTIONS: tuple[SectionName, ...] = ("Decided", "Rejected", "Risks", "Files Modified", "Remaining")
_SECTION_NAMED: dict[str, SectionName] = {name: name for name in SECTIONS}
EMPTY_ITEM = "none"
FRONT_MATTER_KEYS: tuple[MetaKey, ...] = ("session", "stage", "time", "tokens")
_STAGE_FILE = re.compile(r"stage-(\d+)\.md")
_HEADING = re.compile(r"^##\s+(.*?)\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.*)$")


class HandoffFormatError(ValueError):
    """The handoff text lacks, misspells or misorders one of the five sections."""


class Handoff:
    __slots__ = ("meta", "sections")

    def __init__(self, meta: HandoffMeta, sections: HandoffSections) -> None:
        self.meta = meta
        self.sections = sections

    @property
    def session(self) -> str:
        return self.meta.get("session", "")

    @property
    def stage(self) -> int:
        try:
            return int(self.meta.get("stage", "0"))
        except ValueError:
            return 0


def split_front_matter(text: str) -> tuple[HandoffMeta, str]:
    """(front-matter fields, body). Text without a leading '---' block has no fields; of
    the fields, only FRONT_MATTER_KEYS are read (nothing reads another)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return {}, text
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            fields: dict[str, str] = {}
            for line in lines[1:index]:
                key, sep, value = line.partition(":")
                if sep:
                    fields[key.strip()] = value.strip()
            meta: HandoffMeta = {}
            for name in FRONT_MATTER_KEYS:
                if name in fields:
                    meta[name] = fields[name]
            return meta, "\n".join(lines[index + 1 :])
    raise HandoffFormatError("front matter opened with '---' is never closed")


def parse_sections(body: str) -> HandoffSections:
    """The five sections' items, in order; raises HandoffFormatError naming what is wrong."""
    sections: HandoffSections = {}
    current: SectionName | None = None
    for line in body.splitlines():
        heading = _HEADING.match(line)
        if heading:
            name = heading.group(1)
            section = _SECTION_NAMED.get(name)
            if section is None:
                import difflib  # only for this error message: hooks import this module

                guess = difflib.get_close_matches(name, SECTIONS, n=1, cutoff=0.5)
                hint = f"; did you mean '## {guess[0]}'?" if guess else ""
                raise HandoffFormatError(
                    f"unknown section '## {name}'{hint} "
                    f"(expected: {', '.join('## ' + s for s in SECTIONS)})"
                )
            if section in sections:
                raise HandoffFormatError(f"section '## {name}' appears twice")
            sections[section] = []
            current = section
            continue
        if current is None or not line.strip():
            continue
        bullet = _BULLET.match(line)
        if bullet:
            sections[current].append(bullet.group(1).strip())
        elif line.startswith((" ", "\t")) and sections[current]:
            sections[current][-1] += " " + line.strip()
        else:
            sections[current].append(line.strip())
    missing = [name for name in SECTIONS if name not in sections]
    if missing:
        raise HandoffFormatError(
            "missing section"
            + ("s " if len(missing) > 1 else " ")
            + ", ".join(f"'## {name}'" for name in missing)
        )
    order = list(sections)
    if order != list(SECTIONS):
        raise HandoffFormatError(
            "sections out of order: expected " + ", ".join(SECTIONS) + "; got " + ", ".join(order)
        )
    kept: HandoffSections = {}
    for section in SECTIONS:
        kept[section] = [i for i in sections[section] if i.lower().rstrip(".") != EMPTY_ITEM]
    return kept


def parse_handoff(text: str) -> Handoff:
    meta, body = split_front_matter(text)
    return Handoff(meta, parse_sections(body))


def render_handoff(meta: HandoffMeta, sections: HandoffSections) -> str:
    """The Markdown file: front matter, title, then the five sections ('- none' when empty).
    Every item passes the redaction rule (core/redact.py): the agent's ctx-handoff text and
    records copied from the log alike carry no credential into the file."""
    from context_memory.core.redact import redact

    lines = ["---"]
    for key in FRONT_MATTER_KEYS:
        if key in meta:
            lines.append(f"{key}: {one_line(meta[key])}")
    lines += ["---", f"# Handoff: stage {meta.get('stage', '?')}", ""]
    for name in SECTIONS:
        lines.append(f"## {name}")
        items = [one_line(redact(item)) for item in sections.get(name, []) if item.strip()]
        lines += [f"- {item}" for item in items] or [f"- {EMPTY_ITEM}"]
        lines.append("")
    return "\n".join(lines)


def handoffs_dir(state_dir: str, session: str) -> str:
    return os.path.join(session_dir(state_dir, session), HANDOFFS_DIR)


def stage_path(state_dir: str, session: str, stage: int) -> str:
    if not isinstance(stage, int) or stage < 1 or stage > MAX_STAGE:
        raise HandoffFormatError(
            f"stage must be a whole number from 1 to {MAX_STAGE}, not {stage!r}"
        )
    validate_name(f"stage-{stage}", "stage")
    return os.path.join(handoffs_dir(state_dir, session), f"stage-{stage}.md")


def existing_stages(state_dir: str, session: str) -> list[int]:
    """The stage numbers (1 to MAX_STAGE) of the session's handoff files. Raises
    UnsafePathError when the handoffs folder, or one above it, is a link or a file."""
    names = list_dir(handoffs_dir(state_dir, session), root=state_dir)
    stages = (int(m.group(1)) for m in map(_STAGE_FILE.fullmatch, names) if m)
    return sorted(stage for stage in stages if 1 <= stage <= MAX_STAGE)


def _head_time(dir_fd: int, name: str, path: str, now: float) -> float | None:
    """The time in a handoff's front matter, read from its first HEAD_BYTES; None when it
    has none or lies after ``now`` (a clock that ran ahead). Raises OSError (a link, a
    FIFO, a folder: UnsafePathError)."""
    fd = open_file_at(dir_fd, name, path)
    try:
        head = os.read(fd, HEAD_BYTES).decode("utf-8", "replace")
    finally:
        os.close(fd)
    lines = head.splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    for line in lines[1:]:
        if line.strip() == "---":
            break
        key, sep, value = line.partition(":")
        if sep and key.strip() == "time":
            stamp = parse_time(value) if value.strip() else None
            return stamp if stamp is not None and stamp <= now else None
    return None


def latest_handoff(state_dir: str, now: float | None = None) -> str | None:
    """The newest handoff of any session, or None: each session's highest stage, ranked by
    the time in its front matter (then session). Never by file time: git sets those at
    checkout, so each clone would name another one. A handoff without a time, or dated
    after ``now``, ranks below every dated one, as in the merge."""
    current = time.time() if now is None else now
    root = os.path.join(state_dir, SESSIONS_DIR)
    newest: tuple[bool, float, str, str] | None = None
    try:
        sessions = list_dir(root, root=state_dir)
    except OSError:
        return None
    for session in sessions:
        try:
            validate_name(session)
        except ValueError:
            continue  # no writer makes such a folder: never point the model into it
        folder = os.path.join(root, session, HANDOFFS_DIR)
        try:
            dir_fd = open_dir(folder, root=state_dir)
        except OSError:
            continue  # missing, or a link or a file on the way
        try:
            names = os.listdir(dir_fd)
            stages = sorted(
                (int(m.group(1)), m.group(0)) for m in map(_STAGE_FILE.fullmatch, names) if m
            )
            for _, name in reversed(stages):  # the highest stage that is a regular file
                path = os.path.join(folder, name)
                try:
                    stamp = _head_time(dir_fd, name, path, current)
                except OSError:
                    continue  # a link or a FIFO is never pointed at
                key = (stamp is not None, stamp or 0.0, session, path)
                if newest is None or key > newest:
                    newest = key
                break
        finally:
            os.close(dir_fd)
    return newest[3] if newest else None
