"""What client 2.1.332 re-attaches after a compaction, part by part, against the estimate.

One ``claude -p`` turn reads five files (one partly, two over 5,000 tokens), invokes a
project skill and writes the plan in plan mode; its last reply is above the auto-compact
threshold, so the client compacts mid-turn and sends the first request of the new context
in the same process. The transcript is then cut as an older client leaves it (the boundary
without postTokens, nothing re-attached written after the summary) and the estimate's
parts (transcript/compaction_estimate.py) are compared with what the server received.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from context_memory.transcript import compaction_estimate as ce

from .conftest import ClaudeRunner
from .fake_api import (
    FakeMessagesApi,
    RecordedRequest,
    ScriptedTurn,
    Usage,
    content_texts,
    tool_use_block,
)

pytestmark = pytest.mark.client

# Measured on this scenario (client 2.1.332): files +5.5% (line numbers counted as 7
# characters, the older clients' format; 2.1.332 writes "N\\t"), plan +0.8%, skills 0, summary 0,
# the whole request +0.6%.
PART_TOLERANCE = 0.15
TOTAL_TOLERANCE = 0.20
FILE_LINES = {"small.txt": 90, "medium.txt": 180, "large.txt": 450, "huge.txt": 540}
PARTIAL = ("partial.txt", 3_000)
SKILL_BODY = "Step: check the staging config carefully. " * 60
PLAN = "# Plan\n" + "1. one step of the plan, written out in full\n" * 40
SUMMARY = "The user asked to read the code and plan the change. " * 30
PLAN_PATH = re.compile(r"create your plan at (\S+\.md)")
FILE_BLOCK_OPENINGS = (
    "<system-reminder>\nCalled the Read tool",
    "<system-reminder>\nResult of calling the Read tool",
    "<system-reminder>\nNote: ",
)
PLAN_OPENING = "<system-reminder>\nA plan file exists from plan mode"
SKILLS_OPENING = "<system-reminder>\nThe following skills were invoked EARLIER"


def file_text(name: str, lines: int) -> str:
    return "".join(f"{name} line {i}: some padding text for the model\n" for i in range(lines))


def request_chars(body: dict[str, Any]) -> int:
    """Characters of a request: system prompt, tool definitions (as JSON), message texts."""
    system = body.get("system")
    system_chars = sum(len(part.get("text", "")) for part in system) if system else 0
    messages = sum(
        len(text) for message in body["messages"] for text in content_texts(message["content"])
    )
    return system_chars + len(json.dumps(body.get("tools"))) + messages


def reminder_blocks(request: RecordedRequest) -> list[str]:
    """The request's texts split into their <system-reminder> blocks."""
    blocks: list[str] = []
    for message in request.messages:
        for text in content_texts(message["content"]):
            blocks.extend(part for part in re.split(r"(?=<system-reminder>)", text) if part)
    return blocks


def measured_first_reply(request: RecordedRequest) -> ScriptedTurn:
    """The first reply reports the first request's size as its input, at 4 characters a
    token: the estimate's baseline is then what the server received."""
    path = Path(request.messages[0]["content"][-1]["text"].split("read ", 1)[1])
    read = tool_use_block("Read", {"file_path": str(path)})
    return ScriptedTurn(blocks=(read,), usage=Usage(request_chars(request.body) // 4, 0, 0, 5))


def write_plan(request: RecordedRequest) -> ScriptedTurn:
    found = PLAN_PATH.search(request.body_json())
    assert found, "no plan file path in plan mode's reminder"
    write = tool_use_block("Write", {"file_path": found.group(1), "content": PLAN})
    # Above the 167,000 threshold: the client compacts before its next request.
    return ScriptedTurn(blocks=(write,), usage=Usage(5_000, 10_000, 154_000, 1_000))


def cut_as_an_old_client(transcript: Path, out: Path) -> tuple[Path, int, int]:
    """The transcript up to the summary row, the boundary without postTokens.
    Returns (path, boundary start, boundary end)."""
    lines = transcript.read_bytes().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if b'"compact_boundary"' in line)
    boundary = json.loads(lines[index])
    del boundary["compactMetadata"]["postTokens"]
    summary = next(i for i in range(index, len(lines)) if b'"isCompactSummary":true' in lines[i])
    kept = [*lines[:index], (json.dumps(boundary) + "\n").encode(), lines[summary]]
    out.write_bytes(b"".join(kept))
    start = sum(len(line) for line in lines[:index])
    return out, start, start + len(kept[index]) - 1


def test_the_estimate_parts_match_the_first_request_after_compaction(
    run_claude: ClaudeRunner, fake_api: FakeMessagesApi, project_dir: Path, tmp_path: Path
) -> None:
    skill = project_dir / ".claude" / "skills" / "deploy-helper"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: deploy-helper\ndescription: Deploys to staging.\n---\n" + SKILL_BODY
    )
    (project_dir / "CLAUDE.md").write_text("# Rules\n" + "Use tabs. " * 80 + "\n")
    src = project_dir / "src"
    src.mkdir()
    for name, lines in (*FILE_LINES.items(), PARTIAL):
        (src / name).write_text(file_text(name, lines))
    partial = {"file_path": str(src / PARTIAL[0]), "offset": 100, "limit": 50}
    fake_api.enqueue_builder(measured_first_reply)
    fake_api.enqueue(ScriptedTurn(blocks=(tool_use_block("Read", partial),)))
    for name in ("large.txt", "huge.txt", "medium.txt"):
        read = tool_use_block("Read", {"file_path": str(src / name)})
        fake_api.enqueue(ScriptedTurn(blocks=(read,)))
    fake_api.enqueue(ScriptedTurn(blocks=(tool_use_block("Skill", {"skill": "deploy-helper"}),)))
    fake_api.enqueue_builder(write_plan)
    fake_api.enqueue_text("Planned.")
    fake_api.set_summary(SUMMARY)
    run_claude(
        f"read {src / 'small.txt'}",
        extra_args=["--permission-mode", "plan", "--allowedTools", "Skill", "Read"],
    )
    assert fake_api.pending_turns == 0
    after = fake_api.requests_of("main", "summary")
    summary_at = next(i for i, request in enumerate(after) if request.kind == "summary")
    first_after = after[summary_at + 1]
    assert first_after.kind == "main"

    (transcript,) = run_claude.transcript_files()
    path, start, end = cut_as_an_old_client(transcript, tmp_path / "old-client.jsonl")
    with path.open("rb") as handle:
        size = path.stat().st_size
        parts = ce.restored_parts(handle, start)
        summary_chars = ce.chars_after(handle, size, end)
        estimate = ce.estimate_after_compaction(handle, size, start, end)

    blocks = reminder_blocks(first_after)
    sent_files = sum(len(block) for block in blocks if block.startswith(FILE_BLOCK_OPENINGS))
    sent_plan = sum(len(block) for block in blocks if block.startswith(PLAN_OPENING))
    sent_skills = sum(len(block) for block in blocks if block.startswith(SKILLS_OPENING))
    texts = [text for m in first_after.messages for text in content_texts(m["content"])]
    sent_summary = sum(len(text) for text in texts if "being continued" in text)
    sent_tokens = request_chars(first_after.body) // 4
    figures = {
        "files": (parts.files, sent_files),
        "plan": (parts.plan, sent_plan),
        "skills": (parts.skills, sent_skills),
        "summary": (summary_chars, sent_summary),
        "tokens": (estimate, sent_tokens),
    }
    print(figures)  # the measured figures, shown with -s
    assert parts.file_count == 5  # the client's limit; these five, none kept after it
    assert parts.todos == 0  # client 2.1.332 has no TodoWrite
    for part in ("files", "plan", "skills", "summary"):
        ours, sent = figures[part]
        assert sent > 0, part
        assert abs(ours - sent) <= PART_TOLERANCE * sent, (part, ours, sent)
    assert abs(estimate - sent_tokens) <= TOTAL_TOLERANCE * sent_tokens, figures["tokens"]
