"""How many requests a server serves at once: past `MAX_IN_FLIGHT`, one is answered at once.

Over stdio the bound is tested with the real process (`test_server_stdio_lines`); over HTTP,
uvicorn applies it as configured by `run`, tested here in this process with a small bound.
"""

from __future__ import annotations

import resource
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2
import pytest
import uvicorn

from tests.server.sample import SampleToolset
from tests.server.support import SAMPLE, HttpServer
from typed_toolsets.server import asgi_app, http
from typed_toolsets.server.files import FILES_PER_REQUEST, FILES_RESERVED, files_for
from typed_toolsets.server.protocol import MAX_IN_FLIGHT

BOUND = 60.0
SECONDS = 2.0
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _slow_call(url: str) -> tuple[int, float]:
    """POST one call of ``sample_asleep`` on its own connection: its status, and when it came."""
    params = {"name": "sample_asleep", "arguments": {"seconds": SECONDS}}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
    started = time.monotonic()
    with httpx2.Client(timeout=BOUND) as client:
        response = client.post(url, json=call, headers=HEADERS)
    return response.status_code, time.monotonic() - started


def test_over_http_requests_past_the_bound_are_answered_503_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(http, "MAX_IN_FLIGHT", 3)
    sock = http._bind("127.0.0.1", 0)
    app = asgi_app(SampleToolset.to_tools())
    server = uvicorn.Server(http._config(app, "127.0.0.1", sock.getsockname()[1], 1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + BOUND
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.01)
        url = http.url_of(sock)
        with ThreadPoolExecutor(6) as pool:
            # Two first, in flight before the others connect: uvicorn counts open connections
            # against the bound too, so six opened at once (a loaded machine runs the threads
            # before the server reads a request) could all be refused.
            first = [pool.submit(_slow_call, url) for _ in range(2)]
            time.sleep(SECONDS / 4)
            later = [pool.submit(_slow_call, url) for _ in range(4)]
            answers = [future.result() for future in first + later]
    finally:
        server.should_exit = True
        thread.join(BOUND)
        sock.close()
    served = [seconds for status, seconds in answers if status == 200]
    refused = [seconds for status, seconds in answers if status == 503]
    assert len(served) + len(refused) == len(answers)
    assert 1 <= len(served) <= 3
    assert min(served) >= SECONDS
    assert len(refused) >= 3
    assert max(refused) < SECONDS


def _open_files(pid: int) -> tuple[int, int]:
    """The (soft, hard) limits on open files of process *pid*."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            soft, hard = line.split()[3:5]
            return int(soft), int(hard)
    raise AssertionError(f"no open files limit for {pid}")


WANTED = MAX_IN_FLIGHT * FILES_PER_REQUEST + FILES_RESERVED


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="reads /proc")
def test_the_soft_limit_on_open_files_is_raised_for_the_bound(tmp_path: Path) -> None:
    # Under the usual soft limit of 1,024 files, connections past it failed in uvicorn's accept
    # loop (a traceback each, thousands a second) instead of getting their 503.
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard != resource.RLIM_INFINITY and hard < WANTED:
        pytest.skip(f"the hard limit on open files ({hard}) is below {WANTED}")
    server = HttpServer((SAMPLE,), tmp_path / "serve.log", open_files=(1024, WANTED + 100))
    try:
        server.wait_started()
        assert _open_files(server.pid) == (WANTED, WANTED + 100)
        assert "requests are served at once" not in server.log()
    finally:
        server.stop()


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="reads /proc")
def test_under_a_low_hard_limit_the_bound_is_what_it_allows(tmp_path: Path) -> None:
    server = HttpServer((SAMPLE,), tmp_path / "serve.log", open_files=(200, 200))
    allowed = (200 - FILES_RESERVED) // FILES_PER_REQUEST
    idle: list[socket.socket] = []
    try:
        server.wait_started()
        assert (
            f"the process may open 200 files: at most {allowed} requests are served at once, "
            f"not {MAX_IN_FLIGHT} (raise its hard limit, `ulimit -Hn`, to {WANTED} or more)"
        ) in server.log()
        # Connections fill the bound (uvicorn counts idle ones): the next request is answered
        # 503 at once, where it waited while the accept loop logged "Too many open files".
        idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(allowed)]
        started = time.monotonic()
        status, _ = _slow_call(server.url)
        assert status == 503
        assert time.monotonic() - started < SECONDS
        assert "Too many open files" not in server.log()
    finally:
        for connection in idle:
            connection.close()
        server.stop()


def test_the_limit_is_put_back_when_the_server_ends() -> None:
    # `serve` may run in a caller's process that goes on: the raised limit stayed.
    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    lowered = (min(1024, before[0]), before[1])
    resource.setrlimit(resource.RLIMIT_NOFILE, lowered)
    try:
        with files_for(MAX_IN_FLIGHT) as at_once:
            during = resource.getrlimit(resource.RLIMIT_NOFILE)
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == lowered
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, before)
    if lowered[1] == resource.RLIM_INFINITY or lowered[1] >= WANTED:
        assert (during, at_once) == ((WANTED, lowered[1]), MAX_IN_FLIGHT)
