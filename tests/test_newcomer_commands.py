"""What a newcomer met (issue 13): ctx-audit says what it skipped, ctx-doctor in the home
folder counts ~/.claude/settings.json once, ctx-merge --dry-run shows the diff behind a
closed gate, ctx-statusline names an unknown option where the user sees it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from context_memory.commands import merge as merge_cli
from context_memory.handlers import audit, statusline
from context_memory.setup.doctor import checks_install as doctor
from helpers.cli_run import run_main
from helpers.paths import REPO, subprocess_env
from test_merge_cli import NOW, add_sessions

SAMPLE = REPO / "examples" / "sample-transcript.jsonl"


def test_audit_says_it_skipped_decisions_newer_than_the_compaction(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from context_memory.commands.decide import main as decide
    from context_memory.memory import decisions

    (project / ".git").mkdir()  # the project root, whatever lies above tmp_path
    # Recorded an hour after the sample's compaction, whatever today's date (issue 19).
    monkeypatch.setattr(decisions, "utc_now_iso", lambda: "2026-11-30T10:10:52Z")
    for n in range(5):
        assert run_main(decide, [f"decision {n} about redis", "--reason", f"r {n}"]).exit_code == 0
    result = run_main(audit.main, [str(SAMPLE)])
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "Nothing to audit: the 5 decisions were recorded after the last compaction "
        "(2026-11-30T09:10:52.214Z), so its summary could not hold them and the audit skips "
        "them (the next compaction is audited against them; see "
        ".working-state/decisions.jsonl).\n"
    )


def test_audit_without_any_decision_says_how_to_record_them(project: Path) -> None:
    (project / ".git").mkdir()
    result = run_main(audit.main, [str(SAMPLE)])
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "No recorded decisions to audit in .working-state/decisions.jsonl "
        "(record them with ctx-decide).\n"
    )


def test_doctor_in_the_home_folder_counts_the_user_settings_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    environ = {"HOME": str(home)}
    files = doctor.settings_files(str(home), environ)
    assert [(f.label, f.path) for f in files] == [
        ("user", home / ".claude" / "settings.json"),
        ("local", home / ".claude" / "settings.local.json"),
    ]
    elsewhere = doctor.settings_files(str(tmp_path / "app"), environ)
    assert [f.label for f in elsewhere] == ["user", "project", "local"]


def test_merge_dry_run_shows_the_diff_behind_a_closed_gate(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = project / ".working-state"
    add_sessions(state, 2, "2026-11-30")  # fewer than the 5 sessions the gate wants
    code = merge_cli.main(["--dry-run", "--now", NOW])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("ctx-merge: stopped at the session gate: ")
    assert lines[1] == "ctx-merge: past that gate (ctx-merge --force), the merge would do this:"
    assert lines[2].startswith("ctx-merge: dry run, nothing written: would merge 4 handoffs")
    assert lines[3] == f"ctx-merge: changes to {state / 'merged' / 'decisions.md'}:"
    assert lines[4] == "--- /dev/null"
    assert "+- Use PostgreSQL 16 (jsonb)" in " ".join(lines) or any(
        "PostgreSQL 16" in line and line.startswith("+") for line in lines
    )
    assert not (state / "merged").exists()
    # --quiet stays quiet; a merge that runs is unaffected.
    assert merge_cli.main(["--dry-run", "--quiet", "--now", NOW]) == 0
    assert capsys.readouterr() == ("", "")


def test_statusline_names_an_unknown_option_in_the_line_and_exits_0() -> None:
    options = statusline.parse_args(["--colour", "--no-color"])
    assert options.unknown == ["--colour"] and options.color is False
    assert statusline.parse_args(["--version"]).unknown == []
    done = subprocess.run(
        [sys.executable, "-m", "context_memory.handlers.statusline", "--no-color", "--bogus"],
        input=json.dumps({"context_window": {"context_window_size": 200000,
                          "current_usage": {"input_tokens": 20000, "output_tokens": 0,
                          "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}}),
        capture_output=True, text=True, env=subprocess_env(), timeout=60, check=False,
    )  # fmt: skip
    note = "ctx-statusline: unknown option --bogus (see ctx-statusline --help)"
    assert done.returncode == 0
    assert done.stderr == note + "\n"
    assert done.stdout.endswith(f" free · 167K to auto-compact · {note}\n")
    assert done.stdout.startswith("░░░░░░░░░░ 0/200K 0% free")
