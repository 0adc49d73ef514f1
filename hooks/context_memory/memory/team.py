"""Set a project's ``.working-state/`` up for sharing through git (``ctx-doctor --team``).

Two files inside the state folder, so they travel with it and apply only to it:

- ``.gitattributes``: ``decisions.jsonl merge=union``. Every writer only appends to the
  log, so git's built-in union merge (both sides' new lines kept, no conflict markers) is
  exactly right; readers take a record that reached both sides once (memory/decisions.py).
- ``.gitignore``: what is per machine or derived. Logs, locks, caches and temporary files
  mean nothing on another machine; ``merged/`` (and its ``.merged-*`` generations) and
  ``pinned.md`` are rebuilt from the shared files, and merging derived files would only
  produce conflicts; each session's own bookkeeping stays local, its handoffs are shared.

Lines are only ever added (at the end, under one comment), never changed or reordered,
and a second run adds nothing. Git is asked afterwards whether the attribute applies.
"""

from __future__ import annotations

import os
import subprocess

from context_memory.core.fsutil import TooLargeError, UnsafePathError, atomic_write, read_bytes
from context_memory.core.record import Record
from context_memory.core.state import (
    AUTHOR_CACHE_FILE,
    DECISIONS_FILE,
    HANDOFFS_DIR,
    LOGS_DIR,
    MERGED_DIR,
    PINNED_FILE,
    PINNED_INDEX_FILE,
    PLAN_FILE,
    SESSIONS_DIR,
    decisions_path,
    relative_path,
)

ATTRIBUTES_FILE = ".gitattributes"
IGNORE_FILE = ".gitignore"
HEADER = "# context-memory (ctx-doctor --team):"
ATTRIBUTE_LINES = (
    HEADER + " git keeps both sides' records when it merges the log",
    f"{DECISIONS_FILE} merge=union",
)
# (pattern, why it is not shared)
IGNORED = (
    (f"/{LOGS_DIR}/", "hook logs of this machine"),
    ("*.lock", "locks of this machine's writers"),
    ("*.tmp", "half-written temporary files"),
    (f"/{AUTHOR_CACHE_FILE}", "this machine's cached git identity"),
    (f"/{MERGED_DIR}", "derived: ctx-merge rebuilds it on every clone"),
    (f"/.{MERGED_DIR}-*", f"ctx-merge's generation folders behind {MERGED_DIR}/"),
    (f"/{PINNED_FILE}", "derived: rebuilt from the decisions log"),
    (f"/{PINNED_INDEX_FILE}", f"derived: the ids {PINNED_FILE} holds, rebuilt with it"),
    (f"/{PINNED_FILE}.lock", "the digest's lock on this machine"),
    (f"/{PLAN_FILE}", "one person's working plan, rewritten whole: sharing it would conflict"),
    (f"/{SESSIONS_DIR}/*/*", "each session's own caches, counters and audit marks"),
    (f"!/{SESSIONS_DIR}/*/{HANDOFFS_DIR}/", "(kept: the handoffs are shared)"),
)
IGNORE_LINES = (
    HEADER + " per-machine and derived files, never shared",
    *tuple(pattern for pattern, _ in IGNORED),
)
MAX_FILE_BYTES = 1024 * 1024
GIT_TIMEOUT_SECONDS = 10.0


class TeamSetupError(Exception):
    """The project cannot be set up for sharing; the message says why and what to do."""


class TeamReport(Record):
    """What ``setup_team`` did and found: lines to print, and whether it all worked."""

    changed: list[str]  # one line per file written
    notes: list[str]
    warnings: list[str]
    merge_attribute: str = ""  # what ``git check-attr merge`` says of the log


def git(args: list[str], cwd: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError:
        raise TeamSetupError("git is not installed (or not on PATH); install git first") from None
    except subprocess.TimeoutExpired:
        raise TeamSetupError(f"git {' '.join(args)} did not answer in {cwd}") from None


def work_tree_of(state_dir: str) -> str:
    """The top folder of the git work tree holding ``state_dir``; raises TeamSetupError."""
    probe = state_dir if os.path.isdir(state_dir) else os.path.dirname(state_dir)
    if not os.path.isdir(probe):
        raise TeamSetupError(f"{probe} does not exist")
    done = git(["rev-parse", "--show-toplevel"], probe)
    if done.returncode != 0:
        raise TeamSetupError(
            f"{state_dir} is not inside a git work tree: sharing goes through git. Run "
            "'git init' in the project (or clone it), then ctx-doctor --team again"
        )
    return os.path.realpath(done.stdout.strip())


def add_lines(path: str, lines: tuple[str, ...], root: str) -> list[str]:
    """Append the ``lines`` that ``path`` does not hold yet (whole-line match, ignoring
    surrounding blanks); the user's lines stay byte for byte. Returns the lines added.
    Refuses (TeamSetupError) a file it cannot read as text rather than rewrite it. Read
    and written through fsutil below ``root`` (the state folder): no link followed."""
    try:
        raw = read_bytes(path, MAX_FILE_BYTES, root=root)
    except FileNotFoundError:
        raw = b""
    except UnsafePathError as exc:
        raise TeamSetupError(f"{path}: {exc.strerror}") from None
    except TooLargeError:
        raise TeamSetupError(
            f"{path} is over {MAX_FILE_BYTES} bytes; add the lines by hand"
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TeamSetupError(
            f"{path} is not UTF-8 text; left as it is. Add by hand: " + "; ".join(lines[1:])
        ) from None
    present = {line.strip() for line in text.splitlines()}
    missing = [line for line in lines[1:] if line.strip() not in present]
    if not missing:
        return []
    block = ([lines[0]] if lines[0] not in present else []) + missing
    prefix = "" if not text or text.endswith("\n") else "\n"
    separator = "\n" if text.strip() else ""
    atomic_write(path, text + prefix + separator + "\n".join(block) + "\n", root=root)
    return missing


def setup_team(state_dir: str) -> TeamReport:
    """Write the two files (as needed) and check with git that they work."""
    state_dir = os.path.abspath(state_dir)
    if os.path.islink(state_dir):
        raise TeamSetupError(f"{state_dir} is a symbolic link; make it a real folder first")
    top = work_tree_of(state_dir)
    os.makedirs(state_dir, exist_ok=True)
    real_state = os.path.realpath(state_dir)
    report = TeamReport([], [], [])
    attributes = os.path.join(real_state, ATTRIBUTES_FILE)
    added = add_lines(attributes, ATTRIBUTE_LINES, real_state)
    if added:
        report.changed.append(
            f"{relative_path(attributes, top)}: added '{added[0]}' (git's union merge keeps both "
            "sides' new records: no merge conflict in the decisions log)"
        )
    ignore = os.path.join(real_state, IGNORE_FILE)
    added = add_lines(ignore, IGNORE_LINES, real_state)
    if added:
        report.changed.append(
            f"{relative_path(ignore, top)}: added {len(added)} line"
            + ("" if len(added) == 1 else "s")
            + " for per-machine and derived files: "
            + ", ".join(added)
        )
    log = decisions_path(real_state)
    rel_log = os.path.relpath(log, top)
    done = git(["check-attr", "merge", "--", rel_log], top)
    report.merge_attribute = done.stdout.strip().rsplit(": ", 1)[-1] if done.returncode == 0 else ""
    if report.merge_attribute == "union":
        report.notes.append(f"git check-attr merge {rel_log}: union")
    else:
        report.warnings.append(
            f"git check-attr merge {rel_log} says {report.merge_attribute or 'nothing'!r}, not "
            "'union': a later attributes file (.git/info/attributes?) overrides it; remove "
            "that line"
        )
    done = git(["check-ignore", "-v", "--no-index", "--", rel_log], top)
    if done.returncode == 0 and done.stdout.strip():
        source = done.stdout.split("\t", 1)[0]
        report.warnings.append(
            f"{rel_log} is ignored by git ({source}): nothing in the state folder is shared "
            "until you remove that line"
        )
    done = git(
        ["ls-files", "-ci", "--exclude-standard", "--", os.path.relpath(real_state, top)], top
    )
    tracked = [line for line in done.stdout.splitlines() if line.strip()]
    if tracked:
        report.warnings.append(
            f"{len(tracked)} per-machine file(s) are already committed and stay tracked until "
            f"you run: git rm -r --cached -- {' '.join(tracked[:5])}"
            + (" ..." if len(tracked) > 5 else "")
        )
    return report


def explanation() -> list[str]:
    """What is shared and what is not, and why: printed after the changes."""
    lines = [
        f"Shared through git: {DECISIONS_FILE} (every record, with its author; merged by "
        f"union, duplicates read once) and {SESSIONS_DIR}/<id>/{HANDOFFS_DIR}/ (one folder "
        "per session: no two machines write the same file).",
        "Not shared:",
    ]
    lines += [f"  {pattern:<22} {why}" for pattern, why in IGNORED if not pattern.startswith("!")]
    return lines
