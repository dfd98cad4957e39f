"""Registry rule for the string format types: a spec built from each row of the format table.

The row (`typed_toolsets.rules.formats`) gives the schema (its JSON kind and ``format``), the
structuring hook (its parser: a string is accepted exactly when it parses, as the validator's
format check says) and the unstructuring hook (its writer).
"""

from __future__ import annotations

from typing import Any, Final

from typed_toolsets.rules.formats import BY_CLASS, FormatType
from typed_toolsets.rules.shapes import Shape

from .registry import Builder, Describer, Rule
from .typespec import Reject, TypeSpec

__all__ = ["FORMAT_RULES", "format_spec"]


def format_spec(row: FormatType[Any]) -> TypeSpec:
    """The spec of the format type of *row*."""
    cls, parse, write = row.cls, row.parse, row.write

    def structure(value: Any) -> Any:
        if type(value) is not str:
            raise Reject
        try:
            return parse(value)
        except ValueError:
            raise Reject from None

    def unstructure(value: Any) -> Any:
        if type(value) is not cls:
            msg = f"{value!r} is not a {cls.__name__}"
            raise ValueError(msg)
        return write(value)

    return TypeSpec(
        annotation=cls,
        schema={"type": row.json_kind, "format": row.format_name},
        structure=structure,
        unstructure=unstructure,
        json_types=frozenset({row.json_kind}),
        hashable=True,
        instance_check=lambda v: type(v) is cls,
    )


def _is_format(annotation: object) -> bool:
    try:
        return annotation in BY_CLASS
    except TypeError:  # unhashable annotation
        return False


def _format_rule(annotation: object, _builder: Builder) -> TypeSpec:
    return format_spec(BY_CLASS[annotation])


def _format_shape(annotation: object, describer: Describer) -> Shape:
    row = BY_CLASS[annotation]
    return Shape.scalar(describer.label(annotation), frozenset({row.json_kind}), row.format_name)


FORMAT_RULES: Final = (Rule("format", _is_format, _format_rule, _format_shape),)
