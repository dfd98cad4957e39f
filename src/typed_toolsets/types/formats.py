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
from collections.abc import Callable, Sequence
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

    The texts' lengths are listed (after their types: a subclass of str may say anything) and
    the texts of each length, joined, are checked a fixed place at a time (every ``length``-th
    character of ASCII text, sliced out at once). When all have one length, the texts are joined by
    newlines (as `FormatType.read_joined` takes them); in a list mixing lengths, each length's
    texts are picked out and joined. Then the reader reads them all.
    No Python step per text: the function returns None (the list goes one text at a time) for a
    list holding anything else, a text of another layout, or a text the reader refuses.
    """
    if not row.columns:
        return None
    read, read_joined = row.read, row.read_joined
    checks = {length: _Check(places) for length, places in row.columns.items()}
    known = checks.keys()
    # By length, the translation of each text's length (a byte) to whether it is that length.
    choose = {length: bytes(byte == length for byte in range(256)) for length in known}

    def read_all(values: list[Any]) -> list[Any] | None:
        size = len(values)
        if not size or not all_of(values, str):
            return None  # a number, a boolean, null, or a subclass of str
        lengths = list(map(len, values))
        length = lengths[0]
        if lengths.count(length) == size:  # one length (each count an identity check)
            check = checks.get(length)
            joined = "\n".join(values)
            if check is None or not joined.isascii():
                return None
            if not check.holds(joined, size, length + 1):
                return None
            try:
                return (
                    list(map(read, values)) if read_joined is None else read_joined(values, joined)
                )
            except ValueError:
                return None
        spellings = set(lengths)
        if not spellings <= known:
            return None
        # Each text's length as a byte (the known ones are below 256): each length's count, and
        # which texts have it, are then C passes over a few bytes.
        marks = bytes(lengths)
        for length in spellings:
            joined = "".join(itertools.compress(values, marks.translate(choose[length])))
            count = marks.count(length)
            if not joined.isascii() or not checks[length].holds(joined, count, length):
                return None
        try:
            return list(map(read, values))
        except ValueError:
            return None

    return read_all


class _Check:
    """The check of one length's columns (`FormatType.columns`), a C pass per place.

    A place with one allowed character is compared with that character repeated (a memcmp),
    quicker than stripping the allowed ones; the other places are stripped as bytes, which
    looks a byte up with memchr (a str looks a character up with a call each).
    """

    __slots__ = ("choices", "fixed")

    def __init__(self, places: Sequence[tuple[int, bytes]]) -> None:
        self.fixed = tuple(
            (place, allowed.decode()) for place, allowed in places if len(allowed) == 1
        )
        self.choices = tuple((place, allowed) for place, allowed in places if len(allowed) > 1)

    def holds(self, data: str, count: int, step: int) -> bool:
        """Whether the *count* texts in *data*, one every *step* characters, allow the places."""
        for place, char in self.fixed:
            if data[place::step] != char * count:
                return False
        for place, allowed in self.choices:  # noqa: SIM110 - a loop: no generator frame
            if data[place::step].encode().strip(allowed):
                return False
        return True


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
