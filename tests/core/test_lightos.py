"""core/lightos answers as ``os`` and ``os.path`` do, for the paths and files the prompt
path meets (it stands in for them there: see its docstring)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from context_memory.core import lightos
from helpers.paths import run_bare_python, subprocess_env

PATHS = [
    "",
    ".",
    "..",
    "/",
    "//",
    "///",
    "//a/b",
    "///a//b/",
    "a",
    "a/",
    "a//b",
    "/a/b/c",
    "/a/b/../c",
    "/a/./b/",
    "../../a",
    "a/../../b",
    "/../a",
    "/home/me/.working-state",
    "rel/.working-state/sessions/x",
    "/tmp/ü/é.jsonl",
]


@pytest.mark.parametrize("path", PATHS)
def test_path_helpers_match_posixpath(path: str) -> None:
    got = (
        lightos.basename(path),
        lightos.dirname(path),
        lightos.isabs(path),
        lightos.normpath(path),
    )
    expected = (
        os.path.basename(path),
        os.path.dirname(path),
        os.path.isabs(path),
        os.path.normpath(path),
    )
    assert got == expected


@pytest.mark.parametrize("path", [p for p in PATHS if p])
def test_abspath_matches(path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert lightos.abspath(path) == os.path.abspath(path)


@pytest.mark.parametrize(
    "parts", [("a", "b"), ("a/", "b"), ("/a", "/b"), ("", "b"), ("a", ""), ("/", "x", "y")]
)
def test_join_matches(parts: tuple[str, ...]) -> None:
    assert lightos.join(*parts) == os.path.join(*parts)


@pytest.mark.parametrize("path", ["~", "~/", "~/.cache", "~other/x", "plain", "/abs/~"])
@pytest.mark.parametrize("home", ["/home/me", "/home/me/", "/"])
def test_expanduser_matches(path: str, home: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", home)
    assert lightos.expanduser(path) == os.path.expanduser(path)


def test_file_kinds_match(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    regular = tmp_path / "file"
    regular.write_text("x")
    (tmp_path / "to-file").symlink_to(regular)
    (tmp_path / "to-nothing").symlink_to(tmp_path / "missing")
    (tmp_path / "to-folder").symlink_to(folder)
    names = ["folder", "file", "to-file", "to-nothing", "to-folder", "missing", "file/below"]
    for name in names:
        path = str(tmp_path / name)
        got = [f(path) for f in (lightos.exists, lightos.lexists, lightos.isdir)]
        got += [lightos.isfile(path), lightos.islink(path)]
        expected = [f(path) for f in (os.path.exists, os.path.lexists, os.path.isdir)]
        expected += [os.path.isfile(path), os.path.islink(path)]
        assert got == expected, name
    assert lightos.exists("a\x00b") is False and lightos.islink("a\x00b") is False


def test_environ_follows_os_environ_once_os_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a process that imported os (tests, commands), changes made through os.environ
    are seen: it is os.environ itself."""
    monkeypatch.setenv("CTX_LIGHTOS_PROBE", "set-in-process")
    assert lightos.environ() is os.environ
    assert lightos.getenv("CTX_LIGHTOS_PROBE") == "set-in-process"


def test_environ_without_os_is_the_starting_environment_decoded_as_os_does() -> None:
    """A fresh ``python -S`` process that never imports os: the environment it was given,
    undecodable bytes kept as os keeps them (surrogateescape); os stays unloaded."""
    code = (
        "import sys\n"
        "from context_memory.core import lightos\n"
        "env = lightos.environ()\n"
        "print(ascii(env['CTX_PROBE']), ascii(env.get('CTX_PROBE_BYTES')),"
        " lightos.getenv('CTX_ABSENT'), 'os' in sys.modules)\n"
    )
    env = {k.encode(): v.encode() for k, v in subprocess_env().items()}
    env[b"CTX_PROBE"] = "é ok".encode()
    env[b"CTX_PROBE_BYTES"] = b"\xff"
    done = run_bare_python(code, env=env, check=True)
    assert done.stdout == "'\\xe9 ok' '\\udcff' None False\n"


def test_read_regular_reads_only_a_small_regular_file(tmp_path: Path) -> None:
    """The prompt path's bounded read: a link, a FIFO, a folder or a bigger file is None."""
    small = tmp_path / "small"
    small.write_bytes(b"12345")
    assert lightos.read_regular(str(small), 5) == b"12345"
    assert lightos.read_regular(str(small), 4) is None
    (tmp_path / "link").symlink_to(small)
    assert lightos.read_regular(str(tmp_path / "link"), 100) is None
    os.mkfifo(tmp_path / "fifo")
    assert lightos.read_regular(str(tmp_path / "fifo"), 100) is None  # no writer: no wait
    assert lightos.read_regular(str(tmp_path), 100) is None
    assert lightos.read_regular(str(tmp_path / "missing"), 100) is None
