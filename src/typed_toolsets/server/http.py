"""Streamable HTTP: the ASGI app (stateless, JSON responses, at ``/mcp``) and its runner.

Stateless means every request is served on its own: no session id, no affinity, no
``initialize`` needed first, so any number of processes behind any load balancer serve one
client. The app is a Starlette application: run it under uvicorn or gunicorn (several workers
are several such processes), or mount it in a Starlette or FastAPI app.

Who may call it is `.guard`'s: a bearer token, or loopback only (binding and the ``Host``
check).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import socket
import sys
from collections.abc import AsyncGenerator, Callable, Generator, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from typed_toolsets import ToolProxy

from .bodies import BODY_SECONDS, error_response, misread, read_body, replayed
from .files import files_for
from .guard import (
    LOOPBACK_HOSTS,
    BearerAuth,
    HostCheck,
    check_bind,
    check_token,
    is_loopback,
    transport_security,
)
from .protocol import (
    DEFAULT_NAME,
    MAX_IN_FLIGHT,
    body_limit,
    logger,
    mcp_server,
    request_limit,
)
from .stopping import Watchdog, watchdog
from .threads import DEFAULT_THREADS, DaemonThreads

if TYPE_CHECKING:
    import uvicorn
    from uvicorn.supervisors import Multiprocess

__all__ = [
    "DEFAULT_PATH",
    "LOOPBACK_HOSTS",
    "BearerAuth",
    "WorkerStartError",
    "asgi_app",
    "body_limit",
    "check_bind",
    "is_loopback",
    "run",
]

#: Where the MCP endpoint is (the SDK's default path).
DEFAULT_PATH: Final = "/mcp"

_BACKLOG: Final = 2048  # uvicorn's default


# ---------------------------------------------------------------------------------- the app


class _Endpoint:
    """The ``/mcp`` endpoint: the SDK's stateless session manager, started for each run.

    The app's lifespan starts it, and makes the loop's default executor a `DaemonThreads` pool.
    A host app that mounts this one without running its lifespan (Starlette's ``Mount`` does
    not) gets it started on the first request instead, in a task that lives as long as the
    event loop; the loop is the host's then, so its executor is left alone. The SDK's manager
    runs once per instance, so each run makes its own: one app may be run again (a test client
    after another, a server restarted in process).
    """

    def __init__(
        self,
        new_manager: Callable[[], StreamableHTTPSessionManager],
        threads: int | None,
        max_body: int,
        body_seconds: float,
    ) -> None:
        self._new_manager = new_manager
        self._manager: StreamableHTTPSessionManager | None = None
        self._threads = threads
        self._max_body = max_body
        self._body_seconds = body_seconds
        self._running = False
        # An asyncio lock belongs to the loop it first waited on: one per loop that starts it.
        self._starting: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None
        self._background: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def running(self, *, own_loop: bool) -> AsyncGenerator[None, None]:
        if own_loop and self._threads is not None:
            asyncio.get_running_loop().set_default_executor(DaemonThreads(self._threads))
        dog: Watchdog | None = None
        manager = self._new_manager()
        try:
            async with manager.run():
                self._manager = manager
                self._running = True
                try:
                    yield
                finally:
                    self._running = False
                    # Leaving waits for every call, cancelled by now: one that ignores its
                    # cancellation would hold the stop forever, and asyncio's own ending after.
                    dog = watchdog() if own_loop else None
        finally:
            if dog is not None:
                dog.cancel()

    async def _start_in_background(self) -> StreamableHTTPSessionManager:
        """Start the manager in a task of the running loop; the manager running."""
        loop = asyncio.get_running_loop()
        if self._starting is None or self._starting[0] is not loop:
            self._starting = (loop, asyncio.Lock())
        async with self._starting[1]:
            if self._running and self._manager is not None:
                return self._manager
            ready = asyncio.Event()

            async def keep_running() -> None:
                try:
                    async with self.running(own_loop=False):
                        ready.set()
                        await asyncio.Event().wait()  # until the loop cancels it at shutdown
                finally:
                    ready.set()

            self._background = loop.create_task(keep_running())
            await ready.wait()
            if not self._running or self._manager is None:
                await self._background  # it failed to start: raise its error here
                msg = "the MCP session manager stopped as it started"
                raise RuntimeError(msg)
            return self._manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The Host and Origin checks ran before the app's routes (`HostCheck`).
        if scope.get("method") != "POST":
            # Stateless, the server can never send on a stream opened with GET (the SDK's
            # would hold the connection idle until the client leaves, and a stop its graceful
            # period), and has no session to end with DELETE; POST is all it answers.
            await _ONLY_POST(scope, receive, send)
            return
        typed = _json_typed(scope)
        if typed is None:
            # Before the body is read. The SDK's own check answers most types with a plain
            # 400 that is no JSON-RPC message, after reading the body whole.
            await _NOT_JSON(scope, receive, send)
            return
        scope = typed
        # Read here, within the limits (`.bodies`): the SDK reads a body whole, however large
        # or slow.
        try:
            body = await read_body(scope, receive, self._max_body, self._body_seconds)
        except asyncio.CancelledError:
            # The server stopped while the body was arriving (a slow client's): answered as a
            # call it stopped, not passed on as the app's failure (a 500 and a traceback).
            await _answer_stopped(scope, receive, send, None)
            return
        if not isinstance(body, bytes):
            await body(scope, receive, send)
            return
        refusal = misread(body)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        receive = replayed(body, receive)
        manager = self._manager
        if not self._running or manager is None:
            manager = await self._start_in_background()
        await _until_answered(manager.handle_request, scope, receive, send)


#: The answer to any method but POST: 405 with ``Allow: POST``. MCP allows it for GET from a
#: server that offers no stream, and for DELETE from one with no session to end.
_ONLY_POST: Final = error_response(
    405,
    "Method Not Allowed: this stateless server opens no stream and has no session to end; "
    "send requests with POST",
    headers={"Allow": "POST"},
)


def _json_typed(scope: Scope) -> Scope | None:
    """*scope* with its ``Content-Type`` as the SDK takes it; None unless it is JSON's.

    Media types are case-insensitive, and may have parameters (``charset=utf-8``); the SDK
    takes ``application/json`` exactly.
    """
    headers = list(scope.get("headers", ()))
    for name, value in headers:
        if name == b"content-type":
            if value.split(b";", 1)[0].strip().lower() != b"application/json":
                return None
            kept = [(name, value) for name, value in headers if name != b"content-type"]
            return {**scope, "headers": [*kept, (b"content-type", b"application/json")]}
    return None


#: The answer to a body that is not JSON by its ``Content-Type``: 415, with a JSON-RPC error (the
#: words are the SDK's own for a type it refuses so). The body is never read.
_NOT_JSON: Final = error_response(
    415, "Unsupported Media Type: Content-Type must be application/json"
)


#: What a call still running when the server stops is answered (HTTP 503, a JSON-RPC error).
_STOPPED_MESSAGE: Final = "the server is stopping: the call was cancelled before it finished"


class _Exchange:
    """One request's messages as they pass: the body read so far, whether an answer began."""

    def __init__(self, receive: Receive, send: Send) -> None:
        self._receive = receive
        self._send = send
        self._body: list[bytes] = []
        self.answering = False

    async def receive(self) -> Message:
        message = await self._receive()
        if message["type"] == "http.request":
            self._body.append(message.get("body", b""))
        return message

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.answering = True
        await self._send(message)

    def request_id(self) -> str | int | None:
        """The JSON-RPC id of the request read, None when there is none to read."""
        try:
            request: object = json.loads(b"".join(self._body))
        except (ValueError, RecursionError):
            return None
        fields = cast("dict[str, object]", request) if isinstance(request, dict) else {}
        ident = fields.get("id")
        return ident if isinstance(ident, str | int) and not isinstance(ident, bool) else None


async def _until_answered(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
    """Run *app* for one request, and answer it even when the server stops it first.

    Stopping, the server cancels the task of each request still running (uvicorn does once its
    graceful period is over), and with it the call. Passed on, that cancellation would reach
    the server as the app's failure: it would log a traceback and answer 500. It ends here
    instead, and the client is told what happened: a JSON-RPC error for its request, with
    HTTP 503 and ``Connection: close``. When the answer had begun already the request just
    ends (the server closes the connection if the answer is incomplete).
    """
    exchange = _Exchange(receive, send)
    try:
        await _unless_disconnected(app, scope, exchange.receive, exchange.send)
    except asyncio.CancelledError:
        # A disconnect's cancellation stays inside `_unless_disconnected`: this one came
        # from whoever runs the request, and it is over once the request is answered.
        if exchange.answering:
            _uncancel()
            return
        await _answer_stopped(scope, receive, send, exchange.request_id())


async def _answer_stopped(
    scope: Scope, receive: Receive, send: Send, request_id: str | int | None
) -> None:
    """Answer a request the server stopped (cancelled) before its answer began: HTTP 503."""
    _uncancel()
    response = error_response(
        503, _STOPPED_MESSAGE, code=types.INTERNAL_ERROR, request_id=request_id
    )
    await response(scope, receive, send)


def _uncancel() -> None:
    """Count the current task's cancellation as handled (Python 3.11+; 3.10 does not count)."""
    task = asyncio.current_task()
    if sys.version_info >= (3, 11) and task is not None and task.cancelling():
        task.uncancel()


async def _unless_disconnected(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
    """Run *app* for one request, cancelled if the client disconnects before the answer.

    In stateless mode a client cannot cancel a call with ``notifications/cancelled`` (that
    arrives as another request, perhaps at another process); it cancels by closing the
    connection, and the SDK watches for that only when it answers with an event stream, never
    with JSON. Once *app* has read the whole body it does not read again before it answers
    JSON, so the watch takes over ``receive`` from there.
    """
    body_read = anyio.Event()

    async def receiving() -> Message:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            body_read.set()
        return message

    async with anyio.create_task_group() as group:

        async def watch() -> None:
            await body_read.wait()
            while (await receive())["type"] != "http.disconnect":
                pass
            group.cancel_scope.cancel()

        group.start_soon(watch)
        await app(scope, receiving, send)
        group.cancel_scope.cancel()


def _app(
    server: Server[Any],
    *,
    token: str | None,
    path: str,
    allowed_hosts: Sequence[str] | None,
    threads: int | None,
    max_body: int,
    body_seconds: float,
) -> Starlette:
    # Host and Origin are checked before anything else (`HostCheck`, the outermost layer), and
    # the endpoint is the manager's only way in: the manager is left without those checks (it
    # still checks a POST's Content-Type). The body bound is the endpoint's, from the tools'
    # limits; the manager's own (4 MiB by default) would refuse what a tool with larger limits
    # takes, with a plain 413 of its own.
    endpoint = _Endpoint(
        functools.partial(
            StreamableHTTPSessionManager,
            app=server,
            json_response=True,
            stateless=True,
            max_request_body_size=max_body,
        ),
        threads,
        max_body,
        body_seconds,
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncGenerator[None, None]:
        async with endpoint.running(own_loop=True):
            try:
                yield
            except asyncio.CancelledError:
                # A forced stop (uvicorn's second Ctrl-C) skips the lifespan's shutdown and
                # ends the loop, cancelling the task waiting for it: uvicorn logged that as the
                # lifespan's failure, with a traceback. It ends here as the shutdown would.
                _uncancel()

    middleware = [Middleware(HostCheck, settings=transport_security(token, allowed_hosts))]
    if token is not None:
        middleware.append(Middleware(BearerAuth, token=token))
    return Starlette(routes=[Route(path, endpoint)], middleware=middleware, lifespan=lifespan)


def asgi_app(
    tools: Iterable[ToolProxy],
    *,
    token: str | None = None,
    path: str = DEFAULT_PATH,
    allowed_hosts: Sequence[str] | None = None,
    threads: int | None = DEFAULT_THREADS,
    name: str = DEFAULT_NAME,
    log_arguments: bool = False,
    body_seconds: float = BODY_SECONDS,
) -> Starlette:
    """An ASGI app serving *tools* over stateless Streamable HTTP (JSON responses) at *path*.

    Run it with uvicorn or gunicorn (``gunicorn -w 4 -k uvicorn_worker.UvicornWorker
    'myapp:app'``): each worker is an independent server, and since no request depends on
    another, a load balancer may send any request to any of them. Or mount it:
    ``Starlette(routes=[Mount("/tools", app)])`` serves it at ``/tools/mcp``. A call whose
    request the server cancels as it stops (uvicorn does once its graceful period is over) is
    answered with a JSON-RPC error, HTTP 503, rather than failing with a traceback.

    Args:
        tools: The proxies to offer.
        token: When given, every request must carry ``Authorization: Bearer <token>``
            (compared in constant time); others get 401 before any tool is touched.
        path: The endpoint's path (default ``/mcp``).
        allowed_hosts: ``Host`` header values to answer (``name`` or ``name:port``, ``*`` for
            any port), against DNS rebinding. Default: loopback names without a token, any
            host with one.
        threads: When the app's lifespan runs, make the event loop's default executor a pool
            of this many daemon threads (`DaemonThreads`) for sync tools; None leaves it as it
            is. A host app that mounts this one without running its lifespan keeps its own.
        name: The server name clients see.
        log_arguments: Log each call's argument values too.
        body_seconds: How long a request's whole body may take to arrive (``math.inf``: no
            bound); a slower one is answered 408 (a JSON-RPC error) and its connection closed.

    Raises:
        ExportError: Two tools have the same exported name.
        ValueError: *token* is one no client can send (empty, a line break, spaces at its ends:
            `typed_toolsets.server.guard.token_problem`), or *body_seconds* is not a positive
            number of seconds.
    """
    check_token(token)
    if not body_seconds > 0:  # NaN too
        msg = f"body_seconds must be a positive number of seconds, not {body_seconds!r}"
        raise ValueError(msg)
    proxies = list(tools)
    server = mcp_server(proxies, name=name, log_arguments=log_arguments)
    return _app(
        server,
        token=token,
        path=path,
        allowed_hosts=allowed_hosts,
        threads=threads,
        max_body=request_limit(proxies),
        body_seconds=body_seconds,
    )


# ---------------------------------------------------------------------------------- running


def _bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on *host*:*port* (port 0 picks a free one).

    It listens at once, so a client that connects before the server has started waits in the
    backlog instead of being refused.
    """
    family, kind, proto, _, address = socket.getaddrinfo(
        host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(_BACKLOG)
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)  # uvicorn's worker processes inherit it
    return sock


def url_of(sock: socket.socket, path: str = DEFAULT_PATH) -> str:
    """The ``http://host:port/path`` URL a bound socket serves."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}"


def run(
    app: ASGIApp | str,
    *,
    host: str,
    port: int,
    path: str = DEFAULT_PATH,
    workers: int = 1,
    what: str = "tools",
) -> None:
    """Serve *app* with uvicorn on *host*:*port* until SIGINT or SIGTERM.

    Args:
        app: The ASGI app, or (for several workers, each of which builds its own) the import
            path of a function returning it, ``"module:function"``.
        host: Where to bind.
        port: The port; 0 picks a free one (the log line says which).
        path: The endpoint's path, for the log line.
        workers: How many worker processes.
        what: What is served, for the log line.

    Raises:
        OSError: The address cannot be bound.
        WorkerStartError: A worker could not build its app (it said why); the others were
            stopped.
    """
    sock = _bind(host, port)
    # Raised here, before the workers start (they inherit the process's limits), and put back
    # when the server ends: `serve` may run in a caller's process that goes on.
    with contextlib.closing(sock), files_for(MAX_IN_FLIGHT) as at_once:
        config = _config(app, host, sock.getsockname()[1], workers, at_once)
        plural = "s" if workers != 1 else ""
        logger.info("serving %s at %s (%d worker%s)", what, url_of(sock, path), workers, plural)
        if workers > 1:
            supervisor = _closing_supervisor()(config, sockets=[sock])
            supervisor.run()
            _workers_started(supervisor)
        else:
            _clean_stop_server()(config).run(sockets=[sock])


def _closing_supervisor() -> type[Multiprocess]:
    """The supervisor of uvicorn's workers, closing its copy of the listening socket as they stop.

    Kept open until every worker had ended, the parent's copy held the socket listening through
    the stop's graceful period: a connection made then was queued for no process to take, then
    dropped unanswered (a POST a client cannot tell ran or not). Closed when the stop begins,
    the socket stops listening once the workers do, and a connection is refused, which a client
    may retry elsewhere (as with one worker).
    """
    from uvicorn.supervisors import Multiprocess

    class ClosingSupervisor(Multiprocess):
        def terminate_all(self) -> None:
            for sock in self.sockets:  # no worker is started again once the stop begins
                sock.close()
            super().terminate_all()

    return ClosingSupervisor


class WorkerStartError(RuntimeError):
    """A worker process could not build its app; uvicorn stopped the others (and the server)."""


def _workers_started(supervisor: Multiprocess) -> None:
    """Raise `WorkerStartError` when a worker of the ended *supervisor* failed to start.

    A worker whose app cannot be built exits with uvicorn's ``STARTUP_FAILURE`` (see
    `typed_toolsets.cli.serve.worker_app`), which makes the supervisor stop rather than start
    it again, for ever; its run then returns as after a stop.
    """
    from uvicorn.config import STARTUP_FAILURE

    failed = [p.pid for p in supervisor.processes if p.exitcode == STARTUP_FAILURE]
    if failed:
        pids = ", ".join(str(pid) for pid in failed)
        msg = f"worker process {pids} could not start (its error is above); the server stopped"
        raise WorkerStartError(msg)


def _config(
    app: ASGIApp | str, host: str, port: int, workers: int, at_once: int | None = None
) -> uvicorn.Config:
    """The configuration of uvicorn serving *app* on *host*:*port* with *workers* processes.

    *at_once* is how many requests each serves at once (`MAX_IN_FLIGHT` when None; see
    `typed_toolsets.server.files`).
    """
    import uvicorn

    from .heads import HeadsInTime

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        factory=isinstance(app, str),
        workers=workers,
        # uvicorn's own protocol holds a connection whose request head never ends for ever.
        http=HeadsInTime,
        lifespan="on",
        # Our own line per call replaces the access log; uvicorn's own messages go to the
        # logging configuration in place (stderr from `serve`).
        log_config=None,
        access_log=False,
        timeout_graceful_shutdown=5,
        # Past it, a request is answered 503 at once (connections count, idle ones too): each
        # request being served holds a task and its arguments (see `MAX_IN_FLIGHT`).
        limit_concurrency=MAX_IN_FLIGHT if at_once is None else at_once,
    )


def _clean_stop_server() -> type[uvicorn.Server]:
    """A `uvicorn.Server` that ends with a return, not with its stopping signal raised again."""
    import uvicorn

    class CleanStop(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Generator[None]:
            with super().capture_signals():
                yield
                # uvicorn raises the signal that stopped it again once shut down (exit 143
                # for SIGTERM); a stop by signal is the clean stop here, status 0, as with
                # several workers.
                captured = getattr(self, "_captured_signals", None)
                if isinstance(captured, list):
                    captured.clear()

    return CleanStop
