"""The JSON values a type admits, from mypy's types, for the ambiguity analysis (check 8).

The analysis itself is `typed_toolsets.rules.shapes`, shared with the runtime
(`typed_toolsets.analysis.ambiguity`). Parts the plugin cannot know (registered types,
NamedTuples) are opaque: they never overlap anything, so the check gives no false alarms. An enum
member whose value mypy does not compute is known by its JSON kind when its mixin or its type
tells it, and then only overlaps types that admit every value of that kind.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator, Sequence
from typing import Final

from mypy.nodes import TypeInfo
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

from typed_toolsets.rules.flags import flag_values
from typed_toolsets.rules.shapes import Shape
from typed_toolsets.rules.typenames import (
    FORMAT_NAMES,
    MAPPING_ORIGINS,
    NUMBER_KINDS,
    SEQUENCE_ORIGINS,
    SET_ORIGINS,
    scalar_kinds,
)

from .typeinfo import BYTES, label, member_value_type, struct_class, struct_fields

__all__ = ["ShapeBuilder", "known_flag_values"]

_NO_SHAPE: Final[frozenset[str]] = frozenset()

#: The JSON kinds of the values of an enum member's type (and of a mixin enum's values).
_VALUE_KINDS: Final[dict[str, frozenset[str]]] = {
    "builtins.str": frozenset({"string"}),
    "builtins.int": frozenset({"integer"}),
    "builtins.float": NUMBER_KINDS,
    "builtins.bool": frozenset({"boolean"}),
}

#: The builtins an enum can mix in: its values are made into one (`_mixed`).
_MIXINS: Final = ("builtins.str", "builtins.int", "builtins.float")


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
            if proper.fallback.type.is_enum and isinstance(proper.value, str):
                return _enum_shape(proper.fallback.type, (proper.value,), text)
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
            # One shape per class, made before its fields: a TypedDict may refer to itself.
            name = proper.fallback.type.fullname
            cached = self._shapes.get(name)
            if cached is not None:
                return cached
            shape = Shape.closed_object(text)
            if not name.endswith("._TypedDict"):  # an anonymous one has no class of its own
                self._shapes[name] = shape
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
        hashed: set[ProperType] = set()  # found again at once: a Literal of 4,000 values
        for item in map(get_proper_type, _flatten(union)):
            # Python's Union drops repeats (`Optional[Maybe]` with `Maybe = int | None`).
            try:
                if item in hashed:
                    continue
                hashed.add(item)
            except TypeError:  # pragma: no cover - mypy's types hash; compared one by one else
                if item in items:
                    continue
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
            known = known_flag_values(info)
            combined = None if known is None else flag_values(known)
            if combined is not None:  # a Flag's values: its members' and their combinations
                return Shape.constants_of(text, tuple(combined))
            return _enum_shape(info, info.enum_members, text)
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
        fields: dict[str, Shape] = {}
        required: set[str] = set()
        for field in struct_fields(info, decorated, kind):
            key = field.key
            fields[key] = (
                self.shape(field.type) if field.type is not None else Shape.opaque(key, _NO_SHAPE)
            )
            if field.required:
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


def _mixin(info: TypeInfo) -> str | None:
    """The builtin an enum's values are made into (``builtins.str`` for a ``str`` mixin)."""
    return next((name for name in _MIXINS if info.has_base(name)), None)


def _generator(info: TypeInfo) -> str | None:
    """The class whose ``_generate_next_value_`` gives the enum's ``auto()`` values."""
    return next((b.fullname for b in info.mro if "_generate_next_value_" in b.names), None)


def _mixed(mixin: str, value: object) -> object:
    """What a mixin enum makes of a member's value (``class K(str, Enum): A = 5`` has ``"5"``)."""
    if mixin == "builtins.str":
        return str(value)
    if not isinstance(value, (str, int, float)):
        return _UNKNOWN
    try:
        return int(value) if mixin == "builtins.int" else float(value)
    except ValueError:  # the class cannot be created; the run time says so
        return _UNKNOWN


def _member_values(info: TypeInfo) -> dict[str, object]:
    """Each enum member's JSON value, in definition order, when mypy knows it (or `_UNKNOWN`).

    A literal value, or one the enum module's own ``auto()`` gives (see `_auto_value`), made into
    the mixin's type when the enum has one.
    """
    mixin = _mixin(info)
    assigned: list[object] = []  # the values as assigned, which ``auto()`` counts from
    values: dict[str, object] = {}
    for member in info.enum_members:
        value = member_value_type(info, member)
        known: object = _UNKNOWN
        if isinstance(value, NoneType):
            known = None
        elif isinstance(value, LiteralType):
            known = value.value
        elif isinstance(value, Instance):
            if value.last_known_value is not None:
                known = value.last_known_value.value
            elif value.type.fullname == "enum.auto":
                known = _auto_value(info, member, assigned)
        assigned.append(known)
        if known is _UNKNOWN or mixin is None:
            plain = known is None or isinstance(known, (str, int, float))
            values[member] = known if plain else _UNKNOWN
        else:
            values[member] = _mixed(mixin, known)
    return values


def known_flag_values(info: TypeInfo) -> list[int] | None:
    """A Flag's member values in definition order, when mypy knows each as an int (else None).

    As at run time, values that are not non-negative ints do not combine as bits.
    """
    if not info.has_base("enum.Flag"):
        return None
    values = list(_member_values(info).values())
    if not all(type(value) is int and value >= 0 for value in values):
        return None
    return typing.cast("list[int]", values)


def _auto_value(info: TypeInfo, member: str, assigned: list[object]) -> object:
    """The value ``auto()`` gives *member*, after members *assigned*, when every Python agrees.

    ``StrEnum`` gives the name in lower case. ``Enum`` (``IntEnum``) counts on from 1, ``Flag``
    (``IntFlag``) takes the next power of two, 1 first: Python 3.10 counts from the last value,
    later ones from the largest, so only values that grow are followed. A class's own
    ``_generate_next_value_`` may give anything.
    """
    generator = _generator(info)
    if generator == "enum.StrEnum":
        return member.lower()
    if generator != "enum.Enum":
        return _UNKNOWN
    numbers = [value for value in assigned if type(value) is int]
    if len(numbers) != len(assigned) or (numbers and numbers[-1] != max(numbers)):
        return _UNKNOWN
    if info.has_base("enum.Flag"):
        return 2 ** numbers[-1].bit_length() if numbers else 1
    return numbers[-1] + 1 if numbers else 1


def _member_kinds(info: TypeInfo, member: str) -> frozenset[str]:
    """The JSON kinds an enum member's unknown value may have (none when mypy cannot tell)."""
    mixin = _mixin(info)
    if mixin is not None:
        return _VALUE_KINDS[mixin]  # the mixin makes every value one of its own
    value = member_value_type(info, member)
    if not isinstance(value, Instance):
        return _NO_SHAPE
    if value.type.fullname == "enum.auto":
        # The enum module's own generator numbers the members; a class's own may give anything.
        generator = _generator(info) or ""
        return _VALUE_KINDS["builtins.int"] if generator.startswith("enum.") else _NO_SHAPE
    return _VALUE_KINDS.get(value.type.fullname, _NO_SHAPE)  # a call mypy knows the type of


def _enum_shape(info: TypeInfo, members: Sequence[str], text: str) -> Shape:
    """The shape of *members* of an enum: the values mypy knows, the others by JSON kind."""
    known = _member_values(info)
    values: list[object] = []
    unknown: list[frozenset[str]] = []
    for member in members:
        value = known.get(member, _UNKNOWN)
        if value is _UNKNOWN:
            unknown.append(_member_kinds(info, member))
        else:
            values.append(value)
    return Shape.constants_of(text, tuple(values), tuple(unknown))


def _literal_json(literal: LiteralType) -> object:
    if literal.fallback.type.fullname in BYTES:
        return _UNKNOWN
    return literal.value if isinstance(literal.value, (str, int, bool)) else _UNKNOWN
