"""The HTTP protocol `serve` runs (`typed_toolsets.server.heads`): bounds uvicorn does not set.

In process, with the bound shortened: a uvicorn server on 127.0.0.1 (port 0) with the protocol,
and a raw client socket.
"""

from __future__ import annotations

import asyncio
import socket

import pytest

pytest.importorskip("uvicorn")

import uvicorn

from typed_toolsets.server import heads

#: Far more than the kernel's socket buffers on both sides hold for a client that reads nothing.
ANSWER = b"x" * 32_000_000


async def _large_answer(scope: dict[str, object], receive: object, send: object) -> None:
    assert scope["type"] == "http"
    await send({"type": "http.response.start", "status": 200, "headers": []})  # type: ignore[operator]
    await send({"type": "http.response.body", "body": ANSWER})  # type: ignore[operator]


class _NeverPaused(heads.HeadsInTime):
    """The protocol, its writes never paused: an answer waits in the buffer unseen until it ends.

    As a remainder smaller than the buffer's high-water mark does after the socket's own
    buffers are full.
    """

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        transport.set_write_buffer_limits(high=len(ANSWER) * 2)
        super().connection_made(transport)


async def _served_to_a_client_that_reads(
    read: bool, protocol: type[heads.HeadsInTime] = heads.HeadsInTime
) -> tuple[int, float, int]:
    """The connections the server holds at the end, how long it took, and the bytes read."""
    listening = socket.create_server(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    config = uvicorn.Config(_large_answer, http=protocol, lifespan="off", log_level="critical")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[listening]))
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.settimeout(0)  # non-blocking, as the loop wants it
    loop = asyncio.get_running_loop()
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        await loop.sock_connect(client, ("127.0.0.1", port))
        await loop.sock_sendall(client, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        while not server.server_state.connections:
            await asyncio.sleep(0.01)
        started = loop.time()
        received = reads = 0
        while loop.time() - started < 10:
            if read:
                try:
                    chunk = await asyncio.wait_for(loop.sock_recv(client, 1 << 20), 1)
                except (asyncio.TimeoutError, ConnectionError):
                    break
                received += len(chunk)
                if received > len(ANSWER) or not chunk:
                    break
                reads += 1
                if not reads % 16:
                    await asyncio.sleep(0.001)  # a slow reader: it takes longer than the bound
            elif server.server_state.connections:
                await asyncio.sleep(0.05)
            else:
                break
        return len(server.server_state.connections), loop.time() - started, received
    finally:
        client.close()
        server.should_exit = True
        await asyncio.wait_for(serving, 10)


@pytest.mark.parametrize("protocol", [heads.HeadsInTime, _NeverPaused])
def test_a_client_that_does_not_read_its_answer_is_disconnected(
    monkeypatch: pytest.MonkeyPatch, protocol: type[heads.HeadsInTime]
) -> None:
    # uvicorn bounds no write: a client that sent a request and never read its (large) answer
    # held the connection for ever, one of uvicorn's limit_concurrency places. So did one whose
    # unsent remainder never filled the buffer past its high-water mark (no pause to time).
    monkeypatch.setattr(heads, "ANSWER_SECONDS", 0.5)
    held, waited, _ = asyncio.run(_served_to_a_client_that_reads(read=False, protocol=protocol))
    assert held == 0
    assert 0.4 < waited < 5


def test_a_client_that_reads_its_answer_gets_it_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heads, "ANSWER_SECONDS", 0.3)
    # Reading it takes longer than the bound, and the answer waits on it all along (the write
    # buffer stays full): the client takes some of it each time, so it is not cut off.
    _, waited, received = asyncio.run(_served_to_a_client_that_reads(read=True))
    assert received > len(ANSWER)  # the whole answer: an aborted connection loses its end
    assert waited > 2 * heads.ANSWER_SECONDS
