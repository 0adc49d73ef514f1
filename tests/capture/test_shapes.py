"""User feedback only from the client's exact shapes (protocol file sections 9 and 11), and
the structural reading around it (issue 26, items 1, 2, 3, 6).

Rows are the client's: the 2.1.332 rejection as the real client wrote it in a terminal
session (tests/fixtures/client-rows/, its user row and its api-request-blob copy), real
rows of older clients (tests/fixtures/real-transcripts), and rows built field for field in
the shapes those clients write (version, toolUseResult, toolDenialKind). Hostile cases:
every other error result, hook and settings messages, and tool output quoting the texts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from context_memory.capture.engine import Capturer
from context_memory.capture.store import capture_session
from context_memory.core.decisions_log import live_records
from helpers.real_fixture import real_lines, write_lines

FIXTURE_2_1_332 = (
    Path(__file__).resolve().parents[1]
    / "fixtures"
    / "client-rows"
    / "rejected-with-feedback-2.1.332.jsonl"
)
CODERABBIT = "cb2e607c"  # client 2.0.37: a plan rejected with feedback, then approved
REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). "
)
STOP = "STOP what you are doing and wait for the user to tell you how to proceed."
NEW_MARK = "To tell you how to proceed, the user said:\n"
OLD_MARK = "The user provided the following reason for the rejection:  "
INTERRUPTED = "[Request interrupted by user for tool use]"


def call_row(call_id: str, name: str, tool_input: dict[str, Any], version: str) -> dict[str, Any]:
    return {
        "type": "assistant",
        "isSidechain": False,
        "uuid": f"a-{call_id}",
        "version": version,
        "message": {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": call_id, "name": name, "input": tool_input}],
        },
    }


def result_row(
    call_id: str,
    content: str,
    version: str,
    *,
    is_error: bool = True,
    uuid: str = "r1",
    **extra: Any,
) -> dict[str, Any]:
    """A tool_result row as the client writes it; toolUseResult defaults to the client's
    ``Error: <content>`` of an error result."""
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": content}
    if is_error:
        block["is_error"] = True
    row: dict[str, Any] = {
        "type": "user",
        "isSidechain": False,
        "uuid": uuid,
        "version": version,
        "timestamp": "2026-01-02T03:04:05Z",
        "message": {"role": "user", "content": [block]},
    }
    row["toolUseResult"] = f"Error: {content}" if is_error else {"stdout": content, "stderr": ""}
    row.update(extra)
    return row


def prompt_row(text: str, uuid: str, version: str = "2.1.121") -> dict[str, Any]:
    return {
        "type": "user",
        "isSidechain": False,
        "uuid": uuid,
        "version": version,
        "message": {"role": "user", "content": text},
    }


def capture(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    capturer = Capturer()
    items = [item for row in rows for item in capturer.feed(row)]
    return items + capturer.flush()


def fixture_rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in FIXTURE_2_1_332.read_text().splitlines() if line]


# --- the client's rejection shapes ----------------------------------------------------------


def test_the_real_2_1_332_rejection_is_one_typed_record_naming_the_package() -> None:
    rows = fixture_rows()
    assert [r["type"] for r in rows] == ["assistant", "user", "api-request-blob"]
    assert rows[1]["toolDenialKind"] == "user-rejected"
    items = capture(rows)  # the api-request-blob copy adds nothing
    assert len(items) == 1
    (item,) = items
    assert (item["kind"], item["by"], item["source"], item["tier"]) == (
        "rejected",
        "user",
        "tool-rejection",
        "structural",
    )
    assert item["uuid"] == rows[1]["uuid"]
    assert item["decision"] == "Bash: npm install moment"
    assert item["reason"] == "too heavy, use date-fns"
    assert item["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert item["preferred"] == [{"kind": "package", "value": "date-fns"}]
    assert (item["avoid"], item["prefer"]) == (["moment"], ["date-fns"])
    assert "npm" not in item["anchors"]


def test_the_blob_copy_alone_is_no_rejection() -> None:
    assistant, _user, blob = fixture_rows()
    assert capture([assistant, blob]) == []


@pytest.mark.parametrize(
    ("version", "content", "extra"),
    [
        ("2.0.42", REJECTED + OLD_MARK + "too heavy, use date-fns", {}),
        (
            "2.1.167",
            REJECTED + STOP + " " + NEW_MARK + "too heavy, use date-fns",
            {"toolUseResult": "User rejected tool use"},
        ),
    ],
)
def test_the_older_reason_texts_give_the_same_subjects(
    version: str, content: str, extra: dict[str, Any]
) -> None:
    rows = [
        call_row("t1", "Bash", {"command": "cd web && npm install moment@2.29"}, version),
        result_row("t1", content, version, **extra),
    ]
    (item,) = capture(rows)
    assert item["reason"] == "too heavy, use date-fns"
    assert item["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert item["preferred"] == [{"kind": "package", "value": "date-fns"}]


def test_a_rejection_without_a_reason_takes_the_next_prompt_and_keeps_the_calls_subject() -> None:
    rows = [
        call_row("t1", "Bash", {"command": "npm install moment"}, "2.1.121"),
        result_row("t1", REJECTED + STOP, "2.1.121"),
        prompt_row(INTERRUPTED, "m1"),
        prompt_row("it's too heavy, use date-fns", "p1"),
    ]
    items = capture(rows)
    assert items[0]["kind"] == "rejected"
    assert items[0]["reason"] == "it's too heavy, use date-fns"
    assert items[0]["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert items[0]["preferred"] == [{"kind": "package", "value": "date-fns"}]
    flushed = capture(rows[:2])
    assert [(i["reason"], i["ruled_out"]) for i in flushed] == [
        ("", [{"kind": "package", "value": "moment"}])
    ]


@pytest.mark.parametrize("typed", ["continue", "ok, carry on.", "继续", "続けてください"])
def test_a_rejection_without_a_reason_then_only_go_on_is_no_item(typed: str) -> None:
    # The user stopped one call and said only "go on": no instruction to keep (rule 3).
    rows = [
        call_row("t1", "Bash", {"command": "git add ."}, "2.1.121"),
        result_row("t1", REJECTED + STOP, "2.1.121"),
        prompt_row(INTERRUPTED, "m1"),
        prompt_row(typed, "p1"),
    ]
    assert capture(rows) == []
    # "go on, but ..." carries one: the rejection keeps it as its reason.
    (item, *_) = capture([*rows[:3], prompt_row("continue, but never stage everything", "p1")])
    assert (item["kind"], item["reason"]) == ("rejected", "continue, but never stage everything")


# --- hostile: error results that are no user's words ------------------------------------------

NPM = {"command": "npm install left-pad"}
HOSTILE = [
    # An ESLint run that fails, in the 2.x shape and in 2.0.5's (no "Exit code" line).
    (
        "Bash",
        {"command": "npx eslint src"},
        "2.1.121",
        "Exit code 1\n\n/home/ana/app/src/a.ts\n  3:7  error  'x' is assigned a value but never "
        "used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)",
    ),
    (
        "Bash",
        {"command": "npx eslint src"},
        "2.0.5",
        "src/a.ts\n  3:1  error  Please don't use console.log here  no-console",
    ),
    # PreToolUse hooks that block: the client's deny text, and a bare block message.
    (
        "Bash",
        NPM,
        "2.1.121",
        "PreToolUse:Bash hook error: [node ~/.claude/policy.js]: Blocked by policy: don't use "
        "npm here, use pnpm.",
    ),
    ("Bash", NPM, "2.0.5", "Blocked by policy: don't use npm here, use pnpm."),
    ("Bash", NPM, "2.0.5", "PreToolUse:Bash hook error: don't use npm here, use pnpm."),
    # A settings rule, not the user.
    (
        "Bash",
        {"command": "rm -rf dist"},
        "2.0.5",
        "Permission to use Bash with command rm -rf dist has been denied.",
    ),
    # An MCP tool's error and a Task error.
    (
        "mcp__github__create_issue",
        {"title": "x"},
        "2.0.5",
        "MCP error -32603: please use the REST API instead, we do not allow this",
    ),
    ("mcp__github__create_issue", {"title": "x"}, "2.0.5", "we could not reach the server"),
    (
        "Task",
        {"subagent_type": "reviewer", "prompt": "review"},
        "2.0.5",
        "Agent type 'reviewer' not found. Please use one of: general-purpose",
    ),
    ("Task", {"prompt": "review"}, "2.0.5", "We stopped: please use a smaller prompt"),
    # The Read limit.
    (
        "Read",
        {"file_path": "/home/ana/app/big.json"},
        "2.0.5",
        "File content (85812 tokens) exceeds maximum allowed tokens (25000). Please use offset "
        "and limit parameters to read specific portions of the file, or use the GrepTool to "
        "search for specific content.",
    ),
    # The client's own tool errors.
    (
        "Edit",
        {"file_path": "/a.py", "old_string": "x", "new_string": "y"},
        "2.0.5",
        "<tool_use_error>File has not been read yet. Read it first before writing to it."
        "</tool_use_error>",
    ),
    ("Bash", NPM, "2.0.5", "npm error code E404\nnpm error 404 Not Found - please check"),
    # Words that read like feedback, from a client that never wrote feedback bare.
    ("Bash", NPM, "2.1.121", "please use pnpm instead, we never use npm here"),
    ("Bash", NPM, "1.0.43", "please use pnpm instead, we never use npm here"),
]


@pytest.mark.parametrize(("tool", "tool_input", "version", "content"), HOSTILE)
def test_no_rejection_from_an_error_result_that_is_no_users_feedback(
    tool: str, tool_input: dict[str, Any], version: str, content: str
) -> None:
    rows = [call_row("t1", tool, tool_input, version), result_row("t1", content, version)]
    assert capture(rows) == []


def test_bare_feedback_needs_the_clients_own_error_text_beside_it() -> None:
    call = call_row("t1", "Bash", NPM, "2.0.5")
    feedback = "please use pnpm instead, we never use npm here"
    item = capture([call, result_row("t1", feedback, "2.0.5")])[0]
    assert (item["kind"], item["reason"]) == ("rejected", feedback)
    other = result_row("t1", feedback, "2.0.5", toolUseResult="Error: something else")
    assert capture([call, other]) == []


@pytest.mark.parametrize(
    ("kind", "content"),
    [
        (
            "permission-rule",
            "Permission to use Bash with command npm install left-pad has been denied.",
        ),
        ("automode-blocked", "Permission for this action has been denied. Reason: risky"),
        ("automode-unavailable", REJECTED + NEW_MARK + "use pnpm"),
    ],
)
def test_a_denial_kind_other_than_user_rejected_is_no_rejection(kind: str, content: str) -> None:
    rows = [
        call_row("t1", "Bash", NPM, "2.1.332"),
        result_row("t1", content, "2.1.332", toolDenialKind=kind),
    ]
    assert capture(rows) == []


def test_the_sibling_refusal_of_the_same_reply_is_nothing() -> None:
    text = "The user doesn't want to take this action right now. STOP what you are doing."
    rows = [call_row("t1", "Bash", NPM, "2.1.121"), result_row("t1", text, "2.1.121")]
    assert capture(rows) == []


@pytest.mark.parametrize(
    "printed",
    [
        'User has answered your questions: "Which library?"="moment". You can now continue.',
        "User has approved your plan. You can now start coding.",
        REJECTED + OLD_MARK + "use pnpm",
    ],
)
def test_a_tools_successful_output_quoting_the_texts_is_nothing(printed: str) -> None:
    rows = [
        call_row("t1", "Bash", {"command": "cat notes/transcript.txt"}, "2.1.121"),
        result_row("t1", printed, "2.1.121", is_error=False),
    ]
    assert capture(rows) == []
    # Even with the call forgotten (an old state), the text alone is not the client's shape.
    assert capture([result_row("t9", printed, "2.1.121", is_error=False)]) == []


def test_a_question_answer_is_read_from_the_clients_structured_result() -> None:
    text = 'User has answered your questions: "Which library?"="date-fns". You can now continue.'
    structured = {
        "questions": [
            {
                "question": "Which library?",
                "options": [
                    {"label": "date-fns", "description": "Tree-shakable functions, small bundle"},
                    {"label": "moment", "description": "One big object, heavy"},
                ],
            }
        ],
        "answers": {"Which library?": "date-fns"},
    }
    call = call_row("q1", "AskUserQuestion", {"questions": structured["questions"]}, "2.1.121")
    result = result_row("q1", text, "2.1.121", is_error=False, toolUseResult=structured)
    (item,) = capture([call, result])
    assert (item["kind"], item["source"], item["tier"]) == ("decided", "question", "structural")
    assert item["decision"] == "Which library? → date-fns"
    assert item["alternatives"] == ["moment"]
    assert item["reason"] == "Tree-shakable functions, small bundle"  # the chosen option's
    # The call no longer remembered: the client's structured result still says what it is.
    (again,) = capture([result])
    assert again["decision"] == item["decision"]
    # A Bash call's result that happens to carry the same fields is still a Bash result.
    bash = call_row("q1", "Bash", {"command": "cat answers.json"}, "2.1.121")
    assert capture([bash, result]) == []


def _answered(answers: dict[str, str]) -> list[dict[str, object]]:
    """An AskUserQuestion call with two questions and the client's result for ``answers``."""
    questions = [
        {
            "question": "Which store?",
            "options": [{"label": "SQLite", "description": "one file"}, {"label": "Later"}],
        },
        {"question": "Where do the notes go?", "options": [{"label": "docs/"}]},
    ]
    pairs = ", ".join(f'"{q}"="{a}"' for q, a in answers.items())
    text = f"User has answered your questions: {pairs}. You can now continue."
    structured = {"questions": questions, "answers": answers}
    call = call_row("q2", "AskUserQuestion", {"questions": questions}, "2.1.121")
    return [call, result_row("q2", text, "2.1.121", is_error=False, toolUseResult=structured)]


@pytest.mark.parametrize(
    "typed", ["需要讨论", "not sure, let's discuss it later", "which one is faster?", "还有疑问吗"]
)
def test_a_free_text_answer_that_settles_nothing_is_no_decision(typed: str) -> None:
    # The other question's answer (an option's label) is still the user's decision.
    (item,) = capture(_answered({"Which store?": typed, "Where do the notes go?": "docs/"}))
    assert item["decision"] == "Where do the notes go? → docs/"
    assert capture(_answered({"Which store?": typed})) == []


def test_an_option_that_defers_is_no_decision_and_free_text_is_one() -> None:
    assert capture(_answered({"Which store?": "Later"})) == []  # a deferral settles nothing
    (item,) = capture(_answered({"Which store?": "SQLite"}))
    assert item["decision"] == "Which store? → SQLite"
    (typed,) = capture(_answered({"Which store?": "Postgres, we run it already"}))
    assert typed["decision"] == "Which store? → Postgres, we run it already"


@pytest.mark.parametrize(
    "typed",
    [
        "I would first like you to walk me through what each of these costs us",
        "我需要你先跟我深入沟通，完全理解我的需求以后再考虑如何实现这个功能",
    ],
)
def test_a_long_free_text_answer_that_only_talks_is_no_decision(typed: str) -> None:
    assert capture(_answered({"Which store?": typed})) == []


@pytest.mark.parametrize(
    ("typed", "kind"),
    [
        # a long answer that states a choice in its own words
        ("Postgres instead of SQLite, we already run it for the billing service", "decided"),
        # a long answer that names one of the options
        ("SQLite, because the whole thing has to run on a laptop with no server", "decided"),
    ],
)
def test_a_long_free_text_answer_that_chooses_is_a_decision(typed: str, kind: str) -> None:
    (item,) = capture(_answered({"Which store?": typed}))
    assert item["kind"] == kind and item["decision"].startswith("Which store? → ")


def test_a_long_answer_in_the_text_form_alone_is_still_read() -> None:
    # Without the structured result the options are unknown: a long answer is not judged.
    typed = "I would first like you to walk me through what each of these costs us"
    call, result = _answered({"Which store?": typed})
    result = {k: v for k, v in result.items() if k != "toolUseResult"}
    (item,) = capture([call, result])
    assert item["decision"] == f"Which store? → {typed}"


# --- interrupts: the correction takes the interrupted action as its subject -------------------


@pytest.mark.parametrize(
    "interrupt",
    [
        {"content": INTERRUPTED, "version": "2.1.121"},
        {"content": INTERRUPTED, "version": "2.1.332", "toolDenialKind": "interrupted"},
    ],
)
def test_a_correction_after_an_interrupt_is_about_the_interrupted_call(
    interrupt: dict[str, Any],
) -> None:
    version = interrupt.pop("version")
    content = interrupt.pop("content")
    rows = [
        call_row("t1", "Bash", {"command": "npm install moment"}, version),
        result_row("t1", content, version, **interrupt),
        prompt_row(INTERRUPTED, "m1", version),
        prompt_row("no, don't use moment, use date-fns instead", "p1", version),
    ]
    items = capture(rows)
    corrections = [i for i in items if i.get("call")]
    assert len(corrections) == 1, items
    (item,) = corrections
    assert item["uuid"] == "p1" and item["source"] == "prompt" and item["tier"] == "stated"
    assert item["call"] == {"tool": "Bash", "command": "npm install moment"}
    assert item["reason"] == "said on interrupting Bash: npm install moment"
    assert item["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert item["preferred"] == [{"kind": "package", "value": "date-fns"}]


def test_a_prompt_after_an_interrupt_that_corrects_nothing_keeps_its_own_subjects() -> None:
    rows = [
        call_row("t1", "Bash", {"command": "npm test"}, "2.1.121"),
        result_row("t1", INTERRUPTED, "2.1.121"),
        prompt_row("Let's use vitest for the new tests from now on.", "p1"),
    ]
    for item in capture(rows):
        assert "call" not in item
        assert {"kind": "command", "value": "npm test"} not in item["ruled_out"]


# --- plans ------------------------------------------------------------------------------------

PLAN = "# Plan: Report Corrupted Archives\n\n1. Add `--report` to ctx-scan.\n"


def plan_rows(feedback: str, version: str = "2.1.121") -> list[dict[str, Any]]:
    return [
        call_row("p1", "ExitPlanMode", {"plan": PLAN}, version),
        result_row("p1", REJECTED + OLD_MARK + feedback, version, uuid="r-plan"),
        call_row("p2", "ExitPlanMode", {"plan": PLAN}, version),
        result_row(
            "p2",
            "User has approved your plan. You can now start coding.",
            version,
            is_error=False,
            uuid="ok-plan",
            toolUseResult={"plan": PLAN, "planWasEdited": False},
        ),
    ]


def test_a_plan_resubmitted_after_commit_first_then_proceed_is_not_a_rejected_plan() -> None:
    items = capture(
        plan_rows("OK, so first commit the current changes, then proceed with this plan")
    )
    assert [(i["kind"], i["source"], i["uuid"]) for i in items] == [("decided", "plan", "ok-plan")]
    assert items[0].get("resolves", []) == []


def test_an_approved_plan_resolves_the_plan_rejections_before_it() -> None:
    items = capture(plan_rows("I dont use btop, show the numbers in the status line instead"))
    assert (items[0]["kind"], items[0]["source"], items[0]["uuid"]) == (
        "rejected",
        "plan",
        "r-plan",
    )
    approved = items[-1]
    assert (approved["kind"], approved["uuid"], approved["tier"]) == (
        "decided",
        "ok-plan",
        "structural",
    )
    assert approved["resolves"] == ["r-plan"]
    # The same plan approved again is no new decision; another plan resolves nothing more.
    other = "# Plan: Ship the status line\n\n1. Print `ctx-usage` there.\n"
    again = plan_rows("I dont use btop")[:2] + plan_rows("x")[2:] + plan_rows("x")[2:]
    again += [
        call_row("p3", "ExitPlanMode", {"plan": other}, "2.1.121"),
        result_row(
            "p3",
            "User has approved your plan. You can now start coding.",
            "2.1.121",
            is_error=False,
            uuid="ok-other",
            toolUseResult={"plan": other, "planWasEdited": False},
        ),
    ]
    decided = [i for i in capture(again) if i["kind"] == "decided"]
    assert [(i["uuid"], i.get("resolves")) for i in decided] == [
        ("ok-plan", ["r-plan"]),
        ("ok-other", None),
    ]


def test_in_the_log_the_approved_plan_supersedes_the_real_rejected_one(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    transcript = write_lines(tmp_path / "session.jsonl", real_lines(CODERABBIT))
    result = capture_session(str(state), "s1", str(transcript), flush=True)
    added = result.added
    rejected = [
        r for r in added if r["source"] == "plan" and r["kind"] in ("rejected", "constraint")
    ]
    approved = [r for r in added if r["source"] == "plan" and r["kind"] == "decided"]
    assert rejected and approved
    assert all(result.superseded[str(r["id"])] == approved[0]["id"] for r in rejected)
    live, _ = live_records(str(state))
    live_ids = {r["id"] for r in live}
    assert not live_ids & {r["id"] for r in rejected}
    assert approved[0]["id"] in live_ids


def test_the_log_keeps_the_typed_fields(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(FIXTURE_2_1_332.read_text())
    result = capture_session(str(state), "s1", str(transcript))
    (record,) = result.added
    line = json.loads((state / "decisions.jsonl").read_text().splitlines()[0])
    assert line["id"] == record["id"]
    assert line["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert line["preferred"] == [{"kind": "package", "value": "date-fns"}]
    assert line["tier"] == "structural"


# --- anchors from the whole text ---------------------------------------------------------------


def test_anchors_come_from_the_whole_plan_and_the_whole_edit_and_stored_fields_stay_bounded() -> (
    None
):
    long_plan = "# Plan: Tidy the build\n\n" + "Explain each step in plain words. " * 120
    long_plan += "\n\nFinally switch the packaging to `hatchling` in pyproject.toml.\n"
    approved = result_row(
        "p1",
        "User has approved your plan. You can now start coding.",
        "2.1.121",
        is_error=False,
        toolUseResult={"plan": long_plan, "planWasEdited": False},
    )
    (item,) = capture([call_row("p1", "ExitPlanMode", {"plan": long_plan}, "2.1.121"), approved])
    assert len(long_plan) > 4000
    assert {"hatchling", "pyproject.toml"} <= set(item["anchors"])
    assert len(item["decision"]) <= 300 and len(item["quote"]) <= 300
    body = (
        "def render(rows):\n"
        + "    total = total + 1\n" * 40
        + "    return GroupVisibility(rows)\n"
    )
    edit = call_row(
        "e1",
        "Edit",
        {"file_path": "/app/view.py", "old_string": "x", "new_string": body},
        "2.1.121",
    )
    rejected = result_row("e1", REJECTED + OLD_MARK + "no, keep it simple", "2.1.121")
    (rejection, *_) = capture([edit, rejected])
    assert "groupvisibility" in rejection["anchors"]
    assert len(rejection["call"]["gist"]) <= 200


def test_the_audit_terms_lead_the_anchors_and_the_rest_follow_in_reading_order() -> None:
    from context_memory.capture.anchors import anchors_of
    from context_memory.memory.constraint import MAX_ANCHORS, MAX_AUDIT_TERMS

    # 40 names: name_00..name_11 named three times (the best), the others once.
    often = " ".join(f"`name_{n:02d}`" for n in range(12))
    once = " ".join(f"`name_{n:02d}`" for n in range(12, 40))
    text = "x" * 400 + f" {once} {often} {often} {often}"
    anchors = anchors_of(text)
    assert len(anchors) == MAX_ANCHORS == 32
    assert anchors[:MAX_AUDIT_TERMS] == [f"name_{n:02d}" for n in range(12)]
    assert anchors[MAX_AUDIT_TERMS:] == [f"name_{n:02d}" for n in range(12, 32)]


def test_the_calls_of_one_reply_the_user_stopped_are_one_rejection() -> None:
    reply = {
        "type": "assistant",
        "isSidechain": False,
        "uuid": "a-1",
        "version": "2.1.167",
        "message": {
            "id": "msg_1",
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": f"t{n}",
                    "name": "Agent",
                    "input": {"prompt": f"scan {n}"},
                }
                for n in range(3)
            ],
        },
    }
    results = [
        result_row(
            f"t{n}",
            REJECTED + STOP,
            "2.1.167",
            uuid=f"r{n}",
            toolUseResult="User rejected tool use",
        )
        for n in range(3)
    ]
    items = capture([reply, *results, prompt_row(INTERRUPTED, "m1", "2.1.167")])
    assert [(i["kind"], i["uuid"]) for i in items] == [("rejected", "r0")]


def test_a_rejection_and_the_rule_its_reason_states_do_not_supersede_each_other(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    transcript = write_lines(tmp_path / "session.jsonl", real_lines("7acd37a8"))
    result = capture_session(str(state), "s1", str(transcript), flush=True)
    pair = [r for r in result.added if r["uuid"].startswith("01cc930d")]
    npm_install = [{"kind": "command", "value": "npm install"}]
    pnpm = [{"kind": "command", "value": "pnpm"}]
    # The rejection rules the call out; the rule it states holds its own words' stances.
    assert [(r["kind"], r["ruled_out"], r["preferred"]) for r in pair] == [
        ("rejected", npm_install, pnpm),
        ("constraint", [], pnpm),
    ]
    assert result.superseded == {}


def test_a_rejection_read_in_the_next_run_still_finds_what_its_call_acted_on() -> None:
    # The client writes rows on a timer: a Stop may read the call and not yet its result.
    first = Capturer()
    assert first.feed(call_row("t1", "Bash", {"command": "npm install moment"}, "2.1.332")) == []
    state = json.loads(json.dumps(first.to_state()))
    second = Capturer(state)
    second.feed(
        fixture_rows()[1]
        | {
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "is_error": True,
                        "content": REJECTED + NEW_MARK + "too heavy, use date-fns",
                    }
                ],
            }
        }
    )
    (item,) = second.end_run()  # it waits for the agent's reply, written at Stop
    assert item["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert item["preferred"] == [{"kind": "package", "value": "date-fns"}]


@pytest.mark.parametrize(
    "reason",
    [
        "please add transformer.js too first",
        "Wait a sec, we need to copy public/favicons/token.svg to the other repo too",
        "would this fix work in the standalone repo, or should we redirect instead?",
    ],
)
def test_a_reason_that_puts_the_call_off_rules_none_of_it_out(reason: str) -> None:
    command = "git add -A && git commit -m 'Add the tokenizer' && git push"
    rows = [
        call_row("t1", "Bash", {"command": command}, "2.0.5"),
        result_row("t1", reason, "2.0.5"),
    ]
    item = capture(rows)[0]
    assert (item["kind"], item["reason"]) == ("rejected", reason)
    assert item["ruled_out"] == []
    # Turned down, the same call's subjects are ruled out.
    (refused,) = capture([rows[0], result_row("t1", "no, we don't push from here", "2.0.5")])[:1]
    assert {"kind": "command", "value": "git push"} in refused["ruled_out"]


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("is there a symlink to update?", None),  # unrelated: no item (README rule 3)
        ("how does the linker pick its paths", None),  # a question without its mark
        ("数据库连接是如何配置的", None),
        # a question about what the call acts on is about the rejection
        ("why left-pad, what does it add?", "why left-pad, what does it add?"),
        ("left-pad是从哪里来的", "left-pad是从哪里来的"),
        ("could we use pnpm instead?", "could we use pnpm instead?"),  # proposes
        ("use pnpm", "use pnpm"),  # a typed correction
    ],
)
def test_a_bare_rejection_takes_its_reason_from_a_correction_not_an_unrelated_question(
    typed: str, reason: str | None
) -> None:
    rows = [
        call_row("t1", "Bash", NPM, "2.1.121"),
        result_row("t1", REJECTED, "2.1.121"),
        prompt_row(typed, "p1"),
    ]
    rejections = [i for i in capture(rows) if i["kind"] == "rejected"]
    if reason is None:
        assert rejections == []
    else:
        (item,) = rejections
        assert (item["decision"], item["reason"]) == ("Bash: npm install left-pad", reason)
