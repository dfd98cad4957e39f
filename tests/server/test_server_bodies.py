"""`typed_toolsets.server.bodies`: what the HTTP endpoint refuses of a body before the SDK sees it.

The app runs in process: an ASGI scope with a ``receive`` of our own (a client that sends a body
slowly, or never finishes it), or the in-process HTTP transport for whole requests.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from typing import Any

import anyio
import httpx2
import pytest

from tests.server.sample import SampleToolset
from tests.server.support import post_scope
from typed_toolsets.server import asgi_app

pytestmark = pytest.mark.anyio
BOUND = 60.0
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_body_that_never_finishes_arriving_is_408_once_its_time_is_up() -> None:
    # The SDK waited for the rest of the body for as long as the client held the connection.
    app = asgi_app(SampleToolset.to_tools(), threads=None, body_seconds=0.3)
    answers: list[dict[str, Any]] = []
    parts = 0

    async def receive() -> dict[str, Any]:
        nonlocal parts
        parts += 1
        if parts > 1:
            await asyncio.sleep(3600)  # a client that sent one part and went quiet
        return {"type": "http.request", "body": b'{"jsonrpc": "2.0", ', "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        answers.append(message)

    started = time.monotonic()
    with anyio.fail_after(BOUND):
        await app(post_scope(), receive, send)
    assert time.monotonic() - started < 10
    start, body = answers[0], answers[1]
    assert start["status"] == 408
    assert (b"connection", b"close") in start["headers"]
    error = json.loads(body["body"])
    assert error["id"] is None
    assert error["error"]["code"] == -32600
    assert error["error"]["message"].startswith(
        "Request Timeout: the request body did not arrive within 0.3 seconds"
    )


async def test_a_body_sent_in_parts_within_its_time_is_served() -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "sample_add", "arguments": {"a": 1, "b": 2}},
    }
    text = json.dumps(call).encode()
    pieces = [text[i : i + 10] for i in range(0, len(text), 10)]
    app = asgi_app(SampleToolset.to_tools(), threads=None, body_seconds=5)
    answers: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if not pieces:
            await asyncio.sleep(3600)  # the client waits for its answer
        await asyncio.sleep(0.01)
        piece = pieces.pop(0)
        return {"type": "http.request", "body": piece, "more_body": bool(pieces)}

    async def send(message: dict[str, Any]) -> None:
        answers.append(message)

    scope = post_scope()
    scope["headers"] = [*scope["headers"], (b"accept", ACCEPT["Accept"].encode())]
    with anyio.fail_after(BOUND):
        await app(scope, receive, send)
    assert answers[0]["status"] == 200
    assert json.loads(answers[1]["body"])["result"]["structuredContent"] == {"result": 3}


@pytest.mark.parametrize(
    ("request_id", "sent"),
    [
        ("1.5", "a number with a fraction or an exponent"),
        ("1e3", "a number with a fraction or an exponent"),
        ("-2.0", "a number with a fraction or an exponent"),
        ("true", "true"),
        ("false", "false"),
        ("null", "null (MCP allows no null id)"),
        ("[1]", "an array"),
        ("{}", "an object"),
    ],
)
async def test_a_request_whose_id_is_no_string_or_integer_is_a_json_rpc_error(
    request_id: str, sent: str
) -> None:
    # The SDK took it for a notification: 202 and no answer for the client's request.
    body = (
        '{"jsonrpc": "2.0", "id": ' + request_id + ', "method": "tools/call", "params": '
        '{"name": "sample_add", "arguments": {"a": 1, "b": 2}}}'
    )
    (response,) = await _posted(body)
    assert response.status_code == 400
    assert response.json() == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": -32600,
            "message": f'Invalid Request: "id" must be a string or an integer, not {sent}',
        },
    }


async def test_ids_inside_the_arguments_and_notifications_are_left_to_the_sdk() -> None:
    # An "id" of null in a tool's arguments is the tool's business; a notification has no id.
    call = {
        "jsonrpc": "2.0",
        "id": 9,
        "method": "tools/call",
        "params": {"name": "sample_echo", "arguments": {"text": '{"id": null}'}},
    }
    nested = {**call, "params": {"name": "sample_add", "arguments": {"a": 1, "b": 2}, "id": 1.5}}
    notification = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    echoed, added, noted = await _posted(*map(json.dumps, (call, nested, notification)))
    assert echoed.status_code == 200
    assert echoed.json()["id"] == 9
    assert added.status_code == 200
    assert added.json()["result"]["structuredContent"] == {"result": 3}
    assert noted.status_code == 202


async def _posted(*bodies: str) -> list[httpx2.Response]:
    """The answers of the sample app, in process, to a POST of each of *bodies* in turn."""
    app = asgi_app(SampleToolset.to_tools(), threads=None)
    async with httpx2.AsyncClient(
        transport=httpx2.ASGITransport(app=app), base_url="http://127.0.0.1"
    ) as client:
        with anyio.fail_after(BOUND):
            return [await client.post("/mcp", content=body, headers=ACCEPT) for body in bodies]


@pytest.mark.parametrize("seconds", [0, -1, math.nan])
def test_the_body_s_time_must_be_a_positive_number_of_seconds(seconds: float) -> None:
    with pytest.raises(ValueError, match="body_seconds must be a positive number of seconds"):
        asgi_app(SampleToolset.to_tools(), body_seconds=seconds)


_NOT_A_MESSAGE = (
    'Invalid Request: the body is not a JSON-RPC 2.0 message (one object, with "jsonrpc": "2.0", '
    'a "method" and, for a request, an "id"; "params", when sent, an object)'
)


@pytest.mark.parametrize(
    ("body", "request_id"),
    [
        ('{"id": 11, "method": "ping"}', 11),  # no "jsonrpc"
        ('{"jsonrpc": "1.0", "id": "a", "method": "ping"}', "a"),
        ('{"jsonrpc": "2.0", "id": 3, "method": "ping", "params": []}', 3),
        ('[{"jsonrpc": "2.0", "id": 4, "method": "ping"}]', None),  # a batch
        ('"ping"', None),
    ],
)
async def test_a_body_that_is_no_json_rpc_message_is_answered_as_stdio_answers_a_line(
    body: str, request_id: object
) -> None:
    # The SDK answered -32602 with pydantic's report of six validation errors, and no id.
    (response,) = await _posted(body)
    assert response.status_code == 400
    assert response.json() == {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": -32600, "message": _NOT_A_MESSAGE},
    }


async def test_a_body_nested_past_what_json_reads_is_answered_for_its_id() -> None:
    # Python's json cannot read 3,000 levels either: the id is read from the body's start.
    deep = "[" * 3000 + "]" * 3000
    (response,) = await _posted(
        '{"jsonrpc": "2.0", "id": 21, "method": "tools/call", "params": {"name": "sample_echo", '
        f'"arguments": {{"text": {deep}}}}}}}'
    )
    assert response.status_code == 400
    answer = response.json()
    assert (answer["id"], answer["error"]["code"]) == (21, -32700)


async def test_a_body_that_is_no_json_is_a_parse_error_with_the_parser_s_reason() -> None:
    (response,) = await _posted('{"id": 1,')
    assert response.status_code == 400
    answer = response.json()
    assert answer["error"]["code"] == -32700
    assert answer["error"]["message"].startswith("Parse error: ")
