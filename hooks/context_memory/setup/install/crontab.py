"""The crontab line that runs ``ctx-merge --quiet`` hourly for one project, tagged with it
in a shell comment (``# context-memory:/home/me/app``; docs/merge.md shows one). Adding
replaces the tagged line in place, removing takes exactly it, and the rest of the crontab
is kept byte for byte, through the real ``crontab -l`` / ``crontab -`` (``crontab -u
$CTX_CRONTAB_USER`` when set). ``CronLine`` is the installer's step. Standard library only.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from context_memory.setup.install.options import Step
from context_memory.setup.install.venv import REPO_ROOT, say, warn

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

TAG_PREFIX = "# context-memory:"
MERGE_PROGRAM = "ctx-merge"
USER_VAR = "CTX_CRONTAB_USER"
CRONTAB_TIMEOUT_SECONDS = 30

ADDED = "added"
UPDATED = "updated"
UNCHANGED = "unchanged"
REMOVED = "removed"
ABSENT = "absent"


class CrontabError(Exception):
    """The crontab could not be read or written; ``str()`` says why and how to fix it."""


def _escape_percent(text: str) -> str:
    # cron turns an unescaped '%' into a newline (and what follows into stdin).
    return text.replace("%", "\\%")


def _checked_project(project: str) -> str:
    if not os.path.isabs(project):
        raise CrontabError(f"the project path must be absolute, not {project!r}")
    if "\n" in project or "\r" in project or "\x00" in project:
        raise CrontabError(f"the project path {project!r} cannot go into a crontab line")
    return project


def project_tag(project: str) -> str:
    """The comment that marks (and ends) the project's line, as it appears in the crontab.
    A project whose path ends in whitespace is quoted (``# context-memory:'/srv/app '``):
    a line's trailing blanks do not survive editors and crontab, so the tag must not end
    in one (or each install would add a line that no uninstall finds)."""
    _checked_project(project)
    shown = shlex.quote(project) if project != project.rstrip() else project
    return _escape_percent(TAG_PREFIX + shown)


def cron_minute(project: str) -> int:
    """The minute past each hour the merge runs: fixed per project (so a second install
    writes the same line) and spread out, so a user's projects do not all start at :00."""
    return int(hashlib.sha256(project.encode("utf-8")).hexdigest(), 16) % 60


def merge_command(bin_dir: str, project: str) -> str:
    """The shell command: the virtualenv's ctx-merge by absolute path (cron's PATH is short)."""
    program = os.path.join(bin_dir, MERGE_PROGRAM)
    return shlex.join([program, "--quiet", "--project", _checked_project(project)])


def cron_line(bin_dir: str, project: str) -> str:
    command = _escape_percent(merge_command(bin_dir, project))
    return f"{cron_minute(project)} * * * * {command} {project_tag(project)}"


def is_project_line(line: str, project: str) -> bool:
    """Whether ``line`` is the tagged line of exactly this project (also the lines that
    older versions tagged with a path ending in whitespace, left without that whitespace)."""
    text = line.rstrip()
    if text.endswith(" " + project_tag(project)):
        return True
    if project == project.rstrip():
        return False
    old_style = f" --project {shlex.quote(project)} {TAG_PREFIX}{project}"
    return text.endswith(_escape_percent(old_style).rstrip())


def with_line(text: str, line: str, project: str) -> str:
    """``text`` with the project's tagged line set to ``line``: replaced where it is, or
    appended; extra copies (edited in by hand) are dropped. The rest is unchanged."""
    lines = text.splitlines()
    ours = [i for i, existing in enumerate(lines) if is_project_line(existing, project)]
    kept = [existing for i, existing in enumerate(lines) if i not in ours]
    kept.insert(ours[0] if ours else len(kept), line)
    return "".join(existing + "\n" for existing in kept)


def without_lines(text: str, unwanted: Callable[[str], bool]) -> str:
    return "".join(line + "\n" for line in text.splitlines() if not unwanted(line))


def runs_merge_from(line: str, bin_dir: str) -> bool:
    """A context-memory line whose command is this virtualenv's ctx-merge."""
    program = _escape_percent(shlex.quote(os.path.join(bin_dir, MERGE_PROGRAM)))
    fields = line.split(None, 5)  # five time fields, then the command
    command = fields[5] + " " if len(fields) == 6 else ""
    return f" {TAG_PREFIX}" in line and command.startswith(program + " ")  # alone or with args


def _crontab(arg: str, stdin_text: str | None = None) -> subprocess.CompletedProcess[str]:
    user = os.environ.get(USER_VAR)
    argv = ["crontab", *(["-u", user] if user else []), arg]
    try:
        return subprocess.run(
            argv,
            input=stdin_text,
            stdin=subprocess.DEVNULL if stdin_text is None else None,
            capture_output=True,
            text=True,
            timeout=CRONTAB_TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError:
        raise CrontabError(
            "the crontab command is not installed. Install cron (Debian/Ubuntu: "
            "sudo apt install cron; Fedora: sudo dnf install cronie), or add the line to "
            "your scheduler by hand (./install --cron --dry-run shows it)"
        ) from None
    except subprocess.TimeoutExpired:
        raise CrontabError(
            f"{' '.join(argv)} did not finish in {CRONTAB_TIMEOUT_SECONDS} s"
        ) from None


def read_crontab() -> str:
    """The user's crontab (``crontab -l``); '' when they have none yet."""
    done = _crontab("-l")
    if done.returncode == 0:
        return done.stdout
    message = done.stderr.strip()
    if message.startswith("no crontab for"):
        return ""
    raise CrontabError(f"crontab -l failed: {message or f'exit status {done.returncode}'}")


def write_crontab(text: str) -> None:
    """Install ``text`` as the user's crontab (``crontab -``, which checks it first)."""
    done = _crontab("-", stdin_text=text)
    if done.returncode != 0:
        message = done.stderr.strip() or f"exit status {done.returncode}"
        raise CrontabError(f"crontab refused the new crontab, which was not installed: {message}")


class CronChange(NamedTuple):
    """What an add or remove would do to the crontab (CronLine.run writes ``new_text``)."""

    action: str  # ADDED, UPDATED, UNCHANGED, REMOVED or ABSENT
    lines: list[str]  # the line added, or the lines removed
    new_text: str


def planned_addition(bin_dir: str, project: str) -> CronChange:
    """The crontab running ctx-merge hourly for ``project`` (one line, idempotent)."""
    line, old = cron_line(bin_dir, project), read_crontab()
    new = with_line(old, line, project)
    present = any(is_project_line(existing, project) for existing in old.splitlines())
    return CronChange(UNCHANGED if new == old else UPDATED if present else ADDED, [line], new)


def planned_removal(project: str, bin_dir: str | None = None) -> CronChange:
    """The crontab without the project's tagged line; with ``bin_dir``, also without every
    context-memory line that runs that virtualenv's ctx-merge (it is about to be deleted)."""

    def unwanted(line: str) -> bool:
        return is_project_line(line, project) or (
            bin_dir is not None and runs_merge_from(line, bin_dir)
        )

    try:
        old = read_crontab()
    except CrontabError:
        # No crontab command means no line of ours to remove; other failures stay errors.
        if crontab_missing():
            return CronChange(ABSENT, [], "")
        raise
    removed = [line for line in old.splitlines() if unwanted(line)]
    return CronChange(REMOVED if removed else ABSENT, removed, without_lines(old, unwanted))


def crontab_missing() -> bool:
    """No ``crontab`` command on PATH (a dry run then shows the line instead)."""
    return shutil.which("crontab") is None


def delete_if_empty() -> None:
    """``crontab -r`` when the crontab holds nothing (an uninstall puts back "no crontab"
    when the install found none); quietly nothing when it cannot be read or is not empty."""
    try:
        if crontab_missing() or read_crontab() != "":
            return
    except CrontabError:
        return
    _crontab("-r")


# What CronLine says of a change: the verb, then what it changes.
_SAID = {
    ADDED: ("add", "a line that runs ctx-merge hourly for {project}:"),
    UPDATED: ("update", "the ctx-merge line for {project}:"),
    REMOVED: ("remove", "the ctx-merge {noun}:"),
}


@dataclass(frozen=True)
class CronLine(Step):
    """The installer's step: ``asked`` (--cron), the line that runs ctx-merge hourly for
    ``project``; ``remove`` (--uninstall) takes it out (with ``purge``, also every line
    running this virtualenv's ctx-merge)."""

    bin_dir: Path
    project: str
    asked: bool
    remove: bool
    purge: bool

    def run(self, would: bool) -> None:
        """Say what the change does (or ``would`` do). An uninstall that finds no line says
        so only when --cron was asked."""
        project, bin_dir = self.project, str(self.bin_dir)
        if not self.remove and not self.asked:
            return
        if would and not self.remove and crontab_missing():
            say(
                "crontab: the crontab command is not installed (Debian/Ubuntu: sudo apt install "
                "cron), so ./install --cron would stop; the line it would add, for your scheduler:"
            )
            print(f"  {cron_line(bin_dir, project)}")
            return
        try:
            if self.remove:
                change = planned_removal(project, bin_dir if self.purge else None)
            else:
                change = planned_addition(bin_dir, project)
        except CrontabError as exc:
            if self.asked:
                raise
            warn(f"could not look for a ctx-merge line: {exc}")
            return
        if change.action in _SAID:
            if not would:
                write_crontab(change.new_text)
            verb, what = _SAID[change.action]
            noun = "line" if len(change.lines) == 1 else f"{len(change.lines)} lines"
            verb = f"would {verb}" if would else verb.rstrip("e") + "ed"
            say(f"crontab: {verb} {what.format(project=project, noun=noun)}")
            for line in change.lines:
                print(f"  {line}")
        elif change.action == UNCHANGED:
            say(f"crontab: already runs ctx-merge hourly for {project}; nothing to change")
        elif self.asked:
            say(f"crontab: no ctx-merge line for {project}; nothing to remove")
        if self.asked and not self.remove and os.path.realpath(project) == str(REPO_ROOT):
            say(
                f"note: {project} is this context-memory checkout; for your own "
                "project run ./install --cron --project DIR (or from that folder)"
            )
