"""Fixtures that drive the real Claude Code client against the local fake Messages API.

Each test gets a throwaway HOME (so ~/.claude, settings and transcripts are its own), a
project directory, and a fake API server; ``run_claude`` runs ``claude -p`` there.
See docs/claude-code-protocol.md, section 5.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .fake_api import FakeMessagesApi

REPO_ROOT = Path(__file__).resolve().parents[2]
BUNDLED_CLAUDE_BIN = REPO_ROOT / ".cache" / "claude-code" / "node_modules" / ".bin" / "claude"
INSTALL_SCRIPT = REPO_ROOT / "install"
DEFAULT_MODEL = "claude-sonnet-4-6"
CLAUDE_TIMEOUT_SECONDS = 60.0
# The first ./install of a run creates a virtualenv and pip-installs the repo.
INSTALL_TIMEOUT_SECONDS = 600.0

# Variables an enclosing Claude Code session (or the developer's shell) may set that would
# change what the child client or our hooks do. Stripped so tests behave the same inside
# and outside a session.
_STRIPPED_PREFIXES = ("CLAUDE", "ANTHROPIC_", "CTX_")
_STRIPPED_NAMES = frozenset(
    {
        "DISABLE_AUTO_COMPACT",
        "DISABLE_COMPACT",
        "DISABLE_PROMPT_CACHING",
        "MAX_THINKING_TOKENS",
        "VIRTUAL_ENV",  # ./install and the hooks must not see the test runner's virtualenv
        "XDG_BIN_HOME",  # ./install links commands there; the throwaway HOME must get them
        "XDG_DATA_HOME",
        "XDG_CACHE_HOME",
    }
)


def find_claude_bin() -> Path | None:
    """CLAUDE_BIN, else the client CI installs under .cache/, else ``claude`` on PATH."""
    from_env = os.environ.get("CLAUDE_BIN")
    if from_env:
        return Path(from_env)
    if BUNDLED_CLAUDE_BIN.exists():
        return BUNDLED_CLAUDE_BIN
    on_path = shutil.which("claude")
    return Path(on_path) if on_path else None


def mangle_project_path(path: Path | str) -> str:
    """The client's folder name for a project: every char outside [A-Za-z0-9] becomes '-'."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(path))


def isolated_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (default: os.environ) without any Claude Code session or toolkit variables."""
    source = os.environ if base is None else base
    return {
        name: value
        for name, value in source.items()
        if not name.startswith(_STRIPPED_PREFIXES) and name not in _STRIPPED_NAMES
    }


def run_command(
    venv: Path, name: str, *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The installed command ``name ARGS`` of ``venv``, run in ``cwd`` with ``env`` (else
    isolated_env()), as text; the caller checks its exit code."""
    return subprocess.run(
        [str(venv / "bin" / name), *args],
        cwd=cwd,
        env=isolated_env() if env is None else env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def ctx_decide(venv: Path, project: Path, session: str, *args: str, **env: str) -> str:
    """Run the installed ``ctx-decide ARGS`` in ``project`` as the agent does in ``session``
    (CLAUDE_CODE_SESSION_ID and CLAUDECODE=1 set, as the client's Bash tool sets them, plus
    ``env``); must exit 0. Returns its stdout."""
    environ = isolated_env()
    environ.update(CLAUDE_CODE_SESSION_ID=session, CLAUDECODE="1", **env)
    result = run_command(venv, "ctx-decide", *args, cwd=project, env=environ)
    assert result.returncode == 0, result.stderr
    return result.stdout


def edit_settings(home: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Change, in place, the ``~/.claude/settings.json`` that ./install wrote into the
    throwaway HOME ``home`` (a permission rule, a setting, one more hook)."""
    path = home / ".claude" / "settings.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    change(settings)
    path.write_text(json.dumps(settings, indent=2), encoding="utf-8")


def allow(home: Path, *rules: str) -> None:
    """Permission rules the user allowed (``"Bash(npm install:*)"``): those calls run
    without the prompt."""

    def add(settings: dict[str, Any]) -> None:
        settings.setdefault("permissions", {}).setdefault("allow", []).extend(rules)

    edit_settings(home, add)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSONL file; a torn last line (the client flushes every 100 ms) is skipped."""
    rows: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


def stream_json_events(stdout: str) -> list[dict[str, Any]]:
    """The events printed by ``--output-format stream-json`` (one JSON object per line)."""
    events: list[dict[str, Any]] = []
    for line in stdout.splitlines():
        if line.startswith("{"):
            events.append(json.loads(line))
    return events


def hook_responses(stdout: str, event: str) -> list[dict[str, Any]]:
    """``hook_response`` events for ``event`` from a stream-json run with --include-hook-events.

    Each carries the hook's ``stdout``, ``stderr``, ``exit_code`` and ``outcome``: the one
    place that shows a hook ran even when it printed nothing.
    """
    return [
        item
        for item in stream_json_events(stdout)
        if item.get("type") == "system"
        and item.get("subtype") == "hook_response"
        and item.get("hook_event") == event
    ]


def _run_in_own_group(
    argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float
) -> subprocess.CompletedProcess[str]:
    """subprocess.run, but a timeout kills the whole process group (hooks included)."""
    with subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            pytest.fail(
                f"{argv[0]} timed out after {timeout:.0f} s\n"
                f"stdout:\n{stdout[-4000:]}\nstderr:\n{stderr[-4000:]}"
            )
    return subprocess.CompletedProcess(list(argv), process.returncode, stdout, stderr)


@dataclass
class ClaudeRunner:
    """Runs ``claude -p`` in a throwaway HOME against the fake API; one per test."""

    claude_bin: Path
    api: FakeMessagesApi
    home: Path
    project_dir: Path
    timeout: float = CLAUDE_TIMEOUT_SECONDS

    def child_env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        env = isolated_env()
        env.update(
            HOME=str(self.home),
            ANTHROPIC_BASE_URL=self.api.base_url,
            ANTHROPIC_API_KEY="test",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_AUTOUPDATER="1",
            # A proxy in the developer's environment must not see requests to 127.0.0.1.
            NO_PROXY="127.0.0.1,localhost",
            no_proxy="127.0.0.1,localhost",
        )
        if extra:
            env.update(extra)
        return env

    def __call__(
        self,
        prompt: str,
        *,
        model: str = DEFAULT_MODEL,
        cont: bool = False,
        extra_args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        check: bool = True,
    ) -> subprocess.CompletedProcess[str]:
        """Run one ``claude -p`` turn; ``cont`` adds --continue (use "/compact" to compact).

        With ``check`` a non-zero exit fails the test with the client's output.
        """
        argv = [str(self.claude_bin), "-p", "--model", model]
        if cont:
            argv.append("--continue")
        argv.extend(extra_args)
        # "--" ends the options: --allowedTools and friends take several values.
        argv.extend(["--", prompt])
        result = _run_in_own_group(
            argv, cwd=cwd or self.project_dir, env=self.child_env(env), timeout=self.timeout
        )
        if check and result.returncode != 0:
            pytest.fail(
                f"claude exited {result.returncode}\nargv: {argv}\n"
                f"stdout:\n{result.stdout[-4000:]}\nstderr:\n{result.stderr[-4000:]}"
            )
        return result

    def compact(self, **kwargs: Any) -> subprocess.CompletedProcess[str]:
        return self("/compact", cont=True, **kwargs)

    # -- transcripts ----------------------------------------------------------------------

    @property
    def transcripts_dir(self) -> Path:
        """~/.claude/projects/<mangled project dir>: where this project's sessions go."""
        return self.home / ".claude" / "projects" / mangle_project_path(self.project_dir)

    def transcript_path(self, session_id: str) -> Path:
        return self.transcripts_dir / f"{session_id}.jsonl"

    @property
    def memory_dir(self) -> Path:
        """The project's auto-memory folder (``memory/`` beside its sessions)."""
        return self.transcripts_dir / "memory"

    def transcript_files(self) -> list[Path]:
        if not self.transcripts_dir.is_dir():
            return []
        return sorted(self.transcripts_dir.glob("*.jsonl"))

    def transcript_rows(self, session_id: str) -> list[dict[str, Any]]:
        return read_jsonl(self.transcript_path(session_id))

    def session_rows(self) -> tuple[str, list[dict[str, Any]]]:
        """(id, rows) of the test's one session transcript."""
        (transcript,) = self.transcript_files()
        return transcript.stem, self.transcript_rows(transcript.stem)


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    found = find_claude_bin()
    if found is None or not found.exists():
        tried = f" ({found} does not exist)" if found else ""
        message = (
            f"Claude Code client not found{tried}: set CLAUDE_BIN or run "
            "`npm install --prefix .cache/claude-code @anthropic-ai/claude-code@2.1.332`"
        )
        if os.environ.get("CI"):
            pytest.fail(message + " (e2e tests must not be skipped in CI)")
        pytest.skip(message)
    return found


@pytest.fixture
def fake_api() -> Iterator[FakeMessagesApi]:
    with FakeMessagesApi() as api:
        yield api


@pytest.fixture
def claude_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    # The client names the transcript folder after the real path.
    return project.resolve()


@pytest.fixture
def run_claude(
    claude_bin: Path, fake_api: FakeMessagesApi, claude_home: Path, project_dir: Path
) -> ClaudeRunner:
    return ClaudeRunner(
        claude_bin=claude_bin, api=fake_api, home=claude_home, project_dir=project_dir
    )


@pytest.fixture(scope="session")
def ctx_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One private virtualenv per test run: ./install pip-installs into it only once."""
    return tmp_path_factory.mktemp("ctx-install") / "venv"


def run_install(
    home: Path, venv: Path, *args: str, timeout: float = INSTALL_TIMEOUT_SECONDS
) -> subprocess.CompletedProcess[str]:
    """Run the repo's ./install for the throwaway ``home`` with ``venv`` as CTX_VENV."""
    env = isolated_env()
    # No CLAUDE_CONFIG_DIR (stripped above): ./install writes $HOME/.claude/settings.json.
    env.update(HOME=str(home), CTX_VENV=str(venv))
    return _run_in_own_group([str(INSTALL_SCRIPT), *args], cwd=REPO_ROOT, env=env, timeout=timeout)


@pytest.fixture
def installed_home(claude_home: Path, ctx_venv: Path) -> Path:
    """The throwaway HOME with this repo's hooks registered by ./install."""
    if not INSTALL_SCRIPT.exists():
        pytest.fail(f"{INSTALL_SCRIPT} does not exist")
    result = run_install(claude_home, ctx_venv)
    if result.returncode != 0:
        pytest.fail(
            f"./install exited {result.returncode}\n"
            f"stdout:\n{result.stdout[-4000:]}\nstderr:\n{result.stderr[-4000:]}"
        )
    settings = claude_home / ".claude" / "settings.json"
    if not settings.exists():
        pytest.fail(f"./install did not write {settings}\nstdout:\n{result.stdout[-4000:]}")
    return claude_home
