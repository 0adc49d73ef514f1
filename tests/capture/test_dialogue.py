"""Prompts read against the agent's previous turn (capture/engine.py, agent_text.offer_in,
prompts.picked_option): a short reply that picks an offered option is the user's decision
with the option's own text; "Implement the following plan:" is an approved plan; the offer
is carried, bounded, in the engine's state. And what is no directive, by its shape: pasted
logs, compiler/linter/test output, warnings, hint: blocks, CI logs, diffs, code, relayed
reviews (hostile cases: each captures nothing)."""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from context_memory.capture.agent_text import MAX_OPTION_CHARS, MAX_OPTIONS, offer_in
from context_memory.capture.dialogue import reply_names
from context_memory.capture.engine import MAX_STATE_BYTES, Capturer
from helpers import transcript_rows as tr
from helpers.real_fixture import SLOPOMETRY, real_lines


def agent_row(text: str, uuid: str = "a1") -> dict[str, Any]:
    return {
        "type": "assistant",
        "uuid": uuid,
        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
    }


def prompt_row(text: str, uuid: str = "p1") -> dict[str, Any]:
    return {"type": "user", "uuid": uuid, "message": {"role": "user", "content": text}}


def typed(text: str) -> list[dict[str, Any]]:
    """What one prompt gives by the end of the run (an item waits for the agent's reply)."""
    capturer = Capturer()
    return [*capturer.feed(prompt_row(text)), *capturer.end_run()]


OFFER = (
    "Two ways to store the sessions:\n\n"
    "1. **SQLite** - one file, no server\n"
    "2. **Postgres** - needs a server, scales further\n\n"
    "I'd recommend option 1 for now. Which do you prefer?"
)


def reply_to(offer: str, reply: str) -> list[dict[str, Any]]:
    capturer = Capturer()
    assert capturer.feed(agent_row(offer)) == []
    # An item waits for the agent's reply: the run's end gives it (Stop).
    assert capturer.feed(prompt_row(reply)) == []
    return capturer.end_run()


def test_real_reply_lets_do_2_is_the_decision_with_the_options_text() -> None:
    capturer = Capturer()
    every = [item for line in real_lines(SLOPOMETRY) for item in capturer.feed(json.loads(line))]
    every += capturer.end_run()
    items = [i for i in every if i["uuid"] == "ef7547b8-c5fe-4661-950e-44a19a0a55e1"]
    assert [(i["kind"], i["by"], i["source"], i["tier"]) for i in items] == [
        ("decided", "user", "prompt", "stated")
    ]
    assert (
        items[0]["decision"] == "chose option 2: Replace it with the compact 2-line version above"
    )
    assert items[0]["quote"] == "lets do 2"


@pytest.mark.parametrize(
    ("reply", "chosen"),
    [
        ("2", "option 2: Postgres - needs a server, scales further"),
        ("the first one", "option 1: SQLite - one file, no server"),
        ("1번으로 진행해줘", "option 1: SQLite - one file, no server"),
        ("方案二", "option 2: Postgres - needs a server, scales further"),
        ("yes, do that", "option 1: SQLite - one file, no server"),  # the recommended one
        ("that would be perfect", "option 1: SQLite - one file, no server"),
    ],
)
def test_a_short_reply_to_offered_options_is_the_users_decision(reply: str, chosen: str) -> None:
    items = reply_to(OFFER, reply)
    assert [(i["kind"], i["by"], i["source"]) for i in items] == [("decided", "user", "prompt")]
    assert items[0]["decision"] == f"chose {chosen}"
    assert items[0]["quote"] == reply
    # The reason names what the options answer: the line that introduced them.
    assert items[0]["reason"] == (
        "the user's reply to the options the agent offered: Two ways to store the sessions:"
    )


def test_a_yes_to_a_proposal_with_an_alternative_takes_the_proposal() -> None:
    items = reply_to("The tests pass. Would you like me to use pnpm instead of npm?", "yes")
    assert [i["decision"] for i in items] == ["chose Would you like me to use pnpm instead of npm?"]
    assert items[0]["preferred"] == [{"kind": "command", "value": "pnpm"}]
    assert items[0]["ruled_out"] == [{"kind": "command", "value": "npm"}]


def test_a_yes_to_a_go_ahead_after_a_recommendation_with_an_alternative_takes_it() -> None:
    agent = "The cache is slow. I'd suggest switching to SQLite for the cache. Shall I go ahead?"
    items = reply_to(agent, "yes")
    assert [i["decision"] for i in items] == [
        "chose I'd suggest switching to SQLite for the cache."
    ]
    # a go-ahead after a plain report, or after a recommendation with no alternative: nothing
    assert reply_to("I fixed the tests. Shall I go ahead?", "yes") == []
    assert reply_to("I recommend we keep it as is. Shall I proceed?", "yes") == []


@pytest.mark.parametrize(
    ("agent", "reply"),
    [
        (OFFER, "2?"),  # a question about the option
        (OFFER, "option 5"),  # not offered
        ("Done:\n1. Fixed the parser\n2. Added a test\n", "1"),  # a summary, no question
        ("Shall I commit these changes?", "yes"),  # a plain task, no alternative
        ("", "2"),  # nothing offered
    ],
)
def test_a_reply_that_picks_nothing_offered_captures_nothing(agent: str, reply: str) -> None:
    capturer = Capturer()
    if agent:
        capturer.feed(agent_row(agent))
    assert capturer.feed(prompt_row(reply)) == []


def test_the_offer_is_the_latest_text_and_one_reply_uses_it_up() -> None:
    capturer = Capturer()
    capturer.feed(agent_row(OFFER))
    capturer.feed(agent_row("Let me check the database drivers first.", "a2"))
    assert capturer.feed(prompt_row("2")) == []  # the later text offered nothing
    capturer.feed(agent_row(OFFER, "a3"))
    assert capturer.feed(prompt_row("2", "p2")) == []  # waits for the agent's reply
    assert len(capturer.end_run()) == 1
    assert capturer.feed(prompt_row("2", "p3")) == []  # answered already
    assert capturer.end_run() == []


def test_the_offer_is_carried_across_runs_and_bounded() -> None:
    first = Capturer()
    first.feed(agent_row(OFFER))
    second = Capturer(first.to_state())
    items = [*second.feed(prompt_row("2")), *second.end_run()]
    assert [i["decision"] for i in items] == [
        "chose option 2: Postgres - needs a server, scales further"
    ]
    many = "\n".join(f"{n}. " + "x" * 300 for n in range(1, 10)) + "\nWhich one?"
    offer = offer_in(many)
    assert len(offer["options"]) == MAX_OPTIONS  # type: ignore[arg-type]
    assert all(len(o[1]) == MAX_OPTION_CHARS for o in offer["options"])  # type: ignore[attr-defined]
    third = Capturer()
    third.feed(agent_row(many))
    assert len(json.dumps(third.to_state()).encode()) < MAX_STATE_BYTES
    broken = Capturer({"v": 2, "dialogue": {"offer": {"options": [[1, 2], "x"], "rec": 7}}})
    assert broken.to_state()["dialogue"] == {"offer": {}, "held": [], "calls_named": 0}


def test_offered_options_are_read_from_the_agents_shapes() -> None:
    assert offer_in(
        "### Option A: Keep the cache\nfast\n### Option B: Drop it (recommended)\nsimple\n"
        "What do you think?"
    ) == {
        "options": [["a", "Keep the cache"], ["b", "Drop it (recommended)"]],
        "rec": "b",
        "question": "What do you think?",  # no line introduces them: the text's question
    }
    assert offer_in("方案一：保留缓存\n方案二：去掉缓存\n你选哪个？") == {
        "options": [["1", "保留缓存"], ["2", "去掉缓存"]],
        "question": "你选哪个？",
    }
    # The line that introduces the options says what they answer.
    assert (
        offer_in("Which tag for the first release?\n1. v0.1.0\n2. v1.0.0\nPick one.")["question"]
        == "Which tag for the first release?"
    )


@pytest.mark.parametrize(
    ("text", "options"),
    [
        # a word and its label joined by a hyphen or a number sign
        ("Option-1: keep the cron job\nOption-2: a systemd timer\nWhich do you prefer?", "12"),
        ("Approach #1: a vendored copy\nApproach #2: a git submodule\nWhich one?", "12"),
        # other words for an option, in bold, with a dash
        ("- **Plan A** — rewrite it in Rust\n- **Plan B** — optimise the Python\nThoughts?", "ab"),
        ("**Solution 1:** a queue\n**Solution 2:** polling\nLet me know.", "12"),
        ("**Option A.** keep it\n**Option B.** drop it\nWhich?", "ab"),
        ("Lösung 1: ein Cache\nLösung 2: kein Cache\nWelche nehmen wir?", "12"),
        ("방법 1: 캐시 유지\n방법 2: 캐시 삭제\n어느 쪽이 좋을까요?", "12"),
        # keycap emoji numbers
        ("I can:\n1\ufe0f\u20e3 add a cache\n2\ufe0f\u20e3 batch the queries\nWhich one?", "12"),
    ],
)
def test_option_lines_in_the_agents_other_markdown_shapes(text: str, options: str) -> None:
    offered = offer_in(text)["options"]
    assert [label for label, _ in offered] == list(options)  # type: ignore[union-attr]


def test_steps_and_phases_are_no_options() -> None:
    assert offer_in("Step 1: build it\nStep 2: test it\nOK?") == {}
    assert offer_in("Phase 1: the parser\nPhase 2: the checker\nReady?") == {}
    assert offer_in("Plan 2024: the old roadmap\nPlan 2025: the new one\nOK?") == {}


@pytest.mark.parametrize("reply", ["Go ahead with option-2.", "option #2", "#2", "solution 2"])
def test_a_reply_names_an_option_with_its_word_and_a_mark(reply: str) -> None:
    offer = "Solution 1: keep the cron job\nSolution 2: a systemd timer\nWhich do you prefer?"
    (item,) = reply_to(offer, reply)
    assert (item["kind"], item["decision"]) == ("decided", "chose option 2: a systemd timer")


@pytest.mark.parametrize(
    ("reply", "picked"),
    [
        ("postgres", "chose option 2: Postgres - needs a server, scales further"),
        ("ok, let's go with sqlite", "chose option 1: SQLite - one file, no server"),
    ],
)
def test_a_reply_naming_an_offered_option_is_its_choice(reply: str, picked: str) -> None:
    (item,) = reply_to(OFFER, reply)
    assert (item["kind"], item["by"], item["decision"]) == ("decided", "user", picked)
    assert reply_to(OFFER, "postgres has been slow for us") == []  # a statement, no choice


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Should I use SQLite or plain JSON files for the cache?", ["SQLite", "plain JSON files"]),
        ("Do you want the report as HTML or as a PDF?", ["HTML", "PDF"]),
        ("Should I use `httpx` or `requests`?", ["httpx", "requests"]),
        ("Which do you prefer, tabs or spaces?", ["tabs", "spaces"]),
    ],
)
def test_two_options_named_in_one_question_are_an_offer(question: str, options: list[str]) -> None:
    offer = offer_in(f"The parser is done. {question}")
    assert offer == {"options": [["1", options[0]], ["2", options[1]]], "question": question}


@pytest.mark.parametrize(
    "question",
    [
        "Is it a bug in the parser or in the lexer?",  # a question of fact
        "Should I continue or stop here?",  # the flow of the work
        "Do you want me to commit this or not?",
        "Want me to fix the tests now or later?",
        "Would you like me to verify the file contents are correct, or are you ready to test?",
        "Should I use SQLite, JSON or YAML?",  # not two
        "The parser or the lexer fails?",  # asks nobody to choose
    ],
)
def test_a_question_with_an_or_that_names_no_two_options_offers_nothing(question: str) -> None:
    assert offer_in(question) == {}


def test_a_reply_naming_one_of_two_options_in_a_question_is_its_choice() -> None:
    agent = "Should I use SQLite or plain JSON files for the cache?"
    (item,) = reply_to(agent, "json")
    assert (item["kind"], item["by"], item["decision"]) == (
        "decided",
        "user",
        "chose option 2: plain JSON files",
    )
    assert item["reason"] == f"the user's reply to the options the agent offered: {agent}"
    assert reply_to(agent, "yes") == []  # a yes picks neither


def test_a_summary_whose_only_question_mark_is_in_code_offers_nothing() -> None:
    # A report of numbered changes, a "?" only in code: it asks the user nothing, so a
    # next prompt that happens to name a heading's word is no pick.
    report = (
        'Done. Here\'s what changed:\n\n1. **Auto-detect**: `pr_input` is optional (`nargs="?"`)\n'
        "2. **Cleaner reinstall**: use\n```bash\nuv tool upgrade --reinstall tool  # why?\n```\n"
        "Everything works now!"
    )
    assert offer_in(report) == {}
    capturer = Capturer()
    capturer.feed(agent_row(report))
    assert capturer.feed(prompt_row("Let's update the readme with the working reinstall")) == []
    # The same list with a question in prose is an offer.
    assert offer_in(report + " Which one should I document first?")["options"] == [
        ["1", 'Auto-detect: `pr_input` is optional (`nargs="?"`)'],
        ["2", "Cleaner reinstall: use"],
    ]


def test_implement_the_following_plan_is_an_approved_plan() -> None:
    text = "Implement the following plan:\n\n# Plan: Move the cache to SQLite\n\n1. Add a table"
    items = Capturer().feed(prompt_row(text))
    assert [(i["kind"], i["by"], i["source"]) for i in items] == [("decided", "user", "plan")]
    assert items[0]["decision"] == "approved plan: Plan: Move the cache to SQLite 1. Add a table"


# --- what is no directive, by its shape -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # npm deprecation output
        "npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory. "
        "Do not use it. Check out lru-cache if you want a good and tested way to coalesce.",
        "inflight@1.0.6: This module is not supported. Do not use it.",
        # a Python DeprecationWarning
        "/usr/lib/python3/site-packages/x/api.py:12: DeprecationWarning: never call "
        "load() without a Loader, always pass one",
        "DeprecationWarning: datetime.utcnow() is deprecated; use timezone-aware objects instead",
        # a CI log
        "2026-01-02T03:04:05.678Z ##[error]Process completed with exit code 1. Always check it",
        "Run actions/setup-node@v4\nFound in cache\nnpm ERR! you must use node 20",
        # a hint: block
        "hint: Updates were rejected because the tip of your current branch is behind\n"
        "hint: its remote counterpart. Make sure to integrate the remote changes\n"
        "hint: (e.g. 'git pull ...') before pushing again.",
        # compiler, linter and test output
        "src/app.ts:12:5 - error TS2322: Type 'string' must be 'number'.",
        "E501 Line too long (101 > 100): never exceed 100",
        "FAIL tests/api.test.ts > never returns null",
        # a stack trace
        'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n'
        "ValueError: you must not pass None",
        # a diff
        "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-always = 1\n+never = 2",
        # code
        "def handle(request):\n    # never cache this, always recompute\n    return compute()",
        # a review relayed from elsewhere, after the line that introduces it
        "Here is the review from the other model:\nYou must not use global state. Always "
        "inject the clock. Don't use moment, use date-fns instead.",
        # a quoted document
        "> Never store secrets in the repo. Always use the vault.",
        "## Security policy\nNever store secrets in the repo.",
        # an HTTP request line of a log
        "GET /api/users 500 - never cache this",
        'PUT https://api.example.com/items/3 409: "always send an etag"',
        # tool prefixes, lowercase or a logger's capitals
        "note: required because you must use the trait here",
        "INFO:root:never retry, always fail fast",
        "Error: you must install the peer dependency first",
        # code, its keyword lowercase
        "const rules = {\n  neverPush: true, // never push to main\n}",
        # a shell that cannot find a program
        "Command 'flow' not found, but can be installed with:\nsudo snap install flow",
        "zsh: command not found: uv, never mind it",
        "bash: pnpm: command not found, not installed but listed",
        # stack frames
        "    at Object.<anonymous> (/app/never.js:1:1)",
        "at com.example.Always.run(Always.java:10)",
    ],
)
def test_pasted_output_logs_code_and_relayed_text_capture_nothing(text: str) -> None:
    assert Capturer().feed(prompt_row(text)) == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Put the fix in a new branch, not main.", "decided"),
        ("Delete the old tests, we don't need them.", "rejected"),
        ("Head over to the config and never hard-code the port.", "constraint"),
        # a typed heading word: a tool writes "note:" and "INFO:", a user "Note:" and "NOTE:"
        ("Note: never push to main.", "constraint"),
        ("NOTE: always run the linter first.", "constraint"),
        ("Hint: stick to the standard library.", "constraint"),
        # a line ending in a colon that starts with a code keyword's word, in a sentence
        ("Let me explain what I want:\n- use pnpm\n- never push to main", "constraint"),
        ("Return the list as JSON:\nnever as CSV.", "constraint"),
        # "at" starts a stack frame only before a frame's name: "at foo (x.js:1:2)"
        ("At least don't break the CLI.", "constraint"),
        ("at the moment we use npm, never yarn", "constraint"),
    ],
)
def test_a_typed_line_with_a_paste_lines_first_word_is_typed(text: str, kind: str) -> None:
    # "Put", "Delete", "Head" start a paste only as a log's request line: "PUT /x", in capitals
    assert [i["kind"] for i in typed(text)] == [kind]


@pytest.mark.parametrize(
    "text",
    [
        "Please do the following:\n1. Use pnpm\n2. Never push to main",
        "Here are my rules:\n- never push to main\n- use pnpm",
        "Here is what I want:\n- never push to main\n- keep it in one file",
        "Requirements below:\n- it must run offline",
        # "the following rules / requirements" introduce the user's own list, not a relay
        "以下のルールを守ってください：\n- 常に日本語で回答してください",
        "次の要件でお願いします：\n- 必ずテストを書いてください",
    ],
)
def test_a_list_the_user_introduces_is_the_users_own_words(text: str) -> None:
    assert [i["kind"] for i in typed(text)] == ["constraint"]


@pytest.mark.parametrize(
    "text",
    [
        "Here is the error:\nnever call load() without a Loader",
        "Codex says:\nnever use global state",
        "The following is from ChatGPT:\nnever use global state",
        "Here is what my teammate wrote:\nalways squash before merging",
        "报错如下：\n不要用 npm",
        "以下のエラーが出ます：\nmain に直接プッシュしないでください",
    ],
)
def test_a_line_that_names_what_it_relays_ends_the_users_words(text: str) -> None:
    assert typed(text) == []


def test_an_indented_list_item_is_the_users_own_words() -> None:
    items = typed("A few rules:\n    - never push to main\n    - use pnpm")
    assert [(i["kind"], i["decision"]) for i in items] == [
        ("constraint", "never push to main … use pnpm")
    ]


def test_a_long_pasted_document_keeps_only_its_short_first_paragraph() -> None:
    doc = "\n".join(f"Step {n}: the service must restart and must log." for n in range(14))
    assert typed(f"what do you think of this design?\n\n{doc}") == []
    items = typed(f"Let's use this design, keep it short.\n\n{doc}")
    assert [i["decision"] for i in items] == ["Let's use this design, keep it short."]


BRIEF = (
    "# Task: move the settings page to the new form library\n\n"
    "## Context\n"
    "The settings page still builds its forms by hand. The profile page was moved last week.\n\n"
    "## Current code\n"
    "```tsx\nconst form = buildForm(fields);\n```\n\n"
    "| field | type |\n|---|---|\n| name | text |\n\n"
    "## Requirements\n"
    "- Use react-hook-form for every form on the page.\n"
    "- Don't add any other dependency.\n"
)


def test_a_prompt_that_opens_with_a_heading_is_the_users_brief_read_whole() -> None:
    # headings, a fenced block and a table no longer end the reading: the rules under
    # "## Requirements" are the user's
    items = typed(BRIEF)
    assert [(i["kind"], i["decision"], i["preferred"]) for i in items] == [
        (
            "constraint",
            "Use react-hook-form for every form on the page. … Don't add any other dependency.",
            [{"kind": "package", "value": "react-hook-form"}],
        )
    ]
    # no document cut: a rule fourteen lines down is still read
    steps = "\n".join(f"Step {n} restarts the worker." for n in range(14))
    items = typed(f"# Plan review\n\n{steps}\n\n## Rules\nNever push to main directly.\n")
    assert [i["decision"] for i in items] == ["Never push to main directly."]
    # a rule after a long fenced block is still read: the block is left out of what the
    # patterns see, not of what the brief holds
    dump = "\n".join(f"{n:05} worker restarted" for n in range(600))
    assert len(dump) > 6000
    items = typed(f"# Review\n\n```\n{dump}\n```\n\n## Rules\nNever push to main directly.\n")
    assert [i["decision"] for i in items] == ["Never push to main directly."]
    # a one-line heading is read as its text
    items = typed("# always use pnpm")
    assert [(i["kind"], i["decision"], i["preferred"]) for i in items] == [
        ("constraint", "always use pnpm", [{"kind": "command", "value": "pnpm"}])
    ]


@pytest.mark.parametrize(
    "text",
    [
        # a section whose heading names relayed text is left out whole
        "## Error output\nThe build must fail when the lock is stale.\nDo not use the cache.\n",
        "# Review from Codex\nYou should always use pnpm here.\n",
        # fenced output under a heading is no directive
        "# Build broke\n```\nError: do not use it.\n"
        "npm WARN deprecated left-pad: Do not use it.\n```\n",
    ],
)
def test_relayed_text_and_output_in_a_brief_are_no_directives(text: str) -> None:
    assert typed(text) == []


@pytest.mark.parametrize(
    "text", ["can we rebase on main, please?", "can we test something", "no i dont ugh"]
)
def test_requests_and_impatience_are_no_decisions_or_rejections(text: str) -> None:
    assert typed(text) == []


def test_prompt_directives_are_typed_stated_with_subjects() -> None:
    items = typed("No, use pnpm, not npm.")
    assert [(i["tier"], i["ruled_out"], i["preferred"]) for i in items] == [
        ("stated", [{"kind": "command", "value": "npm"}], [{"kind": "command", "value": "pnpm"}])
    ]
    capturer = Capturer()
    items = capturer.feed(prompt_row("不要用 npm，改成 pnpm")) + capturer.flush()
    assert [(i["ruled_out"], i["preferred"]) for i in items] == [
        ([{"kind": "command", "value": "npm"}], [{"kind": "command", "value": "pnpm"}])
    ]
    # nothing a call can act on: one approach subject, which only reminds
    capturer = Capturer()
    items = capturer.feed(prompt_row("지금부터 모든 답변을 한글로 해줘")) + capturer.flush()
    assert [(i["kind"], i["ruled_out"], i["preferred"]) for i in items] == [
        ("constraint", [], [{"kind": "approach", "value": "지금부터 모든 답변을 한글로 해줘"}])
    ]
    assert "korean" in items[0]["anchors"]


# --- the agent's own settled choices (agent_text.settled_choice) ----------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Since the mock is only used in tests, let's go with **Option A** and pin `undici` to 5.",
        "Both checks replaced with `command -v` (a lookup, no execution).",
        "我需要修改 `Dropdown.vue`，使用 `optionClick` 來代替 `update:modelValue`。",
    ],
)
def test_the_agents_choice_it_acts_on_is_its_decision(text: str) -> None:
    items = Capturer().feed(agent_row(text))
    assert [(i["kind"], i["by"], i["source"]) for i in items] == [
        ("decided", "agent", "agent-text")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "| `a.xml:11` | label typed in place | 改用 `@string/app_name` |",  # a table of changes
        "Would you like me to use `pnpm` instead of `npm`?",  # still open
        "The issue is that `parse()` returns None instead of a list.",  # a diagnosis
    ],
)
def test_tables_questions_and_diagnoses_are_no_agent_choice(text: str) -> None:
    assert Capturer().feed(agent_row(text)) == []


SET2 = Path(__file__).resolve().parents[1] / "fixtures" / "decision-labels-2" / "transcripts"


@functools.cache
def _items_by_row(part: str) -> dict[str, list[dict[str, Any]]]:
    """The items of each row of one set-2 transcript (at the row they name: an item may
    wait for the agent's reply), fed in file order."""
    (path,) = [p for p in SET2.glob("*.jsonl.gz") if part in p.name]
    capturer = Capturer()
    found: dict[str, list[dict[str, Any]]] = {}
    items: list[dict[str, Any]] = []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            items += capturer.feed(row)
            if isinstance(row.get("uuid"), str):
                found[row["uuid"]] = []
    for item in [*items, *capturer.end_run()]:
        found.setdefault(str(item["uuid"]), []).append(item)
    return found


@pytest.mark.parametrize(
    ("part", "uuid"),
    [
        # a GitHub Actions log pasted as the prompt (2.0.x)
        ("jwt-auth-client-js", "7e440c9b-3757-4d81-bba0-82448a12c979"),
        # test output with a Vite deprecation warning, after "On node 16,"
        ("jwt-auth-client-js", "c1fc53a2-e2d5-4ee3-8ded-3a52f8ba327c"),
        # a CI step's output: "MISSING DEPENDENCY Cannot find dependency ..."
        ("jwt-auth-client-js", "300ad017-6314-4697-a5c8-a99ebb1f4b49"),
        # a VS Code Dev Containers log
        ("dashboard-mictlan", "06807434-4e3b-4df0-8fbf-20fc7a3e11ac"),
        # a question followed by a pasted install log
        ("hugopuybareau-dotfiles", "1c57533a-6378-43de-8c82-4829d6ed37e6"),
    ],
)
def test_real_pasted_logs_and_output_capture_nothing(part: str, uuid: str) -> None:
    assert _items_by_row(part)[uuid] == []


def test_a_directive_in_another_language_takes_the_names_of_the_agents_reply() -> None:
    first = Capturer()
    assert first.feed(prompt_row("以后都用中文回复，并且不要再创建新的工作树")) == []  # held
    second = Capturer(first.to_state())  # carried across runs
    reply = "好的，以后用中文回复。我不会再用 `git worktree add` 创建新的 worktree。"
    assert second.feed(agent_row(reply)) == []  # held for the rest of the agent's turn
    items = second.end_run()  # the hook's run ends: the turn is over
    assert [(i["kind"], i["source"], i["uuid"]) for i in items] == [("rejected", "prompt", "p1")]
    assert {"git worktree add", "worktree", "chinese"} <= set(items[0]["anchors"])
    assert second.flush() == []


@pytest.mark.parametrize(
    "sentence",
    [
        "The user wants the dashboard as one HTML file.",
        "User wants the dashboard as one HTML file.",
        "User prefers the dashboard as one HTML file.",
    ],
)
def test_the_thinkings_sentence_about_the_user_gives_its_words(sentence: str) -> None:
    from context_memory.capture.dialogue import thinking_gist

    thinking = (
        f"Reading the files. Then styles. Checking the layout next. {sentence} I'll write it."
    )
    # the first two sentences (what it is about to do) and the one about the user
    assert thinking_gist(thinking) == [
        "reading",
        "files",
        "styles",
        "dashboard",
        "one",
        "html",
        "file",
    ]
    assert thinking_gist("Reading the files. Then styles. Checking the layout next.") == [
        "reading",
        "files",
        "styles",
    ]


def test_the_list_a_sentence_about_the_user_introduces_gives_its_words_too() -> None:
    from context_memory.capture.dialogue import thinking_gist

    thinking = (
        "The user is clarifying:\n1. The folder is docs/ (plural)\n"
        "2. This template is only for internal decks\n\nLet me check the layout.\n- unrelated"
    )
    assert thinking_gist(thinking) == [
        "folder", "docs", "plural", "template", "only", "internal", "decks",
    ]  # fmt: skip
    # A list after a sentence that is not about the user gives nothing.
    listed = "Reading it. Checking more. Let me plan:\n1. The folder is docs/\n2. Templates"
    assert thinking_gist(listed) == ["reading", "checking", "more"]


def test_a_held_directive_takes_the_words_of_the_agents_thinking_and_calls() -> None:
    capturer = Capturer()
    assert capturer.feed(prompt_row("把这个脚本包装成一个命令行工具")) == []
    thinking = {
        "type": "assistant",
        "uuid": "a0",
        "message": {
            "id": "msg_t",
            "role": "assistant",
            "model": "claude-sonnet-4-6",
            "content": [
                {
                    "type": "thinking",
                    "thinking": "Reading the repo. Checking its tree. Let me look at the "
                    "layout first. The user wants the script wrapped as a command-line tool "
                    "with its own entry point.",
                },
                {
                    "type": "tool_use",
                    "id": "toolu_w1",
                    "name": "Write",
                    "input": {"file_path": "/repo/bin/report_cli.py", "content": "x"},
                },
            ],
        },
    }
    assert capturer.feed(thinking) == []
    (item,) = capturer.end_run()
    anchors = item["anchors"]
    # The first two sentences and the one about the user give their words; the third
    # gives none (at most MAX_GIST_WORDS of them).
    assert anchors[:8] == [
        "reading", "repo", "checking", "tree", "script", "wrapped", "command-line", "tool",
    ]  # fmt: skip
    assert "layout" not in anchors
    assert "repo/bin/report_cli.py" in anchors  # the file the agent wrote in answer


def test_a_held_directive_takes_the_words_of_the_calls_own_prose() -> None:
    capturer = Capturer()
    assert capturer.feed(prompt_row("以后都让每个成员用自己的工作树")) == []
    todo, _ = tr.tool_call(
        "TodoWrite", {"todos": [{"content": "Create a separate worktree per teammate"}]}
    )
    bash, _ = tr.tool_call(
        "Bash", {"command": "git worktree add ../x-scratch", "description": "Add isolated tree"}
    )
    assert capturer.feed(todo) == [] and capturer.feed(bash) == []
    (item,) = capturer.end_run()
    assert {"create", "separate", "worktree", "teammate", "isolated"} <= set(item["anchors"])
    assert "scratch" not in item["anchors"]  # the command's words are its names, not prose


def test_only_the_agents_first_calls_name_a_held_directive() -> None:
    from context_memory.capture.dialogue import MAX_NAMING_CALLS

    capturer = Capturer()
    assert capturer.feed(prompt_row("以后都先跑测试再提交")) == []
    paths = [f"/repo/src/module_{n}.py" for n in range(MAX_NAMING_CALLS + 2)]
    for path in paths:
        call, _ = tr.tool_call("Write", {"file_path": path, "content": "x = 1"})
        assert capturer.feed(call) == []
        capturer = Capturer(capturer.to_state())  # also across runs
    (item,) = capturer.end_run()
    named = [p.lstrip("/") for p in paths if p.lstrip("/") in item["anchors"]]
    assert named == [p.lstrip("/") for p in paths[:MAX_NAMING_CALLS]]


def test_what_is_captured_behind_a_held_directive_keeps_the_order_of_its_rows() -> None:
    # A directive in Chinese waits for the agent's reply; a rejection the user types in the
    # same turn is later, so its record must be written later (it supersedes what it
    # contradicts: the later record wins).
    capturer = Capturer()
    assert capturer.feed(prompt_row("以后都用 npm 安装依赖")) == []
    call, call_id = tr.tool_call("Bash", {"command": "npm i x"})
    text = (
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. "
        "if it was a file edit, the new_string was NOT written to the file). To tell you how "
        "to proceed, the user said:\nno, use pnpm"
    )
    rejected = tr.tool_result(call_id, text, is_error=True)
    assert capturer.feed(call) == []
    assert capturer.feed(rejected) == []  # behind the held directive
    items = capturer.end_run()
    assert [(i["uuid"], i["kind"]) for i in items] == [
        ("p1", "constraint"),
        (rejected["uuid"], "rejected"),
    ]
    assert all("_behind" not in i for i in items)
    assert "npm" in items[0]["anchors"] and "pnpm" not in items[0]["anchors"]


def test_an_english_directive_takes_the_replys_words_after_its_own() -> None:
    from context_memory.memory.decisions import make_captured_record

    capturer = Capturer()
    assert capturer.feed(prompt_row("Install it and test localy before you push to `main`")) == []
    thinking = [{"type": "thinking", "thinking": "The user wants me to run the tests locally."}]
    assert capturer.feed(tr.assistant("msg_t", tr.usage(), content=thinking)) == []
    (item,) = capturer.end_run()
    assert item["anchors"][0] == "main"  # the user's own first
    assert "locally" in item["anchors"]  # the agent's word for what was typed
    record = make_captured_record(item, session="s1")
    # The audit looks for the user's own words only.
    assert record["keywords"] == ["main"]
    assert "locally" in record["anchors"]


def test_a_held_directive_leaves_at_the_next_prompt_without_a_reply() -> None:
    capturer = Capturer()
    assert capturer.feed(prompt_row("必须先跑测试再提交")) == []
    items = capturer.feed(prompt_row("继续", "p2"))
    assert [(i["kind"], i["uuid"]) for i in items] == [("constraint", "p1")]


def test_reply_names_are_identifiers_and_the_latin_words_of_a_reply_in_another_script() -> None:
    assert reply_names("I'll use `date-fns` and update src/app.ts and parseDate, done.") == [
        "date-fns",
        "src/app.ts",
        "parsedate",
    ]
    assert reply_names("好的，我会用 worktree 和 skill 来处理") == ["worktree", "skill"]


def test_stop_runs_carry_the_offer_and_write_typed_records(tmp_path: Path) -> None:
    """Through the store, as the Stop hook runs it: the offer written in one turn is picked
    in the next run; a Korean directive is written once the agent has replied."""
    from context_memory.capture.store import capture_session

    state = tmp_path / ".working-state"
    state.mkdir()
    session = "0b7c3a52-52f4-4c1e-9d55-4a7f3f1d2e10"
    path = tmp_path / f"{session}.jsonl"

    def append(*rows: dict[str, Any]) -> None:
        with path.open("a", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")

    def records() -> list[dict[str, Any]]:
        lines = (state / "decisions.jsonl").read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines]

    append(prompt_row("How should we store the sessions?", "p0"), agent_row(OFFER, "a0"))
    assert capture_session(str(state), session, str(path)).added == []
    append(prompt_row("2", "p1"), agent_row("Postgres it is.", "a1"))
    capture_session(str(state), session, str(path))
    append(
        prompt_row("지금부터 모든 답변을 한글로 해줘", "p2"),
        agent_row("네, 지금부터 한글로 답변하겠습니다. `README.md`도 한글로 쓰겠습니다.", "a2"),
    )
    capture_session(str(state), session, str(path))
    written = [(r["uuid"], r["kind"], r["by"], r["source"], r.get("tier")) for r in records()]
    assert written == [
        ("p1", "decided", "user", "prompt", "stated"),
        ("p2", "constraint", "user", "prompt", "stated"),
    ]
    first, second = records()
    assert first["decision"] == "chose option 2: Postgres - needs a server, scales further"
    korean = "지금부터 모든 답변을 한글로 해줘"
    assert second["preferred"] == [{"kind": "approach", "value": korean}]
    assert {"korean", "readme.md"} <= set(second["anchors"])


def test_an_english_reply_to_a_directive_in_another_language_gives_its_words() -> None:
    from context_memory.capture.dialogue import reply_gist

    capturer = Capturer()
    assert capturer.feed(prompt_row("以后都先跑测试再提交")) == []
    reply = "Got it: from now on I will run the tests before each commit. Starting with pytest."
    assert capturer.feed(agent_row(reply)) == []
    (item,) = capturer.end_run()
    assert {"run", "tests", "before", "commit"} <= set(item["anchors"])
    # A reply in the message's own language gives its names only, not its words.
    assert reply_gist("好的，以后先跑 tests 再提交。") == []
    assert reply_gist(reply) == ["run", "tests", "before", "each", "commit", "starting", "pytest"]
