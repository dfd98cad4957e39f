"""``typed-toolsets serve --transport http``: two server processes, one client, loopback only.

Server A is one process, server B runs two uvicorn workers; both require the same bearer
token. The client is the SDK's own Streamable HTTP client, over an HTTP client whose transport
sends each request to the next server in turn (a load balancer in miniature), so consecutive
requests of one MCP session land on different processes: that works only because the server is
stateless.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, ClientSession, MCPError
from mcp.client.streamable_http import streamable_http_client

from tests.server.sample import SampleToolset
from tests.server.support import (
    SAMPLE,
    START_TIMEOUT,
    STOP_TIMEOUT,
    STUBBORN,
    TEXT,
    HttpServer,
    alive,
    children_of,
    flatten,
    text_of,
    wait_until,
)

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

BOUND = 90.0
TOKEN = f"test-token-{uuid.uuid4().hex}"
TOKEN_ENV = "TYPED_TOOLSETS_TEST_TOKEN"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


class Servers:
    def __init__(self, a: HttpServer, b: HttpServer, log_dir: Path) -> None:
        self.a = a
        self.b = b
        self.log_dir = log_dir


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    log_dir = tmp_path_factory.mktemp("http")
    env = {**os.environ, TOKEN_ENV: TOKEN}
    args = (SAMPLE, TEXT, "--token-env", TOKEN_ENV)
    a = HttpServer(args, log_dir / "a.log", env)
    b = HttpServer((*args, "--workers", "2"), log_dir / "b.log", env)
    try:
        a.wait_started()
        b.wait_started()
        yield Servers(a, b, log_dir)
    finally:
        workers = children_of(b.pid)
        # A stop by SIGTERM is a clean stop: status 0, with one worker or several.
        assert (a.stop(), b.stop()) == (0, 0)
        # Stopping the server stopped its workers: no process is left behind.
        wait_until(lambda: not any(alive(pid) for pid in workers), 20, "B's workers to exit")


class RoundRobin(httpx2.AsyncBaseTransport):
    """Sends each request to the next of *ports* on 127.0.0.1, and records where each went."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.sent: list[tuple[int, str]] = []
        self.statuses: list[int] = []
        self._inner = httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        port = self.ports[len(self.sent) % len(self.ports)]
        body = json.loads(request.content) if request.content else {}
        self.sent.append(
            (port, body.get("method", request.method) if isinstance(body, dict) else "?")
        )
        request.url = request.url.copy_with(port=port)
        response = await self._inner.handle_async_request(request)
        self.statuses.append(response.status_code)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


def http_client(
    transport: httpx2.AsyncBaseTransport, token: str | None = TOKEN
) -> httpx2.AsyncClient:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return httpx2.AsyncClient(transport=transport, headers=headers, timeout=BOUND)


def alternated(sent: list[tuple[int, str]]) -> bool:
    ports = [port for port, _ in sent]
    return len(set(ports)) == 2 and all(x != y for x, y in itertools.pairwise(ports))


# ------------------------------------------------------------------------------ stateless


async def test_a_handshake_session_alternating_between_two_servers(servers: Servers) -> None:
    balancer = RoundRobin([servers.a.port, servers.b.port])
    pids: set[int] = set()
    with anyio.fail_after(BOUND):
        async with (
            http_client(balancer) as client,
            streamable_http_client(servers.a.url, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()  # A
            listed = await session.list_tools()
            assert "sample_add" in [tool.name for tool in listed.tools]
            for _ in range(6):
                result = await session.call_tool("sample_pid", {})
                assert result.is_error is False
                pids.add(int(text_of(result)))
            added = await session.call_tool("sample_add", {"a": 20, "b": 22})
            assert added.structured_content == {"result": 42}
    methods = [method for _, method in balancer.sent]
    assert methods[:3] == ["initialize", "notifications/initialized", "tools/list"]
    assert alternated(balancer.sent), balancer.sent
    # Server A's own process answered, and so did one of server B's workers.
    assert servers.a.pid in pids
    assert len(pids) >= 2


async def test_a_modern_client_alternating_between_two_servers(servers: Servers) -> None:
    balancer = RoundRobin([servers.b.port, servers.a.port])
    with anyio.fail_after(BOUND):
        async with http_client(balancer) as client:
            transport = streamable_http_client(servers.a.url, http_client=client)
            async with Client(transport) as session:
                listed = await session.list_tools()
                # The sample toolset's tools and the text toolset's eight.
                assert len(listed.tools) == len(SampleToolset.to_tools()) + 8
                for i in range(6):
                    result = await session.call_tool(
                        "text_wc", {"text": "w " * i, "words_only": True}
                    )
                    assert (result.is_error, text_of(result)) == (False, f"Words: {i}")
                bad = await session.call_tool("sample_add", {"a": "x", "b": 1})
                assert bad.is_error is True
                assert json.loads(text_of(bad))["error"]["details"][0]["path"] == "$.a"
    assert alternated(balancer.sent), balancer.sent


async def test_200_concurrent_calls_across_both_servers(servers: Servers) -> None:
    balancer = RoundRobin([servers.a.port, servers.b.port])
    results: dict[int, Any] = {}
    with anyio.fail_after(BOUND * 2):
        async with (
            http_client(balancer) as client,
            Client(streamable_http_client(servers.a.url, http_client=client)) as session,
        ):

            async def one(i: int) -> None:
                results[i] = await session.call_tool("sample_add", {"a": i, "b": i * 1000})

            async with anyio.create_task_group() as group:
                for i in range(200):
                    group.start_soon(one, i)
    assert sorted(results) == list(range(200))
    for i, result in results.items():
        assert (result.is_error, result.structured_content) == (False, {"result": i * 1001})
    calls = [port for port, method in balancer.sent if method == "tools/call"]
    assert len(calls) == 200
    # The client's own requests (it lists the tools to check structured results) interleave,
    # so the split need not be exactly even; both servers took a good share.
    assert min(calls.count(servers.a.port), calls.count(servers.b.port)) >= 50


async def test_a_call_without_initialize_is_answered_as_json(servers: Servers) -> None:
    request = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "text_wc", "arguments": {"text": "one two"}},
    }
    headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {TOKEN}"}
    with anyio.fail_after(BOUND):
        async with httpx2.AsyncClient(timeout=BOUND) as client:
            response = await client.post(servers.b.url, json=request, headers=headers)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert "mcp-session-id" not in response.headers
    assert response.json() == {
        "jsonrpc": "2.0",
        "id": 7,
        "result": {
            "content": [{"type": "text", "text": "Lines: 1, Words: 2, Characters: 7"}],
            "isError": False,
        },
    }


# --------------------------------------------------------------------------- cancellation


async def _cancelled_when_the_caller_gives_up(marker: Path, call: Any) -> None:
    """Start *call*, give up once the tool has started, and see the tool cancelled."""
    async with anyio.create_task_group() as group:
        group.start_soon(call)
        with anyio.fail_after(BOUND):
            while not marker.exists():
                await anyio.sleep(0.05)
        group.cancel_scope.cancel()
    with anyio.fail_after(BOUND):
        while marker.read_text() != "cancelled":
            await anyio.sleep(0.05)


@pytest.mark.parametrize("client", ["raw", "per-request"])
async def test_a_caller_giving_up_cancels_the_async_tool(servers: Servers, client: str) -> None:
    # Stateless, a client cannot reach a call with notifications/cancelled (another process
    # may get it): closing the request is how it cancels. A plain HTTP client does that, and
    # so does the SDK's client on the 2026-07-28 protocol; on the handshake protocol the SDK's
    # client leaves the request open (docs/server.md says so).
    marker = servers.log_dir / f"cancel-{client}-{uuid.uuid4().hex}"
    arguments = {"seconds": 60, "marker": str(marker)}
    balancer = RoundRobin([servers.a.port])
    async with http_client(balancer) as http:
        if client == "raw":
            request = {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "sample_asleep", "arguments": arguments},
            }
            headers = {"Accept": "application/json, text/event-stream"}

            async def call() -> None:
                await http.post(servers.a.url, json=request, headers=headers)

            await _cancelled_when_the_caller_gives_up(marker, call)
        else:
            async with Client(streamable_http_client(servers.a.url, http_client=http)) as session:
                await _cancelled_when_the_caller_gives_up(
                    marker, lambda: session.call_tool("sample_asleep", arguments)
                )
    wait_until(
        lambda: servers.a.log().count("tool=sample_asleep outcome=cancelled") >= 1,
        10,
        "the cancelled call's log line",
    )


# ---------------------------------------------------------------------------------- token


async def test_without_the_token_a_request_gets_401_and_no_tool_runs(servers: Servers) -> None:
    marker = servers.log_dir / f"touched-{uuid.uuid4().hex}"
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "sample_touch", "arguments": {"path": str(marker)}},
    }
    accept = {"Accept": "application/json, text/event-stream"}
    with anyio.fail_after(BOUND):
        async with httpx2.AsyncClient(timeout=BOUND) as client:
            missing = await client.post(servers.a.url, json=request, headers=accept)
            wrong = await client.post(
                servers.b.url, json=request, headers={**accept, "Authorization": "Bearer nope"}
            )
            basic = await client.post(
                servers.a.url, json=request, headers={**accept, "Authorization": f"Basic {TOKEN}"}
            )
    assert [r.status_code for r in (missing, wrong, basic)] == [401, 401, 401]
    assert missing.headers["www-authenticate"] == "Bearer"
    assert wrong.headers["www-authenticate"] == 'Bearer error="invalid_token"'
    assert missing.json()["error"] == "invalid_token"
    assert TOKEN not in missing.text + wrong.text + basic.text
    # The SDK client without the token is refused too.
    refused = RoundRobin([servers.a.port])
    with pytest.raises(BaseException) as raised:
        await _list_tools(servers.a.url, refused)
    assert any(isinstance(e, MCPError) for e in flatten(raised.value)), raised.value
    assert set(refused.statuses) == {401}
    assert not marker.exists()
    assert "sample_touch" not in servers.a.log() + servers.b.log()
    # With the token, the same call runs.
    balancer = RoundRobin([servers.a.port])
    with anyio.fail_after(BOUND):
        async with (
            http_client(balancer) as client,
            Client(streamable_http_client(servers.a.url, http_client=client)) as session,
        ):
            await session.call_tool("sample_touch", {"path": str(marker)})
    assert marker.exists()


async def _list_tools(url: str, transport: RoundRobin) -> None:
    with anyio.fail_after(BOUND):
        async with (
            http_client(transport, token=None) as client,
            Client(streamable_http_client(url, http_client=client)) as session,
        ):
            await session.list_tools()


async def test_the_logs_have_one_line_per_call_and_no_values(servers: Servers) -> None:
    secret = f"secret-{uuid.uuid4().hex}"
    balancer = RoundRobin([servers.a.port, servers.b.port])
    with anyio.fail_after(BOUND):
        async with (
            http_client(balancer) as client,
            Client(streamable_http_client(servers.a.url, http_client=client)) as session,
        ):
            await session.call_tool("sample_echo", {"text": secret})
            await session.call_tool("sample_echo", {"text": secret})
    wait_until(
        lambda: (servers.a.log() + servers.b.log()).count("tool=sample_echo") == 2, 10, "log lines"
    )
    logs = servers.a.log() + servers.b.log()
    assert secret not in logs
    assert "(2 workers)" in servers.b.log()
    assert "Traceback" not in logs


# ------------------------------------------------------------------------------- stopping

#: uvicorn's graceful period in `typed_toolsets.server.http.run` (timeout_graceful_shutdown).
GRACE = 5.0
ACCEPT = {"Accept": "application/json, text/event-stream"}
STOPPED = {
    "code": -32603,
    "message": "the server is stopping: the call was cancelled before it finished",
}


def _asleep(ident: int | str, seconds: float, marker: Path) -> dict[str, Any]:
    arguments = {"seconds": seconds, "marker": str(marker)}
    params = {"name": "sample_asleep", "arguments": arguments}
    return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}


async def _started(*markers: Path) -> None:
    with anyio.fail_after(BOUND):
        while not all(marker.exists() for marker in markers):
            await anyio.sleep(0.05)


def _stopped_cleanly(server: HttpServer, signalled: float) -> None:
    """The server exits by itself with status 0 soon after the graceful period, no traceback."""
    status = server.process.wait(STOP_TIMEOUT)
    assert (status, time.monotonic() - signalled < GRACE + 10) == (0, True), server.log()
    log = server.log()
    assert "Traceback" not in log
    assert "Exception in ASGI application" not in log
    assert log.count("tool=sample_asleep outcome=cancelled") == 1, log


@pytest.mark.parametrize(
    ("stop", "workers"),
    [(signal.SIGTERM, 1), (signal.SIGINT, 1), (signal.SIGTERM, 2)],
    ids=["SIGTERM", "SIGINT", "SIGTERM-2-workers"],
)
async def test_a_stop_answers_the_calls_still_running(
    tmp_path: Path, stop: signal.Signals, workers: int
) -> None:
    # A call that ends within the graceful period gets its result; one still running after it
    # is cancelled and answered with a JSON-RPC error (HTTP 503), not a 500 and a traceback.
    server = HttpServer((SAMPLE, "--workers", str(workers)), tmp_path / "serve.log")
    try:
        server.wait_started()
        short, long = tmp_path / "short", tmp_path / "long"
        answers: dict[str, httpx2.Response] = {}
        async with httpx2.AsyncClient(timeout=BOUND) as client:

            async def post(name: str, request: dict[str, Any]) -> None:
                answers[name] = await client.post(server.url, json=request, headers=ACCEPT)

            async with anyio.create_task_group() as group:
                group.start_soon(post, "short", _asleep(7, 2, short))
                group.start_soon(post, "long", _asleep("long-1", 60, long))
                await _started(short, long)
                signalled = time.monotonic()
                os.kill(server.pid, stop)
        assert answers["short"].status_code == 200
        assert answers["short"].json()["result"]["structuredContent"] == {"result": 2}
        assert answers["long"].status_code == 503
        assert answers["long"].headers["content-type"] == "application/json"
        assert answers["long"].json() == {"jsonrpc": "2.0", "id": "long-1", "error": STOPPED}
        assert long.read_text() == "cancelled"
        _stopped_cleanly(server, signalled)
    finally:
        server.stop()


def _refused(host: str, port: int) -> bool:
    """Whether a connection to *host*:*port* is refused (not queued, as a listening socket does)."""
    try:
        with socket.create_connection((host, port), timeout=1):
            return False
    except ConnectionRefusedError:
        return True


@pytest.mark.parametrize("workers", [1, 2])
async def test_a_stopping_server_refuses_new_connections_at_once(
    tmp_path: Path, workers: int
) -> None:
    # With two workers, the parent's copy of the listening socket kept it listening through the
    # stop's graceful period (5 s): a connection made then was queued for no one, held, and
    # dropped unanswered at the end (a POST its client cannot tell ran or not).
    server = HttpServer((SAMPLE, "--workers", str(workers)), tmp_path / "serve.log")
    try:
        server.wait_started()
        marker = tmp_path / "long"
        async with httpx2.AsyncClient(timeout=BOUND) as client:

            async def post() -> None:
                await client.post(server.url, json=_asleep(1, 60, marker), headers=ACCEPT)

            async with anyio.create_task_group() as group:
                group.start_soon(post)
                await _started(marker)
                os.kill(server.pid, signal.SIGTERM)
                signalled = time.monotonic()
                # Well within the graceful period, which the call left running holds open.
                while not await anyio.to_thread.run_sync(_refused, "127.0.0.1", server.port):
                    assert time.monotonic() - signalled < 4, "connections were still taken"
                    await anyio.sleep(0.1)
        assert server.process.wait(BOUND) == 0
    finally:
        server.stop()


async def test_a_stop_tells_the_sdk_client_why_its_call_ended(tmp_path: Path) -> None:
    # The SDK's client (on the 2026-07-28 protocol, another path through the SDK's server)
    # raises the JSON-RPC error it was answered with.
    server = HttpServer((SAMPLE,), tmp_path / "serve.log")
    try:
        server.wait_started()
        marker = tmp_path / "long"
        arguments = {"seconds": 60, "marker": str(marker)}
        failures: list[MCPError] = []
        with anyio.fail_after(BOUND):
            async with Client(server.url) as session:

                async def call() -> None:
                    try:
                        await session.call_tool("sample_asleep", arguments)
                    except MCPError as exc:
                        failures.append(exc)

                async with anyio.create_task_group() as group:
                    group.start_soon(call)
                    await _started(marker)
                    signalled = time.monotonic()
                    os.kill(server.pid, signal.SIGTERM)
        assert [(e.code, e.message) for e in failures] == [(STOPPED["code"], STOPPED["message"])]
        _stopped_cleanly(server, signalled)
    finally:
        server.stop()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stop_while_a_body_is_arriving_answers_it_without_a_traceback(
    tmp_path: Path, stop: signal.Signals
) -> None:
    # The body was read outside the answer-when-stopped guard: uvicorn's cancellation at the
    # end of its graceful period reached it as the app's failure, a 500 and a traceback.
    server = HttpServer((SAMPLE,), tmp_path / "serve.log")
    try:
        server.wait_started()
        with socket.create_connection(("127.0.0.1", server.port), timeout=BOUND) as client:
            client.sendall(
                b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{"
            )
            time.sleep(0.5)  # the app is reading the body
            os.kill(server.pid, stop)
            answer = b""
            while chunk := client.recv(4096):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503 "), answer
        assert json.loads(body) == {"jsonrpc": "2.0", "id": None, "error": STOPPED}
        assert server.process.wait(STOP_TIMEOUT) == 0
        log = server.log()
        assert "Traceback" not in log
        assert "Exception in ASGI application" not in log
    finally:
        server.stop()


async def test_a_second_ctrl_c_stops_without_a_traceback(tmp_path: Path) -> None:
    # uvicorn's forced exit skips the lifespan's shutdown and ends the loop, which cancelled
    # the lifespan's task: uvicorn logged that cancellation with a traceback. (On Python 3.13
    # the second Ctrl-C does not force the exit: the stop takes its graceful period.)
    server = HttpServer((SAMPLE,), tmp_path / "serve.log")
    try:
        server.wait_started()
        marker = tmp_path / "long"
        answers: list[httpx2.Response] = []
        async with httpx2.AsyncClient(timeout=BOUND) as client:

            async def post() -> None:
                request = _asleep("long-1", 60, marker)
                answers.append(await client.post(server.url, json=request, headers=ACCEPT))

            async with anyio.create_task_group() as group:
                group.start_soon(post)
                await _started(marker)
                signalled = time.monotonic()
                os.kill(server.pid, signal.SIGINT)
                await anyio.sleep(1)
                os.kill(server.pid, signal.SIGINT)
        assert [(a.status_code, a.json()["error"]) for a in answers] == [(503, STOPPED)]
        status = server.process.wait(STOP_TIMEOUT)
        assert (status, time.monotonic() - signalled < GRACE + 10) == (0, True), server.log()
        assert "Traceback" not in server.log()
    finally:
        server.stop()


@pytest.mark.parametrize("workers", [1, 2])
async def test_a_call_that_ignores_its_cancellation_does_not_hold_the_stop(
    tmp_path: Path, workers: int
) -> None:
    # After the graceful period the call is cancelled and answered; then the app's lifespan
    # waited for it, and asyncio's ending after it: the process never ended. It ends once the
    # call has had `stopping.STOP_GRACE` to stop, with a clean stop's status.
    server = HttpServer((STUBBORN, "--workers", str(workers)), tmp_path / "serve.log")
    try:
        server.wait_started()
        marker = tmp_path / "marker"
        call = {
            "jsonrpc": "2.0",
            "id": "stubborn",
            "method": "tools/call",
            "params": {"name": "stubborn_ignore", "arguments": {"marker": str(marker)}},
        }
        answers: list[httpx2.Response] = []
        async with (
            httpx2.AsyncClient(timeout=BOUND) as client,
            anyio.create_task_group() as group,
        ):

            async def post() -> None:
                answers.append(await client.post(server.url, json=call, headers=ACCEPT))

            group.start_soon(post)
            await _started(marker)
            signalled = time.monotonic()
            os.kill(server.pid, signal.SIGTERM)
        assert [(a.status_code, a.json()["error"]) for a in answers] == [(503, STOPPED)]
        status = server.process.wait(STOP_TIMEOUT)
        assert (status, time.monotonic() - signalled < GRACE + 10) == (0, True), server.log()
        log = server.log()
        assert marker.read_text() == "cancelled"
        assert "calls still running did not stop within 0.5 s of their cancellation" in log
        assert "Traceback" not in log
    finally:
        server.stop()


# -------------------------------------------------------------------------------- gunicorn

GUNICORN_APP = """\
from typed_toolsets.server import asgi_app
from typed_toolsets.text import TextProcessingToolset

app = asgi_app(TextProcessingToolset.to_tools())
"""


async def test_the_app_runs_under_gunicorn_with_two_workers(tmp_path: Path) -> None:
    pytest.importorskip("gunicorn")
    (tmp_path / "mcp_app.py").write_text(GUNICORN_APP)
    log = tmp_path / "gunicorn.log"
    argv = [
        sys.executable, "-m", "gunicorn", "--workers", "2", "--worker-class", "asgi",
        "--no-control-socket", "--bind", "127.0.0.1:0", "--chdir", str(tmp_path), "mcp_app:app",
    ]  # fmt: skip
    with log.open("wb") as stderr:
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stderr, stderr=stderr)
    workers: set[int] = set()
    try:
        wait_until(
            lambda: (
                log.read_text().count("ASGI server listening") == 2 or process.poll() is not None
            ),
            START_TIMEOUT,
            "two gunicorn workers",
        )
        found = re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", log.read_text())
        assert found is not None, log.read_text()
        workers = children_of(process.pid)
        assert len(workers) == 2
        with anyio.fail_after(BOUND):
            async with Client(f"{found.group(1)}/mcp") as session:
                listed = await session.list_tools()
                results = [
                    await session.call_tool("text_wc", {"text": "a " * i, "words_only": True})
                    for i in range(4)
                ]
        assert len(listed.tools) == 8
        assert [text_of(r) for r in results] == [f"Words: {i}" for i in range(4)]
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(STOP_TIMEOUT)
    wait_until(lambda: not any(alive(pid) for pid in workers), 20, "gunicorn's workers to exit")


WORKER_ONLY_FAILURE = """\
import os

from typed_toolsets import Toolset, tool

# Imports in the serve process, fails in its workers (as a module binding a fixed port would).
if "TYPED_TOOLSETS_SERVE_SETTINGS" in os.environ:
    raise RuntimeError("only the first process may open the metrics port")


class Metrics(Toolset):
    @tool
    def ping(self) -> str:
        return "pong"
"""


def test_a_worker_that_cannot_load_the_targets_stops_the_server(tmp_path: Path) -> None:
    # uvicorn started the worker again, failing the same way, for ever; the server never ended.
    target = tmp_path / "worker_only_failure.py"
    target.write_text(WORKER_ONLY_FAILURE, encoding="utf-8")
    server = HttpServer((str(target), "--workers", "2"), tmp_path / "serve.log")
    try:
        status = server.process.wait(START_TIMEOUT)
    finally:
        server.stop()
    log = server.log()
    assert status == 2, log
    assert "Traceback" not in log
    errors = [line for line in log.splitlines() if line.startswith("typed-toolsets serve: error:")]
    assert re.fullmatch(
        r"typed-toolsets serve: error: worker process \d+: cannot import 'worker_only_failure': "
        r"RuntimeError: only the first process may open the metrics port "
        r"\(.*worker_only_failure\.py, line 7\)",
        errors[0],
    ), log
    assert re.fullmatch(
        r"typed-toolsets serve: error: worker process [\d, ]+ could not start \(its error is "
        r"above\); the server stopped",
        errors[-1],
    ), log


def test_workers_end_when_the_server_process_is_killed(tmp_path: Path) -> None:
    # Killed with SIGKILL, the server could not stop its workers: they served on, holding the
    # port (a supervisor restarting the server got "address already in use").
    server = HttpServer((SAMPLE, "--workers", "2"), tmp_path / "serve.log")
    try:
        server.wait_started()

        def spawned() -> set[int]:  # the workers, not multiprocessing's resource tracker
            return {
                pid
                for pid in children_of(server.pid)
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
            }

        wait_until(lambda: len(spawned()) == 2, START_TIMEOUT, "the workers")
        workers = children_of(server.pid)
        # A worker answers: it has built its app (the other may still be building its own).
        request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        assert httpx2.post(server.url, json=request, headers=ACCEPT, timeout=BOUND).is_success
        os.kill(server.pid, signal.SIGKILL)
        server.process.wait(STOP_TIMEOUT)
        # Killed before the workers had built their apps (read by then, the parent they saw
        # was already gone) or after: they end either way.
        wait_until(lambda: not any(alive(pid) for pid in workers), 30, "the workers to exit")
        with socket.create_server(("127.0.0.1", server.port)):
            pass  # the port is free again
    finally:
        for pid in children_of(server.pid) | (workers if "workers" in locals() else set()):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        server.stop()
