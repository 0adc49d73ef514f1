"""The pinned digest (.working-state/pinned.md): rendering, cap, pins, rebuilds, audit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from context_memory.commands.decide import cli as decide_cli
from context_memory.commands.merge import cli as merge_cli
from context_memory.commands.plan import cli as plan_cli
from context_memory.core.decisions_log import read_records
from context_memory.core.isotime import parse_time
from context_memory.handlers import audit, extract
from context_memory.memory.decisions import append_record, make_pin_record, make_record
from context_memory.memory.handoff import render_handoff, stage_path
from context_memory.memory.identity import is_new_style_id
from context_memory.pinned import digest as pinned_digest
from context_memory.pinned import snapshots as pinned_snapshots
from context_memory.pinned import store as pinned
from context_memory.pinned.claude_md import with_import_line, without_import_line
from context_memory.pinned.digest import (
    DEFAULT_CAP_TOKENS,
    estimate_tokens,
    pinned_ids,
    render_digest,
)
from context_memory.pinned.store import IMPORT_LINE, cap_tokens
from helpers.cli_run import run_hook_main
from helpers.paths import subprocess_env

SESSION = "11111111-2222-3333-4444-555555555555"
HEAD = (
    "# Pinned decisions\n\n"
    "The team's record, through git: rebuilt by context-memory when the decisions log, "
    "plan or merged record change; do not edit. Pinned, then newest.\n"
)
FULL_RECORD = (
    "Full record: ctx-decide --list (.working-state/decisions.jsonl), "
    ".working-state/merged/decisions.md, .working-state/current-plan.md."
)


def rec(number: int, kind: str, text: str, reason: str = "", minute: int = 0) -> dict[str, Any]:
    record = make_record(
        kind, text, session=SESSION, reason=reason, ts=f"2026-11-30T10:{minute:02d}:00Z"
    )
    record["id"] = f"id{number:04d}"
    return record


def pin(target: str, kind: str = "pin", minute: int = 30) -> dict[str, Any]:
    record = make_pin_record(kind, target, session=SESSION)
    record["ts"] = f"2026-11-30T10:{minute:02d}:00Z"
    return record


def footer(omitted: int, total: int, cap: int = DEFAULT_CAP_TOKENS) -> str:
    return f"\nLeft out to stay under {cap:,} tokens: {omitted} of {total} entries. {FULL_RECORD}\n"


# -- rendering ---------------------------------------------------------------------------------


def test_digest_exact_text_override_pins_newest_first_merged_and_plan():
    records = [
        rec(1, "decided", "use Redis Cluster", "sharding built in", minute=1),
        rec(2, "rejected", "Codis", "unmaintained", minute=2),
        rec(3, "risk", "resharding under load is untested", minute=3),
        rec(4, "decided", "Postgres: version 15", minute=4),
        # Overrides record 4 (same subject "postgres"): 4 is left out.
        rec(5, "decided", "Postgres: version 16", "LTS", minute=5),
        rec(6, "rejected", "Memcached", "no persistence", minute=6),
        rec(7, "decided", "use Celery", minute=7),
    ]
    merged = {
        "decided": [
            # The handoff that restated record 1: a duplicate, the record (with its id) stays.
            {"text": "use Redis Cluster (sharding built in)", "session": "s2", "stage": 1,
             "time": "2026-11-30T10:20:00Z"},
            {"text": "nginx in front (TLS ends there)", "session": "s2", "stage": 1,
             "time": "2026-11-30T10:20:00Z"},
        ],
        # A later handoff rejected Celery: record 7 is overridden.
        "rejected": [{"text": "use Celery (too heavy)", "session": "s3", "stage": 1,
                      "time": "2026-11-30T10:25:00Z"}],
        "risks": [{"text": "resharding under load is untested", "session": "s2", "stage": 1,
                   "time": "2026-11-30T10:20:00Z"}],
    }  # fmt: skip
    pins = [pin("id0001"), pin("id0006", minute=31), pin("id0006", "unpin", minute=32)]
    digest = render_digest(records, pins, ["write the migration", "  "], merged)
    assert digest.text == (
        HEAD + "\n## Rejected (do not propose again)\n"
        "- use Celery (too heavy)\n"
        "- Memcached (no persistence)\n"
        "- Codis (unmaintained)\n"
        "\n## Decided\n"
        "- use Redis Cluster (sharding built in)\n"
        "- nginx in front (TLS ends there)\n"
        "- Postgres: version 16 (LTS)\n"
        "\n## Open risks\n"
        "- resharding under load is untested\n"
        "\n## Open plan items\n"
        "- write the migration\n" + footer(0, 8)
    )
    assert digest.ids == ["id0006", "id0002", "id0001", "id0005", "id0003"]
    assert (digest.shown, digest.total) == (8, 8)
    assert digest.tokens == estimate_tokens(digest.text)


def test_empty_digest():
    digest = render_digest([], [], [], None)
    empty = "\nNo decisions, risks or open plan items recorded yet.\n"
    assert digest.text == HEAD + empty + footer(0, 0)
    assert digest.ids == []


def test_items_are_one_line_and_clipped():
    long = "x" * 400
    records = [rec(1, "rejected", "Codis", "a\x1b[31m red\nline"), rec(2, "decided", long)]
    text = render_digest(records).text
    # Control characters are shown escaped (safe_text.one_line), line breaks folded.
    assert "- Codis (a\\x1b[31m red line)\n" in text
    assert f"- {'x' * 297}...\n" in text


def test_cap_keeps_pinned_then_rejections_and_counts_the_rest():
    records = [rec(n, "decided", f"decision number {n} " + "d" * 200, minute=n) for n in range(10)]
    records += [rec(20 + n, "rejected", f"option {n} " + "r" * 200, minute=n) for n in range(10)]
    digest = render_digest(records, [pin("id0000")], cap=400)
    assert digest.tokens <= 400
    lines = digest.text.splitlines()
    # The pinned decision first in its section; rejections (newest first) before decisions.
    assert lines[lines.index("## Decided") + 1].startswith("- decision number 0 ")
    rejected = [line for line in lines if line.startswith("- option ")]
    assert rejected == [f"- option {n} " + "r" * 200 for n in (9, 8, 7, 6)]
    assert lines[-1] == footer(15, 20, 400).strip()
    assert (digest.shown, digest.total) == (5, 20)


def test_ten_thousand_decisions_stay_under_the_cap():
    records = [
        rec(n, "rejected" if n % 3 == 0 else "decided", f"choice {n}: option {n % 97}", "because")
        for n in range(10_000)
    ]
    for n, record in enumerate(records):
        record["ts"] = f"2026-11-{1 + n // 1440:02d}T{n // 60 % 24:02d}:{n % 60:02d}:00Z"
    digest = render_digest(records, [pin("id0042")])
    assert digest.tokens <= DEFAULT_CAP_TOKENS
    assert estimate_tokens(digest.text) == digest.tokens
    assert digest.total == 10_000 and 0 < digest.shown < 200
    assert digest.text.splitlines()[-1] == footer(10_000 - digest.shown, 10_000).strip()
    assert digest.ids[0] == "id0042"  # pinned: first of its section, whatever its age
    assert digest.ids[1] == "id9999"  # then the newest rejection


def test_estimate_and_cap_setting():
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1 and estimate_tokens("abcde") == 2
    assert estimate_tokens("决策") == 2  # 6 bytes
    assert cap_tokens({}) == (1500, None)
    assert cap_tokens({"CTX_PIN_TOKENS": " 800 "}) == (800, None)
    for bad in ("abc", "50", "-1"):
        value, warning = cap_tokens({"CTX_PIN_TOKENS": bad})
        assert value == 1500
        assert warning == (
            f"CTX_PIN_TOKENS={bad!r} is not a whole number of tokens of at least 200; using "
            "1,500. Set it to 200 or more, or unset it"
        )


def test_pinned_ids_take_the_latest_pin_record():
    pins = [pin("a", minute=1), pin("b", minute=2), pin("a", "unpin", minute=3), pin("c")]
    assert pinned_ids(pins) == {"b", "c"}
    assert pinned_ids([pin("a", "unpin", minute=5), pin("a", minute=4)]) == set()


# -- CLAUDE.md ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (None, f"{IMPORT_LINE}\n"),
        ("", f"{IMPORT_LINE}\n"),
        ("# Rules\n\n- be brief\n", f"# Rules\n\n- be brief\n{IMPORT_LINE}\n"),
        ("# Rules\n- be brief", f"# Rules\n- be brief\n{IMPORT_LINE}"),
        ("# Rules\r\n- be brief\r\n", f"# Rules\r\n- be brief\r\n{IMPORT_LINE}\r\n"),
        ("# Rules\r\n- be brief", f"# Rules\r\n- be brief\r\n{IMPORT_LINE}"),
        ("\ufeff# Rules\n", f"\ufeff# Rules\n{IMPORT_LINE}\n"),
    ],
)
def test_import_line_added_once_and_removed_exactly(before, after):
    assert with_import_line(before) == after
    assert with_import_line(after) is None  # already there
    assert without_import_line(after) == (before or "")
    if before:
        assert without_import_line(before) is None


def test_import_line_removed_wherever_the_user_moved_it():
    text = f"# Rules\n{IMPORT_LINE}  \n- be brief\n"
    assert with_import_line(text) is None
    assert without_import_line(text) == "# Rules\n- be brief\n"
    assert without_import_line(f"\ufeff{IMPORT_LINE}\n# Rules\n") == "\ufeff# Rules\n"


# -- commands ----------------------------------------------------------------------------------


def decide(*args: str):
    """ctx-decide as the agent's Bash tool runs it (CLAUDECODE=1): records "by": "agent"."""
    return CliRunner().invoke(decide_cli, list(args), env={"CLAUDECODE": "1"})


def opt_in(project: Path) -> Path:
    """What ./install --pin-decisions leaves: the import line and a built digest."""
    (project / "CLAUDE.md").write_text(IMPORT_LINE + "\n")
    pinned.rebuild(str(project / ".working-state"))
    return project / ".working-state" / "pinned.md"


def log_ids(project: Path) -> list[str]:
    records, _ = read_records(project / ".working-state")
    return [str(r["id"]) for r in records]


def test_pin_unpin_and_list(project, monkeypatch):
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", SESSION)
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ada")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "")
    decide("use Redis Cluster", "--reason", "sharding")
    decide("--rejected", "Codis", "--reason", "unmaintained")
    first, second = log_ids(project)

    result = decide("--pin", first)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        f"pinned {first} use Redis Cluster (sharding)\n"
        "note: this project has no pinned digest (.working-state/pinned.md); "
        "./install --project DIR --pin-decisions turns it on\n"
    )
    result = decide("--pin", first)
    assert result.stdout == f"already pinned: {first} use Redis Cluster (sharding)\n"

    records, _ = read_records(project / ".working-state")
    ts = [r["ts"] for r in records]
    result = decide("--list")
    assert result.stdout.splitlines() == [
        f"{ts[0]}  {first}  decided   use Redis Cluster (sharding)  [{SESSION}, by Ada]  pinned",
        f"{ts[1]}  {second}  rejected  Codis (unmaintained)  [{SESSION}, by Ada]",
    ]
    listed = json.loads(decide("--list", "--json").stdout)
    assert [r.get("pinned") for r in listed] == [True, None]

    result = decide("--unpin", first)
    assert result.stdout.splitlines()[0] == f"unpinned {first} use Redis Cluster (sharding)"
    assert decide("--unpin", first).stdout == (
        f"already unpinned: {first} use Redis Cluster (sharding)\n"
    )
    assert not decide("--list").stdout.splitlines()[0].endswith("pinned")
    # The pins travel in the log, as records the decision readers skip.
    raw = (project / ".working-state" / "decisions.jsonl").read_text().splitlines()
    assert [json.loads(line)["kind"] for line in raw] == ["decided", "rejected", "pin", "unpin"]
    # Pin records carry ids unique across clones and their author, like decisions.
    assert [is_new_style_id(json.loads(line)["id"]) for line in raw] == [True] * 4
    assert {json.loads(line)["author"] for line in raw} == {"Ada"}
    assert read_records(project / ".working-state")[1] == []


def test_a_pin_repeated_by_a_union_merge_does_not_undo_a_later_unpin(project, monkeypatch):
    """git's union merge can leave a pin line twice, the copy after the unpin: read once."""
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", SESSION)
    decide("use Redis Cluster")
    (first,) = log_ids(project)
    decide("--pin", first)
    decide("--unpin", first)
    log = project / ".working-state" / "decisions.jsonl"
    lines = log.read_text().splitlines()
    log.write_text("\n".join([*lines, lines[1]]) + "\n")  # the pin again, last
    pins: list[dict[str, object]] = []
    records, problems = read_records(project / ".working-state", pins)
    assert (len(records), problems) == (1, [])
    assert [p["kind"] for p in pins] == ["pin", "unpin"]
    assert pinned_digest.pinned_ids(pins) == set()
    assert not decide("--list").stdout.rstrip("\n").endswith("pinned")


def test_pins_of_one_second_are_ordered_by_id_not_by_where_git_put_them():
    unpin = {"id": "01M8PJAKWB0000000000000002", "ts": "2026-11-30T10:00:00Z"}
    pin = {"id": "01M8PJAKWA0000000000000001", "ts": "2026-11-30T10:00:00Z"}
    pins = [{**unpin, "kind": "unpin", "target": "x"}, {**pin, "kind": "pin", "target": "x"}]
    assert pinned_digest.pinned_ids(pins) == set()  # the unpin's id is later: it wins
    assert pinned_digest.pinned_ids(pins[::-1]) == set()


def test_pin_errors(project):
    decide("use Redis Cluster")
    result = decide("--pin", "nosuchid")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: no decision with id 'nosuchid' in .working-state/decisions.jsonl; "
        "ctx-decide --list shows the ids (second column)\n"
    )
    result = decide("--pin", "x", "--list")
    assert (result.exit_code, result.stderr) == (1, "Error: --pin goes alone; drop --list\n")
    result = decide("--pin-rebuild")
    assert result.stderr == (
        "Error: this project has no pinned digest (.working-state/pinned.md); "
        "./install --project DIR --pin-decisions turns it on\n"
    )
    assert len((project / ".working-state" / "decisions.jsonl").read_text().splitlines()) == 1


def test_commands_rebuild_the_digest_only_when_opted_in(project, monkeypatch):
    state = project / ".working-state"
    result = decide("--rejected", "Codis", "--reason", "unmaintained")
    assert result.stdout.count("\n") == 1  # not opted in: no digest, no line about it
    assert not (state / "pinned.md").exists()
    assert CliRunner().invoke(plan_cli, [], input="- [ ] migrate\n").exit_code == 0
    assert not (state / "pinned.md").exists()

    digest = opt_in(project)
    assert "- Codis (unmaintained)\n" in digest.read_text()
    assert "- migrate\n" in digest.read_text()

    result = decide("use Redis Cluster")
    assert result.stdout.splitlines()[1] == (
        "rebuilt .working-state/pinned.md: 3 of 3 entries, ~119 tokens (cap 1,500)"
    )
    assert "- use Redis Cluster\n" in digest.read_text()
    codis = log_ids(project)[0]
    decide("--pin", codis)
    index = json.loads((state / "pinned-index.json").read_text())
    assert index["ids"] == [codis, log_ids(project)[1]]
    assert index["generation"] == pinned.generation_of(digest.read_text())

    result = CliRunner().invoke(plan_cli, [], input="- [x] migrate\n- [ ] deploy\n")
    assert result.stdout.splitlines()[1].startswith("rebuilt .working-state/pinned.md: 3 of 3")
    assert "- deploy\n" in digest.read_text() and "migrate" not in digest.read_text()

    monkeypatch.setenv("CTX_PIN_TOKENS", "nonsense")
    result = decide("--pin-rebuild")
    assert result.exit_code == 0
    assert result.stderr.startswith("warning: CTX_PIN_TOKENS='nonsense' is not a whole number")


def test_merge_rebuilds_the_digest(project):
    digest = opt_in(project)
    path = stage_path(str(project / ".working-state"), "s1", 1)
    os.makedirs(os.path.dirname(path))
    meta = {"session": "s1", "stage": "1", "time": "2026-11-30T09:00:00Z"}
    Path(path).write_text(render_handoff(meta, {"Decided": ["nginx in front (TLS ends there)"]}))
    result = CliRunner().invoke(merge_cli, ["--force"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == (
        f"ctx-merge: rebuilt {digest}: 1 of 1 entries, ~100 tokens (cap 1,500)"
    )
    assert "- nginx in front (TLS ends there)\n" in digest.read_text()


def test_the_prompt_hook_never_touches_the_digest(project):
    """ctx-budget (UserPromptSubmit, fresh process) leaves pinned.md as it was, even when the
    log changed since: the digest is rebuilt by the commands that change the record."""
    digest = opt_in(project)
    before = (digest.read_bytes(), digest.stat().st_mtime_ns)
    append_record(project / ".working-state", make_record("decided", "new", session=SESSION))
    transcript = project / "t.jsonl"
    transcript.write_text("")
    payload = json.dumps(
        {
            "session_id": SESSION,
            "transcript_path": str(transcript),
            "cwd": str(project),
            "hook_event_name": "UserPromptSubmit",
            "prompt": "go on",
        }
    )
    result = subprocess.run(
        [sys.executable, "-m", "context_memory.handlers.budget"],
        input=payload,
        capture_output=True,
        text=True,
        env=subprocess_env(),
        cwd=project,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert (digest.read_bytes(), digest.stat().st_mtime_ns) == before
    assert "- new\n" not in digest.read_text()


# -- compactions and the audit -----------------------------------------------------------------

RAW_SUMMARY = "<summary>\n1. Primary Request: design a cache layer.\n</summary>"


def run_hook(monkeypatch, capsys, module, payload: dict[str, Any]) -> str:
    status, out, err = run_hook_main(monkeypatch, capsys, module.main, payload)
    assert status == 0
    assert err == ""
    return out


def payload(project: Path, event: str, **extra: Any) -> dict[str, Any]:
    return {
        "session_id": SESSION,
        "transcript_path": "",
        "cwd": str(project),
        "hook_event_name": event,
        **extra,
    }


def three_decisions(project: Path) -> list[dict[str, Any]]:
    state = project / ".working-state"
    made = [
        make_record("decided", "use Redis Cluster", session=SESSION, reason="sharding " * 30),
        make_record("rejected", "Codis", session=SESSION, reason="unmaintained"),
        make_record("decided", "use Celery workers", session=SESSION, reason="retries " * 30),
    ]
    for record in made:
        append_record(state, record)
    return made


def test_audit_neither_reports_nor_reinjects_what_the_digest_held(project, monkeypatch, capsys):
    _redis, codis, _celery = three_decisions(project)
    state = project / ".working-state"
    (project / "CLAUDE.md").write_text("# Rules\n" + IMPORT_LINE + "\n")
    # A small cap: the rejection fits (rejections first); the two decisions do not.
    pinned.rebuild(str(state), cap=150)
    assert json.loads((state / "pinned-index.json").read_text())["ids"] == [codis["id"]]

    out = run_hook(monkeypatch, capsys, extract, payload(project, "PreCompact", trigger="manual"))
    assert "Codis" in out  # the steering text is unchanged
    folder = state / "sessions" / SESSION
    (snapshot,) = json.loads((folder / "pinned-at-compact.json").read_text())["snapshots"]
    assert (snapshot["trigger"], snapshot["active"], snapshot["ids"]) == (
        "manual",
        True,
        [codis["id"]],
    )

    out = run_hook(
        monkeypatch, capsys, audit, payload(project, "PostCompact", compact_summary=RAW_SUMMARY)
    )
    assert out == (
        "ctx-audit: 2 of 3 recorded decisions lost in compaction (use Redis Cluster; use Celery "
        "workers); they will be put back into the agent's context.\n"
    )
    written = json.loads((folder / "compact-audit.json").read_text())
    assert [(d["decision"], d["status"], d["where"]) for d in written["decisions"]] == [
        ("use Redis Cluster", "lost", None),
        ("Codis", "survived", "pinned digest"),
        ("use Celery workers", "lost", None),
    ]
    assert "Codis" not in written["injection"]
    assert "use Redis Cluster" in written["injection"]


def test_audit_ignores_a_digest_the_client_did_not_send(project, monkeypatch, capsys):
    _, _codis, _ = three_decisions(project)
    state = project / ".working-state"
    pinned.rebuild(str(state))  # pinned.md exists, but CLAUDE.md does not import it
    run_hook(monkeypatch, capsys, extract, payload(project, "PreCompact", trigger="auto"))
    folder = state / "sessions" / SESSION
    (snapshot,) = json.loads((folder / "pinned-at-compact.json").read_text())["snapshots"]
    assert (snapshot["active"], snapshot["ids"]) == (False, [])
    run_hook(monkeypatch, capsys, audit, payload(project, "PostCompact", compact_summary="x"))
    written = json.loads((folder / "compact-audit.json").read_text())
    assert written["lost"] == 3 and "Codis" in written["injection"]


def test_a_stale_or_mismatched_snapshot_does_not_count(project):
    _, codis, _ = three_decisions(project)
    state = project / ".working-state"
    (project / "CLAUDE.md").write_text(IMPORT_LINE + "\n")
    pinned.rebuild(str(state))
    folder = state / "sessions" / SESSION
    folder.mkdir(parents=True)
    now = time.time()
    ids = pinned_snapshots.snapshot_for_compaction(
        str(state), str(folder), str(project), "auto", now - 3600
    )
    assert codis["id"] in (ids or [])
    assert pinned_snapshots.ids_in_digest_at(str(folder), now) == set()  # an hour old: not this one
    assert codis["id"] in pinned_snapshots.ids_in_digest_at(str(folder), now - 3500)
    # A rebuild interrupted between the index and the digest: cannot tell, so nothing counts.
    (state / "pinned.md").write_text("# Pinned decisions\n\nedited\n")
    assert pinned_snapshots.digest_ids_now(str(state), str(project)) is None
    # Only the last SNAPSHOTS_KEPT snapshots are kept.
    for number in range(pinned_snapshots.SNAPSHOTS_KEPT + 3):
        pinned_snapshots.snapshot_for_compaction(
            str(state), str(folder), str(project), f"t{number}", now
        )
    kept = pinned_snapshots.read_snapshots(str(folder))
    assert [s["trigger"] for s in kept] == [
        f"t{n}" for n in range(3, pinned_snapshots.SNAPSHOTS_KEPT + 3)
    ]


def test_no_snapshot_without_a_digest(project, monkeypatch, capsys):
    three_decisions(project)
    run_hook(monkeypatch, capsys, extract, payload(project, "PreCompact", trigger="auto"))
    folder = project / ".working-state" / "sessions" / SESSION
    assert not (folder / "pinned-at-compact.json").exists()


def test_records_readers_skip_pins_silently(project):
    state = project / ".working-state"
    append_record(state, make_record("decided", "a", session=SESSION))
    append_record(state, make_pin_record("pin", "whatever", session=SESSION))
    records, problems = read_records(state)
    assert ([r["decision"] for r in records], problems) == (["a"], [])
    pins: list[dict[str, object]] = []
    read_records(state, pins)
    assert [p["target"] for p in pins] == ["whatever"]
    assert os.path.exists(state / "decisions.jsonl")


def test_the_installer_lock_excludes_filelock(tmp_path):
    """Without filelock (the installer's system python) the digest is built under a flock
    on the same sidecar file: a command holding filelock's lock keeps it out."""
    filelock = pytest.importorskip("filelock", reason="the test runner's venv has filelock")
    from context_memory.core.fsutil import lock_for

    target = str(tmp_path / "pinned.md")
    with filelock.FileLock(target + ".lock"), pytest.raises(TimeoutError):
        lock_for(target, timeout=0.2).acquire()
    with lock_for(target), pytest.raises(TimeoutError):
        filelock.FileLock(target + ".lock").acquire(timeout=0.2)


def test_ctx_audit_by_hand_uses_the_snapshot_of_that_compaction(project, capsys):
    from helpers.paths import SAMPLE_TRANSCRIPT

    sample = "ec02a1e1-95f7-4797-b360-0048899b56dd"
    state = project / ".working-state"
    made = [
        make_record("decided", "use Redis Cluster with 6 nodes", session=sample),
        make_record("rejected", "Codis", reason="unmaintained", session=sample),
        make_record("rejected", "Redis Sentinel", reason="no sharding", session=sample),
    ]
    for record in made:
        record["ts"] = "2026-11-30T09:00:00Z"
        append_record(state, record)
    assert audit.main([str(SAMPLE_TRANSCRIPT)]) == 1  # Redis Sentinel lost
    capsys.readouterr()
    folder = state / "sessions" / sample
    folder.mkdir(parents=True)
    compaction = parse_time("2026-11-30T09:10:52Z") or 0.0
    snapshot = {"epoch": compaction - 30, "trigger": "manual", "active": True,
                "ids": [made[2]["id"]]}  # fmt: skip
    (folder / "pinned-at-compact.json").write_text(json.dumps({"snapshots": [snapshot]}))
    assert audit.main([str(SAMPLE_TRANSCRIPT)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Compaction 1 of 1 (manual, 2026-11-30T09:10:52.214Z): 0 of 3 decisions lost"
    assert lines[-1].split() == ["survived", "rejected", "pinned", "digest", "Redis", "Sentinel",
                                 "redis", "sentinel"]  # fmt: skip
    # A snapshot taken after that compaction says nothing about it.
    snapshot["epoch"] = compaction + 600
    (folder / "pinned-at-compact.json").write_text(json.dumps({"snapshots": [snapshot]}))
    assert audit.main([str(SAMPLE_TRANSCRIPT)]) == 1


def test_pinning_an_overridden_decision_says_it_is_not_in_the_digest(project):
    opt_in(project)
    decide("Postgres: version 15")
    decide("Postgres: version 16")
    old, new = log_ids(project)
    lines = decide("--pin", old).stdout.splitlines()
    assert lines[0] == f"pinned {old} Postgres: version 15"
    assert lines[1].startswith("rebuilt .working-state/pinned.md: 1 of 1 entries")
    assert lines[2] == (
        f"note: {old} is not in the digest: a later entry on the same subject overrides it, "
        "or the pinned entries alone fill the cap (CTX_PIN_TOKENS)"
    )
    assert decide("--pin", new).stdout.count("note:") == 0
