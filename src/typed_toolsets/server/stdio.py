"""The stdio transport: one client, JSON-RPC over this process's stdin and stdout.

While serving, the SDK points file descriptor 1 at stderr and 0 at the null device, so nothing a
tool (or a program it runs) prints can corrupt the protocol (what is left in ``sys.stdout``'s
buffer is flushed there before the SDK gives file descriptor 1 back); our log lines go to
stderr. When the client closes stdin, in-flight calls are cancelled (an async tool is
cancelled; a sync tool's daemon thread is abandoned) and the server returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Iterable

from mcp.server.stdio import stdio_server

from typed_toolsets import ToolProxy

from .protocol import DEFAULT_NAME, logger, mcp_server, tools_text
from .threads import DEFAULT_THREADS, DaemonThreads

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
    async with stdio_server() as (read_stream, write_stream):
        try:
            await server.run(read_stream, write_stream, server.create_initialization_options())
        finally:
            # What tools printed may still sit in sys.stdout's buffer; flushed at exit, it would
            # reach the protocol stream, which the SDK gives back to file descriptor 1 on leaving.
            _flush_stdout()
    logger.info("stdin closed; stopping")


def _flush_stdout() -> None:
    stream = sys.stdout
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):  # closed, or its file is gone
            stream.flush()
