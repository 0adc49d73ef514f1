"""The Stop hook waits, a bounded time, for the client to write the reply its payload names
(context_memory/transcript/flushed.py): the client's own flush before the hook is bounded
(2 s), and on a loaded machine the turn's last rows were not yet on disk (seen in 2.1.332)."""

from __future__ import annotations

import json
import threading
import time
from typing import TYPE_CHECKING

import pytest

from context_memory.handlers.extract import main as extract_main
from context_memory.transcript.flushed import (
    MAX_NEEDLE,
    POLL_SECONDS,
    TAIL_BYTES,
    needle_of,
    tail_holds,
    wait_for_reply,
)
from helpers import transcript_rows as tr
from helpers.cli_run import run_hook_main
from helpers.hook_payloads import decisions_log, stop_payload

if TYPE_CHECKING:
    from pathlib import Path

REPLY = "Switching the cache to SQLite, as you asked."


@pytest.mark.parametrize(
    ("reply", "needle"),
    [
        (REPLY, REPLY.encode()),
        # its first line only; the rest may sit in another text block
        ("Done with the port.\n\nNext: the tests.", b"Done with the port."),
        # up to the first character the client escapes in its JSON row
        ('Renamed the module "old" to new', b"Renamed the module"),
        ("Wrote C:\\Users\\me\\notes.md", b"Wrote C:"),
        ("  indented reply\twith a tab", b"indented reply"),
        ("Fertig: die Übersicht steht.", "Fertig: die Übersicht steht.".encode()),
        ("x" * 100, b"x" * MAX_NEEDLE),
    ],
)
def test_the_needle_is_the_replys_start_as_the_row_holds_it(reply: str, needle: bytes) -> None:
    assert needle_of(reply) == needle


@pytest.mark.parametrize("reply", [None, "", "OK.", "   ", '"quoted" reply', 42, ["a list"]])
def test_a_short_or_missing_reply_gives_nothing_to_wait_for(reply: object) -> None:
    assert needle_of(reply) is None


def _reply(text: str) -> dict[str, object]:
    return tr.assistant("msg_reply", tr.usage(10, output_tokens=5), text=text)


def _turn(path: Path, reply: str | None) -> Path:
    rows = [tr.user("use SQLite for the cache, not JSON files")]
    if reply is not None:
        rows.append(_reply(reply))
    return tr.write_transcript(path, rows)


class FakeTime:
    """A clock that moves only when the hook sleeps; ``on_sleep`` runs at each sleep."""

    def __init__(self, on_sleep: object = None) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []
        self.on_sleep = on_sleep

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        if callable(self.on_sleep):
            self.on_sleep(len(self.sleeps))


def test_a_reply_already_written_is_not_waited_for(tmp_path: Path) -> None:
    path = _turn(tmp_path / "t.jsonl", REPLY)
    fake = FakeTime()
    assert wait_for_reply(str(path), REPLY, clock=fake.clock, sleep=fake.sleep) is True
    assert fake.sleeps == []


def test_the_hook_waits_until_the_client_writes_the_reply(tmp_path: Path) -> None:
    path = _turn(tmp_path / "t.jsonl", None)
    row = json.dumps(_reply(REPLY), ensure_ascii=False) + "\n"

    def write_on_third_sleep(count: int) -> None:
        if count == 3:
            with path.open("a", encoding="utf-8") as handle:
                handle.write(row)

    fake = FakeTime(write_on_third_sleep)
    assert wait_for_reply(str(path), REPLY, clock=fake.clock, sleep=fake.sleep) is True
    assert fake.sleeps == [POLL_SECONDS] * 3


def test_the_wait_is_bounded(tmp_path: Path) -> None:
    path = _turn(tmp_path / "t.jsonl", None)
    fake = FakeTime()
    waited = wait_for_reply(str(path), REPLY, seconds=1.0, clock=fake.clock, sleep=fake.sleep)
    assert waited is False
    assert 1.0 <= sum(fake.sleeps) <= 1.0 + POLL_SECONDS + 1e-9


def test_an_unreadable_transcript_is_not_waited_for(tmp_path: Path) -> None:
    fake = FakeTime()
    missing = str(tmp_path / "missing.jsonl")
    assert wait_for_reply(missing, REPLY, clock=fake.clock, sleep=fake.sleep) is True
    assert wait_for_reply(str(tmp_path), REPLY, clock=fake.clock, sleep=fake.sleep) is True
    assert fake.sleeps == []


def test_only_the_tail_is_read(tmp_path: Path) -> None:
    path = _turn(tmp_path / "t.jsonl", REPLY)
    with path.open("a", encoding="utf-8") as handle:
        pad = {"pad": "x" * TAIL_BYTES, "type": "attachment"}
        handle.write(json.dumps(pad, separators=(",", ":")) + "\n")
    assert tail_holds(str(path), REPLY.encode()) is False
    assert tail_holds(str(path), b'"type":"attachment"') is True


def test_the_stop_hook_captures_a_turn_the_client_writes_late(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The file holds the turn's start; the prompt that states the rule and the reply are
    # still in the client's buffer when the hook starts.
    transcript = tr.write_transcript(project / f"{tr.SESSION}.jsonl", [tr.user("hello")])
    late = [tr.user("use pnpm, not npm"), _reply(REPLY)]

    def client_writes_late() -> None:
        time.sleep(0.4)
        with transcript.open("a", encoding="utf-8") as handle:
            for row in late:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")

    writer = threading.Thread(target=client_writes_late)
    writer.start()
    payload = stop_payload(tr.SESSION, project, transcript, last_assistant_message=REPLY)
    result = run_hook_main(monkeypatch, capsys, extract_main, payload)
    writer.join()
    assert (result.exit_code, result.stderr) == (0, "")
    assert [(r["kind"], r["decision"]) for r in decisions_log(project)] == [
        ("decided", "use pnpm, not npm")
    ]


def test_a_reply_never_written_is_logged_and_what_is_there_captured(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = _turn(project / f"{tr.SESSION}.jsonl", None)
    monkeypatch.setattr("context_memory.transcript.flushed.WAIT_SECONDS", 0.2)
    payload = stop_payload(tr.SESSION, project, transcript, last_assistant_message=REPLY)
    result = run_hook_main(monkeypatch, capsys, extract_main, payload)
    assert (result.exit_code, result.stderr) == (0, "")
    assert [r["decision"] for r in decisions_log(project)] == [
        "use SQLite for the cache, not JSON files"
    ]
    (line,) = (project / ".working-state" / "logs" / "hooks.log").read_text().splitlines()
    assert line.split("\t")[1:] == [
        "ctx-extract",
        tr.SESSION,
        "the transcript did not hold the last reply after 0.2 s: captured what was written, "
        "the rest at the next Stop",
    ]
