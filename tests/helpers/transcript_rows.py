"""Build transcript rows in the shape Claude Code 2.1.332 writes them (see the reference sample)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

SESSION = "ec02a1e1-95f7-4797-b360-0048899b56dd"
CWD = "/home/dev/cache-service"


def _dump(row: dict[str, Any]) -> str:
    # The client writes compact JSON, one row per line.
    return json.dumps(row, separators=(",", ":"), ensure_ascii=False)


def _base(kind: str, **extra: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "parentUuid": str(uuid.uuid4()),
        "isSidechain": False,
        "type": kind,
        "uuid": str(uuid.uuid4()),
        "timestamp": "2026-11-30T09:10:51.029Z",
        "userType": "external",
        "entrypoint": "sdk-cli",
        "cwd": CWD,
        "sessionId": SESSION,
        "version": "2.1.332",
        "gitBranch": "master",
    }
    row.update(extra)
    return row


def usage(
    input_tokens: int = 0,
    cache_creation: int = 0,
    cache_read: int = 0,
    output_tokens: int = 0,
    iterations: list[dict[str, int]] | None = None,
) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "cache_creation_input_tokens": cache_creation,
        "cache_read_input_tokens": cache_read,
        "output_tokens": output_tokens,
        "output_tokens_details": {"thinking_tokens": 0},
        "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
        "service_tier": "standard",
        "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
        "inference_geo": "",
        "iterations": [] if iterations is None else iterations,
        "speed": "standard",
    }


def assistant(
    message_id: str,
    usage_obj: dict[str, Any],
    *,
    model: str = "claude-sonnet-4-6",
    requested_model: str | None = "claude-sonnet-4-6",
    text: str | None = "ok",
    content: list[dict[str, Any]] | None = None,
    sidechain: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    blocks = content if content is not None else [{"type": "text", "text": text}]
    row = _base(
        "assistant",
        isSidechain=sidechain,
        message={
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": blocks,
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": usage_obj,
        },
        requestId="req_" + message_id,
        **extra,
    )
    if requested_model is not None:
        row["requestedModel"] = requested_model
    return row


def tool_use(name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": "toolu_" + uuid.uuid4().hex[:20],
        "name": name,
        "input": tool_input,
    }


def api_error() -> dict[str, Any]:
    return assistant(
        "msg_err_" + uuid.uuid4().hex[:8],
        usage(),
        model="<synthetic>",
        requested_model=None,
        text="API Error: 529 overloaded",
        isApiErrorMessage=True,
    )


def interrupted(message_id: str = "msg_int") -> dict[str, Any]:
    return assistant(message_id, usage(), text="[Request interrupted by user]")


def user(text: str) -> dict[str, Any]:
    return _base("user", message={"role": "user", "content": text}, promptId=str(uuid.uuid4()))


def model_attachment(model_id: str) -> dict[str, Any]:
    return _base(
        "attachment",
        attachment={
            "type": "model",
            "identity": {"modelId": model_id, "marketingName": "Sonnet", "knowledgeCutoff": "x"},
            "text": f"You are powered by the model {model_id}.",
        },
    )


def api_request(model: str, betas: list[str] | None = None) -> dict[str, Any]:
    return {
        "type": "api-request",
        "sessionId": SESSION,
        "id": str(uuid.uuid4()),
        "timestamp": "2026-11-30T09:10:51.021Z",
        "version": "2.1.332",
        "params": {
            "model": model,
            "betas": betas if betas is not None else ["claude-code-20250219"],
            "max_tokens": 32000,
        },
    }


def prompt_snapshot(size: int = 140_000) -> dict[str, Any]:
    # Mentions "assistant" in its text, as the real system prompt does.
    return _base(
        "attachment",
        attachment={"type": "prompt_snapshot", "systemPrompt": ["assistant " * (size // 10)]},
    )


def bookkeeping(prompt: str = "design the cache layer") -> list[dict[str, Any]]:
    return [
        {
            "type": "last-prompt",
            "lastPrompt": prompt,
            "leafUuid": str(uuid.uuid4()),
            "sessionId": SESSION,
        },
        {"type": "atis-latch", "atis": "", "sessionId": SESSION},
        {
            "type": "cost-state",
            "sessionId": SESSION,
            "totalCostUSD": 0.09,
            "modelUsage": {"claude-sonnet-4-6": {"inputTokens": 21900, "outputTokens": 145}},
        },
        {"type": "mode", "mode": "normal", "sessionId": SESSION},
        {"type": "tools-used", "tools": ["Write", "Edit"], "sessionId": SESSION},
    ]


def compact_boundary(
    pre_tokens: int, post_tokens: int | None, trigger: str = "manual"
) -> dict[str, Any]:
    metadata: dict[str, Any] = {"trigger": trigger, "preTokens": pre_tokens, "durationMs": 118}
    if post_tokens is not None:
        metadata["postTokens"] = post_tokens
    return _base(
        "system",
        parentUuid=None,
        subtype="compact_boundary",
        content="Conversation compacted",
        isMeta=False,
        level="info",
        compactMetadata=metadata,
    )


def compact_summary(summary: str) -> dict[str, Any]:
    return _base(
        "user",
        message={
            "role": "user",
            "content": "This session is being continued from a previous conversation that ran "
            "out of context. The summary below covers the earlier portion of the "
            f"conversation.\n\nSummary:\n{summary}",
        },
        isVisibleInTranscriptOnly=True,
        isCompactSummary=True,
    )


def queue_operation(operation: str, content: str | None = None) -> dict[str, Any]:
    """A ``queue-operation`` row (a message typed while the agent works: enqueue, dequeue,
    remove, popAll), as clients 2.1.4x and later write it: no uuid of its own."""
    row: dict[str, Any] = {
        "type": "queue-operation",
        "operation": operation,
        "timestamp": "2026-11-30T09:10:52.000Z",
        "sessionId": SESSION,
    }
    if content is not None:
        row["content"] = content
    return row


def write_transcript(path: Path, rows: list[dict[str, Any]], tail: bytes = b"") -> Path:
    """Write ``rows`` as JSONL, then ``tail`` raw (e.g. a half-written last line)."""
    data = "".join(_dump(row) + "\n" for row in rows).encode("utf-8") + tail
    path.write_bytes(data)
    return path


def tool_result(tool_use_id: str, text: str = "ok", *, is_error: bool = False) -> dict[str, Any]:
    """The user row that answers a tool call (``is_error`` for a refused or failed call)."""
    block: dict[str, Any] = {"tool_use_id": tool_use_id, "type": "tool_result", "content": text}
    if is_error:
        block["is_error"] = True
    return _base("user", message={"role": "user", "content": [block]})


def tool_call(name: str, tool_input: dict[str, Any], *, sidechain: bool = False, **extra: Any):
    """An assistant row holding one tool_use block (the client writes one block per row)."""
    block = tool_use(name, tool_input)
    row = assistant(
        "msg_" + uuid.uuid4().hex[:12], usage(100), content=[block], sidechain=sidechain, **extra
    )
    return row, block["id"]
