"""What makes a schema given to `typed_toolsets.register_type` unusable, found when it is given.

A registered type's schema is written into the schema of every tool that uses the type, and its
arguments are checked against it with jsonschema (which runs ``pattern`` with Python's `re`).
Mistakes would otherwise surface only when a model calls such a tool, as an internal error or
as its arguments refused: a value that is not JSON (the schema is exported as JSON), a
reference (it would resolve against the tool's schema, not this one), a pattern Python cannot
compile, a ``type`` that is not one of JSON Schema's; `typed_toolsets.types.usertypes` then asks
jsonschema's metaschema about the rest. Stdlib only.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterator, Mapping
from typing import Any, Final

__all__ = [
    "JSON_TYPES",
    "ONE_SUBSCHEMA",
    "SUBSCHEMA_LISTS",
    "SUBSCHEMA_MAPPINGS",
    "not_json",
    "schema_problem",
]

#: JSON Schema's type names.
JSON_TYPES: Final = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})
#: Keywords that refer to other schemas or name this one for references.
_REFERENCING: Final = (
    "$ref",
    "$dynamicRef",
    "$defs",
    "definitions",
    "$id",
    "$anchor",
    "$dynamicAnchor",
)
#: Keywords whose value is one subschema, a list of them, or a mapping of names to them
#: (``$defs`` aside: a registered schema holds no reference, so its definitions go unused).
ONE_SUBSCHEMA: Final = (
    "additionalProperties",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
)
SUBSCHEMA_LISTS: Final = ("prefixItems", "allOf", "anyOf", "oneOf")
SUBSCHEMA_MAPPINGS: Final = ("properties", "patternProperties", "dependentSchemas")


def schema_problem(schema: Mapping[str, Any]) -> str | None:
    """What makes *schema* unusable as a registered type's, in a sentence; None when it is fine."""
    for sub in _subschemas(schema):
        for keyword in _REFERENCING:
            if keyword in sub:
                return (
                    f"it uses {keyword!r}, but a registered schema is copied into each tool's "
                    "schema, where a reference would not resolve; write the subschema out in full"
                )
        patterns = [sub["pattern"]] if "pattern" in sub else []
        names = sub.get("patternProperties")
        if isinstance(names, Mapping):
            patterns += list(names)  # pyright: ignore[reportUnknownArgumentType]
        for pattern in patterns:
            if not isinstance(pattern, str):
                return f"its pattern {pattern!r} is not a string"
            try:
                re.compile(pattern)
            except re.error as exc:
                return (
                    f"its pattern {pattern!r} is not a regular expression Python can use ({exc}); "
                    "jsonschema matches patterns with Python's `re`"
                )
        declared = sub.get("type", "string")
        for name in declared if isinstance(declared, list) else [declared]:  # pyright: ignore[reportUnknownVariableType]
            if name not in JSON_TYPES:
                known = ", ".join(sorted(JSON_TYPES))
                return f"its type {name!r} is not a JSON Schema type (one of {known})"
    return None


def not_json(value: object) -> str | None:
    """The first part of *value* that is not a JSON value, said with where it is; None if none.

    JSON values: str, int, a finite float, bool, None, a list or tuple of them, a mapping with
    str keys of them; a container that holds itself (at any depth) is none.
    """
    # Each container with the ids of those it is inside: one met again inside itself is a cycle
    # (met again elsewhere, it is only shared, as a JSON text would repeat it).
    stack: list[tuple[object, str, frozenset[int]]] = [(value, "", frozenset())]
    while stack:
        item, where, inside = stack.pop()
        if isinstance(item, (Mapping, list, tuple)):
            if id(typing.cast(object, item)) in inside:
                return f"it holds itself at {_at(where)}, which no JSON value does"
            inside = inside | {id(typing.cast(object, item))}
        if isinstance(item, Mapping):
            mapping: Mapping[object, object] = item  # pyright: ignore[reportUnknownVariableType]
            for key, sub in mapping.items():
                if not isinstance(key, str):
                    return f"it has a key that is not a string, {key!r}, at {_at(where)}"
                stack.append((sub, f"{where}/{key}", inside))
        elif isinstance(item, (list, tuple)):
            items: list[object] | tuple[object, ...] = item  # pyright: ignore[reportUnknownVariableType]
            stack += [(sub, f"{where}/{index}", inside) for index, sub in enumerate(items)]
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                return f"it holds {item!r} at {_at(where)}, which is not a JSON number"
        elif item is not None and not isinstance(item, (str, int)):
            return f"it holds {item!r} at {_at(where)}, which is not a JSON value"
    return None


def _at(where: str) -> str:
    """A JSON pointer into the schema, for a message."""
    return where or "the top level"


def _subschemas(schema: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """*schema* and every schema inside it (not the values of ``enum``, ``const`` or defaults)."""
    stack: list[object] = [schema]
    while stack:
        sub = stack.pop()
        if not isinstance(sub, Mapping):
            continue  # a boolean schema
        found: Mapping[str, Any] = sub  # pyright: ignore[reportUnknownVariableType]
        yield found
        stack += [found[k] for k in ONE_SUBSCHEMA if k in found]
        for keyword in SUBSCHEMA_LISTS:
            value = found.get(keyword)
            if isinstance(value, list):
                stack += value
        for keyword in SUBSCHEMA_MAPPINGS:
            value = found.get(keyword)
            if isinstance(value, Mapping):
                stack += list(value.values())  # pyright: ignore[reportUnknownArgumentType]
