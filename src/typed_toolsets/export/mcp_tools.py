"""MCP ``tools/list`` entries: each tool's ``inputSchema``, its ``outputSchema`` when structured.

The return schema goes out as MCP wants it (an object, a recursive class's root ``$ref``
resolved), and a value a tool returned becomes the ``structuredContent`` that schema describes.

May import every core layer; nothing in the core imports it.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping
from typing import Any, Final

from typed_toolsets.call.proxy import ToolProxy
from typed_toolsets.types.strict import def_name
from typed_toolsets.types.typespec import Schema

from .dialects import each_entry

__all__ = ["answers_in_text", "mcp", "mcp_output_schema", "mcp_structured_content"]


def answers_in_text(output: Schema | None) -> bool:
    """Whether a tool with the return schema *output* answers in plain text (a ``str``)."""
    return output is not None and output.get("type") == "string" and set(output) <= _PLAIN


#: The keys of a return schema that still leave its values plain strings.
_PLAIN: Final = frozenset({"type", "description"})


def _resolved(output: Schema) -> Schema:
    """*output* with a root ``$ref`` (a recursive class) replaced by its definition's body.

    The ``$defs`` stay at the root, for the references inside; the SDKs want ``type`` there.
    """
    ref = output.get("$ref")
    defs = output.get("$defs")
    if not isinstance(ref, str) or not isinstance(defs, Mapping):
        return output
    target = typing.cast("Mapping[str, Any]", defs).get(def_name(ref))
    if not isinstance(target, Mapping):
        return output
    siblings = {k: v for k, v in output.items() if k not in ("$ref", "$defs")}
    return {**typing.cast("Mapping[str, Any]", target), **siblings, "$defs": defs}


def _mcp_output(proxy: ToolProxy) -> tuple[Schema, bool] | None:
    """The MCP ``outputSchema`` of *proxy* and whether it wraps the value, or None."""
    output = proxy.output_schema
    if output is None or answers_in_text(output):
        return None
    resolved = _resolved(output)
    if resolved.get("type") == "object":
        return resolved, False
    defs = output.pop("$defs", None)
    wrapped: Schema = {
        "type": "object",
        "properties": {"result": output},
        "required": ["result"],
        "additionalProperties": False,
    }
    if defs is not None:
        wrapped["$defs"] = defs
    return wrapped, True


def mcp_output_schema(proxy: ToolProxy) -> Schema | None:
    """The MCP ``outputSchema`` of *proxy*: its return schema when structured, else None.

    A tool returning ``str`` (or nothing with a schema) answers in plain text and has none. An
    object schema is used as it is (a recursive class's root ``$ref`` resolved to its definition,
    the ``$defs`` kept); any other (a number, a list, ...) is wrapped as ``{"result": ...}``, as
    the MCP Python SDK does, since MCP requires an object.
    """
    found = _mcp_output(proxy)
    return None if found is None else found[0]


def mcp_structured_content(proxy: ToolProxy, value: object) -> object:
    """The MCP ``structuredContent`` for the JSON *value* a tool returned (None: no schema)."""
    found = _mcp_output(proxy)
    if found is None:
        return None
    return {"result": value} if found[1] else value


def _mcp_entry(proxy: ToolProxy) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": proxy.name,
        "description": proxy.description,
        "inputSchema": proxy.parameters,
    }
    output = mcp_output_schema(proxy)
    if output is not None:
        entry["outputSchema"] = output
    annotations = proxy.annotations.to_dict() if proxy.annotations is not None else {}
    if annotations:
        entry["annotations"] = annotations
    return entry


def mcp(tools: Iterable[ToolProxy]) -> list[dict[str, Any]]:
    """MCP ``tools/list`` entries: ``{"name", "description", "inputSchema"}``.

    ``outputSchema`` is added when the return type is structured (`mcp_output_schema`) and
    ``annotations`` when the tool or its toolset declares `ToolAnnotations`.

    Raises:
        ExportError: Two tools share a name.
    """
    return each_entry(tools, _mcp_entry)
