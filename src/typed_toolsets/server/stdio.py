"""The stdio transport: one client, JSON-RPC over this process's stdin and stdout.

While serving, file descriptor 1 points at stderr (the SDK moves it) and 0 at the null device
(we do, see below), so nothing a tool (or a program it runs) prints or reads can corrupt the
protocol (what is left in ``sys.stdout``'s buffer is flushed there before the SDK gives file
descriptor 1 back); our log lines go to stderr. When the client closes stdin, in-flight calls
are cancelled (an async tool is cancelled; a sync tool's daemon thread is abandoned) and the
server returns.

The requests are read from a private duplicate of file descriptor 0 by a daemon thread of ours,
not by the SDK's reader: that one waits in a thread the interpreter joins, and cannot be
cancelled, so Ctrl-C (or any cancellation) would wait for the client's next line or the end of
stdin.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sys
import threading
from collections.abc import Callable, Generator, Iterable
from typing import IO, TYPE_CHECKING, cast

from mcp.server.stdio import stdio_server

from typed_toolsets import ToolProxy

from .protocol import DEFAULT_NAME, logger, mcp_server, tools_text
from .stopping import Watchdog, watchdog
from .threads import DEFAULT_THREADS, DaemonThreads

if TYPE_CHECKING:
    import anyio

__all__ = ["serve_stdio"]


async def serve_stdio(
    tools: Iterable[ToolProxy],
    *,
    name: str = DEFAULT_NAME,
    log_arguments: bool = False,
    threads: int | None = DEFAULT_THREADS,
) -> None:
    """Serve *tools* over stdin/stdout until the client closes stdin.

    Args:
        tools: The proxies to offer.
        name: The server name clients see.
        log_arguments: Log each call's argument values too.
        threads: Make the event loop's default executor a pool of this many daemon threads for
            sync tools (`DaemonThreads`); None leaves it as it is.

    Raises:
        ExportError: Two tools have the same exported name.
    """
    proxies = list(tools)
    server = mcp_server(proxies, name=name, log_arguments=log_arguments)
    if threads is not None:
        asyncio.get_running_loop().set_default_executor(DaemonThreads(threads))
    logger.info("serving %s over stdio", tools_text(proxies))
    with _stdin_lines() as lines:
        stdin = cast("anyio.AsyncFile[str] | None", lines)  # the SDK only iterates over it
        async with stdio_server(stdin) as (read_stream, write_stream):
            try:
                await server.run(read_stream, write_stream, server.create_initialization_options())
            finally:
                # What tools printed may still sit in sys.stdout's buffer; flushed at exit, it
                # would reach the protocol stream, which the SDK gives back to file descriptor 1
                # on leaving.
                _flush_stdout()
    logger.info("stdin closed; stopping")


def _flush_stdout() -> None:
    stream = sys.stdout
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):  # closed, or its file is gone
            stream.flush()


# ------------------------------------------------------------------------------------- stdin


@contextlib.contextmanager
def _stdin_lines() -> Generator[_Lines | None]:
    """The lines of file descriptor 0, read by a daemon thread; fd 0 is the null device meanwhile.

    None when ``sys.stdin`` is not file descriptor 0 (a test, an embedding host) or the
    descriptors cannot be moved: then the SDK reads stdin itself, as it would.
    """
    private = _private_stdin()
    if private is None:
        yield None
        return
    lines = _Lines(private)
    try:
        yield lines
    finally:
        with contextlib.suppress(OSError):
            os.dup2(private, 0)  # give the client's stream back to file descriptor 0
        lines.close()


def _private_stdin() -> int | None:
    """A duplicate of file descriptor 0 (above 2, not inherited); 0 is then the null device."""
    stream = sys.stdin
    try:
        if stream is None or stream.buffer.fileno() != 0:
            return None
        private = os.dup(0)
    except (AttributeError, OSError, ValueError):
        return None
    if private <= 2:  # a standard descriptor was closed: leave it all to the SDK
        os.close(private)
        return None
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
        finally:
            os.close(null)
    except OSError:
        os.close(private)
        return None
    return private


_Delivery = Callable[["bytes | BaseException"], None]


class _Lines:
    """Lines of a descriptor as ``str`` (UTF-8, invalid bytes replaced, as the SDK reads them).

    One daemon thread reads a line each time one is asked for; waiting for it can be cancelled,
    and the thread, blocked in a read, never holds up the interpreter's exit. The descriptor is
    closed by that thread when it has finished, never under it.
    """

    def __init__(self, fd: int) -> None:
        self._file: IO[bytes] = os.fdopen(fd, "rb", closefd=True)
        self._asks: queue.SimpleQueue[_Delivery | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        # Started at the end of stdin, which stops the server (see `stopping`).
        self._watchdog: Watchdog | None = None

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bytes] = loop.create_future()

        def settle(got: bytes | BaseException) -> None:
            if answer.done():  # the wait was cancelled
                return
            if isinstance(got, BaseException):
                answer.set_exception(got)
            else:
                answer.set_result(got)

        def deliver(got: bytes | BaseException) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(settle, got)

        if self._thread is None:
            self._thread = threading.Thread(
                target=self._read, name="typed_toolsets serve stdin", daemon=True
            )
            self._thread.start()
        self._asks.put(deliver)
        line = await answer
        if not line:
            if self._watchdog is None:
                self._watchdog = watchdog()
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")

    def _read(self) -> None:
        try:
            while (deliver := self._asks.get()) is not None:
                try:
                    line = self._file.readline()
                except (OSError, ValueError) as exc:
                    deliver(exc)
                    return
                deliver(line)
                if not line:
                    return
        finally:
            self._file.close()

    def close(self) -> None:
        """Let the thread end (and close the descriptor) once its read, if any, returns.

        The server has stopped: the watchdog its stop started, if any, has nothing to end.
        """
        if self._watchdog is not None:
            self._watchdog.cancel()
        if self._thread is None:
            self._file.close()
        else:
            self._asks.put(None)
