"""Any Toolset as an MCP server, over stdio or stateless Streamable HTTP (``typed-toolsets[mcp]``).

```python
from typed_toolsets.server import asgi_app, serve
from typed_toolsets.text import TextProcessingToolset

tools = TextProcessingToolset.to_tools()
serve(tools)                                          # stdio, for a local client
serve(tools, transport="http", port=8000)             # http://127.0.0.1:8000/mcp
app = asgi_app(tools, token=os.environ["MCP_TOKEN"])  # for uvicorn, gunicorn, Mount
```

- `mcp_server`: the official SDK's low-level ``Server`` with ``tools/list`` (our MCP export)
  and ``tools/call`` (`ToolProxy.ainvoke`; failures are ``isError`` results with our error
  envelope);
- `serve`: run it in this process, over stdio or HTTP (uvicorn); `serve_stdio` is the async
  form for stdio;
- `asgi_app`: the HTTP transport as an ASGI app, stateless (no session, no affinity: N
  processes behind a load balancer serve one client), JSON responses, at ``/mcp``;
- `BearerAuth`, `check_bind` (`.guard`): a token is required to serve beyond loopback;
- `DaemonThreads`: the pool sync tools run in while serving.

Logging: one INFO line per call on the ``typed_toolsets.server`` logger (tool, outcome,
duration; argument values only with ``log_arguments``); `serve` sends it to stderr when
logging is not configured. On stdio nothing but the protocol ever reaches stdout.

May import the core, `typed_toolsets.export`, the MCP SDK and what it brings (anyio, Starlette,
uvicorn). Nothing in the core imports it; the command line's ``serve`` does.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, Sequence
from typing import Final, Literal, TextIO

from typed_toolsets import ToolProxy

from . import _sigint
from ._sdk import MISSING_EXTRA
from .guard import BearerAuth, check_bind, is_loopback
from .http import DEFAULT_PATH, asgi_app, run
from .protocol import DEFAULT_NAME, logger, mcp_server, tools_text
from .stdio import serve_stdio
from .threads import DEFAULT_THREADS, DaemonThreads

__all__ = [
    "BearerAuth",
    "DEFAULT_NAME",
    "DEFAULT_PATH",
    "DEFAULT_THREADS",
    "DaemonThreads",
    "MISSING_EXTRA",
    "asgi_app",
    "check_bind",
    "configure_logging",
    "is_loopback",
    "logger",
    "mcp_server",
    "serve",
    "serve_stdio",
]

_FORMAT: Final = "%(asctime)s typed-toolsets serve: %(message)s"


def configure_logging(stream: TextIO | None = None) -> None:
    """Send the server's lines (and uvicorn's warnings) to *stream* (stderr), when nothing else is.

    Does nothing when the root logger or the server's logger already has a handler: then the
    application's own logging configuration decides.
    """
    if logging.getLogger().handlers or logger.handlers:
        return
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(logging.Formatter(_FORMAT))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    # The MCP SDK's warnings and errors too: without a handler, Python's last resort wrote
    # them bare.
    for name in ("uvicorn.error", "mcp"):
        library_logger = logging.getLogger(name)
        library_logger.addHandler(handler)
        library_logger.setLevel(logging.WARNING)
        library_logger.propagate = False


def serve(
    tools: Iterable[ToolProxy],
    *,
    transport: Literal["stdio", "http"] = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
    token: str | None = None,
    path: str = DEFAULT_PATH,
    allowed_hosts: Sequence[str] | None = None,
    name: str = DEFAULT_NAME,
    log_arguments: bool = False,
    threads: int = DEFAULT_THREADS,
) -> None:
    """Serve *tools* over MCP from this process until the client leaves or a signal stops it.

    Over ``stdio`` it serves the client that started this process and returns when that client
    closes stdin. Over ``http`` it runs uvicorn on *host*:*port* (stateless Streamable HTTP at
    *path*, see `asgi_app`) until SIGINT or SIGTERM. Log lines go to stderr unless logging is
    configured (`configure_logging`).

    Args:
        tools: The proxies to offer (several toolsets' tools may be concatenated).
        transport: ``"stdio"`` or ``"http"``.
        host: Where to bind (http). Anything but loopback requires *token*.
        port: The port (http); 0 picks a free one, named in the log line.
        token: The bearer token every HTTP request must carry.
        path: The HTTP endpoint's path.
        allowed_hosts: ``Host`` values to answer (http; see `asgi_app`).
        name: The server name clients see.
        log_arguments: Log each call's argument values too.
        threads: Daemon threads for sync tools (`DaemonThreads`).

    Raises:
        ExportError: Two tools have the same exported name.
        ValueError: An unknown transport; a non-loopback *host* without a token, or an empty
            token (see `check_bind`).
        OSError: The HTTP address cannot be bound.
        KeyboardInterrupt: Ctrl-C stopped the stdio server (after cancelling its work). A
            SIGTERM cancels its work too, then ends the process by SIGTERM (where SIGTERM's
            handling is the default one).
    """
    proxies = list(tools)
    if transport not in ("stdio", "http"):
        msg = f"transport must be 'stdio' or 'http', not {transport!r}"
        raise ValueError(msg)
    configure_logging()
    if transport == "stdio":
        stdio = serve_stdio(proxies, name=name, log_arguments=log_arguments, threads=threads)
        _sigint.run(stdio)  # Ctrl-C and SIGTERM cancel it, on Python 3.10 too
        return
    check_bind(host, token)
    app = asgi_app(
        proxies,
        token=token,
        path=path,
        allowed_hosts=allowed_hosts,
        threads=threads,
        name=name,
        log_arguments=log_arguments,
    )
    run(app, host=host, port=port, path=path, what=tools_text(proxies))
