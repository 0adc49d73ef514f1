"""The README and docs/ say only what is true (issue 13).

- every ``ctx-*`` name they mention is a console script of pyproject.toml;
- every option they show after a command (in fenced blocks and in inline code) is listed
  by that command's ``--help`` (``./install`` and ``ctx-install``: the installer's);
- every command example in a fenced block whose info string is ``sh`` runs offline, exit
  0, in a fresh project holding the shipped example transcript, with a throwaway HOME.
  A block that cannot run offline (a clone, pip, the client, placeholders) says
  ``sh no-run``; output is ``text``;
- the README stays under 15 KB, its links into docs/ resolve, no file of the project
  points outside the repository, and every test file it names exists.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from helpers.paths import REPO, subprocess_env

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
SCRIPTS = {
    name: target.split(":")[0].removeprefix("context_memory.")
    for name, target in re.findall(
        r'^(ctx-[a-z-]+) = "([\w.:]+)"$', (REPO / "pyproject.toml").read_text(), re.MULTILINE
    )
}
INSTALLERS = {"./install": "setup.install.cli", "ctx-install": "commands.install"}
# Commands only the plugin has (its bin/, on the agent's Bash PATH): ctx-run is the
# launcher every bin/ file goes through, ctx-pin the digest opt-in, ctx-allow the PreToolUse
# hook that lets the toolkit's own commands run unprompted.
PLUGIN_ONLY = {
    "ctx-pin": "commands.pin",
    "ctx-run": "commands.plugin_run",
    "ctx-allow": "handlers.allow",
}
SCRIPTS.update(PLUGIN_ONLY)
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
COMMAND = re.compile(r"(?:^|[\s/`(])(\./install|ctx-[a-z]+)\b")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def blocks(path: Path) -> list[tuple[str, str]]:
    """(info string, body) of each fenced block."""
    return [(m.group(1).strip(), m.group(2)) for m in FENCE.finditer(path.read_text())]


def prose_code(path: Path) -> list[str]:
    """Inline code spans outside fenced blocks."""
    text = FENCE.sub("", path.read_text())
    return re.findall(r"`([^`\n]+)`", text)


def command_segments(line: str) -> list[tuple[str, str]]:
    """(command, the rest of its segment) for each command a line runs; comments dropped,
    pipes and && split."""
    line = re.sub(r"\s#(\s.*)?$", "", line)
    found = []
    for segment in re.split(r"\|\||&&|\||;", line):
        matches = list(COMMAND.finditer(segment))  # an option belongs to the command before it
        for n, match in enumerate(matches):
            end = matches[n + 1].start() if n + 1 < len(matches) else len(segment)
            found.append((match.group(1), segment[match.end() : end]))
    return found


@cache
def help_text(command: str) -> str:
    module = INSTALLERS.get(command) or SCRIPTS[command]
    done = subprocess.run(
        [sys.executable, "-c",
         f"import sys; from context_memory.{module} import main; sys.exit(main(['--help']))"],
        capture_output=True, text=True, env=subprocess_env(), timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, f"{command} --help: {done.stderr}"
    return done.stdout


def shown_commands() -> list[tuple[str, str, str]]:
    """(doc, command, the text after it) for every command line shown anywhere."""
    shown = []
    for path in DOCS:
        name = str(path.relative_to(REPO))
        lines = [ln for _, body in blocks(path) for ln in body.splitlines()] + prose_code(path)
        for line in lines:
            shown.extend((name, cmd, rest) for cmd, rest in command_segments(line))
    return shown


def test_every_ctx_name_is_a_console_script() -> None:
    unknown = {
        (str(path.relative_to(REPO)), name)
        for path in DOCS
        for name in re.findall(r"(?<![\w-])(ctx-[a-z]+(?:-[a-z]+)*)(?![\w-])", path.read_text())
        if name not in SCRIPTS
    }
    assert unknown == set()
    assert len(shown_commands()) > 40  # the parser finds the examples at all


def test_every_option_shown_is_in_the_commands_help() -> None:
    missing = set()
    for doc, command, rest in shown_commands():
        for option in OPTION.findall(rest):
            if option not in help_text(command):
                missing.add((doc, command, option))
    assert missing == set()


def test_a_wrong_option_would_be_caught() -> None:
    assert "--colour" not in help_text("ctx-statusline")
    assert [(c, OPTION.findall(r)) for c, r in command_segments("ctx-usage --jsn x # --no")] == [
        ("ctx-usage", ["--jsn"])
    ]


def runnable_blocks() -> list[tuple[str, str]]:
    return [
        (f"{path.relative_to(REPO)}#{n}", body)
        for path in DOCS
        for n, (info, body) in enumerate(blocks(path))
        if info == "sh"
    ]


def test_blocks_are_marked() -> None:
    """Every fenced block says what it is, so none is silently left unchecked."""
    unmarked = [
        f"{path.relative_to(REPO)}#{n}"
        for path in DOCS
        for n, (info, _) in enumerate(blocks(path))
        if not info
    ]
    assert unmarked == []
    assert len(runnable_blocks()) >= 6


@pytest.fixture
def sandbox(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A fresh project with examples/sample-transcript.jsonl, a throwaway HOME, and the
    console scripts of this checkout on PATH."""
    project = tmp_path / "project"
    (project / "examples").mkdir(parents=True)
    (project / ".git").mkdir()
    shutil.copy2(REPO / "examples" / "sample-transcript.jsonl", project / "examples")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, module in SCRIPTS.items():
        shim = bin_dir / name
        shim.write_text(
            f"#!/bin/sh\nexec '{sys.executable}' -c 'import sys; from context_memory.{module} "
            'import main; sys.exit(main())\' "$@"\n'
        )
        shim.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    env = subprocess_env()
    for key in [k for k in env if k.startswith(("CLAUDE", "CTX_"))]:
        del env[key]
    env.update(HOME=str(home), PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}")
    return project, env


@pytest.mark.parametrize(
    ("where", "body"), runnable_blocks(), ids=[w for w, _ in runnable_blocks()]
)
def test_examples_run_offline(where: str, body: str, sandbox: tuple[Path, dict[str, str]]) -> None:
    project, env = sandbox
    for line in body.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        done = subprocess.run(
            ["/bin/bash", "-c", line], cwd=project, env=env, capture_output=True, text=True,
            stdin=subprocess.DEVNULL, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, f"{where}: {line}\n{done.stdout}{done.stderr}"


def test_readme_is_short_and_its_links_resolve() -> None:
    readme = (REPO / "README.md").read_text()
    assert len(readme.encode()) <= 15 * 1024
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text()):
            if target.startswith(("http://", "https://")):
                continue
            resolved = (doc.parent / target).resolve()
            assert resolved.exists(), f"{doc.relative_to(REPO)} links to {target}"


def test_the_merge_job_is_hourly_everywhere() -> None:
    """crontab.py adds an hourly line; docs/plugin.md called it daily (issue 19)."""
    for doc in DOCS:
        text = " ".join(doc.read_text().split())
        for schedule in re.findall(r"(\w+) (?:cron job|crontab merge|ctx-merge line)", text):
            assert schedule.lower() in ("hourly", "the", "a"), f"{doc.name}: {schedule}"


def test_the_readme_says_how_to_get_pipx_and_what_the_first_install_takes() -> None:
    readme = " ".join((REPO / "README.md").read_text().split())
    assert "sudo apt install pipx" in readme  # Debian refuses pip install --user
    assert "pip downloads" in readme and "pip's cache" in readme


def test_no_file_points_outside_the_repository() -> None:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    offenders = []
    for name in listed:
        if name == "tests/repo/test_docs.py":
            continue
        try:
            text = (REPO / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if "shared/reference" in text or "design repository" in text:
            offenders.append(name)
    assert offenders == []


def test_every_test_file_the_project_names_exists() -> None:
    """The docs, the package's comments and the configuration name test files by path
    (tests/<package>/test_<module>.py); a moved or renamed test leaves no stale name (issue
    28: a docstring named tests/test_capture_real.py, which did not exist). tests/ and
    bench/ are left out: their transcripts name made-up test files as data."""
    listed = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    stale = []
    for name in listed:
        if name.startswith(("tests/", "bench/")) or name == "CHANGELOG.md":
            continue
        try:
            text = (REPO / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for path in sorted(set(re.findall(r"\btests/[\w/]+\.py\b", text))):
            if not (REPO / path).is_file():
                stale.append(f"{name}: {path}")
    assert stale == []
