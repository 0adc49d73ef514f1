"""Every hot entry point as the user has it: installed by ./install, once per Python (3.10 to
3.13 and the system's own), each run a fresh process started by the command line in
settings.json, on damaged transcripts and damaged state files.

In-process runs cannot see what differs between Pythons: pytest has imported ``json``, and
on CPython 3.10/3.11 that alone changes how ``_json`` reports a malformed row (a ValueError
instead of SystemError). So the oracle here is the in-process run of the same entry point on
the same input (the logic the unit tests check), and the installed command in a fresh
process must print exactly that, exit 0; a few figures are pinned on top.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from context_memory.commands import usage as usage_cli
from helpers import transcript_rows as tr
from helpers.cli_run import run_main
from hostile.harness import (
    ENTRY_POINTS,
    SESSION,
    Entry,
    Sandbox,
    base_transcript_rows,
    run_in_process,
    seeded_sandbox,
    transcript_bytes,
)

pytestmark = pytest.mark.slow  # seconds of real processes: not in the fast tier

BOOKKEEPING_ROWS = len(tr.bookkeeping())
# A reply the client is still writing: it names an assistant row, so the reader parses it.
STREAMING_REPLY = transcript_bytes([tr.assistant("msg_a3", tr.usage(5, 0, 190_000, 10))])
CUT_REPLY = STREAMING_REPLY[: len(STREAMING_REPLY) * 2 // 3]
# Ends in "}" and names an assistant row, so no cheap check can pass it over unparsed.
BAD_JSON_ROW = b'{"type":"assistant","message":{"usage":{"input_tokens":1,}}}\n'
BINARY_ROWS = b'\x00\xff{"type":"assistant"\x9c\x00}\n\x89PNG\r\n\x1a\n\x00\x00\xfe}\n'
# statusline.json cut while written by hand or by a full disk: it claims a 1M window.
CUT_STATUSLINE_CACHE = (
    f'{{"session_id":"{SESSION}","context_window_size":1000000,"model_id":"claude-so'.encode()
)
CUT_COMPACTION_CACHE = b'{"path":"/x","dev":1,"ino":2,"offset":10,"cou'

FIGURE = "171K/200K (85.4%)"  # the sandbox's last reply: 170,805 tokens on a 200K model


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    return seeded_sandbox(tmp_path, monkeypatch)


def damaged_transcripts(project: Path) -> dict[str, bytes]:
    rows = base_transcript_rows(project)
    head = transcript_bytes(rows[:-BOOKKEEPING_ROWS])
    tail = transcript_bytes(rows[-BOOKKEEPING_ROWS:])
    return {
        "intact": head + tail,
        "cut-last-row": head + tail + CUT_REPLY,
        "cut-row-in-the-middle": head + CUT_REPLY + b"\n" + tail,
        "bad-json-rows": head + BAD_JSON_ROW + b"not json at all\n" + tail,
        "binary-rows": head + BINARY_ROWS + tail,
        "only-garbage": b"garbage\n" + BAD_JSON_ROW + CUT_REPLY + b"\n\xff\xfe\x00\n",
    }


CASES = (
    "intact",
    "cut-last-row",
    "cut-row-in-the-middle",
    "bad-json-rows",
    "binary-rows",
    "only-garbage",
    "cut-statusline-cache",
    "cut-compaction-cache",
)


def prepare(sandbox: Sandbox, case: str) -> None:
    """Restore the seeded state, then damage what ``case`` damages."""
    sandbox.reset()
    transcripts = damaged_transcripts(sandbox.project)
    sandbox.write_transcript(transcripts.get(case, transcripts["intact"]))
    if case == "cut-statusline-cache":
        cache = sandbox.state / "sessions" / SESSION / "statusline.json"
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(CUT_STATUSLINE_CACHE)
    compactions = sandbox.cache / "compactions"
    if compactions.exists():
        for old in compactions.iterdir():
            old.unlink()
    if case == "cut-compaction-cache":
        from context_memory.transcript.compaction_count import _cache_file

        path = Path(_cache_file(os.path.realpath(sandbox.transcript)))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(CUT_COMPACTION_CACHE)


def both_ways(
    sandbox: Sandbox, case: str, in_process: Callable[[], tuple], fresh: Callable[[], tuple]
) -> tuple[tuple, tuple]:
    prepare(sandbox, case)
    expected = in_process()
    prepare(sandbox, case)
    return expected, fresh()


def test_the_matrix_has_every_supported_python() -> None:
    """CI runs every supported Python; elsewhere a missing one is skipped, saying which."""
    from helpers import installed

    missing = [label for label in installed.SUPPORTED if label not in installed.interpreters()]
    if missing and not installed.in_ci():
        pytest.skip("; ".join(installed.missing_reason(label) for label in missing))
    assert missing == []
    assert set(installed.matrix_labels()) >= set(installed.SUPPORTED)


@pytest.mark.parametrize("case", CASES)
def test_installed_entry_points_on_damaged_input(
    python_label: str, case: str, sandbox: Sandbox
) -> None:
    from helpers.installed import installed_for

    install = installed_for(python_label)
    env = sandbox.env()
    for entry in ENTRY_POINTS:
        raw = json.dumps(sandbox.payload(entry)).encode()

        def inside(entry: Entry = entry, raw: bytes = raw) -> tuple:
            run = run_in_process(entry, raw)
            return run.status, run.stdout, run.stderr

        def outside(entry: Entry = entry, raw: bytes = raw) -> tuple:
            done = install.run_registered(
                entry.command,
                raw,
                event=entry.event if entry.is_hook else None,
                cwd=sandbox.project,
                env=env,
            )
            return done.returncode, done.stdout, done.stderr

        expected, got = both_ways(sandbox, case, inside, outside)
        assert got == expected, f"{entry.id} under Python {install.interpreter.version}"
        status, stdout, stderr = got
        assert (status, stderr) == (0, b""), entry.id
        if entry.command == "ctx-budget":
            text = json.loads(stdout)["hookSpecificOutput"]["additionalContext"]
            assert (FIGURE in text) == (case != "only-garbage"), text
        if entry.command == "ctx-statusline":
            figure = "0/200K 0% " if case == "only-garbage" else "171K/200K 85.4% "
            assert figure in stdout.decode(), stdout

    for args in ([str(sandbox.transcript)], ["--json", str(sandbox.transcript)]):

        def usage_inside(args: list[str] = args) -> tuple:
            result = run_main(usage_cli.main, args)
            return result.exit_code, result.stdout.encode(), result.stderr.encode()

        def usage_outside(args: list[str] = args) -> tuple:
            done = install.run_program("ctx-usage", args, cwd=sandbox.project, env=env)
            return done.returncode, done.stdout, done.stderr

        expected, got = both_ways(sandbox, case, usage_inside, usage_outside)
        assert got == expected, f"ctx-usage {args} under Python {install.interpreter.version}"
        status, stdout, stderr = got
        if case == "only-garbage":  # no row first or last: not a transcript (exit 2)
            assert (status, stdout) == (2, b"")
            assert stderr.startswith(
                f"Error: {sandbox.transcript} is not a Claude Code transcript".encode()
            )
            continue
        assert (status, stderr) == (0, b"")
        tokens, window = (170_805, 200_000)
        if args[0] == "--json":
            assert (json.loads(stdout)["tokens"], json.loads(stdout)["window"]) == (tokens, window)
        else:
            assert stdout.startswith(f"{tokens:,} / {window:,} tokens".encode()), stdout


# Every malformed input: lightjson first, in a process that never imported json, then the
# standard json module on the same texts. Prints one JSON line: the two lists of results.
LIGHTJSON_PROBE = r"""
import sys
from context_memory.core import lightjson
texts = [
    '{"a":1', '{"a":', 'garbage', '{"a" 1}', '[1,', '"abc', '{"a":tru}', '{"a":"\\x"}',
    '\x00\x01', '[1 2]', '{1:2}', '"\\ud800', '-', '{"a":[{"b":', '"a\tb"', '{"a":1} x', '',
    '{"ok": [1, 2.5, null, true, "\u00e9"]}',
]
def light(text):
    try:
        return ["ok", lightjson.loads(text)]
    except lightjson.JSONError as exc:
        return ["error", exc.msg, exc.pos]
    except BaseException as exc:
        return ["escaped", type(exc).__name__, str(exc)]
def string_at(text):
    try:
        return ["ok", *lightjson.string_at(text, 0)]
    except lightjson.JSONError as exc:
        return ["error", exc.msg, exc.pos]
    except BaseException as exc:
        return ["escaped", type(exc).__name__, str(exc)]
json_was_imported = "json" in sys.modules or "json.decoder" in sys.modules
got = [light(text) for text in texts] + [string_at('"ab\\q"'), string_at('"ab')]
import json
def standard(text):
    try:
        return ["ok", json.loads(text)]
    except json.JSONDecodeError as exc:
        return ["error", exc.msg, exc.pos]
def standard_string(text):
    try:
        return ["ok", *json.decoder.scanstring(text, 1)]
    except json.JSONDecodeError as exc:
        return ["error", exc.msg, exc.pos]
want = [standard(text) for text in texts] + [standard_string('"ab\\q"'), standard_string('"ab')]
print(json.dumps({"json_was_imported": json_was_imported, "got": got, "want": want}))
"""


def test_lightjson_errors_are_the_same_on_every_python(python_label: str) -> None:
    """CPython 3.10/3.11 raise SystemError from _json where json.decoder was never imported;
    lightjson must raise JSONError with json.loads' own message and position anyway."""
    from helpers.installed import installed_for

    install = installed_for(python_label)
    done = subprocess.run(
        [install.python, "-c", LIGHTJSON_PROBE],
        capture_output=True,
        env=install.env(),
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    result = json.loads(done.stdout)
    assert result["json_was_imported"] is False
    assert result["got"] == result["want"]
    assert [kind for kind, *_ in result["got"]] == ["error"] * 17 + ["ok", "error", "error"]
