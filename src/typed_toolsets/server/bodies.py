"""An HTTP request's body, read within its bounds, and the answers to what is refused before it.

The endpoint reads the body itself, before the SDK sees the request: at most the tools' request
limit (the SDK reads a body whole, whatever its size) and within a time bound (the SDK waits for
a body for as long as the client takes, holding the connection: a client that sends a few bytes
an hour keeps it for ever). A refused body gets a JSON-RPC error with its HTTP status, and the
connection is closed (the rest of the body is never read).

May import starlette, the MCP SDK's types and the server's own `.messages` and `.protocol`.
"""

from __future__ import annotations

from typing import Any, Final

import anyio
import mcp_types as types
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope

from .messages import misread_body
from .protocol import too_large

__all__ = ["BODY_SECONDS", "error_response", "misread", "read_body", "replayed"]

#: How long a request's whole body may take to arrive, by default (seconds). At the largest
#: body the default limits admit (4 MB), a client sending 140 KB a second is still in time.
BODY_SECONDS: Final = 30.0


def error_response(
    status: int,
    message: str,
    *,
    code: int = types.INVALID_REQUEST,
    request_id: str | int | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """An HTTP answer of *status* carrying a JSON-RPC error (the endpoint's own answers).

    Args:
        status: The HTTP status.
        message: The error's message.
        code: The JSON-RPC error code.
        request_id: The request's id, when it was read (else ``null``).
        headers: The answer's headers; by default ``Connection: close`` (the rest of the
            request, if any, is never read).
    """
    answer: dict[str, Any] = {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": code, "message": message},
    }
    sent = {"Connection": "close"} if headers is None else headers
    return JSONResponse(answer, status_code=status, headers=sent)


def _too_slow(seconds: float) -> str:
    return (
        f"Request Timeout: the request body did not arrive within {seconds:g} seconds, the "
        "most this server waits for one; send the whole request at once"
    )


async def read_body(
    scope: Scope, receive: Receive, limit: int, seconds: float
) -> bytes | JSONResponse:
    """The request's whole body, or the answer refusing it.

    Refused: a body over *limit* bytes (413, as soon as that is known: by its
    ``Content-Length`` before anything is read), or one that has not arrived whole within
    *seconds* (408).
    """
    for name, value in scope.get("headers", ()):
        if name == b"content-length" and value.isdigit() and int(value) > limit:
            return error_response(413, too_large("body", limit))
    parts: list[bytes] = []
    size = 0
    with anyio.move_on_after(seconds) as waited:
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client left: the SDK sees the same
            part: bytes = message.get("body", b"")
            size += len(part)
            if size > limit:
                return error_response(413, too_large("body", limit))
            parts.append(part)
            if not message.get("more_body", False):
                break
    if waited.cancelled_caught:
        return error_response(408, _too_slow(seconds))
    return b"".join(parts)


def misread(body: bytes) -> JSONResponse | None:
    """The 400 answering a body that is no JSON-RPC message, or whose id is no id.

    See `.messages.misread_body`: said as stdio says it, with the request's id when it has one.
    """
    refusal = misread_body(body)
    if refusal is None:
        return None
    error = refusal.error
    return error_response(400, error.message, code=error.code, request_id=refusal.id)


def replayed(body: bytes, receive: Receive) -> Receive:
    """*receive*, but the first message is *body*, already read (the rest is what follows)."""
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return replay
