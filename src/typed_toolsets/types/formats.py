"""Registry rule for the string format types: a spec built from each row of the format table.

The row (`typed_toolsets.rules.formats`) gives the schema (its JSON kind and ``format``), the
structuring hook (its parser: a string is accepted exactly when it parses, as the validator's
format check says) and the unstructuring hook (its writer).

The structuring hook is generated with the row's layout check written inline, so a value of the
common spellings costs one Python frame around the C reader; a list of them costs none per item
(the hook's `typed_toolsets.types.gen.InlineForm`, which object structuring inlines too). Whatever
the reader refuses, and every other text, goes to the parser, which says what the grammar says.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from itertools import repeat
from typing import Any, Final

from typed_toolsets.rules.formats import BY_CLASS, LAYOUT_NAMES, FormatType
from typed_toolsets.rules.shapes import Shape

from .gen import InlineForm, compile_function, with_inline_form
from .items import all_of
from .registry import Builder, Describer, Rule
from .typespec import Reject, TypeSpec

__all__ = ["FORMAT_RULES", "format_spec"]


def _structure_hooks(row: FormatType[Any]) -> Callable[[Any], Any]:
    """The structuring hook of *row*'s values, with its list function attached."""
    namespace: dict[str, Any] = {
        **LAYOUT_NAMES,
        "Reject": Reject,
        "read": row.read,
        "parse": row.parse,
    }
    layout = row.layout
    source = "\n".join(
        [
            "def generated(x):",
            "    if type(x) is not str:",
            "        raise Reject",
            f"    if {layout}:",
            "        try:",
            "            return read(x)",
            "        except ValueError:",
            "            pass  # the parser says what the grammar says",
            "    try:",
            "        return parse(x)",
            "    except ValueError:",
            "        raise Reject from None",
            "",
        ]
    )
    structure = compile_function(source, f"structure {row.format_name}", namespace)
    namespace["s"] = structure
    # A text of the layout the reader refuses leaves the quick pass; the hook, once per item,
    # then gives the verdict (Reject) or the same values.
    items = "\n".join(
        [
            "def generated(values):",
            "    try:",
            f"        return [read(x) if type(x) is str and ({layout}) else s(x) for x in values]",
            "    except ValueError:",
            "        return [s(x) for x in values]",
            "",
        ]
    )
    each = compile_function(items, f"structure {row.format_name} items", namespace)
    read_all = _column_reader(row)
    if read_all is not None:
        one_by_one = each

        def each(values: list[Any]) -> list[Any]:
            found = read_all(values)
            return one_by_one(values) if found is None else found

    return with_inline_form(structure, InlineForm(layout, row.read, LAYOUT_NAMES, each))


def _column_reader(row: FormatType[Any]) -> Callable[[list[Any]], list[Any] | None] | None:
    """Read a whole list of *row*'s texts with its reader alone, checking its columns in C.

    The texts are joined by newlines, and each fixed place is sliced out of the joined text
    (every ``length + 1``-th byte of ASCII text) and checked at once; then the reader reads them
    all (the row's `FormatType.read_joined` when it has one). When all texts have one length, the
    newlines say so (one at every ``length + 1``-th byte and no other), so no length is measured
    text by text; a list mixing lengths is measured, and the texts of each length joined and
    checked (every ``length``-th byte). No Python step per text: the function returns None (the
    list goes one text at a time) for a list holding anything else, a text of another layout, or
    a text the reader refuses.
    """
    columns = row.columns
    if not columns:
        return None
    read, read_joined = row.read, row.read_joined
    known = columns.keys()

    def read_all(values: list[Any]) -> list[Any] | None:
        size = len(values)
        try:
            joined = "\n".join(values)
        except TypeError:  # a number, a boolean or null
            return None
        length, rest = divmod(len(joined) + 1, size or 1)
        length -= 1
        data = joined.encode() if not rest and length in known and joined.isascii() else b""
        if data and _one_length(data, length, size):
            if not all_of(values, str) or not _hold(data, length + 1, columns[length]):
                return None  # a subclass of str, or a text of another layout
            try:
                return list(map(read, values)) if read_joined is None else read_joined(values, data)
            except ValueError:
                return None
        lengths = list(map(len, values))
        spellings = set(lengths)
        if len(spellings) < 2 or not spellings <= known or not all_of(values, str):
            return None  # the cheapest way out, first
        for length in spellings:
            joined = "".join(itertools.compress(values, map(operator.eq, lengths, repeat(length))))
            if not joined.isascii() or not _hold(joined.encode(), length, columns[length]):
                return None
        try:
            return list(map(read, values))
        except ValueError:
            return None

    return read_all


def _one_length(data: bytes, length: int, count: int) -> bool:
    """Whether *data*, *count* texts joined by newlines, holds texts of *length* and no newline.

    Then its ``count - 1`` newlines sit at every ``length + 1``-th byte, and nowhere else.
    """
    return data.count(b"\n") == count - 1 and not data[length :: length + 1].strip(b"\n")


def _hold(data: bytes, step: int, places: tuple[tuple[int, bytes], ...]) -> bool:
    """Whether the texts in *data*, one every *step* bytes, hold only allowed bytes at *places*."""
    return not any(data[place::step].strip(allowed) for place, allowed in places)


def format_spec(row: FormatType[Any]) -> TypeSpec:
    """The spec of the format type of *row*."""
    cls, write = row.cls, row.write
    structure = _structure_hooks(row)

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
