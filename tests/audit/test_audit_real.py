"""The audit counts what the model was given: an older client's summary row, analysis included.

Client 2.0.65 (the slopometry fixture) wrote ``Analysis:`` then ``Summary:`` into its summary
row and sent that row as it is; PostCompact's ``compact_summary`` input keeps its
``<analysis>`` block, which the client strips, so there it must not count.
"""

from __future__ import annotations

import json
from pathlib import Path

from context_memory.audit import store
from context_memory.audit.check import audit_decisions
from context_memory.audit.compactions import given_text, last_compaction, summary_body
from context_memory.commands.audit import audit_compaction
from context_memory.handlers import audit
from context_memory.memory.decisions import append_record, make_record
from helpers.cli_run import run_hook_main
from helpers.real_fixture import SLOPOMETRY, real_lines, row_index, write_lines

SESSION = "0f112eb4-a676-476d-8986-d6c78693cd5b"  # the fixture's own session id
# Named only in the Analysis part of the fixture's summary row.
ANALYSIS_ONLY = (
    "Drop the section dividers of ComplexityDelta, ExtendedComplexityMetrics, UserStoryEntry"
)
# Named in the Summary part.
IN_SUMMARY = "Replace the S/I ratio with an Exploration percentage"


def compacted_copy(tmp_path: Path) -> Path:
    """The fixture cut right after its summary row: what the hooks see after the compaction."""
    lines = real_lines(SLOPOMETRY)
    summary = row_index(lines, b'"isCompactSummary":true')
    return write_lines(tmp_path / f"{SESSION}.jsonl", lines[: summary + 1])


def decisions() -> list[dict[str, str]]:
    return [
        {"id": "1", "kind": "decided", "decision": ANALYSIS_ONLY, "reason": ""},
        {"id": "2", "kind": "decided", "decision": IN_SUMMARY, "reason": ""},
        {"id": "3", "kind": "rejected", "decision": "Memcached sidecar", "reason": "no"},
    ]


def test_given_text_keeps_the_analysis_and_drops_the_framing(tmp_path):
    compaction = last_compaction(str(compacted_copy(tmp_path)))
    assert compaction is not None and compaction.summary is not None
    assert compaction.given.startswith("Analysis:\nLet me go through the conversation")
    assert "\nSummary:\n1. Primary Request and Intent:" in compaction.given
    assert compaction.given.endswith("`uv run ruff check .`.")
    assert compaction.body.startswith("1. Primary Request and Intent:")
    assert "ExtendedComplexityMetrics" in compaction.given
    assert "ExtendedComplexityMetrics" not in compaction.body
    assert given_text("Summary:\nkept") == "Summary:\nkept"


def test_a_decision_named_only_in_the_analysis_survives(tmp_path):
    compaction = last_compaction(str(compacted_copy(tmp_path)))
    assert compaction is not None
    statuses = [r["status"] for r in audit_decisions(decisions(), compaction.given)]
    assert statuses == ["survived", "survived", "lost"]
    # The summary part alone (what the audit compared against before) loses it.
    statuses = [r["status"] for r in audit_decisions(decisions(), compaction.body)]
    assert statuses == ["lost", "survived", "lost"]


def test_ctx_audit_by_hand_reports_it_survived(tmp_path):
    compaction = last_compaction(str(compacted_copy(tmp_path)))
    assert compaction is not None
    records = [
        make_record("decided", ANALYSIS_ONLY, session=SESSION, ts="2025-12-12T10:00:00Z"),
        make_record("rejected", "Memcached sidecar", session=SESSION, ts="2025-12-12T10:00:00Z"),
    ]
    report = audit_compaction(compaction, records, SESSION, 5, 1)
    assert (report["lost"], report["survived"]) == (1, 1)
    assert [(d["decision"], d["status"]) for d in report["decisions"]] == [
        (ANALYSIS_ONLY, "survived"),
        ("Memcached sidecar", "lost"),
    ]


def run_post_compact(monkeypatch, capsys, project: Path, transcript: Path | None, raw: str):
    payload = {
        "session_id": SESSION,
        "transcript_path": str(transcript) if transcript else "",
        "cwd": str(project),
        "hook_event_name": "PostCompact",
        "trigger": "auto",
        "compact_summary": raw,
    }
    status, out, err = run_hook_main(monkeypatch, capsys, audit.main, payload)
    folder = project / ".working-state" / "sessions" / SESSION
    written = json.loads((folder / "compact-audit.json").read_text(encoding="utf-8"))
    return status, out, err, written


def raw_summary_of(transcript: Path) -> str:
    """The summariser's answer as PostCompact gets it: <analysis> and <summary> blocks."""
    compaction = last_compaction(str(transcript))
    assert compaction is not None
    analysis, _, summary = compaction.given.partition("\nSummary:\n")
    analysis = analysis.removeprefix("Analysis:\n")
    return f"<analysis>\n{analysis}\n</analysis>\n\n<summary>\n{summary}\n</summary>"


def test_post_compact_counts_the_row_the_model_got(project, monkeypatch, capsys, tmp_path):
    state = project / ".working-state"
    append_record(state, make_record("decided", ANALYSIS_ONLY, session=SESSION))
    transcript = compacted_copy(tmp_path)
    raw = raw_summary_of(transcript)
    status, out, err, written = run_post_compact(monkeypatch, capsys, project, transcript, raw)
    assert (status, err) == (0, "")
    assert out == "ctx-audit: all 1 recorded decisions survived compaction.\n"
    assert [(d["status"], d["where"]) for d in written["decisions"]] == [("survived", "summary")]
    assert written["lost"] == 0
    # The fingerprint is the summary's own, as a later SessionStart or refine compares it.
    assert written["summary_fingerprint"] == audit.summary_fingerprint(summary_body(raw))


def test_post_compact_without_the_row_strips_the_analysis(project, monkeypatch, capsys):
    """Without a transcript row to go by, the <analysis> block never reached the model."""
    state = project / ".working-state"
    append_record(state, make_record("decided", ANALYSIS_ONLY, session=SESSION))
    raw = (
        "<analysis>\nDropped the section dividers of ComplexityDelta, "
        "ExtendedComplexityMetrics and UserStoryEntry.\n</analysis>\n\n"
        "<summary>\nReplaced the S/I ratio.\n</summary>"
    )
    status, out, _err, written = run_post_compact(monkeypatch, capsys, project, None, raw)
    assert status == 0
    assert out.startswith("ctx-audit: 1 of 1 recorded decisions lost in compaction")
    assert [d["status"] for d in written["decisions"]] == ["lost"]


def test_next_prompt_refines_with_the_row_the_model_got(project, monkeypatch, capsys, tmp_path):
    """PostCompact ran before the client wrote the row (2.1.x order): lost at first, then
    the analysis in the row counts when the pending audit is refined."""
    state = project / ".working-state"
    append_record(state, make_record("decided", ANALYSIS_ONLY, session=SESSION))
    transcript = compacted_copy(tmp_path)
    raw = raw_summary_of(transcript)
    before = tmp_path / "before.jsonl"
    lines = real_lines(SLOPOMETRY)
    write_lines(before, lines[: row_index(lines, b'"subtype":"compact_boundary"')])
    _status, out, _err, written = run_post_compact(monkeypatch, capsys, project, before, raw)
    assert out.startswith("ctx-audit: 1 of 1 recorded decisions lost in compaction")
    store.refine_with_transcript(written, str(transcript))
    assert (written["lost"], written["survived"]) == (0, 1)
    assert written["decisions"][0]["status"] == "survived"
