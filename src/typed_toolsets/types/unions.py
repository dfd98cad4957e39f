"""Registry rule for unions and ``Optional``: the first variant, in declared order, that matches."""

from __future__ import annotations

import numbers
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any, Final

from typed_toolsets.rules import reasons
from typed_toolsets.rules.labels import label, safe_repr
from typed_toolsets.rules.shapes import Shape

from .gen import OptionalForm, with_optional_form
from .registry import Builder, Describer, Rule
from .scalars import is_literal, literal_of, scalar_spec
from .typespec import BoundLost, NoJSONFormError, Reject, TypeSpec, count_members, union_refs

__all__ = ["UNION_RULES", "is_union", "numbers_merged", "union_spec"]

_NoneType: Final = type(None)

# For each Python type a parsed JSON value can have, the JSON types a schema must admit to match
# it (a float such as 1.0 can be an "integer").
_PY_JSON_TYPES: Final[dict[type, frozenset[str]]] = {
    str: frozenset({"string"}),
    bool: frozenset({"boolean"}),
    int: frozenset({"integer", "number"}),
    float: frozenset({"number", "integer"}),
    _NoneType: frozenset({"null"}),
    list: frozenset({"array"}),
    dict: frozenset({"object"}),
}


def is_union(annotation: object) -> bool:
    """Whether *annotation* is ``typing.Union[...]``, ``Optional[...]`` or ``A | B``."""
    origin = typing.get_origin(annotation)
    return origin is typing.Union or origin is types.UnionType


def numbers_merged(variants: list[object]) -> list[object]:
    """*variants* with ``int`` and ``float``, when both are there, as one ``numbers.Real``.

    `int | float` is "Numeric": a number keeps its parsed form (2 stays int, 2.0 float). The
    merged variant takes the place of the first of the two.
    """
    found = [i for i, variant in enumerate(variants) if variant is int or variant is float]
    if len({variants[i] for i in found}) < 2:
        return variants
    merged = [v for i, v in enumerate(variants) if i not in found or i == found[0]]
    merged[found[0]] = numbers.Real
    return merged


def _union_rule(annotation: object, builder: Builder) -> TypeSpec:
    args: list[object] = list(typing.get_args(annotation))
    rest = numbers_merged([a for a in args if a is not _NoneType])
    return union_spec(annotation, [builder.spec(a) for a in rest], nullable=_NoneType in args)


def union_spec(annotation: object, variants: list[TypeSpec], *, nullable: bool) -> TypeSpec:
    """The spec of a union of *variants* (in order), and of ``null`` when *nullable*.

    Args:
        annotation: The union's annotation (shown in messages).
        variants: The specs of its variants other than None, Numeric ones merged
            (`numbers_merged`).
        nullable: Whether None is a variant.
    """
    if not variants:  # pragma: no cover - typing never builds a union of only None
        return scalar_spec(None)
    if len(variants) == 1 and not nullable:
        return variants[0]
    schemas = [v.schema for v in variants]
    json_types = frozenset[str]().union(*(v.json_types for v in variants))
    if nullable:
        schemas.append({"type": "null"})
        json_types |= {"null"}
    candidates: dict[type, tuple[TypeSpec, ...]] = {
        py_type: tuple(v for v in variants if v.json_types & wanted)
        for py_type, wanted in _PY_JSON_TYPES.items()
    }

    # The Python types whose first candidate keeps every value of the type as is (``str`` for a
    # ``str`` variant, ``int`` for ``int`` or ``int | float``): that variant matches first, so
    # such a value is the union's value without calling any hook.
    kept = frozenset(
        py_type
        for py_type, found in candidates.items()
        if found and (py_type in found[0].passthrough or found[0].shortcut is py_type)
    ) | ({_NoneType} if nullable else set[type]())

    def structure(value: Any) -> Any:
        if type(value) in kept:
            return value
        lost: BoundLost | None = None
        for variant in candidates.get(type(value), ()):  # pyright: ignore[reportUnknownArgumentType]
            try:
                return variant.structure(value)
            except BoundLost as exc:  # said when no later variant takes the value
                lost = lost or exc
            except Reject:
                continue
        raise lost or Reject

    if nullable and len(variants) == 1:
        admitted = frozenset(py_type for py_type, found in candidates.items() if found)
        with_optional_form(structure, OptionalForm(admitted - {_NoneType}, variants[0]))

    def unstructure(value: Any) -> Any:
        if value is None and nullable:
            return None
        # instance_check looks at the outside only (a list is a list[int] and a list[str]), so a
        # variant that fails to unstructure the value hands it on to the next.
        for variant in variants:
            if variant.instance_check(value):
                try:
                    return variant.unstructure(value)
                except (ValueError, TypeError):
                    continue
        msg = reasons.no_variant(safe_repr(value), label(annotation))
        raise NoJSONFormError(msg)

    def children(value: Any) -> Iterator[tuple[str | int, TypeSpec, Any]]:
        # A union value sits at the union's own path: descend into the variant that matched it.
        for variant in candidates.get(type(value), ()):  # pyright: ignore[reportUnknownArgumentType]
            try:
                variant.structure(value)
            except Reject:
                continue
            except Exception:  # noqa: BLE001 - this variant matched but failed to build
                yield from variant.children(value)
                return
            return

    def instance_check(value: Any) -> bool:
        return (value is None and nullable) or any(v.instance_check(value) for v in variants)

    depths = [v.depth for v in variants]
    known = [d for d in depths if d is not None]
    counting = [v.members for v in variants if v.members is not None]
    members: Callable[[Any], int] | None = None
    if len(variants) == 1 and counting:
        only = counting[0]

        def nullable_members(value: Any) -> int:
            return 0 if value is None else only(value)

        members = nullable_members
    elif counting:
        members = count_members  # which variant matched is not known here: count them all
    colons: Callable[[Any], int] | None = None
    if len(variants) == 1 and variants[0].colons is not None:
        only_colons = variants[0].colons

        def nullable_colons(value: Any) -> int:
            return 0 if value is None else only_colons(value)

        colons = nullable_colons
    passthrough: tuple[type, ...] = ()
    if all(v.passthrough for v in variants):
        passthrough = tuple(t for v in variants for t in v.passthrough)
        if nullable:
            passthrough += (_NoneType,)
    return TypeSpec(
        annotation=annotation,
        passthrough=passthrough,
        schema={"anyOf": schemas},
        structure=structure,
        unstructure=unstructure,
        json_types=json_types,
        depth=max(known) if len(known) == len(depths) else None,
        hashable=all(v.hashable for v in variants),
        identity=all(v.identity for v in variants),
        refs=union_refs(variants),
        instance_check=instance_check,
        children=children,
        members=members,
        colons=colons,
    )


def _number_kind(annotation: object) -> str | None:
    # By identity: a union's arguments need not be hashable.
    return "int" if annotation is int else "float" if annotation is float else None


def _union_shape(annotation: object, describer: Describer) -> Shape:
    # `int | float` is one Numeric variant, as in `_union_rule`.
    return Shape.union_of(
        describer.label(annotation), _as_mypy_reads(annotation), _number_kind, describer.shape
    )


def _as_mypy_reads(union: object) -> list[object]:
    """The variants of *union* as mypy reads them, so the plugin and the runtime see one union.

    mypy reads ``Literal["a", "b"]`` as ``Literal["a"] | Literal["b"]``, ``Literal[None]`` as
    ``None``, and keeps each variant once: ``Literal["a"] | Literal["a", "b"]`` is no ambiguity
    (either way ``"a"`` gives ``"a"``).
    """
    found: list[object] = []
    hashed: set[object] = set()  # what is found again, at once (a Literal of 4,000 values)
    for variant in typing.get_args(union):
        values = typing.get_args(variant) if is_literal(variant) else ()
        split = [type(None) if v is None else literal_of(v) for v in values] or [variant]
        for item in split:
            try:
                if item in hashed:
                    continue
                hashed.add(item)
            except TypeError:  # Annotated with a list in its metadata: compared one by one
                if any(item == seen for seen in found):
                    continue
            found.append(item)
    return found


UNION_RULES: Final = (Rule("union", is_union, _union_rule, _union_shape),)
