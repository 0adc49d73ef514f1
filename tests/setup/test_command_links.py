"""command_links: pipx-style symlinks from a bin folder into the private virtualenv.

Every case works in tmp_path; nothing here reads or writes the real HOME.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from context_memory.setup.install import command_links
from context_memory.setup.install.command_links import (
    LINK_CONFLICT,
    LINK_CREATE,
    LINK_KEEP,
    LINK_MISSING_TARGET,
    LINK_UPDATE,
    LINKED_COMMANDS,
    LinkCommands,
    apply_links,
    link_dir,
    on_path,
    plan_links,
    plan_unlinks,
)


def make_bin(folder: Path, names: tuple[str, ...] | list[str] = LINKED_COMMANDS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        program = folder / name
        program.write_text("#!/bin/sh\nexit 0\n")
        program.chmod(0o755)
    return folder


@pytest.fixture
def venv_bin(tmp_path: Path) -> Path:
    """This install's virtualenv (a CTX_VENV path without 'context-memory' in it)."""
    return make_bin(tmp_path / "v env" / "bin")


@pytest.fixture
def old_bin(tmp_path: Path) -> Path:
    """Another context-memory virtualenv: an older install, or CTX_VENV before a move."""
    return make_bin(tmp_path / "old" / "context-memory" / "venv" / "bin")


@pytest.fixture
def links(tmp_path: Path) -> Path:
    return tmp_path / "bin dir"


def readlinks(links: Path) -> dict[str, str]:
    """Every entry of the folder: symlinks as their target, anything else as its kind."""
    found = {}
    for name in sorted(os.listdir(links)):
        path = links / name
        if path.is_symlink():
            found[name] = os.readlink(path)
        elif path.is_dir():
            found[name] = "<dir>"
        else:
            found[name] = "<file> " + path.read_text()
    return found


def ours(venv_bin: Path, names: tuple[str, ...] | list[str] = LINKED_COMMANDS) -> dict[str, str]:
    return {name: str(venv_bin / name) for name in names}


# --------------------------------------------------------------------------- where


def test_link_dir_precedence() -> None:
    home = {"HOME": "/h"}
    assert link_dir(home) == Path("/h/.local/bin")
    assert link_dir({**home, "XDG_BIN_HOME": "/x/bin"}) == Path("/x/bin")
    assert link_dir({**home, "XDG_BIN_HOME": "/x/bin", "CTX_BIN_DIR": "/c/bin"}) == Path("/c/bin")
    assert link_dir({**home, "CTX_BIN_DIR": "/c/bin"}) == Path("/c/bin")
    # Set but empty is unset, as for the shell's ${VAR:-default}.
    assert link_dir({**home, "CTX_BIN_DIR": "", "XDG_BIN_HOME": ""}) == Path("/h/.local/bin")
    assert link_dir({**home, "CTX_BIN_DIR": "", "XDG_BIN_HOME": "/x/bin"}) == Path("/x/bin")


def test_link_dir_is_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert link_dir({"CTX_BIN_DIR": "rel/bin"}) == tmp_path / "rel" / "bin"
    assert link_dir({"XDG_BIN_HOME": "./x/../y"}) == tmp_path / "y"
    assert link_dir({"CTX_BIN_DIR": "~/bin"}) == tmp_path / "home" / "bin"
    # No HOME in the mapping: the process's home.
    assert link_dir({}) == tmp_path / "home" / ".local" / "bin"


def test_on_path() -> None:
    folder = Path("/h/.local/bin")
    assert on_path(folder, {"PATH": "/usr/bin:/h/.local/bin:/bin"}) is True
    assert on_path(folder, {"PATH": "/h/.local/bin"}) is True
    assert on_path(folder, {"PATH": "/usr/bin:/h/.local/bin/"}) is True  # trailing slash
    assert on_path(folder, {"PATH": "/h/./.local/bin"}) is True
    assert on_path(folder, {"PATH": "/usr/bin:/bin"}) is False
    assert on_path(folder, {"PATH": "/h/.local/bin/sub:/h/.local"}) is False
    assert on_path(folder, {"PATH": ""}) is False
    assert on_path(folder, {}) is False


# --------------------------------------------------------------------------- install


def test_create_then_keep(venv_bin: Path, links: Path) -> None:
    plan = plan_links(venv_bin, links)
    assert plan == [(name, LINK_CREATE) for name in LINKED_COMMANDS]
    assert not links.exists()  # planning writes nothing
    apply_links(venv_bin, links, plan)
    assert readlinks(links) == ours(venv_bin)
    for name in LINKED_COMMANDS:
        assert (links / name).resolve() == venv_bin / name

    inodes = {name: (links / name).lstat().st_ino for name in LINKED_COMMANDS}
    again = plan_links(venv_bin, links)
    assert again == [(name, LINK_KEEP) for name in LINKED_COMMANDS]
    apply_links(venv_bin, links, again)
    assert {name: (links / name).lstat().st_ino for name in LINKED_COMMANDS} == inodes
    assert readlinks(links) == ours(venv_bin)


def test_a_program_the_venv_lacks_is_skipped(tmp_path: Path, links: Path) -> None:
    venv_bin = make_bin(tmp_path / "v" / "bin", ["ctx-usage", "ctx-audit"])
    plan = plan_links(venv_bin, links)
    assert plan == [
        (name, LINK_CREATE if name in ("ctx-usage", "ctx-audit") else LINK_MISSING_TARGET)
        for name in LINKED_COMMANDS
    ]
    apply_links(venv_bin, links, plan)
    assert readlinks(links) == ours(venv_bin, ["ctx-audit", "ctx-usage"])


def test_only_the_commands_asked_for(venv_bin: Path, links: Path) -> None:
    plan = plan_links(venv_bin, links, ["ctx-plan"])
    assert plan == [("ctx-plan", LINK_CREATE)]
    apply_links(venv_bin, links, plan)
    assert readlinks(links) == ours(venv_bin, ["ctx-plan"])


def test_a_link_into_another_context_memory_venv_is_updated(
    venv_bin: Path, old_bin: Path, links: Path
) -> None:
    apply_links(old_bin, links, plan_links(old_bin, links))
    assert readlinks(links) == ours(old_bin)
    plan = plan_links(venv_bin, links)
    assert plan == [(name, LINK_UPDATE) for name in LINKED_COMMANDS]
    apply_links(venv_bin, links, plan)
    assert readlinks(links) == ours(venv_bin)


def test_a_dangling_link_into_a_deleted_context_memory_venv_is_updated(
    venv_bin: Path, tmp_path: Path, links: Path
) -> None:
    links.mkdir()
    gone = tmp_path / "purged" / "context-memory" / "venv" / "bin" / "ctx-usage"
    (links / "ctx-usage").symlink_to(gone)
    assert plan_links(venv_bin, links, ["ctx-usage"]) == [("ctx-usage", LINK_UPDATE)]
    apply_links(venv_bin, links, [("ctx-usage", LINK_UPDATE)])
    assert readlinks(links) == ours(venv_bin, ["ctx-usage"])


def test_a_link_into_another_venv_is_kept_when_this_one_lacks_the_program(
    tmp_path: Path, old_bin: Path, links: Path
) -> None:
    venv_bin = make_bin(tmp_path / "v" / "bin", ["ctx-usage"])
    apply_links(old_bin, links, plan_links(old_bin, links, ["ctx-usage", "ctx-merge"]))
    plan = plan_links(venv_bin, links, ["ctx-usage", "ctx-merge"])
    assert plan == [("ctx-usage", LINK_UPDATE), ("ctx-merge", LINK_MISSING_TARGET)]
    apply_links(venv_bin, links, plan)
    assert readlinks(links) == {
        "ctx-merge": str(old_bin / "ctx-merge"),  # still works; not swapped for a dangling link
        "ctx-usage": str(venv_bin / "ctx-usage"),
    }


def test_foreign_files_and_links_are_left_alone(
    venv_bin: Path, tmp_path: Path, links: Path
) -> None:
    links.mkdir()
    (links / "ctx-usage").write_text("my own script\n")
    (links / "ctx-decide").symlink_to("/usr/local/bin/ctx-decide")  # no context-memory in it
    (links / "ctx-plan").symlink_to("/opt/context-memory/lib/ctx-plan")  # not a venv's bin
    (links / "ctx-handoff").symlink_to(tmp_path / "nowhere" / "ctx-handoff")  # dangling
    (links / "ctx-audit").mkdir()
    before = readlinks(links)
    plan = plan_links(venv_bin, links)
    conflicts = ["ctx-usage", "ctx-decide", "ctx-plan", "ctx-handoff", "ctx-audit"]
    assert plan == [
        (name, LINK_CONFLICT if name in conflicts else LINK_CREATE) for name in LINKED_COMMANDS
    ]
    apply_links(venv_bin, links, plan)
    assert readlinks(links) == {
        **before,
        **ours(venv_bin, [n for n in LINKED_COMMANDS if n not in conflicts]),
    }
    # An uninstall removes none of them either.
    assert plan_unlinks(venv_bin, links) == [n for n in LINKED_COMMANDS if n not in conflicts]


def test_a_link_into_this_venv_whose_program_is_gone_is_kept(venv_bin: Path, links: Path) -> None:
    apply_links(venv_bin, links, plan_links(venv_bin, links, ["ctx-merge"]))
    (venv_bin / "ctx-merge").unlink()
    assert plan_links(venv_bin, links, ["ctx-merge"]) == [("ctx-merge", LINK_KEEP)]


def test_the_swap_is_atomic(
    venv_bin: Path, old_bin: Path, links: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new link is made under a temporary name and renamed over the old one, so
    ``ctx-usage`` resolves at every moment; a temporary left by a killed run is replaced."""
    apply_links(old_bin, links, plan_links(old_bin, links, ["ctx-usage"]))
    stale = links / ".ctx-usage.context-memory.tmp"
    stale.write_text("left by a killed run")
    real_replace = os.replace
    seen: list[tuple[str, str, str | None, str]] = []

    def watching_replace(src: os.PathLike[str], dst: os.PathLike[str]) -> None:
        # Just before the rename: the old link still answers, the new one is ready.
        old = os.readlink(dst) if os.path.lexists(dst) else None
        seen.append((os.fspath(src), os.fspath(dst), old, os.readlink(src)))
        real_replace(src, dst)

    monkeypatch.setattr(command_links.os, "replace", watching_replace)
    plan = plan_links(venv_bin, links, ["ctx-usage", "ctx-plan"])
    assert plan == [("ctx-usage", LINK_UPDATE), ("ctx-plan", LINK_CREATE)]
    apply_links(venv_bin, links, plan)
    monkeypatch.undo()
    assert seen == [
        (
            str(stale),
            str(links / "ctx-usage"),
            str(old_bin / "ctx-usage"),
            str(venv_bin / "ctx-usage"),
        ),
        (
            str(links / ".ctx-plan.context-memory.tmp"),
            str(links / "ctx-plan"),
            None,
            str(venv_bin / "ctx-plan"),
        ),
    ]
    assert readlinks(links) == ours(venv_bin, ["ctx-plan", "ctx-usage"])  # no temporary left


# --------------------------------------------------------------------------- uninstall


def test_uninstall_removes_only_links_into_this_venv(
    venv_bin: Path, old_bin: Path, tmp_path: Path, links: Path
) -> None:
    apply_links(venv_bin, links, plan_links(venv_bin, links, ["ctx-usage", "ctx-decide"]))
    apply_links(old_bin, links, plan_links(old_bin, links, ["ctx-plan"]))
    (links / "ctx-merge").write_text("mine\n")
    (links / "ctx-doctor").symlink_to("/usr/bin/true")
    (links / "unrelated").symlink_to(venv_bin / "ctx-usage")  # not one of our names
    assert plan_unlinks(venv_bin, links) == ["ctx-usage", "ctx-decide"]
    LinkCommands(venv_bin, links, remove=True).run(would=False)  # the uninstall's step
    assert readlinks(links) == {
        "ctx-doctor": "/usr/bin/true",
        "ctx-merge": "<file> mine\n",
        "ctx-plan": str(old_bin / "ctx-plan"),
        "unrelated": str(venv_bin / "ctx-usage"),
    }
    assert plan_unlinks(venv_bin, links) == []


def test_uninstall_after_purge_removes_the_dangling_links(venv_bin: Path, links: Path) -> None:
    apply_links(venv_bin, links, plan_links(venv_bin, links))
    for name in LINKED_COMMANDS:
        (venv_bin / name).unlink()
    assert plan_unlinks(venv_bin, links) == list(LINKED_COMMANDS)
    LinkCommands(venv_bin, links, remove=True).run(would=False)  # the uninstall's step
    assert os.listdir(links) == []


def test_uninstall_without_the_folder(venv_bin: Path, links: Path) -> None:
    assert plan_unlinks(venv_bin, links) == []
    assert not links.exists()
