"""The hourly ctx-merge crontab line: its text, idempotent add, exact remove, and
``./install --cron`` / ``--uninstall`` / ``--dry-run``, all against the real ``crontab``.

Safety: the real ``crontab`` command only ever edits the crontab of a throwaway system
user that this module creates with ``useradd`` (and deletes with ``userdel``); the code
under test reaches it through ``CTX_CRONTAB_USER`` (``crontab -u <user>``). The crontab of
the user running the tests is checked to be unchanged after every test. Creating a user
needs root, as CI runs (.ci/run installs Debian's cron package for the crontab command).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from context_memory.setup.install import cli as installer
from context_memory.setup.install import crontab
from context_memory.setup.install.crontab import (
    ABSENT,
    ADDED,
    REMOVED,
    UNCHANGED,
    UPDATED,
    CrontabError,
    cron_line,
    cron_minute,
    is_project_line,
    merge_command,
    planned_addition,
    planned_removal,
    read_crontab,
    runs_merge_from,
    with_line,
    without_lines,
    write_crontab,
)
from helpers.cli_run import captured
from helpers.handoff_files import write_handoff
from helpers.install_env import stand_in_venv
from helpers.needs import missing
from helpers.paths import REPO, subprocess_env
from helpers.throwaway_home import throwaway_home
from helpers.throwaway_user import run_command, throwaway_user

P = "context-memory:"
FOREIGN = (
    "MAILTO=me@example.com\n"
    "# m h dom mon dow command\n"
    "*/5 * * * * /usr/local/bin/backup --fast\n"
    "\n"
    "0 3 * * 0 /usr/bin/find /tmp -mtime +7 -delete # weekly\n"
)


def add_merge_line(bin_dir: str, project: str) -> crontab.CronChange:
    """What CronLine.run does for --cron: the planned change, written (to the crontab
    of CTX_CRONTAB_USER, which the user_crontab fixture sets)."""
    change = planned_addition(bin_dir, project)
    if change.action != UNCHANGED:
        write_crontab(change.new_text)
    return change


def remove_merge_lines(project: str) -> crontab.CronChange:
    change = planned_removal(project)
    if change.action == REMOVED:
        write_crontab(change.new_text)
    return change


def minute(project: str) -> int:
    return int(hashlib.sha256(project.encode()).hexdigest(), 16) % 60


# --------------------------------------------------------------------------- the line (pure)


def test_cron_line_is_hourly_absolute_quoted_and_tagged() -> None:
    line = cron_line("/opt/cm venv/bin", "/home/me/my app")
    assert line == (
        f"{minute('/home/me/my app')} * * * * '/opt/cm venv/bin/ctx-merge' --quiet "
        "--project '/home/me/my app' # context-memory:/home/me/my app"
    )
    assert cron_line("/v/bin", "/srv/app") == (
        f"{minute('/srv/app')} * * * * /v/bin/ctx-merge --quiet --project /srv/app "
        "# context-memory:/srv/app"
    )
    assert 0 <= cron_minute("/srv/app") < 60
    assert cron_minute("/srv/app") == cron_minute("/srv/app")


def test_percent_signs_are_escaped_for_cron() -> None:
    assert cron_line("/v/bin", "/srv/100%") == (
        f"{minute('/srv/100%')} * * * * /v/bin/ctx-merge --quiet --project /srv/100\\% "
        "# context-memory:/srv/100\\%"
    )
    assert merge_command("/v/bin", "/srv/100%") == "/v/bin/ctx-merge --quiet --project /srv/100%"


def test_unusable_project_paths_are_refused() -> None:
    with pytest.raises(CrontabError, match="must be absolute, not 'app'"):
        cron_line("/v/bin", "app")
    with pytest.raises(CrontabError, match="cannot go into a crontab line"):
        cron_line("/v/bin", "/srv/a\nb")


def test_the_tag_matches_exactly_one_project() -> None:
    line = cron_line("/v/bin", "/a/b")
    assert is_project_line(line, "/a/b")
    for other in ("/x/a/b", "/a/b2", "/a", "/a/b/c"):
        assert not is_project_line(line, other)
        assert not is_project_line(cron_line("/v/bin", other), "/a/b")


def test_with_line_appends_once_and_keeps_everything_else() -> None:
    line = cron_line("/v/bin", "/a/b")
    added = with_line(FOREIGN, line, "/a/b")
    assert added == FOREIGN + line + "\n"
    assert with_line(added, line, "/a/b") == added
    assert with_line("", line, "/a/b") == line + "\n"
    assert with_line("0 * * * * x", line, "/a/b") == "0 * * * * x\n" + line + "\n"


def test_with_line_replaces_in_place_and_drops_copies() -> None:
    old = cron_line("/old venv/bin", "/a/b")
    new = cron_line("/v/bin", "/a/b")
    other = cron_line("/v/bin", "/x/a/b")
    text = f"{old}\n{FOREIGN}{other}\n{old}\n"
    assert with_line(text, new, "/a/b") == f"{new}\n{FOREIGN}{other}\n"


def test_without_lines_removes_exactly_the_tagged_line() -> None:
    mine = cron_line("/v/bin", "/a/b")
    other = cron_line("/v/bin", "/a/b2")
    text = f"{FOREIGN}{mine}\n{other}\n"
    assert without_lines(text, lambda line: is_project_line(line, "/a/b")) == f"{FOREIGN}{other}\n"


def test_runs_merge_from_picks_the_lines_of_one_virtualenv() -> None:
    assert runs_merge_from(cron_line("/v env/bin", "/a"), "/v env/bin")
    assert not runs_merge_from(cron_line("/v env/bin", "/a"), "/v")
    assert not runs_merge_from(cron_line("/other/bin", "/a"), "/v env/bin")
    assert not runs_merge_from("0 * * * * '/v env/bin/ctx-merge' --quiet", "/v env/bin")  # untagged


# --------------------------------------------------------------------------- the real crontab


@pytest.fixture(scope="module")
def cron_user() -> Iterator[str]:
    """A throwaway system user (no home, no login shell) whose crontab the tests own."""
    if shutil.which("crontab") is None:
        missing("the crontab command is missing: apt-get install cron (.ci/run does)")
    with throwaway_user(
        "ctxcron", "--system", "--no-create-home", "--home-dir", "/nonexistent",
        "--shell", "/usr/sbin/nologin",
        reason_for_root=(
            "tests/setup/test_crontab.py runs the real crontab command on a throwaway user's "
            "crontab, and creating that user (useradd) needs root; run the tests as root "
            "(as CI does), e.g. in a container"
        ),
    ) as name:  # fmt: skip
        try:
            yield name
        finally:
            run_command("crontab", "-u", name, "-r")


@pytest.fixture
def user_crontab(cron_user: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The throwaway user's crontab, empty, selected through CTX_CRONTAB_USER; checks that
    the crontab of the user running the tests is untouched."""
    run_command("crontab", "-u", cron_user, "-r")
    monkeypatch.setenv("CTX_CRONTAB_USER", cron_user)
    own_before = run_command("crontab", "-l")
    yield cron_user
    own_after = run_command("crontab", "-l")
    assert (own_after.returncode, own_after.stdout) == (own_before.returncode, own_before.stdout)


def installed(user: str) -> str:
    done = run_command("crontab", "-u", user, "-l")
    if done.returncode != 0:
        assert done.stderr.startswith("no crontab for"), done.stderr
        return ""
    return done.stdout


def install_text(user: str, text: str) -> None:
    done = subprocess.run(
        ["crontab", "-u", user, "-"], input=text, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_read_crontab_of_a_user_without_one_is_empty(user_crontab: str) -> None:
    assert read_crontab() == ""


def test_add_is_idempotent_and_keeps_the_rest(user_crontab: str) -> None:
    install_text(user_crontab, FOREIGN)
    line = cron_line("/v env/bin", "/srv/my app")
    change = add_merge_line("/v env/bin", "/srv/my app")
    assert (change.action, change.lines) == (ADDED, [line])
    assert installed(user_crontab) == FOREIGN + line + "\n"
    again = add_merge_line("/v env/bin", "/srv/my app")
    assert again.action == UNCHANGED
    assert installed(user_crontab) == FOREIGN + line + "\n"


def test_a_moved_virtualenv_updates_the_line_in_place(user_crontab: str) -> None:
    old = cron_line("/old/bin", "/srv/app")
    install_text(user_crontab, f"{old}\n{FOREIGN}")
    change = add_merge_line("/new/bin", "/srv/app")
    assert change.action == UPDATED
    assert installed(user_crontab) == f"{cron_line('/new/bin', '/srv/app')}\n{FOREIGN}"


def test_remove_takes_exactly_the_projects_line(user_crontab: str) -> None:
    mine = cron_line("/v/bin", "/srv/app")
    neighbour = cron_line("/v/bin", "/srv/app2")
    install_text(user_crontab, f"{FOREIGN}{mine}\n{neighbour}\n")
    change = remove_merge_lines("/srv/app")
    assert (change.action, change.lines) == (REMOVED, [mine])
    assert installed(user_crontab) == f"{FOREIGN}{neighbour}\n"
    assert remove_merge_lines("/srv/app").action == ABSENT
    assert installed(user_crontab) == f"{FOREIGN}{neighbour}\n"


def test_planned_changes_write_nothing(user_crontab: str) -> None:
    install_text(user_crontab, FOREIGN)
    change = planned_addition("/v/bin", "/srv/app")
    assert (change.action, change.new_text) == (
        ADDED,
        FOREIGN + cron_line("/v/bin", "/srv/app") + "\n",
    )
    assert installed(user_crontab) == FOREIGN
    install_text(user_crontab, FOREIGN + cron_line("/v/bin", "/srv/app") + "\n")
    assert planned_removal("/srv/app").action == REMOVED
    assert installed(user_crontab) == FOREIGN + cron_line("/v/bin", "/srv/app") + "\n"


def test_an_unknown_user_is_an_error(user_crontab: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CTX_CRONTAB_USER", "ctxcron-no-such-user")
    with pytest.raises(CrontabError, match=r"crontab -l failed: .*unknown"):
        read_crontab()


def cron_command(line: str) -> str:
    """The command cron hands to /bin/sh for ``line``: the sixth field on, with '\\%' made
    '%' (an unescaped '%' would end the command; the line has none)."""
    command = line.split(None, 5)[5]
    assert "%" not in command.replace("\\%", "")
    return command.replace("\\%", "%")


def test_the_installed_line_runs_the_merge(user_crontab: str, tmp_path: Path) -> None:
    """Run the line from the crontab as cron would (sh -c), with a stand-in ctx-merge that
    starts this checkout's merge: the quoting of paths with spaces and '%' holds."""
    bin_dir = tmp_path / "v env 100%" / "bin"
    bin_dir.mkdir(parents=True)
    program = bin_dir / "ctx-merge"
    program.write_text(
        f'#!/bin/sh\nexec "{sys.executable}" -m context_memory.commands.merge "$@"\n'
    )
    program.chmod(0o755)
    project = tmp_path / "my project 50%"
    for index in range(5):
        write_handoff(
            project / ".working-state",
            f"s{index}",
            1,
            f"2026-11-30T0{index}:00:00Z",
            decided=[f"Decision {index}"],
        )
    add_merge_line(str(bin_dir), str(project))
    (line,) = installed(user_crontab).splitlines()
    done = subprocess.run(
        ["/bin/sh", "-c", cron_command(line)],
        cwd="/",
        env=subprocess_env(HOME="/nonexistent"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")  # --quiet: cron mails nothing
    merged = project / ".working-state" / "merged" / "decisions.md"
    assert "- Decision 4 — session s4, stage 1, 2026-11-30" in merged.read_text()


# --------------------------------------------------------------------------- ./install --cron


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return throwaway_home(tmp_path, monkeypatch, ("CTX_VENV", "XDG_DATA_HOME", "CLAUDE_CONFIG_DIR"))


@pytest.fixture
def venv(tmp_path: Path) -> Path:
    """A stand-in virtualenv with every entry point the installer checks, and ctx-merge."""
    return stand_in_venv(tmp_path / "v env")


def run_installer(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code, out, err = captured(installer.main)(capsys, *argv)
    return code, out.splitlines(), err


def cron_lines(out: list[str]) -> list[str]:
    """The crontab report: its first line and the lines after it, up to the first line of
    another report (the settings file restored or deleted by the uninstall's record)."""
    start = next(i for i, line in enumerate(out) if line.startswith(f"{P} crontab:"))
    end = next(
        (i for i in range(start + 1, len(out)) if out[i].startswith(f"{P} ")
         and not out[i].startswith(f"{P} crontab:") and not out[i].startswith(f"{P} note:")),
        len(out),
    )  # fmt: skip
    return out[start:end]


def test_install_cron_adds_one_line_and_twice_is_once(
    user_crontab: str, home: Path, venv: Path, tmp_path: Path, capsys
) -> None:
    project = tmp_path / "my app"
    project.mkdir()
    bin_dir = venv / "bin"
    line = cron_line(str(bin_dir), str(project))
    install_text(user_crontab, FOREIGN)
    code, out, err = run_installer(capsys, "--project", str(project), "--venv", str(venv), "--cron")
    assert (code, err) == (0, "")
    assert cron_lines(out) == [
        f"{P} crontab: added a line that runs ctx-merge hourly for {project}:",
        f"  {line}",
    ]
    assert installed(user_crontab) == FOREIGN + line + "\n"
    assert line.startswith(
        f"{minute(str(project))} * * * * '{bin_dir}/ctx-merge' --quiet --project "
    )

    code, out, err = run_installer(capsys, "--project", str(project), "--venv", str(venv), "--cron")
    assert (code, err) == (0, "")
    assert cron_lines(out) == [
        f"{P} crontab: already runs ctx-merge hourly for {project}; nothing to change"
    ]
    assert installed(user_crontab) == FOREIGN + line + "\n"


def test_install_cron_dry_run_shows_the_line_and_writes_nothing(
    user_crontab: str, home: Path, venv: Path, tmp_path: Path, capsys
) -> None:
    project = tmp_path / "app"
    project.mkdir()
    code, out, err = run_installer(
        capsys, "--project", str(project), "--venv", str(venv), "--cron", "--dry-run"
    )
    assert (code, err) == (0, "")
    assert cron_lines(out) == [
        f"{P} crontab: would add a line that runs ctx-merge hourly for {project}:",
        f"  {cron_line(str(venv / 'bin'), str(project))}",
    ]
    assert installed(user_crontab) == ""
    assert not (project / ".claude").exists()


def test_cron_without_project_means_the_current_directory(
    user_crontab: str, home: Path, venv: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    project = tmp_path / "here"
    project.mkdir()
    monkeypatch.chdir(project)
    code, _out, _ = run_installer(capsys, "--venv", str(venv), "--cron")
    assert code == 0
    assert installed(user_crontab) == cron_line(str(venv / "bin"), str(project)) + "\n"
    assert (home / ".claude" / "settings.json").is_file()  # hooks went to the user settings


def test_uninstall_removes_the_line(
    user_crontab: str, home: Path, venv: Path, tmp_path: Path, capsys
) -> None:
    project = tmp_path / "app"
    project.mkdir()
    assert run_installer(capsys, "--project", str(project), "--venv", str(venv), "--cron")[0] == 0
    line = cron_line(str(venv / "bin"), str(project))
    install_text(user_crontab, FOREIGN + installed(user_crontab))

    code, out, err = run_installer(
        capsys, "--project", str(project), "--venv", str(venv), "--uninstall", "--dry-run"
    )
    assert (code, err) == (0, "")
    assert cron_lines(out) == [f"{P} crontab: would remove the ctx-merge line:", f"  {line}"]
    assert installed(user_crontab) == FOREIGN + line + "\n"

    code, out, err = run_installer(
        capsys, "--project", str(project), "--venv", str(venv), "--uninstall"
    )
    assert (code, err) == (0, "")
    assert cron_lines(out) == [f"{P} crontab: removed the ctx-merge line:", f"  {line}"]
    assert installed(user_crontab) == FOREIGN

    code, out, _ = run_installer(
        capsys, "--project", str(project), "--venv", str(venv), "--uninstall"
    )
    assert code == 0 and not [line for line in out if "crontab" in line]  # quiet when absent
    code, out, _ = run_installer(
        capsys, "--project", str(project), "--venv", str(venv), "--uninstall", "--cron"
    )
    assert cron_lines(out) == [f"{P} crontab: no ctx-merge line for {project}; nothing to remove"]


def test_purge_removes_every_line_of_the_deleted_virtualenv(
    user_crontab: str, home: Path, venv: Path, tmp_path: Path, capsys
) -> None:
    bin_dir = str(venv / "bin")
    lines = [cron_line(bin_dir, "/srv/one"), cron_line(bin_dir, "/srv/two")]
    kept = cron_line("/other venv/bin", "/srv/three")
    install_text(user_crontab, "".join(line + "\n" for line in [*lines, kept]))
    project = tmp_path / "app"
    project.mkdir()
    code, out, _ = run_installer(
        capsys, "--project", str(project), "--venv", str(venv), "--uninstall", "--purge"
    )
    assert code == 0
    assert cron_lines(out) == [
        f"{P} crontab: removed the ctx-merge 2 lines:",
        *(f"  {line}" for line in lines),
    ]
    assert installed(user_crontab) == kept + "\n"
    assert not venv.exists()


def test_install_cron_needs_ctx_merge_in_the_virtualenv(
    user_crontab: str, home: Path, venv: Path, tmp_path: Path, capsys
) -> None:
    (venv / "bin" / "ctx-merge").unlink()
    project = tmp_path / "app"
    project.mkdir()
    code, out, err = run_installer(capsys, "--project", str(project), "--venv", str(venv), "--cron")
    assert (code, out) == (1, [])
    assert err == (
        f"{P} error: {venv / 'bin' / 'ctx-merge'} does not exist: the virtualenv {venv} holds "
        "an older context-memory. Run ./install --cron, which updates it.\n"
    )
    assert installed(user_crontab) == ""
    assert not (project / ".claude").exists()


def test_install_cron_refuses_before_writing_when_crontab_fails(
    user_crontab: str, home: Path, venv: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.setenv("CTX_CRONTAB_USER", "ctxcron-no-such-user")
    project = tmp_path / "app"
    project.mkdir()
    code, out, err = run_installer(capsys, "--project", str(project), "--venv", str(venv), "--cron")
    assert (code, out) == (1, [])
    assert err.startswith(f"{P} error: crontab -l failed: ")
    assert not (project / ".claude").exists()


def install_script(
    *args: str, home: Path, venv: Path, user: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in subprocess_env().items() if k != "PYTHONPATH"}
    env.update(HOME=str(home), CTX_VENV=str(venv), CTX_CRONTAB_USER=user)
    env["CTX_BIN_DIR"] = str(home / "bin")
    return subprocess.run(
        [str(REPO / "install"), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_project_path_ending_in_a_space(user_crontab: str, venv: Path, tmp_path: Path) -> None:
    """./install --cron twice adds one line, --uninstall removes it. Before: the tag ended
    in the space, which the line lost, so each install added a line and none was removed."""
    project = tmp_path / "app "
    project.mkdir()
    home = tmp_path / "script home"
    home.mkdir()
    install_text(user_crontab, FOREIGN)
    line = cron_line(str(venv / "bin"), str(project))
    assert line.endswith(f" # context-memory:'{project}'")
    for _ in range(2):
        done = install_script(
            "--cron", "--project", str(project), home=home, venv=venv, user=user_crontab
        )
        assert (done.returncode, done.stderr) == (0, "")
        assert installed(user_crontab) == FOREIGN + line + "\n"
    assert cron_lines(done.stdout.splitlines()) == [
        f"{P} crontab: already runs ctx-merge hourly for {project}; nothing to change"
    ]
    done = install_script(
        "--uninstall", "--project", str(project), home=home, venv=venv, user=user_crontab
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert installed(user_crontab) == FOREIGN
    # Lines an older version wrote (the tag's space lost) are found and removed too.
    old = f"7 * * * * {merge_command(str(venv / 'bin'), str(project))} # context-memory:{project}"
    other = cron_line(str(venv / "bin"), str(project).rstrip())
    install_text(user_crontab, f"{old.rstrip()}\n{old.rstrip()}\n{other}\n")
    change = remove_merge_lines(str(project))
    assert (change.action, installed(user_crontab)) == (REMOVED, other + "\n")


def test_the_install_script_passes_cron_through(
    user_crontab: str, venv: Path, tmp_path: Path
) -> None:
    """./install --cron --dry-run (no pip for a dry run): the bash script hands --cron to
    the installer, which shows the line."""
    project = tmp_path / "app"
    project.mkdir()
    home = tmp_path / "script home"
    home.mkdir()
    env = {k: v for k, v in subprocess_env().items() if k != "PYTHONPATH"}
    env.update(HOME=str(home), CTX_VENV=str(venv), CTX_CRONTAB_USER=user_crontab)
    done = subprocess.run(
        [str(REPO / "install"), "--cron", "--dry-run", "--project", str(project)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-2:] == [
        f"{P} crontab: would add a line that runs ctx-merge hourly for {project}:",
        f"  {cron_line(str(venv / 'bin'), str(project))}",
    ]
    assert installed(user_crontab) == ""


def test_crontab_module_is_standard_library_only() -> None:
    """The installer imports it with the system python (-S, no site-packages)."""
    done = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            "import context_memory.setup.install.crontab, context_memory.setup.install.cli",
        ],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert crontab.TAG_PREFIX == "# context-memory:"


@pytest.mark.parametrize("before", ["", FOREIGN])
def test_uninstall_from_elsewhere_leaves_the_crontab_as_before_install(
    before: str,
    user_crontab: str,
    home: Path,
    venv: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The record: --uninstall run from another folder removes the line --cron added for a
    --project, and an absent crontab is absent again (not an empty one)."""
    if before:
        install_text(user_crontab, before)
    listed_before = run_command("crontab", "-u", user_crontab, "-l")
    project = tmp_path / "app"
    project.mkdir()
    assert run_installer(capsys, "--project", str(project), "--venv", str(venv), "--cron")[0] == 0
    assert installed(user_crontab) == before + cron_line(str(venv / "bin"), str(project)) + "\n"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = run_installer(capsys, "--venv", str(venv), "--uninstall")
    assert (code, err) == (0, "")
    assert f"{P} crontab: removed the ctx-merge line:" in out
    listed_after = run_command("crontab", "-u", user_crontab, "-l")
    assert (listed_after.returncode, listed_after.stdout, listed_after.stderr) == (
        listed_before.returncode,
        listed_before.stdout,
        listed_before.stderr,
    )
    assert not (project / ".claude" / "settings.json").exists()  # ./install created it
