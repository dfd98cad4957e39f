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

import functools
import itertools
import re
from collections.abc import Callable
from typing import Any, Final

from typed_toolsets.rules.formats import BY_CLASS, LAYOUT_NAMES, Columns, FormatType
from typed_toolsets.rules.shapes import Shape

from .gen import InlineForm, compile_function, with_inline_form
from .items import all_of
from .registry import Builder, Describer, Rule
from .typespec import Reject, TypeSpec, joined_colons

__all__ = ["FORMAT_RULES", "format_spec"]


def _write_plain(values: list[Any]) -> bytes:
    """*values* as a compact JSON array (UTF-8), as orjson writes it, when all are exactly strs.

    Without orjson: the standard library's writer takes a subclass of str for a str.
    """
    import json  # only without orjson

    if not all_of(values, str):
        raise TypeError
    return json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode()


def _first_write(values: list[Any]) -> bytes:
    """*values* as a compact JSON array (UTF-8), exact strs only; binds `_write` the first time.

    orjson is imported on first use (as the fast path imports it with the first proxy), not
    with the module.
    """
    global _write  # bound once, on first use
    try:  # pragma: no cover - which branch runs depends on the environment
        from orjson import OPT_PASSTHROUGH_SUBCLASS, dumps

        # A subclass of str (which the hooks refuse) is refused too, not written as a str.
        _write = functools.partial(dumps, option=OPT_PASSTHROUGH_SUBCLASS)
    except ImportError:  # pragma: no cover
        _write = _write_plain
    return _write(values)


_write: Callable[[list[Any]], bytes] = _first_write


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
    last: list[tuple[object, int | bytes]] = [_NOTHING_READ]
    read_all = _column_reader(row, last)
    if read_all is None:
        return with_inline_form(structure, InlineForm(layout, row.read, LAYOUT_NAMES, each))
    one_by_one = each

    def read_each(values: list[Any]) -> list[Any]:
        found = read_all(values)
        return one_by_one(values) if found is None else found

    def colons(values: list[Any]) -> int:
        # The list the columns read last, unchanged since (only the fast path asks, about the
        # list orjson made and the hook read just before): its colons are its spellings'.
        seen, count = last[0]
        if seen is values:
            last[0] = _NOTHING_READ  # not kept alive longer than the call
            return count if isinstance(count, int) else count.count(b":")
        return joined_colons(values)

    return with_inline_form(
        structure, InlineForm(layout, row.read, LAYOUT_NAMES, read_each, colons)
    )


#: What the column reader of a format has read last, when nothing: no list is None.
_NOTHING_READ: Final[tuple[object, int | bytes]] = (None, 0)


def _column_reader(
    row: FormatType[Any], last: list[tuple[object, int | bytes]] | None = None
) -> Callable[[list[Any]], list[Any] | None] | None:
    """Read a whole list of *row*'s texts with its reader alone, checking their columns in C.

    The list is written as JSON (`_write`: only exact strs, and anything that needs escaping
    shows a backslash). A list of one length (as long as its first text, the array as long as
    that many of them quoted, ASCII, no backslash) is checked a column at a time, sliced out of
    the array: each text's two quotes (they then hold all of the array's: each text is one of
    the list's), the places the columns fix (compared with their character repeated, a memcmp)
    and those allowing a few (stripped of them). Any other list is translated byte by byte to
    classes (`_Shapes`): it is one of texts of the columns' spellings exactly when the
    translation is a JSON array of those spellings' shapes (split at its ``","``, which no
    shape holds, and looked up in the set of them). Then the reader reads them all.
    No Python step per text: the function returns None (the list goes one text at a time) for a
    list holding anything else, a text of another layout, or a text the reader refuses.

    A list read, the function puts it in *last*'s one item with its colons: its spelling's
    times its size for a list of one length, else the shapes (bytes), whose colons are the
    texts' (after the call, that item names no other list).
    """
    if not row.columns:
        return None
    read, read_joined = row.read, row.read_joined
    shapes = _Shapes(row.columns, row.free)
    fine, of_length, every = shapes.fine, shapes.of_length, shapes.every
    # Each pair is looked for by the regular expression engine: its search for a literal prefix
    # is twice as fast as ``bytes.__contains__`` here, where the pair's last byte (`_HIGH`, a
    # digit from 6) is in nearly every text.
    pairs = tuple(re.compile(re.escape(pair)).search for pair in shapes.pairs)
    colons = shapes.colons
    if last is None:
        last = [_NOTHING_READ]
    seen = last

    def read_all(values: list[Any]) -> list[Any] | None:
        seen[0] = _NOTHING_READ  # a list read before and changed since is counted anew
        size = len(values)
        try:
            data = _write(values)
            first = values[0]
        except (TypeError, ValueError, IndexError):
            return None  # not strs (or a subclass), a lone surrogate, or no text at all
        length = len(first) if type(first) is str else -1
        stride = length + 3  # the text, its quotes and a comma
        places = of_length.get(length)
        if (
            places is not None
            and len(data) == size * stride + 1
            and data.isascii()
            and b"\\" not in data
        ):
            # As many bytes as texts of the first one's length, each quoted. No quote is
            # escaped, so the array's quotes are 2 a string and all 2 * size of them are in the
            # columns of each text's two quotes: each text is one of these, a column at a time.
            quotes = b'"' * size
            if data[1::stride] == quotes and data[stride - 1 :: stride] == quotes:
                for place, char, allowed in places:
                    column = data[place::stride]
                    if column != char * size if allowed is None else column.strip(allowed):
                        break
                else:
                    found = _read(read, read_joined, values)
                    if found is not None:
                        seen[0] = (values, size * colons[length])
                    return found
        # Mixed lengths (or signs): a high digit after a colon (a narrow place) leaves; then the
        # digits are one class, and the texts (split at the quoted commas, which no shape
        # holds) must all have a spelling's shape.
        coarse = data.translate(fine)
        if pairs:
            for pair_in in pairs:
                if pair_in(coarse) is not None:
                    return None
            coarse = coarse.replace(_HIGH, _FREE)
        if coarse[:2] != b'["' or coarse[-2:] != b'"]':
            return None
        if not every.issuperset(coarse[2:-2].split(b'","')):
            return None
        found = _read(read, read_joined, values)
        if found is not None:
            seen[0] = (values, coarse)  # the colons of its shapes, counted when asked
        return found

    return read_all


#: The classes of bytes in a shape (`_Shapes`): a free place's character (a narrow place's
#: allowed ones, in the finer translation), a free character a narrow place does not allow, and
#: a character no shape holds.
_FREE: Final = b"0"
_HIGH: Final = b"6"
_OTHER: Final = b"?"
#: The JSON array's own characters, which every translation keeps.
_JSON_MARKS: Final = b'"[],'


class _Shapes:
    """The columns' places in a JSON array, and the shapes of their spellings as byte classes.

    A place the columns leave free holds one of the row's *free* characters (any other, the
    reader would refuse anyway); so does a place whose allowed characters are some of them (a
    narrow place: the minutes of an offset), which is checked on its own. The other characters
    the columns allow, and the JSON array's marks, are their own classes; every other byte is
    one class no shape holds.

    Attributes:
        fine: The translation of a byte to its class, with the free characters a narrow place
            does not allow as `_HIGH`.
        of_length: By text length, the columns' places as offsets in a JSON array's first
            text (each further text is ``length + 3`` bytes on): a fixed place with its
            character and None, another with b"" and the characters it allows.
        every: Every spelling's shape.
        colons: By text length, the colons of its spellings.
        pairs: The fixed character before a narrow place, then `_HIGH`: in the finer
            translation, a text holding one has a narrow place (or a place after that character
            a grammar's range check refuses) the columns do not allow.
    """

    __slots__ = ("colons", "every", "fine", "of_length", "pairs")

    def __init__(self, columns: Columns, free: bytes) -> None:
        kept = set(_JSON_MARKS)
        narrow: dict[int, tuple[tuple[int, bytes], ...]] = {}
        shapes: dict[int, frozenset[bytes]] = {}
        pairs: set[bytes] = set()
        narrowed: set[int] = set()
        for length, places in columns.items():
            by_place = dict(places)
            narrow[length] = tuple(
                (place, allowed) for place, allowed in places if set(allowed) < set(free)
            )
            for place, allowed in narrow[length]:
                before = by_place.get(place - 1, b"")
                if len(before) != 1:
                    msg = f"a narrow place {place} follows no fixed character"
                    raise ValueError(msg)
                pairs.add(before + _HIGH)
                narrowed.update(allowed)
            classes: list[list[bytes]] = []
            for place in range(length):
                allowed = by_place.get(place, free)
                if set(allowed) <= set(free):
                    classes.append([_FREE])
                elif set(allowed).isdisjoint(free):
                    kept.update(allowed)
                    classes.append([bytes([char]) for char in allowed])
                else:
                    msg = f"place {place} allows some free characters and others"
                    raise ValueError(msg)
            shapes[length] = frozenset(map(b"".join, itertools.product(*classes)))
        if kept & set(free) or kept & set(_FREE + _HIGH + _OTHER):
            msg = "a kept character is also a class"
            raise ValueError(msg)
        self.fine = bytes(
            (_FREE[0] if not narrowed or byte in narrowed else _HIGH[0])
            if byte in free
            else byte
            if byte in kept
            else _OTHER[0]
            for byte in range(256)
        )
        # A text's place is 2 on in the array: after its bracket and its opening quote.
        self.of_length: Final = {
            length: tuple(
                (place + 2, allowed, None) if len(allowed) == 1 else (place + 2, b"", allowed)
                for place, allowed in places
            )
            for length, places in columns.items()
        }
        self.colons: Final = {
            length: sum(allowed == b":" for _, allowed in places)
            for length, places in columns.items()
        }
        self.every: Final = frozenset(itertools.chain.from_iterable(shapes.values()))
        self.pairs: Final = tuple(sorted(pairs))


def _read(
    read: Callable[[str], Any],
    read_joined: Callable[[list[str]], list[Any]] | None,
    values: list[str],
) -> list[Any] | None:
    """The values of texts of the columns' spellings, or None when the reader refuses one."""
    try:
        return list(map(read, values)) if read_joined is None else read_joined(values)
    except ValueError:
        return None


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
