"""The MCP server itself: ``tools/list`` and ``tools/call`` over a list of proxies.

Built on the official SDK's low-level ``Server``: the list is our MCP export
(`typed_toolsets.export.mcp`: input schemas, output schemas for structured returns, tool
annotations), computed once; each call goes through `typed_toolsets.export.amcp_call`, that is
`ToolProxy.ainvoke`: async tools (and sync ones declared ``inline``) run on the server's event
loop, other sync tools in worker threads under their own deadline, and a cancelled request
cancels an async tool. Failures, bad arguments included, are results with ``isError: true`` and
our error envelope (as MCP asks), never protocol errors. A tool that raises ``SystemExit`` or
``KeyboardInterrupt`` (argparse exits on bad input) fails its own call the same way: the call
path lets those through for a host that is stopping, but a server stops on its signals, never on
what one tool raises. Each call writes one log line: the
tool, its outcome and its duration, and the arguments' values only when asked.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Iterable, Mapping
from typing import Any, Final

import anyio
import mcp_types as types
from mcp.server import Server, ServerRequestContext

from typed_toolsets import ToolProxy
from typed_toolsets._version import __version__
from typed_toolsets.call.execution import (
    execution_error,
    holds,
    propagates,
    stray_cancellation,
)
from typed_toolsets.export import amcp_call, mcp
from typed_toolsets.export.calls import mcp_error

__all__ = [
    "DEFAULT_NAME",
    "MAX_IN_FLIGHT",
    "body_limit",
    "logger",
    "mcp_server",
    "request_limit",
    "too_large",
    "too_many",
    "tools_text",
]

#: The server name reported to clients (``serverInfo.name``) unless another is given.
DEFAULT_NAME: Final = "typed-toolsets"

#: At most this many requests are served at once: a stdio client's requests past it are
#: answered at once with a JSON-RPC error (`too_many`), an HTTP server's with 503. Each waiting
#: request holds a task and its parsed arguments (about 15 KiB for a small one), so a client
#: writing faster than calls end (or never reading its answers) could fill the memory.
MAX_IN_FLIGHT: Final = 1024

#: One INFO record per call: ``tool=<name> outcome=<ok|error:<kind>|cancelled> duration=<s>``.
logger = logging.getLogger("typed_toolsets.server")


#: The part of a request beyond its arguments: the JSON-RPC envelope (method, id, tool name,
#: ``_meta``).
_ENVELOPE_BYTES: Final = 64 * 1024
#: How much larger than their compact JSON (which `Limits.max_argument_bytes` measures)
#: arguments may be as a client writes them: indentation, and six-character ``\u`` escapes of
#: what is two or three bytes in UTF-8.
_SPELLING_FACTOR: Final = 4


def body_limit(max_argument_bytes: int) -> int:
    """The largest request a server whose tools take at most *max_argument_bytes* reads.

    That is an HTTP request's body, or a line on stdio. Arguments past their tool's limit are
    refused by the call path with a message the model can act on; this bound only keeps a
    request no tool could accept from being read whole.
    """
    return _SPELLING_FACTOR * max_argument_bytes + _ENVELOPE_BYTES


def request_limit(tools: Iterable[ToolProxy]) -> int:
    """`body_limit` for the largest `Limits.max_argument_bytes` among *tools*."""
    return body_limit(max((proxy.limits.max_argument_bytes for proxy in tools), default=0))


def too_large(what: str, limit: int) -> str:
    """What a client is told of a request (its *what*: body, line) over *limit* bytes."""
    return (
        f"the request {what} is larger than {limit:,} bytes, the most this server reads (four "
        "times its tools' largest Limits.max_argument_bytes, plus 64 KiB); send smaller "
        "arguments"
    )


def too_many(limit: int) -> str:
    """What a client is told of a request sent while *limit* of its requests are in flight."""
    return (
        f"the server is busy: {limit:,} requests are in flight, the most it serves at once; "
        "wait for their answers before sending more"
    )


def tools_text(tools: Iterable[ToolProxy]) -> str:
    """``"1 tool"``, ``"8 tools"``: how many distinct tools *tools* offers, for log lines."""
    count = len({proxy.name for proxy in tools})
    return f"{count} tool{'' if count == 1 else 's'}"


def _outcome(answer: Mapping[str, Any]) -> str:
    """``ok``, or ``error:<kind>`` read from the error envelope of a failed call."""
    if not answer.get("isError"):
        return "ok"
    try:
        kind = json.loads(answer["content"][0]["text"])["error"]["kind"]
    except (
        LookupError,
        TypeError,
        ValueError,
    ):  # pragma: no cover - every failure has the envelope
        kind = "unknown"
    return f"error:{kind}"


def _exited(exc: BaseException) -> bool:
    """Whether *exc*, out of a tool call, is the tool exiting (``SystemExit``, Ctrl-C's type).

    Such exceptions pass through the call path (`propagates`); the request's own cancellation
    does too, and must go on.
    """
    return propagates(exc) and not _holds_cancellation(exc)


def _holds_cancellation(exc: BaseException) -> bool:
    """Whether *exc* is a cancellation, or an exception group holding one."""
    return holds(exc, anyio.get_cancelled_exc_class())


def _stray_cancellation(exc: BaseException) -> bool:
    """Whether *exc*, out of a tool call, is a cancellation the tool raised of its own.

    An async tool that awaits a task something else cancelled raises ``CancelledError`` while
    its request goes on (`stray_cancellation`). Let through, the SDK would take it for its own
    cancellation, or for its own failure: over stdio its task group ends and the server with it;
    over HTTP the session manager's task group ends, and every later request is answered 500.
    The request's own cancellation (the client's, or the server stopping) must go on: the SDK and
    our transports cancel through anyio cancel scopes, and a host may cancel the request's task
    natively (uvicorn stopping a 2026-07-28 JSON request past its graceful period), which
    ``Task.cancelling`` counts. Python 3.10 cannot tell: every one goes on as the request's.
    """
    if anyio.current_effective_deadline() == -math.inf:  # an enclosing scope was cancelled
        return False
    return stray_cancellation(exc)


class _Tools:
    """The proxies a server offers, by exported name, with their ``tools/list`` answer."""

    def __init__(self, tools: Iterable[ToolProxy], *, log_arguments: bool) -> None:
        proxies = list(tools)
        entries = mcp(proxies)  # raises ExportError naming both tools of a clash
        self.proxies = proxies
        self._by_name = {proxy.name: proxy for proxy in proxies}
        self._schemas = {entry["name"]: entry["inputSchema"] for entry in entries}
        self._listing = types.ListToolsResult(
            tools=[types.Tool.model_validate(entry) for entry in entries]
        )
        self._log_arguments = log_arguments

    async def list_tools(
        self, _ctx: ServerRequestContext[Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return self._listing

    def input_schema(self, name: str) -> Mapping[str, Any] | None:
        return self._schemas.get(name)

    async def call_tool(
        self, _ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        name, arguments = params.name, params.arguments
        proxy = self._by_name.get(name)
        # A known name calls its proxy directly; an unknown one gets the export's answer, which
        # lists the available tools.
        tools = (proxy,) if proxy is not None else self.proxies
        started = time.perf_counter()
        outcome = "error:internal"
        try:
            try:
                answer = await amcp_call(tools, name, arguments)
            except BaseException as exc:
                if not (_exited(exc) or _stray_cancellation(exc)):
                    raise
                # Not a signal: asyncio.run and uvicorn turn SIGINT and SIGTERM into a shutdown
                # (the request's cancellation), so this is the tool's own exit, or its own
                # cancellation while the request was not cancelled: its failure either way.
                answer = mcp_error(execution_error(name, exc))
            outcome = _outcome(answer)
            return types.CallToolResult.model_validate(answer)
        except anyio.get_cancelled_exc_class():
            outcome = "cancelled"
            raise
        finally:
            self._log(name, proxy is not None, outcome, time.perf_counter() - started, arguments)

    def _log(
        self,
        name: str,
        known: bool,
        outcome: str,
        duration: float,
        arguments: Mapping[str, Any] | None,
    ) -> None:
        if not logger.isEnabledFor(logging.INFO):
            return
        # A name the client made up is quoted, so it cannot forge a log line.
        shown = name if known else json.dumps(name[:100])
        line = f"tool={shown} outcome={outcome} duration={duration:.3f}s"
        if self._log_arguments:
            text = json.dumps(arguments or {}, ensure_ascii=True, default=repr)
            line += f" arguments={text}"
        logger.info(line)


def mcp_server(
    tools: Iterable[ToolProxy],
    *,
    name: str = DEFAULT_NAME,
    instructions: str | None = None,
    log_arguments: bool = False,
) -> Server[Any]:
    """The MCP SDK's low-level ``Server`` offering *tools*.

    Run it over any transport the SDK has (`serve` and `asgi_app` do that for stdio and
    Streamable HTTP). ``tools/list`` answers with `typed_toolsets.export.mcp` of the tools;
    ``tools/call`` runs `ToolProxy.ainvoke` and answers with a text block (the value as JSON
    text, a ``str`` as it is), ``structuredContent`` when the tool has an ``outputSchema``, or
    ``isError: true`` and the error envelope ``{"error": {"kind", "tool", "message",
    "details"}}``. An unknown tool is such an error too.

    Args:
        tools: The proxies to offer (`Toolset.to_tools` of one or more toolsets).
        name: The server name clients see (``serverInfo.name``).
        instructions: Text for the client on how to use the server, if any.
        log_arguments: Also log each call's arguments (their values); off by default, since
            arguments can hold anything a user typed.

    Raises:
        ExportError: Two tools have the same exported name (the message names both).
    """
    table = _Tools(tools, log_arguments=log_arguments)
    approval = [proxy.name for proxy in table.proxies if proxy.requires_approval]
    if approval:
        # Said where the server starts: nothing in MCP carries the mark, and nobody here can
        # approve a call (section 10's callback is the agent loop's, not a server's).
        logger.warning(
            "served like any other tool, without asking anyone: %s (marked requires_approval; "
            "MCP has no field for it, so only a client's host that asks its user before each "
            "call keeps it; leave them out of the tools served, with --tools on the command "
            "line, to serve them to no one)",
            ", ".join(approval),
        )
    return Server(
        name,
        version=__version__,
        instructions=instructions,
        on_list_tools=table.list_tools,
        on_call_tool=table.call_tool,
        get_tool_input_schema=table.input_schema,
    )
