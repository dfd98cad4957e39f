"""Running a model's tool calls: `dispatch`, `respond` (the function-calling glue) and MCP results.

The model names a tool and sends arguments; these functions find the tool among the proxies by
its exported name, run the model-facing call (reading the arguments' strict form when asked:
`typed_toolsets.StrictArguments`), and write the outcome in the shape the provider expects back.
None of them raises for anything the model sent: an unknown tool, bad arguments and a failing
tool all come back as error results. They raise only for the caller's own mistakes (two tools
with one name, something that is not a tool call).
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs

from typed_toolsets.call.exact import read_arguments as _read_arguments
from typed_toolsets.call.jsonbounds import depth_over
from typed_toolsets.call.paths import json_path
from typed_toolsets.call.proxy import Arguments, ToolProxy
from typed_toolsets.call.result import ToolError, ToolResult
from typed_toolsets.call.shown import short, short_text
from typed_toolsets.definition.limits import Limits

from .dialects import unique_tools
from .mcp_tools import mcp_output_schema, mcp_structured_content
from .strict_arguments import strict_arguments
from .values import json_value, not_json, plain_json_text, result_text, valid_text

if TYPE_CHECKING:
    from typed_toolsets.call.checker import Checker
    from typed_toolsets.types.typespec import Schema

__all__ = [
    "adispatch",
    "amcp_call",
    "anthropic_text",
    "arespond",
    "dispatch",
    "mcp_call",
    "mcp_error",
    "read_arguments",
    "respond",
]


# ---------------------------------------------------------------------------- arguments


def read_arguments(name: str, limits: Limits, arguments: object) -> dict[str, Any] | ToolError:
    """A call's arguments, read as the tool reads them, or its own error about them.

    For a host that records what a model sent before the call (the agent's steps): JSON text
    or a mapping becomes a fresh JSON object within *limits*, measured without recursion. The
    arguments are not validated.

    Args:
        name: The tool's exported name (the error names it).
        limits: Its limits.
        arguments: What the model sent: JSON text (``str`` or bytes), a mapping or None.

    Returns:
        The object, or the error the call would return (``"limit"`` or ``"arguments"``).
    """
    read = _read_arguments(name, limits, arguments)
    if isinstance(read, dict):
        return read
    return read if isinstance(read, ToolError) else read.error()


def _error_text(error: ToolError) -> str:
    return valid_text(json.dumps(error.to_dict(), ensure_ascii=False))


# ------------------------------------------------------------------------------ dispatch


#: An unknown name is carried in the error's ``tool`` cut to this many characters: no exported
#: name is longer than 64, and whatever the model sent goes back into the conversation.
_UNKNOWN_NAME_CHARS: Final = 80


def _unknown(name: object, tools: Mapping[str, ToolProxy]) -> ToolError:
    available = ", ".join(tools) if tools else "none"
    # A name that is no string (a call without one) is shown as the model sent it: `null`.
    shown = short(name)
    tool = short_text(name, _UNKNOWN_NAME_CHARS) if isinstance(name, str) else shown
    return ToolError(tool, "arguments", f"Unknown tool {shown}; available tools: {available}")


def _arguments(proxy: ToolProxy, arguments: Arguments, strict: bool) -> Arguments:
    return strict_arguments(proxy, arguments) if strict else arguments


def _lookup(tools: Iterable[ToolProxy], name: object) -> ToolProxy | ToolError:
    """The tool exported as *name*, or the error that answers an unknown name."""
    found = unique_tools(tools)
    proxy = found.get(name) if isinstance(name, str) else None
    return proxy if proxy is not None else _unknown(name, found)


def dispatch(
    tools: Iterable[ToolProxy], name: str, arguments: Arguments = None, *, strict: bool = False
) -> Any:
    """Run the tool a model named: `ToolProxy.dynamic_call` of the tool exported as *name*.

    Args:
        tools: The proxies the model was offered.
        name: The tool name the model sent.
        arguments: The arguments it sent (a mapping, JSON text, or None).
        strict: The model was given the strict variant: ``null`` for a defaulted property
            means its default (the arguments are read as `typed_toolsets.StrictArguments`).

    Returns:
        The method's value, or ``"Error: ..."`` (an unknown name gives ``"Error: Unknown tool
        '<name>'; available tools: ..."``).

    Raises:
        ExportError: Two different tools in *tools* have the same exported name.
    """
    proxy = _lookup(tools, name)
    if isinstance(proxy, ToolError):
        return "Error: " + proxy.message
    return proxy.dynamic_call(_arguments(proxy, arguments, strict))


async def adispatch(
    tools: Iterable[ToolProxy], name: str, arguments: Arguments = None, *, strict: bool = False
) -> Any:
    """The async form of `dispatch` (`ToolProxy.adynamic_call`)."""
    proxy = _lookup(tools, name)
    if isinstance(proxy, ToolError):
        return "Error: " + proxy.message
    return await proxy.adynamic_call(_arguments(proxy, arguments, strict))


# ------------------------------------------------------------------------------- respond


@attrs.frozen
class _Call:
    """A provider's tool call, read: which reply to build, for which id, tool and arguments."""

    reply: Callable[[str, str, bool], dict[str, Any]]
    call_id: object
    name: object
    arguments: Any


def _field(obj: object, key: str) -> Any:
    if isinstance(obj, Mapping):
        return typing.cast("Mapping[str, Any]", obj).get(key)
    return getattr(obj, key, None)


def _chat_reply(call_id: str, content: str, _error: bool) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def _responses_reply(call_id: str, content: str, _error: bool) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": content}


def _anthropic_reply(call_id: str, content: str, error: bool) -> dict[str, Any]:
    return {
        "type": "tool_result",
        "tool_use_id": call_id,
        "content": anthropic_text(content),
        "is_error": error,
    }


def anthropic_text(content: str) -> str:
    r"""*content* as the text of an Anthropic ``tool_result``: never empty nor only whitespace.

    The Messages API refuses a text block that is empty ("text content blocks must be
    non-empty") or only whitespace ("... must contain non-whitespace text"), and a
    ``tool_result`` whose content is ``""``; every later request of the conversation carries the
    answer again, so it would fail too. A tool returning such a ``str`` is answered with its
    JSON text instead (``""``, ``"\n"``), which says exactly what it returned.
    """
    if content and not content.isspace():
        return content
    return json.dumps(content, ensure_ascii=False)


def _read_call(tool_call: object) -> _Call:
    kind = _field(tool_call, "type")
    function = _field(tool_call, "function")
    if kind == "function_call":  # an OpenAI Responses output item
        call = _Call(
            _responses_reply,
            _field(tool_call, "call_id"),
            _field(tool_call, "name"),
            _field(tool_call, "arguments"),
        )
    elif kind == "tool_use":  # an Anthropic content block
        call = _Call(
            _anthropic_reply,
            _field(tool_call, "id"),
            _field(tool_call, "name"),
            _field(tool_call, "input"),
        )
    elif function is not None:  # an OpenAI Chat Completions message's tool_calls[i]
        call = _Call(
            _chat_reply,
            _field(tool_call, "id"),
            _field(function, "name"),
            _field(function, "arguments"),
        )
    else:
        msg = (
            "respond() takes an OpenAI Chat tool call (message.tool_calls[i]), an OpenAI "
            "Responses function_call item or an Anthropic tool_use block, as a mapping or the "
            f"SDK's object; got {type(tool_call).__name__}"
            + ("" if kind is None else f" with type {kind!r}")
        )
        raise TypeError(msg)
    if not isinstance(call.call_id, str):
        # The provider's API sets the id (the model does not), and the answer must carry it.
        problem = (
            "the tool call has no id to answer to"
            if call.call_id is None
            else f"the tool call's id must be a string, not {short(call.call_id)}"
        )
        msg = f"{problem}; answer it with dispatch() and the id your API expects"
        raise TypeError(msg)
    return call


def _reply(call: _Call, proxy: ToolProxy | None, result: ToolResult) -> dict[str, Any]:
    content, error = _content(proxy, result)
    return call.reply(typing.cast("str", call.call_id), content, error)


def _content(proxy: ToolProxy | None, result: ToolResult) -> tuple[str, bool]:
    if result.ok and proxy is not None:
        return result_text(proxy, result.value), False
    error = result.error or ToolError("?", "execution", "the tool failed")
    return _error_text(error), True


def respond(
    tools: Iterable[ToolProxy], tool_call: object, *, strict: bool = False
) -> dict[str, Any]:
    """Run a provider's tool call and return the message that answers it.

    This is the whole glue of a function-calling loop: pass each tool call the model made, as
    the SDK hands it over, and append the returned message to the conversation.

    - OpenAI Chat ``message.tool_calls[i]`` gives
      ``{"role": "tool", "tool_call_id": ..., "content": ...}``;
    - an OpenAI Responses ``function_call`` item gives
      ``{"type": "function_call_output", "call_id": ..., "output": ...}``;
    - an Anthropic ``tool_use`` block gives
      ``{"type": "tool_result", "tool_use_id": ..., "content": ..., "is_error": ...}``.

    The content is the return value as JSON text (a ``str`` as it is, except that Anthropic gets
    an empty or whitespace-only one as JSON text, `anthropic_text`), or, when the call failed,
    the error envelope ``{"error": {"kind", "tool", "message", "details"}}`` as JSON text.

    Args:
        tools: The proxies the model was offered.
        tool_call: The call, as a mapping or as the SDK's own object (read by attribute).
        strict: The tools were exported with ``strict=True`` (see `dispatch`).

    Raises:
        TypeError: *tool_call* is none of the three shapes, or has no id.
        ExportError: Two different tools in *tools* have the same exported name.
    """
    call = _read_call(tool_call)
    proxy = _lookup(tools, call.name)
    if isinstance(proxy, ToolError):
        return _reply(call, None, ToolResult.failure(proxy))
    return _reply(call, proxy, proxy.invoke(_arguments(proxy, call.arguments, strict)))


async def arespond(
    tools: Iterable[ToolProxy], tool_call: object, *, strict: bool = False
) -> dict[str, Any]:
    """The async form of `respond` (`ToolProxy.ainvoke`)."""
    call = _read_call(tool_call)
    proxy = _lookup(tools, call.name)
    if isinstance(proxy, ToolError):
        return _reply(call, None, ToolResult.failure(proxy))
    return _reply(call, proxy, await proxy.ainvoke(_arguments(proxy, call.arguments, strict)))


# ----------------------------------------------------------------------------------- MCP


def _mcp_result(proxy: ToolProxy | None, result: ToolResult) -> dict[str, Any]:
    structured: object = None
    schema = mcp_output_schema(proxy) if result.ok and proxy is not None else None
    if schema is not None and proxy is not None:
        message: str | None = None
        try:
            structured = mcp_structured_content(proxy, json_value(proxy, result.value))
            # Judged even when it is None: a tool with an object outputSchema returning None
            # has no structured content to send, which the client refuses as well.
            problem = not_json(structured)
            if problem is None:
                # Sent, and so judged, as plain JSON values: a part of another type (a UUID a
                # registered type's unstructure left) by its JSON form, text valid Unicode.
                text = plain_json_text(structured)
                message = _too_deep(proxy.name, text)
                structured = None if message is not None else json.loads(text)
                if message is None:
                    problem = _output_problem(schema, structured)
        except RecursionError:
            # Writing and checking the value recurse: a value nested hundreds of levels deep
            # cannot be sent as structured content (nor judged), which is said, not raised.
            message = (
                f"Tool {proxy.name!r} returned a value nested too deeply to write as JSON; "
                "return a flatter value"
            )
        else:
            if problem is not None:
                # MCP has the structured result conform to the advertised outputSchema: a value
                # that does not is the tool's failure, said as such, not content the client
                # refuses.
                message = (
                    f"Tool {proxy.name!r} returned a value its return annotation does not admit: "
                    f"{problem}"
                )
        if message is not None:
            result = ToolResult.failure(ToolError(proxy.name, "execution", message))
            structured = None
    content, error = _content(proxy, result)
    answer: dict[str, Any] = {"content": [{"type": "text", "text": content}]}
    if structured is not None:
        answer["structuredContent"] = structured
    answer["isError"] = error
    return answer


#: The deepest structured content sent: the MCP SDK's reader refuses a message nested about 200
#: levels deep (the answer is then dropped, and the client waits for its own timeout), and its
#: check of the content against the outputSchema recurses out of Python's stack sooner.
MCP_RESULT_DEPTH: Final = 128


def _too_deep(name: str, text: str) -> str | None:
    """Why structured content written as *text* cannot be sent (None: it can)."""
    depth = depth_over(text, MCP_RESULT_DEPTH)
    if depth is None:
        return None
    return (
        f"Tool {name!r} returned a value nested {depth} levels deep, deeper than MCP clients "
        f"read ({MCP_RESULT_DEPTH} levels); return a flatter value"
    )


#: The checkers of MCP output schemas, by the schema's JSON text (at most `_CHECKERS` of them).
_checkers: Final[dict[str, Checker]] = {}
_CHECKERS: Final = 1024


def _output_problem(schema: Schema, structured: object) -> str | None:
    """Why *structured* (a tool's plain JSON ``structuredContent``) is not what *schema* admits."""
    from typed_toolsets.call.checker import Checker  # with the first structured result

    key = json.dumps(schema, sort_keys=True)
    checker = _checkers.get(key)
    if checker is None:
        if len(_checkers) >= _CHECKERS:
            _checkers.clear()
        checker = _checkers[key] = Checker(schema)
    problems, _ = checker.problems(structured, 1)
    if not problems:
        return None
    ((path, reason),) = problems
    return f"{json_path(path)}: {reason}"


def mcp_error(error: ToolError) -> dict[str, Any]:
    """The MCP ``tools/call`` result of a call that failed with *error* (``isError: true``)."""
    return _mcp_result(None, ToolResult.failure(error))


def mcp_call(tools: Iterable[ToolProxy], name: str, arguments: Arguments = None) -> dict[str, Any]:
    """Run an MCP ``tools/call`` and return its result (a ``CallToolResult`` as a dict).

    ``content`` holds one text block (the value as JSON text, a ``str`` as it is, or the error
    envelope); ``structuredContent`` the value when the tool has an ``outputSchema``; ``isError``
    says whether the call failed (bad arguments included, as MCP asks).

    Raises:
        ExportError: Two different tools in *tools* have the same exported name.
    """
    proxy = _lookup(tools, name)
    if isinstance(proxy, ToolError):
        return _mcp_result(None, ToolResult.failure(proxy))
    return _mcp_result(proxy, proxy.invoke(arguments))


async def amcp_call(
    tools: Iterable[ToolProxy], name: str, arguments: Arguments = None
) -> dict[str, Any]:
    """The async form of `mcp_call` (`ToolProxy.ainvoke`)."""
    proxy = _lookup(tools, name)
    if isinstance(proxy, ToolError):
        return _mcp_result(None, ToolResult.failure(proxy))
    return _mcp_result(proxy, await proxy.ainvoke(arguments))
