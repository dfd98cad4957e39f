r"""What the fast path tells the exact path about arguments it hands over (a `Handover`).

Arguments that orjson read but that did not structure are handed over with what the exact path
needs to know, so that it does no work twice: it skips structuring them again, and it skips its
own strict parsing too when orjson's reading is the one it would make (`strict_reading`: when it
nests no deeper than the limit, a dict's copy always is; a text's is when also no member was
dropped, by the colon count of `typed_toolsets.types.fastpath`, and no integer became a float:
orjson reads one past 64 bits as a float and writes that with an exponent of at least ``e+18``,
so only when its writing holds an ``e+`` are the text's literals checked, none having 19 digits
or more; a long text whose values are only strings, integers, booleans and null holds no float,
and its strings' colons are counted instead of its writing's; jiter's reading, which refuses
repeated keys, is when it holds no number the strict parser refuses and nests no deeper than the
limit: `reads_alike`). Otherwise the exact path parses the text strictly (and reports what that
refuses), then lets its checker decide. Handing over from inside the generated code keeps "fast
path once, then exact path" in one place, at the cost of one call.

A text orjson found invalid is handed over with orjson's error, whose position tells the exact
path where orjson stopped: orjson refuses a number whose value is no finite float where it reads
it, so the exact path's parser reads the numbers before it with its own C number reading, and
only those after it are looked for long literals. A long text that does not end in ``}`` (then
whitespace) is no JSON object, and most often a model's output cut off: orjson's error on it would
walk the text to count its lines, so the fast path reads it with the brace added instead (by
jiter when it is installed: `cut_short`): when that is an object with members, read as the strict
parser would read it, the exact path is handed that parser's own error (`CutShort`), which it
reports without reading the text again; else nothing.
The exact path returns its verdict on refused arguments rather than raising it (it raises no
`Exception`), so a handover from inside the structuring ``try`` returns through it.

orjson is optional: without it there is no fast path, and nothing is handed over.
"""

from __future__ import annotations

import itertools
import json
import math
import operator
import typing
from collections.abc import Callable, Iterable
from math import isfinite
from typing import Any, AnyStr, Final, TypeAlias, TypeVar

from .brackets import depth_over
from .typespec import LONG_INT

__all__ = [
    "UNIQUE_KEYS",
    "UNIQUE_KEYS_FROM",
    "UNIQUE_KEYS_OPTIONS",
    "CutShort",
    "Handover",
    "Oversized",
    "cut_short",
    "exponents",
    "reads_alike",
    "strict_reading",
    "unique_keys_reader",
]

orjson_loads: Callable[[bytes | str], Any] | None
_dumps: Callable[..., bytes]
try:  # pragma: no cover - which branch runs depends on the environment
    from orjson import (
        OPT_PASSTHROUGH_DATACLASS,
        OPT_PASSTHROUGH_DATETIME,
        OPT_PASSTHROUGH_SUBCLASS,
    )
    from orjson import JSONDecodeError as _Invalid
    from orjson import dumps as _dumps
    from orjson import loads as orjson_loads

    # What orjson would write in a form of its own (a date, a dataclass, a subclass of a JSON
    # type) it refuses instead, so the exact path names it or copies it.
    _plain_only = OPT_PASSTHROUGH_DATACLASS | OPT_PASSTHROUGH_DATETIME | OPT_PASSTHROUGH_SUBCLASS
    orjson_names: dict[str, object] = {
        "loads": orjson_loads,
        "dumps": _dumps,
        "plain_only": _plain_only,
        "invalid": _Invalid,
    }
except ImportError:  # pragma: no cover
    orjson_loads = None
    _plain_only = 0
    orjson_names = {}  # no fast path is built

_C = TypeVar("_C")


@typing.final
class UNIQUE_KEYS:  # noqa: N801 - a marker, compared by identity as the types it stands beside
    """The ``kind`` of arguments read by jiter, which refuses repeated keys (`unique_keys_reader`).

    The fast path structures such a reading without counting colons; when it refuses them, it
    hands them over with this kind, and `strict_reading` checks what jiter reads differently.
    """


def unique_keys_reader() -> Callable[..., Any] | None:
    """Jiter's ``from_json``, or None when jiter is not installed (imported once, on first use).

    Called with ``catch_duplicate_keys=True`` and ``allow_inf_nan=False``, it refuses what the
    strict parser refuses (repeated keys however escaped, lone surrogates, ``NaN``, a byte order
    mark), except numbers: a literal past a float's range reads as an infinity, and integers of
    more digits than the strict parser takes are read when the interpreter's own limit allows
    them. `reads_alike` looks for those.
    """
    found = _found_unique
    if not found:
        try:
            from jiter import from_json
        except ImportError:  # pragma: no cover - jiter is a dependency; only its speed is lost
            found.append(None)
        else:
            found.append(from_json)
    return found[0]


_found_unique: list[Callable[..., Any] | None] = []


#: Up to this many members at every level together, `reads_alike` looks at them one by one.
_FEW_MEMBERS: Final = 16
_LEAST_INT: Final = -LONG_INT
#: JSON values the strict parser reads as jiter does, whatever they hold.
_NO_NUMBER_SCALARS: Final = frozenset({str, bool, type(None)})


def reads_alike(value: dict[str, object], max_depth: int) -> bool:
    """Whether the strict parser reads the text of jiter's *value* as *value*, within the depth.

    It does unless the value holds an infinite float or an integer of more than
    `typed_toolsets.types.typespec.MAX_INT_DIGITS` digits (which it refuses), or nests deeper
    than *max_depth* (the exact path says how deep). Level by level, as `too_deep` walks, each
    level's numbers looked at in C passes; but a value of few members in all is looked at one
    member after another (the passes' fixed cost is several times a few members' steps).
    """
    if max_depth <= 0:
        return False
    few = _few_alike(value, max_depth)
    if few is not None:
        return few
    if set(map(type, value.values())) <= _NO_NUMBER_SCALARS:
        return True  # strings, booleans and nulls only: one level, nothing to look at
    objects: list[dict[str, object]] = [value]
    arrays: list[list[object]] = []
    for _ in range(max_depth):
        members: list[object] = [
            *itertools.chain.from_iterable(map(_object_values, objects)),
            *itertools.chain.from_iterable(arrays),
        ]
        types = list(map(type, members))
        if types.count(float) and not all(map(math.isfinite, _of_type(members, types, float))):
            return False
        if types.count(int):
            ints = _of_type(members, types, int)
            if max(ints) >= LONG_INT or min(ints) <= -LONG_INT:
                return False
        objects = _of_type(members, types, dict)
        arrays = _of_type(members, types, list)
        if not objects and not arrays:
            return True
    return False


def _few_alike(value: dict[str, object], max_depth: int) -> bool | None:
    """`reads_alike` for a value of at most `_FEW_MEMBERS` members in all, else None."""
    left = _FEW_MEMBERS - len(value)
    if left < 0:
        return None
    # Items are Any: a cast is a call, several times a comparison's cost.
    containers: list[tuple[Iterable[Any], int]] = [(value.values(), 1)]
    while containers:
        members, level = containers.pop()
        for item in members:
            kind = type(item)  # pyright: ignore[reportUnknownVariableType] - item is Any, for speed
            if kind is int:
                if not _LEAST_INT < item < LONG_INT:
                    return False
            elif kind is float:
                if not isfinite(item):
                    return False
            elif kind is dict or kind is list:
                if level >= max_depth:
                    return False  # it nests one level deeper than the limit
                left -= len(item)
                if left < 0:
                    return None
                containers.append((item.values() if kind is dict else item, level + 1))
    return True


#: What the fast path tells the exact path about arguments: nothing (False), that they parsed but
#: did not structure (True), or also their reading, the same as strict parsing gives (a dict); or,
#: for JSON text (a str) orjson found invalid, its error, which says where it stopped reading, or
#: for an object's text cut before its closing brace, the strict parser's own error (`CutShort`).
Handover: TypeAlias = "bool | dict[str, object] | json.JSONDecodeError | CutShort | Oversized"


# An object's values, as a function of the object (in C).
_object_values: Final[Callable[[dict[str, object]], Iterable[object]]] = dict[str, object].values


def too_deep(value: object, max_depth: int) -> bool:
    """Whether a parsed JSON value nests deeper than *max_depth* (the value itself is level 1).

    Level by level, without recursion: each level's members are listed, and its objects and
    arrays picked out, by C passes (a type's count is a pointer comparison per member of it).
    """
    objects: list[dict[str, object]] = []
    arrays: list[list[object]] = []
    if type(value) is dict:
        objects.append(typing.cast("dict[str, object]", value))
    else:
        arrays.append(typing.cast("list[object]", value))
    for _ in range(max_depth):
        members: list[object] = [
            *itertools.chain.from_iterable(map(_object_values, objects)),
            *itertools.chain.from_iterable(arrays),
        ]
        types = list(map(type, members))
        objects = _of_type(members, types, dict)
        arrays = _of_type(members, types, list)
        if not objects and not arrays:
            return False
    return True


def nests_deeper(text: str | bytes, value: object, max_depth: int, opened: int) -> bool:
    """Whether *value*, read from *text* with *opened* opening brackets, nests past *max_depth*.

    Walking the value (`too_deep`) costs a Python step per object or array; measuring the text
    (`typed_toolsets.types.brackets`) passes over its bytes in C. A text whose brackets make up
    more than one byte in `_DENSE` is measured (a megabyte of nested arrays: 20 ms, against
    0.3 s to walk); one of few containers, most of it strings, is walked. Either says what the
    exact path says: the text's depth, unless a member was dropped (a repeated key), which the
    exact path reads again whatever this says.
    """
    if opened > _MANY_CONTAINERS and opened * _DENSE > len(text):
        return depth_over(text, max_depth, opened) is not None
    return too_deep(value, max_depth)


#: A text with more opening brackets than this may be measured rather than walked (see
#: `nests_deeper`); below it, walking costs at most about a millisecond.
_MANY_CONTAINERS: Final = 4096
_DENSE: Final = 16


def _of_type(members: list[object], types: list[type], kind: type[_C]) -> list[_C]:
    """The *members* whose type (in *types*, in the same order) is exactly *kind*."""
    if not types.count(kind):
        return []
    chosen = itertools.compress(members, map(operator.is_, types, itertools.repeat(kind)))
    return typing.cast("list[_C]", list(chosen))


# From this length on, a text's colons are found one by one with ``find``, which skips to the
# next at memchr speed, rather than counted by ``count``, which looks at every character (about
# 30 times slower per byte, but a ``find`` call costs as much as ``count`` over ~200 characters).
# Once more than `_FEW` plus one per 256 characters have been found, the text is dense in them
# and the rest is counted in one pass: the cost stays within about twice ``count``'s.
LONG: Final = 4096
_FEW: Final = 16
MARKS: Final = ("\\", "3", "\\u003")
ESCAPES: Final = ("\\u003a", "\\u003A")
BYTE_MARKS: Final = (b"\\", b"3", b"\\u003")
BYTE_ESCAPES: Final = (b"\\u003a", b"\\u003A")


def count_char(text: AnyStr, char: AnyStr) -> int:
    """How many times *char* (one character) occurs in *text*."""
    if len(text) < LONG:
        return text.count(char)
    found = 0
    at = text.find(char)
    while at >= 0:
        found += 1
        if found > _FEW + (at >> 8):
            return found + text.count(char, at + 1)
        at = text.find(char, at + 1)
    return found


def escaped_colon(
    text: AnyStr, marks: tuple[AnyStr, AnyStr, AnyStr], escapes: tuple[AnyStr, AnyStr]
) -> bool:
    r"""Whether *text* holds ``\u003a`` or ``\u003A`` (*escapes*).

    *marks* are a backslash, a ``3`` and ``\u003`` (of the text's type).

    Most texts have no backslash at all, which one ``find`` shows. In a long text, each ``3``
    after the first backslash is looked at while they are few (as `count_char` finds colons);
    otherwise the text is searched for ``\u003`` in one pass.
    """
    backslash, three, prefix = marks
    at = text.find(backslash)
    if at < 0:
        return False
    start = at
    if len(text) >= LONG:
        seen = 0
        at = text.find(three, at + 4)  # an escape's 3 comes four characters after its backslash
        while at >= 0:
            if text[at - 4 : at + 2] in escapes:
                return True
            seen += 1
            if seen > _FEW + (at >> 8):
                break
            at = text.find(three, at + 1)
        else:
            return False
        start = at - 3
    at = text.find(prefix, start)
    while at >= 0:
        if text[at : at + 6] in escapes:
            return True
        at = text.find(prefix, at + 1)
    return False


#: The Python types of plain JSON values as orjson reads them (no float, no container).
FLAT_TYPES: Final = frozenset({str, int, bool, type(None)})

# Digits as "0", everything else as " ": a run of digits becomes a run of "0" bytes.
_DIGITS: Final = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))
# orjson reads an integer literal beyond 64 bits as a float; every one has 19 digits or more.
_LONG_DIGITS: Final = b"0" * 19
_LONG_DIGITS_SIZE: Final = len(_LONG_DIGITS)
#: Texts up to this long are written back by orjson rather than looked at value by value.
_WRITTEN_BACK: Final = 256
#: How orjson writes the exponent of every float of 1e16 or more.
_EXPONENT: Final = b"e+"
# ``in`` with a bytes needle first tries it as an integer (an exception raised and cleared:
# 0.12 us): a byte is looked for by its number (memchr), a longer needle with ``find``.
_PLUS: Final = ord("+")
_BACKSLASH: Final = ord("\\")
_BRACKET: Final = ord("[")


# Digits as "0", "e" as itself, everything else as " ": an exponent's "e" follows a "0".
_EXPONENT_MARKS: Final = bytes(
    48 if 48 <= byte <= 57 else byte if byte == 101 else 32 for byte in range(256)
)


def exponents(written: bytes) -> int:
    """At most how many floats orjson's *written* text holds in exponent form (one pass in C).

    orjson writes an exponent's ``e`` right after a digit, and Python's json writes such a float
    one byte longer (``1e+16``, ``1e-07``): the bound on how much longer its whole text is. An
    ``e`` after a digit in a key or a string is counted too; the ``e`` of ``true``, ``false`` or
    a word is not (counting every ``e`` sent a dict near the limit on a walk of all its values).
    """
    return written.translate(_EXPONENT_MARKS).count(b"0e")


def _long_literal(text: str | bytes) -> bool:
    """Whether *text* holds a run of `_LONG_DIGITS` digits (one pass in C)."""
    data = text.encode() if isinstance(text, str) else text
    return data.translate(_DIGITS).find(_LONG_DIGITS) >= 0


def strict_reading(
    kind: type, text: str | bytes, value: dict[str, object], max_depth: int
) -> Handover:
    """What the exact path is told about arguments that orjson read but that did not structure.

    Args:
        kind: The type of the arguments: ``str``, ``bytes`` or ``dict``.
        text: Their JSON text (for a dict, orjson's writing of it).
        value: orjson's reading of *text*.
        max_depth: The deepest nesting accepted (arguments the types cannot nest deeper are
            not measured before structuring, but refused ones can be anything).

    Returns:
        *value*, when the exact path's own reading would be equal (see the module docstring),
        else True (they did not structure; the exact path reads them itself).
    """
    try:
        if kind is UNIQUE_KEYS:
            # No member dropped (jiter refuses a repeated key) and no integer read as a float.
            return value if reads_alike(value, max_depth) else True
        size = len(text)
        colons, flat = 0, False
        if kind is not dict:
            # A colon is one byte in UTF-8 (no other character's bytes hold one): a text is
            # counted as it is, without encoding it.
            if isinstance(text, str):
                if "\\" in text and escaped_colon(text, MARKS, ESCAPES):
                    return True
                colons = text.count(":") if size < LONG else count_char(text, ":")
            else:
                if _BACKSLASH in text and escaped_colon(text, BYTE_MARKS, BYTE_ESCAPES):
                    return True
                colons = text.count(b":") if size < LONG else count_char(text, b":")
            if size < _LONG_DIGITS_SIZE and colons == len(value) and size <= 2 * max_depth:
                # The usual small refusal (``{"text": 5}``), as the checks below find it: no
                # member dropped, no long literal, too short to nest too deep (40 ns less).
                return value
            # Every member of the text, and every colon in its strings, takes one of its colons:
            # as many as the top-level members leaves none for another member, so none was
            # dropped. Then only a literal of 19 digits or more needs looking for.
            flat = size > _WRITTEN_BACK and set(map(type, value.values())) <= FLAT_TYPES
            if flat:
                # No float (so no literal became one) and no object below: the colons of the
                # strings are all the text's colons besides the members' own (unless a key has
                # one). Counted in the strings, rather than in orjson's writing of the value, a
                # long text is passed over once less and not written at all.
                members = len(value)
                if colons != members:
                    for item in value.values():
                        if type(item) is str:
                            members += (
                                item.count(":") if len(item) < LONG else count_char(item, ":")
                            )
                if colons == members:
                    return value  # no member dropped and none nested: one level deep
        # Fewer brackets than the limit cannot nest too deep: a text too short to hold that many
        # pairs is not measured at all.
        # An array is looked for first (memchr) and counted only when found: most arguments
        # hold none, and a count passes over every character (0.1 us over 160 characters).
        if size > 2 * max_depth:
            if isinstance(text, str):
                opened = text.count("{") + (text.count("[") if "[" in text else 0)
            else:
                opened = text.count(b"{") + (text.count(b"[") if _BRACKET in text else 0)
            if opened > max_depth and nests_deeper(text, value, max_depth, opened):
                return True  # the exact path says how deep
        if kind is dict:
            return value  # equal to the dict, which the fast path checked
        if colons == len(value) and (
            size < _LONG_DIGITS_SIZE or (not flat and not _long_literal(text))
        ):
            return value
        written = _dumps(value)
        if colons != (written.count(b":") if len(written) < LONG else count_char(written, b":")):
            return True  # a member was dropped
        # An integer orjson read as a float is past 64 bits, so orjson writes it with an
        # exponent of at least ``e+18``: without an "e+" in the writing (a "+" alone is common in
        # code and prose), no literal needs counting. Most writings have no "+" at all, which
        # memchr shows (0.02 us over 150 bytes, against 0.15 us to look for "e+").
        if _PLUS in written and written.find(_EXPONENT) >= 0 and _long_literal(text):
            return True
    except Exception:  # noqa: BLE001 - whatever it was, the exact path reads the text itself
        return True
    return value


@typing.final
class Oversized:
    """orjson's writing of a dict (the fast path's, for its size) that is over the byte limit.

    Handed over so the exact path can refuse it without walking it in Python (see
    `typed_toolsets.call.jsonvalues.size_refusal`): a walk of a few megabytes took a second.

    Attributes:
        written: orjson's compact text of the dict.
    """

    __slots__ = ("written",)

    def __init__(self, written: bytes) -> None:
        self.written = written


@typing.final
class CutShort:
    """Python's strict parser's own error for an object's text missing only its closing brace.

    The fast path hands it over (`cut_short`) in place of reading the text again: that parser
    would read it to its end and stop there, expecting a comma. Not raised, so no exception: a
    `json.JSONDecodeError` counts the text's lines as it is made (2 us over 2 KB), this record
    only when it is written.

    Attributes:
        msg: The parser's message, without the position.
        doc: The text.
        pos: Where the parser stopped: the text's end.
    """

    __slots__ = ("doc", "msg", "pos")

    def __init__(self, msg: str, doc: str, pos: int) -> None:
        self.msg = msg
        self.doc = doc
        self.pos = pos

    @property
    def lineno(self) -> int:
        """The line of the position, from 1, as `json.JSONDecodeError` counts it."""
        return self.doc.count("\n", 0, self.pos) + 1

    @property
    def colno(self) -> int:
        """The column of the position, from 1, as `json.JSONDecodeError` counts it."""
        return self.pos - self.doc.rfind("\n", 0, self.pos)

    def __str__(self) -> str:
        """The parser's message with its position, as `json.JSONDecodeError` writes it."""
        pos = self.pos
        if "\n" not in self.doc:  # one line (most texts are compact): nothing to count
            return f"{self.msg}: line 1 column {pos + 1} (char {pos})"
        return f"{self.msg}: line {self.lineno} column {self.colno} (char {pos})"


#: What Python's parser says at the end of an object's text whose last member is complete.
_EXPECTING_COMMA: Final = "Expecting ',' delimiter"


def cut_short(text: str, max_depth: int) -> Handover:
    """What the exact path is told about a JSON text that does not end as an object's does.

    When orjson reads the text with a ``}`` added as an object with members, and that reading is
    the one Python's strict parser would make of it (`strict_reading`: no member dropped, so no
    object inside hidden by a repeated key, no integer read as a float, not nested too deep),
    that parser reads the text itself without a complaint up to its end, where it expects a
    comma or the brace: its error is that, at the text's end, said in its words (`CutShort`).
    Else nothing (False): the exact path parses the text.

    Args:
        text: The text (it has a character).
        max_depth: The deepest nesting accepted (a text nested deeper is the limit's error).
    """
    whole = text + "}"
    unique = unique_keys_reader() if len(whole) > UNIQUE_KEYS_FROM else None
    try:
        if unique is not None:
            # Read by jiter, a repeated key is refused rather than looked for by counting.
            value = unique(whole.encode(), **UNIQUE_KEYS_OPTIONS)
        else:
            value = typing.cast("Callable[[str], object]", orjson_loads)(whole)
    except Exception:  # noqa: BLE001 - not an object cut short: the exact path says what it is
        return False
    if type(value) is not dict:
        return False
    members = typing.cast("dict[str, object]", value)
    if not members:
        return False  # "{" alone expects a key
    kind = str if unique is None else UNIQUE_KEYS
    if strict_reading(kind, whole, members, max_depth) is not members:
        return False
    return CutShort(_EXPECTING_COMMA, text, len(text))


#: From this length on, a text whose values jiter can read is read by it (see
#: `typed_toolsets.types.fastpath`): the colons of a long text cost more to count than jiter's
#: look for repeated keys.
UNIQUE_KEYS_FROM: Final = 256
#: How jiter is asked to read arguments (the key strings are shared, from jiter's own cache).
UNIQUE_KEYS_OPTIONS: Final[dict[str, Any]] = {
    "catch_duplicate_keys": True,
    "allow_inf_nan": False,
    "cache_mode": "keys",
}
