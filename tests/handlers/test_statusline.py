from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from context_memory.core.hookio import by_hand_text, hook_usage
from context_memory.handlers import statusline
from context_memory.handlers.statusline import bar, main
from context_memory.measure import window_cache as statusline_cache
from context_memory.measure.bands import color_enabled
from helpers import transcript_rows as tr
from helpers.cli_run import run_hook_main
from helpers.paths import SAMPLE_TRANSCRIPT, subprocess_env

SESSION = "2f0c5d1e-7a3b-4c9d-8e1f-0a1b2c3d4e5f"
PLAIN = {"NO_COLOR": "1"}


def status_json(project: Path, **context: object) -> dict[str, object]:
    """The status line JSON as the client sends it (protocol file, section 4)."""
    window: dict[str, object] = {
        "context_window_size": 200_000,
        "used_percentage": 56.5,
        "remaining_percentage": 43.5,
        "total_input_tokens": 480_000,
        "total_output_tokens": 9_000,
        "current_usage": {
            "input_tokens": 2_000,
            "output_tokens": 1_000,
            "cache_creation_input_tokens": 1_000,
            "cache_read_input_tokens": 110_000,
        },
    }
    window.update(context)
    return {
        "hook_event_name": "Status",
        "session_id": SESSION,
        "transcript_path": str(project / f"{SESSION}.jsonl"),
        "cwd": str(project),
        "model": {"id": "claude-sonnet-4-6", "display_name": "Sonnet 4.6"},
        "workspace": {"current_dir": str(project), "project_dir": str(project)},
        "version": "2.1.332",
        "context_window": window,
    }


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stdin: object,
    argv: list[str] | None = None,
    env: dict[str, str] | None = None,
) -> tuple[int, str, str]:
    raw = stdin if isinstance(stdin, bytes) else json.dumps(stdin).encode()
    return run_hook_main(
        monkeypatch, capsys, main, raw, argv or [], env=PLAIN if env is None else env
    )


def cache_file(project: Path, session: str = SESSION) -> Path:
    return project / ".working-state" / "sessions" / session / "statusline.json"


# --------------------------------------------------------------------------- the line


def test_line_from_current_usage(project, monkeypatch, capsys):
    # 2,000 + 1,000 + 110,000 + 1,000 output = 114,000 of 200,000: 57%, warn band;
    # auto-compact at 167,000 (200K - 20K - 13K): 53K to go.
    status, out, err = run(monkeypatch, capsys, status_json(project))
    assert (status, err) == (0, "")
    assert out == "█████▊░░░░ 114K/200K 57% warn · 53K to auto-compact\n"


def test_line_without_current_usage_uses_the_percentage(project, monkeypatch, capsys):
    payload = status_json(project, current_usage=None, used_percentage=81.6)
    _, out, _ = run(monkeypatch, capsys, payload)
    # 81.6% of 200,000 = 163,200 tokens; 3,800 left before 167,000.
    assert out == "████████▏░ 163K/200K 81.6% must-subagent · 4K to auto-compact\n"


def test_null_percentage_after_compaction_reads_the_transcript(project, monkeypatch, capsys):
    payload = status_json(project, used_percentage=None, current_usage=None)
    payload["transcript_path"] = str(SAMPLE_TRANSCRIPT)
    _, out, _ = run(monkeypatch, capsys, payload)
    # The sample ends with a compaction: postTokens 2,743.
    assert out == "▏░░░░░░░░░ 3K/200K 1.4% free · 164K to auto-compact (compacted)\n"


def test_null_percentage_and_no_transcript_shows_zero(project, monkeypatch, capsys):
    payload = status_json(project, used_percentage=None, current_usage=None)
    _, out, _ = run(monkeypatch, capsys, payload)
    assert out == "░░░░░░░░░░ 0/200K 0% free · 167K to auto-compact\n"


def test_window_of_the_status_line_beats_the_model_table(project, monkeypatch, capsys):
    payload = status_json(project, context_window_size=1_000_000)
    _, out, _ = run(monkeypatch, capsys, payload)
    # 1M window, 32K max output: auto-compact at 1,000,000 - 20,000 - 13,000 = 967,000.
    assert out == "█▏░░░░░░░░ 114K/1M 11.4% free · 853K to auto-compact\n"


def test_ctx_window_env_still_wins(project, monkeypatch, capsys):
    env = dict(PLAIN, CTX_WINDOW="400000")
    _, out, _ = run(monkeypatch, capsys, status_json(project), env=env)
    assert out == "██▉░░░░░░░ 114K/400K 28.5% free · 253K to auto-compact\n"


def test_auto_compact_off_and_due(project, monkeypatch, capsys):
    env = dict(PLAIN, DISABLE_AUTO_COMPACT="1")
    _, out, _ = run(monkeypatch, capsys, status_json(project), env=env)
    assert out.endswith(" warn · auto-compact off\n")
    payload = status_json(project, current_usage=None, used_percentage=90)
    _, out, _ = run(monkeypatch, capsys, payload)
    assert out == "█████████░ 180K/200K 90% must-subagent · auto-compact due\n"


def test_colours(project, monkeypatch, capsys):
    _, out, _ = run(monkeypatch, capsys, status_json(project), env={"TERM": "xterm-256color"})
    assert out == (
        "\x1b[33m█████▊\x1b[0m\x1b[2m░░░░\x1b[0m 114K/200K 57% \x1b[33mwarn\x1b[0m"
        " · 53K to auto-compact\n"
    )
    _, out, _ = run(monkeypatch, capsys, status_json(project), ["--no-color"], {"TERM": "xterm"})
    assert "\x1b" not in out
    _, out, _ = run(monkeypatch, capsys, status_json(project), ["--color"], {})
    assert out.startswith("\x1b[33m")


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"TERM": "xterm-256color"}, True),
        ({"TERM": "xterm-256color", "NO_COLOR": "1"}, False),
        ({"TERM": "xterm-256color", "NO_COLOR": ""}, True),
        ({"TERM": "dumb"}, False),
        ({}, False),
        ({"FORCE_COLOR": "1"}, True),
        ({"FORCE_COLOR": "1", "NO_COLOR": "x"}, False),
        ({"FORCE_COLOR": "0", "TERM": "dumb"}, False),
    ],
)
def test_color_enabled(env, expected):
    assert color_enabled(env) is expected


@pytest.mark.parametrize(
    ("percent", "filled", "empty"),
    [
        (0, "", "░░░░░░░░░░"),
        (1.25, "▏", "░░░░░░░░░"),
        (50, "█████", "░░░░░"),
        (56.5, "█████▋", "░░░░"),
        (99.9, "██████████", ""),
        (140, "██████████", ""),
        (-3, "", "░░░░░░░░░░"),
    ],
)
def test_bar(percent, filled, empty):
    assert bar(percent) == (filled, empty)


# --------------------------------------------------------------------------- never crash


@pytest.mark.parametrize(
    "stdin",
    [b"", b"not json", b"[1, 2]", b'{"context_window": "x", "model": 5, "session_id": 7}'],
)
def test_bad_input_never_fails(project, monkeypatch, capsys, stdin):
    status, out, err = run(monkeypatch, capsys, stdin)
    assert status == 0
    if stdin.startswith(b"{"):
        # Nothing usable, but still a line: no model, no window -> the 1M default.
        assert out == "░░░░░░░░░░ 0/1M 0% free · 967K to auto-compact\n"
    elif not stdin:  # nothing on stdin: tried by hand, the guide (test_hook_by_hand)
        assert (out, err) == ("", by_hand_text("ctx-statusline"))
    else:
        assert out == ""
        assert err.startswith("ctx-statusline: HookInputError: ") and err.count("\n") == 1


def test_an_unexpected_error_prints_nothing_and_exits_0(project, monkeypatch, capsys):
    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(statusline, "context_numbers", explode)
    assert run(monkeypatch, capsys, status_json(project)) == (
        0,
        "",
        "ctx-statusline: RuntimeError: boom\n",
    )


def test_help(monkeypatch, capsys):
    usage = statusline.USAGE + "\n" + hook_usage("ctx-statusline")
    assert run(monkeypatch, capsys, b"", ["--help"])[:2] == (0, usage)


# --------------------------------------------------------------------------- the cache


def test_records_the_window_for_the_session(project, monkeypatch, capsys):
    run(monkeypatch, capsys, status_json(project, context_window_size=1_000_000))
    record = json.loads(cache_file(project).read_text())
    assert set(record) == {"session_id", "context_window_size", "model_id", "updated"}
    assert (record["session_id"], record["context_window_size"], record["model_id"]) == (
        SESSION,
        1_000_000,
        "claude-sonnet-4-6",
    )
    assert statusline_cache.cached_window(str(project / ".working-state"), SESSION) == 1_000_000


def test_refreshes_write_only_when_the_window_changes(project, monkeypatch, capsys):
    writes: list[str] = []
    import context_memory.core.fsutil as fsutil

    real = fsutil.atomic_write

    def counting(path, data, **kwargs):
        writes.append(os.fspath(path))
        real(path, data, **kwargs)

    monkeypatch.setattr(fsutil, "atomic_write", counting)
    for _ in range(3):
        run(monkeypatch, capsys, status_json(project, context_window_size=1_000_000))
    assert writes == [str(cache_file(project))]
    run(monkeypatch, capsys, status_json(project, context_window_size=200_000))
    assert len(writes) == 2
    assert json.loads(cache_file(project).read_text())["context_window_size"] == 200_000


def test_state_dir_follows_the_workspace_project_dir(project, monkeypatch, capsys):
    sub = project / "src"
    sub.mkdir()
    payload = status_json(project)
    payload["cwd"] = str(sub)
    run(monkeypatch, capsys, payload)
    assert cache_file(project).exists()
    assert not (sub / ".working-state").exists()


def test_ctx_state_dir_is_honoured(project, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CTX_STATE_DIR", str(tmp_path / "elsewhere"))
    run(monkeypatch, capsys, status_json(project))
    assert (tmp_path / "elsewhere" / "sessions" / SESSION / "statusline.json").exists()


def test_unsafe_session_id_writes_nothing_but_still_prints(project, monkeypatch, capsys):
    payload = status_json(project)
    payload["session_id"] = "../../escape"
    status, out, _ = run(monkeypatch, capsys, payload)
    assert status == 0 and out.startswith("█████▊")
    assert not (project / ".working-state").exists()


def test_no_window_in_the_json_writes_nothing(project, monkeypatch, capsys):
    payload = status_json(project)
    del payload["context_window"]["context_window_size"]  # type: ignore[attr-defined]
    run(monkeypatch, capsys, payload)
    assert not (project / ".working-state").exists()


@pytest.mark.parametrize("content", [b"not json", b"[]", b'{"context_window_size": "big"}', b""])
def test_unusable_cache_is_ignored(project, content):
    path = cache_file(project)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert statusline_cache.cached_window(str(project / ".working-state"), SESSION) is None


def test_unusable_cache_is_replaced(project, monkeypatch, capsys):
    path = cache_file(project)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"garbage")
    run(monkeypatch, capsys, status_json(project))
    assert json.loads(path.read_text())["context_window_size"] == 200_000


# --------------------------------------------------------------------------- chaining


def test_chain_prints_their_line_first_with_the_same_stdin(project, monkeypatch, capsys):
    seen = project / "their-stdin.json"
    command = f"cat > {seen}; printf 'main ~/app\\n'"
    payload = status_json(project)
    status, out, err = run(monkeypatch, capsys, payload, ["--chain", command])
    assert (status, err) == (0, "")
    assert out == "main ~/app\n█████▊░░░░ 114K/200K 57% warn · 53K to auto-compact\n"
    assert json.loads(seen.read_text()) == payload


def test_chain_equals_form_and_multiline_output(project, monkeypatch, capsys):
    _, out, _ = run(monkeypatch, capsys, status_json(project), ["--chain=printf 'a\\nb\\n\\n'"])
    assert out == "a\nb\n█████▊░░░░ 114K/200K 57% warn · 53K to auto-compact\n"


def test_chain_failing_command_shows_its_output_and_ours(project, monkeypatch, capsys):
    _, out, _ = run(monkeypatch, capsys, status_json(project), ["--chain", "echo partial; exit 3"])
    assert out == "partial\n█████▊░░░░ 114K/200K 57% warn · 53K to auto-compact\n"
    _, out, _ = run(monkeypatch, capsys, status_json(project), ["--chain", "exit 1"])
    assert out == "█████▊░░░░ 114K/200K 57% warn · 53K to auto-compact\n"


def test_chain_hanging_command_is_cut_off(project, monkeypatch, capsys):
    monkeypatch.setattr(statusline, "CHAIN_TIMEOUT_SECONDS", 0.3)
    _, out, _ = run(monkeypatch, capsys, status_json(project), ["--chain", "exec sleep 30"])
    assert out == "█████▊░░░░ 114K/200K 57% warn · 53K to auto-compact\n"


def test_chain_with_a_large_stdin(project, monkeypatch, capsys):
    payload = status_json(project)
    payload["padding"] = "x" * 200_000  # more than a pipe buffer
    _, out, _ = run(monkeypatch, capsys, payload, ["--chain", "wc -c | tr -d ' '"])
    first, second = out.splitlines()
    assert int(first) == len(json.dumps(payload).encode())
    assert second.startswith("█████▊")


def test_chain_still_shows_their_line_when_ours_fails(project, monkeypatch, capsys):
    status, out, err = run(monkeypatch, capsys, b"not json", ["--chain", "echo theirs"])
    assert (status, out) == (0, "theirs\n")
    assert err.startswith("ctx-statusline: HookInputError")


# --------------------------------------------------------------------------- as a process


def test_runs_as_a_process(project):
    env = subprocess_env(NO_COLOR="1")
    done = subprocess.run(
        [sys.executable, "-m", "context_memory.handlers.statusline"],
        input=json.dumps(status_json(project)).encode(),
        capture_output=True,
        env=env,
        cwd=project,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode() == "█████▊░░░░ 114K/200K 57% warn · 53K to auto-compact\n"
    assert cache_file(project).exists()


def test_import_stays_on_the_standard_library():
    # Compared with a bare interpreter: site-packages may import pathlib or typing already.
    code = (
        "import sys; before = set(sys.modules);"
        "import context_memory.handlers.statusline, context_memory.measure.window_cache;"
        "print(sorted(m for m in ('click', 'orjson', 'filelock', 'typing', 'dataclasses',"
        " 'pathlib', 'subprocess', 'argparse') if m in sys.modules and m not in before))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, env=subprocess_env(), check=True
    )
    assert done.stdout.decode().strip() == "[]"


def test_transcript_fallback_uses_the_transcript_model(project, monkeypatch, capsys):
    rows = [
        tr.user("go"),
        tr.assistant("m1", tr.usage(300_000, 0, 0, 0), requested_model="claude-sonnet-4-6[1m]"),
        *tr.bookkeeping(),
    ]
    path = tr.write_transcript(project / "t.jsonl", rows)
    payload = status_json(project, used_percentage=None, current_usage=None)
    del payload["context_window"]["context_window_size"]  # type: ignore[attr-defined]
    payload["model"] = {"id": "claude-sonnet-4-6", "display_name": "Sonnet 4.6"}
    payload["transcript_path"] = str(path)
    _, out, _ = run(monkeypatch, capsys, payload)
    assert out == "███░░░░░░░ 300K/1M 30% free · 667K to auto-compact\n"


# What a newcomer met (issue 13; these were test_newcomer_commands.py):
# ctx-statusline names an unknown option where the user sees it.
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
