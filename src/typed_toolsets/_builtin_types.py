"""The built-in rules of the type registry: scalars, enums, literals, containers, unions, Annotated.

Object types (attrs classes, dataclasses, TypedDicts, NamedTuples) live in `_structs`.
"""

from __future__ import annotations

import enum
import math
import numbers
import types
import typing
import uuid
from collections.abc import Callable, Iterator
from datetime import date, datetime, time
from fractions import Fraction
from typing import Any, Final, Literal

import typing_extensions

from . import _docstrings, _formats, _rules
from ._meta import Description
from ._registry import Builder, Rule, TypeRegistry
from ._typespec import Reject, Schema, TypeSpec, Unsupported

__all__ = ["BUILTIN_RULES", "class_description", "fullname", "install"]

_NoneType: Final = type(None)
_ANY_JSON: Final = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})
_NUMBER_TYPES: Final = frozenset({"integer", "number"})


def fullname(obj: object) -> str:
    """``module.qualname`` of a class or generic origin (``builtins.list``)."""
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str):
        return ""
    return f"{module}.{qualname}"


def class_description(cls: type, generated: str | None = None) -> str | None:
    """The description written in a class body's docstring, ignoring generated docstrings."""
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str) or doc == generated:
        return None
    return _docstrings.description_text(doc)


def _identity(value: object) -> object:
    return value


def _is(*python_types: type) -> Callable[[object], bool]:
    def check(value: object) -> bool:
        return type(value) in python_types

    return check


# --------------------------------------------------------------------------------------- scalars


def _structure_str(value: object) -> object:
    if type(value) is not str:
        raise Reject
    return value


def _structure_bool(value: object) -> object:
    if type(value) is not bool:
        raise Reject
    return value


def _structure_none(value: object) -> object:
    if value is not None:
        raise Reject
    return value


def _structure_int(value: object) -> object:
    kind = type(value)
    if kind is int:
        return value
    if kind is float and value.is_integer():  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue,reportUnknownMemberType]
        return int(value)  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType]
    raise Reject


def _structure_float(value: object) -> object:
    kind = type(value)
    if kind is float:
        return value
    if kind is int:
        return float(value)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    raise Reject


def _structure_number(value: object) -> object:
    kind = type(value)
    if kind is int or kind is float:
        return value
    raise Reject


def _unstructure_float(value: object) -> object:
    if type(value) is int:
        return value
    if not isinstance(value, float) or not math.isfinite(value):
        msg = f"{value!r} is not a finite float"
        raise ValueError(msg)
    return value


def _unstructure_checked(kind: type | tuple[type, ...], what: str) -> Callable[[object], object]:
    def unstructure(value: object) -> object:
        if not isinstance(value, kind) or (kind is int and type(value) is bool):
            msg = f"{value!r} is not {what}"
            raise ValueError(msg)
        return value

    return unstructure


_SCALARS: Final[dict[type, TypeSpec]] = {}


def _scalar_specs() -> dict[type, TypeSpec]:
    if _SCALARS:
        return _SCALARS
    _SCALARS[str] = TypeSpec(
        annotation=str,
        schema={"type": "string"},
        structure=_structure_str,
        unstructure=_unstructure_checked(str, "a str"),
        json_types=frozenset({"string"}),
        exact_type=str,
        identity=True,
        hashable=True,
        instance_check=lambda v: isinstance(v, str),
    )
    _SCALARS[bool] = TypeSpec(
        annotation=bool,
        schema={"type": "boolean"},
        structure=_structure_bool,
        unstructure=_unstructure_checked(bool, "a bool"),
        json_types=frozenset({"boolean"}),
        exact_type=bool,
        identity=True,
        hashable=True,
        instance_check=_is(bool),
    )
    _SCALARS[int] = TypeSpec(
        annotation=int,
        schema={"type": "integer"},
        structure=_structure_int,
        unstructure=_unstructure_checked(int, "an int"),
        json_types=frozenset({"integer"}),
        hashable=True,
        instance_check=lambda v: isinstance(v, int) and type(v) is not bool,
    )
    _SCALARS[float] = TypeSpec(
        annotation=float,
        schema={"type": "number"},
        structure=_structure_float,
        unstructure=_unstructure_float,
        json_types=frozenset({"number"}),
        hashable=True,
        instance_check=lambda v: isinstance(v, float),
    )
    _SCALARS[_NoneType] = TypeSpec(
        annotation=None,
        schema={"type": "null"},
        structure=_structure_none,
        unstructure=_identity,
        json_types=frozenset({"null"}),
        exact_type=_NoneType,
        identity=True,
        hashable=True,
        instance_check=lambda v: v is None,
    )
    return _SCALARS


def _numeric_spec(annotation: object) -> TypeSpec:
    return TypeSpec(
        annotation=annotation,
        schema={"type": "number"},
        structure=_structure_number,
        unstructure=_unstructure_float,
        json_types=frozenset({"number"}),
        identity=True,
        hashable=True,
        instance_check=lambda v: isinstance(v, (int, float)) and type(v) is not bool,
    )


def _format_spec(
    annotation: type,
    fmt: str,
    parse: Callable[[str], object],
    unparse: Callable[[Any], str],
) -> TypeSpec:
    def structure(value: object) -> object:
        if type(value) is not str:
            raise Reject
        try:
            return parse(value)
        except ValueError:
            raise Reject from None

    def unstructure(value: object) -> object:
        if type(value) is not annotation:
            msg = f"{value!r} is not a {annotation.__name__}"
            raise ValueError(msg)
        return unparse(value)

    return TypeSpec(
        annotation=annotation,
        schema={"type": "string", "format": fmt},
        structure=structure,
        unstructure=unstructure,
        json_types=frozenset({"string"}),
        hashable=True,
        instance_check=lambda v: type(v) is annotation,
    )


_FORMAT_TYPES: Final[dict[type, tuple[str, Callable[[str], object], Callable[[Any], str]]]] = {
    datetime: ("date-time", _formats.parse_datetime, _formats.format_datetime),
    date: ("date", _formats.parse_date, _formats.format_date),
    time: ("time", _formats.parse_time, _formats.format_time),
    uuid.UUID: ("uuid", _formats.parse_uuid, _formats.format_uuid),
}


def _scalar_rule(annotation: object, _builder: Builder) -> TypeSpec:
    if annotation is None or annotation is _NoneType:
        return _scalar_specs()[_NoneType]
    if annotation in _scalar_specs():
        return _scalar_specs()[annotation]  # type: ignore[index]
    if annotation is numbers.Real:
        return _numeric_spec(annotation)
    fmt, parse, unparse = _FORMAT_TYPES[annotation]  # type: ignore[index]
    return _format_spec(annotation, fmt, parse, unparse)  # type: ignore[arg-type]


def _is_scalar(annotation: object) -> bool:
    if annotation is None or annotation is numbers.Real:
        return True
    return isinstance(annotation, type) and (
        annotation in (str, int, float, bool, _NoneType) or annotation in _FORMAT_TYPES
    )


# ------------------------------------------------------------------------------ enums and literals


def _json_scalar_type(value: object) -> str:
    if value is None:
        return "null"
    if type(value) is bool:
        return "boolean"
    if isinstance(value, str):
        return "string"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float) and math.isfinite(value):
        return "number"
    msg = f"{value!r} is not a JSON string, number, boolean or null"
    raise Unsupported(msg)


def _plain_json(value: object) -> object:
    # Enum values may be str/int subclasses; the schema must hold plain JSON values.
    if value is None or type(value) is bool:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int(value)
    return float(value)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def _constants_spec(
    annotation: object,
    values: list[object],
    results: list[object],
    description: str | None,
    instance_check: Callable[[object], bool],
    unstructure: Callable[[Any], object],
) -> TypeSpec:
    json_types = {_json_scalar_type(v) for v in values}
    plain = [_plain_json(v) for v in values]
    # Booleans are looked up apart from numbers: JSON `true` is not `1`, but Python says True == 1.
    by_bool: dict[object, object] = {}
    by_other: dict[object, object] = {}
    accepted: set[type] = set()
    for value, result in zip(plain, results):
        if type(value) is bool:
            by_bool.setdefault(value, result)
            accepted.add(bool)
        else:
            by_other.setdefault(value, result)
            accepted.update((int, float) if isinstance(value, (int, float)) else (type(value),))

    def structure(value: object) -> object:
        kind = type(value)
        if kind not in accepted:
            raise Reject
        table = by_bool if kind is bool else by_other
        try:
            return table[value]
        except (KeyError, TypeError):
            raise Reject from None

    schema: Schema
    if len(plain) == 1:
        schema = {"const": plain[0]}
    else:
        schema = {}
        if len(json_types) == 1:
            schema["type"] = json_types.pop()
        elif json_types == {"integer", "number"}:
            schema["type"] = "number"
        schema["enum"] = plain
    if description:
        schema["description"] = description
    types_admitted = {_json_scalar_type(v) for v in values}
    if "integer" in types_admitted:
        types_admitted.add("number")
    return TypeSpec(
        annotation=annotation,
        schema=schema,
        structure=structure,
        unstructure=unstructure,
        json_types=frozenset(types_admitted),
        hashable=True,
        constants=tuple(plain),
        instance_check=instance_check,
    )


def _enum_rule(annotation: object, _builder: Builder) -> TypeSpec:
    cls = typing.cast("type[enum.Enum]", annotation)
    members = list(cls)
    if not members:
        msg = f"enum {cls.__qualname__!r} has no members"
        raise Unsupported(msg)
    values: list[object] = []
    for member in members:
        try:
            _json_scalar_type(member.value)
        except Unsupported:
            msg = (
                f"enum {cls.__qualname__!r} has the value {member.value!r}, which is not a JSON "
                "string, number, boolean or null"
            )
            raise Unsupported(msg) from None
        values.append(member.value)

    def unstructure(value: object) -> object:
        if not isinstance(value, cls):
            msg = f"{value!r} is not a member of {cls.__qualname__}"
            raise ValueError(msg)
        return _plain_json(value.value)

    generated = "An enumeration."  # Python 3.10 gives every undocumented Enum this docstring
    return _constants_spec(
        cls,
        values,
        list(members),
        class_description(cls, generated),
        lambda v: isinstance(v, cls),
        unstructure,
    )


def _literal_rule(annotation: object, _builder: Builder) -> TypeSpec:
    args = typing.get_args(annotation)
    values: list[object] = []
    for arg in args:
        values.append(arg.value if isinstance(arg, enum.Enum) else arg)
        _json_scalar_type(values[-1])
    results = list(args)

    def check(value: object) -> bool:
        return any(value is r or (type(value) is type(r) and value == r) for r in results)

    def unstructure(value: object) -> object:
        for result, json_value in zip(results, values):
            if value is result or (type(value) is type(result) and value == result):
                return _plain_json(json_value)
        msg = f"{value!r} is not one of {results!r}"
        raise ValueError(msg)

    return _constants_spec(annotation, values, results, None, check, unstructure)


def _is_literal(annotation: object) -> bool:
    return typing.get_origin(annotation) in (Literal, typing_extensions.Literal)


# --------------------------------------------------------------------------------------- unions

_PY_JSON_TYPES: Final[dict[type, frozenset[str]]] = {
    str: frozenset({"string"}),
    bool: frozenset({"boolean"}),
    int: frozenset({"integer", "number"}),
    float: frozenset({"number", "integer"}),
    _NoneType: frozenset({"null"}),
    list: frozenset({"array"}),
    dict: frozenset({"object"}),
}


def _is_union(annotation: object) -> bool:
    origin = typing.get_origin(annotation)
    return origin is typing.Union or origin is types.UnionType


def _union_rule(annotation: object, builder: Builder) -> TypeSpec:
    args = list(typing.get_args(annotation))
    nullable = _NoneType in args
    rest = [a for a in args if a is not _NoneType]
    if int in rest and float in rest:
        # `int | float` is "Numeric": a number keeps its parsed form (2 stays int, 2.0 float).
        position = min(rest.index(int), rest.index(float))
        rest = [a for a in rest if a not in (int, float)]
        rest.insert(position, numbers.Real)
    variants = [builder.spec(a) for a in rest]
    if not variants:  # pragma: no cover - typing never builds a union of only None
        return _scalar_specs()[_NoneType]
    if len(variants) == 1 and not nullable:
        return variants[0]
    schemas = [v.schema for v in variants]
    if nullable:
        schemas.append({"type": "null"})
    json_types = frozenset().union(*(v.json_types for v in variants))
    if nullable:
        json_types |= {"null"}
    # For each Python type a parsed JSON value can have, the variants that could accept it.
    candidates: dict[type, tuple[TypeSpec, ...]] = {
        py_type: tuple(v for v in variants if v.json_types & wanted)
        for py_type, wanted in _PY_JSON_TYPES.items()
    }

    def structure(value: object) -> object:
        if value is None and nullable:
            return None
        for variant in candidates.get(type(value), ()):
            try:
                return variant.structure(value)
            except Reject:
                continue
        raise Reject

    def unstructure(value: object) -> object:
        if value is None and nullable:
            return None
        for variant in variants:
            if variant.instance_check(value):
                return variant.unstructure(value)
        msg = f"{value!r} matches no variant of {annotation!r}"
        raise ValueError(msg)

    def children(value: object) -> Iterator[tuple[str | int, TypeSpec, object]]:
        # A union value sits at the union's own path: descend into the variant that matched.
        for variant in candidates.get(type(value), ()):
            try:
                variant.structure(value)
            except Reject:
                continue
            except Exception:  # noqa: BLE001 - this variant matched but failed to build
                yield from variant.children(value)
                return
            return

    depths = [v.depth for v in variants]
    return TypeSpec(
        annotation=annotation,
        schema={"anyOf": schemas},
        structure=structure,
        unstructure=unstructure,
        json_types=json_types,
        depth=None if None in depths else max(typing.cast("list[int]", depths)),
        hashable=all(v.hashable for v in variants),
        refs=frozenset().union(*(v.refs for v in variants)),
        instance_check=lambda v: (v is None and nullable) or any(x.instance_check(v) for x in variants),
        children=children,
    )


# ----------------------------------------------------------------------------------- containers


def _origin_name(annotation: object) -> str:
    origin = typing.get_origin(annotation)
    return fullname(origin) if origin is not None else fullname(annotation)


def _bare_generic(annotation: object) -> bool:
    names = _rules.SEQUENCE_ORIGINS | _rules.SET_ORIGINS | _rules.MAPPING_ORIGINS
    return typing.get_origin(annotation) is None and (
        fullname(annotation) in names or annotation is tuple or annotation is typing.Tuple  # noqa: UP006
    )


def _all_exact(items: list[object], kind: type) -> bool:
    return not items or set(map(type, items)) == {kind}


def _list_like(annotation: object, item: TypeSpec, make: type[list[Any]] | type[tuple[Any, ...]]) -> TypeSpec:
    structure_item = item.structure
    exact = item.exact_type

    if make is list and exact is not None:

        def structure(value: object) -> object:
            if type(value) is not list or not _all_exact(value, exact):  # type: ignore[arg-type]
                raise Reject
            return value

    elif make is list and item.identity:

        def structure(value: object) -> object:
            if type(value) is not list:
                raise Reject
            for element in value:  # type: ignore[attr-defined]  # pyright: ignore[reportUnknownVariableType]
                structure_item(element)
            return value

    elif make is list:

        def structure(value: object) -> object:
            if type(value) is not list:
                raise Reject
            return [structure_item(element) for element in value]  # type: ignore[attr-defined]  # pyright: ignore[reportUnknownVariableType]

    else:

        def structure(value: object) -> object:
            if type(value) is not list:
                raise Reject
            return tuple([structure_item(element) for element in value])  # type: ignore[attr-defined]  # pyright: ignore[reportUnknownVariableType]

    unstructure_item = item.unstructure
    origin = typing.get_origin(annotation)

    def unstructure(value: object) -> object:
        if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
            msg = f"{value!r} is not a list or tuple"
            raise ValueError(msg)
        return [unstructure_item(element) for element in value]  # pyright: ignore[reportUnknownVariableType]

    def children(value: object) -> Iterator[tuple[str | int, TypeSpec, object]]:
        if type(value) is list:
            for index, element in enumerate(value):  # type: ignore[arg-type]  # pyright: ignore[reportUnknownVariableType,reportUnknownArgumentType]
                yield index, item, element

    python_type: type = origin if origin in (list, tuple) else list  # type: ignore[assignment]
    return TypeSpec(
        annotation=annotation,
        schema={"type": "array", "items": item.schema},
        structure=structure,
        unstructure=unstructure,
        json_types=frozenset({"array"}),
        depth=None if item.depth is None else item.depth + 1,
        identity=make is list and item.identity,
        hashable=make is tuple and item.hashable,
        refs=item.refs,
        instance_check=lambda v: isinstance(v, python_type),
        children=children,
    )


def _is_sequence(annotation: object) -> bool:
    return _origin_name(annotation) in _rules.SEQUENCE_ORIGINS and bool(typing.get_args(annotation))


def _sequence_rule(annotation: object, builder: Builder) -> TypeSpec:
    (item_type,) = typing.get_args(annotation)
    return _list_like(annotation, builder.spec(item_type), list)


def _is_tuple(annotation: object) -> bool:
    return typing.get_origin(annotation) is tuple


def _tuple_rule(annotation: object, builder: Builder) -> TypeSpec:
    args = typing.get_args(annotation)
    if len(args) == 2 and args[1] is Ellipsis:  # noqa: PLR2004
        return _list_like(annotation, builder.spec(args[0]), tuple)
    if args == ((),):  # `tuple[()]` on Python 3.10
        args = ()
    items = [builder.spec(a) for a in args]
    structures = [i.structure for i in items]
    count = len(items)

    def structure(value: object) -> object:
        if type(value) is not list or len(value) != count:  # type: ignore[arg-type]
            raise Reject
        return tuple([s(v) for s, v in zip(structures, value)])  # type: ignore[call-overload]  # pyright: ignore[reportUnknownArgumentType,reportUnknownVariableType]

    def unstructure(value: object) -> object:
        if not isinstance(value, (tuple, list)) or len(value) != count:  # pyright: ignore[reportUnknownArgumentType]
            msg = f"{value!r} is not a tuple of {count} items"
            raise ValueError(msg)
        return [i.unstructure(v) for i, v in zip(items, value)]  # pyright: ignore[reportUnknownVariableType,reportUnknownArgumentType]

    def children(value: object) -> Iterator[tuple[str | int, TypeSpec, object]]:
        if type(value) is list:
            for index, (spec, element) in enumerate(zip(items, value)):  # type: ignore[call-overload]  # pyright: ignore[reportUnknownVariableType,reportUnknownArgumentType]
                yield index, spec, element

    schema: Schema = {"type": "array"}
    if items:
        schema["prefixItems"] = [i.schema for i in items]
        schema["minItems"] = count
    schema["maxItems"] = count
    depths = [i.depth for i in items]
    return TypeSpec(
        annotation=annotation,
        schema=schema,
        structure=structure,
        unstructure=unstructure,
        json_types=frozenset({"array"}),
        depth=None if None in depths else 1 + max([0, *typing.cast("list[int]", depths)]),
        hashable=all(i.hashable for i in items),
        refs=frozenset().union(*(i.refs for i in items)),
        instance_check=lambda v: isinstance(v, tuple) and len(v) == count,  # pyright: ignore[reportUnknownArgumentType]
        children=children,
    )


def _is_set(annotation: object) -> bool:
    return _origin_name(annotation) in _rules.SET_ORIGINS and bool(typing.get_args(annotation))


def _json_key(value: object) -> object:
    # jsonschema's uniqueItems tells `true` from `1`; a Python set would not.
    return ("bool", value) if type(value) is bool else value


def _set_rule(annotation: object, builder: Builder) -> TypeSpec:
    (item_type,) = typing.get_args(annotation)
    item = builder.spec(item_type)
    if not item.hashable:
        msg = (
            f"set items must be strings, numbers, booleans, enums, literals, dates, times or "
            f"UUIDs (got {item_type!r})"
        )
        raise Unsupported(msg)
    make: type[set[Any]] | type[frozenset[Any]] = (
        frozenset if typing.get_origin(annotation) is frozenset else set
    )
    structure_item = item.structure
    mixes_bools = "boolean" in item.json_types and bool(item.json_types & _NUMBER_TYPES)

    def structure(value: object) -> object:
        if type(value) is not list:
            raise Reject
        raw: list[object] = value  # type: ignore[assignment]
        keys = [_json_key(v) for v in raw] if mixes_bools else raw
        try:
            unique = len(set(keys)) == len(raw)
        except TypeError:
            raise Reject from None
        if not unique:
            raise Reject
        return make([structure_item(v) for v in raw])

    unstructure_item = item.unstructure

    def unstructure(value: object) -> object:
        if not isinstance(value, (set, frozenset)):
            msg = f"{value!r} is not a set"
            raise ValueError(msg)
        items = [unstructure_item(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
        try:
            return sorted(items, key=_sort_key)
        except TypeError:
            return items

    def children(value: object) -> Iterator[tuple[str | int, TypeSpec, object]]:
        if type(value) is list:
            for index, element in enumerate(value):  # type: ignore[arg-type]  # pyright: ignore[reportUnknownVariableType,reportUnknownArgumentType]
                yield index, item, element

    return TypeSpec(
        annotation=annotation,
        schema={"type": "array", "items": item.schema, "uniqueItems": True},
        structure=structure,
        unstructure=unstructure,
        json_types=frozenset({"array"}),
        depth=1,
        refs=item.refs,
        instance_check=lambda v: isinstance(v, make),
        children=children,
    )


def _sort_key(value: object) -> tuple[str, object]:
    return (type(value).__name__, value)


def _is_mapping(annotation: object) -> bool:
    return _origin_name(annotation) in _rules.MAPPING_ORIGINS and bool(typing.get_args(annotation))


def _mapping_rule(annotation: object, builder: Builder) -> TypeSpec:
    key_type, value_type = typing.get_args(annotation)
    if key_type is not str:
        msg = f"JSON object keys are strings; use a str key type (got {key_type!r})"
        raise Unsupported(msg)
    item = builder.spec(value_type)
    structure_item = item.structure
    exact = item.exact_type

    if exact is not None:

        def structure(value: object) -> object:
            if type(value) is not dict or not _all_exact(list(value.values()), exact):  # type: ignore[attr-defined]  # pyright: ignore[reportUnknownMemberType,reportUnknownArgumentType]
                raise Reject
            return value

    else:

        def structure(value: object) -> object:
            if type(value) is not dict:
                raise Reject
            return {k: structure_item(v) for k, v in value.items()}  # type: ignore[attr-defined]  # pyright: ignore[reportUnknownVariableType]

    unstructure_item = item.unstructure

    def unstructure(value: object) -> object:
        if not isinstance(value, typing.Mapping):
            msg = f"{value!r} is not a mapping"
            raise ValueError(msg)
        result: dict[str, object] = {}
        for key, element in value.items():  # pyright: ignore[reportUnknownVariableType]
            if not isinstance(key, str):
                msg = f"mapping key {key!r} is not a str"
                raise ValueError(msg)
            result[key] = unstructure_item(element)
        return result

    def children(value: object) -> Iterator[tuple[str | int, TypeSpec, object]]:
        if type(value) is dict:
            for key, element in value.items():  # type: ignore[attr-defined]  # pyright: ignore[reportUnknownVariableType]
                yield key, item, element  # pyright: ignore[reportUnknownArgumentType]

    return TypeSpec(
        annotation=annotation,
        schema={"type": "object", "additionalProperties": item.schema},
        structure=structure,
        unstructure=unstructure,
        json_types=frozenset({"object"}),
        depth=None if item.depth is None else item.depth + 1,
        identity=exact is not None,
        refs=item.refs,
        instance_check=lambda v: isinstance(v, typing.Mapping),
        children=children,
    )


# ------------------------------------------------------------------------- Annotated and NewType


def _is_annotated(annotation: object) -> bool:
    return typing.get_origin(annotation) is typing.Annotated


_LOWER: Final = {"Ge": "minimum", "Gt": "exclusiveMinimum"}
_UPPER: Final = {"Le": "maximum", "Lt": "exclusiveMaximum"}
_LENGTHS: Final = {
    "string": ("minLength", "maxLength"),
    "array": ("minItems", "maxItems"),
    "object": ("minProperties", "maxProperties"),
}


def _constraints(metadata: tuple[object, ...]) -> tuple[str | None, list[tuple[str, object]]]:
    """Split ``Annotated`` metadata into a description and ``(constraint, value)`` pairs."""
    import annotated_types  # noqa: PLC0415 - only needed when Annotated is used

    description: str | None = None
    found: list[tuple[str, object]] = []
    queue = list(metadata)
    while queue:
        item = queue.pop(0)
        if isinstance(item, str):
            description = item
        elif isinstance(item, Description):
            description = item.text
        elif isinstance(item, annotated_types.GroupedMetadata):
            queue[:0] = list(item)
        elif isinstance(item, annotated_types.Ge):
            found.append(("Ge", item.ge))
        elif isinstance(item, annotated_types.Gt):
            found.append(("Gt", item.gt))
        elif isinstance(item, annotated_types.Le):
            found.append(("Le", item.le))
        elif isinstance(item, annotated_types.Lt):
            found.append(("Lt", item.lt))
        elif isinstance(item, annotated_types.MinLen):
            found.append(("MinLen", item.min_length))
        elif isinstance(item, annotated_types.MaxLen):
            found.append(("MaxLen", item.max_length))
        elif isinstance(item, annotated_types.MultipleOf):
            found.append(("MultipleOf", item.multiple_of))
        elif type(item).__module__ == "annotated_types":
            msg = f"annotated_types.{type(item).__name__} cannot be expressed in JSON Schema"
            raise Unsupported(msg)
    return description, found


def _check_limit(name: str, value: object) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        msg = f"the {name} constraint needs a finite int or float (got {value!r})"
        raise Unsupported(msg)
    if name in ("MinLen", "MaxLen") and (not isinstance(value, int) or value < 0):
        msg = f"the {name} constraint needs a non-negative int (got {value!r})"
        raise Unsupported(msg)
    if name == "MultipleOf" and value <= 0:
        msg = f"the MultipleOf constraint needs a positive number (got {value!r})"
        raise Unsupported(msg)
    return value


def _not_multiple(value: int | float, divisor: int | float) -> bool:
    # The same arithmetic as jsonschema's `multipleOf`, so both give the same verdict.
    if isinstance(divisor, float):
        quotient = value / divisor
        try:
            return int(quotient) != quotient
        except OverflowError:
            return (Fraction(value) / Fraction(divisor)).denominator != 1
    return bool(value % divisor)


def _annotated_rule(annotation: object, builder: Builder) -> TypeSpec:
    base_type, *metadata = typing.get_args(annotation)
    description, constraints = _constraints(tuple(metadata))
    base = builder.spec(base_type)
    if constraints and _is_union(base_type):
        return _distribute(annotation, base_type, metadata, description, constraints, builder)
    keywords: Schema = {}
    checks: list[Callable[[object], bool]] = []
    for name, raw in constraints:
        limit = _check_limit(name, raw)
        if name in _LOWER or name in _UPPER or name == "MultipleOf":
            if not base.json_types & _NUMBER_TYPES:
                msg = f"the {name} constraint applies to numbers, not to {base_type!r}"
                raise Unsupported(msg)
            keyword = _LOWER.get(name) or _UPPER.get(name) or "multipleOf"
            if keyword in keywords and keyword != "multipleOf":
                stricter = max if name in _LOWER else min
                limit = stricter(limit, keywords[keyword])
            keywords[keyword] = limit
        else:
            kinds = [k for k in _LENGTHS if k in base.json_types]
            if not kinds:
                msg = f"the {name} constraint applies to strings, arrays and objects, not to {base_type!r}"
                raise Unsupported(msg)
            for kind in kinds:
                keyword = _LENGTHS[kind][0 if name == "MinLen" else 1]
                if keyword in keywords:
                    stricter = max if name == "MinLen" else min
                    limit = stricter(limit, keywords[keyword])
                keywords[keyword] = limit
    for keyword, limit in keywords.items():
        checks.append(_keyword_check(keyword, limit))
    schema = dict(base.schema)
    schema.update(keywords)
    if description is not None:
        schema["description"] = description
    if not checks:
        return TypeSpec(
            annotation=annotation,
            schema=schema,
            structure=base.structure,
            unstructure=base.unstructure,
            json_types=base.json_types,
            depth=base.depth,
            exact_type=base.exact_type,
            identity=base.identity,
            hashable=base.hashable,
            constants=base.constants,
            required_keys=base.required_keys,
            property_keys=base.property_keys,
            refs=base.refs,
            instance_check=base.instance_check,
            children=base.children,
        )
    structure_base = base.structure

    def structure(value: object) -> object:
        result = structure_base(value)
        for failed in checks:
            if failed(value):
                raise Reject
        return result

    return TypeSpec(
        annotation=annotation,
        schema=schema,
        structure=structure,
        unstructure=base.unstructure,
        json_types=base.json_types,
        depth=base.depth,
        identity=base.identity,
        hashable=base.hashable,
        constants=base.constants,
        required_keys=base.required_keys,
        property_keys=base.property_keys,
        refs=base.refs,
        instance_check=base.instance_check,
        children=base.children,
    )


def _keyword_check(keyword: str, limit: int | float) -> Callable[[object], bool]:
    """A predicate that is True when a JSON value violates one constraint keyword."""
    if keyword in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf"):

        def number_check(value: object) -> bool:
            if type(value) is not int and type(value) is not float:
                return False
            number = typing.cast("int | float", value)
            if keyword == "minimum":
                return number < limit
            if keyword == "exclusiveMinimum":
                return number <= limit
            if keyword == "maximum":
                return number > limit
            if keyword == "exclusiveMaximum":
                return number >= limit
            return _not_multiple(number, limit)

        return number_check
    kind = {"minLength": str, "maxLength": str, "minItems": list, "maxItems": list}.get(keyword, dict)
    lower = keyword.startswith("min")

    def length_check(value: object) -> bool:
        if type(value) is not kind:
            return False
        size = len(value)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
        return size < limit if lower else size > limit

    return length_check


def _distribute(
    annotation: object,
    base_type: object,
    metadata: list[object],
    description: str | None,
    constraints: list[tuple[str, object]],
    builder: Builder,
) -> TypeSpec:
    """``Annotated[A | B | None, C]`` is built as ``Annotated[A, C] | B | None`` where C applies."""
    number_constraints = {"Ge", "Gt", "Le", "Lt", "MultipleOf"}
    constraint_items = [m for m in metadata if not isinstance(m, (str, Description))]
    new_args: list[object] = []
    applied = False
    for arg in typing.get_args(base_type):
        variant = builder.spec(arg)
        wants_number = any(name in number_constraints for name, _ in constraints)
        wants_length = any(name not in number_constraints for name, _ in constraints)
        fits = (not wants_number or bool(variant.json_types & _NUMBER_TYPES)) and (
            not wants_length or any(k in variant.json_types for k in _LENGTHS)
        )
        if fits and arg is not _NoneType:
            new_args.append(typing.Annotated[(arg, *constraint_items)])  # type: ignore[misc]
            applied = True
        else:
            new_args.append(arg)
    if not applied:
        msg = f"no variant of {base_type!r} accepts the constraints {constraints!r}"
        raise Unsupported(msg)
    union = builder.spec(typing.Union[tuple(new_args)])  # type: ignore[misc]  # noqa: UP007
    if description is None:
        return union
    return TypeSpec(
        annotation=annotation,
        schema={**union.schema, "description": description},
        structure=union.structure,
        unstructure=union.unstructure,
        json_types=union.json_types,
        depth=union.depth,
        hashable=union.hashable,
        refs=union.refs,
        instance_check=union.instance_check,
        children=union.children,
    )


def _is_newtype(annotation: object) -> bool:
    return callable(annotation) and hasattr(annotation, "__supertype__")


def _newtype_rule(annotation: object, builder: Builder) -> TypeSpec:
    return builder.spec(annotation.__supertype__)  # type: ignore[attr-defined]


def _is_enum(annotation: object) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, enum.Enum)


# ---------------------------------------------------------------------------------- unsupported


def _explain(annotation: object) -> str:
    if annotation is typing.Any or annotation is typing_extensions.Any:
        return "Any has no JSON Schema; use a concrete type"
    if annotation is object:
        return "object has no JSON Schema; use a concrete type"
    if annotation in (bytes, bytearray, memoryview):
        return "bytes cannot be sent as JSON; use str (for example base64 text)"
    if isinstance(annotation, typing.TypeVar):
        return f"the type variable {annotation!r} has no JSON Schema"
    origin = typing.get_origin(annotation)
    if fullname(origin) in ("collections.abc.Callable",) or annotation is typing.Callable:  # noqa: UP006
        return "callables have no JSON Schema"
    if _bare_generic(annotation):
        name = getattr(annotation, "__name__", repr(annotation))
        return f"{name} needs its type parameters (for example list[str])"
    if isinstance(annotation, str):
        return f"the annotation {annotation!r} is still a string; it could not be resolved"
    if isinstance(annotation, type):
        return (
            f"{annotation.__qualname__!r} is not an attrs class, dataclass, TypedDict, NamedTuple, "
            "enum or supported builtin type; use one of those, or register it with "
            "typed_toolsets.register_type()"
        )
    return f"{annotation!r} has no JSON Schema mapping"


def _unsupported_rule(annotation: object, _builder: Builder) -> TypeSpec:
    raise Unsupported(_explain(annotation))


def _always(_annotation: object) -> bool:
    return True


def install(registry: TypeRegistry) -> None:
    """Add the built-in rules (including object types from `_structs`) to *registry*."""
    from . import _structs  # noqa: PLC0415 - avoids an import cycle at module level

    for rule in BUILTIN_RULES:
        registry.add_builtin(rule)
    for rule in _structs.STRUCT_RULES:
        registry.add_builtin(rule)
    registry.add_builtin(Rule("unsupported", _always, _unsupported_rule))


BUILTIN_RULES: Final = (
    Rule("annotated", _is_annotated, _annotated_rule),
    Rule("newtype", _is_newtype, _newtype_rule),
    Rule("scalar", _is_scalar, _scalar_rule),
    Rule("enum", _is_enum, _enum_rule),
    Rule("literal", _is_literal, _literal_rule),
    Rule("union", _is_union, _union_rule),
    Rule("sequence", _is_sequence, _sequence_rule),
    Rule("tuple", _is_tuple, _tuple_rule),
    Rule("set", _is_set, _set_rule),
    Rule("mapping", _is_mapping, _mapping_rule),
)
