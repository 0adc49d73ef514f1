"""The capture engine (capture/engine.py) on real rows of older clients and on built rows:
each source a-e, both rejection texts and the newer client's, a reason in the next prompt,
Chinese prompts, prompts that capture nothing, damaged rows, state carried across runs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from context_memory.capture.engine import MAX_STATE_BYTES, Capturer
from context_memory.memory.constraint import MAX_ANCHORS
from helpers import transcript_rows as tr
from helpers.real_fixture import real_lines

JSSOUND = "7acd37a8"  # client 2.0.42: npm install rejected with "use pnpm"
TIMELINE = "0d3a8e6f"  # client 1.0.43: rejected edits, reasons in the next prompts
TOKENIZER = "9e953218"  # client 2.0.5: bare feedback as the tool_result
CODERABBIT = "cb2e607c"  # client 2.0.37: plan rejected with a reason, then approved
MANIFEST = "a7da6a22"  # client 2.0.55: AskUserQuestion answers
TUI = "937c6e6b"  # client 1.0.53: the agent's own choice

REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). "
)


def rows_of(part: str) -> list[Any]:
    return [json.loads(line) for line in real_lines(part)]


def capture(rows: list[Any]) -> list[dict[str, Any]]:
    capturer = Capturer()
    items = [item for row in rows for item in capturer.feed(row)]
    return items + capturer.flush()


def by_uuid(items: list[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    return [item for item in items if item["uuid"].startswith(prefix)]


def call_row(call_id: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "assistant",
        "uuid": f"a-{call_id}",
        "message": {
            "content": [{"type": "tool_use", "id": call_id, "name": name, "input": tool_input}]
        },
    }


def result_row(call_id: str, text: str, uuid: str = "r1", **extra: Any) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": call_id, "is_error": True, "content": text}
    return {
        "type": "user",
        "uuid": uuid,
        "timestamp": "2026-01-02T03:04:05Z",
        "message": {"role": "user", "content": [block]},
        **extra,
    }


def prompt_row(text: str, uuid: str = "p1", **extra: Any) -> dict[str, Any]:
    return {"type": "user", "uuid": uuid, "message": {"role": "user", "content": text}, **extra}


# --- a: rejected tool calls -------------------------------------------------------------


def test_a_real_rejection_with_a_typed_reason_is_a_rejection_and_a_constraint() -> None:
    items = by_uuid(capture(rows_of(JSSOUND)), "01cc930d")
    assert [(i["kind"], i["source"], i["by"]) for i in items] == [
        ("rejected", "tool-rejection", "user"),
        ("constraint", "tool-rejection", "user"),
    ]
    rejected, constraint = items
    assert rejected["decision"] == "Bash: npm install"
    assert rejected["reason"] == "use pnpm"
    assert rejected["call"] == {"tool": "Bash", "command": "npm install"}
    assert (rejected["avoid"], rejected["prefer"]) == (["npm"], ["pnpm"])
    assert constraint["decision"] == "use pnpm"
    assert constraint["prefer"] == ["pnpm"] and "pnpm" in constraint["anchors"]
    assert rejected["row_ts"].startswith("20")


def test_a_real_interrupted_call_takes_its_reason_from_the_next_prompt() -> None:
    items = by_uuid(capture(rows_of(TIMELINE)), "08e0a953")
    assert len(items) == 1
    item = items[0]
    assert (item["kind"], item["source"]) == ("rejected", "tool-rejection")
    assert item["call"]["tool"] == "MultiEdit"
    assert item["call"]["file"].endswith("templates/components/timeline.html")
    assert item["reason"] == "You can set group.visible using the vis library which is less work"
    assert "group.visible" in item["anchors"]


def test_a_pending_rejection_waits_across_runs_and_flushes_without_a_reason() -> None:
    first = Capturer()
    assert first.feed(call_row("t1", "Bash", {"command": "rm -rf build"})) == []
    assert first.feed(result_row("t1", REJECTED + "STOP what you are doing and wait.")) == []
    assert first.feed(prompt_row("[Request interrupted by user for tool use]", "m1")) == []
    state = json.loads(json.dumps(first.to_state()))
    second = Capturer(state)
    items = second.feed(prompt_row("keep the build folder, it holds the cache", "p2"))
    items += second.end_run()  # they wait for the agent's reply, in their order
    assert [(i["kind"], i["source"], i["reason"]) for i in items] == [
        ("rejected", "tool-rejection", "keep the build folder, it holds the cache"),
        ("constraint", "prompt", "said on rejecting Bash: rm -rf build"),
    ]
    # The rejection is about what the call acted on.
    assert items[0]["ruled_out"] == [{"kind": "path", "value": "build"}]
    assert items[1]["ruled_out"] == []  # the rejection holds the call; the rule, its words
    assert items[1]["preferred"] == [{"kind": "approach", "value": "build folder"}]
    assert (items[0]["tier"], items[1]["tier"]) == ("structural", "stated")
    third = Capturer()
    third.feed(call_row("t2", "Write", {"file_path": "/x/a.py", "content": "print(1)"}))
    third.feed(result_row("t2", REJECTED + "STOP what you are doing and wait."))
    flushed = third.flush()
    assert [(i["decision"], i["reason"]) for i in flushed] == [("Write /x/a.py: print(1)", "")]
    assert third.flush() == []


@pytest.mark.parametrize("reason", ["not now", "later", "not yet, first the tests pass"])
def test_a_call_put_off_is_no_rejection(reason: str) -> None:
    # typed with the rejection
    capturer = Capturer()
    capturer.feed(call_row("t1", "Bash", {"command": "docker compose up"}))
    text = REJECTED + "The user provided the following reason for the rejection: " + reason
    assert capturer.feed(result_row("t1", text)) == [] and capturer.end_run() == []
    # or typed as the next prompt after a bare rejection
    bare = Capturer()
    bare.feed(call_row("t2", "Bash", {"command": "docker compose up"}))
    bare.feed(result_row("t2", REJECTED + "STOP what you are doing and wait."))
    assert bare.feed(prompt_row(reason, "p2")) == [] and bare.end_run() == []
    assert bare.flush() == []


@pytest.mark.parametrize(
    ("reason", "kinds"),
    [
        ("yes and be aware I use nvm", []),  # says yes: nothing turned down
        ("ok but show hidden files too", []),
        ("yes, but never run it as root", ["rejected", "constraint"]),  # a yes with a rule
    ],
)
def test_a_reason_that_says_yes_turns_nothing_down(reason: str, kinds: list[str]) -> None:
    capturer = Capturer()
    capturer.feed(call_row("t1", "Bash", {"command": "node --version"}))
    text = REJECTED + "The user provided the following reason for the rejection: " + reason
    items = capturer.feed(result_row("t1", text)) + capturer.end_run()
    assert [i["kind"] for i in items] == kinds
    # the same typed as the next prompt after a bare rejection
    bare = Capturer()
    bare.feed(call_row("t2", "Bash", {"command": "node --version"}))
    bare.feed(result_row("t2", REJECTED + "STOP what you are doing and wait."))
    later = bare.feed(prompt_row(reason, "p2")) + bare.end_run() + bare.flush()
    assert [i["kind"] for i in later] == kinds


def test_a_newer_clients_reason_text_is_read() -> None:
    capturer = Capturer()
    capturer.feed(call_row("t1", "Bash", {"command": "npm install moment"}))
    text = (
        REJECTED + "STOP what you are doing and wait for the user to tell you how to proceed. "
        "To tell you how to proceed, the user said:\nUse date-fns instead, moment is too heavy"
    )
    items = capturer.feed(
        result_row(
            "t1", text, toolUseResult="User rejected tool use", toolDenialKind="user-rejected"
        )
    )
    items += capturer.end_run()  # they wait for the agent's reply in the turn (Stop)
    assert items[0]["reason"] == "Use date-fns instead, moment is too heavy"
    # A package rejection is about the package, not the package manager.
    assert items[0]["avoid"] == ["moment"] and items[0]["prefer"] == ["date-fns"]
    assert items[0]["ruled_out"] == [{"kind": "package", "value": "moment"}]
    assert items[0]["preferred"] == [{"kind": "package", "value": "date-fns"}]
    assert items[1]["kind"] == "constraint"


def test_a_real_bare_feedback_of_client_2_0_5_is_a_rejection_and_tool_errors_are_not() -> None:
    items = capture(rows_of(TOKENIZER))
    feedback = by_uuid(items, "2a6064fb")
    assert [(i["kind"], i["reason"]) for i in feedback] == [
        ("rejected", "please add transformer.js too first")
    ]
    assert feedback[0]["call"]["tool"] == "Bash"
    assert by_uuid(items, "bd141c8d") == []  # <tool_use_error>File has not been read yet


def test_a_sibling_refusal_and_text_quoted_in_output_capture_nothing() -> None:
    capturer = Capturer()
    capturer.feed(call_row("t1", "Bash", {"command": "ls"}))
    sibling = "The user doesn't want to take this action right now. STOP what you are doing."
    assert capturer.feed(result_row("t1", sibling)) == []
    capturer.feed(call_row("t2", "Read", {"file_path": "/x/protocol.md"}))
    quoted = {"type": "tool_result", "tool_use_id": "t2", "content": REJECTED + "STOP."}
    assert capturer.feed({"type": "user", "message": {"content": [quoted]}}) == []
    assert capturer.feed(result_row("t2", "Exit code 1\nnpm ERR! missing script")) == []
    assert capturer.flush() == []


# --- b: plans, c: questions ---------------------------------------------------------------


def test_b_real_plan_rejected_with_feedback_then_approved() -> None:
    items = capture(rows_of(CODERABBIT))
    rejected = by_uuid(items, "8f25a85d")
    assert [(i["kind"], i["source"]) for i in rejected] == [
        ("rejected", "plan"),
        ("constraint", "plan"),
    ]
    assert rejected[0]["reason"].startswith("Let's keep the name of the py file")
    assert rejected[0]["call"]["tool"] == "ExitPlanMode"
    approved = by_uuid(items, "40787c75")
    assert [(i["kind"], i["source"], i["by"]) for i in approved] == [("decided", "plan", "user")]
    assert approved[0]["decision"].startswith("approved plan: Plan: Make Project Installable")
    assert "Hatchling" in approved[0]["decision"]


def test_c_real_question_answer_is_the_decision_and_the_other_options_alternatives() -> None:
    items = by_uuid(capture(rows_of(MANIFEST)), "fb7630b4")
    assert len(items) == 1
    item = items[0]
    assert (item["kind"], item["source"], item["by"]) == ("decided", "question", "user")
    assert item["decision"] == (
        "How should corrupted archives be reported in the manifest? → Option C: Extra field"
    )
    assert item["alternatives"] and "Option C: Extra field" not in item["alternatives"]
    assert all(alt.startswith("Option") for alt in item["alternatives"])


DATABASE_QUESTION = {
    "questions": [
        {
            "question": "Which database should we use?",
            "header": "DB",
            "multiSelect": False,
            "options": [
                {"label": "SQLite", "description": "one file"},
                {"label": "Postgres", "description": "a server"},
            ],
        }
    ]
}
STOPPED = REJECTED + "STOP what you are doing and wait for the user to tell you how to proceed."


@pytest.mark.parametrize("reply", ["Postgres", "2", "the second one", "let's go with postgres"])
def test_c_a_question_turned_down_is_answered_by_the_next_prompt(reply: str) -> None:
    capturer = Capturer()
    capturer.feed(call_row("q1", "AskUserQuestion", DATABASE_QUESTION))
    assert capturer.feed(result_row("q1", STOPPED)) == []  # nothing rejected
    items = capturer.feed(prompt_row(reply)) + capturer.end_run()
    assert [(i["kind"], i["by"], i["decision"]) for i in items] == [
        ("decided", "user", "chose option 2: Postgres (a server)")
    ]
    assert items[0]["reason"] == (
        "the user's reply to the options the agent offered: Which database should we use?"
    )


def test_c_the_options_of_a_question_turned_down_wait_across_runs() -> None:
    first = Capturer()
    first.feed(call_row("q1", "AskUserQuestion", DATABASE_QUESTION))
    first.feed(result_row("q1", STOPPED))
    assert first.feed(prompt_row("[Request interrupted by user for tool use]", "m1")) == []
    assert first.end_run() == []
    second = Capturer(json.loads(json.dumps(first.to_state())))
    items = second.feed(prompt_row("the first one", "p2")) + second.end_run()
    assert [i["decision"] for i in items] == ["chose option 1: SQLite (one file)"]


@pytest.mark.parametrize("reply", ["what's the difference?", "fix the login bug first"])
def test_c_a_prompt_after_a_question_turned_down_that_picks_nothing_decides_nothing(
    reply: str,
) -> None:
    capturer = Capturer()
    capturer.feed(call_row("q1", "AskUserQuestion", DATABASE_QUESTION))
    capturer.feed(result_row("q1", STOPPED))
    assert capturer.feed(prompt_row(reply)) + capturer.end_run() == []


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        ("Postgres", ("decided", "prompt", "chose option 2: Postgres (a server)")),
        ("use mysql instead", ("decided", "prompt", "use mysql instead")),
        ("mysql", ("decided", "question", "Which database should we use? → mysql")),
    ],
)
def test_c_an_answer_typed_where_the_question_was_turned_down_is_the_decision(
    reason: str, expected: tuple[str, str, str]
) -> None:
    capturer = Capturer()
    capturer.feed(call_row("q1", "AskUserQuestion", DATABASE_QUESTION))
    text = STOPPED + " To tell you how to proceed, the user said:\n" + reason
    items = capturer.feed(result_row("q1", text)) + capturer.end_run()
    assert [(i["kind"], i["source"], i["decision"]) for i in items] == [expected]
    assert all(i["kind"] != "rejected" for i in items)


def test_c_an_unsure_answer_typed_where_the_question_was_turned_down_is_nothing() -> None:
    capturer = Capturer()
    capturer.feed(call_row("q1", "AskUserQuestion", DATABASE_QUESTION))
    text = STOPPED + " To tell you how to proceed, the user said:\nnot sure yet"
    assert capturer.feed(result_row("q1", text)) + capturer.end_run() == []


def test_c_each_answered_question_of_one_result_is_its_own_decision() -> None:
    """Set 2's rule 2: each answered question that settles a choice is its own item, with
    its own options not chosen, its chosen option's description and its own subjects; an
    answer that settles nothing is none."""

    def asked(question: str, header: str, *options: tuple[str, str]) -> dict[str, Any]:
        listed = [{"label": label, "description": about} for label, about in options]
        return {"question": question, "header": header, "multiSelect": False, "options": listed}

    questions = [
        asked(
            "Which date library?",
            "Dates",
            ("date-fns", "small, tree-shakeable"),
            ("moment", "large, legacy"),
        ),
        asked(
            "Where do the tests go?",
            "Tests",
            ("tests/unit", "next to the fixtures"),
            ("src/__tests__", "beside the code"),
        ),
        asked("Deploy on merge?", "CI", ("Yes", ""), ("No", "")),
    ]
    answers = {
        "Which date library?": "date-fns",
        "Where do the tests go?": "tests/unit",
        "Deploy on merge?": "not sure yet?",
    }
    text = (
        'User has answered your questions: "Which date library?"="date-fns", "Where do the '
        'tests go?"="tests/unit", "Deploy on merge?"="not sure yet?". You can now continue.'
    )
    block = {"type": "tool_result", "tool_use_id": "q1", "content": text}
    capturer = Capturer()
    capturer.feed(call_row("q1", "AskUserQuestion", {"questions": questions}))
    items = capturer.feed(
        result_row("q1", text, toolUseResult={"questions": questions, "answers": answers})
        | {"message": {"role": "user", "content": [block]}}
    )
    items += capturer.end_run()
    assert [(i["decision"], i["reason"], i["quote"], i["alternatives"]) for i in items] == [
        (
            "Which date library? → date-fns",
            "small, tree-shakeable",
            '"Which date library?"="date-fns"',
            ["moment"],
        ),
        (
            "Where do the tests go? → tests/unit",
            "next to the fixtures",
            '"Where do the tests go?"="tests/unit"',
            ["src/__tests__"],
        ),
    ]
    assert [(i["ruled_out"], i["preferred"]) for i in items] == [
        ([{"kind": "package", "value": "moment"}], [{"kind": "package", "value": "date-fns"}]),
        (
            [{"kind": "approach", "value": "src/__tests__"}],
            [{"kind": "approach", "value": "tests/unit"}],
        ),
    ]


def test_c_question_text_is_parsed_when_the_structured_result_is_missing() -> None:
    text = 'User has answered your questions: "Which database?"="SQLite". You can now continue.'
    capturer = Capturer()
    capturer.feed(call_row("q1", "AskUserQuestion", {"questions": [{"question": "Which?"}]}))
    items = capturer.feed(
        result_row("q1", text)
        | {"message": {"content": [{"type": "tool_result", "tool_use_id": "q1", "content": text}]}}
    )
    items += capturer.end_run()
    assert [(i["decision"], i["alternatives"]) for i in items] == [("Which database? → SQLite", [])]
    assert items[0]["tier"] == "structural"
    # The same text answering no call the engine knows, without the client's structured
    # result, is some tool's output: nothing.
    block = {"type": "tool_result", "tool_use_id": "q9", "content": text}
    assert Capturer().feed(result_row("q9", text) | {"message": {"content": [block]}}) == []


# --- d: prompts ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "avoid", "prefer"),
    [
        ("No, use pnpm, not npm.", "rejected", ["npm"], ["pnpm"]),
        (
            "Don't use moment for the dates, it is far too heavy for our bundle. Use date-fns "
            "instead.",
            "constraint",
            ["moment"],
            ["date-fns"],
        ),
        ("From now on always run the tests with `pytest -x`.", "constraint", [], []),
        ("不要用 npm，改成 pnpm", "rejected", ["npm"], ["pnpm"]),
        ("以后一律用 uv 安装依赖", "constraint", [], ["uv"]),
        ("别再改 README 了", "rejected", [], []),
        (
            "Let's keep the name of the py file but change the pyproject script",
            "constraint",
            [],
            [],
        ),
        ("I told you the config lives in settings.toml", "rejected", [], []),
    ],
)
def test_d_prompts_that_state_something(
    text: str, kind: str, avoid: list[str], prefer: list[str]
) -> None:
    capturer = Capturer()
    # a prompt in another language waits for the agent's reply (or the run's end)
    items = capturer.feed(prompt_row(text)) + capturer.flush()
    assert [(i["kind"], i["source"], i["by"]) for i in items] == [(kind, "prompt", "user")]
    assert (items[0]["avoid"], items[0]["prefer"]) == (avoid, prefer)
    assert items[0]["quote"] == " ".join(text.split())


def test_d_a_prompt_stating_more_rules_than_one_line_holds_gives_one_record_per_group() -> None:
    """The rules one prompt states are kept in groups that fit a record's one line (at most
    three sentences each): a fourth and fifth rule are not cut off."""
    rules = [
        "Always use pnpm, never npm, for every package in this repository.",
        "Keep the public API of the client module unchanged.",
        "Never commit generated files under dist/.",
        "Always write the tests with vitest, not jest.",
        "Don't touch the legacy folder.",
    ]
    text = "Here is how we work. " + " ".join(rules)
    capturer = Capturer()
    items = capturer.feed(prompt_row(text)) + capturer.flush()
    assert [(i["kind"], i["decision"]) for i in items] == [
        ("constraint", " … ".join(rules[:3])),
        ("constraint", " … ".join(rules[3:])),
    ]
    assert items[0]["quote"] == text
    assert items[1]["quote"] == " ".join(rules[3:])
    # three short rules stay one record, as before
    capturer = Capturer()
    assert len(capturer.feed(prompt_row(" ".join(rules[:3]))) + capturer.flush()) == 1


@pytest.mark.parametrize(
    "text",
    [
        "How can I make this possible to install as a library with `uv`?",  # a question
        "Please fix these lint errors",  # a plain request
        "Can you please add a Github Action to run tests and linting?",
        "A couple of tests are unhappy now:\n\nTraceback (most recent call last):\n"
        '  File "x.py", line 3, in <module>\n    never_do_this()\nNameError: don\'t',
        "<command-name>/clear</command-name>\n<command-message>clear</command-message>",
        "<local-command-stdout>Don't panic</local-command-stdout>",
        "[Request interrupted by user for tool use]",
        "Fair enough. Can you write a balanced opinion? Keep it same overall length as the pros.",
        "I saw that in case of BadZipFile we don't do anything (pass); could that be reported?",
        "这个函数是做什么的？",
    ],
)
def test_d_prompts_that_capture_nothing(text: str) -> None:
    assert Capturer().feed(prompt_row(text)) == []


def _agent_row(uuid: str) -> dict[str, Any]:
    message = {"role": "assistant", "content": [{"type": "text", "text": "On it."}]}
    return {"type": "assistant", "uuid": uuid, "message": message}


_RESTATED = (
    '6. All user messages:\n   - "Refactor the billing tests"\n'
    '   - "Never touch the old migrations"\n'
)


@pytest.mark.parametrize(
    ("rows", "uuid", "reason"),
    [
        # a compaction summary that starts the file (a session continued from another)
        ([{**tr.compact_summary(_RESTATED), "uuid": "s1"}], "s1",
         "restated in the compaction summary the file starts with"),
        # a message typed while the agent worked, handed to it inside its turn: read at the
        # agent's next row, also when the next hook run reads it
        ([tr.queue_operation("enqueue", "Never touch the old migrations"),
          tr.queue_operation("remove"), "next run", _agent_row("a7")], "a7",
         "typed while the agent worked"),
    ],
)  # fmt: skip
def test_d_a_directive_read_outside_a_prompt_row_is_the_users(
    rows: list[Any], uuid: str, reason: str
) -> None:
    capturer = Capturer()
    items: list[dict[str, Any]] = []
    for row in rows:
        if row == "next run":
            capturer = Capturer(capturer.to_state())
            continue
        items.extend(capturer.feed(row))
    items.extend(capturer.end_run())
    assert [(i["kind"], i["by"], i["source"], i["uuid"], i["decision"], i["reason"])
            for i in items] == [
        ("constraint", "user", "prompt", uuid, "Never touch the old migrations", reason)
    ]  # fmt: skip
    assert capturer.feed(_agent_row("a8")) == []  # once


@pytest.mark.parametrize(
    ("rows", "at"),
    [
        # a summary later in the file restates what was read already: the prompt's item
        ([tr.user("Never touch the old migrations"), tr.compact_summary(_RESTATED)], 0),
        # a queued message sent as the next prompt is read as that prompt only
        ([tr.queue_operation("enqueue", "Never touch the old migrations"),
          tr.queue_operation("dequeue"), tr.user("Never touch the old migrations")], 2),
    ],
)  # fmt: skip
def test_d_a_directive_restated_or_queued_is_read_once(rows: list[dict[str, Any]], at: int) -> None:
    capturer = Capturer()
    items = [item for row in rows for item in capturer.feed(row)]
    items += capturer.feed(_agent_row("a9")) + capturer.end_run()
    assert [(i["uuid"], i["decision"]) for i in items] == [
        (rows[at]["uuid"], "Never touch the old migrations")
    ]


def test_d_meta_sidechain_and_summary_rows_capture_nothing() -> None:
    text = "Don't use moment, use date-fns instead."
    for flag in ("isMeta", "isSidechain", "isCompactSummary"):
        capturer = Capturer()
        assert capturer.feed(prompt_row(text, **{flag: True})) + capturer.end_run() == []
    capturer = Capturer()
    assert len(capturer.feed(prompt_row(text)) + capturer.end_run()) == 1


def test_d_real_prompt_with_a_pasted_log_is_read_up_to_the_paste() -> None:
    items = by_uuid(capture(rows_of(TOKENIZER)), "10f77a3e")
    assert [(i["kind"], i["decision"]) for i in items] == [
        ("decided", "This is annoying, maybe we should use the https repo address?")
    ]
    assert "https" in items[0]["prefer"]


# --- e: the agent's own choices -------------------------------------------------------------


def test_e_real_agent_choice_is_by_agent() -> None:
    items = by_uuid(capture(rows_of(TUI)), "59c85866")
    assert [(i["kind"], i["source"], i["by"]) for i in items] == [
        ("decided", "agent-text", "agent")
    ]
    assert "patch.object" in items[0]["anchors"]
    assert "instead of directly assigning" in items[0]["decision"]


def test_e_diagnosis_and_open_options_are_not_choices() -> None:
    for text in (
        "The issue is that the function is returning None instead of `the_value`.",
        "Options: 1. Keep ScriptProcessor 2. Switch to `AudioWorklet`. Which would you prefer?",
    ):
        row = {
            "type": "assistant",
            "uuid": "a1",
            "message": {"content": [{"type": "text", "text": text}]},
        }
        assert Capturer().feed(row) == []


# --- damaged rows, bounds, state ----------------------------------------------------------


@pytest.mark.parametrize(
    "row",
    [
        None,
        3,
        "text",
        [],
        {},
        {"type": "user"},
        {"type": "user", "message": "x"},
        {"type": "user", "message": {"content": 5}},
        {"type": "assistant", "message": {"content": "x"}},
        {"type": "user", "message": {"content": [None, 1, {"type": "tool_result"}]}},
        {
            "type": "assistant",
            "message": {"content": [{"type": "tool_use", "id": 5, "input": None}]},
        },
        {"type": "summary", "summary": "Don't use npm"},
    ],
)
def test_damaged_rows_are_skipped(row: Any) -> None:
    capturer = Capturer()
    assert capturer.feed(row) == []
    assert capturer.flush() == []


def test_huge_rows_are_bounded_in_output() -> None:
    # (their cost: bench/bench_capture_cost.py, the first capture of a whole 100 MB file)
    capturer = Capturer()
    huge = "don't " + "x" * 5_000_000
    capturer.feed(prompt_row(huge))
    for number in range(500):
        capturer.feed(call_row(f"id{number}" + "k" * 100, "Bash", {"command": "y" * 100_000}))
    items = capturer.feed(result_row("id499" + "k" * 100, REJECTED + "reason:  " + "z" * 100_000))
    assert len(json.dumps(capturer.to_state()).encode()) < MAX_STATE_BYTES
    for item in items:
        assert all(len(item[f]) <= 300 for f in ("decision", "reason", "quote"))
        assert len(item["anchors"]) <= MAX_ANCHORS


def test_state_round_trip_gives_the_same_items_as_one_pass() -> None:
    rows = rows_of(TIMELINE) + rows_of(JSSOUND)
    whole = capture(rows)
    assert whole == capture(rows)  # deterministic
    pieced: list[dict[str, Any]] = []
    state: dict[str, Any] | None = None
    for start in range(0, len(rows), 37):
        capturer = Capturer(state)
        pieced.extend(item for row in rows[start : start + 37] for item in capturer.feed(row))
        state = json.loads(json.dumps(capturer.to_state()))
    pieced.extend(Capturer(state).flush())
    assert pieced == whole
    assert len(whole) >= 10


def test_an_unknown_or_broken_state_starts_afresh() -> None:
    for state in ({"v": 99, "pending": [1]}, {"v": 1, "calls": "x", "pending": "y", "prompts": -3}):
        capturer = Capturer(state)
        assert capturer.flush() == [] and capturer.prompts == 0
