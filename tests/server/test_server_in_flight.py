"""How many requests a server serves at once: past `MAX_IN_FLIGHT`, one is answered at once.

Over stdio the bound is tested with the real process (`test_server_stdio_lines`); over HTTP,
uvicorn applies it as configured by `run`, tested here in this process with a small bound.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx2
import pytest
import uvicorn

from tests.server.sample import SampleToolset
from typed_toolsets.server import asgi_app, http

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
