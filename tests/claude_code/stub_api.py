"""A stand-in for the Anthropic Messages API, so tests can run the real Claude Code CLI offline.

Owns one local HTTP server (127.0.0.1, free port, background thread): it records every request
and answers /v1/messages from a scripted reply queue or a responder callable, streaming
server-sent events when asked. Standard library only; it never reaches the network.
Checked against Claude Code 2.1.328 (`claude -p`, `--continue`, tools, MCP, /compact).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

MODEL = "claude-stand-in"
DEFAULT_TEXT = "OK."
OUTPUT_TOKENS = 5  # usage reported for every reply
# The agent loop asks for the model's full output budget (128000 in 2.1.328) and offers tools.
# No other call reached the stand-in in 2.1.328 runs except compaction, which looks like the loop
# and is told apart by its instruction (the last user message). A call with few tokens or no tools
# (title or suggestion calls, when enabled) counts as a side call.
SIDE_CALL_MAX_TOKENS = 8192
COMPACTION_MARKER = "Your task is to create a detailed summary of the conversation so far"

JsonObject = dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    """One tool_use block; an empty id is replaced by a fresh `toolu_stand_in_N_I`."""

    name: str
    input: JsonObject
    id: str = ""


@dataclass(frozen=True)
class Reply:
    """One assistant message: text, tool calls (stop_reason tool_use) or both (text first).

    `delay_seconds` holds the answer back (cut short when the server stops), e.g. to kill the
    CLI while it waits. `input_tokens` is the usage reported back: a value near the model's
    context window (990000 for 2.1.328's default model) makes the CLI auto-compact.
    """

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    delay_seconds: float = 0.0
    input_tokens: int = 10

    @classmethod
    def tool(cls, name: str, tool_input: JsonObject, tool_id: str = "") -> Reply:
        return cls(tool_calls=(ToolCall(name, tool_input, tool_id),))

    @property
    def stop_reason(self) -> str:
        return "tool_use" if self.tool_calls else "end_turn"


@dataclass(frozen=True)
class RecordedRequest:
    """One HTTP request as the CLI sent it; `body` is the parsed JSON object (or None)."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]  # lower-cased names
    raw_body: str
    body: JsonObject | None = None

    @property
    def is_message(self) -> bool:
        return self.method == "POST" and self.path == "/v1/messages"

    @property
    def session_id(self) -> str:
        return self.headers.get("x-claude-code-session-id", "")

    @property
    def stream(self) -> bool:
        return self.field("stream") is True

    def field(self, name: str) -> Any:
        return self.body.get(name) if self.body is not None else None

    @property
    def system_text(self) -> str:
        system = self.field("system") or ""
        if isinstance(system, list):
            return "\n".join(str(block.get("text", "")) for block in system)
        return str(system)

    @property
    def tool_names(self) -> list[str]:
        return [str(tool.get("name", "")) for tool in self.field("tools") or []]

    @property
    def max_tokens(self) -> int:
        return int(self.field("max_tokens") or 0)

    @property
    def messages(self) -> list[JsonObject]:
        return list(self.field("messages") or [])

    def last_user_text(self) -> str:
        """All text of the last user message (string content, text and tool_result blocks)."""
        users = [message for message in self.messages if message.get("role") == "user"]
        return _content_text(users[-1].get("content", "")) if users else ""

    @property
    def is_compaction(self) -> bool:
        """The summarisation call of /compact or auto-compaction: answer it with text holding
        a <summary>...</summary> block (without one the CLI retries once), never a tool call."""
        return self.is_message and COMPACTION_MARKER in self.last_user_text()

    @property
    def is_main_conversation(self) -> bool:
        """The agent loop itself: tools offered, the full output budget, not a compaction.
        (Under `--tools ""` the loop offers no tools and counts as a side call here.)"""
        return (
            self.is_message
            and bool(self.tool_names)
            and self.max_tokens > SIDE_CALL_MAX_TOKENS
            and not self.is_compaction
        )

    def contains(self, needle: str) -> bool:
        """Whether the text occurs anywhere in the request: raw JSON or any decoded string."""
        return needle in self.raw_body or needle in _all_strings(self.body)


Responder = Callable[[RecordedRequest], Reply | None]


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for block in content if isinstance(content, list) else []:
        if block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        elif block.get("type") == "tool_result":
            parts.append(_content_text(block.get("content", "")))
    return "\n".join(parts)


def _all_strings(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(_all_strings(item) for item in value.values())
    if isinstance(value, list):
        return "\n".join(_all_strings(item) for item in value)
    return ""


def message_json(reply: Reply, message_id: str, tool_ids: list[str]) -> JsonObject:
    """The whole assistant message, as a request without `stream` receives it."""
    content: list[JsonObject] = []
    if reply.text or not reply.tool_calls:
        content.append({"type": "text", "text": reply.text or DEFAULT_TEXT})
    for call, tool_id in zip(reply.tool_calls, tool_ids, strict=True):
        content.append({"type": "tool_use", "id": tool_id, "name": call.name, "input": call.input})
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": content,
        "stop_reason": reply.stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": reply.input_tokens, "output_tokens": OUTPUT_TOKENS},
    }


def sse_events(message: JsonObject) -> Iterator[tuple[str, JsonObject]]:
    """The server-sent events that stream `message`: one start/delta/stop triple per block."""
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None}
    start["usage"] = {"input_tokens": usage["input_tokens"], "output_tokens": 1}
    yield "message_start", {"type": "message_start", "message": start}
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            empty: JsonObject = {"type": "text", "text": ""}
            delta: JsonObject = {"type": "text_delta", "text": block["text"]}
        else:
            empty = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        opened = {"type": "content_block_start", "index": index, "content_block": empty}
        yield "content_block_start", opened
        yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    ending = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    closing = {"type": "message_delta", "delta": ending, "usage": {"output_tokens": OUTPUT_TOKENS}}
    yield "message_delta", closing
    yield "message_stop", {"type": "message_stop"}


def fixed_answer(method: str, path: str) -> tuple[int, JsonObject]:
    """Answers for every path but /v1/messages; unknown paths get Anthropic's 404 shape."""
    if path == "/api/hello":  # connectivity check, sent unless non-essential traffic is off
        return 200, {}
    if path == "/v1/messages/count_tokens":
        return 200, {"input_tokens": 100}
    if method == "GET" and path == "/v1/models":
        model = {"type": "model", "id": MODEL, "display_name": "Stand-in",
                 "created_at": "2026-01-01T00:00:00Z"}  # fmt: skip
        return 200, {"data": [model], "has_more": False, "first_id": MODEL, "last_id": MODEL}
    error = {"type": "not_found_error", "message": f"stand-in has no {method} {path}"}
    return 404, {"type": "error", "error": error}


@dataclass
class StubApi:
    """The server. Use as a context manager; `base_url` goes into ANTHROPIC_BASE_URL.

    Each /v1/messages call takes its reply from `responder` when that returns one, else from
    the queue, else a short default text. Other paths get fixed answers and take no reply.
    """

    replies: Iterable[Reply] = ()
    responder: Responder | None = None
    default_text: str = DEFAULT_TEXT
    _queue: list[Reply] = field(init=False, default_factory=list)
    _requests: list[RecordedRequest] = field(init=False, default_factory=list)
    _changed: threading.Condition = field(init=False, default_factory=threading.Condition)
    _stopping: threading.Event = field(init=False, default_factory=threading.Event)
    _served: int = field(init=False, default=0)
    _server: ThreadingHTTPServer | None = field(init=False, default=None)
    _thread: threading.Thread | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self._queue.extend(self.replies)

    def start(self) -> StubApi:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_class(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, name="stub-api", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._server = self._thread = None

    def __enter__(self) -> StubApi:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("StubApi is not running; use it as a context manager")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def push(self, *replies: Reply) -> None:
        with self._changed:
            self._queue.extend(replies)

    @property
    def pending(self) -> int:
        with self._changed:
            return len(self._queue)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._changed:
            return list(self._requests)

    @property
    def message_requests(self) -> list[RecordedRequest]:
        return [request for request in self.requests if request.is_message]

    @property
    def main_requests(self) -> list[RecordedRequest]:
        return [request for request in self.requests if request.is_main_conversation]

    def paths(self) -> list[str]:
        """`METHOD /path` of every request so far, in order."""
        return [f"{request.method} {request.path}" for request in self.requests]

    def requests_containing(self, needle: str) -> list[RecordedRequest]:
        return [request for request in self.requests if request.contains(needle)]

    def wait_for_requests(self, count: int, timeout: float) -> bool:
        """Block until `count` /v1/messages requests have arrived (False on timeout)."""
        with self._changed:
            return self._changed.wait_for(
                lambda: sum(request.is_message for request in self._requests) >= count, timeout
            )

    def _record(self, request: RecordedRequest) -> None:
        with self._changed:
            self._requests.append(request)
            self._changed.notify_all()

    def _message_for(self, request: RecordedRequest) -> tuple[JsonObject, float]:
        """The message answering `request`, and how long to hold it back."""
        reply = self.responder(request) if self.responder is not None else None
        with self._changed:
            if reply is None:
                reply = self._queue.pop(0) if self._queue else Reply(text=self.default_text)
            self._served += 1
            number = self._served
        tool_ids = [call.id or f"toolu_stand_in_{number}_{index}"
                    for index, call in enumerate(reply.tool_calls)]  # fmt: skip
        return message_json(reply, f"msg_stand_in_{number}", tool_ids), reply.delay_seconds


def _handler_class(api: StubApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Silent: tests read `api.requests` instead."""

        def do_GET(self) -> None:
            self._serve()

        def do_POST(self) -> None:
            self._serve()

        def do_HEAD(self) -> None:
            self._serve()

        def _serve(self) -> None:
            request = self._read_request()
            api._record(request)
            if not request.is_message:
                self._send_json(*fixed_answer(request.method, request.path))
                return
            message, delay = api._message_for(request)
            if delay > 0 and api._stopping.wait(delay):
                return  # the server is stopping: drop the held-back answer
            if request.stream:
                self._send_stream(message)
            else:
                self._send_json(200, message, f"req_{message['id']}")

        def _read_request(self) -> RecordedRequest:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = None
            url = urlsplit(self.path)
            headers = {name.lower(): value for name, value in self.headers.items()}
            body = parsed if isinstance(parsed, dict) else None
            return RecordedRequest(self.command, url.path, parse_qs(url.query), headers, raw, body)

        def _send_json(self, status: int, answer: JsonObject, request_id: str = "") -> None:
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            if request_id:
                self.send_header("request-id", request_id)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        def _send_stream(self, message: JsonObject) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.send_header("request-id", f"req_{message['id']}")  # the transcript's requestId
            self.end_headers()
            self.close_connection = True
            for event, data in sse_events(message):
                self.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()

    return Handler
