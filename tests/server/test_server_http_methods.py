"""``typed-toolsets serve --transport http`` without a token: what each HTTP method is answered.

A real server process on 127.0.0.1 (port 0), driven with raw HTTP requests: the cases the SDK's
client never sends (other methods, a rebinding page's ``Host`` or ``Origin``).
"""

from __future__ import annotations

import itertools
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from tests.server.support import SAMPLE, HttpServer

pytestmark = pytest.mark.slow

BOUND = 30.0
PING = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()
JSON = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    log = tmp_path_factory.mktemp("methods") / "server.log"
    served = HttpServer((SAMPLE,), Path(log))
    try:
        yield served.wait_started()
    finally:
        assert served.stop() == 0


def announced(server: HttpServer, size: int, headers: dict[str, str]) -> int:
    """The status answered to a POST whose headers announce *size* bytes; no body is sent.

    Raw, so the answer can be read before the body: a client still sending a large body may
    see the server close the connection instead (see docs/server.md).
    """
    lines = ["POST /mcp HTTP/1.1", f"Content-Length: {size}", "Connection: close"]
    lines += [
        f"{name}: {value}" for name, value in {"Host": "127.0.0.1", **JSON, **headers}.items()
    ]
    with socket.create_connection(("127.0.0.1", server.port), timeout=BOUND) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        status_line = sock.makefile("rb").readline()
    return int(status_line.split()[1])


@pytest.mark.parametrize("method", ["GET", "DELETE", "OPTIONS", "PUT", "PATCH", "HEAD"])
def test_every_method_but_post_is_405_allowing_post(server: HttpServer, method: str) -> None:
    # The SDK answered OPTIONS, PUT and the like 405 with "Allow: GET, POST, DELETE", two
    # methods this server refuses, and DELETE 405 with no Allow header at all.
    response = httpx2.request(method, server.url, headers=JSON, timeout=BOUND)
    assert (response.status_code, response.headers.get("allow")) == (405, "POST")
    if method != "HEAD":
        assert response.json()["error"]["code"] == -32600


@pytest.mark.parametrize(
    ("method", "body", "header", "status"),
    [
        ("GET", b"", {"Host": "attacker.example"}, 421),
        ("OPTIONS", b"", {"Host": "attacker.example:80"}, 421),
        ("GET", b"", {"Origin": "http://attacker.example"}, 403),
        ("POST", PING, {"Host": "attacker.example"}, 421),
    ],
)
def test_a_foreign_host_or_origin_is_refused_whatever_the_request(
    server: HttpServer, method: str, body: bytes, header: dict[str, str], status: int
) -> None:
    # Our own answers (405 to GET, 413 to a large body) came before the Host and Origin checks,
    # so a page reached through DNS rebinding could still read them.
    response = httpx2.request(
        method, server.url, content=body, headers={**JSON, **header}, timeout=BOUND
    )
    assert response.status_code == status
    assert "Invalid" in response.text


def test_a_foreign_host_or_origin_is_refused_before_the_body_size(server: HttpServer) -> None:
    # A body over the limit was answered 413 whatever its Host and Origin.
    assert announced(server, 5_000_000, {"Host": "attacker.example"}) == 421
    assert announced(server, 5_000_000, {"Origin": "http://attacker.example"}) == 403
    assert announced(server, 5_000_000, {}) == 413


def test_loopback_requests_are_still_answered(server: HttpServer) -> None:
    response = httpx2.post(
        server.url, content=PING, headers={**JSON, "Origin": "http://localhost:3000"}, timeout=BOUND
    )
    assert (response.status_code, response.json()) == (
        200,
        {"jsonrpc": "2.0", "id": 1, "result": {}},
    )


def test_refused_hosts_and_origins_write_nothing_into_the_log(server: HttpServer) -> None:
    # The SDK's warning per refusal reached stderr bare (Python's last-resort handler), with
    # the header as sent: any web page could write lines into the server's log.
    for header in ({"Host": "forged-line.example"}, {"Origin": "http://forged-line.example"}):
        response = httpx2.post(server.url, content=PING, headers={**JSON, **header}, timeout=BOUND)
        assert response.status_code in (403, 421)
    log = server.log()
    assert "forged-line" not in log
    assert all(" typed-toolsets serve: " in line for line in log.splitlines()), log


def test_a_connection_whose_request_head_never_ends_is_closed(server: HttpServer) -> None:
    # uvicorn bounds a connection's idle time only after a first answer, and any byte stops
    # that timer: connections sending nothing, or a header byte now and then, were held for
    # ever, and enough of them (uvicorn counts them in limit_concurrency) had every call
    # answered 503.
    from typed_toolsets.server.heads import HEAD_SECONDS

    silent = socket.create_connection(("127.0.0.1", server.port), timeout=BOUND)
    dripping = socket.create_connection(("127.0.0.1", server.port), timeout=BOUND)
    try:
        opened = time.monotonic()
        dripping.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for header in itertools.count():
            if time.monotonic() - opened > HEAD_SECONDS + 10:
                pytest.fail("the connection is still open")
            try:
                dripping.sendall(f"X-{header}: 1\r\n".encode())
            except OSError:  # closed by the server
                break
            time.sleep(0.5)
        assert time.monotonic() - opened > HEAD_SECONDS - 1
        assert silent.recv(1) == b""  # closed too, without an answer
        # A request whose head comes in time is answered as before.
        response = httpx2.post(server.url, content=PING, headers=JSON, timeout=BOUND)
        assert response.status_code == 200
    finally:
        silent.close()
        dripping.close()


@pytest.mark.parametrize(
    ("head", "status"),
    [
        ("POST /nope HTTP/1.1\r\nHost: 127.0.0.1", b"404"),
        ("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1", b"405"),
        ("POST /mcp HTTP/1.1\r\nHost: attacker.example", b"421"),
    ],
)
def test_a_request_answered_before_its_body_leaves_no_connection_held(
    server: HttpServer, head: str, status: bytes
) -> None:
    # uvicorn waited for the rest of the body it never read, and each byte stopped its
    # keep-alive timer: a client sending one a second held the connection for ever.
    with socket.create_connection(("127.0.0.1", server.port), timeout=BOUND) as sock:
        sock.sendall(f"{head}\r\nContent-Length: 100000000\r\n\r\n".encode())
        received = b""
        started = time.monotonic()
        while time.monotonic() - started < BOUND:
            try:
                sock.sendall(b"a")
                chunk = sock.recv(65536)
            except OSError:  # reset: closed
                break
            if not chunk:
                break
            received += chunk
            time.sleep(0.2)
        assert time.monotonic() - started < 5
    assert received.startswith(b"HTTP/1.1 " + status), received
