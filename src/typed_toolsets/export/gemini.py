"""Gemini ``function_declarations``: Gemini's OpenAPI-style schema subset.

``$ref`` is inlined (Gemini rejects ``$defs``), ``null`` variants become ``nullable: true``, and
the keywords the subset lacks move into the description (`typed_toolsets.export.dialects`'s
passes); our own validation still checks the canonical schema, so they are still enforced. What
the subset cannot say at all (a recursive type, an object without named properties) is refused.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping
from typing import Any, Final, TypeAlias

from typed_toolsets.call.proxy import ToolProxy
from typed_toolsets.call.strict import schema_path
from typed_toolsets.definition.errors import ExportError
from typed_toolsets.types.strict import def_name
from typed_toolsets.types.typespec import Schema

from .dialects import array_items, each_entry, note_moved
from .literals import unsayable_literal
from .parameter_names import GEMINI_PARAMETER, parameter_name_problems
from .type_lists import split_type_list, untyped_schema

__all__ = ["gemini"]


_GEMINI_KEEP: Final = frozenset(
    [
        "type",
        "format",
        "description",
        "nullable",
        "enum",
        "items",
        "minItems",
        "maxItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "anyOf",
        "title",
        "default",
    ]
)
_GEMINI_FORMATS: Final = {
    "string": frozenset({"date-time", "enum"}),
    "integer": frozenset({"int32", "int64"}),
    "number": frozenset({"float", "double"}),
}
_NULL: Final = {"type": "null"}
#: Where a schema is among the parameters: the parameter's name, then keys, indexes, "*".
_Path: TypeAlias = tuple[str | int, ...]


class _Unwritable(Exception):  # noqa: N818 - a verdict, caught below
    """A parameter Gemini's schema cannot say: where (the parameter first), why, what to do."""

    def __init__(self, path: _Path, cause: str, fix: str) -> None:
        super().__init__(cause)
        self.path = path
        self.cause = cause
        self.fix = fix

    def problem(self, tool: str) -> str:
        parameter, *inner = self.path
        at = f" at {schema_path(self.path)}" if inner else ""
        return (
            f"Tool {tool!r} cannot be exported to Gemini: parameter {parameter!r}{at} "
            f"{self.cause}; {self.fix}"
        )


#: Why a free-form object cannot be written, and what to do.
_FREE_FORM: Final = (
    (
        "is an object with free-form keys (such as dict[str, T]), and Gemini's schema cannot say "
        "so: it needs an object's properties named, and refuses an object without any"
    ),
    "use a list of key/value objects or an attrs class, or export the tool to another provider",
)


def _untyped(path: _Path, schema: object) -> _Unwritable:
    """The refusal of a (registered) schema without a type: Gemini needs one on every schema."""
    has, fix = untyped_schema(schema)
    return _Unwritable(
        path,
        f"has {has}, and Gemini needs a type (or anyOf) on every schema",
        f"{fix}, or export the tool to another provider",
    )


_NO_FIELDS: Final = (
    "is an object with no fields, which Gemini refuses (an object needs at least one property)",
    "give the class a field, or take the parameter out (it can only be {})",
)


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _literals(key: str, values: list[object]) -> list[tuple[Schema, Schema]]:
    """The literal *values* of ``enum`` or ``const`` as typed schemas, one per JSON type.

    Gemini wants a ``type`` on every schema and enumerates strings only: the strings become an
    ``enum``, the values of any other type are noted (each schema's keywords to move, second);
    integers go with numbers when there are both. ``null`` is left to ``nullable``.
    """
    kinds = [_json_type(v) for v in values if v is not None]
    if "number" in kinds:
        kinds = ["number" if kind == "integer" else kind for kind in kinds]
    groups: dict[str, list[object]] = {}
    for kind, value in zip(kinds, [v for v in values if v is not None], strict=True):
        groups.setdefault(kind, []).append(value)
    typed: list[tuple[Schema, Schema]] = []
    for kind, group in groups.items():
        if kind == "string":
            typed.append(({"type": kind, "enum": group}, {}))
        else:
            typed.append(({"type": kind}, {key: group[0] if key == "const" else group}))
    return typed


def _noted(result: Schema, moved: Schema) -> Schema:
    """*result* with the keywords *moved* out of it noted in its description."""
    if moved:
        result["description"] = note_moved(result.get("description"), moved)
    return result


class _Gemini:
    """Gemini's OpenAPI-style schema subset from a canonical schema, references inlined."""

    def __init__(self, defs: Mapping[str, Any]) -> None:
        self.defs = defs

    def node(self, schema: Mapping[str, Any], within: tuple[str, ...], path: _Path) -> Schema:
        """*schema* (at *path*) in Gemini's subset, the keywords it lacks in the description.

        Raises:
            _Unwritable: Gemini's schema cannot say what *schema* does.
        """
        result, moved = self.parts(schema, within, path)
        if "type" not in result and "anyOf" not in result:  # a registered schema's
            raise _untyped(path, schema)
        return _noted(result, moved)

    def parts(
        self, schema: Mapping[str, Any], within: tuple[str, ...], path: _Path
    ) -> tuple[Schema, Schema]:
        """*schema* in Gemini's subset, and the keywords it lacks (for the description)."""
        if not isinstance(typing.cast(object, schema), Mapping):  # a registered true or false
            raise _untyped(path, schema)
        ref = schema.get("$ref")
        if isinstance(ref, str):
            name = def_name(ref)
            if name in within:
                raise _Unwritable(
                    path[:1],
                    f"has the recursive type {name}, and Gemini accepts no $ref, so a type that "
                    "refers to itself cannot be written out",
                    "use a type that does not refer to itself, or another provider",
                )
            target = typing.cast("Mapping[str, Any]", self.defs.get(name) or {})
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            return self.parts({**target, **siblings}, (*within, name), path)
        # An array or object in a type list needs its items or properties on its own schema.
        schema = split_type_list(schema) or schema
        unsayable = unsayable_literal(schema)
        if unsayable is not None:  # an object or array listed would need its properties or items
            raise _Unwritable(
                path,
                f"has {unsayable}, and Gemini's schema can list only strings, numbers, booleans "
                "and null (one at least)",
                "say it with a type in the registered schema instead, or export the tool to "
                "another provider",
            )
        result: Schema = {}
        moved: Schema = {}
        nullable = False
        single: tuple[Schema, Schema] | None = None
        # Literal values say their types themselves (and whether null is one of them).
        literal = "const" in schema or isinstance(schema.get("enum"), list)
        for key, value in schema.items():
            if key == "$defs":
                continue
            if key == "properties" and isinstance(value, Mapping):
                children = typing.cast("Mapping[str, Mapping[str, Any]]", value)
                result[key] = {
                    name: self.node(child, within, (*path, name))
                    for name, child in children.items()
                }
            elif key == "items":  # a mapping, or a registered schema's true or false
                item = typing.cast("Mapping[str, Any]", value)
                result[key] = self.node(item, within, (*path, "*"))
            elif key == "anyOf" and isinstance(value, list):
                branches = typing.cast("list[Mapping[str, Any]]", value)
                kept = [b for b in branches if b != _NULL]
                nullable = nullable or len(kept) < len(branches)
                if len(kept) == 1:
                    single = self.parts(kept[0], within, path)
                elif kept:
                    result[key] = [self.node(b, within, path) for b in kept]
            elif key == "type":  # one type: a list was split above
                if literal:
                    continue
                if value == "null":
                    nullable = True
                else:
                    result[key] = value
            elif key == "const" or (key == "enum" and isinstance(value, list)):
                values = typing.cast("list[object]", value if key == "enum" else [value])
                nullable = nullable or None in values
                typed = _literals(key, values)
                if len(typed) == 1:
                    result.update(typed[0][0])
                    moved.update(typed[0][1])
                elif typed:
                    result["anyOf"] = [_noted(*branch) for branch in typed]
            elif key == "additionalProperties":
                if value is False:
                    continue  # closed objects are what Gemini assumes anyway
                if not schema.get("properties"):
                    raise _Unwritable(path, *_FREE_FORM)
                moved[key] = (
                    self.node(typing.cast("Mapping[str, Any]", value), within, (*path, "*"))
                    if isinstance(value, Mapping)
                    else value
                )
            elif key == "prefixItems" and isinstance(value, list):
                branches = typing.cast("list[Mapping[str, Any]]", value)
                moved[key] = [self.node(b, within, (*path, i)) for i, b in enumerate(branches)]
            elif key == "format":
                kind = schema.get("type")
                allowed = _GEMINI_FORMATS.get(kind, frozenset()) if isinstance(kind, str) else ()
                (result if value in allowed else moved)[key] = value
            elif key == "default" and value is None:
                continue  # google-genai reads a None default as none given; nullable says it
            elif key in _GEMINI_KEEP:
                result[key] = value
            else:
                moved[key] = value
        if single is not None:
            # One variant left once null is taken out: it is the schema, with the outer keywords
            # (the parameter's description, its default) taking precedence. The keywords it
            # lacks are noted after the outer description, not lost under it.
            result = {**single[0], **result}
            moved = {**single[1], **moved}
        if result.get("type") == "object" and not result.get("properties"):
            # Gemini refuses an object without properties, and a map has none to name.
            closed = schema.get("additionalProperties", True) is False and not schema.get(
                "patternProperties"
            )
            raise _Unwritable(path, *(_NO_FIELDS if closed else _FREE_FORM))
        if (
            single is None
            and result.get("type") == "object"
            and "additionalProperties" not in schema
        ):
            # Open by default (a registered schema that does not say): Gemini reads the named
            # properties as the only ones, so the openness is noted as an explicit one is. (A
            # variant merged in above was judged on its own schema, which says.)
            moved["additionalProperties"] = True
        if result.get("type") == "array" and "items" not in result:
            # Gemini refuses an array without items; maxItems, kept, bounds the tuples.
            prefix = typing.cast("list[Schema]", moved.get("prefixItems") or [])
            result["items"] = array_items(prefix, result.get("maxItems"))
            if not result["items"]:  # any value past the prefix
                raise _untyped((*path, "*"), result["items"])
        if nullable and "type" not in result and "anyOf" not in result:
            result["type"] = "null"  # null alone (Literal[None]): Gemini's NULL type says it
        elif nullable:
            result["nullable"] = True
        return result, moved


def _gemini_entry(proxy: ToolProxy) -> dict[str, Any]:
    parameters = proxy.parameters
    defs = typing.cast("Mapping[str, Any]", parameters.get("$defs") or {})
    convert = _Gemini(defs)
    properties: Schema = {}
    problems = parameter_name_problems(proxy, GEMINI_PARAMETER)
    for name, prop in typing.cast("dict[str, Any]", parameters["properties"]).items():
        try:
            properties[name] = convert.node(prop, (), (name,))
        except _Unwritable as exc:
            problems.append(exc.problem(proxy.name))
    if problems:
        raise ExportError(problems)
    entry: dict[str, Any] = {"name": proxy.name, "description": proxy.description}
    if properties:
        # Gemini refuses an object without properties: a tool without parameters has none.
        entry["parameters"] = {
            "type": "object",
            "properties": properties,
            "required": parameters["required"],
        }
    return entry


def gemini(tools: Iterable[ToolProxy]) -> list[dict[str, Any]]:
    """Gemini ``function_declarations``: ``{"name", "description", "parameters"}``.

    ``parameters`` is Gemini's OpenAPI-style schema subset: ``$ref`` inlined (Gemini rejects
    ``$defs``), ``null`` variants turned into ``nullable: true``, ``additionalProperties: false``
    left out, literal values typed (strings enumerated, other values noted, several types as
    ``anyOf``), and the keywords Gemini lacks (``uniqueItems``, ``prefixItems``, exclusive bounds,
    most formats, ...) moved into the description; our own validation still enforces them.
    ``parameters`` is absent for a tool without parameters.

    Raises:
        ExportError: Two tools share a name, or a parameter has a type Gemini's schema cannot
            say: a recursive type (it cannot be inlined), an object with free-form keys
            (``dict[str, T]``: Gemini needs every property named) or with no fields (Gemini
            refuses an object without properties), or a registered schema listing an object or
            array in an ``enum`` or ``const``.
    """
    return each_entry(tools, _gemini_entry)
