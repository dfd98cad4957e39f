"""`typed_toolsets.server` in process: the MCP server, the ASGI app and its guards.

The SDK's own clients talk to the server in memory (``Client(server)``) or to the ASGI app over
an in-process HTTP transport (no socket), which also shows the app working when mounted in a
host app that never runs its lifespan.
"""

from __future__ import annotations

import argparse
import asyncio
import builtins
import dataclasses
import gc
import json
import logging
import sys
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from starlette.applications import Starlette
from starlette.routing import Mount

from tests.server.sample import OtherToolset, SampleToolset
from tests.server.support import post_scope
from typed_toolsets import ExportError, Limits, Toolset, export, tool
from typed_toolsets.server import (
    DaemonThreads,
    asgi_app,
    configure_logging,
    logger,
    mcp_server,
)
from typed_toolsets.server.http import body_limit

pytestmark = pytest.mark.anyio
BOUND = 60.0
TOKEN = "s3cret-token"
CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "sample_add", "arguments": {"a": 1, "b": 2}},
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


# ---------------------------------------------------------------------------- the server


def test_the_public_names_are_sorted_and_all_there() -> None:
    import typed_toolsets.server as server

    assert server.__all__ == sorted(server.__all__)
    assert all(getattr(server, name) is not None for name in server.__all__)


async def test_the_server_lists_the_export_and_calls_through_ainvoke() -> None:
    tools = SampleToolset.to_tools()
    with anyio.fail_after(BOUND):
        async with Client(mcp_server(tools), mode="legacy") as client:
            listed = await client.list_tools()
            point = await client.call_tool("sample_point", {"x": 1, "y": 2})
            failed = await client.call_tool("sample_fail", {"message": "no"})
            info = client.server_info
    wire = [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in listed.tools]
    assert wire == export.mcp(tools)
    assert point.structured_content == {"x": 1.0, "y": 2.0}
    assert failed.is_error is True
    assert info is not None
    assert info.name == "typed-toolsets"


@dataclasses.dataclass
class Node:
    value: int
    children: list[Node] = dataclasses.field(default_factory=list)


class RecursiveToolset(Toolset):
    toolset_name = "recursive"

    @tool
    def tree(self) -> Node:
        return Node(1, [Node(2)])


async def test_a_recursive_class_result_reaches_the_sdk_client_as_its_object() -> None:
    # The SDK's client checks structuredContent against the listed outputSchema.
    tools = RecursiveToolset.to_tools()
    with anyio.fail_after(BOUND):
        async with Client(mcp_server(tools), mode="legacy") as client:
            listed = await client.list_tools()
            tree = await client.call_tool("recursive_tree", {})
    (listed_tool,) = listed.tools
    assert listed_tool.output_schema is not None
    assert listed_tool.output_schema["type"] == "object"
    assert (tree.is_error, tree.structured_content) == (
        False,
        {"value": 1, "children": [{"value": 2, "children": []}]},
    )


class NoneToolset(Toolset):
    toolset_name = "none"

    @tool
    def node(self) -> Node:
        return None  # type: ignore[return-value]  # a wrong value, on purpose


async def test_none_from_a_tool_with_an_object_schema_reaches_the_sdk_client_as_an_error() -> None:
    # The SDK's client raised RuntimeError ("has an output schema but did not return
    # structured content") rather than handing over a result.
    with anyio.fail_after(BOUND):
        async with Client(mcp_server(NoneToolset.to_tools()), mode="legacy") as client:
            await client.list_tools()
            result = await client.call_tool("none_node", {})
    assert (result.is_error, result.structured_content) == (True, None)
    assert "$: null is not of type 'object'" in result.content[0].model_dump()["text"]


class Exits(Toolset):
    """Tools that exit or interrupt, as argparse does on bad input, in every way a call runs."""

    toolset_name = "exits"

    @tool
    def parse(self, *, argv: list[str]) -> str:
        parser = argparse.ArgumentParser(prog="inner", exit_on_error=True)
        parser.add_argument("--n", type=int)
        return repr(parser.parse_args(argv))

    @tool(inline=True)
    def inline(self) -> str:
        raise SystemExit(3)

    @tool
    async def interrupted(self) -> str:
        raise KeyboardInterrupt

    @tool(limits=Limits(timeout=30))
    async def timed(self) -> str:
        raise SystemExit(4)

    @tool(limits=Limits(timeout=30))
    def timed_sync(self) -> str:
        raise SystemExit(5)

    @tool
    def ok(self) -> str:
        return "ok"


@pytest.mark.parametrize(
    ("name", "arguments", "raised"),
    [
        ("exits_parse", {"argv": ["--n", "x"]}, "SystemExit: 2"),
        ("exits_inline", {}, "SystemExit: 3"),
        ("exits_interrupted", {}, "KeyboardInterrupt"),
        ("exits_timed", {}, "SystemExit: 4"),
        ("exits_timed_sync", {}, "SystemExit: 5"),
    ],
)
async def test_a_tool_that_exits_fails_its_call_and_the_server_goes_on(
    name: str, arguments: dict[str, Any], raised: str
) -> None:
    with anyio.fail_after(BOUND):
        async with Client(mcp_server(Exits.to_tools()), mode="legacy") as client:
            failed = await client.call_tool(name, arguments)
            after = await client.call_tool("exits_ok", {})
    assert failed.is_error is True
    (block,) = failed.content
    assert block.type == "text"
    envelope = json.loads(block.text)["error"]
    assert envelope["kind"] == "execution"
    assert envelope["message"] == f"Tool {name!r} failed: {raised}"
    assert after.is_error is False


class Stray(Toolset):
    """Tools that raise a cancellation of their own while nobody cancels their request."""

    toolset_name = "stray"

    @tool
    async def helper(self) -> str:
        helper = asyncio.ensure_future(asyncio.sleep(60))
        await asyncio.sleep(0)
        helper.cancel()
        await helper  # raises CancelledError here: the helper's, not the call's
        return "unreachable"

    @tool(limits=Limits(timeout=30))
    async def timed(self) -> str:
        raise asyncio.CancelledError

    @tool
    async def group(self) -> str:
        # A group holding a cancellation of the tool's own (BaseExceptionGroup: Python 3.11+).
        group: Any = getattr(builtins, "BaseExceptionGroup")  # noqa: B009 - typed for 3.10
        raise group("inner tasks", [asyncio.CancelledError(), ValueError("boom")])

    @tool
    async def exits(self) -> str:
        # With a tool's own exit: its failure too, as a bare SystemExit is (the server goes on).
        group: Any = getattr(builtins, "BaseExceptionGroup")  # noqa: B009 - typed for 3.10
        raise group("inner", [asyncio.CancelledError(), SystemExit(3)])

    @tool
    def ok(self) -> str:
        return "ok"


@pytest.mark.skipif(
    sys.version_info < (3, 11), reason="3.10 cannot tell it from a native cancel of the request"
)
@pytest.mark.parametrize(
    ("name", "raised"),
    [
        ("stray_helper", "CancelledError"),
        ("stray_timed", "CancelledError"),
        (
            "stray_group",
            "BaseExceptionGroup: inner tasks (2 sub-exceptions): CancelledError; ValueError: boom",
        ),
        (
            "stray_exits",
            "BaseExceptionGroup: inner (2 sub-exceptions): CancelledError; SystemExit: 3",
        ),
    ],
)
async def test_a_tool_s_own_cancellation_fails_its_call_and_the_server_goes_on(
    name: str, raised: str
) -> None:
    # Let through, the SDK took it for the request's cancellation: the client got "Connection
    # closed" and the server's task group ended (over stdio, the process with a traceback).
    with anyio.fail_after(BOUND):
        async with Client(mcp_server(Stray.to_tools()), mode="legacy") as client:
            failed = await client.call_tool(name, {})
            after = await client.call_tool("stray_ok", {})
    assert failed.is_error is True
    (block,) = failed.content
    assert block.type == "text"
    envelope = json.loads(block.text)["error"]
    assert envelope["kind"] == "execution"
    assert envelope["message"] == f"Tool {name!r} failed: {raised}"
    assert after.is_error is False


@pytest.mark.skipif(
    sys.version_info < (3, 11), reason="3.10 cannot tell it from a native cancel of the request"
)
async def test_over_http_a_tool_s_own_cancellation_leaves_the_app_serving() -> None:
    # A group holding a cancellation ended the session manager's task group: the call was
    # answered 500, and so was every request after it (its manager cannot be started again).
    app = asgi_app(Stray.to_tools())
    headers = {**ACCEPT, "Content-Type": "application/json"}
    calls = [
        {**CALL, "params": {"name": name, "arguments": {}}} for name in ("stray_group", "stray_ok")
    ]
    async with httpx2.AsyncClient(transport=transport(app), base_url="http://127.0.0.1") as client:
        with anyio.fail_after(BOUND):
            answers = [await client.post("/mcp", json=call, headers=headers) for call in calls]
    assert [answer.status_code for answer in answers] == [200, 200]
    failed, after = (answer.json()["result"] for answer in answers)
    assert failed["isError"] is True
    assert "BaseExceptionGroup: inner tasks" in failed["content"][0]["text"]
    assert after["content"][0]["text"] == "ok"


async def test_outside_a_server_an_exit_still_propagates_from_a_timed_async_tool() -> None:
    (proxy,) = [p for p in Exits.to_tools() if p.name == "exits_timed"]
    with pytest.raises(SystemExit):
        await proxy.ainvoke({})


def test_a_timed_sync_tool_that_raises_logs_nothing_on_the_server(
    caplog: pytest.LogCaptureFixture,
) -> None:
    (proxy,) = [p for p in Exits.to_tools() if p.name == "exits_timed_sync"]

    async def fail_then_collect() -> None:
        with pytest.raises(SystemExit):
            await proxy.ainvoke({})
        await asyncio.sleep(0)  # the loop copies the thread's outcome to its own future
        gc.collect()

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        asyncio.run(fail_then_collect())
    assert "never retrieved" not in caplog.text


def test_a_name_clash_is_refused_naming_both_tools() -> None:
    with pytest.raises(ExportError) as raised:
        mcp_server(SampleToolset.to_tools() + OtherToolset.to_tools())
    message = str(raised.value)
    assert "'sample_add'" in message
    assert "SampleToolset.add" in message
    assert "OtherToolset.plus" in message


def test_serving_tools_marked_requires_approval_warns_that_nobody_is_asked(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # MCP has no field for the mark and a server asks nobody: they were served in silence.
    class Risky(Toolset):
        @tool(requires_approval=True)
        def wipe(self) -> str:
            return "wiped"

        @tool
        def peek(self) -> str:
            return "ok"

    caplog.set_level(logging.WARNING, logger.name)
    mcp_server(Risky.to_tools())
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    assert record.getMessage().startswith(
        "served like any other tool, without asking anyone: risky_wipe (marked requires_approval;"
    )
    caplog.clear()
    mcp_server(SampleToolset.to_tools())
    assert caplog.records == []


async def test_each_call_logs_one_line(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger.name)
    with anyio.fail_after(BOUND):
        async with Client(mcp_server(SampleToolset.to_tools()), mode="legacy") as client:
            await client.call_tool("sample_add", {"a": 1, "b": 2})
            await client.call_tool("sample_add", {"a": "x", "b": 2})
            await client.call_tool("forged\ntool=x outcome=ok", {})
    lines = [record.getMessage() for record in caplog.records if record.name == logger.name]
    assert len(lines) == 3
    assert lines[0].startswith("tool=sample_add outcome=ok duration=")
    assert lines[1].startswith("tool=sample_add outcome=error:arguments duration=")
    # A made-up name is quoted: it cannot start a line of its own.
    assert lines[2].startswith('tool="forged\\ntool=x outcome=ok" outcome=error:arguments')
    assert all("arguments=" not in line and "\n" not in line for line in lines)


async def test_argument_values_are_logged_only_when_asked(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger.name)
    server = mcp_server(SampleToolset.to_tools(), log_arguments=True)
    with anyio.fail_after(BOUND):
        async with Client(server, mode="legacy") as client:
            await client.call_tool("sample_echo", {"text": "hi\nthere"})
    (line,) = [r.getMessage() for r in caplog.records if r.name == logger.name]
    assert line.endswith(' arguments={"text": "hi\\nthere"}')


def test_configure_logging_leaves_a_configured_application_alone() -> None:
    root = logging.getLogger()
    saved = (list(logger.handlers), logger.level, logger.propagate)
    try:
        logger.handlers.clear()
        if root.handlers:  # pytest's own capture handlers, for instance
            configure_logging()
            assert logger.handlers == []
        probe = logging.Handler()
        root.addHandler(probe)
        configure_logging()
        assert logger.handlers == []
        root.removeHandler(probe)
    finally:
        logger.handlers[:], logger.level, logger.propagate = saved


# ------------------------------------------------------------------------------- the app


def transport(app: Any) -> httpx2.ASGITransport:
    return httpx2.ASGITransport(app=app)


async def post(
    app: Any, headers: dict[str, str], *, path: str = "/mcp", host: str = "127.0.0.1:8000"
) -> httpx2.Response:
    async with httpx2.AsyncClient(transport=transport(app), base_url=f"http://{host}") as client:
        return await client.post(path, json=CALL, headers={**ACCEPT, **headers})


async def test_the_app_answers_a_call_without_initialize_as_json() -> None:
    app = asgi_app(SampleToolset.to_tools())
    with anyio.fail_after(BOUND):
        response = await post(app, {})
    assert response.status_code == 200
    assert response.json()["result"]["structuredContent"] == {"result": 3}


async def test_arguments_the_sdk_parsed_loosely_are_still_judged_by_the_call_path() -> None:
    # The SDK parses the request (its JSON parser takes NaN); our call path still refuses a
    # value with no JSON form, at its path, as an "arguments" error the model can act on.
    body = (
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", '
        '"params": {"name": "sample_point", "arguments": {"x": NaN, "y": 1}}}'
    )
    app = asgi_app(SampleToolset.to_tools())
    async with httpx2.AsyncClient(transport=transport(app), base_url="http://127.0.0.1") as client:
        with anyio.fail_after(BOUND):
            response = await client.post(
                "/mcp", content=body, headers={**ACCEPT, "Content-Type": "application/json"}
            )
    result = response.json()["result"]
    assert result["isError"] is True
    error = json.loads(result["content"][0]["text"])["error"]
    assert (error["kind"], error["details"][0]["path"]) == ("arguments", "$.x")


async def test_with_a_token_every_request_needs_it() -> None:
    app = asgi_app(SampleToolset.to_tools(), token=TOKEN)
    with anyio.fail_after(BOUND):
        missing = await post(app, {})
        wrong = await post(app, {"Authorization": "Bearer s3cret-tokeN"})
        longer = await post(app, {"Authorization": f"Bearer {TOKEN}x"})
        scheme = await post(app, {"Authorization": f"Token {TOKEN}"})
        right = await post(app, {"Authorization": f"bearer {TOKEN}"})
    assert [r.status_code for r in (missing, wrong, longer, scheme)] == [401] * 4
    assert missing.json() == {
        "error": "invalid_token",
        "error_description": "this server requires an Authorization: Bearer <token> header",
    }
    assert wrong.headers["www-authenticate"] == 'Bearer error="invalid_token"'
    assert right.status_code == 200


async def test_without_a_token_only_loopback_hosts_are_answered() -> None:
    app = asgi_app(SampleToolset.to_tools())
    with anyio.fail_after(BOUND):
        rebound = await post(app, {}, host="attacker.example:8000")
        origin = await post(app, {"Origin": "http://attacker.example"})
        local = await post(app, {"Origin": "http://localhost:3000"}, host="localhost:8000")
    assert (rebound.status_code, origin.status_code, local.status_code) == (421, 403, 200)
    # With a token the token is the guard, whatever the Host; allowed_hosts narrows it again.
    with_token = asgi_app(SampleToolset.to_tools(), token=TOKEN)
    named = asgi_app(SampleToolset.to_tools(), token=TOKEN, allowed_hosts=["mcp.internal"])
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with anyio.fail_after(BOUND):
        assert (await post(with_token, auth, host="mcp.example.com")).status_code == 200
        assert (await post(named, auth, host="mcp.internal:443")).status_code == 200
        assert (await post(named, auth, host="other.internal")).status_code == 421
        # Host names are case-insensitive (RFC 3986), on either side.
        assert (await post(named, auth, host="MCP.Internal")).status_code == 200
        shouted = asgi_app(SampleToolset.to_tools(), token=TOKEN, allowed_hosts=["MCP.INTERNAL"])
        assert (await post(shouted, auth, host="mcp.internal:8000")).status_code == 200
        upper = await post(app, {"Origin": "HTTP://LocalHost:3000"}, host="LOCALHOST:8000")
        assert upper.status_code == 200
        assert (await post(app, {}, host="LOCALHOST")).status_code == 200
        assert (await post(app, {"Origin": "http://Attacker.example"})).status_code == 403


async def test_the_host_check_comes_before_every_route_and_the_token(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # It ran inside the /mcp route: another path was answered 404, /mcp/ a redirect to
    # http://<the page's host>/mcp, and with a token the 401 came first: each told a rebinding
    # page a server is there. The SDK's check also wrote the refused header to stderr (Python's
    # last resort), in an app that configured no logging.
    app = asgi_app(SampleToolset.to_tools())
    named = asgi_app(SampleToolset.to_tools(), token=TOKEN, allowed_hosts=["mcp.internal"])
    forged = "attacker.example forged-line"
    with anyio.fail_after(BOUND):
        for path in ("/other", "/mcp/", "/"):
            assert (await post(app, {}, path=path, host="attacker.example")).status_code == 421
            refused = await post(app, {"Origin": f"http://{forged}"}, path=path)
            assert refused.status_code == 403
        assert (await post(named, {}, host="other.internal")).status_code == 421
        assert (await post(named, {}, host="mcp.internal")).status_code == 401
        assert (await post(app, {}, path="/other")).status_code == 404  # a loopback name's
    assert "forged-line" not in capsys.readouterr().err


async def test_get_opens_no_idle_stream() -> None:
    # Stateless, nothing can ever be sent on a GET stream; the SDK's held the connection open,
    # idle, until the client left (and a stop waited its graceful period for it). MCP lets a
    # server without such a stream answer 405.
    app = asgi_app(SampleToolset.to_tools())
    with_token = asgi_app(SampleToolset.to_tools(), token=TOKEN)
    events = {"Accept": "text/event-stream"}
    with anyio.fail_after(5):
        async with httpx2.AsyncClient(
            transport=transport(app), base_url="http://127.0.0.1:8000"
        ) as client:
            response = await client.get("/mcp", headers=events)
        async with httpx2.AsyncClient(
            transport=transport(with_token), base_url="http://127.0.0.1:8000"
        ) as client:
            unauthorized = await client.get("/mcp", headers=events)
    assert (response.status_code, response.headers["allow"]) == (405, "POST")
    error = response.json()["error"]
    assert error["code"] == -32600
    assert "send requests with POST" in error["message"]
    assert unauthorized.status_code == 401  # the token is asked for first


def _echo_call(text: str) -> bytes:
    call = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "sample_echo", "arguments": {"text": text}},
    }
    return json.dumps(call).encode()


async def test_a_body_no_tool_could_accept_is_refused_before_it_is_read() -> None:
    # The SDK read a body whole, whatever its size (a client could make the server hold
    # gigabytes); past four times the largest argument limit, plus the envelope, it is 413.
    app = asgi_app(SampleToolset.to_tools())  # the default limit: 1,000,000 bytes
    limit = body_limit(1_000_000)
    assert limit == 4 * 1_000_000 + 64 * 1024
    headers = {**ACCEPT, "Content-Type": "application/json"}
    async with httpx2.AsyncClient(transport=transport(app), base_url="http://127.0.0.1") as client:
        with anyio.fail_after(BOUND):
            over = await client.post("/mcp", content=b" " * (limit + 1), headers=headers)
            # Over the tool's own limit but within the body's: the call path's own refusal.
            beyond = await client.post("/mcp", content=_echo_call("x" * 1_500_000), headers=headers)
    assert (over.status_code, over.headers["connection"]) == (413, "close")
    assert over.json()["error"]["message"].startswith(
        "the request body is larger than 4,065,536 bytes, the most this server reads"
    )
    result = beyond.json()["result"]
    assert result["isError"] is True
    assert json.loads(result["content"][0]["text"])["error"]["kind"] == "limit"


@pytest.mark.parametrize(
    ("content_type", "status"),
    [
        ("application/json", 200),
        ("Application/JSON; charset=utf-8", 200),
        (None, 415),
        ("text/plain", 415),
        ("application/jsonx", 415),
        ("application/x-www-form-urlencoded", 415),
    ],
)
async def test_a_body_that_is_not_json_by_its_content_type_is_415_with_a_json_rpc_error(
    content_type: str | None, status: int
) -> None:
    # The SDK answered most such types with a plain-text 400 (no JSON-RPC message), after
    # reading the body whole, "application/jsonx" with a 415, and refused "Application/JSON".
    app = asgi_app(SampleToolset.to_tools())
    headers = dict(ACCEPT) if content_type is None else {**ACCEPT, "Content-Type": content_type}
    async with httpx2.AsyncClient(transport=transport(app), base_url="http://127.0.0.1") as client:
        with anyio.fail_after(BOUND):
            response = await client.post("/mcp", content=json.dumps(CALL), headers=headers)
    assert response.status_code == status
    if status == 200:
        assert response.json()["result"]["structuredContent"] == {"result": 3}
        return
    assert response.json() == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": -32600,
            "message": "Unsupported Media Type: Content-Type must be application/json",
        },
    }
    assert response.headers["connection"] == "close"


async def test_a_tool_with_larger_limits_gets_bodies_past_the_sdk_s_own_limit() -> None:
    # The SDK refuses bodies over 4 MiB with a plain 413 of its own; the app's bound, four times
    # the largest argument limit plus the envelope, is the only one: 5 MB of arguments reach a
    # tool that takes 10 MB, and past its limit the call path refuses them with its own words.
    class Large(Toolset):
        limits = Limits(max_argument_bytes=10_000_000)

        @tool
        def echo(self, *, text: str) -> int:
            return len(text)

    app = asgi_app(Large.to_tools())
    headers = {**ACCEPT, "Content-Type": "application/json"}

    def call(text: str) -> bytes:
        return _echo_call(text).replace(b"sample_echo", b"large_echo")

    async with httpx2.AsyncClient(transport=transport(app), base_url="http://127.0.0.1") as client:
        with anyio.fail_after(BOUND):
            within = await client.post("/mcp", content=call("x" * 5_000_000), headers=headers)
            beyond = await client.post("/mcp", content=call("x" * 11_000_000), headers=headers)
    assert within.status_code == 200
    assert within.json()["result"]["structuredContent"] == {"result": 5_000_000}
    error = json.loads(beyond.json()["result"]["content"][0]["text"])["error"]
    assert error["kind"] == "limit"


async def test_a_body_sent_in_parts_is_read_only_up_to_the_limit() -> None:
    # No Content-Length (chunked): the parts are counted as they come, and reading stops.
    app = asgi_app(SampleToolset.to_tools(), threads=None)
    part = b" " * 65536
    parts_read = 0
    answers: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal parts_read
        parts_read += 1
        return {"type": "http.request", "body": part, "more_body": parts_read < 1000}

    async def send(message: dict[str, Any]) -> None:
        answers.append(message)

    scope = post_scope()
    with anyio.fail_after(BOUND):
        await app(scope, receive, send)
    assert answers[0]["status"] == 413
    assert parts_read * len(part) <= body_limit(1_000_000) + len(part)  # not 1,000 parts


async def test_mounted_without_its_lifespan_it_starts_on_the_first_request() -> None:
    host = Starlette(routes=[Mount("/tools", asgi_app(SampleToolset.to_tools()))])
    with anyio.fail_after(BOUND):
        async with (
            httpx2.AsyncClient(transport=transport(host)) as http,
            Client(
                streamable_http_client("http://127.0.0.1:8000/tools/mcp", http_client=http)
            ) as client,
        ):
            result = await client.call_tool("sample_add", {"a": 2, "b": 2})
            results = await asyncio.gather(
                *(client.call_tool("sample_add", {"a": i, "b": 0}) for i in range(10))
            )
    assert result.structured_content == {"result": 4}
    assert [r.structured_content for r in results] == [{"result": i} for i in range(10)]
    # The host's loop keeps its own executor: only the app's own lifespan changes it.
    executor = asyncio.get_running_loop()._default_executor  # type: ignore[attr-defined]
    assert not isinstance(executor, DaemonThreads)


async def test_its_lifespan_starts_it_and_installs_the_thread_pool() -> None:
    app = asgi_app(SampleToolset.to_tools(), threads=3)
    loop = asyncio.get_running_loop()
    with anyio.fail_after(BOUND):
        async with app.router.lifespan_context(app):
            response = await post(app, {})
            executor = loop._default_executor  # type: ignore[attr-defined]  # what to_thread uses
    assert response.status_code == 200
    assert isinstance(executor, DaemonThreads)
    executor.shutdown()


async def test_one_app_serves_again_after_its_lifespan_ended() -> None:
    # A module-level app run by two test clients in turn (or a server restarted in process):
    # the SDK's session manager runs once per instance, so each run needs a manager of its own.
    app = asgi_app(SampleToolset.to_tools(), threads=None)
    statuses: list[int] = []
    with anyio.fail_after(BOUND):
        for _ in range(2):
            async with app.router.lifespan_context(app):
                statuses.append((await post(app, {})).status_code)
        # Then mounted in a host that runs no lifespan: started again on the first request.
        statuses.append(
            (await post(Starlette(routes=[Mount("/t", app)]), {}, path="/t/mcp")).status_code
        )
    assert statuses == [200, 200, 200]
