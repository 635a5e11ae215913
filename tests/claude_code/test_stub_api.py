"""The Messages API stand-in on its own: the wire format Claude Code 2.1.328 reads
(server-sent events, tool_use blocks), its reply queue and its fixed answers."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from tests.claude_code.stub_api import RecordedRequest, Reply, StubApi, ToolCall


def post(api: StubApi, path: str, body: dict[str, Any]) -> tuple[int, str, str]:
    request = urllib.request.Request(
        api.base_url + path, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "x-claude-code-session-id": "s-1"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers["Content-Type"], error.read().decode()


def sse(text: str) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for chunk in text.strip().split("\n\n"):
        event_line, data_line = chunk.split("\n")
        events.append((event_line.removeprefix("event: "), json.loads(data_line[6:])))
    return events


def test_plain_request_gets_the_queued_replies_in_order_then_the_default() -> None:
    with StubApi([Reply(text="first"), Reply.tool("Bash", {"command": "ls"}, "toolu_1")]) as api:
        bodies = [json.loads(post(api, "/v1/messages", {"messages": []})[2]) for _ in range(3)]
    assert [body["content"][0].get("text") for body in bodies] == ["first", None, "OK."]
    assert bodies[1]["content"] == [
        {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}
    ]
    assert [body["stop_reason"] for body in bodies] == ["end_turn", "tool_use", "end_turn"]
    assert len(api.message_requests) == 3
    assert api.requests[0].session_id == "s-1"


def test_stream_sends_each_block_as_start_delta_stop() -> None:
    calls = (ToolCall("Edit", {"file_path": "/a", "old_string": "x", "new_string": "y"}),)
    with StubApi([Reply(text="Editing.", tool_calls=calls)]) as api:
        status, content_type, text = post(api, "/v1/messages", {"stream": True, "messages": []})
    events = sse(text)
    assert (status, content_type) == (200, "text/event-stream")
    assert [name for name, _ in events] == [
        "message_start",
        *["content_block_start", "content_block_delta", "content_block_stop"] * 2,
        "message_delta",
        "message_stop",
    ]
    assert events[2][1]["delta"] == {"type": "text_delta", "text": "Editing."}
    assert events[4][1]["content_block"] == {
        "type": "tool_use", "id": "toolu_stand_in_1_0", "name": "Edit", "input": {},
    }  # fmt: skip
    partial = events[5][1]["delta"]
    assert isinstance(partial, dict)
    assert json.loads(partial["partial_json"]) == calls[0].input
    assert events[7][1]["delta"] == {"stop_reason": "tool_use", "stop_sequence": None}


def test_responder_decides_first_and_falls_back_to_the_queue() -> None:
    def only_for_compaction(request: RecordedRequest) -> Reply | None:
        return Reply(text="<summary>short</summary>") if request.is_compaction else None

    instruction = "Your task is to create a detailed summary of the conversation so far, and"
    compaction = {"messages": [{"role": "user", "content": f"CRITICAL: ... {instruction} ..."}]}
    with StubApi([Reply(text="queued")], responder=only_for_compaction) as api:
        summary = json.loads(post(api, "/v1/messages", compaction)[2])
        answer = json.loads(post(api, "/v1/messages", {"messages": []})[2])
    assert summary["content"][0]["text"] == "<summary>short</summary>"
    assert answer["content"][0]["text"] == "queued"
    assert api.pending == 0


def test_other_paths_get_fixed_answers_and_take_no_reply() -> None:
    with StubApi([Reply(text="kept")]) as api:
        counted = post(api, "/v1/messages/count_tokens", {"messages": []})
        unknown = post(api, "/v1/nowhere", {})
        hello = urllib.request.Request(api.base_url + "/api/hello", method="HEAD")
        with urllib.request.urlopen(hello, timeout=10) as response:
            assert response.status == 200
        assert api.pending == 1
    assert json.loads(counted[2]) == {"input_tokens": 100}
    assert unknown[0] == 404
    assert json.loads(unknown[2])["error"]["type"] == "not_found_error"
    paths = ["/v1/messages/count_tokens", "/v1/nowhere", "/api/hello"]
    assert [request.path for request in api.requests] == paths


def test_requests_containing_searches_decoded_strings_too() -> None:
    with StubApi() as api:
        post(api, "/v1/messages", {"messages": [{"role": "user", "content": 'café "quoted"'}]})
    assert api.requests_containing('café "quoted"')  # JSON-escaped in the raw body
    assert not api.requests_containing("absent")
