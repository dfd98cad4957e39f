"""Registry rule for the string format types: a spec built from each row of the format table.

The row (`typed_toolsets.rules.formats`) gives the schema (its JSON kind and ``format``), the
structuring hook (its parser: a string is accepted exactly when it parses, as the validator's
format check says) and the unstructuring hook (its writer).

The structuring hook is generated with the row's layout check written inline, so a value of the
common spellings costs one Python frame around the C reader. A list of them costs none per item
(the hook's `typed_toolsets.types.gen.InlineForm`, which object structuring inlines too): it is
written as JSON and read at once by msgspec, after the row's checks of what msgspec reads beyond
the grammar. Whatever the readers refuse, and every other text, goes to the parser, which says
what the grammar says.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Annotated, Any, Final, TypeAlias

from typed_toolsets.rules.formats import BY_CLASS, LAYOUT_NAMES, FormatType
from typed_toolsets.rules.labels import safe_repr
from typed_toolsets.rules.shapes import Shape

from .compiled import compile_function
from .gen import InlineForm, with_inline_form
from .items import all_of
from .registry import Builder, Describer, Rule
from .typespec import NoJSONFormError, Reject, TypeSpec, joined_colons

__all__ = ["FORMAT_RULES", "format_spec"]


def _write_plain(values: list[Any], _default: None, _option: int) -> bytes:
    """*values* as a compact JSON array (UTF-8), as orjson writes it, when all are exactly strs.

    Without orjson (called as its ``dumps`` is): the standard library's writer takes a subclass
    of str for a str.
    """
    import json  # only without orjson

    if not all_of(values, str):
        raise TypeError
    return json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode()


#: A writer of a JSON array, called with the array, None and an option (as orjson's ``dumps``).
_Writer: TypeAlias = Callable[[list[Any], None, int], bytes]


def _json_writer() -> tuple[_Writer, int]:
    """The JSON writer of lists: orjson's ``dumps`` refusing a subclass of str, or `_write_plain`.

    Imported with the first list (as the fast path imports orjson with the first proxy).
    """
    try:  # pragma: no cover - which branch runs depends on the environment
        from orjson import OPT_PASSTHROUGH_SUBCLASS, dumps
    except ImportError:  # pragma: no cover
        return _write_plain, 0
    return dumps, OPT_PASSTHROUGH_SUBCLASS


#: The format classes whose single texts msgspec reads faster than the row's reader: a UUID's
#: builds the value in Python steps (the date and time readers are C already).
_READ_ONE_BY_MSGSPEC: Final = frozenset({uuid.UUID})


def _one_reader(row: FormatType[Any]) -> Callable[[str], Any]:
    """The reader of one text of *row*'s layout: the row's, or msgspec's where it is faster.

    msgspec's reads the text quoted as a JSON string. Within the layout (a UUID's 36 characters,
    hyphens in place) it reads exactly the row's values and raises `ValueError` where the row's
    reader does: anything that is not a hexadecimal digit (a quote, a backslash, a control or a
    non-ASCII character included) leaves no valid UUID, and a lone surrogate cannot be encoded.
    Bound with the first text, as the list reader is (msgspec is imported then).
    """
    if row.cls not in _READ_ONE_BY_MSGSPEC:
        return row.read
    decode: Callable[[bytes], Any] | None = None

    def read(text: str) -> Any:
        nonlocal decode
        if decode is None:
            try:
                import msgspec
            except ImportError:  # pragma: no cover - a dependency; the row's reader without it
                return row.read(text)
            decode = msgspec.json.Decoder(row.cls).decode
        return decode(b'"%s"' % text.encode())

    return read


def _structure_hooks(row: FormatType[Any]) -> Callable[[Any], Any]:
    """The structuring hook of *row*'s values, with its list function attached."""
    read = _one_reader(row)
    namespace: dict[str, Any] = {
        **LAYOUT_NAMES,
        "Reject": Reject,
        "read": read,
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
    last: list[tuple[object, int]] = [_NOTHING_READ]
    read_all = _list_reader(row, last)
    one_by_one = each

    def read_each(values: list[Any]) -> list[Any]:
        found = read_all(values)
        return one_by_one(values) if found is None else found

    def colons(values: list[Any]) -> int:
        # The list the reader read last, unchanged since (only the fast path asks, about the
        # list orjson made and the hook read just before): its colons were counted then.
        seen, count = last[0]
        if seen is values:
            last[0] = _NOTHING_READ  # not kept alive longer than the call
            return count
        return joined_colons(values)

    return with_inline_form(structure, InlineForm(layout, read, LAYOUT_NAMES, read_each, colons))


#: What the list reader of a format has read last, when nothing: no list is None.
_NOTHING_READ: Final[tuple[object, int]] = (None, 0)


def _list_reader(
    row: FormatType[Any], last: list[tuple[object, int]] | None = None
) -> Callable[[list[Any]], list[Any] | None]:
    """Read a whole list of *row*'s texts at once, with msgspec's reader of the class.

    The list is written as a JSON array (only exact strs; anything else raises), the
    row's `list_colons` looks for what msgspec reads and the grammar does not (in C passes over
    the array), and msgspec reads the array: no Python step per text. The function returns None
    (the list goes one text at a time, and the hook gives the verdict) for a list holding
    anything but strs, a text msgspec refuses (the grammar may still read a leap second), or
    any list when msgspec is not installed. msgspec is imported with the first list.

    A list read, the function puts it in *last*'s one item with its colons, which `list_colons`
    counted (after the call, that item names no other list).
    """
    check = row.list_colons
    seen: list[tuple[object, int]] = [_NOTHING_READ] if last is None else last
    # Bound with the first list: a call per list costs what binding would (a partial, a frame).
    decode: Callable[[bytes], list[Any]] | None = None
    refused: type[Exception] = Exception
    write: _Writer = _write_plain
    option = 0
    absent = False

    def read_all(values: list[Any]) -> list[Any] | None:
        nonlocal decode, refused, write, option, absent
        seen[0] = _NOTHING_READ  # a list read before and changed since is counted anew
        if decode is None:
            found = None if absent else _decoder(row)
            if found is None:
                absent = True
                return None
            decode, refused = found
            write, option = _json_writer()
        try:
            array = write(values, None, option)
        except (TypeError, ValueError):
            return None  # not strs (or a subclass), or a lone surrogate
        colons = check(array, len(values))
        if colons is None:
            return None
        try:
            read = decode(array)
        except refused:
            return None  # the hook, one text at a time, says why (or reads a leap second)
        seen[0] = (values, colons)
        return read

    return read_all


def _decoder(
    row: FormatType[Any],
) -> tuple[Callable[[bytes], list[Any]], type[Exception]] | None:
    """The reader of a JSON array of *row*'s values (msgspec's) and the error it raises on refusal.

    None when msgspec is not installed. An offset is required where the format requires one.
    """
    try:  # pragma: no cover - which branch runs depends on the environment
        import msgspec
    except ImportError:  # pragma: no cover
        return None
    item: Any = Annotated[row.cls, msgspec.Meta(tz=True)] if row.aware else row.cls
    # The type is built at run time: the checkers see only an object.
    of_items: Any = list.__class_getitem__(item)
    decode: Callable[[bytes], list[Any]] = msgspec.json.Decoder(of_items).decode
    return decode, msgspec.MsgspecError


def format_spec(row: FormatType[Any]) -> TypeSpec:
    """The spec of the format type of *row*."""
    cls, write = row.cls, row.write
    structure = _structure_hooks(row)

    def unstructure(value: Any) -> Any:
        if type(value) is not cls:
            msg = f"{safe_repr(value)} is not a {cls.__name__}"
            raise NoJSONFormError(msg)
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
