"""`same`: whether two values are equal and of the same types, all the way down.

What the round trip of `check_toolset` compares a value with: ``==`` alone would call a ``str``
enum member equal to its value, ``1`` equal to ``True``, and two datetimes equal at the same
instant whatever their offsets.
"""

from __future__ import annotations

import dataclasses
import typing
import weakref
from datetime import datetime, time
from typing import Any, Final

import attrs

from . import _seams

__all__ = ["UNSEEN", "defines_equality", "json_forms", "same"]


class _Unseen:
    """The JSON value a compared value was structured from is not known."""


#: No JSON value known (`same`'s *sent*).
UNSEEN: Final = _Unseen()
#: A struct field's key absent from the JSON object sent.
_LEFT_OUT: Final = _Unseen()


def same(left: object, right: object, *, defaults: bool = False, sent: object = UNSEEN) -> bool:
    """Whether two values are equal and of the same types, all the way down.

    ``==`` is not enough: ``"red" == Color.RED`` for a ``str`` enum, ``1 == True``, and two aware
    datetimes are equal at the same instant whatever their offsets.

    With *defaults*, a field of an attrs class, dataclass or NamedTuple that *left* holds at its
    default (that very object, or a value equal to a new one from its factory) is compared by its
    JSON form: with ``y: float = 0`` or ``tags: Sequence[str] = attrs.Factory(tuple)`` the class
    holds ``0`` or ``()`` when the field is left out, and their JSON comes back as ``0.0`` or
    ``[]``, values of the annotation alike.

    *sent* is the JSON value both were structured from, when known: a struct's field that it
    leaves out (or sends as ``null``, which the strict variant reads as its default) and a
    factory fills is not compared, since each structuring calls the factory again (``uuid4``,
    ``now()``, a counter give a new value every time).
    """
    if type(left) is not type(right):
        return False
    names = _compared(left)
    if names is not None:
        given = typing.cast("dict[str, object]", sent) if isinstance(sent, dict) else None
        held = _fields(type(left)) if defaults or given is not None else {}
        for name in names:
            mine, theirs = getattr(left, name), getattr(right, name)
            field = held.get(name)
            part = UNSEEN if given is None or field is None else given.get(field.name, _LEFT_OUT)
            if same(mine, theirs, defaults=defaults, sent=part):
                continue
            if (part is _LEFT_OUT or part is None) and field is not None and field.factory:
                # Made anew by its factory for each (the strict variant's null is the default).
                continue
            if (
                not defaults
                or field is None
                or not _has_default(field)
                or not _at_default(field, mine)
            ):
                return False
            if not _same_json(field.annotation, mine, theirs):
                return False
        return True
    if isinstance(left, (list, tuple)):
        items: list[Any] | tuple[Any, ...] = left  # pyright: ignore[reportUnknownVariableType]
        others: list[Any] | tuple[Any, ...] = right  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
        parts = _items_sent(sent, len(items))
        return len(items) == len(others) and all(
            same(a, b, defaults=defaults, sent=part)
            for a, b, part in zip(items, others, parts, strict=True)
        )
    if isinstance(left, (set, frozenset)):
        members: set[Any] | frozenset[Any] = left  # pyright: ignore[reportUnknownVariableType]
        matches: set[Any] | frozenset[Any] = right  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
        return len(members) == len(matches) and all(
            any(same(a, b, defaults=defaults) for b in matches) for a in members
        )
    if isinstance(left, dict):
        mapping: dict[Any, Any] = left  # pyright: ignore[reportUnknownVariableType]
        other: dict[Any, Any] = right  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
        entries = typing.cast("dict[Any, object]", sent) if isinstance(sent, dict) else {}
        return mapping.keys() == other.keys() and all(
            same(mapping[k], other[k], defaults=defaults, sent=entries.get(k, UNSEEN))
            for k in mapping
        )
    if isinstance(left, (datetime, time)):
        moment = typing.cast("datetime | time", right)
        return left == moment and left.utcoffset() == moment.utcoffset()
    if not defines_equality(type(left)):
        # `==` is identity for such a type (a registered class without __eq__): compare what the
        # library sees of the values instead, their JSON forms.
        forms = json_forms(left, right)
        if forms is not None:
            return same(*forms)
    return bool(left == right)


def _items_sent(sent: object, count: int) -> list[object]:
    """The JSON items *sent* holds for an array of *count* values (unknown unless it holds them)."""
    if isinstance(sent, list) and len(typing.cast("list[object]", sent)) == count:
        return list(typing.cast("list[object]", sent))
    return [UNSEEN] * count


def _compared(value: object) -> list[str] | None:
    """The attributes `same` compares of a struct (attrs class, dataclass, NamedTuple), or None."""
    kind = type(value)
    if attrs.has(kind):
        return [f.name for f in attrs.fields(typing.cast("type[Any]", kind)) if f.eq]
    if dataclasses.is_dataclass(value):
        return [f.name for f in dataclasses.fields(value) if f.compare]
    names: object = getattr(kind, "_fields", None)
    if isinstance(value, tuple) and isinstance(names, tuple):
        return list(typing.cast("tuple[str, ...]", names))
    return None


#: `_fields` of each struct class met (kept while the class lives).
_held: Final[weakref.WeakKeyDictionary[type, dict[str, _seams.Field]]] = weakref.WeakKeyDictionary()


def _fields(kind: type) -> dict[str, _seams.Field]:
    """The fields of the struct class *kind*, by attribute name."""
    found = _held.get(kind)
    if found is None:
        try:
            fields = _seams.describe(kind).fields
        except _seams.UnsupportedAnnotation:
            fields = ()
        found = _held[kind] = {f.attr_name: f for f in fields}
    return found


def _has_default(field: _seams.Field) -> bool:
    return field.default is not _seams.MISSING or field.factory is not None


def _at_default(field: _seams.Field, value: object) -> bool:
    """Whether a struct holds *value* in *field* as its default: that object, or a factory's."""
    if value is field.default:
        return True
    if field.factory is None:
        return False
    try:
        made = field.factory()
    except Exception:  # noqa: BLE001 - a factory that fails now made nothing to compare with
        return False
    return same(value, made)


def _same_json(annotation: object, left: object, right: object) -> bool:
    """Whether *left* and *right* have equal JSON forms as values of *annotation*."""
    try:
        unstructure = _seams.unstructurer(annotation)
        return _seams.json_key(unstructure(left)) == _seams.json_key(unstructure(right))
    except Exception:  # noqa: BLE001 - no JSON form to compare them by
        return False


def defines_equality(tp: type) -> bool:
    """Whether *tp* compares its values by something other than identity (``object.__eq__``)."""
    return getattr(tp, "__eq__", object.__eq__) is not object.__eq__


def json_forms(left: object, right: object) -> tuple[object, object] | None:
    """The JSON forms of two values of one type, with the project's converter, if it has them."""
    try:
        unstructure = _seams.unstructurer(type(left))
        forms = unstructure(left), unstructure(right)
    except Exception:  # noqa: BLE001 - no JSON form: nothing else to compare them by
        return None
    if any(type(form) is type(left) for form in forms):
        return None
    return forms
