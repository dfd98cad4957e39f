"""JSON-RPC messages as the SDK reads them, and the errors answering what it would drop.

The SDK's parser takes a request whose id is neither a string nor an integer (``"id": 1.5``,
``true``, ``null``) for a notification, which is never answered: over stdio the client waits
for ever, over HTTP it gets 202 and no answer. Both transports answer such a request, and a
message the parser refuses, with a JSON-RPC error, for the request's id when it can be read.

May import the MCP SDK's types, pydantic, the call path's JSON bounds and the standard library.
"""

from __future__ import annotations

import json
import re
from typing import Final, TypeGuard, cast

import mcp_types as types
from pydantic import ValidationError

from typed_toolsets.call.jsonbounds import one_value, outside_strings

__all__ = [
    "ID_HEAD",
    "ID_TAIL",
    "SERVER_BUSY",
    "bad_id",
    "bad_id_message",
    "error",
    "id_in",
    "misread_body",
    "read_object",
    "unread_id",
    "unreadable",
    "valid_id",
]

#: The code of the error answering a request the server has no room for: one of JSON-RPC's
#: server errors (-32000 to -32099) that MCP does not name.
SERVER_BUSY: Final = -32010

#: What a request's id may be, as the refusal of another id says.
_ID_RULE: Final = 'Invalid Request: "id" must be a string or an integer'


def bad_id_message(value: object) -> str:
    """Why a request whose id is *value* (as Python's json reads it) is refused, in JSON terms."""
    if value is None:
        sent = "null (MCP allows no null id)"
    elif isinstance(value, bool):
        sent = "true" if value else "false"
    elif isinstance(value, float):
        sent = "a number with a fraction or an exponent"
    elif isinstance(value, list):
        sent = "an array"
    else:
        sent = "an object"
    return f"{_ID_RULE}, not {sent}"


def error(request_id: types.RequestId | None, code: int, message: str) -> types.JSONRPCError:
    """The JSON-RPC error answering request *request_id* (None: it could not be read)."""
    return types.JSONRPCError(
        jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)
    )


def unreadable(data: bytes, exc: Exception, *, line: bool = True) -> types.JSONRPCError:
    """The answer to a message the SDK's parser refused: not JSON, or JSON but not a message.

    Args:
        data: The message (a line over stdio, a request's body over HTTP).
        exc: The parser's error.
        line: *data* is a line of stdio (else an HTTP request's body).
    """
    errors = exc.errors() if isinstance(exc, ValidationError) else []
    for found in errors:
        if found["type"] == "json_invalid":
            detail = found.get("ctx", {}).get("error", found["msg"])
            return error(id_in(data), types.PARSE_ERROR, f"Parse error: {detail}")
    what = (
        "the line is not a JSON-RPC 2.0 message (one object per line"
        if line
        else ("the body is not a JSON-RPC 2.0 message (one object")
    )
    message = (
        f'Invalid Request: {what}, with "jsonrpc": "2.0", a "method" and, for a request, an '
        '"id"; "params", when sent, an object)'
    )
    return error(id_in(data), types.INVALID_REQUEST, message)


def bad_id(data: bytes, message: types.JSONRPCMessage) -> types.JSONRPCError | None:
    """The answer to a request (read as *message*) whose id is neither a string nor an integer.

    None for any other message: the SDK's reading of it stands.
    """
    if not isinstance(message, types.JSONRPCNotification) or b'"id"' not in data:
        return None
    fields = read_object(data)
    if fields is None or "id" not in fields:
        return None
    return error(None, types.INVALID_REQUEST, bad_id_message(fields["id"]))


# An "id" member whose value is no string and no integer: a literal, a container, or a number
# with a fraction or an exponent. (A key spelled with escapes is not looked for.)
_SUSPECT_ID: Final = re.compile(rb'"id"\s*:\s*(?:[^\s"0-9-]|-?[0-9]+[.eE])')


def misread_body(body: bytes) -> types.JSONRPCError | None:
    """The answer to a request body that is no JSON-RPC message, or whose id is no id.

    Read as the SDK reads it. Where the SDK would answer a message it cannot read with
    ``-32602`` and its parser's report (several lines of pydantic's), the answer is stdio's
    (`unreadable`); a request whose id is neither a string nor an integer, which the SDK would
    take for a notification, is `bad_id`'s. None for a body the SDK reads as it should.
    """
    try:
        message = types.jsonrpc_message_adapter.validate_json(body, by_name=False)
    except Exception as exc:  # noqa: BLE001 - any refusal: said as stdio says it
        return unreadable(body, exc, line=False)
    if _SUSPECT_ID.search(body) is None:
        return None  # every "id" is a string or an integer: no request taken for a notification
    return bad_id(body, message)


def id_in(data: bytes) -> types.RequestId | None:
    """The id of the request *data* holds, when it is valid.

    As Python's json reads it; when json cannot read *data* (it is cut short, or nested deeper
    than json's recursion allows), as `unread_id` finds it.
    """
    fields = read_object(data)
    if fields is None:
        # Whole, unlike a line too long to hold: an id at its end is taken only where the
        # brackets before it leave it a member of the outermost object (a message cut short,
        # or missing its last brace, ends with a nested object's).
        top = _top_level_end(data)
        return unread_id(data[:ID_HEAD], data[-ID_TAIL:] if top else b"")
    found = fields.get("id")
    return found if valid_id(found) else None


def _top_level_end(data: bytes) -> bool:
    """Whether *data*'s last ``}`` closes the object its first bracket opened (strings aside)."""
    text = data.decode("utf-8", errors="replace")
    return outside_strings(text).rstrip().endswith("}") and one_value(text)


#: How much of a message's start and end `unread_id` looks at: a client writes ``"id"`` before
#: ``"params"`` (the Python SDK does) or after them (the TypeScript SDK does). Stdio keeps as
#: much of a line too long to hold.
ID_HEAD: Final = 64 * 1024
ID_TAIL: Final = 512

# The id of a request that cannot be read whole: a scalar member (jsonrpc, method) may come
# before it. Strings with escapes are not read: the answer's id is then null.
_ID_VALUE: Final = rb'(-?(?:0|[1-9][0-9]{0,30})|"[^"\\]{0,1000}")'
_SCALAR: Final = rb'(?:"[^"\\]*"|-?[0-9][0-9.eE+-]*|true|false|null)'
_LEADING_ID: Final = re.compile(
    rb'\s*\{\s*(?:"[^"\\]*"\s*:\s*' + _SCALAR + rb'\s*,\s*)*"id"\s*:\s*' + _ID_VALUE + rb"\s*[,}]"
)
# The last member: only the object that closes the message can end with `"id": ...}` at its end
# (a nested one is followed by the brackets of those around it).
_TRAILING_ID: Final = re.compile(rb'[{,]\s*"id"\s*:\s*' + _ID_VALUE + rb"\s*\}\s*\Z")


def unread_id(head: bytes, tail: bytes) -> types.RequestId | None:
    """The id of a request not read whole, from its first bytes *head* and its last *tail*.

    Found when it comes before ``"params"`` (only scalar members before it), or as the object's
    last member; None otherwise, or when it is no valid id.
    """
    found = _LEADING_ID.match(head) or _TRAILING_ID.search(tail)
    if found is None:
        return None
    try:
        value: object = json.loads(found.group(1))
    except ValueError:  # not UTF-8: not the id the client has
        return None
    return value if valid_id(value) else None


def read_object(data: bytes) -> dict[str, object] | None:
    """The JSON object *data* holds as Python's json reads it (which the SDK's parser may not).

    Bytes that are not UTF-8 are read as U+FFFD: an id may still be found.
    """
    try:
        value: object = json.loads(data.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return None
    return cast("dict[str, object]", value) if isinstance(value, dict) else None


def valid_id(value: object) -> TypeGuard[types.RequestId]:
    """Whether *value* can be a request's id in an answer (an int, or a str UTF-8 can encode)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: the answer could not be written
        return False
    return True
