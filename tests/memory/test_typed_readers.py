"""Every reader of decisions reads the typed records (issue 26 item 1): the pointer, the
pinned digest, handoff drafts, the extract's steering text and the audit take records
through memory/constraint.py, apply its supersede rule at read time (a later record on the
same subject supersedes an earlier one, whoever wrote it and with no mark in the log) and
date a captured record by when it was stated (its row's time).

The log here is written with append_record alone, as a teammate's records arrive through a
union merge: no supersede mark, so only the read-time rule can retire a record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from context_memory.audit.check import audit_decisions, select_decisions
from context_memory.core.decisions_log import read_records
from context_memory.handlers.extract import steering_text
from context_memory.memory.constraint import subject_fields
from context_memory.memory.decisions import append_record, make_captured_record, make_record
from context_memory.memory.handoff_draft import draft_sections, session_facts
from context_memory.memory.pointer import recent_records, recent_rejections, recovery_pointer
from context_memory.pinned.digest import render_digest

SESSION = "s-one"
OTHER = "s-two"


def typed(
    kind: str,
    text: str,
    *,
    uuid: str,
    ts: str,
    row_ts: str = "",
    out: tuple[tuple[str, str], ...] = (),
    pref: tuple[tuple[str, str], ...] = (),
    session: str = SESSION,
    reason: str = "",
    source: str = "tool-rejection",
) -> dict[str, Any]:
    item: dict[str, Any] = {
        "kind": kind,
        "by": "user",
        "source": source,
        "uuid": uuid,
        "row_ts": row_ts,
        "decision": text,
        "reason": reason,
        "quote": reason or text,
        "anchors": [],
        "tier": "structural",
        **subject_fields(
            [{"kind": k, "value": v} for k, v in out], [{"kind": k, "value": v} for k, v in pref]
        ),
    }
    return make_captured_record(item, session=session, ts=ts)


def write(state: Path, *records: dict[str, Any]) -> None:
    state.mkdir(exist_ok=True)
    for record in records:
        append_record(str(state), record)


def write_stated(state: Path, kind: str, *stated: tuple[str, str, str, str]) -> None:
    """Records of ``kind`` the user stated in prompts, each (text, uuid, when it was
    captured, when it was said: the row's time), written in that order."""
    write(
        state,
        *(
            typed(kind, text, uuid=uuid, ts=ts, row_ts=row_ts, source="prompt")
            for text, uuid, ts, row_ts in stated
        ),
    )


def moment_log(state: Path) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A rejection of moment (for date-fns), one of a migration folder, then a later
    decision of another session that takes moment after all: it supersedes the first."""
    rejected = typed(
        "rejected",
        "Bash: npm install moment",
        uuid="u1",
        ts="2026-03-01T10:00:00Z",
        row_ts="2026-03-01T09:59:00.000Z",
        out=(("package", "moment"),),
        pref=(("package", "date-fns"),),
        reason="too heavy, use date-fns",
    )
    folder = typed(
        "rejected",
        "Edit: migrations/001.sql",
        uuid="u2",
        ts="2026-03-01T10:05:00Z",
        row_ts="2026-03-01T10:04:00.000Z",
        out=(("path", "migrations/"),),
        reason="never edit applied migrations",
    )
    later = typed(
        "decided",
        "use moment after all: date-fns lacks the time zones we need",
        uuid="u3",
        ts="2026-03-02T08:00:00Z",
        row_ts="2026-03-02T07:59:00.000Z",
        pref=(("package", "moment"),),
        session=OTHER,
        source="prompt",
    )
    write(state, rejected, folder, later)
    return rejected, folder, later


def test_the_log_has_no_mark(tmp_path: Path) -> None:
    state = tmp_path / "state"
    moment_log(state)
    marks: list[dict[str, object]] = []
    records, _ = read_records(state, None, marks)
    assert (len(records), marks) == (3, [])


def test_the_pointer_leaves_out_a_superseded_rejection(tmp_path: Path) -> None:
    state = tmp_path / "state"
    moment_log(state)
    assert recent_rejections(str(state)) == [
        "Edit: migrations/001.sql (never edit applied migrations; user)"
    ]
    pointer = recovery_pointer(str(state))
    assert pointer is not None
    assert "npm install moment" not in pointer
    assert "Rejected, do not propose again: Edit: migrations/001.sql" in pointer


def test_the_pointer_orders_by_when_it_was_stated(tmp_path: Path) -> None:
    state = tmp_path / "state"
    # Captured later by hand (ts), stated earlier (row_ts): it is the older of the two.
    write_stated(
        state,
        "constraint",
        ("keep the API v1 routes", "c1", "2026-03-05T00:00:00Z", "2026-03-01T00:00:00.000Z"),
        ("answer in Korean", "c2", "2026-03-03T00:00:00Z", "2026-03-02T00:00:00.000Z"),
    )
    assert recent_records(str(state), "constraint") == [
        "answer in Korean (user)",
        "keep the API v1 routes (user)",
    ]


def test_the_pointer_still_reads_old_records(tmp_path: Path) -> None:
    state = tmp_path / "state"
    old = {
        "id": "0123456789ab",
        "ts": "2025-01-01T00:00:00Z",
        "session": "s",
        "kind": "rejected",
        "decision": "Codis",
        "reason": "unmaintained",
        "alternatives": [],
        "keywords": [],
    }
    state.mkdir()
    (state / "decisions.jsonl").write_text(json.dumps(old) + "\n", encoding="utf-8")
    assert recent_rejections(str(state)) == ["Codis (unmaintained)"]


def test_the_digest_leaves_out_a_superseded_rejection(tmp_path: Path) -> None:
    state = tmp_path / "state"
    _, folder, later = moment_log(state)
    records, _ = read_records(state)
    digest = render_digest(records)
    assert "npm install moment" not in digest.text
    assert "- Edit: migrations/001.sql (never edit applied migrations; stated by the user)" in (
        digest.text
    )
    assert "- use moment after all" in digest.text
    assert digest.ids == [folder["id"], later["id"]]


def test_the_digest_dates_by_when_it_was_stated(tmp_path: Path) -> None:
    state = tmp_path / "state"
    write_stated(
        state,
        "decided",
        ("use SQLite", "d1", "2026-03-09T00:00:00Z", "2026-03-01T00:00:00.000Z"),
        ("use WAL mode", "d2", "2026-03-03T00:00:00Z", "2026-03-02T00:00:00.000Z"),
    )
    records, _ = read_records(state)
    text = render_digest(records).text
    # Newest first by the row's time: WAL mode was said after SQLite.
    assert text.index("use WAL mode") < text.index("use SQLite")


def test_a_handoff_draft_leaves_out_what_another_session_superseded(tmp_path: Path) -> None:
    state = tmp_path / "state"
    moment_log(state)
    facts = session_facts(str(state), SESSION, None)
    assert [r["decision"] for r in facts.records] == ["Edit: migrations/001.sql"]
    sections = draft_sections(facts, str(state), SESSION, None)
    assert sections["Rejected"] == [
        "Edit: migrations/001.sql (never edit applied migrations; stated by the user)"
    ]
    steering = steering_text(facts, str(state), str(tmp_path))
    assert steering is not None
    assert "npm install moment" not in steering
    assert "- Rejected: Edit: migrations/001.sql (never edit applied migrations; stated by " in (
        steering
    )


def test_the_audit_checks_what_is_in_force(tmp_path: Path) -> None:
    state = tmp_path / "state"
    _, folder, later = moment_log(state)
    records, _ = read_records(state)
    chosen = select_decisions(records, SESSION, 10)
    assert [r["id"] for r in chosen] == [folder["id"], later["id"]]
    results = audit_decisions(chosen, "We never edit applied migrations (migrations/001.sql).")
    assert [(r["id"], r["kind"], r["by"], r["session"]) for r in results] == [
        (folder["id"], "rejected", "user", SESSION),
        (later["id"], "decided", "user", OTHER),
    ]
    assert results[0]["reason"] == "never edit applied migrations"


def test_the_audit_reads_old_records(tmp_path: Path) -> None:
    record = make_record(
        "rejected", "Codis", session=SESSION, reason="unmaintained", keywords=["codis", "proxy"]
    )
    record.pop("by", None)
    (result,) = audit_decisions([record], "The team dropped Codis.")
    assert (result["by"], result["keywords"], result["reason"]) == (
        "agent",
        ["codis", "proxy"],
        "unmaintained",
    )


def test_the_audit_shows_an_old_record_redacted() -> None:
    record = make_record("rejected", "Codis", session=SESSION, reason="unmaintained")
    record["reason"] = "its admin password=hunter2 leaked"  # written before the rule
    (result,) = audit_decisions([record], "Nothing about it.")
    assert (result["status"], result["reason"]) == ("lost", "its admin password=[redacted] leaked")


def _naive_live(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The supersede rule checked record against every earlier one kept (the reference)."""
    from context_memory.memory.constraint import superseded_ids

    kept: list[dict[str, Any]] = []
    for record in records:
        gone = set(superseded_ids(record, kept))
        if gone:
            kept = [r for r in kept if r.get("id") not in gone]
        kept.append(record)
    return kept


def test_live_by_subject_is_the_rule_checked_pairwise() -> None:
    import random

    from context_memory.core.subject import subject
    from context_memory.memory.constraint import live_by_subject

    chooser = random.Random(26)  # a fixed seed: the same log on every run
    values = {
        "package": ["moment", "Date-Fns", "date_fns", "lodash", "@types/node"],
        "command": ["npm", "pnpm", "git push --force", "rm -rf"],
        "path": ["migrations/", "migrations", "src/api.py"],
        "name": ["UserService", "userService"],
        "approach": ["Tabs", "tabs", "spaces"],
    }

    def pick() -> list[dict[str, str]]:
        found = []
        for _ in range(chooser.randrange(0, 3)):
            kind = chooser.choice(list(values))
            made = subject(kind, chooser.choice(values[kind]))
            assert made is not None
            found.append(dict(made))
        return found

    for _ in range(30):
        log: list[dict[str, Any]] = []
        for n in range(60):
            record: dict[str, Any] = {"kind": "rejected", "decision": f"r{n}"}
            if chooser.random() < 0.9:
                record["id"] = f"id{chooser.randrange(55)}"  # some ids repeat (a union merge)
            if chooser.random() < 0.8:
                record.update(ruled_out=pick(), preferred=pick())
            log.append(record)
        assert live_by_subject(log) == _naive_live(log)
