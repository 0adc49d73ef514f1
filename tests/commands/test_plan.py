from __future__ import annotations

import os

from context_memory.commands.plan import cli, main
from helpers.cli_run import invoke

PLAN = "# Plan\n- [x] design\n- [ ] implement the cache\n"


def run(args: list[str], stdin: str | bytes | None = None):
    return invoke(cli, args, stdin)


def test_replace_from_stdin_then_show(project):
    result = run([], PLAN)
    assert (result.exit_code, result.stdout) == (
        0,
        "wrote .working-state/current-plan.md (3 lines)\n",
    )
    assert (project / ".working-state" / "current-plan.md").read_text() == PLAN
    result = run(["--show"])
    assert (result.exit_code, result.stdout) == (0, PLAN)


def test_replace_from_file_adds_final_newline(project):
    (project / "p.md").write_text("- [ ] one")
    assert run(["--file", "p.md"]).stdout == "wrote .working-state/current-plan.md (1 line)\n"
    assert (project / ".working-state" / "current-plan.md").read_text() == "- [ ] one\n"


def test_replacement_is_atomic_and_leaves_no_temporary_files(project, monkeypatch):
    run([], PLAN)
    plan = project / ".working-state" / "current-plan.md"
    inode_before = os.stat(plan).st_ino
    run([], "new plan\n")
    assert plan.read_text() == "new plan\n"
    assert os.stat(plan).st_ino != inode_before  # a rename, not an in-place rewrite
    assert sorted(p.name for p in plan.parent.iterdir()) == ["current-plan.md"]


def test_empty_plan_is_refused_and_old_plan_kept(project):
    run([], PLAN)
    result = run([], "  \n\n")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: the new plan is empty; the current plan was kept (nothing written)\n"
    )
    assert (project / ".working-state" / "current-plan.md").read_text() == PLAN


def test_non_utf8_input_is_refused(project):
    result = run([], b"\xff\xfe plan")
    assert result.exit_code == 1
    assert result.stderr == "Error: stdin is not UTF-8 text (byte 0); nothing written\n"
    assert not (project / ".working-state").exists()


def test_show_without_plan(project):
    result = run(["--show"])
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: no plan yet (.working-state/current-plan.md does not exist); "
        "write one with: ctx-plan < plan.md\n"
    )


def test_missing_file_and_conflicting_options(project, capsys):
    assert main(["--file", "nope.md"]) == 1
    assert capsys.readouterr().err == "Error: nope.md: No such file or directory\n"
    assert main(["--show", "--file", "x"]) == 1
    assert capsys.readouterr().err == "Error: --show prints the plan; drop --file\n"


def test_a_plan_larger_than_the_bound_is_refused_and_the_old_plan_kept(project):
    run([], PLAN)
    big = "- [ ] x\n" * (4 * 1024 * 1024 // 8) + "!"
    result = run([], big)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: the plan from stdin is larger than 4194304 bytes; nothing written. Shorten it\n"
    )
    assert (project / ".working-state" / "current-plan.md").read_text() == PLAN


def test_an_endless_file_is_refused_in_bounded_memory(project):
    """Before: ctx-plan --file /dev/zero read until memory ran out."""
    from helpers.cli_run import run_module

    done = run_module("commands.plan", "--file", "/dev/zero", cwd=project)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "Error: the plan from /dev/zero is larger than 4194304 bytes; nothing written. Shorten it\n"
    )
    assert not (project / ".working-state" / "current-plan.md").exists()
