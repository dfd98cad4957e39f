"""A ``type`` list written as an ``anyOf`` of one schema per type, for dialects without lists.

``{"type": ["array", "string"], "items": S, "minLength": 1}`` admits exactly what
``{"anyOf": [{"type": "array", "items": S}, {"type": "string", "minLength": 1}]}`` admits: a
keyword of one type (``items``, ``minLength``, ...) only ever looks at values of that type, and
every other keyword holds for each. Only a registered type's schema has a list. Anthropic's
strict mode takes no list (its SDK's own transform fails on one) and Gemini needs ``items`` or
``properties`` on the very schema that says ``array`` or ``object``: both take the second form.
Anthropic's strict mode also drops a ``type`` beside ``anyOf``: each branch says it instead
(`type_into_branches`).
"""

from __future__ import annotations

import json
import typing
from collections.abc import Mapping
from typing import Any, Final

from typed_toolsets.call.shown import short_text
from typed_toolsets.types.typespec import Schema

__all__ = ["BESIDE", "split_type_list", "type_into_branches", "untyped_schema"]


_NUMBER: Final = frozenset(
    {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"}
)
#: The keywords that look at values of one JSON type only (2020-12 validation and applicators;
#: ``format`` names string formats, and the number formats of OpenAPI, which Gemini reads).
_KEYWORDS_OF: Final = {
    "object": frozenset(
        {"properties", "required", "additionalProperties", "patternProperties"}
        | {"propertyNames", "minProperties", "maxProperties", "dependentRequired"}
        | {"dependentSchemas", "unevaluatedProperties"}
    ),
    "array": frozenset(
        {"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"}
        | {"minContains", "maxContains", "unevaluatedItems"}
    ),
    "string": frozenset(
        {"minLength", "maxLength", "pattern", "contentEncoding", "contentMediaType"}
        | {"contentSchema", "format"}
    ),
    "number": _NUMBER,
    "integer": _NUMBER,
}
_OF_ONE_TYPE: Final = frozenset(key for keys in _KEYWORDS_OF.values() for key in keys)
_NONE: Final[frozenset[str]] = frozenset()
#: The keywords that say nothing about which values are valid: they stay on the whole schema.
_ANNOTATIONS: Final = frozenset(
    {"description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly"}
    | {"$comment"}
)


def split_type_list(schema: Mapping[str, Any]) -> Schema | None:
    """*schema* with its ``type`` list as an ``anyOf`` of one schema per type (one type: it).

    Each branch has its type's keywords and every keyword that holds for all types; the
    annotations (``description``, ``default``, ...) stay on the whole schema.

    Returns:
        None when ``type`` is not a list, or when ``enum`` or ``const`` lists the values (they
        say their types themselves, and the dialects read them so).
    """
    types: object = schema.get("type")
    if not isinstance(types, list) or "enum" in schema or "const" in schema:
        return None
    outer: Schema = {k: v for k, v in schema.items() if k in _ANNOTATIONS}
    branches: list[Schema] = []
    for kind in typing.cast("list[object]", types):
        branch: Schema = {"type": kind}
        own = _KEYWORDS_OF.get(kind, _NONE) if isinstance(kind, str) else _NONE
        for key, value in schema.items():
            if key == "type" or key in _ANNOTATIONS:
                continue
            if key in own or key not in _OF_ONE_TYPE:
                branch[key] = value
        branches.append(branch)
    if len(branches) == 1:
        return {**outer, **branches[0]}
    return {**outer, "anyOf": branches}


#: Keywords that read one another (``additionalProperties`` looks at ``properties``): a branch
#: stating one of a group cannot take another of it from outside and mean the same.
_TOGETHER: Final = (
    frozenset({"properties", "patternProperties", "additionalProperties", "unevaluatedProperties"}),
    frozenset({"prefixItems", "items", "unevaluatedItems"}),
)

#: Why a dialect without a type beside ``anyOf`` refuses one `type_into_branches` cannot move,
#: and what to do.
BESIDE: Final = (
    (
        "drops a type beside anyOf, and a branch cannot say it (true or false, another type, or a "
        "keyword of that type stated otherwise)"
    ),
    "give each branch of the registered anyOf its type",
)


def type_into_branches(schema: Mapping[str, Any]) -> Schema | None:
    """*schema*'s one ``type`` beside ``anyOf`` said by each branch instead, or None.

    ``{"type": "integer", "minimum": 0, "anyOf": [{"multipleOf": 2}, {"maximum": 9}]}`` admits
    exactly what ``{"anyOf": [{"type": "integer", "minimum": 0, "multipleOf": 2}, {"type":
    "integer", "minimum": 0, "maximum": 9}]}`` admits: each branch takes the type and the
    keywords of that type it does not state itself. Only a registered type's schema has a type
    beside ``anyOf``; Anthropic's strict mode drops it (its SDK's own transform keeps ``anyOf``
    alone), so it takes the second form.

    Returns:
        The schema without the type (the annotations and other keywords stay); *schema* as it is
        without a type string beside ``anyOf``; None when a branch cannot take it: a boolean
        branch, a branch of another type, or one stating a keyword of that type differently.
    """
    kind: object = schema.get("type")
    branches: object = schema.get("anyOf")
    if not isinstance(kind, str) or not isinstance(branches, list):
        return dict(schema)
    own = {k: v for k, v in schema.items() if k in _KEYWORDS_OF.get(kind, _NONE)}
    moved: list[Schema] = []
    for branch in typing.cast("list[object]", branches):
        if not isinstance(branch, Mapping):
            return None
        stated = typing.cast("Mapping[str, Any]", branch)
        if stated.get("type", kind) != kind:
            return None
        if any(k in stated and stated[k] != v for k, v in own.items()):
            return None
        for group in _TOGETHER:
            both = set(own) & group and set(stated) & group
            if both and any(stated.get(k) != own.get(k) for k in group):
                return None
        moved.append({"type": kind, **own, **stated})
    rest = {k: v for k, v in schema.items() if k != "type" and k not in own}
    return {**rest, "anyOf": moved}


#: What to write in a registered schema instead of a combinator the dialects take no type from.
_INSTEAD: Final = {
    "oneOf": "write the registered schema's oneOf as anyOf",
    "allOf": "merge the registered schema's allOf into one schema with a type",
}


def untyped_schema(schema: object) -> tuple[str, str]:
    """How a refusal names a (registered) schema without a type, and what to change.

    Returns:
        A phrase after "has" (the schema shown as JSON) and the fix: a ``oneOf`` or ``allOf``
        is named, since it is what the dialect could not read.
    """
    shown = short_text(json.dumps(schema, ensure_ascii=False))
    if isinstance(schema, bool):
        return f"the boolean schema {shown}", "give the registered type's schema a type"
    for key, instead in _INSTEAD.items():
        if isinstance(schema, Mapping) and key in schema:
            return f"a {key} and no type {shown}", instead
    return f"a schema with no type {shown}", "give the registered type's schema a type"
