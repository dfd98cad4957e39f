"""The stdio transport: one client, JSON-RPC over this process's stdin and stdout.

While serving, file descriptor 1 points at stderr (the SDK moves it) and 0 at the null device
(we do, see below), so nothing a tool (or a program it runs) prints or reads can corrupt the
protocol (what is left in ``sys.stdout``'s buffer is flushed there before the SDK gives file
descriptor 1 back); our log lines go to stderr. When the client closes stdin, in-flight calls
get `ANSWER_GRACE` to be answered, then are cancelled (an async tool is cancelled; a sync
tool's daemon thread is abandoned) and the server returns. A client that closes stdout (it
reads no more answers) ends the requests in the same way (`typed_toolsets.server.watch`).

The requests are read from a private duplicate of file descriptor 0 by a daemon thread of ours,
not by the SDK's reader: that one waits in a thread the interpreter joins, and cannot be
cancelled, so Ctrl-C (or any cancellation) would wait for the client's next line or the end of
stdin. It also reads a line whole, however long, and drops one it cannot parse without an
answer. Ours reads at most `request_limit` bytes of a line (what HTTP reads of a body) and
discards the rest; a line that is too long, or not a JSON-RPC message, is answered with a
JSON-RPC error for its request's id when that can be read (``null`` otherwise), so the client
is not left waiting for an answer that will never come. A request read while `MAX_IN_FLIGHT`
of the client's are being served is answered at once with an error (`_InFlight`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import io
import os
import queue
import sys
import threading
from collections.abc import AsyncIterable, Callable, Generator, Iterable
from typing import IO, TYPE_CHECKING, Any, Final, cast

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server
from mcp.shared.message import ServerMessageMetadata, SessionMessage
from typing_extensions import Self

from typed_toolsets import ToolProxy

from .messages import (
    ID_HEAD,
    ID_TAIL,
    SERVER_BUSY,
    bad_id,
    error,
    unread_id,
    unreadable,
)
from .protocol import (
    DEFAULT_NAME,
    MAX_IN_FLIGHT,
    logger,
    mcp_server,
    request_limit,
    too_large,
    too_many,
    tools_text,
)
from .stopping import Watchdog, watchdog
from .threads import DEFAULT_THREADS, DaemonThreads
from .watch import stdout_watched

if TYPE_CHECKING:
    from types import TracebackType

    from anyio.streams.memory import MemoryObjectSendStream
    from mcp.server import Server
    from mcp.shared._stream_protocols import WriteStream

__all__ = ["ANSWER_GRACE", "serve_stdio"]

#: When stdin ends, how long the calls still running have to be answered before they are
#: cancelled (the SDK's client gives a server 2 seconds to exit after closing its stdin).
ANSWER_GRACE: Final = 1.0


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
    with _stdin_lines(request_limit(proxies)) as lines:
        if lines is None:  # the SDK reads stdin itself
            async with stdio_server() as (read_stream, write_stream):
                await _run(server, read_stream, write_stream)
        else:
            # The SDK writes stdout; the requests are read by `_requests` (the SDK is given no
            # lines to read). Watched before the SDK points file descriptor 1 at stderr.
            with stdout_watched(functools.partial(lines.end, "stdout")):
                async with stdio_server(_NO_LINES) as (unread, write_stream):
                    unread.close()
                    await _serve_lines(
                        server, lines, write_stream, line_limit=lines.limit, on_end=lines.stopping
                    )
    if lines is None or lines.closed == "stdin":
        logger.info("stdin closed; stopping")


async def _serve_lines(
    server: Server[Any],
    lines: AsyncIterable[bytes | _Overlong],
    write_stream: WriteStream[SessionMessage],
    *,
    line_limit: int,
    on_end: Callable[[], None],
) -> None:
    """Run *server* on the requests of *lines* until they end, `MAX_IN_FLIGHT` at most at once.

    Args:
        server: The MCP server.
        lines: The client's lines (each a JSON-RPC message, or a discarded `_Overlong` one).
        write_stream: Where the server's messages go.
        line_limit: The longest line read, for the answer to a longer one.
        on_end: Called when the lines have ended and the calls still running are cancelled.
    """
    in_flight = _InFlight(MAX_IN_FLIGHT)
    send, receive = anyio.create_memory_object_stream[SessionMessage | Exception]()
    answers = _Answers(write_stream, in_flight)
    async with receive, anyio.create_task_group() as group:
        group.start_soon(_requests, lines, line_limit, in_flight, send, write_stream, on_end)
        await _run(server, receive, answers)
        group.cancel_scope.cancel()


async def _run(server: Server[Any], read_stream: Any, write_stream: Any) -> None:
    """Run *server* until its requests end (inside `stdio_server`: fd 1 points at stderr)."""
    try:
        # Only now: switching the buffering flushes what a host printed before serving, which
        # must reach stderr, not the protocol's stdout.
        with _line_buffered_stdout():
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        # What tools printed may still sit in sys.stdout's buffer; flushed at exit, it would
        # reach the protocol stream, which the SDK gives back to file descriptor 1 on leaving.
        _flush_stdout()


@contextlib.contextmanager
def _line_buffered_stdout() -> Generator[None]:
    """``sys.stdout`` writes each line at once meanwhile (while serving, it reaches stderr).

    Block-buffered, as it is when stdout is no terminal, what a tool prints would reach the log
    only when the server stops, out of order with the log's lines, or never if it is killed.
    """
    stream = sys.stdout
    if not isinstance(stream, io.TextIOWrapper) or stream.line_buffering:
        yield
        return
    try:
        stream.reconfigure(line_buffering=True)
    except (OSError, ValueError):  # closed, or its buffer detached
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            stream.reconfigure(line_buffering=False)


def _flush_stdout() -> None:
    stream = sys.stdout
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):  # closed, or its file is gone
            stream.flush()


# ---------------------------------------------------------------------------------- requests


class _NoLines:
    """An input with no lines: given it, the SDK's stdio transport reads nothing (and writes)."""

    def __aiter__(self) -> _NoLines:
        return self

    async def __anext__(self) -> str:
        raise StopAsyncIteration


_NO_LINES: Final = cast("anyio.AsyncFile[str]", _NoLines())  # the SDK only iterates over it


async def _requests(
    lines: AsyncIterable[bytes | _Overlong],
    line_limit: int,
    in_flight: _InFlight,
    requests: MemoryObjectSendStream[SessionMessage | Exception],
    answers: WriteStream[SessionMessage],
    on_end: Callable[[], None],
) -> None:
    """Pass each JSON-RPC message of *lines* on to the server as *requests*, as the SDK does.

    A line that is none (not JSON, not a message, an id neither a string nor an integer, too
    long) gets a JSON-RPC error on *answers*, for its request's id when that can be read;
    blank lines are skipped. The SDK drops such lines unanswered, and a client whose request
    it was would wait for an answer forever. So is a request past *in_flight*'s limit answered,
    at once: the SDK would start a task for each, however many.

    When the lines end, the calls running get `ANSWER_GRACE` to be answered before the server
    is told, which cancels the rest: a client that writes its requests and closes stdin (a
    script piping them in) is answered every call that ends in time. (Told at once, the SDK
    cancelled even a call that had ended, before its answer was written.) Then *on_end*.
    """
    async with requests:
        async for line in lines:
            parsed = _parsed(line, line_limit)
            if isinstance(parsed, SessionMessage):
                parsed = in_flight.admit(parsed)
            if isinstance(parsed, SessionMessage):
                await requests.send(parsed)
            elif parsed is not None:
                logger.info("refused a request: %s", parsed.error.message)
                with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                    await answers.send(SessionMessage(parsed))
        with anyio.move_on_after(ANSWER_GRACE):
            await in_flight.drained()
        on_end()


class _InFlight:
    """The client's requests passed to the server and not settled yet, at most *limit*.

    A request settles once its answer is written (`_Answers`), or when the SDK ends it
    unanswered (one the client cancelled: its message's ``on_request_unanswered``).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        # By id: a client may (wrongly) reuse one, and each request is answered.
        self._ids: collections.Counter[types.RequestId] = collections.Counter()
        self._drained: anyio.Event | None = None

    async def drained(self) -> None:
        """Return once no request is in flight."""
        while self.count:
            self._drained = anyio.Event()
            await self._drained.wait()

    def admit(self, message: SessionMessage) -> SessionMessage | types.JSONRPCError:
        """*message*, counted when it is a request; the error answering it past the limit."""
        request = message.message
        if not isinstance(request, types.JSONRPCRequest):
            return message  # a notification, or the client's answer to a request of ours
        request_id = request.id
        if self.count >= self.limit:
            return error(request_id, SERVER_BUSY, too_many(self.limit))
        self.count += 1
        self._ids[request_id] += 1

        async def unanswered() -> None:
            self.settle(request_id)

        return SessionMessage(
            request, metadata=ServerMessageMetadata(on_request_unanswered=unanswered)
        )

    def settle(self, request_id: types.RequestId) -> None:
        """Count request *request_id* out (an id not in flight is left alone)."""
        left = self._ids[request_id] - 1  # a Counter: 0 for an id it does not hold
        if left < 0:
            return
        self.count -= 1
        if left:
            self._ids[request_id] = left
        else:
            del self._ids[request_id]
        if not self.count and self._drained is not None:
            self._drained.set()


class _Answers:
    """The server's write stream: each answer written settles its request in *in_flight*."""

    def __init__(self, stream: WriteStream[SessionMessage], in_flight: _InFlight) -> None:
        self._stream = stream
        self._in_flight = in_flight

    async def send(self, item: SessionMessage, /) -> None:
        """Write *item*; an answer settles its request once written (or failed to be)."""
        try:
            await self._stream.send(item)
        finally:
            # Not before: a client that does not read its answers would make room for more
            # requests while theirs wait to be written.
            message = item.message
            if isinstance(message, types.JSONRPCResponse | types.JSONRPCError) and (
                message.id is not None
            ):
                self._in_flight.settle(message.id)

    async def aclose(self) -> None:
        """Close the stream."""
        await self._stream.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


def _parsed(line: bytes | _Overlong, limit: int) -> SessionMessage | types.JSONRPCError | None:
    """The message *line* holds, the error that answers it, or None for a blank line.

    The line is parsed as UTF-8, as an HTTP body is: bytes that are not are a parse error. (The
    SDK's reader replaced them with U+FFFD, and a tool got what it made of them.)
    """
    if isinstance(line, _Overlong):
        return error(line.request_id, types.INVALID_REQUEST, too_large("line", limit))
    if not line.strip():
        return None
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception as exc:  # noqa: BLE001 - the SDK's own reader catches as much
        return unreadable(line, exc)
    refusal = bad_id(line, message)
    return SessionMessage(message) if refusal is None else refusal


# ------------------------------------------------------------------------------------- stdin


@contextlib.contextmanager
def _stdin_lines(limit: int) -> Generator[_Lines | None]:
    """The lines of file descriptor 0, read by a daemon thread; fd 0 is the null device meanwhile.

    Lines longer than *limit* bytes (the newline aside) are discarded (see `_Lines`). None when
    ``sys.stdin`` is not file descriptor 0 (a test, an embedding host) or the descriptors
    cannot be moved: then the SDK reads stdin itself, as it would, with no bound.
    """
    private = _private_stdin()
    if private is None:
        yield None
        return
    lines = _Lines(private, limit)
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


class _Overlong:
    """A line longer than the limit, discarded; *request_id* is its request's, if it was read."""

    def __init__(self, request_id: types.RequestId | None) -> None:
        self.request_id = request_id


_Delivery = Callable[["bytes | _Overlong | BaseException"], None]

#: How much of a discarded line is read at a time.
_CHUNK: Final = 64 * 1024


class _Lines:
    """The lines of a descriptor, as bytes.

    One daemon thread reads a line each time one is asked for; waiting for it can be cancelled,
    and the thread, blocked in a read, never holds up the interpreter's exit. The descriptor is
    closed by that thread when it has finished, never under it. A line of more than *limit*
    bytes (the newline aside) is read no further: the rest of it is read in chunks and
    discarded, however long it goes on, and it is given as an `_Overlong`.
    """

    def __init__(self, fd: int, limit: int) -> None:
        self._file: IO[bytes] = os.fdopen(fd, "rb", closefd=True)
        # A read's size is an index: a limit written as "none" (`sys.maxsize` bytes of arguments,
        # four times that for a request) is a line as long as any can be.
        self.limit = min(limit, sys.maxsize - 1)
        self._asks: queue.SimpleQueue[_Delivery | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        # Started when the end of stdin stops the server (see `stopping`).
        self._watchdog: Watchdog | None = None
        #: The stream whose closing ended the lines (`end`).
        self.closed = "stdin"
        self._ended = False
        self._waiting: asyncio.Future[bytes | _Overlong] | None = None

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> bytes | _Overlong:
        if self._ended:
            raise StopAsyncIteration
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bytes | _Overlong] = loop.create_future()
        self._waiting = answer

        def settle(got: bytes | _Overlong | BaseException) -> None:
            if answer.done():  # the wait was cancelled
                return
            if isinstance(got, BaseException):
                answer.set_exception(got)
            else:
                answer.set_result(got)

        def deliver(got: bytes | _Overlong | BaseException) -> None:
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
            raise StopAsyncIteration
        return line

    def end(self, closed: str) -> None:
        """End the lines now, as the end of stdin does: the client closed the stream *closed*.

        A line the thread is reading meanwhile is dropped (the client reads no answer to it).
        """
        self.closed = closed
        self._ended = True
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result(b"")

    def stopping(self) -> None:
        """The end of stdin stops the server now: its stop is watched (see `stopping`)."""
        if self._watchdog is None:
            self._watchdog = watchdog()

    def _read(self) -> None:
        try:
            while (deliver := self._asks.get()) is not None:
                try:
                    line = self._read_line()
                except Exception as exc:  # noqa: BLE001 - whatever ends the reading is said
                    deliver(exc)  # to the server, which stops on it; never a wait for ever
                    return
                deliver(line)
                if not line:
                    return
        finally:
            self._file.close()

    def _read_line(self) -> bytes | _Overlong:
        """The next line (empty at the end), or an `_Overlong` once a long one is discarded."""
        line = self._file.readline(self.limit + 1)
        if len(line) <= self.limit or line.endswith(b"\n"):
            return line
        head, tail = line[:ID_HEAD], line[-ID_TAIL:]
        del line
        while not tail.endswith(b"\n"):
            chunk = self._file.readline(_CHUNK)
            if not chunk:  # the end of stdin, in the middle of the line
                break
            tail = (tail + chunk)[-ID_TAIL:]
        return _Overlong(unread_id(head, tail))

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
