"""A prompt no rule reads, acknowledged by the agent's first words in reply
(capture/acknowledged.py): the user's decision in the user's words, with no subjects;
nothing when the reply opens otherwise, comes after a call, or the prompt was read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from context_memory.capture.acknowledged import (
    MAX_ACKED_PROMPT,
    acknowledged_item,
    acknowledgement,
)
from context_memory.capture.engine import Capturer
from context_memory.handlers.extract import main as extract_main
from helpers import transcript_rows as tr
from helpers.cli_run import run_hook_main
from helpers.hook_payloads import decisions_log, stop_payload
from helpers.installed import installed_with_project

# No rule reads it ("one image per service" would be a constraint: a single X per Y)
PROMPT = "a single image for each service, built from the repo root"


def prompt_row(text: str, uuid: str = "p1") -> dict[str, Any]:
    return {
        "type": "user",
        "uuid": uuid,
        "timestamp": "2026-01-02T03:04:05Z",
        "message": {"role": "user", "content": text},
    }


def agent_row(*blocks: dict[str, Any], uuid: str = "a1") -> dict[str, Any]:
    return {
        "type": "assistant",
        "uuid": uuid,
        "message": {"role": "assistant", "content": list(blocks)},
    }


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def call(call_id: str = "t1") -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": "ls"}}


def run(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    capturer = Capturer()
    items = [item for row in rows for item in capturer.feed(row)]
    return items + capturer.end_run()


# Openings that answer a task as well as a rule, or say nothing of the prompt: no entry.
NOT_ACKS = [
    "Got it, let me fix the failing test.",
    "Sure! Here is the updated function.",
    "OK, running the build now.",
    "Good question. The cache is invalidated on write.",
    "I'll look into it.",
    "Perfect, the tests pass.",
    "好的，我来修复这个问题。",
    "明白吗？",
    "Let me check: you're right that the file exists, but",
]


@pytest.mark.parametrize("reply", NOT_ACKS)
def test_a_reply_that_opens_otherwise_acknowledges_nothing(reply: str) -> None:
    assert acknowledgement(reply) == ""


def test_an_acknowledged_prompt_is_the_users_decision_in_their_words() -> None:
    items = run(
        [prompt_row(PROMPT), agent_row(text("You're right, a single image for each service."))]
    )
    assert len(items) == 1
    item = items[0]
    assert (item["kind"], item["by"], item["source"], item["tier"]) == (
        "decided",
        "user",
        "prompt",
        "stated",
    )
    assert item["decision"] == PROMPT
    assert item["quote"] == PROMPT
    assert item["uuid"] == "p1"
    assert item["reason"] == "the agent's reply took it as settled: You're right"
    # Words no rule reads rule nothing out: the guard never asks on this record.
    assert item["ruled_out"] == [] and item["preferred"] == []
    # Plain words name nothing of their own; the reply's first words join (a held item).
    assert (item["anchors"], item["own_anchors"]) == (["single", "image", "each", "service"], 0)


def test_a_reply_in_another_language_names_the_prompt_it_acknowledges() -> None:
    prompt = "以后部署都走容器，每个服务单独一个镜像"
    reply = "明白了。我会为每个服务单独构建 `Dockerfile`，采用 container-first 的方式。"
    items = run([prompt_row(prompt), agent_row(text(reply))])
    assert [item["decision"] for item in items] == [prompt]
    assert items[0]["anchors"] == ["dockerfile", "container-first"]  # the reply's names


def test_the_reply_after_a_thinking_block_still_counts() -> None:
    thinking = {"type": "thinking", "thinking": "The user wants a single image for each service."}
    items = run(
        [prompt_row(PROMPT), agent_row(thinking), agent_row(text("Understood."), uuid="a2")]
    )
    assert [item["decision"] for item in items] == [PROMPT]


@pytest.mark.parametrize(
    "rows",
    [
        # the agent called a tool first: its later words answer the tool's output
        [prompt_row(PROMPT), agent_row(call()), agent_row(text("You're right."), uuid="a2")],
        # the reply opens otherwise
        [prompt_row(PROMPT), agent_row(text("Got it, building the images now."))],
        # the acknowledgement is not the reply's first text
        [
            prompt_row(PROMPT),
            agent_row(text("Let me see.")),
            agent_row(text("Good point."), uuid="a2"),
        ],
        # a new prompt came before any reply
        [prompt_row(PROMPT), prompt_row("and run it", uuid="p2")],
        # no prompt at all: the agent's own words
        [agent_row(text("You're right, the file is there."))],
    ],
)
def test_nothing_is_acknowledged_out_of_the_first_reply(rows: list[dict[str, Any]]) -> None:
    assert run(rows) == []


def test_a_prompt_a_rule_reads_gives_its_own_record_only() -> None:
    items = run([prompt_row("use pnpm, not npm"), agent_row(text("Understood, pnpm it is."))])
    assert [item["decision"] for item in items] == ["use pnpm, not npm"]
    assert items[0]["reason"] == ""


def test_a_prompt_that_only_says_go_on_is_no_decision() -> None:
    assert run([prompt_row("continue"), agent_row(text("Understood, continuing."))]) == []


def test_a_paste_or_a_long_prompt_is_not_acknowledged() -> None:
    log = 'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: bad'
    assert run([prompt_row(log), agent_row(text("You're right, that is a ValueError."))]) == []
    row = prompt_row("x")
    assert acknowledged_item(row, "a" * (MAX_ACKED_PROMPT + 1), "Understood.") is None
    assert acknowledged_item(row, "a" * MAX_ACKED_PROMPT, "Understood.") is not None


def test_the_unread_prompt_is_carried_across_runs() -> None:
    """A run may end between the prompt and the reply (a compaction mid-turn): the same rows
    fed in two runs give the same record as in one."""
    first = Capturer()
    assert first.feed(prompt_row(PROMPT)) == []
    state = first.to_state()
    assert state["unread"] == {"uuid": "p1", "timestamp": "2026-01-02T03:04:05Z", "typed": PROMPT}
    second = Capturer(json.loads(json.dumps(state)))
    items = [*second.feed(agent_row(text("You're right."))), *second.end_run()]
    assert items == run([prompt_row(PROMPT), agent_row(text("You're right."))])
    assert [item["decision"] for item in items] == [PROMPT]
    assert second.to_state()["unread"] is None


@pytest.mark.parametrize(
    "unread",
    [
        "a prompt",
        {"uuid": "p1", "timestamp": "t", "typed": 7},
        {"uuid": "p1", "typed": PROMPT},
        {"uuid": "p1", "timestamp": "t", "typed": "a" * (MAX_ACKED_PROMPT + 1)},
        {"uuid": "p1", "timestamp": "t", "typed": "   "},
    ],
)
def test_a_damaged_unread_prompt_in_the_state_is_dropped(unread: object) -> None:
    state = {**Capturer().to_state(), "unread": unread}
    capturer = Capturer(state)
    assert capturer.feed(agent_row(text("You're right."))) == []
    assert capturer.to_state()["unread"] is None


def test_a_carried_unread_prompt_is_bounded() -> None:
    state = {
        **Capturer().to_state(),
        "unread": {"uuid": "u" * 500, "timestamp": "t" * 500, "typed": PROMPT},
    }
    kept = Capturer(state).to_state()["unread"]
    assert (len(kept["uuid"]), len(kept["timestamp"]), kept["typed"]) == (80, 40, PROMPT)


def acknowledged_turn(project: Path) -> Path:
    """A 2.1.332 turn: a prompt no rule reads, the reply opens "You're right"."""
    reply = tr.assistant(
        "msg_ack", tr.usage(), text="You're right, a single image for each service it is."
    )
    rows = [tr.user(PROMPT), reply, *tr.bookkeeping(PROMPT)]
    return tr.write_transcript(project / f"{tr.SESSION}.jsonl", rows)


def notice_of(record: dict[str, Any]) -> str:
    return (
        "context-memory captured 1 record (ctx-decide --drop ID retracts one):\n"
        f"{record['id']} decided (user): {PROMPT} (the agent's reply took it as settled: "
        "You're right)"
    )


def test_the_stop_hook_writes_the_acknowledged_prompt(project: Path, monkeypatch, capsys) -> None:
    transcript = acknowledged_turn(project)
    payload = stop_payload(tr.SESSION, project, transcript)
    result = run_hook_main(monkeypatch, capsys, extract_main, payload)
    assert (result.exit_code, result.stderr) == (0, "")
    records = decisions_log(project)
    assert [(r["kind"], r["by"], r["decision"]) for r in records] == [("decided", "user", PROMPT)]
    assert records[0]["ruled_out"] == [] and records[0]["preferred"] == []
    assert json.loads(result.stdout) == {"systemMessage": notice_of(records[0])}


@pytest.mark.slow  # a real ./install
def test_the_installed_stop_hook_writes_the_acknowledged_prompt(tmp_path: Path) -> None:
    install, project = installed_with_project(tmp_path)
    transcript = acknowledged_turn(project)
    payload = json.dumps(stop_payload(tr.SESSION, project, transcript)).encode()
    done = install.run_registered("ctx-extract", payload, event="Stop", cwd=project)
    assert (done.returncode, done.stderr) == (0, b"")
    records = decisions_log(project)
    assert [(r["kind"], r["by"], r["decision"]) for r in records] == [("decided", "user", PROMPT)]
    assert json.loads(done.stdout) == {"systemMessage": notice_of(records[0])}


def test_a_subagents_words_acknowledge_nothing() -> None:
    sidechain = {
        **agent_row(text("You're right, a single image for each service.")),
        "isSidechain": True,
    }
    rows = [prompt_row(PROMPT), sidechain, agent_row(text("Let me check."), uuid="a2")]
    assert run(rows) == []


def test_a_credential_in_an_acknowledged_prompt_is_never_written(
    project: Path, monkeypatch, capsys
) -> None:
    key = "sk-ant-api03-Zx81Lm2Qp7Rt0Vw3Ny6Bb9Cc4Dd_-EeFf"
    prompt = f"the staging key is {key}"
    reply = tr.assistant("msg_key", tr.usage(), text="Understood.")
    rows = [tr.user(prompt), reply, *tr.bookkeeping(prompt)]
    transcript = tr.write_transcript(project / f"{tr.SESSION}.jsonl", rows)
    payload = stop_payload(tr.SESSION, project, transcript)
    result = run_hook_main(monkeypatch, capsys, extract_main, payload)
    assert (result.exit_code, result.stderr) == (0, "")
    records = decisions_log(project)
    assert [r["decision"] for r in records] == ["the staging key is [redacted]"]
    written = (project / ".working-state" / "decisions.jsonl").read_text(encoding="utf-8")
    assert key not in written and key not in result.stdout
