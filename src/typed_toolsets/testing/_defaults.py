"""Which struct field's default a value at a JSON path is: for `check_toolset`'s messages."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from typing import Final

import attrs

__all__ = ["default_at"]

_ABSENT: Final = object()


def default_at(value: object, path: tuple[object, ...]) -> str | None:
    """``Class.field (default)`` when *path* ends at a struct field holding its plain default.

    Follows *path* (JSON names and indexes) through *value*'s attrs and dataclass fields, lists
    and dicts; None when it leaves them, or the field holds anything else.
    """
    for depth, step in enumerate(path):
        # Not narrowed by isinstance: its element types would be unknown.
        if issubclass(type(value), list | tuple) and isinstance(step, int):
            items = typing.cast("Sequence[object]", value)
            if not 0 <= step < len(items):
                return None
            value = items[step]
            continue
        if issubclass(type(value), dict):
            mapping = typing.cast("dict[object, object]", value)
            if step not in mapping:
                return None
            value = mapping[step]
            continue
        field = _field_named(type(value), step)
        if field is None:
            return None
        name, default = field
        held = getattr(value, name, _ABSENT)
        if depth < len(path) - 1:
            value = held
            continue
        if default is _ABSENT or held is _ABSENT or held != default:
            return None
        return f"{type(value).__qualname__}.{name} ({default!r})"
    return None


#: attrs' `Factory` class (its stubs type the function that makes one as the value it makes).
_FACTORY: Final = type(typing.cast(object, attrs.Factory(list)))


def _field_named(cls: type, json_name: object) -> tuple[str, object] | None:
    """The attribute name and plain default (or `_ABSENT`) of *cls*'s field *json_name*."""
    if attrs.has(cls):
        for attribute in attrs.fields(cls):
            if json_name in (attribute.alias, attribute.name):
                default: object = attribute.default
                plain = default is not attrs.NOTHING and not isinstance(default, _FACTORY)
                return attribute.name, default if plain else _ABSENT
        return None
    if dataclasses.is_dataclass(cls):
        for field in dataclasses.fields(cls):
            if json_name == field.name:
                plain = field.default is not dataclasses.MISSING
                return field.name, field.default if plain else _ABSENT
    return None
