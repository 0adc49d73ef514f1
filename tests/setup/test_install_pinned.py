"""./install --pin-decisions: the CLAUDE.md import line and the digest, and --uninstall."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from context_memory.core.command_table import HOOKS
from context_memory.memory.decisions import append_record, make_record
from context_memory.pinned.store import IMPORT_LINE
from helpers.install_env import run

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

P = "context-memory:"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "my project"
    folder.mkdir()
    append_record(
        folder / ".working-state",
        make_record("rejected", "Codis", session="s", reason="unmaintained"),
    )
    return folder


def pin_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith(f"{P} pinned digest:")]


@dataclass(frozen=True)
class Installer:
    """The installer run in-process with the stand-in virtualenv, in the throwaway HOME of
    the ``home`` fixture: for the project (``--project``) or for the user (no ``--project``)."""

    venv: Path
    project: Path
    capsys: Any

    def for_project(self, *extra: str) -> tuple[int, str, str]:
        return self.for_user("--project", str(self.project), *extra)

    def for_user(self, *extra: str) -> tuple[int, str, str]:
        return run(self.capsys, "--venv", str(self.venv), *extra)


@pytest.fixture
def installer(home: Path, venv: Path, project: Path, capsys: Any) -> Installer:
    return Installer(venv, project, capsys)


def built_line(project: Path, tokens: int = 103) -> str:
    digest = project / ".working-state" / "pinned.md"
    return (
        f"{P} pinned digest: rebuilt {digest}: 1 of 1 entries, ~{tokens} tokens (cap 1,500); "
        "Claude Code sends it with every request"
    )


def test_existing_claude_md_keeps_every_user_line(project: Path, installer: Installer) -> None:
    claude_md = project / "CLAUDE.md"
    user_text = "# House rules\n\n- answer briefly\n- run the tests\n"
    claude_md.write_text(user_text)
    code, out, err = installer.for_project("--pin-decisions")
    assert (code, err) == (0, "")
    assert pin_lines(out) == [
        f"{P} pinned digest: add the line {IMPORT_LINE} to {claude_md}",
        built_line(project),
    ]
    assert claude_md.read_text() == user_text + IMPORT_LINE + "\n"
    digest = (project / ".working-state" / "pinned.md").read_text()
    assert "## Rejected (do not propose again)\n- Codis (unmaintained)\n" in digest

    # Twice is once: the line is not added again; the digest is rebuilt.
    code, out, _ = installer.for_project("--pin-decisions")
    assert code == 0
    assert pin_lines(out) == [
        f"{P} pinned digest: {claude_md} already imports {IMPORT_LINE}",
        built_line(project),
    ]
    assert claude_md.read_text() == user_text + IMPORT_LINE + "\n"

    # --uninstall removes that line and nothing else, and the derived digest.
    code, out, _ = installer.for_project("--uninstall")
    assert code == 0
    state = project / ".working-state"
    assert pin_lines(out) == [
        f"{P} pinned digest: remove the line {IMPORT_LINE} from {claude_md}",
        f"{P} pinned digest: delete {state / 'pinned.md'} (rebuilt from the decisions log, "
        "which is kept)",
    ]
    assert claude_md.read_text() == user_text
    assert sorted(p.name for p in state.iterdir()) == ["decisions.jsonl", "decisions.jsonl.lock"]


def test_no_claude_md_is_created_and_removed_again(project: Path, installer: Installer) -> None:
    claude_md = project / "CLAUDE.md"
    code, out, _ = installer.for_project("--pin-decisions")
    assert code == 0
    assert pin_lines(out)[0] == f"{P} pinned digest: create {claude_md} with the line {IMPORT_LINE}"
    assert claude_md.read_text() == IMPORT_LINE + "\n"
    installer.for_project("--uninstall")
    assert not claude_md.exists()  # it held nothing but the line the install added


def test_line_already_present_is_left_where_it_is(project: Path, installer: Installer) -> None:
    claude_md = project / "CLAUDE.md"
    text = f"# Rules\n{IMPORT_LINE}\n- be brief"
    claude_md.write_text(text)
    code, out, _ = installer.for_project("--pin-decisions")
    assert code == 0
    assert pin_lines(out)[0] == f"{P} pinned digest: {claude_md} already imports {IMPORT_LINE}"
    assert claude_md.read_text() == text
    installer.for_project("--uninstall")
    assert claude_md.read_text() == "# Rules\n- be brief"


def test_crlf_file_gets_a_crlf_line_and_comes_back_byte_for_byte(
    project: Path, installer: Installer
) -> None:
    claude_md = project / "CLAUDE.md"
    original = b"# Rules\r\n- be brief\r\n"
    claude_md.write_bytes(original)
    claude_md.chmod(0o640)
    assert installer.for_project("--pin-decisions")[0] == 0
    assert claude_md.read_bytes() == original + IMPORT_LINE.encode() + b"\r\n"
    assert claude_md.stat().st_mode & 0o777 == 0o640
    assert installer.for_project("--uninstall")[0] == 0
    assert claude_md.read_bytes() == original


def test_symlinked_claude_md_is_edited_through_the_link(
    project: Path, installer: Installer
) -> None:
    agents = project / "AGENTS.md"
    agents.write_text("# Shared rules\n")
    (project / "CLAUDE.md").symlink_to("AGENTS.md")
    assert installer.for_project("--pin-decisions")[0] == 0
    assert (project / "CLAUDE.md").is_symlink()
    assert agents.read_text() == f"# Shared rules\n{IMPORT_LINE}\n"


def test_a_claude_md_that_is_not_utf8_is_refused_before_anything_is_written(
    project: Path, installer: Installer
) -> None:
    claude_md = project / "CLAUDE.md"
    claude_md.write_bytes(b"# R\xe8gles\n")
    code, out, err = installer.for_project("--pin-decisions")
    assert (code, out) == (1, "")
    assert err == (
        f"{P} error: {claude_md} is not UTF-8 text (byte 3); left alone. Edit the line "
        f"{IMPORT_LINE} in it by hand\n"
    )
    assert claude_md.read_bytes() == b"# R\xe8gles\n"
    assert not (project / ".claude").exists()
    assert not (project / ".working-state" / "pinned.md").exists()


def test_dry_run_writes_nothing(project: Path, installer: Installer) -> None:
    code, out, _ = installer.for_project("--pin-decisions", "--dry-run")
    assert code == 0
    assert pin_lines(out) == [
        f"{P} pinned digest: would create {project / 'CLAUDE.md'} with the line {IMPORT_LINE}",
        f"{P} pinned digest: would build {project / '.working-state' / 'pinned.md'}",
    ]
    assert not (project / "CLAUDE.md").exists()
    assert not (project / ".working-state" / "pinned.md").exists()


def test_install_without_the_option_leaves_claude_md_alone(
    project: Path, installer: Installer
) -> None:
    code, out, _ = installer.for_project()
    assert code == 0 and pin_lines(out) == []
    assert not (project / "CLAUDE.md").exists()
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    assert "hooks" in settings


def test_venv_plan_refuses_a_claude_md_it_cannot_edit(project: Path, installer: Installer) -> None:
    """The install script asks for the virtualenv plan first: the refusal comes before pip."""
    (project / "CLAUDE.md").write_bytes(b"\xff\xfe")
    code, out, err = installer.for_project("--pin-decisions", "--venv-plan")
    assert (code, out) == (1, "")
    assert err.startswith(f"{P} error: {project / 'CLAUDE.md'} is not UTF-8 text (byte 0)")


def test_pin_decisions_after_a_user_install_does_not_register_the_hooks_again(
    home: Path, project: Path, installer: Installer
) -> None:
    """What the README says to do: ./install, then ./install --project DIR --pin-decisions.
    Before: the project's settings got all six hooks a second time (each ran twice)."""
    user = home / ".claude" / "settings.json"
    assert installer.for_user()[0] == 0
    user_text = user.read_text()
    code, out, err = installer.for_project("--pin-decisions")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == (
        f"{P} hooks already registered in {user}, which runs them in every project; "
        f"not registering them again in {project / '.claude' / 'settings.json'}"
    )
    assert pin_lines(out)[0] == (
        f"{P} pinned digest: create {project / 'CLAUDE.md'} with the line {IMPORT_LINE}"
    )
    assert not (project / ".claude").exists()
    assert user.read_text() == user_text
    # The uninstall still takes the pinned line out and leaves both files as they were.
    done = installer.for_user("--uninstall")
    assert done[:3:2] == (0, ""), done[2]
    assert not (project / "CLAUDE.md").exists()
    assert not user.exists()


def test_a_user_install_after_a_project_install_takes_the_project_s_copy_out(
    home: Path, project: Path, installer: Installer
) -> None:
    """The reverse order: the hooks the project install registered would run twice once
    the user settings run them too; the project's settings keep everything else."""
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "model": "opus"\n}\n')
    assert installer.for_project()[0] == 0
    assert "hooks" in json.loads(settings.read_text())
    code, out, err = installer.for_user("--dry-run")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == (
        f"{P} would remove {len(HOOKS)} hooks from {settings}: "
        f"{home / '.claude' / 'settings.json'} runs "
        "them in every project now, and both would run each hook twice"
    )
    assert "hooks" in json.loads(settings.read_text())
    code, out, err = installer.for_user()
    assert (code, err) == (0, "")
    assert (
        f"{P} removed {len(HOOKS)} hooks from {settings}: "
        f"{home / '.claude' / 'settings.json'} runs "
        "them in every project now, and both would run each hook twice"
    ) in out.splitlines()
    assert json.loads(settings.read_text()) == {"model": "opus"}
    # Once: a second user install has nothing left to take out.
    assert "runs them in every project now" not in installer.for_user()[2]
    assert installer.for_user("--uninstall")[0] == 0
    assert settings.read_text() == '{\n  "model": "opus"\n}\n'
