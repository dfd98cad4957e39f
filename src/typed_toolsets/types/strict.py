"""The strict form of JSON objects (OpenAI and Anthropic ``strict: true``): null for a default.

In strict mode every property is required, so a model says "use the default" by sending ``null``
for a property that has one. That meaning is given to a property exactly when it may be left out
and its own schema does not admit ``null`` already (`means_default`); such a property's schema
becomes `nullable`, with a description saying what ``null`` stands for (`null_sentence`).

The type layer builds the strict form of every type from these rules (a registry whose object
types read ``null`` so: `typed_toolsets.types.registry.TypeRegistry.strict_form`), and the call
layer writes the strict schema a tool exports with the same ones
(`typed_toolsets.call.strict`). Standard library only.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Mapping
from typing import Any, Final

__all__ = [
    "admits_null",
    "def_name",
    "means_default",
    "null_sentence",
    "nullable",
    "open_schema_nulls",
    "strict_instance",
]

#: Longest default shown in the "null means the default" sentence; longer ones are not shown.
_MAX_SHOWN_DEFAULT: Final = 120
_DEFS_PREFIX: Final = "#/$defs/"


def def_name(ref: str) -> str:
    """The ``$defs`` entry a local ``$ref`` points to (``#/$defs/Node`` gives ``Node``)."""
    return ref.removeprefix(_DEFS_PREFIX)


def admits_null(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> bool:
    """Whether ``null`` may be valid against *schema* (True when the schema does not say).

    Every keyword this understands must admit null for the answer to be True; a schema it cannot
    judge (``{}``, ``not``, a user's own keywords) counts as admitting it, which errs towards
    refusing a strict export rather than changing what ``null`` means. A ``$ref`` whose target is
    not in *defs* is a recursive class (an object, never null).
    """
    return _admits_null(schema, defs, set())


def _admits_null(schema: Mapping[str, Any], defs: Mapping[str, Any], seen: set[str]) -> bool:
    if not isinstance(typing.cast(object, schema), Mapping):  # a boolean schema (a registered one)
        return bool(schema)
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = def_name(ref)
        target = defs.get(name)
        if name in seen or not isinstance(target, Mapping):
            return False  # a cycle: a recursive class is an object, never null
        if not _admits_null(typing.cast("Mapping[str, Any]", target), defs, {*seen, name}):
            return False
    declared = schema.get("type")
    if isinstance(declared, str) and declared != "null":
        return False
    if isinstance(declared, list) and "null" not in declared:
        return False
    if "const" in schema and schema["const"] is not None:
        return False
    enum = schema.get("enum")
    if isinstance(enum, list) and None not in enum:
        return False
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and not any(
            isinstance(b, Mapping) and _admits_null(typing.cast("Mapping[str, Any]", b), defs, seen)
            for b in typing.cast("list[object]", branches)
        ):
            return False
    branches = schema.get("allOf")
    return not isinstance(branches, list) or all(
        isinstance(b, Mapping) and _admits_null(typing.cast("Mapping[str, Any]", b), defs, seen)
        for b in typing.cast("list[object]", branches)
    )


def means_default(required: bool, schema: Mapping[str, Any]) -> bool:
    """Whether ``null`` for a property stands for its default in the strict form.

    Args:
        required: Whether the property must be present (then it has no default).
        schema: The schema of the property's type (``$ref``s to recursive classes are objects).
    """
    return not required and not admits_null(schema, {})


def null_sentence(schema: Mapping[str, Any]) -> str:
    """What ``null`` means for an optional property whose canonical schema is *schema*."""
    if not isinstance(typing.cast(object, schema), Mapping) or "default" not in schema:
        return "null means it is not given."
    shown = json.dumps(schema["default"], ensure_ascii=False)
    if len(shown) > _MAX_SHOWN_DEFAULT:
        return "null means the default."
    return f"null means the default ({shown})."


def _with_sentence(description: object, sentence: str) -> str:
    if isinstance(description, str) and description.strip():
        text = description.rstrip()
        separator = " " if text.endswith((".", "!", "?", ":")) else ". "
        return text + separator + sentence
    return sentence


def nullable(schema: Mapping[str, Any], sentence: str) -> dict[str, Any]:
    """*schema* or null, with *sentence* (what null means) added to its description.

    A ``default`` keyword is dropped: strict dialects take none, and ``null`` now says it.
    """
    if not isinstance(typing.cast(object, schema), Mapping):  # a boolean schema (``false``)
        return {"anyOf": [schema, {"type": "null"}], "description": sentence}
    inner = {k: v for k, v in schema.items() if k != "default"}
    description = inner.pop("description", None)
    branches: list[Any] = (
        [*inner["anyOf"], {"type": "null"}]
        if set(inner) == {"anyOf"}
        else [inner, {"type": "null"}]
    )
    return {"anyOf": branches, "description": _with_sentence(description, sentence)}


def open_schema_nulls(
    schema: Mapping[str, Any], check: typing.Callable[[Mapping[str, Any], object], bool]
) -> tuple[dict[str, Any], typing.Callable[[object], object]] | None:
    """The strict form of a schema given as it is (`typed_toolsets.register_type`).

    The strict export (`typed_toolsets.call.strict`) makes each optional property of each object
    under ``properties``, ``items``, ``prefixItems`` and ``anyOf`` nullable when its schema does
    not admit null (`means_default`); so does this, keeping it optional.

    Args:
        schema: The schema as given (no ``$ref``).
        check: Whether a value is valid against a schema (picks a value's ``anyOf`` branch).

    Returns:
        None when no property is made nullable; else the strict schema and a function turning a
        value valid against it into one valid against *schema* (each such ``null`` left out).
    """
    changed = _open_nulls(schema)
    if changed is None:
        return None

    def drop(node: Mapping[str, Any], value: object) -> object:
        if not isinstance(typing.cast(object, node), Mapping):  # a boolean schema
            return value
        if isinstance(value, dict):
            value = _drop_in_object(node, typing.cast("dict[str, object]", value), drop)
        elif isinstance(value, list):
            value = _each_item(node, typing.cast("list[object]", value), drop)
        branches = node.get("anyOf")
        if isinstance(branches, list):
            for branch in typing.cast("list[Mapping[str, Any]]", branches):
                opened = _open_nulls(branch) or branch
                if check(opened, value):
                    return drop(branch, value)
        return value

    return changed, lambda value: drop(schema, value)


def strict_instance(
    schema: Mapping[str, Any],
    value: object,
    check: typing.Callable[[Mapping[str, Any], object], bool],
) -> object:
    """*value*, valid against a registered type's *schema*, as the strict export wants it.

    The strict export requires every property, so each optional one left out whose ``null``
    means "not given" (`means_default`) is written as ``null``: the reverse of what
    `open_schema_nulls` drops, under the same keywords.

    Args:
        schema: The schema as given (no ``$ref``).
        value: A JSON value valid against *schema*.
        check: Whether a value is valid against a schema (picks a value's ``anyOf`` branch).
    """
    given, result = value, value
    if not isinstance(typing.cast(object, schema), Mapping):  # a boolean schema
        return value
    if isinstance(value, dict):
        properties = schema.get("properties")
        if isinstance(properties, Mapping):
            props = typing.cast("Mapping[str, Mapping[str, Any]]", properties)
            required = set(typing.cast("list[str]", schema.get("required") or []))
            members = typing.cast("dict[str, object]", value)
            filled = {
                key: item if key not in props else strict_instance(props[key], item, check)
                for key, item in members.items()
            }
            for key, prop in props.items():
                if key not in filled and means_default(key in required, prop):
                    filled[key] = None
            result = filled
    elif isinstance(value, list):
        result = _each_item(
            schema,
            typing.cast("list[object]", value),
            lambda node, item: strict_instance(node, item, check),
        )
    branches = schema.get("anyOf")
    if isinstance(branches, list):
        for branch in typing.cast("list[Mapping[str, Any]]", branches):
            # The branch the value as given (before nulls were written into it) is valid against.
            if check(branch, given):
                return strict_instance(branch, result, check)
    return result


def _each_item(
    node: Mapping[str, Any],
    items: list[object],
    each: typing.Callable[[Mapping[str, Any], object], object],
) -> list[object]:
    """*items* of an array of schema *node*, each passed to *each* with its own schema.

    An item's schema is its ``prefixItems`` entry, else ``items``; an item with neither is kept.
    """
    prefix = typing.cast("list[Mapping[str, Any]]", node.get("prefixItems") or [])
    rest = node.get("items")
    return [
        each(prefix[i], v)
        if i < len(prefix)
        else each(typing.cast("Mapping[str, Any]", rest), v)
        if isinstance(rest, Mapping)
        else v
        for i, v in enumerate(items)
    ]


def _drop_in_object(
    node: Mapping[str, Any],
    value: dict[str, object],
    drop: typing.Callable[[Mapping[str, Any], object], object],
) -> dict[str, object]:
    properties = node.get("properties")
    if not isinstance(properties, Mapping):
        return value
    props = typing.cast("Mapping[str, Mapping[str, Any]]", properties)
    required = set(typing.cast("list[str]", node.get("required") or []))
    result: dict[str, object] = {}
    for key, item in value.items():
        prop = props.get(key)
        if prop is None:
            result[key] = item
        elif item is None and means_default(key in required, prop):
            continue  # null: the property left out
        else:
            result[key] = drop(prop, item)
    return result


def _open_nulls(schema: Mapping[str, Any]) -> dict[str, Any] | None:
    """*schema* with every defaulted property nullable (see `open_schema_nulls`), or None.

    It walks the keywords the strict export walks (``typed_toolsets.call.strict``, a layer
    above: properties, items, prefixItems, anyOf) and asks the same rule (`means_default`);
    tests/test_export_strict_registered.py checks that the two stay in step.
    """
    if not isinstance(typing.cast(object, schema), Mapping):  # a boolean schema
        return None
    result = dict(schema)
    changed = False
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        required = set(typing.cast("list[str]", schema.get("required") or []))
        new: dict[str, Any] = {}
        for key, prop in typing.cast("Mapping[str, Mapping[str, Any]]", properties).items():
            inner = _open_nulls(prop)
            child = prop if inner is None else inner
            if means_default(key in required, prop):
                child = nullable(child, null_sentence(prop))
            changed = changed or child is not prop
            new[key] = child
        result["properties"] = new
    items = schema.get("items")
    if isinstance(items, Mapping):
        inner = _open_nulls(typing.cast("Mapping[str, Any]", items))
        if inner is not None:
            result["items"], changed = inner, True
    for keyword in ("prefixItems", "anyOf"):
        value = schema.get(keyword)
        if isinstance(value, list):
            branches = typing.cast("list[Mapping[str, Any]]", value)
            opened = [_open_nulls(b) for b in branches]
            if any(o is not None for o in opened):
                result[keyword] = [
                    b if o is None else o for b, o in zip(branches, opened, strict=True)
                ]
                changed = True
    return result if changed else None
