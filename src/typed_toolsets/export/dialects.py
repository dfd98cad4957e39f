"""Tool definitions in each model API's own shape: OpenAI's and Anthropic's.

MCP's are in `typed_toolsets.export.mcp_tools`, Gemini's in `typed_toolsets.export.gemini`.
Each function takes the proxies (``Toolset.to_tools()``) and returns JSON-ready dicts; no SDK is
imported at run time. The canonical schema (`ToolProxy.parameters`) goes out unchanged wherever
the API accepts full JSON Schema (OpenAI only adds an ``items`` to each array without one). The
strict variants start from `ToolProxy.strict_parameters` and move the keywords a provider's
strict mode does not support into the description. Our own validation always checks the
canonical schema, so a keyword moved into a description is still enforced.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeVar

import attrs

from typed_toolsets.call.proxy import ToolProxy
from typed_toolsets.call.strict import schema_path
from typed_toolsets.definition.errors import ExportError
from typed_toolsets.rules.names import class_display_name
from typed_toolsets.types.schema_lint import ONE_SUBSCHEMA, SUBSCHEMA_LISTS, SUBSCHEMA_MAPPINGS
from typed_toolsets.types.strict import def_name
from typed_toolsets.types.typespec import Schema

from .literals import unsayable_literal
from .parameter_names import ANTHROPIC_PARAMETER, parameter_name_problems
from .type_lists import BESIDE, split_type_list, type_into_branches, untyped_schema

if TYPE_CHECKING:
    # The SDKs' own request types, so an export passes to their clients as it is under a type
    # checker; at run time (annotations read with `typing.get_type_hints`) they are the plain
    # dicts the functions return, and no SDK is imported.
    from anthropic.types import ToolParam as _AnthropicTool
    from openai.types.chat import ChatCompletionFunctionToolParam as _OpenAIChatTool
    from openai.types.responses import FunctionToolParam as _OpenAIResponsesTool
else:
    _AnthropicTool = _OpenAIChatTool = _OpenAIResponsesTool = dict[str, Any]

_Entry = TypeVar("_Entry")

__all__ = [
    "any_of",
    "anthropic",
    "array_items",
    "each_entry",
    "json_schemas",
    "note_moved",
    "openai_chat",
    "openai_responses",
    "unique_tools",
]


# ------------------------------------------------------------------------------------ the list


def _where(proxy: ToolProxy) -> str:
    return f"{class_display_name(type(proxy.toolset).__qualname__)}.{proxy.method_name}"


def _both(first: ToolProxy, second: ToolProxy) -> tuple[str, str, str]:
    """How a name clash names its two tools, so that the message tells them apart."""
    one, two = _where(first), _where(second)
    if one != two:
        return one, two, ""
    if type(first.toolset) is type(second.toolset):
        return one, two, " (two instances of one toolset)"
    # Two classes of one name (`a:Geo` and `b:Geo` served together): their modules tell them
    # apart; saying "two instances of one toolset" would be untrue.
    one = f"{type(first.toolset).__module__}.{one}"
    two = f"{type(second.toolset).__module__}.{two}"
    return one, two, "" if one != two else " (two classes of one name)"


def unique_tools(tools: Iterable[ToolProxy]) -> dict[str, ToolProxy]:
    """The tools by exported name, in order; the same proxy listed twice counts once.

    Raises:
        TypeError: An item is not a `ToolProxy`.
        ExportError: Two different tools have the same exported name.
    """
    found: dict[str, ToolProxy] = {}
    problems: list[str] = []
    if not isinstance(typing.cast(object, tools), Iterable):  # callers without a checker
        msg = (
            "expected the ToolProxy objects of Toolset.to_tools() (a list), got "
            f"{type(tools).__name__}"
        )
        raise TypeError(msg)
    for proxy in tools:
        if not isinstance(typing.cast(object, proxy), ToolProxy):  # callers without a checker
            msg = (
                f"expected the ToolProxy objects of Toolset.to_tools(), got {type(proxy).__name__}"
            )
            raise TypeError(msg)
        other = found.get(proxy.name)
        if other is None:
            found[proxy.name] = proxy
        elif other is not proxy:
            first, second, same = _both(other, proxy)
            problems.append(
                f"Two tools are exported as {proxy.name!r}: {first} and {second}{same}; a model "
                "could not tell them apart. Rename one with tool(..., tool_name=...) or a "
                "different toolset_name, or leave one out"
            )
    if problems:
        raise ExportError(problems)
    return found


def each_entry(
    tools: Iterable[ToolProxy], entry: typing.Callable[[ToolProxy], _Entry]
) -> list[_Entry]:
    """*entry* of every tool, gathering every tool's refusal into one `ExportError`."""
    entries: list[_Entry] = []
    problems: list[str] = []
    for proxy in unique_tools(tools).values():
        try:
            entries.append(entry(proxy))
        except ExportError as exc:
            problems.extend(exc.problems)
    if problems:
        raise ExportError(problems)
    return entries


# ------------------------------------------------------------------------ keyword passes


def note_moved(description: object, moved: Mapping[str, Any]) -> str:
    """*description* with the keywords a dialect cannot carry appended as JSON."""
    text = json.dumps(moved, ensure_ascii=False)
    if isinstance(description, str) and description:
        return f"{description}\n\nJSON Schema: {text}"
    return f"JSON Schema: {text}"


def any_of(schemas: list[Schema]) -> Schema:
    """One schema admitting each of *schemas* (the items of a tuple whose order moved out)."""
    distinct: list[Schema] = []
    for schema in schemas:
        if schema not in distinct:
            distinct.append(schema)
    if len(distinct) == 1:
        return dict(distinct[0])
    return {"anyOf": distinct}


def array_items(prefix: list[Schema], max_items: object) -> Schema:
    """An ``items`` for an array schema without one, admitting what it admits; OpenAI needs one.

    OpenAI (strict or not) and Gemini refuse an array schema without ``items``; the canonical
    schema has none only for tuples. Where ``maxItems`` leaves no room past the *prefix* (the
    ``prefixItems``), ``items`` applies to no item: it is the prefix's schemas, for the model to
    read, or for ``tuple[()]`` (``maxItems: 0``) ``{"type": "null"}``, a typed schema every
    dialect takes. Otherwise an absent ``items`` admits any value past the prefix, as ``{}`` does.
    """
    if isinstance(max_items, int) and max_items <= len(prefix):
        return any_of(prefix) if prefix else {"type": "null"}
    return {}


def _is_array(schema: Mapping[str, Any]) -> bool:
    declared = schema.get("type")
    if isinstance(declared, list):
        return "array" in typing.cast("list[object]", declared)
    return declared == "array"


#: The keywords whose value is a schema, a list of schemas, or a mapping of names to schemas
#: (a registered type's schema may use any of JSON Schema's).
_SUBSCHEMA: Final = frozenset(ONE_SUBSCHEMA)
_SUBSCHEMAS: Final = frozenset(SUBSCHEMA_LISTS)
_NAMED_SUBSCHEMAS: Final = frozenset({*SUBSCHEMA_MAPPINGS, "$defs"})


def _with_items(schema: Mapping[str, Any]) -> Schema:
    """A copy of *schema* with an ``items`` on every array schema (`array_items`), at any depth."""
    if not isinstance(typing.cast(object, schema), Mapping):
        return typing.cast("Schema", schema)  # a registered schema's true or false
    result: Schema = {}
    for key, value in schema.items():
        if key in _NAMED_SUBSCHEMAS and isinstance(value, Mapping):
            named = typing.cast("Mapping[str, Mapping[str, Any]]", value)
            result[key] = {name: _with_items(child) for name, child in named.items()}
        elif key in _SUBSCHEMAS and isinstance(value, list):
            branches = typing.cast("list[Mapping[str, Any]]", value)
            result[key] = [_with_items(branch) for branch in branches]
        elif key in _SUBSCHEMA and isinstance(value, Mapping):
            result[key] = _with_items(typing.cast("Mapping[str, Any]", value))
        else:
            result[key] = value
    if _is_array(result) and "items" not in result:
        if "unevaluatedItems" in result:
            # What it says of the items past the prefix: `items: {}` would have admitted them
            # all, unevaluatedItems then finding none left to refuse.
            result["items"] = result["unevaluatedItems"]
        else:
            prefix = typing.cast("list[Schema]", result.get("prefixItems") or [])
            result["items"] = array_items(prefix, result.get("maxItems"))
    return result


@attrs.frozen
class _StrictDialect:
    """What one provider's strict mode accepts; every other keyword moves into the description.

    Attributes:
        provider: The provider's name, for messages.
        keep: The keywords kept as they are.
        formats: The string formats kept.
        min_items: The ``minItems`` values kept (None: any).
        literal_drops_type: Whether ``type`` goes when ``enum`` or ``const`` says it all.
        recursion: Whether recursive schemas (``$ref`` into ``$defs``) are supported.
        type_lists: Whether a ``type`` list, or a type beside ``anyOf``, is taken (else it
            becomes an ``anyOf``, or each branch says it: `type_into_branches`).
        scalar_literals: Whether ``enum`` and ``const`` take only scalars (`unsayable_literal`).
    """

    provider: str
    keep: frozenset[str]
    formats: frozenset[str]
    min_items: frozenset[int] | None = None
    literal_drops_type: bool = False
    recursion: bool = True
    type_lists: bool = True
    scalar_literals: bool = False


#: What every strict dialect takes: the structure, literals and references.
_STRICT_CORE: Final = frozenset(
    {"type", "description", "title", "properties", "required", "additionalProperties"}
    | {"items", "anyOf", "enum", "const", "$ref", "$defs", "format", "minItems"}
)
#: The formats every strict dialect takes.
_STRICT_FORMATS: Final = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
_OPENAI: Final = _StrictDialect(
    provider="OpenAI",
    keep=_STRICT_CORE
    | {"pattern", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"}
    | {"maxItems"},
    formats=_STRICT_FORMATS,
)
# As the Anthropic SDK's own transform (anthropic.lib._parse._transform.transform_schema).
_ANTHROPIC: Final = _StrictDialect(
    provider="Anthropic",
    keep=_STRICT_CORE | {"allOf"},
    formats=_STRICT_FORMATS | {"uri"},
    min_items=frozenset({0, 1}),
    literal_drops_type=True,
    recursion=False,
    type_lists=False,
    scalar_literals=True,
)


def _allowed(key: str, value: object, dialect: _StrictDialect, schema: Mapping[str, Any]) -> bool:
    """Whether the dialect takes this value of a keyword it supports (in *schema*)."""
    if key == "format":  # the formats are string formats: the SDKs move one off a string
        declared = schema.get("type")
        strings = declared == "string" or (isinstance(declared, list) and "string" in declared)
        return strings and value in dialect.formats
    if key == "minItems" and dialect.min_items is not None:
        return value in dialect.min_items
    return True


#: The keywords that give a strict schema its type; a schema with none of them admits anything.
_TYPED: Final = frozenset({"type", "anyOf", "allOf", "$ref", "enum", "const"})
_Path: TypeAlias = tuple[str | int, ...]


class _StrictNodes:
    """One tool's strict schema in one dialect, and what the dialect cannot take."""

    def __init__(self, tool: str, dialect: _StrictDialect) -> None:
        self.tool = tool
        self.dialect = dialect
        self.problems: list[str] = []

    def refuse(self, path: _Path, has: str, why: str, fix: str) -> None:
        """Note that the schema at *path* cannot go out: it *has* something, *why* not."""
        if path[:1] == ("$defs",):  # inside a recursive class's definition (no parameter)
            where, path = f"the type {path[1]}", path[1:]
        else:
            where = f"parameter {path[0]!r}" if path else "the arguments object"
        at = f" at {schema_path(path)}" if len(path) > 1 else ""
        self.problems.append(
            f"Tool {self.tool!r} cannot be exported in {self.dialect.provider} strict mode: "
            f"{where}{at} has {has}, and {self.dialect.provider}'s strict mode {why}; {fix}, or "
            "export it with strict=False"
        )

    def untyped(self, path: _Path, schema: object) -> None:
        has, fix = untyped_schema(schema)
        self.refuse(path, has, "needs a type (or anyOf) on every schema", fix)

    def node(self, schema: Mapping[str, Any], path: _Path) -> Schema:
        if not isinstance(typing.cast(object, schema), Mapping):
            self.untyped(path, schema)  # a registered schema's true or false
            return {}
        dialect = self.dialect
        if not dialect.type_lists:
            schema = split_type_list(schema) or schema
            typed = type_into_branches(schema)
            if typed is None:  # refused: its branches, read without the type, would say no more
                self.refuse(path, f"the type {json.dumps(schema['type'])} beside an anyOf", *BESIDE)
                return {}
            schema = typed
        literal = unsayable_literal(schema) if dialect.scalar_literals else None
        if literal is not None:
            why = "takes only strings, numbers, booleans and null in an enum (of one at least)"
            self.refuse(path, literal, why, "say it with a type in the registered schema instead")
        result: Schema = {}
        moved: Schema = {}
        for key, value in schema.items():
            if key in ("properties", "$defs") and isinstance(value, Mapping):
                children = typing.cast("Mapping[str, Mapping[str, Any]]", value)
                result[key] = {
                    name: self.node(child, (*path, name) if key == "properties" else (key, name))
                    for name, child in children.items()
                }
            elif key == "items":  # a mapping, or a registered schema's true or false
                result[key] = self.node(typing.cast("Mapping[str, Any]", value), (*path, "*"))
            elif key in ("anyOf", "allOf", "prefixItems") and isinstance(value, list):
                branches = typing.cast("list[Mapping[str, Any]]", value)
                # Branches moved into the description are not the dialect's schemas, but a
                # tuple's items become its items.
                shown = key in dialect.keep or key == "prefixItems"
                nodes = self if shown else _StrictNodes(self.tool, dialect)
                converted = [
                    nodes.node(branch, (*path, i) if key == "prefixItems" else path)
                    for i, branch in enumerate(branches)
                ]
                (result if key in dialect.keep else moved)[key] = converted
            elif key in dialect.keep and _allowed(key, value, dialect, schema):
                result[key] = value
            else:
                moved[key] = value
        if _is_array(result) and "items" not in result:
            # The schema's own bound, even where the dialect moves it out: our validation keeps it.
            prefix = typing.cast("list[Schema]", moved.get("prefixItems") or [])
            result["items"] = array_items(prefix, schema.get("maxItems"))
            if not result["items"]:  # any value past the prefix
                self.untyped((*path, "*"), result["items"])
        if dialect.literal_drops_type and ("enum" in result or "const" in result):
            result.pop("type", None)
            if "format" in result:  # a format without its string type, which the SDK moves
                moved["format"] = result.pop("format")
        if not _TYPED & set(result):
            self.untyped(path, dict(schema))
        if moved:
            result["description"] = note_moved(result.get("description"), moved)
        return result


def _refs(schema: object) -> list[str]:
    """The ``$defs`` names *schema* refers to, in order of first use."""
    found: list[str] = []
    stack: list[object] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            mapping = typing.cast("Mapping[str, object]", node)
            ref = mapping.get("$ref")
            if isinstance(ref, str) and def_name(ref) not in found:
                found.append(def_name(ref))
            stack.extend(reversed(list(mapping.values())))
        elif isinstance(node, list):
            stack.extend(reversed(typing.cast("list[object]", node)))
    return found


def _strict_schema(proxy: ToolProxy, dialect: _StrictDialect) -> Schema:
    schema = proxy.strict_parameters
    if not dialect.recursion and "$defs" in schema:
        problems: list[str] = []
        properties = typing.cast("dict[str, Any]", schema.get("properties") or {})
        for name, prop in properties.items():
            recursive = _refs(prop)
            if recursive:
                problems.append(
                    f"Tool {proxy.name!r} cannot be exported in {dialect.provider} strict mode: "
                    f"parameter {name!r} has the recursive type {recursive[0]}, and "
                    f"{dialect.provider}'s strict mode does not support recursive schemas; "
                    "export it with strict=False, or use a type that does not refer to itself"
                )
        raise ExportError(problems)
    nodes = _StrictNodes(proxy.name, dialect)
    result = nodes.node(schema, ())
    if nodes.problems:
        raise ExportError(nodes.problems)
    return result


# ------------------------------------------------------------------------------ canonical


def json_schemas(tools: Iterable[ToolProxy], *, strict: bool = False) -> list[dict[str, Any]]:
    """``{"name", "description", "parameters"}`` of each tool (`ToolProxy.schema`).

    With *strict*, ``parameters`` is `ToolProxy.strict_parameters` (the provider-neutral strict
    variant, every keyword kept).

    Raises:
        ExportError: Two tools share a name, or (strict) a parameter has no lossless strict
            form.
    """
    return each_entry(
        tools,
        lambda p: (
            {"name": p.name, "description": p.description, "parameters": p.strict_parameters}
            if strict
            else p.schema
        ),
    )


# --------------------------------------------------------------------------------- OpenAI


def _parameters(proxy: ToolProxy, strict: bool, dialect: _StrictDialect) -> Schema:
    return _strict_schema(proxy, dialect) if strict else proxy.parameters


def _openai_parameters(proxy: ToolProxy, strict: bool) -> Schema:
    # OpenAI refuses an array schema without items even outside strict mode.
    return _parameters(proxy, strict, _OPENAI) if strict else _with_items(proxy.parameters)


def openai_chat(tools: Iterable[ToolProxy], *, strict: bool = False) -> list[_OpenAIChatTool]:
    """The ``tools`` of an OpenAI Chat Completions request.

    Each entry is ``{"type": "function", "function": {"name", "description", "parameters",
    "strict"}}``: a plain dict, typed as the OpenAI SDK's ``ChatCompletionFunctionToolParam``.

    Args:
        tools: The proxies to export (``Toolset.to_tools()``; lists may be concatenated).
        strict: Export the strict variant (``strict: true``; `ToolProxy.strict_parameters` with
            the keywords OpenAI's strict mode lacks moved into descriptions). Call the tools
            with ``dispatch(..., strict=True)`` / ``respond(..., strict=True)``.

    Raises:
        ExportError: Two tools share a name, or (strict) a parameter has no lossless strict
            form; every problem of every tool is listed.
    """

    def entry(p: ToolProxy) -> _OpenAIChatTool:
        return {
            "type": "function",
            "function": {
                "name": p.name,
                "description": p.description,
                "parameters": _openai_parameters(p, strict),
                "strict": strict,
            },
        }

    return each_entry(tools, entry)


def openai_responses(
    tools: Iterable[ToolProxy], *, strict: bool = False
) -> list[_OpenAIResponsesTool]:
    """The ``tools`` of an OpenAI Responses request: ``{"type": "function", "name", ...}`` (flat).

    Each entry is a plain dict, typed as the OpenAI SDK's ``FunctionToolParam``. Args and errors
    as `openai_chat`.
    """

    def entry(p: ToolProxy) -> _OpenAIResponsesTool:
        return {
            "type": "function",
            "name": p.name,
            "description": p.description,
            "parameters": _openai_parameters(p, strict),
            "strict": strict,
        }

    return each_entry(tools, entry)


# ------------------------------------------------------------------------------ Anthropic


def anthropic(tools: Iterable[ToolProxy], *, strict: bool = False) -> list[_AnthropicTool]:
    """The ``tools`` of an Anthropic Messages request: ``{"name", "description", "input_schema"}``.

    Each entry is a plain dict, typed as the Anthropic SDK's ``ToolParam``.

    Args:
        tools: The proxies to export.
        strict: Export the strict variant (``"strict": true``): `ToolProxy.strict_parameters`
            with the keywords Anthropic's strict mode lacks (numeric and length bounds,
            patterns, ...) moved into descriptions.

    Raises:
        ExportError: Two tools share a name, or (strict) a parameter has no lossless strict
            form, a recursive type (which Anthropic's strict mode does not support) or a
            registered schema listing an object or array in an ``enum`` or ``const``.
    """

    def entry(proxy: ToolProxy) -> _AnthropicTool:
        problems = parameter_name_problems(proxy, ANTHROPIC_PARAMETER)
        schema: Schema = {}
        try:
            schema = _parameters(proxy, strict, _ANTHROPIC)
        except ExportError as exc:
            problems.extend(exc.problems)
        if problems:
            raise ExportError(problems)
        found: _AnthropicTool = {
            "name": proxy.name,
            "description": proxy.description,
            "input_schema": schema,
        }
        if strict:
            found["strict"] = True
        return found

    return each_entry(tools, entry)
