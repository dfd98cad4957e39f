"""Running a model's tool calls: `dispatch`, `respond` (the function-calling glue) and MCP results.

The model names a tool and sends arguments; these functions find the tool among the proxies by
its exported name, run the model-facing call (reading the arguments' strict form when asked:
`typed_toolsets.StrictArguments`), and write the outcome in the shape the provider expects back.
None of them raises for anything the model sent: an unknown tool, bad arguments and a failing
tool all come back as error results. They raise only for the caller's own mistakes (two tools
with one name, something that is not a tool call).
"""

from __future__ import annotations

import inspect
import json
import math
import typing
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs

from typed_toolsets.call.jsonbounds import not_finite
from typed_toolsets.call.pipeline import read_arguments as _read_arguments
from typed_toolsets.call.proxy import Arguments, ToolProxy
from typed_toolsets.call.result import ToolError, ToolResult
from typed_toolsets.call.validation import json_path, safe_repr, short, short_text, with_article
from typed_toolsets.definition.limits import Limits
from typed_toolsets.definition.methods import resolve_annotation
from typed_toolsets.types.typespec import LONG_INT, MAX_INT_DIGITS

from .dialects import answers_in_text, mcp_output_schema, mcp_structured_content, unique_tools
from .strict_arguments import strict_arguments

if TYPE_CHECKING:
    from typed_toolsets.call.checker import Checker

__all__ = [
    "adispatch",
    "amcp_call",
    "arespond",
    "dispatch",
    "json_value",
    "mcp_call",
    "mcp_error",
    "read_arguments",
    "respond",
    "result_text",
    "valid_text",
]


# ------------------------------------------------------------------------------- values


_NO_HOOK: Final = object()
_hooks: weakref.WeakKeyDictionary[type, dict[str, Any]] = weakref.WeakKeyDictionary()


def _return_hook(proxy: ToolProxy) -> Callable[[Any], Any] | None:
    """The unstructure function of the method's return annotation (None when it has none)."""
    cls = type(proxy.toolset)
    per_class = _hooks.setdefault(cls, {})
    hook = per_class.get(proxy.method_name, _NO_HOOK)
    if hook is _NO_HOOK:
        hook = None
        for klass in cls.__mro__:
            func = vars(klass).get(proxy.method_name)
            if inspect.isfunction(func):
                hook = _hook_of(func, klass)
                break
        per_class[proxy.method_name] = hook
    return typing.cast("Callable[[Any], Any] | None", hook)


def _hook_of(func: Callable[..., Any], owner: type) -> Callable[[Any], Any] | None:
    annotation = inspect.get_annotations(func).get("return")
    if annotation is None:
        return None
    from typed_toolsets.types.catalog import registry

    try:
        namespace = dict(vars(owner))
        resolved = resolve_annotation(annotation, getattr(func, "__globals__", {}), namespace)
        return registry.spec(resolved).unstructure
    except Exception:  # noqa: BLE001 - a return type without a schema: no hook
        return None


def json_value(proxy: ToolProxy, value: object) -> object:
    """*value*, returned by *proxy*'s method, as a JSON value (by its return annotation)."""
    from typed_toolsets.types.converter import converter

    hook = _return_hook(proxy)
    # When the method returned something other than its annotation says, its own type decides.
    for unstructure in (hook, converter.unstructure):
        if unstructure is not None:
            try:
                return unstructure(value)
            except Exception:  # noqa: BLE001, S112 - try the next way, then give up
                continue
    return value


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


def result_text(proxy: ToolProxy, value: object, *, indent: int | None = None) -> str:
    """A tool's return value as the text a model (or a person) reads: JSON, or the ``str`` itself.

    A value with no JSON form is still written as JSON text: NaN and the infinities as strings,
    an integer past the interpreter's digit limit as a string saying how long it is, a struct
    field by field, any other part as its repr (its type's name when that fails too). Never
    raises an `Exception`.

    Args:
        proxy: The tool that returned it (its return annotation decides the JSON form).
        value: What the method returned.
        indent: JSON indentation (None: one line).
    """
    if type(value) is str:
        return valid_text(value)
    if isinstance(value, str) and answers_in_text(proxy.output_schema):
        # A str subclass (a StrEnum member) of a `-> str` tool: its text.
        return valid_text(str.__str__(value))
    data = json_value(proxy, value)
    try:
        try:
            text = json.dumps(data, ensure_ascii=False, allow_nan=False, indent=indent)
        except (TypeError, ValueError):
            # Not JSON as it stands (NaN, an object with no JSON form): still valid JSON text,
            # with such values written as strings (their repr; a type's name when even that
            # fails).
            text = json.dumps(_jsonable(data), ensure_ascii=False, indent=indent, default=safe_repr)
    except RecursionError:
        # json.dumps recurses: a value nested thousands of levels deep (a long chain of a
        # recursive class) has no text it can write, which is said rather than raised.
        text = json.dumps(_TOO_DEEP)
    except Exception:  # noqa: BLE001 - a part that breaks even the lenient writing (a key's str)
        text = json.dumps(f"<a {type(value).__name__} value that cannot be written as text>")
    return valid_text(text)


_TOO_DEEP: Final = "<a value nested too deeply to write as JSON text>"


def valid_text(text: str) -> str:
    """*text* as valid Unicode: each lone surrogate replaced by U+FFFD (a pair, by its character).

    A tool may return or raise text holding lone surrogates (bytes decoded with
    ``surrogateescape``, as ``os.listdir`` and ``subprocess`` do with undecodable names); such
    text has no UTF-8 form, so no client could be sent it. Every text a result carries
    (`result_text`, the error envelope, MCP structured content) goes through here.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def _jsonable(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            int.__repr__(value)
        except ValueError:  # over the interpreter's digit limit: no JSON text
            return f"<an integer of about {int(value.bit_length() * math.log10(2)) + 1} digits>"
        return value
    if isinstance(value, Mapping):
        items = typing.cast("Mapping[object, object]", value).items()
        return {str(k): _jsonable(v) for k, v in items}
    if type(value) in _CONTAINERS:
        return [_jsonable(v) for v in typing.cast("list[object]", value)]
    if value is None or isinstance(value, (str, float, bool)):
        return value
    # The whole had no JSON form, this part may (an enum, a UUID beside a naive datetime);
    # without one, a struct is written field by field (the part that has none shows where), a
    # subclass of a container item by item, anything else as its repr (by json.dumps).
    form, reason = _own_json_form(value)
    if reason is None:
        return _jsonable(form)
    members = _struct_members(value)
    if members is not None:
        return {name: _jsonable(member) for name, member in members}
    if isinstance(value, _CONTAINERS):
        return [_jsonable(v) for v in typing.cast("list[object]", value)]
    return value


_CONTAINERS: Final = (list, tuple, set, frozenset)


def _struct_members(value: object) -> list[tuple[str, object]] | None:
    """The fields of a struct (attrs class, dataclass, NamedTuple) by JSON name; else None."""
    from typed_toolsets.types.structs import struct_fields

    try:
        fields = struct_fields(type(value))
        if fields is None:
            return None
        return [(field.name, getattr(value, field.attr_name)) for field in fields]
    except Exception:  # noqa: BLE001 - fields that cannot be read: the whole is written as it is
        return None


def _error_text(error: ToolError) -> str:
    return valid_text(json.dumps(error.to_dict(), ensure_ascii=False))


# ------------------------------------------------------------------------------ dispatch


def _unknown(name: object, tools: Mapping[str, ToolProxy]) -> ToolError:
    available = ", ".join(tools) if tools else "none"
    # A name that is no string (a call without one) is shown as the model sent it: `null`.
    shown = short(name)
    tool = name if isinstance(name, str) else shown
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
    return {"type": "tool_result", "tool_use_id": call_id, "content": content, "is_error": error}


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
            f"SDK's object; got {type(tool_call).__name__} with type {kind!r}"
        )
        raise TypeError(msg)
    if not isinstance(call.call_id, str):
        msg = f"the tool call has no id to answer to (got {call.call_id!r})"
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

    The content is the return value as JSON text (a ``str`` as it is), or, when the call failed,
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
    if result.ok and proxy is not None:
        message: str | None = None
        try:
            structured = mcp_structured_content(proxy, json_value(proxy, result.value))
            problem = None if structured is None else _output_problem(proxy, structured)
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
        if "\ufffd" in content:
            # The text is the same value as JSON: lone surrogates it had replaced are in the
            # structured form too (`valid_text`).
            structured = json.loads(valid_text(json.dumps(structured, ensure_ascii=False)))
        answer["structuredContent"] = structured
    answer["isError"] = error
    return answer


#: The checkers of MCP output schemas, by the schema's JSON text (at most `_CHECKERS` of them).
_checkers: Final[dict[str, Checker]] = {}
_CHECKERS: Final = 1024


def _output_problem(proxy: ToolProxy, structured: object) -> str | None:
    """Why *structured* (a tool's ``structuredContent``) is not what its outputSchema admits."""
    found = _not_json(structured)
    if found is not None:
        return found
    schema = mcp_output_schema(proxy)
    if schema is None:  # pragma: no cover - structured content exists only with a schema
        return None
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


def _not_json(value: object) -> str | None:
    """Where and why *value* is not a JSON value (its first such part), or None."""
    stack: list[tuple[tuple[str | int, ...], object]] = [((), value)]
    while stack:
        path, item = stack.pop()
        kind = type(item)
        if item is None or kind is str or kind is bool:
            continue
        if kind is float:
            if not math.isfinite(typing.cast(float, item)):
                return f"{json_path(path)}: {not_finite(typing.cast(float, item))}"
        elif kind is int:
            if abs(typing.cast(int, item)) >= LONG_INT:
                return (
                    f"{json_path(path)}: an integer of more than {MAX_INT_DIGITS:,} digits is not "
                    "a JSON number"
                )
        elif kind is list:
            items = typing.cast("list[object]", item)
            stack.extend(((*path, index), v) for index, v in reversed(list(enumerate(items))))
        elif kind is dict:
            members = typing.cast("dict[object, object]", item)
            for key, v in reversed(members.items()):
                if type(key) is not str:
                    return f"{json_path(path)}: the key {key!r} is not a string"
                stack.append(((*path, key), v))
        else:
            # A part the whole's unstructuring left as it was (it failed elsewhere): its own
            # JSON form is looked at in its place, or why it has none is the answer.
            if kind is _Unwritten:
                # Every field of a struct with no JSON form has one: the struct's reason holds.
                return f"{json_path(path)}: {typing.cast(_Unwritten, item).reason}"
            form, reason = _own_json_form(item)
            if reason is not None:
                # A struct is looked into first, so the answer names the field that has no form.
                fields = _struct_members(item)
                if fields is None:
                    return f"{json_path(path)}: {reason}"
                stack.append((path, _Unwritten(reason)))
                stack.extend(((*path, name), v) for name, v in reversed(fields))
                continue
            stack.append((path, form))
    return None


class _Unwritten:
    """Why a struct has no JSON form, looked at after its fields (`_not_json`)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _own_json_form(value: object) -> tuple[object, str | None]:
    """*value*'s JSON form by its own type (of no JSON type), or None and why it has none."""
    from typed_toolsets.types.converter import unstructure_hook

    what = with_article(type(value).__name__)
    try:
        form = unstructure_hook(type(value))(value)
    except RecursionError:
        raise  # nested too deeply to write, which is no reason of the value's own type
    except Exception as exc:  # noqa: BLE001 - its reason is the message (a naive datetime's)
        try:
            reason = str(exc)
        except Exception:  # noqa: BLE001 - an exception whose own text fails
            reason = ""
        if reason:
            return None, f"{what} has no JSON form: {short_text(reason)}"
        return None, f"{what} is not a JSON value"
    if type(form) is type(value):
        return None, f"{what} is not a JSON value"
    return form, None


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
