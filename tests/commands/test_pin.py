"""ctx-pin: ./install --pin-decisions for a plugin install, with the installer's functions."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_memory.commands import pin as plugin_pin
from context_memory.pinned import digest as pinned_digest
from context_memory.pinned import store as pinned


def test_pin_adds_the_line_and_builds_the_digest_then_remove_undoes_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "CLAUDE.md").write_text("# Rules\nBe brief.\n")
    assert plugin_pin.main(["--project", str(project)]) == 0
    assert (project / "CLAUDE.md").read_text() == f"# Rules\nBe brief.\n{pinned.IMPORT_LINE}\n"
    assert (project / ".working-state" / "pinned.md").read_text().startswith(pinned_digest.TITLE)
    out = capsys.readouterr().out
    assert f"pinned digest: add the line {pinned.IMPORT_LINE} to {project / 'CLAUDE.md'}" in out
    # Twice is once.
    assert plugin_pin.main(["--project", str(project)]) == 0
    assert (project / "CLAUDE.md").read_text().count(pinned.IMPORT_LINE) == 1
    assert "already imports" in capsys.readouterr().out
    assert plugin_pin.main(["--project", str(project), "--remove"]) == 0
    assert (project / "CLAUDE.md").read_text() == "# Rules\nBe brief.\n"
    assert not (project / ".working-state" / "pinned.md").exists()


def test_dry_run_changes_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert plugin_pin.main(["--project", str(project), "--dry-run"]) == 0
    assert not (project / "CLAUDE.md").exists()
    assert "would create" in capsys.readouterr().out


def test_a_claude_md_that_is_not_text_is_left_alone(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "CLAUDE.md").write_bytes(b"\xff\xfe rules")
    assert plugin_pin.main(["--project", str(project)]) == 1
    assert (project / "CLAUDE.md").read_bytes() == b"\xff\xfe rules"
    assert "is not UTF-8 text" in capsys.readouterr().err
