"""Issue 22, item 3: one rule (core/safe_text) for every text that reaches the model.

Records carrying U+202E (right-to-left override), U+FEFF (byte order mark), NUL, ESC and
line breaks, written through the toolkit's own record functions (ctx-decide's and the
capture's), are fed to every injected text: the ctx-budget instruction with the audit it
re-injects, the audit's re-injection at SessionStart, ctx-restore's pointer, the pinned
digest file (imported into every request through CLAUDE.md), the PreCompact steering text,
ctx-guard's question (permissionDecisionReason), and a captured record's quote as those
texts re-inject it. Each is asserted exactly.

A new injected text is one more entry of PRODUCERS and EXPECTED: a function from the
seeded project to the text the model sees.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from context_memory.core.hookio import context_output
from context_memory.core.safe_text import (
    CLIP_MARK,
    CLIP_MARKS,
    UNSAFE,
    clip,
    one_line,
    safe_block,
    visible,
)
from context_memory.handlers import audit, budget, extract, guard, restore
from context_memory.memory.decisions import append_record, make_captured_record, make_record
from context_memory.pinned import store as pinned
from context_memory.setup.doctor.check import OK, Check
from helpers import transcript_rows as tr
from helpers.cli_run import run_hook_main
from helpers.hook_payloads import hook_input
from helpers.paths import REPO

SESSION = "11111111-2222-3333-4444-555555555555"
TS = "2026-11-30T09:00:00Z"
# Every character the rule is about, in one text: a reversal, a BOM, NUL, ESC, line breaks.
# Zero-width characters too: the rule before this one let them through everywhere.
HOSTILE = "Use \u202eRedis\ufeff\x00 now\x1b[2J\u200b\nnext line\r\nlast"
REASON = "fast\u202e\x1b[31m\u2060\nred"
QUOTE = "no \u202emoment\ufeff\x00\x1b[2J\u200d\njs"
ONE_LINE = "Use \\u202eRedis\\ufeff\\x00 now\\x1b[2J\\u200b next line last"
BLOCK = "Use \\u202eRedis\\ufeff\\x00 now\\x1b[2J\\u200b\nnext line\nlast"
REASON_SHOWN = "fast\\u202e\\x1b[31m\\u2060 red"
QUOTE_SHOWN = "no \\u202emoment\\ufeff\\x00\\x1b[2J\\u200d js"
ALLOWED_CONTROLS = {"\n"}


# -- the rule itself ---------------------------------------------------------------------------


def test_one_line_safe_block_and_visible_exactly() -> None:
    assert one_line(HOSTILE) == ONE_LINE
    assert one_line(HOSTILE, 12) == "Use \\u202..."  # a cut escape is harmless text
    assert safe_block(HOSTILE) == BLOCK
    assert safe_block(HOSTILE + "\n") == BLOCK + "\n"
    assert safe_block("  indented\tcode\n") == "  indented code\n"
    assert visible(HOSTILE) == (
        "Use \\u202eRedis\\ufeff\\x00 now\\x1b[2J\\u200b\\nnext line\\r\\nlast"
    )
    zero_width = "a\u200bb\u200cc\u200dd\u2060e\u200ef\u200fg\u061ch\u2066i\u2069j"
    assert one_line(zero_width) == (
        "a\\u200bb\\u200cc\\u200dd\\u2060e\\u200ef\\u200fg\\u061ch\\u2066i\\u2069j"
    )
    assert one_line("lone \ud800 surrogate") == "lone \\ud800 surrogate"
    assert safe_block("中文：决定\n- 使用 Redis") == "中文：决定\n- 使用 Redis"


def test_one_clip_rule_marks_every_cut_alike() -> None:
    assert one_line("abcdef ghij", 8) == "abcde..."
    assert one_line("abcd efghij", 8) == "abcd..."  # the cut's trailing space goes
    assert one_line("short", 8) == "short"
    assert clip("abcdef ghij", 8) == one_line("abcdef ghij", 8)
    assert clip("abcdef", None) == "abcdef"
    assert CLIP_MARKS == (CLIP_MARK, "\u2026")  # older captured records end with U+2026


def hand_made_clips(source: str) -> list[int]:
    """The lines where ``source`` ends a text with a clip mark itself (``text[:n] + "..."``,
    ``... + CLIP_MARK``): a second clip rule."""
    marks = set(CLIP_MARKS)
    found = []
    for node in ast.walk(ast.parse(source)):
        added = isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.Add)
        if added:
            right = node.right if isinstance(node, ast.BinOp) else node.value
            literal = isinstance(right, ast.Constant) and right.value in marks
            named = isinstance(right, ast.Name) and right.id == "CLIP_MARK"
            if literal or named:
                found.append(node.lineno)
    return sorted(found)


def test_no_module_but_safe_text_marks_a_cut_itself() -> None:
    assert hand_made_clips(
        'a = t[:5].rstrip() + "..."\nb = t + "\u2026"\nc = x + CLIP_MARK\nt += "..."'
    ) == [
        1,
        2,
        3,
        4,
    ]
    assert hand_made_clips('d = " \u2026 ".join(parts)\ne = clip(t, 5)') == []
    package = REPO / "hooks" / "context_memory"
    found = {
        path.relative_to(package).as_posix(): lines
        for path in sorted(package.rglob("*.py"))
        if (lines := hand_made_clips(path.read_text(encoding="utf-8")))
    }
    # ctx-audit's table cuts by terminal columns, not characters (docs/layout.md).
    assert found == {"core/safe_text.py": [98], "commands/audit.py": [53]}


def test_printable_text_is_already_safe() -> None:
    """safe_text leaves a printable text as it is (no table is built): that is right only
    because str.isprintable refuses every unsafe code point and every lone surrogate."""
    assert [hex(code) for code in UNSAFE if chr(code).isprintable()] == []
    assert not "\ud800".isprintable() and not "\udfff".isprintable()
    assert one_line("a \u202e b") == "a \\u202e b" and one_line("a b") == "a b"


@pytest.mark.parametrize("render", [one_line, safe_block, visible])
def test_no_unsafe_code_point_survives(render: Callable[[object], str]) -> None:
    text = "".join(chr(code) for code in UNSAFE) + "\ud800\udfff"
    kept = set(render(text)) & ({chr(code) for code in UNSAFE} | {"\ud800"})
    assert kept <= (ALLOWED_CONTROLS if render is safe_block else set())


def test_doctor_line_keeps_its_columns_and_escapes_the_rest() -> None:
    line = Check("state folder", OK, f"/tmp/{HOSTILE}", fix="rename it").line()
    assert line == (
        "OK    state folder             /tmp/Use \\u202eRedis\\ufeff\\x00 now\\x1b[2J\\u200b"
        "\\nnext line\\r\\nlast -- fix: rename it"
    )


def test_context_output_is_the_door_of_every_additional_context() -> None:
    document = json.loads(context_output("SessionStart", HOSTILE))
    assert document == {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": BLOCK}
    }


# -- every injected text -----------------------------------------------------------------------


def seed(project: Path) -> Path:
    """A decision, a rejection with a hostile reason, and a captured rejection whose only
    text is the user's quote: what the texts below re-inject."""
    state = project / ".working-state"
    append_record(state, make_record("decided", HOSTILE, session=SESSION, ts=TS))
    append_record(state, make_record("rejected", "Codis", session=SESSION, reason=REASON, ts=TS))
    captured = {
        "kind": "rejected",
        "by": "user",
        "source": "prompt",
        "uuid": "u-1",
        "quote": QUOTE,
        "anchors": ["moment"],
        "avoid": ["moment"],
        # Typed (memory/constraint.py): an old record's avoid words only remind.
        "ruled_out": [{"kind": "package", "value": "moment"}],
    }
    record = make_captured_record(captured, session=SESSION, ts=TS)
    record["id"] = "rec-quote"  # named in ctx-guard's question
    append_record(state, record)
    return state


def payload(project: Path, event: str, transcript: Path | None = None, **extra: object) -> dict:
    return hook_input(SESSION, project, event, transcript, **extra)


def plain_transcript(project: Path, tokens: int) -> Path:
    rows = [
        tr.user("design the cache"),
        tr.api_request("claude-sonnet-4-6"),
        tr.assistant("msg_1", tr.usage(tokens)),
        *tr.bookkeeping(),
    ]
    return tr.write_transcript(project / "session.jsonl", rows)


def additional_context(out: str) -> str:
    return str(json.loads(out)["hookSpecificOutput"]["additionalContext"])


def context_of(main, data: dict, monkeypatch, capsys) -> str:
    """The additionalContext of a hook's main() run on ``data``, which must succeed quietly."""
    done = run_hook_main(monkeypatch, capsys, main, data)
    assert (done.exit_code, done.stderr) == (0, "")
    return additional_context(done.stdout)


def lost_in_compaction(project: Path, monkeypatch, capsys) -> None:
    """PostCompact with a summary that names none of the records: all three are pending."""
    post = payload(project, "PostCompact", compact_summary="<summary>nothing</summary>")
    post["trigger"] = "manual"
    assert run_hook_main(monkeypatch, capsys, audit.main, post).exit_code == 0


def budget_instruction(project: Path, monkeypatch, capsys) -> str:
    """ctx-budget's additionalContext: the pending audit, then the band's instruction."""
    lost_in_compaction(project, monkeypatch, capsys)
    prompt = payload(project, "UserPromptSubmit", plain_transcript(project, 130_000), prompt="go")
    return context_of(budget.main, prompt, monkeypatch, capsys)


def audit_reinjection(project: Path, monkeypatch, capsys) -> str:
    """The audit re-injected at SessionStart after a compaction."""
    lost_in_compaction(project, monkeypatch, capsys)
    start = payload(project, "SessionStart", plain_transcript(project, 5_000), source="compact")
    return context_of(audit.main, start, monkeypatch, capsys)


def restore_pointer(project: Path, monkeypatch, capsys) -> str:
    start = payload(project, "SessionStart", source="startup")
    return context_of(restore.main, start, monkeypatch, capsys)


def pinned_digest(project: Path, monkeypatch, capsys) -> str:
    state = project / ".working-state"
    (state / "current-plan.md").write_text(f"- [ ] {HOSTILE}\n", encoding="utf-8")
    digest = pinned.rebuild(str(state), cap=1500)
    assert digest.shown == 4
    return (state / "pinned.md").read_text(encoding="utf-8")


def precompact_steering(project: Path, monkeypatch, capsys) -> str:
    data = payload(project, "PreCompact", plain_transcript(project, 5_000), trigger="manual")
    data["custom_instructions"] = None
    done = run_hook_main(monkeypatch, capsys, extract.main, data)
    assert (done.exit_code, done.stderr) == (0, "")
    return done.stdout


def guard_reason(project: Path, monkeypatch, capsys) -> str:
    """ctx-guard's question before a call that does what the user's quote ruled out."""
    call = payload(project, "PreToolUse", tool_name="Bash", tool_use_id="toolu_01")
    call["tool_input"] = {"command": "npm install moment"}
    done = run_hook_main(monkeypatch, capsys, guard.main, call)
    assert (done.exit_code, done.stderr) == (0, "")
    specific = json.loads(done.stdout)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "ask"
    return str(specific["permissionDecisionReason"])


PRODUCERS: dict[str, Callable[[Path, pytest.MonkeyPatch, pytest.CaptureFixture[str]], str]] = {
    "budget instruction": budget_instruction,
    "audit re-injection": audit_reinjection,
    "restore pointer": restore_pointer,
    "pinned digest": pinned_digest,
    "precompact steering": precompact_steering,
    "guard reason": guard_reason,
}

AUDIT_LOST = (
    "[COMPACT AUDIT] Decisions lost in compaction: the summary no longer mentions these "
    "recorded decisions, and they still hold.\n"
    f"- Decided: {ONE_LINE}\n"
    f"- Rejected: Codis (why: {REASON_SHOWN}) Do not propose it again.\n"
    f"- Rejected: {QUOTE_SHOWN} (stated by the user) Do not propose it again.\n"
    "[WORKING STATE] This project keeps its working memory on disk. Read "
    ".working-state/decisions.jsonl first. Record new decisions with ctx-decide."
)
EXPECTED: dict[str, str] = {
    "guard reason": (
        f"You rejected `{QUOTE_SHOWN}` on 2026-11-30: '{QUOTE_SHOWN}'. This call runs "
        "`npm install moment`. Run it anyway? [ctx-guard, record rec-quote]"
    ),
    "budget instruction": AUDIT_LOST
    + (
        "\n\n[CONTEXT BUDGET] ~130K/200K (65%). Context is getting tight: prefer Grep and "
        "subagents (Task) for exploration; avoid reading large files directly. Record "
        "decisions with ctx-decide."
    ),
    "audit re-injection": AUDIT_LOST,
    "restore pointer": (
        "[WORKING STATE] This project keeps its working memory on disk. Read "
        ".working-state/decisions.jsonl first. Rejected, do not propose again: "
        f"Codis ({REASON_SHOWN}); {QUOTE_SHOWN} (user). Record new decisions with ctx-decide."
    ),
    "pinned digest": (
        "# Pinned decisions\n\n"
        "The team's record, through git: rebuilt by context-memory when the decisions log, "
        "plan or merged record change; do not edit. Pinned, then newest.\n\n"
        "## Rejected (do not propose again)\n"
        f"- {QUOTE_SHOWN} (stated by the user)\n"
        f"- Codis ({REASON_SHOWN})\n\n"
        "## Decided\n"
        f"- {ONE_LINE}\n\n"
        "## Open plan items\n"
        "- Use \\u202eRedis\\ufeff\\x00 now\\x1b[2J\\u200b\n\n"
        "Left out to stay under 1,500 tokens: 0 of 4 entries. Full record: ctx-decide --list "
        "(.working-state/decisions.jsonl), .working-state/merged/decisions.md, "
        ".working-state/current-plan.md.\n"
    ),
    "precompact steering": (
        "Keep these recorded decisions and rejections, with their reasons, in the summary "
        "(they are also on disk):\n"
        f"- Decided: {ONE_LINE}\n"
        f"- Rejected: Codis ({REASON_SHOWN})\n"
        f"- Rejected: {QUOTE_SHOWN} (stated by the user)\n"
        "Also state that the full decision log is .working-state/decisions.jsonl "
        "(ctx-decide --list).\n"
    ),
}


@pytest.mark.parametrize("name", sorted(PRODUCERS))
def test_every_injected_text_follows_the_rule(
    name: str, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(project)
    text = PRODUCERS[name](project, monkeypatch, capsys)
    unsafe = {chr(code) for code in UNSAFE} - ALLOWED_CONTROLS
    assert sorted(set(text) & unsafe) == []
    assert text == EXPECTED[name]
