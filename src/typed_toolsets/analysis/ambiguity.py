"""Ambiguous unions, seen from the runtime: annotations described as `Shape`s.

A union parameter is ambiguous when one JSON value could match two of its variants (``str |
Color`` where ``Color`` has string values, two attrs classes with the same required fields): the
first variant in declared order then wins without a word. The analysis itself lives in
`typed_toolsets.rules`, shared with the mypy plugin; this module only describes annotations,
dispatching with the type registry's own rules so that the description follows what the
registry would build.
"""

from __future__ import annotations

import numbers
import types
import typing
from collections.abc import Callable
from typing import Final

from typed_toolsets.rules.shapes import Ambiguity, Shape
from typed_toolsets.rules.shapes import find_ambiguity as find_shape_ambiguity
from typed_toolsets.rules.typenames import FORMAT_NAMES, NUMBER_KINDS, scalar_kinds
from typed_toolsets.types.catalog import registry
from typed_toolsets.types.structs import FieldInfo
from typed_toolsets.types.typespec import Unresolved, Unsupported

__all__ = ["find_ambiguity", "shape_of"]

_NoneType: Final = type(None)
_UNKNOWN: Final[frozenset[str]] = frozenset()


def _struct_fields() -> dict[str, Callable[[type], list[FieldInfo]]]:
    # The field readers of the registry's struct rules: the same names, aliases and required
    # flags as the schema.
    from typed_toolsets.types import structs

    return {
        "attrs": structs._attrs_fields,  # pyright: ignore[reportPrivateUsage]
        "dataclass": structs._dataclass_fields,  # pyright: ignore[reportPrivateUsage]
        "typeddict": structs._typeddict_fields,  # pyright: ignore[reportPrivateUsage]
    }


def label(annotation: object) -> str:
    """A short readable name for an annotation (``str | Color``, ``list[int]``)."""
    if annotation is None or annotation is _NoneType:
        return "None"
    if annotation is Ellipsis:
        return "..."
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return " | ".join(label(a) for a in args)
    if origin is typing.Literal:
        return f"Literal[{', '.join(repr(a) for a in args)}]"
    if origin is typing.Annotated:
        return label(args[0])
    if origin is not None and args:
        name = getattr(origin, "__name__", None) or label(origin)
        return f"{name}[{', '.join(label(a) for a in args)}]"
    qualname = getattr(annotation, "__qualname__", None)
    if isinstance(qualname, str):
        return qualname
    text = repr(annotation)
    for prefix in ("typing_extensions.", "typing.", "collections.abc."):
        text = text.replace(prefix, "")
    return text


def _rule_name(annotation: object) -> str | None:
    for rule in registry.rules():
        try:
            if rule.predicate(annotation):
                return rule.name
        except Exception:  # noqa: BLE001, S112 - a failing predicate means "not this rule"
            continue
    return None


class _Describer:
    """Builds shapes, sharing one shape per class so recursive classes terminate."""

    def __init__(self) -> None:
        self._classes: dict[type, Shape] = {}
        self._fields = _struct_fields()

    def shape(self, annotation: object) -> Shape:
        name = _rule_name(annotation)
        text = label(annotation)
        if name == "annotated":
            return self.shape(typing.get_args(annotation)[0])
        if name == "newtype":
            return self.shape(getattr(annotation, "__supertype__", None))
        if name == "scalar":
            return _scalar(annotation, text)
        if name in ("enum", "literal"):
            constants = _constants(annotation)
            if constants is None:
                return Shape.opaque(text, _UNKNOWN)
            return Shape.constants_of(text, constants)
        if name == "union":
            return self._union(annotation, text)
        args = typing.get_args(annotation)
        if name in ("sequence", "set"):
            return Shape.array(text, self.shape(args[0]))
        if name == "tuple":
            if len(args) == 2 and args[1] is Ellipsis:
                return Shape.array(text, self.shape(args[0]))
            items = () if args == ((),) else args
            return Shape.fixed_array(text, tuple(self.shape(a) for a in items))
        if name == "mapping":
            return Shape.mapping(text, self.shape(args[1]))
        if name in self._fields and isinstance(annotation, type):
            return self._struct(annotation, self._fields[name], text)
        if name is not None and name.startswith("user:"):
            try:
                spec = registry.spec(annotation)
            except (Unsupported, Unresolved):
                return Shape.opaque(text, _UNKNOWN)
            return Shape.opaque(text, spec.json_types)
        # NamedTuples (as in the plugin) and anything unsupported: unknown, never ambiguous.
        return Shape.opaque(text, _UNKNOWN)

    def _union(self, annotation: object, text: str) -> Shape:
        names = {int: "int", float: "float"}
        return Shape.union_of(
            text, typing.get_args(annotation), lambda arg: names.get(arg), self.shape
        )

    def _struct(self, cls: type, read: Callable[[type], list[FieldInfo]], text: str) -> Shape:
        found = self._classes.get(cls)
        if found is not None:
            return found
        shape = Shape.closed_object(text)
        self._classes[cls] = shape
        try:
            fields = read(cls)
        except (Unsupported, Unresolved):
            return Shape.opaque(text, _UNKNOWN)
        shape.fields = {f.json_name: self.shape(f.annotation) for f in fields}
        shape.required = frozenset(f.json_name for f in fields if f.required)
        return shape


def _scalar(annotation: object, text: str) -> Shape:
    if annotation is None or annotation is _NoneType:
        return Shape.scalar(text, frozenset({"null"}))
    if annotation is numbers.Real:
        return Shape.scalar(text, NUMBER_KINDS)
    module = getattr(annotation, "__module__", "")
    qualname = getattr(annotation, "__qualname__", "")
    fullname = f"{module}.{qualname}"
    kinds = scalar_kinds(fullname)
    if kinds is None:
        return Shape.opaque(text, _UNKNOWN)
    return Shape.scalar(text, kinds, FORMAT_NAMES.get(fullname))


def _constants(annotation: object) -> tuple[object, ...] | None:
    """The JSON values of an enum or a literal (as the registry's spec lists them)."""
    try:
        spec = registry.spec(annotation)
    except (Unsupported, Unresolved):
        return None
    return spec.constants


def shape_of(annotation: object) -> Shape:
    """Describe *annotation* for the ambiguity analysis."""
    return _Describer().shape(annotation)


def find_ambiguity(annotation: object) -> Ambiguity | None:
    """The first ambiguous union in *annotation* (depth first, declared order), if any."""
    return find_shape_ambiguity(shape_of(annotation))
