"""The JSON values a type admits, from mypy's types, for the ambiguity analysis (check 8).

The analysis itself is `typed_toolsets.rules.shapes`, shared with the runtime
(`typed_toolsets.analysis.ambiguity`). Parts the plugin cannot know (registered types,
NamedTuples, enum values mypy does not compute) are opaque: they never overlap anything, so the
check gives no false alarms.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.nodes import TypeInfo, Var
from mypy.options import Options
from mypy.types import (
    Instance,
    LiteralType,
    NoneType,
    ProperType,
    TupleType,
    Type,
    TypedDictType,
    UnionType,
    get_proper_type,
)

from typed_toolsets.rules.shapes import Shape
from typed_toolsets.rules.typenames import (
    FORMAT_NAMES,
    MAPPING_ORIGINS,
    SEQUENCE_ORIGINS,
    SET_ORIGINS,
    scalar_kinds,
)

from .typeinfo import BYTES, label, member_value_type, struct_attributes, struct_class

__all__ = ["ShapeBuilder"]

_NO_SHAPE: Final[frozenset[str]] = frozenset()


class _Unknown:
    """A value the plugin cannot compute."""


_UNKNOWN: Final = _Unknown()


class ShapeBuilder:
    """Builds shapes, sharing one shape per class so recursive classes terminate.

    Args:
        options: mypy's options (to label types).
        registered: Fully qualified names of the types registered at run time (opaque here).
    """

    def __init__(self, options: Options, registered: frozenset[str]) -> None:
        self.options = options
        self.registered = registered
        self._shapes: dict[str, Shape] = {}

    def shape(self, t: Type) -> Shape:
        """The JSON shape of *t*; unknown parts never overlap anything (no false alarms)."""
        proper = get_proper_type(t)
        text = label(t, self.options)
        if isinstance(proper, NoneType):
            return Shape.scalar(text, frozenset({"null"}))
        if isinstance(proper, LiteralType):
            value = _literal_json(proper)
            if value is _UNKNOWN:
                return Shape.opaque(text, _NO_SHAPE)
            return Shape.constants_of(text, (value,))
        if isinstance(proper, UnionType):
            return self._union_shape(proper, text)
        if isinstance(proper, TupleType):
            if proper.partial_fallback.type.fullname != "builtins.tuple":
                return Shape.opaque(text, _NO_SHAPE)  # NamedTuple: not analysed
            return Shape.fixed_array(text, tuple(self.shape(i) for i in proper.items))
        if isinstance(proper, TypedDictType):
            shape = Shape.closed_object(text)
            shape.fields = {k: self.shape(v) for k, v in proper.items.items()}
            shape.required = frozenset(proper.required_keys)
            return shape
        if isinstance(proper, Instance):
            return self._instance_shape(proper, text)
        return Shape.opaque(text, _NO_SHAPE)

    def _union_shape(self, union: UnionType, text: str) -> Shape:
        names = {"builtins.int": "int", "builtins.float": "float"}

        def number_kind(item: ProperType) -> str | None:
            return names.get(item.type.fullname) if isinstance(item, Instance) else None

        items: list[ProperType] = []
        for item in map(get_proper_type, _flatten(union)):
            # Python's Union drops repeats (`Optional[Maybe]` with `Maybe = int | None`).
            if item not in items:
                items.append(item)
        if len(items) == 1:
            return self.shape(items[0])
        return Shape.union_of(text, items, number_kind, self.shape)

    def _instance_shape(self, instance: Instance, text: str) -> Shape:
        info = instance.type
        fullname = info.fullname
        if fullname in self.registered:
            return Shape.opaque(text, _NO_SHAPE)  # its schema is only known at run time
        kinds = scalar_kinds(fullname)
        if kinds is not None:
            return Shape.scalar(text, kinds, FORMAT_NAMES.get(fullname))
        if info.is_newtype and info.bases:
            return self.shape(info.bases[0])
        if info.is_enum:
            return _enum_shape(info, text)
        if info.tuple_type is not None and fullname != "builtins.tuple":
            return Shape.opaque(text, _NO_SHAPE)
        if info.typeddict_type is not None:
            return self.shape(info.typeddict_type)
        args = instance.args
        if args and (
            fullname in SEQUENCE_ORIGINS or fullname in SET_ORIGINS or fullname == "builtins.tuple"
        ):
            return Shape.array(text, self.shape(args[0]))
        if len(args) == 2 and fullname in MAPPING_ORIGINS:
            return Shape.mapping(text, self.shape(args[1]))
        struct = struct_class(info)
        if struct is not None:
            return self._struct_shape(info, *struct, text)
        return Shape.opaque(text, _NO_SHAPE)

    def _struct_shape(self, info: TypeInfo, decorated: TypeInfo, kind: str, text: str) -> Shape:
        """The fields are *decorated*'s (the class itself or a base: `struct_class`), of *kind*."""
        cached = self._shapes.get(info.fullname)
        if cached is not None:
            return cached
        shape = Shape.closed_object(text)
        self._shapes[info.fullname] = shape
        is_attrs = kind == "attrs"
        fields: dict[str, Shape] = {}
        required: set[str] = set()
        for attribute in struct_attributes(decorated, kind) or []:
            name = attribute.get("name")
            if not isinstance(name, str) or not attribute.get(
                "init" if is_attrs else "is_in_init", True
            ):
                continue
            alias = attribute.get("alias")
            key = alias if is_attrs and isinstance(alias, str) else name
            sym = info.get(name)
            node = sym.node if sym is not None else None
            field_type = node.type if isinstance(node, Var) else None
            fields[key] = (
                self.shape(field_type) if field_type is not None else Shape.opaque(key, _NO_SHAPE)
            )
            if not attribute.get("has_default"):
                required.add(key)
        shape.fields = fields
        shape.required = frozenset(required)
        return shape


def _flatten(union: UnionType) -> Iterator[Type]:
    for item in union.items:
        proper = get_proper_type(item)
        if isinstance(proper, UnionType):
            yield from _flatten(proper)
        else:
            yield item


def _member_value(info: TypeInfo, member: str) -> object:
    """The JSON value of an enum member, when mypy knows it (a literal or an ``auto()``)."""
    value = member_value_type(info, member)
    if isinstance(value, NoneType):
        return None
    if isinstance(value, LiteralType):
        return value.value if isinstance(value.value, (str, int, bool)) else _UNKNOWN
    if isinstance(value, Instance):
        if value.last_known_value is not None:
            literal = value.last_known_value.value
            return literal if isinstance(literal, (str, int, bool)) else _UNKNOWN
        if value.type.fullname == "enum.auto" and info.has_base("enum.StrEnum"):
            return member.lower()
    return _UNKNOWN


def _enum_shape(info: TypeInfo, text: str) -> Shape:
    values: list[object] = []
    kinds: set[str] = set()
    known = True
    for member in info.enum_members:
        value = _member_value(info, member)
        if value is _UNKNOWN:
            known = False
            member_type = member_value_type(info, member)
            if isinstance(member_type, Instance) and member_type.type.fullname == "enum.auto":
                kinds.add("integer")  # auto() numbers members outside StrEnum
            else:
                return Shape.opaque(text, _NO_SHAPE)
        else:
            values.append(value)
    if known:
        return Shape.constants_of(text, tuple(values))
    # Some values are only known by their JSON kind: compare by kind.
    kinds.update(Shape.constants_of(text, tuple(values)).kinds)
    return Shape.opaque(text, frozenset(kinds))


def _literal_json(literal: LiteralType) -> object:
    if literal.fallback.type.fullname in BYTES:
        return _UNKNOWN
    if literal.fallback.type.is_enum and isinstance(literal.value, str):
        return _member_value(literal.fallback.type, literal.value)
    return literal.value if isinstance(literal.value, (str, int, bool)) else _UNKNOWN
