"""Captured records in the decisions log: positions across runs, idempotence, supersede,
drop, damaged rows and position files, CTX_CAPTURE=off, and what readers take from them.

The store is driven here by a scripted capturer (one item per row that asks for it), so
each test says exactly which rows capture what; tests/capture/test_engine.py runs the real
engine on real rows.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from context_memory.capture import store
from context_memory.capture.store import (
    MAX_RUN_BYTES,
    capture_enabled,
    capture_session,
    load_position,
    position_path,
)
from context_memory.core.decisions_log import live_records, read_records
from context_memory.memory.constraint import MAX_ANCHORS, MAX_AUDIT_TERMS
from context_memory.memory.decisions import (
    MAX_QUOTE_CHARS,
    RecordError,
    clip_record,
    make_captured_record,
)
from helpers.question_rows import ANSWERED, STORE, TYPED, answered_rows

SESSION = "ec02a1e1-95f7-4797-b360-0048899b56dd"


class Scripted:
    """A Capturer: a row with ``"capture": {...}`` yields that item (uuid and row_ts from
    the row); ``"pending": {...}`` holds one until flush. Its state counts the rows fed."""

    def __init__(self, state: dict[str, Any] | None = None) -> None:
        self.fed = int((state or {}).get("fed", 0))
        self.pending: list[dict[str, Any]] = list((state or {}).get("pending", []))

    def feed(self, row: dict[str, Any]) -> list[dict[str, Any]]:
        self.fed += 1
        if "raise" in row:
            raise TypeError(row["raise"])  # an engine bug on one odd row
        if "pending" in row:
            self.pending.append({**row["pending"], "uuid": row["uuid"], "row_ts": ""})
        if "capture" in row:
            return [{**row["capture"], "uuid": row["uuid"], "row_ts": row.get("timestamp", "")}]
        return []

    def flush(self) -> list[dict[str, Any]]:
        out, self.pending = self.pending, []
        return out

    def end_run(self) -> list[dict[str, Any]]:
        return []  # what a hook's run ends with: the pending stay pending

    def scrubbed(self, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return items

    def to_state(self) -> dict[str, Any]:
        return {"fed": self.fed, "pending": self.pending}


def item(decision: str, *, kind: str = "constraint", avoid=(), prefer=(), anchors=None):
    return {
        "kind": kind,
        "by": "user",
        "source": "prompt",
        "decision": decision,
        "reason": "",
        "quote": decision,
        "alternatives": [],
        "anchors": list(anchors if anchors is not None else [*avoid, *prefer]),
        "avoid": list(avoid),
        "prefer": list(prefer),
    }


def row(uuid: str, capture: dict | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "user", "uuid": uuid, "timestamp": "2026-01-02T03:04:05Z"}
    if capture is not None:
        out["capture"] = capture
    out.update(extra)
    return out


def write_rows(path: Path, rows: list[dict[str, Any]], mode: str = "a") -> None:
    with path.open(mode, encoding="utf-8") as handle:
        for r in rows:
            handle.write(json.dumps(r) + "\n")


@pytest.fixture
def state(tmp_path: Path) -> Path:
    folder = tmp_path / ".working-state"
    folder.mkdir()
    return folder


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    return tmp_path / f"{SESSION}.jsonl"


def run(state: Path, transcript: Path, **kwargs: Any) -> store.CaptureResult:
    return capture_session(str(state), SESSION, str(transcript), make=Scripted, **kwargs)


def log(state: Path) -> list[dict[str, Any]]:
    path = state / "decisions.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_captured_record_has_every_field_bounded(state: Path, transcript: Path) -> None:
    write_rows(
        transcript,
        [row("u1", item("Use date-fns, not moment", avoid=["moment"], prefer=["date-fns"]))],
    )
    result = run(state, transcript, author="Ada <ada@example.com>")
    [record] = log(state)
    assert [r["id"] for r in result.added] == [record["id"]]
    assert {k: v for k, v in record.items() if k not in ("id", "ts")} == {
        "session": SESSION,
        "kind": "constraint",
        "decision": "Use date-fns, not moment",
        "reason": "",
        "alternatives": [],
        "keywords": ["moment", "date-fns"],
        "author": "Ada <ada@example.com>",
        "by": "user",
        "source": "prompt",
        "uuid": "u1",
        "row_ts": "2026-01-02T03:04:05Z",
        "quote": "Use date-fns, not moment",
        "anchors": ["moment", "date-fns"],
        "avoid": ["moment"],
        "prefer": ["date-fns"],
    }


def test_make_captured_record_bounds_and_refuses() -> None:
    big = {
        **item("x" * 5000, anchors=[f"Word{n}" for n in range(40)], avoid=["word1", "nope"]),
        "uuid": "u",
        "quote": "q\n" * 1000,
        "call": {"tool": "Bash", "command": "npm install " * 100, "extra": "dropped"},
    }
    record = make_captured_record(big, session=SESSION)
    assert len(record["decision"]) == 300 and record["decision"].endswith("...")
    assert len(record["quote"]) == MAX_QUOTE_CHARS and "\n" not in record["quote"]
    assert record["anchors"] == [f"word{n}" for n in range(MAX_ANCHORS)]
    # The audit looks for the first MAX_AUDIT_TERMS, as for a typed record's keywords.
    assert record["keywords"] == [f"word{n}" for n in range(MAX_AUDIT_TERMS)]
    assert record["avoid"] == ["word1"]  # only anchors
    command = " ".join(("npm install " * 100).split())[:297] + "..."
    assert record["call"] == {"tool": "Bash", "command": command}
    for bad, message in (
        ({**big, "kind": "risk"}, "a captured kind must be"),
        ({**big, "by": "someone"}, "by must be one of"),
        ({**big, "source": "guess"}, "source must be one of"),
        ({**big, "uuid": ""}, "needs the uuid"),
    ):
        with pytest.raises(RecordError, match=message):
            make_captured_record(bad, session=SESSION)
    clipped = clip_record({**record, "quote": "z" * 9000, "anchors": ["a"] * 50})
    assert len(clipped["quote"]) == MAX_QUOTE_CHARS
    assert clipped["anchors"] == ["a"] * MAX_ANCHORS
    assert clipped["by"] == "user" and clipped["call"]["tool"] == "Bash"


def test_capturing_the_same_rows_twice_adds_nothing(state: Path, transcript: Path) -> None:
    write_rows(transcript, [row("u1", item("never push to main")), row("u2")])
    assert len(run(state, transcript).added) == 1
    os.unlink(position_path(str(state), SESSION))  # forget the position: read all again
    again = run(state, transcript)
    assert (again.added, again.duplicates) == ([], 1)
    assert [r["uuid"] for r in log(state)] == ["u1"]


def test_one_row_that_states_several_things_of_one_kind_gives_a_record_each(
    state: Path, transcript: Path
) -> None:
    from helpers import transcript_rows as tr

    # A file that starts with a compaction summary restating two of the user's rules.
    summary = (
        "6. All user messages:\n"
        '   - "Never touch the old migrations"\n'
        '   - "Never commit the generated client"\n'
    )
    tr.write_transcript(transcript, [tr.compact_summary(summary), tr.user("go on")])
    first = capture_session(str(state), SESSION, str(transcript))
    assert sorted(r["decision"] for r in first.added) == [
        "Never commit the generated client",
        "Never touch the old migrations",
    ]
    assert len({r["uuid"] for r in first.added}) == 1  # the summary's row, both
    os.unlink(position_path(str(state), SESSION))  # read all again: nothing new
    again = capture_session(str(state), SESSION, str(transcript))
    assert (again.added, again.duplicates) == ([], 2)


def test_capture_across_several_stop_runs_reads_only_new_rows(
    state: Path, transcript: Path
) -> None:
    write_rows(transcript, [row("u1", item("first rule")), row("u2")])
    assert [r["decision"] for r in run(state, transcript).added] == ["first rule"]
    first = load_position(str(state), SESSION)
    assert first is not None
    assert (first["offset"], first["size"], first["state"]) == (
        transcript.stat().st_size,
        transcript.stat().st_size,
        {"fed": 2, "pending": []},
    )
    assert run(state, transcript).added == []  # nothing new: nothing read
    write_rows(transcript, [row("u3", item("second rule"))])
    # A half-written last row waits for the next run.
    with transcript.open("a") as handle:
        handle.write('{"type":"user","uuid":"u4","capture":')
    assert [r["decision"] for r in run(state, transcript).added] == ["second rule"]
    second = load_position(str(state), SESSION)
    assert second is not None and second["state"] == {"fed": 3, "pending": []}
    with transcript.open("a") as handle:
        handle.write(json.dumps(item("third rule")) + ', "timestamp": ""}\n')
    assert [r["decision"] for r in run(state, transcript).added] == ["third rule"]
    assert [r["uuid"] for r in log(state)] == ["u1", "u3", "u4"]


def test_damaged_rows_are_skipped(state: Path, transcript: Path) -> None:
    write_rows(transcript, [row("u1", item("keep the py file name"))])
    with transcript.open("a") as handle:
        handle.write('not json\n[1, 2]\n{"broken": \n')
    write_rows(transcript, [row("u2", item("use pnpm"))])
    result = run(state, transcript)
    assert result.damaged_rows == 3
    assert [r["uuid"] for r in log(state)] == ["u1", "u2"]


def test_a_row_the_engine_fails_on_is_skipped_and_the_position_passes_it(
    state: Path, transcript: Path
) -> None:
    rows = [row("u1", item("keep the py file name")), row("u2", **{"raise": "x"})]
    write_rows(transcript, [*rows, row("u3", item("use pnpm"))])
    result = run(state, transcript)
    assert result.damaged_rows == 1
    assert [r["uuid"] for r in log(state)] == ["u1", "u3"]
    again = run(state, transcript)  # the position is past the row: nothing read again
    assert (again.damaged_rows, [r["uuid"] for r in log(state)]) == (0, ["u1", "u3"])


@pytest.mark.parametrize(
    "damage", [b"", b"{not json", b'{"version": 1}', b"[]", b"\x00" * 10, b"{" * 100000]
)
def test_a_damaged_position_file_restarts_safely(
    state: Path, transcript: Path, damage: bytes
) -> None:
    write_rows(transcript, [row("u1", item("use pnpm"))])
    run(state, transcript)
    Path(position_path(str(state), SESSION)).write_bytes(damage)
    write_rows(transcript, [row("u2", item("use vis for group.visible"))])
    result = run(state, transcript)
    assert ([r["uuid"] for r in result.added], result.duplicates) == (["u2"], 1)
    assert [r["uuid"] for r in log(state)] == ["u1", "u2"]
    assert load_position(str(state), SESSION)["offset"] == transcript.stat().st_size


def test_a_replaced_or_truncated_transcript_restarts_without_duplicates(
    state: Path, transcript: Path
) -> None:
    write_rows(transcript, [row("u1", item("use pnpm")), row("u2", item("no moment"))])
    run(state, transcript)
    # Rewritten in place, shorter, then longer again with other bytes before the offset.
    write_rows(transcript, [row("u1", item("use pnpm"))], mode="w")
    result = run(state, transcript)
    assert (result.added, result.duplicates, result.restarted) == ([], 1, True)
    write_rows(transcript, [row("u9", item("a new rule")), row("u2", item("no moment"))], mode="w")
    write_rows(transcript, [row("u3", item("third"))])
    result = run(state, transcript)
    assert [r["uuid"] for r in result.added] == ["u9", "u3"]
    assert result.duplicates == 1
    # Another file under the same path (a new inode): restart too.
    replacement = transcript.with_suffix(".new")
    write_rows(replacement, [row("u4", item("fourth"))])
    os.replace(replacement, transcript)
    assert [r["uuid"] for r in run(state, transcript).added] == ["u4"]


def test_a_huge_backlog_reads_only_the_newest_bytes(state: Path, transcript: Path) -> None:
    filler = json.dumps(row("f", text="x" * 1000)) + "\n"
    with transcript.open("w") as handle:
        handle.write(json.dumps(row("old", item("too old to read"))) + "\n")
        handle.write(filler * (MAX_RUN_BYTES // len(filler) + 10))
    write_rows(transcript, [row("new", item("said last"))])
    result = run(state, transcript)
    assert [r["uuid"] for r in result.added] == ["new"]
    assert result.skipped_bytes >= transcript.stat().st_size - MAX_RUN_BYTES
    assert load_position(str(state), SESSION)["offset"] == transcript.stat().st_size


def test_dry_run_writes_nothing(state: Path, transcript: Path) -> None:
    write_rows(transcript, [row("u1", item("use pnpm", avoid=["npm"], prefer=["pnpm"]))])
    result = run(state, transcript, dry_run=True, flush=True)
    assert [r["uuid"] for r in result.added] == ["u1"]
    assert sorted(p.name for p in state.rglob("*")) == []


def test_pending_items_wait_for_flush(state: Path, transcript: Path) -> None:
    write_rows(transcript, [row("u1", pending=item("rejected Bash npm install", kind="rejected"))])
    assert run(state, transcript).added == []
    assert load_position(str(state), SESSION)["state"]["pending"][0]["uuid"] == "u1"
    assert [r["uuid"] for r in run(state, transcript, flush=True).added] == ["u1"]


def test_supersede_marks_the_old_record_and_readers_skip_it(state: Path, transcript: Path) -> None:
    write_rows(transcript, [row("u1", item("use pnpm, not npm", avoid=["npm"], prefer=["pnpm"]))])
    [old] = run(state, transcript).added
    write_rows(transcript, [row("u2", item("use npm after all", avoid=["pnpm"], prefer=["npm"]))])
    result = run(state, transcript)
    [new] = result.added
    assert result.superseded == {old["id"]: new["id"]}
    lines = log(state)
    assert [line["kind"] for line in lines] == ["constraint", "constraint", "supersede"]
    mark = lines[2]
    assert (mark["target"], mark["by_record"], mark["session"]) == (old["id"], new["id"], SESSION)
    records, problems = read_records(str(state))
    assert ([r["id"] for r in records], problems) == ([old["id"], new["id"]], [])
    live, _ = live_records(str(state))
    assert [r["id"] for r in live] == [new["id"]]
    # Unrelated anchors supersede nothing.
    write_rows(transcript, [row("u3", item("no moment", avoid=["moment"], prefer=["date-fns"]))])
    assert run(state, transcript).superseded == {}


@pytest.mark.parametrize("value", ["off", "OFF", "0", "false", "no"])
def test_ctx_capture_off(value: str) -> None:
    assert capture_enabled({"CTX_CAPTURE": value}) is False


def test_ctx_capture_on_by_default() -> None:
    assert capture_enabled({}) is True
    assert capture_enabled({"CTX_CAPTURE": "on"}) is True


# --- the byte filter: tool results the engine reads are never skipped unparsed -----------

COMPACT = {"separators": (",", ":"), "ensure_ascii": False}  # as the client writes its rows


@pytest.mark.parametrize(
    "text",
    [
        'User has answered your questions: "Where should the invoices be stored?"="SQLite". '
        "You can now continue.",
        ANSWERED.format(pairs='"Where should the invoices be stored?"="SQLite"'),
        TYPED.format(pairs='"Where should the invoices be stored?"="SQLite, one file"'),
    ],
)
def test_a_question_answer_of_each_client_reaches_the_engine(
    state: Path, transcript: Path, text: str
) -> None:
    """The real engine through the store, rows in the client's compact JSON: the answer of
    each client's text is captured (2.1.332's were skipped unread by the byte filter)."""
    answer = "SQLite, one file" if "one file" in text else "SQLite"
    rows = answered_rows([STORE], {"answers": {STORE["question"]: answer}}, text)
    transcript.write_text("".join(json.dumps(r, **COMPACT) + "\n" for r in rows), encoding="utf-8")
    capture_session(str(state), SESSION, str(transcript))
    assert [(r["kind"], r["source"], r["decision"]) for r in log(state)] == [
        ("decided", "question", f"{STORE['question']} → {answer}")
    ]


def test_every_result_text_the_engine_reads_keeps_its_row() -> None:
    from context_memory.capture.result_texts import ANSWER_STARTS, APPROVED_START

    for start in (*ANSWER_STARTS, APPROVED_START):
        line = json.dumps(
            {"type": "user", "message": {"content": [{"type": "tool_result", "content": start}]}},
            **COMPACT,
        ).encode()
        assert not store.states_nothing(line), start
    quiet = b'{"type":"user","message":{"content":[{"type":"tool_result","content":"ok"}]}}'
    assert store.states_nothing(quiet)
