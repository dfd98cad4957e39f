"""Registry rules for containers: lists and sequences, tuples, sets and string-keyed mappings."""

from __future__ import annotations

import numbers
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

import attrs
import typing_extensions

from typed_toolsets.rules import reasons, sets
from typed_toolsets.rules.labels import label, safe_repr
from typed_toolsets.rules.shapes import Shape
from typed_toolsets.rules.typenames import MAPPING_ORIGINS, SEQUENCE_ORIGINS, SET_ORIGINS

from .gen import inline_form, items_hook
from .items import SHORT, all_of, kept_items
from .registry import Builder, Describer, Rule
from .typespec import (
    ChildrenFn,
    NoJSONFormError,
    Reject,
    Schema,
    StructureHook,
    TypeSpec,
    Unsupported,
    UnsupportedMetadata,
    container_spec,
    instance_of,
    joined_colons,
    json_keys,
)

__all__ = ["CONTAINER_RULES", "fullname", "is_bare_generic", "tuple_items"]

_NUMBER_TYPES: Final = frozenset({"integer", "number"})
_STRING_TYPE: Final = frozenset({"string"})
Children = Iterator[tuple["str | int", TypeSpec, Any]]


def fullname(obj: object) -> str:
    """``module.qualname`` of a class or generic origin (``builtins.list``)."""
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str):
        return ""
    return f"{module}.{qualname}"


def _origin_name(annotation: object) -> str:
    origin = typing.get_origin(annotation)
    return fullname(origin) if origin is not None else fullname(annotation)


def is_bare_generic(annotation: object) -> bool:
    """Whether *annotation* is a container used without type parameters (``list``, ``List``).

    typing's aliases written bare (``typing.List``, ``typing.Tuple``) have an origin but no
    arguments, as ``tuple[()]`` has: without this a bare ``typing.Tuple`` read as the empty tuple.
    """
    names = SEQUENCE_ORIGINS | SET_ORIGINS | MAPPING_ORIGINS
    origin = typing.get_origin(annotation)
    if origin is None:
        return fullname(annotation) in names or annotation is tuple
    name = getattr(annotation, "__name__", None)
    return (
        (fullname(origin) in names or origin is tuple)
        and isinstance(name, str)
        and getattr(typing, name, None) is annotation
    )


def _list_structure(item: TypeSpec, as_tuple: bool) -> StructureHook:
    structure_item = item.structure
    exact = item.exact_type
    if item.shortcut is not None:
        # Items of the shortcut type are kept as they are: only the others cost a call.
        kinds = frozenset({item.shortcut})

        def structure_kept(value: Any) -> Any:
            if type(value) is not list:
                raise Reject
            items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
            if len(items) < SHORT:
                kept = [structure_item(element) for element in items]
            else:
                kept = kept_items(items, kinds, structure_item)
            return tuple(kept) if as_tuple else kept

        return structure_kept
    if as_tuple:

        def structure_tuple(value: Any) -> Any:
            if type(value) is not list:
                raise Reject
            items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
            return tuple([structure_item(element) for element in items])

        return structure_tuple
    if exact is not None:

        def structure_exact(value: Any) -> Any:
            if type(value) is not list:
                raise Reject
            items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
            if not all_of(items, exact):
                raise Reject
            return items

        return structure_exact
    if item.identity:

        def structure_checked(value: Any) -> Any:
            if type(value) is not list:
                raise Reject
            items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
            for element in items:
                structure_item(element)
            return items

        return structure_checked
    each = items_hook(structure_item)
    if each is not None:
        structure_each = each

        def structure_at_once(value: Any) -> Any:
            if type(value) is not list:
                raise Reject
            return structure_each(value)  # pyright: ignore[reportUnknownArgumentType]

        return structure_at_once

    def structure_list(value: Any) -> Any:
        if type(value) is not list:
            raise Reject
        items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
        return [structure_item(element) for element in items]

    return structure_list


def _each(counter: Callable[[Any], int] | None) -> Callable[[Any], int] | None:
    """Sum a count (object members, colons) over every item of an array."""
    if counter is None:
        return None

    def count(value: Any) -> int:
        return sum(map(counter, value))

    return count


def _colons(item: TypeSpec) -> Callable[[Any], int] | None:
    """Count the colons inside the strings of an array of *item* (None: not counted)."""
    form = inline_form(item.structure)
    if form is not None and form.colons is not None:
        return form.colons
    return joined_colons if item.json_types == _STRING_TYPE else _each(item.colons)


def _indexed_children(item: TypeSpec) -> ChildrenFn:
    def children(value: Any) -> Children:
        if type(value) is list:
            items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
            for index, element in enumerate(items):
                yield index, item, element

    return children


def _list_like(annotation: object, item: TypeSpec, *, as_tuple: bool) -> TypeSpec:
    unstructure_item = item.unstructure

    def unstructure(value: Any) -> Any:
        if not isinstance(value, (list, tuple)):
            msg = f"{safe_repr(value)} is not a list or tuple"
            raise NoJSONFormError(msg)
        items: list[Any] | tuple[Any, ...] = value  # pyright: ignore[reportUnknownVariableType]
        return [unstructure_item(element) for element in items]

    return attrs.evolve(
        container_spec(
            annotation,
            "array",
            [item],
            {"type": "array", "items": item.schema},
            _list_structure(item, as_tuple),
            unstructure,
            instance_of(tuple if as_tuple else list),
            _indexed_children(item),
        ),
        list_of=item.exact_type if not as_tuple else None,
        members=_each(item.members),
        colons=_colons(item),
        identity=not as_tuple and item.identity,
        hashable=as_tuple and item.hashable,
    )


def _parameters(annotation: object, takes: int) -> tuple[object, ...]:
    """The type parameters of *annotation*, a generic that *takes* so many of them.

    Raises:
        Unsupported: It was given another number (``list[int, str]``, ``dict[str]``), which
            Python accepts when it builds the annotation.
    """
    given = typing.get_args(annotation)
    if len(given) != takes:
        origin = typing.get_origin(annotation)
        name = getattr(origin, "__name__", repr(origin))
        raise Unsupported(reasons.wrong_parameters(fullname(origin), name, len(given)))
    return given


def _is_sequence(annotation: object) -> bool:
    return _origin_name(annotation) in SEQUENCE_ORIGINS and bool(typing.get_args(annotation))


def _sequence_rule(annotation: object, builder: Builder) -> TypeSpec:
    (item_type,) = _parameters(annotation, 1)
    return _list_like(annotation, builder.spec(item_type), as_tuple=False)


def _is_tuple(annotation: object) -> bool:
    return (
        typing.get_origin(annotation) is tuple
        and not is_bare_generic(annotation)
        and not getattr(annotation, "__unpacked__", False)  # `*tuple[...]`: a tuple's items
    )


#: The forms of ``Unpack[...]`` (``typing``'s from Python 3.11, and typing_extensions').
_UNPACKS: Final = frozenset(
    {typing_extensions.Unpack, getattr(typing, "Unpack", typing_extensions.Unpack)}
)


def tuple_items(annotation: object) -> tuple[tuple[Any, ...], bool]:
    """The item types of the tuple type *annotation*, and whether the one item repeats.

    ``tuple[X, ...]`` is ``((X,), True)``; a fixed tuple lists its items, the items of a tuple
    unpacked in it (``*tuple[A, B]``, ``Unpack[tuple[A, B]]``) in their place, as mypy reads it.

    Raises:
        Unsupported: A tuple of any length is unpacked in it (``tuple[int, *tuple[str, ...]]``),
            or something else is (a ``TypeVarTuple``).
    """
    args: tuple[Any, ...] = typing.get_args(annotation)
    if len(args) == 2 and args[1] is Ellipsis:
        return args[:1], True
    if args == ((),):  # `tuple[()]` on Python 3.10
        return (), False
    items: list[Any] = []
    for arg in args:
        inner = _unpacked(arg)
        if inner is None:
            items.append(arg)
            continue
        found, repeats = tuple_items(inner)
        if repeats:  # mypy too keeps it unpacked (a fixed one it writes out in place)
            raise Unsupported(reasons.UNPACKED_TUPLE)
        items += found
    return tuple(items), False


def _unpacked(item: object) -> object | None:
    """The tuple type *item* unpacks (``*tuple[A, B]``, ``Unpack[...]``), or None: no unpacking.

    Raises:
        Unsupported: What ``Unpack[...]`` holds is no tuple (a ``TypeVarTuple``).
    """
    if getattr(item, "__unpacked__", False):
        return tuple.__class_getitem__(typing.get_args(item))
    if typing.get_origin(item) in _UNPACKS:
        inner: object = typing.get_args(item)[0]
        if typing.get_origin(inner) is not tuple:
            raise Unsupported(reasons.UNPACKED_TUPLE)
        return inner
    return None


def _tuple_rule(annotation: object, builder: Builder) -> TypeSpec:
    args, repeats = tuple_items(annotation)
    if repeats:
        return _list_like(annotation, builder.spec(args[0]), as_tuple=True)
    specs = [builder.spec(a) for a in args]
    structures = [s.structure for s in specs]
    count = len(specs)

    def structure(value: Any) -> Any:
        if type(value) is not list:
            raise Reject
        items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
        if len(items) != count:
            raise Reject
        return tuple([s(v) for s, v in zip(structures, items, strict=True)])

    def unstructure(value: Any) -> Any:
        if not isinstance(value, (tuple, list)):
            msg = f"{safe_repr(value)} is not a tuple"
            raise NoJSONFormError(msg)
        items: list[Any] | tuple[Any, ...] = value  # pyright: ignore[reportUnknownVariableType]
        if len(items) != count:
            msg = f"{safe_repr(items)} is not a tuple of {count} items"
            raise NoJSONFormError(msg)
        return [s.unstructure(v) for s, v in zip(specs, items, strict=True)]

    def children(value: Any) -> Children:
        if type(value) is list:
            items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
            for index, (spec, element) in enumerate(zip(specs, items, strict=True)):
                yield index, spec, element

    counters = [(index, s.members) for index, s in enumerate(specs) if s.members is not None]

    def members(value: Any) -> int:
        return sum(count(value[index]) for index, count in counters)

    schema: Schema = {"type": "array"}
    if specs:
        schema["prefixItems"] = [s.schema for s in specs]
        schema["minItems"] = count
    schema["maxItems"] = count
    return attrs.evolve(
        container_spec(
            annotation,
            "array",
            specs,
            schema,
            structure,
            unstructure,
            lambda v: isinstance(v, tuple) and len(v) == count,  # pyright: ignore[reportUnknownArgumentType]
            children,
        ),
        hashable=all(s.hashable for s in specs),
        members=members if counters else None,
    )


def _is_set(annotation: object) -> bool:
    return _origin_name(annotation) in SET_ORIGINS and bool(typing.get_args(annotation))


def _sort_key(value: object) -> tuple[str, object]:
    return (type(value).__name__, value)


def _scalars(
    annotation: object, place: sets.Place = ()
) -> Iterator[tuple[sets.Place, sets.Scalar]]:
    """The booleans and numbers a set item of type *annotation* holds, with their places.

    Literal numbers other than 0 and 1 equal no boolean and are left out.
    """
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        yield from _scalars(args[0], place)
    elif origin is typing.Union or origin is types.UnionType:
        for variant in args:
            yield from _scalars(variant, place)
    elif origin is typing.Literal:
        for value in args:
            if isinstance(value, (bool, int, float)) and value in (0, 1):
                yield place, value
    elif origin is tuple:
        items, repeats = tuple_items(annotation)
        if repeats:
            yield from _scalars(items[0], (*place, "*"))
        else:
            for index, arg in enumerate(items):
                yield from _scalars(arg, (*place, index))
    elif (supertype := getattr(annotation, "__supertype__", None)) is not None:  # a NewType
        yield from _scalars(supertype, place)
    elif annotation is bool:
        yield place, True
        yield place, False
    elif annotation is numbers.Real or (
        # An IntEnum's members equal their values, as ints do; a plain Enum's equal nothing else.
        isinstance(annotation, type) and issubclass(annotation, (int, float))
    ):
        yield place, "number"


_SCALAR_TYPES: Final = frozenset({"string", "integer", "number", "boolean", "null"})


def _of_scalars(annotation: object, builder: Builder) -> bool:
    """Whether *annotation* is a tuple (fixed or not) whose items are JSON scalars only."""
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) is not tuple:
        return False
    members, _ = tuple_items(annotation)
    return all(builder.spec(member).json_types <= _SCALAR_TYPES for member in members)


def _set_rule(annotation: object, builder: Builder) -> TypeSpec:
    (item_type,) = _parameters(annotation, 1)
    item = builder.spec(item_type)
    if not item.hashable:
        raise Unsupported(sets.unhashable(label(item_type)))
    if sets.booleans_meet_numbers(_scalars(item_type)):
        raise Unsupported(sets.mixed(label(item_type)))
    frozen = typing.get_origin(annotation) is frozenset
    structure_item = item.structure
    kinds = frozenset[type]() if item.shortcut is None else frozenset({item.shortcut})
    # Plain set() membership gives jsonschema's verdict unless booleans can meet numbers or
    # items are arrays; then compare normalised keys.
    needs_keys = "array" in item.json_types or (
        "boolean" in item.json_types and bool(item.json_types & _NUMBER_TYPES)
    )
    # A tuple of scalars: its items, as a tuple, are the key (booleans meet no numbers in a
    # place, as checked above), built in C; `json_key` costs a microsecond an item.
    flat = _of_scalars(item_type, builder)

    def structure(value: Any) -> Any:
        if type(value) is not list:
            raise Reject
        raw: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
        # Items of the shortcut type are kept in C passes, before any set is built: a wrong
        # item is found first (the cheapest way to a refusal).
        built = kept_items(raw, kinds, structure_item) if kinds else None
        keys: list[Any]
        if flat:
            keys = [tuple(v) if v.__class__ is list else v for v in raw]
        else:
            keys = json_keys(raw) if needs_keys else raw
        try:
            unique = set(keys)
        except TypeError:  # a list or object inside: not an item this schema admits
            raise Reject from None
        if len(unique) != len(raw):
            raise Reject
        if built is None:
            built = [structure_item(v) for v in raw]
        elif built is raw and not needs_keys:
            return frozenset(unique) if frozen else unique  # the items themselves
        return frozenset(built) if frozen else set(built)

    unstructure_item = item.unstructure

    def unstructure(value: Any) -> Any:
        if not isinstance(value, (set, frozenset)):
            msg = f"{safe_repr(value)} is not a set"
            raise NoJSONFormError(msg)
        members: set[Any] | frozenset[Any] = value  # pyright: ignore[reportUnknownVariableType]
        items = [unstructure_item(v) for v in members]
        try:
            return sorted(items, key=_sort_key)
        except TypeError:
            return items

    return container_spec(
        annotation,
        "array",
        [item],
        {"type": "array", "items": item.schema, "uniqueItems": True},
        structure,
        unstructure,
        instance_of(frozenset if frozen else set),
        _indexed_children(item),
    )


def _is_mapping(annotation: object) -> bool:
    return _origin_name(annotation) in MAPPING_ORIGINS and bool(typing.get_args(annotation))


def _key_is_str(key_type: object) -> bool:
    """Whether a mapping's keys are strings: ``str``, or a NewType of it (at any depth)."""
    while (supertype := getattr(key_type, "__supertype__", None)) is not None:
        key_type = supertype
    return key_type is str


def _mapping_rule(annotation: object, builder: Builder) -> TypeSpec:
    key_type, value_type = _parameters(annotation, 2)
    if not _key_is_str(key_type):
        if typing.get_origin(key_type) is typing.Annotated:
            # The metadata has no place in the schema: the type is shown with its Annotated
            # (its label elides the metadata, named here).
            metadata = ", ".join(repr(m) for m in typing.get_args(key_type)[1:])
            msg = (
                "a key type cannot carry constraints or descriptions; use a plain str key type "
                f"(got Annotated[{label(key_type)}, {metadata}])"
            )
            raise UnsupportedMetadata(msg)
        raise Unsupported(reasons.str_keys(label(key_type)))
    item = builder.spec(value_type)
    structure_item = item.structure
    exact = item.exact_type
    exact_type: type = exact if exact is not None else object

    def structure_exact(value: Any) -> Any:
        if type(value) is not dict:
            raise Reject
        mapping: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
        if not all_of(mapping.values(), exact_type):
            raise Reject
        return mapping

    def structure_each(value: Any) -> Any:
        if type(value) is not dict:
            raise Reject
        mapping: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
        return {k: structure_item(v) for k, v in mapping.items()}

    unstructure_item = item.unstructure

    def unstructure(value: Any) -> Any:
        if not isinstance(value, Mapping):
            msg = f"{safe_repr(value)} is not a mapping"
            raise NoJSONFormError(msg)
        mapping: Mapping[Any, Any] = value  # pyright: ignore[reportUnknownVariableType]
        result: dict[str, Any] = {}
        for key, element in mapping.items():
            if not isinstance(key, str):
                msg = f"mapping key {key!r} is not a str"
                raise NoJSONFormError(msg)
            result[key] = unstructure_item(element)
        return result

    def children(value: Any) -> Children:
        if type(value) is dict:
            mapping: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
            for key, element in mapping.items():
                yield key, item, element

    per_item = _each(item.members)

    def members(value: Any) -> int:
        mapping: dict[str, Any] = value
        return len(mapping) + (per_item(mapping.values()) if per_item is not None else 0)

    return attrs.evolve(
        container_spec(
            annotation,
            "object",
            [item],
            {"type": "object", "additionalProperties": item.schema},
            structure_exact if exact is not None else structure_each,
            unstructure,
            instance_of(Mapping),
            children,
        ),
        members=len if per_item is None else members,
        identity=exact is not None,
    )


def _array_shape(annotation: object, describer: Describer) -> Shape:
    (item_type,) = _parameters(annotation, 1)
    return Shape.array(describer.label(annotation), describer.shape(item_type))


def _tuple_shape(annotation: object, describer: Describer) -> Shape:
    args, repeats = tuple_items(annotation)
    text = describer.label(annotation)
    if repeats:
        return Shape.array(text, describer.shape(args[0]))
    return Shape.fixed_array(text, tuple(describer.shape(a) for a in args))


def _mapping_shape(annotation: object, describer: Describer) -> Shape:
    _key_type, value_type = _parameters(annotation, 2)
    return Shape.mapping(describer.label(annotation), describer.shape(value_type))


CONTAINER_RULES: Final = (
    Rule("sequence", _is_sequence, _sequence_rule, _array_shape),
    Rule("tuple", _is_tuple, _tuple_rule, _tuple_shape),
    Rule("set", _is_set, _set_rule, _array_shape),
    Rule("mapping", _is_mapping, _mapping_rule, _mapping_shape),
)
