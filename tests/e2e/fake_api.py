"""A local stand-in for the Anthropic Messages API that the real Claude Code client can talk to.

The client is pointed at it with ``ANTHROPIC_BASE_URL``. Every request is recorded (method,
path, headers, parsed JSON body, kind) so tests can assert exactly what reached the "model".
Replies to the conversation are scripted: a queue of turns, each with content blocks and the
``usage`` the client should record in its transcript.

How requests are told apart (observed with client 2.1.332), so only the conversation consumes
the script:

- ``summary``: the compaction request. It is a fork of the conversation: same model, system
  prompt and tool list as a conversation turn, plus a last user message holding the
  summarisation instructions, which contain ``SUMMARY_MARKER``. It is answered with the
  configured summary wrapped in ``<summary>`` tags: without those tags the client sends the
  same request a second time.
- ``main``: a conversation turn. It carries the agent's whole tool list (12 tools with
  client 2.1.332), and that is the signal used.
- ``side``: every other ``/v1/messages`` request the client makes on its own. The ones
  observed carry no tools: prompt-type hooks ("Is this prompt fine? ..." and "Based on the
  conversation transcript above, has the following stopping condition been satisfied?")
  and ``/rename`` without a name. Their ``model`` and ``max_tokens`` are the main loop's,
  so neither can tell them apart. A few background forks reuse the conversation's tools;
  ``FORK_INSTRUCTION_OPENINGS`` lists the instructions they open with (read from the
  client's strings; none were seen in ``-p`` runs) so that they count as side requests too.
  Side requests get a short text reply and never touch the queue.
- ``other``: any other method or path: ``HEAD /api/hello`` (a connectivity probe, sent unless
  ``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC`` is set), ``count_tokens``, model listings.
  They get a small valid answer.

Standard library only, so the e2e tests need nothing beyond pytest.
"""

from __future__ import annotations

import json
import re
import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal
from urllib.parse import urlsplit

MESSAGES_ROUTE = "/v1/messages"
COUNT_TOKENS_ROUTE = "/v1/messages/count_tokens"
SUMMARY_MARKER = "Your task is to create a detailed summary"
# Forks that keep the conversation's tools but are not conversation turns.
FORK_INSTRUCTION_OPENINGS = (
    "Generate a short kebab-case name",  # /rename without a name, when a turn ran before
)
DEFAULT_SUMMARY_TEXT = "Summary of the conversation so far: the user said hello."
DEFAULT_REPLY_TEXT = "OK."
FALLBACK_MODEL = "claude-sonnet-4-6"

# How the client 2.1.332 hands a hook's additionalContext to the model: a text block of the
# user message of that turn, placed before the prompt text.
_HOOK_CONTEXT_BLOCK = re.compile(
    r"<system-reminder>\n(?P<event>\w+) hook additional context: (?P<text>.*?)\n</system-reminder>",
    re.DOTALL,
)

RequestKind = Literal["main", "summary", "side", "other"]


@dataclass(frozen=True)
class Usage:
    """The token counts one response reports; the client copies them into the transcript."""

    input_tokens: int = 10
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    output_tokens: int = 5

    def as_dict(self) -> dict[str, int]:
        return {
            "input_tokens": self.input_tokens,
            "cache_creation_input_tokens": self.cache_creation_input_tokens,
            "cache_read_input_tokens": self.cache_read_input_tokens,
            "output_tokens": self.output_tokens,
        }


SMALL_USAGE = Usage()


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def tool_use_block(
    name: str, tool_input: dict[str, Any], tool_id: str | None = None
) -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": tool_id or f"toolu_{uuid.uuid4().hex[:24]}",
        "name": name,
        "input": tool_input,
    }


@dataclass(frozen=True)
class ScriptedTurn:
    """One scripted model response: content blocks plus the usage to report."""

    blocks: tuple[dict[str, Any], ...]
    usage: Usage = SMALL_USAGE
    stop_reason: str | None = None  # None: "tool_use" if any tool_use block, else "end_turn"

    @classmethod
    def text(cls, text: str, usage: Usage = SMALL_USAGE) -> ScriptedTurn:
        return cls(blocks=(text_block(text),), usage=usage)

    def resolved_stop_reason(self) -> str:
        if self.stop_reason is not None:
            return self.stop_reason
        has_tool_use = any(block.get("type") == "tool_use" for block in self.blocks)
        return "tool_use" if has_tool_use else "end_turn"


# -- reading request bodies ----------------------------------------------------------------


def content_texts(content: Any) -> Iterator[str]:
    """Every piece of text in a message's content (a string or a list of blocks).

    Walks into tool_result blocks, whose own content can be a list of text blocks.
    """
    if isinstance(content, str):
        yield content
        return
    if not isinstance(content, list):
        return
    for block in content:
        if isinstance(block, str):
            yield block
        elif isinstance(block, dict):
            if isinstance(block.get("text"), str):
                yield block["text"]
            if "content" in block:
                yield from content_texts(block["content"])


def texts_of(request: RecordedRequest) -> list[str]:
    """Every piece of text in a recorded request's messages, in order."""
    return [text for message in request.messages for text in content_texts(message["content"])]


def message_text(message: dict[str, Any]) -> str:
    return "\n".join(content_texts(message.get("content")))


def last_user_message(body: Any) -> dict[str, Any] | None:
    """The last message with role "user": the turn being asked about.

    With some models (claude-opus-5-5) the client appends a ``"role": "system"`` message
    after it, so the last message is not always the user's.
    """
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list):
        return None
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            return message
    return None


def classify(method: str, path: str, body: Any) -> RequestKind:
    if method != "POST" or urlsplit(path).path != MESSAGES_ROUTE or not isinstance(body, dict):
        return "other"
    last_user = last_user_message(body)
    last_user_text = message_text(last_user) if last_user else ""
    if SUMMARY_MARKER in last_user_text:
        return "summary"
    tools = body.get("tools")
    if not isinstance(tools, list) or not tools:
        return "side"
    if last_user_text.lstrip().startswith(FORK_INSTRUCTION_OPENINGS):
        return "side"
    return "main"


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str  # with the query string, e.g. "/v1/messages?beta=true"
    headers: dict[str, str]  # lower-cased names
    body: Any  # parsed JSON, the raw text if it is not JSON, None when there is no body
    kind: RequestKind

    @property
    def route(self) -> str:
        """The path without its query string."""
        return urlsplit(self.path).path

    @property
    def model(self) -> str | None:
        return self.body.get("model") if isinstance(self.body, dict) else None

    @property
    def session_id(self) -> str | None:
        return self.headers.get("x-claude-code-session-id")

    @property
    def messages(self) -> list[dict[str, Any]]:
        messages = self.body.get("messages") if isinstance(self.body, dict) else None
        return [message for message in messages if isinstance(message, dict)] if messages else []

    @property
    def last_user_text(self) -> str:
        message = last_user_message(self.body)
        return message_text(message) if message else ""

    def body_json(self) -> str:
        """The whole body as JSON text: for asserting that a string reached nowhere."""
        return json.dumps(self.body, ensure_ascii=False)

    def hook_contexts(self, event: str = "UserPromptSubmit") -> list[str]:
        """The additionalContext texts of ``event`` hooks added to this turn's user message.

        Only the last user message counts: earlier turns keep their own injected context,
        which the client resends with the rest of the conversation.
        """
        return [
            match["text"]
            for match in _HOOK_CONTEXT_BLOCK.finditer(self.last_user_text)
            if match["event"] == event
        ]


ReplyBuilder = Callable[[RecordedRequest], ScriptedTurn]


# -- what the tests script and read back ---------------------------------------------------


def tool_turn(name: str, tool_input: dict[str, Any], tool_id: str) -> ScriptedTurn:
    """A reply that is one tool call."""
    return ScriptedTurn(blocks=(tool_use_block(name, tool_input, tool_id),))


def bash_turn(command: str, tool_id: str) -> ScriptedTurn:
    return tool_turn("Bash", {"command": command}, tool_id)


def tool_result(fake_api: FakeMessagesApi, tool_id: str) -> dict[str, Any]:
    """The tool_result block for ``tool_id`` in the first request that carries it."""
    for request in fake_api.main_requests():
        for message in request.messages:
            content = message.get("content")
            for block in content if isinstance(content, list) else ():
                if isinstance(block, dict) and block.get("tool_use_id") == tool_id:
                    return block
    raise AssertionError(f"no tool_result for {tool_id}")


def result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content)


# -- the server ----------------------------------------------------------------------------


def summary_reply(summary_text: str) -> str:
    """The summariser's answer in the shape the client demands.

    The client asks for "an <analysis> block followed by a <summary> block"; when the reply
    has no <summary></summary> tags it sends the summarisation request a second time.
    """
    if "<summary>" in summary_text:
        return summary_text
    return (
        "<analysis>\nScripted by the e2e harness.\n</analysis>\n\n"
        f"<summary>\n{summary_text}\n</summary>"
    )


class FakeMessagesApi:
    """A ThreadingHTTPServer on 127.0.0.1 and an ephemeral port; use as a context manager."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._turns: deque[ScriptedTurn | ReplyBuilder] = deque()
        self._summary_text = DEFAULT_SUMMARY_TEXT
        self._summary_usage = SMALL_USAGE
        self._summary_status: int | None = None
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> FakeMessagesApi:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},  # shutdown() waits up to one poll interval
            name="fake-messages-api",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeMessagesApi:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("the fake Messages API is not running")
        return f"http://127.0.0.1:{self._server.server_port}"

    # -- the script ---------------------------------------------------------------------

    def enqueue(self, *turns: ScriptedTurn) -> None:
        with self._lock:
            self._turns.extend(turns)

    def enqueue_builder(self, builder: ReplyBuilder) -> None:
        """Queue a reply built from the request it answers (e.g. a Write to a path the
        client names only in that request, such as the plan file)."""
        with self._lock:
            self._turns.append(builder)

    def enqueue_text(self, text: str, usage: Usage = SMALL_USAGE) -> None:
        self.enqueue(ScriptedTurn.text(text, usage))

    def set_summary(self, text: str, usage: Usage = SMALL_USAGE) -> None:
        """What the summariser answers: plain text is wrapped in the tags the client wants."""
        with self._lock:
            self._summary_text = text
            self._summary_usage = usage

    def fail_summaries(self, status: int | None = 529) -> None:
        """Answer every summarisation request with HTTP ``status`` (None: answer normally).

        With ``CLAUDE_CODE_MAX_RETRIES=0`` each one is a failed automatic compaction; after
        3 in a turn the client's circuit breaker stops compacting.
        """
        with self._lock:
            self._summary_status = status

    def summary_failure(self, kind: RequestKind) -> int | None:
        with self._lock:
            return self._summary_status if kind == "summary" else None

    @property
    def pending_turns(self) -> int:
        with self._lock:
            return len(self._turns)

    def _reply_for(self, request: RecordedRequest) -> ScriptedTurn:
        with self._lock:
            if request.kind == "summary":
                return ScriptedTurn.text(summary_reply(self._summary_text), self._summary_usage)
            if request.kind == "main" and self._turns:
                turn = self._turns.popleft()
                return turn if isinstance(turn, ScriptedTurn) else turn(request)
        return ScriptedTurn.text(DEFAULT_REPLY_TEXT)

    # -- recorded traffic ---------------------------------------------------------------

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    @property
    def requests(self) -> list[RecordedRequest]:
        """A snapshot of every request received so far, oldest first."""
        with self._lock:
            return list(self._requests)

    def requests_of(self, *kinds: RequestKind) -> list[RecordedRequest]:
        return [request for request in self.requests if request.kind in kinds]

    def main_requests(self) -> list[RecordedRequest]:
        return self.requests_of("main")

    def clear_requests(self) -> None:
        with self._lock:
            self._requests.clear()


# -- HTTP ----------------------------------------------------------------------------------


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:24]}"


def stream_events(turn: ScriptedTurn, model: str) -> Iterator[bytes]:
    """The SSE events of one streamed response, in the order the real API sends them."""
    yield _sse(
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": _new_id("msg"),
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                # The client records this usage in the transcript's assistant rows.
                "usage": turn.usage.as_dict(),
            },
        },
    )
    for index, block in enumerate(turn.blocks):
        start: dict[str, Any]
        delta: dict[str, Any]
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        elif block["type"] == "tool_use":
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            raise ValueError(f"unsupported scripted block type {block['type']!r}")
        yield _sse(
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": start},
        )
        yield _sse(
            "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        )
        yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
    yield _sse(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": turn.resolved_stop_reason(), "stop_sequence": None},
            "usage": {"output_tokens": turn.usage.output_tokens},
        },
    )
    yield _sse("message_stop", {"type": "message_stop"})


def whole_message(turn: ScriptedTurn, model: str) -> dict[str, Any]:
    """The non-streaming form of the same response."""
    return {
        "id": _new_id("msg"),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": list(turn.blocks),
        "stop_reason": turn.resolved_stop_reason(),
        "stop_sequence": None,
        "usage": turn.usage.as_dict(),
    }


def _rough_token_count(body: Any) -> int:
    # About four characters per token, like the client's own offline estimate.
    return max(1, len(json.dumps(body)) // 4)


def _make_handler(api: FakeMessagesApi) -> type[BaseHTTPRequestHandler]:
    class MessagesApiHandler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's name)
            pass  # keep test output clean; the recorded requests are the log

        def _read_body(self) -> Any:
            length = int(self.headers.get("Content-Length") or 0)
            if length <= 0:
                return None
            raw = self.rfile.read(length)
            try:
                return json.loads(raw)
            except ValueError:
                return raw.decode("utf-8", errors="replace")

        def _record(self, body: Any) -> RecordedRequest:
            request = RecordedRequest(
                method=self.command,
                path=self.path,
                headers={key.lower(): value for key, value in self.headers.items()},
                body=body,
                kind=classify(self.command, self.path, body),
            )
            api._record(request)
            return request

        def _send_json(self, payload: dict[str, Any], status: int = 200) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("request-id", _new_id("req"))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        def do_HEAD(self) -> None:
            self._record(None)
            self._send_json({})

        def do_GET(self) -> None:
            request = self._record(None)
            if request.route.startswith("/v1/models"):
                self._send_json({"data": [], "has_more": False, "first_id": None, "last_id": None})
            else:
                self._send_json({})

        def do_POST(self) -> None:
            request = self._record(self._read_body())
            if request.route == COUNT_TOKENS_ROUTE:
                self._send_json({"input_tokens": _rough_token_count(request.body)})
                return
            if request.route != MESSAGES_ROUTE or not isinstance(request.body, dict):
                self._send_json({})
                return
            failure = api.summary_failure(request.kind)
            if failure is not None:
                error = {"type": "overloaded_error", "message": "Overloaded (fake API)"}
                self._send_json({"type": "error", "error": error}, status=failure)
                return
            turn = api._reply_for(request)
            model = request.model or FALLBACK_MODEL
            if not request.body.get("stream"):
                self._send_json(whole_message(turn, model))
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("request-id", _new_id("req"))
            # No Content-Length: closing the connection ends the stream.
            self.send_header("Connection", "close")
            self.end_headers()
            for event in stream_events(turn, model):
                self.wfile.write(event)
            self.wfile.flush()
            self.close_connection = True

    return MessagesApiHandler
