"""Generate a transcript at a target size (not committed: bench/data/), in one of two shapes.

``2.1.332`` (the default): each turn writes what the client writes: the user prompt,
attachments, an ~100 KB prompt_snapshot every few turns, an api-request row, an assistant
reply streamed as several rows sharing one message.id (provisional usage first), a tool
result, subagent (sidechain) rows, an occasional API-error row, bookkeeping rows, and a
compaction every so often. The file ends with bookkeeping rows, as real ones do.

``old``: what clients 1.0.x to 2.1.114 write (tests/fixtures/real-transcripts): no
api-request rows, no requestedModel, no model attachment (the model only in
``message.model``), rows with ``"version": "2.0.65"``, subagent rows in the main file,
file-history-snapshot and summary rows, a 300 KB tool result every few turns, and
compactions without ``postTokens``. The file ends with the last reply and a snapshot row.

    python bench/make_transcript.py OUT.jsonl --size 100M [--shape old]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid

SESSION = "b3c1f0d2-5a4e-4c6b-9f7e-1d2c3b4a5e6f"
SHAPES = ("2.1.332", "old")
OLD_VERSION = "2.0.65"
OLD_MODEL = "claude-sonnet-4-5-20250929"


def parse_size(text: str) -> int:
    units = {"K": 1_000, "M": 1_000_000, "G": 1_000_000_000}
    text = text.strip().upper()
    if text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def dump(row: dict) -> bytes:
    return (json.dumps(row, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


def usage(inp: int, read: int, out: int) -> dict:
    return {
        "input_tokens": inp,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": read,
        "output_tokens": out,
        "service_tier": "standard",
        "iterations": [],
    }


def base(kind: str, **extra: object) -> dict:
    row = {
        "parentUuid": str(uuid.uuid4()),
        "isSidechain": False,
        "type": kind,
        "uuid": str(uuid.uuid4()),
        "timestamp": "2026-11-30T09:10:51.029Z",
        "cwd": "/home/dev/cache-service",
        "sessionId": SESSION,
        "version": "2.1.332",
    }
    row.update(extra)
    return row


def assistant(msg_id: str, use: dict, text: str, sidechain: bool = False, **extra: object) -> dict:
    return base(
        "assistant",
        isSidechain=sidechain,
        requestedModel="claude-sonnet-4-6",
        message={
            "id": msg_id,
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-6",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "usage": use,
        },
        **extra,
    )


# Big rows are built once: the generator's cost is in writing, not in JSON encoding.
SYSTEM_PROMPT = "You are an agent working with the user toward their goals. " * 1700  # ~100 KB
PROMPT_SNAPSHOT = dump(
    base("attachment", attachment={"type": "prompt_snapshot", "systemPrompt": [SYSTEM_PROMPT]})
)
REQUEST_SHAPE = dump(
    {
        "type": "api-request-shape",
        "sessionId": SESSION,
        "shape": {"system": [{"type": "text", "text": SYSTEM_PROMPT}]},
    }
)
TOOL_RESULT_TEXT = "line of a file that was read into the context\n" * 400  # ~18 KB
BOOKKEEPING = b"".join(
    dump(row)
    for row in (
        {"type": "last-prompt", "lastPrompt": "keep going", "sessionId": SESSION},
        {"type": "atis-latch", "atis": "", "sessionId": SESSION},
        {"type": "cost-state", "sessionId": SESSION, "totalCostUSD": 1.5},
        {"type": "tools-used", "tools": ["Read", "Edit"], "sessionId": SESSION},
    )
)


def turn(index: int, tokens: int) -> bytes:
    msg = f"msg_{index:08d}"
    parts = [
        dump(base("user", message={"role": "user", "content": f"step {index}: continue"})),
        dump(
            base(
                "attachment",
                attachment={"type": "model", "identity": {"modelId": "claude-sonnet-4-6"}},
            )
        ),
    ]
    if index % 5 == 0:
        parts.append(PROMPT_SNAPSHOT)
    if index % 25 == 0:
        parts.append(REQUEST_SHAPE)
    parts.append(
        dump(
            {
                "type": "api-request",
                "sessionId": SESSION,
                "params": {"model": "claude-sonnet-4-6", "betas": ["claude-code-20250219"]},
            }
        )
    )
    parts.append(dump(assistant(msg, usage(tokens, 0, 1), "thinking...")))
    parts.append(dump(assistant(msg, usage(2000, tokens - 2000, 350), f"Edited file {index}.")))
    parts.append(
        dump(
            base(
                "user",
                message={
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": "t", "content": TOOL_RESULT_TEXT}
                    ],
                },
            )
        )
    )
    if index % 7 == 0:
        parts.append(
            dump(assistant(f"side_{index}", usage(90_000, 0, 20), "subagent work", sidechain=True))
        )
    if index % 50 == 0:
        parts.append(
            dump(
                assistant(f"err_{index}", usage(0, 0, 0), "API Error: 529", isApiErrorMessage=True)
                | {"message": {"model": "<synthetic>", "content": [], "usage": usage(0, 0, 0)}}
            )
        )
    parts.append(BOOKKEEPING)
    return b"".join(parts)


def compaction(pre: int) -> bytes:
    boundary = base(
        "system",
        subtype="compact_boundary",
        content="Conversation compacted",
        compactMetadata={"trigger": "auto", "preTokens": pre, "postTokens": 12_000},
    )
    summary = base(
        "user",
        isCompactSummary=True,
        message={
            "role": "user",
            "content": "This session is being continued... Summary: Redis Cluster.",
        },
    )
    return dump(boundary) + dump(summary)


# -- the old clients' shape --------------------------------------------------------------------


def old_row(kind: str, **extra: object) -> dict:
    row = base(kind, **extra)
    row["version"] = OLD_VERSION
    row["requestId"] = "req_" + uuid.uuid4().hex[:20]
    return row


def old_assistant(msg_id: str, use: dict, text: str, sidechain: bool = False) -> dict:
    return old_row(
        "assistant",
        isSidechain=sidechain,
        message={
            "id": msg_id,
            "type": "message",
            "role": "assistant",
            "model": OLD_MODEL,
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "usage": use,
        },
    )


BIG_TOOL_RESULT_TEXT = "a line of a big file that was read whole into the context\n" * 5200
SNAPSHOT_ROW = dump(
    {
        "type": "file-history-snapshot",
        "messageId": "m",
        "snapshot": {"trackedFileBackups": {"src/cache.py": {"version": 3}}},
        "isSnapshotUpdate": False,
    }
)


def old_tool_result(text: str) -> bytes:
    content = [{"type": "tool_result", "tool_use_id": "t", "content": text}]
    return dump(old_row("user", message={"role": "user", "content": content}))


def old_turn(index: int, tokens: int) -> bytes:
    msg = f"msg_{index:08d}"
    parts = [
        dump(old_row("user", message={"role": "user", "content": f"step {index}: continue"})),
        dump(old_assistant(msg, usage(tokens, 0, 1), "thinking...")),
        dump(old_assistant(msg, usage(2000, tokens - 2000, 350), f"Edited file {index}.")),
        old_tool_result(BIG_TOOL_RESULT_TEXT if index % 4 == 0 else TOOL_RESULT_TEXT),
        SNAPSHOT_ROW,
    ]
    if index % 7 == 0:
        side = old_assistant(f"side_{index}", usage(90_000, 0, 20), "subagent work", True)
        parts.append(dump(side))
    if index % 40 == 0:
        parts.append(dump({"type": "summary", "summary": "Cache layer", "leafUuid": msg}))
    return b"".join(parts)


def old_compaction(pre: int) -> bytes:
    boundary = old_row(
        "system",
        subtype="compact_boundary",
        content="Conversation compacted",
        compactMetadata={"trigger": "auto", "preTokens": pre},
    )
    summary = old_row(
        "user",
        isCompactSummary=True,
        message={
            "role": "user",
            "content": "This session is being continued... Analysis: ... Summary: Redis Cluster.",
        },
    )
    return dump(boundary) + dump(summary)


def generate(path: str, size: int, shape: str = "2.1.332") -> int:
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}: one of {', '.join(SHAPES)}")
    old = shape == "old"
    written = 0
    index = 0
    tokens = 20_000
    with open(path, "wb") as out:
        while written < size:
            index += 1
            tokens += 1_500
            if tokens > 160_000:
                chunk = old_compaction(tokens) if old else compaction(tokens)
                tokens = 20_000
            else:
                chunk = old_turn(index, tokens) if old else turn(index, tokens)
            out.write(chunk)
            written += len(chunk)
        # The last reply has a known figure (input 2,000 + cache 148,000 + output 350 on
        # a 200K model: 75.2%), so every size and shape injects the same band text.
        last = usage(2000, 148_000, 350)
        if old:
            final = dump(old_assistant("msg_final", last, "done")) + SNAPSHOT_ROW
        else:
            final = dump(assistant("msg_final", last, "done")) + BOOKKEEPING
        out.write(final)
        written += len(final)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--size", default="1M", help="target size, e.g. 1M, 100M, 1G")
    parser.add_argument("--shape", default="2.1.332", choices=SHAPES, help="client shape")
    args = parser.parse_args(argv)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    written = generate(args.out, parse_size(args.size), args.shape)
    print(f"{args.out}: {written:,} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
