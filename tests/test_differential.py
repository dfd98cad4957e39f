"""Differential: the fast path, with its hand-over, gives exactly the exact path's outcome.

For generated tools (and a fixed set of unions of integer and float variants), valid arguments
are drawn, bent into near misses (a colon or an escaped colon in a string, an unknown key with a
colon, a number beyond 64 bits or a float standing for one, a duplicate key at any depth) and
written as JSON text in varied ways (spacing, escapes, a byte order mark, bytes, long enough to
be read by jiter), or passed as a mapping holding what a Python caller may pass (tuples, enums,
NaN, subclasses of ``str`` and ``int``, mappings other than dicts), with limits at the edge of
the input's size and depth.

On every input, the tool's pipeline (the fast path, handing over to the exact path when it cannot
vouch) and its exact path alone must give the same keyword arguments, types included, or the same
error. Plain valid arguments must be taken by the fast path itself. ``HYPOTHESIS_PROFILE=thorough``
runs many more examples.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime
import enum
import inspect
import json
import math
import types
import uuid
from collections.abc import Callable
from typing import Annotated, Any, Literal

import attrs
from annotated_types import Ge, Gt, Le, MinLen
from hypothesis import given, note, settings
from hypothesis import strategies as st

from tests.strategies.annotations import Case, cases, text
from tests.strategies.annotations import identifiers as names
from tests.strategies.formats import FORMAT_STRATEGIES, bent
from tests.strategies.toolsets import make_echo_toolset
from tests.test_fastpath import REFUSED
from tests.test_fastpath import fast_of as fast_alone
from typed_toolsets import Limits, ToolError
from typed_toolsets.call.exact import Failed
from typed_toolsets.call.proxy import ToolProxy
from typed_toolsets.types.converter import converter
from typed_toolsets.types.handover import UNIQUE_KEYS_FROM

#: Three times the profile's examples per test: these are the tests that hold the fast path.
MANY = settings(max_examples=3 * settings.default.max_examples)


# ------------------------------------------------------------------------------------- outcomes


def outcome(call: Callable[[object], object], arguments: object) -> object:
    """The keyword arguments *call* gives, or the error it refuses the arguments with."""
    checked = call(arguments)
    return checked.error if type(checked) is Failed else checked


def same(a: object, b: object) -> bool:
    """Equal values of exactly the same types, all the way down (1 is not 1.0, nor True)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        assert isinstance(b, float)
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple))
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))  # noqa: B905
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (set, frozenset)):
        assert isinstance(b, (set, frozenset))
        return a == b and sorted(map(_typed, a)) == sorted(map(_typed, b))
    if attrs.has(type(a)):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in attrs.fields(type(a)))
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    return a == b


def _typed(value: object) -> str:
    return f"{type(value).__name__}:{value!r}"


def agree(proxy: ToolProxy, arguments: object) -> object:
    """Assert the pipeline and the exact path agree on *arguments*; return the outcome."""
    pipeline = proxy._pipeline
    through = outcome(pipeline.fast, arguments)
    alone = outcome(pipeline.exact, arguments)
    note(f"fast path and hand-over: {through!r}")
    note(f"exact path alone: {alone!r}")
    if isinstance(alone, ToolError):
        assert through == alone
    else:
        assert same(through, alone)
    return alone


# ---------------------------------------------------------------------------------- the tools


class Huge(enum.IntEnum):
    ONE = 1
    HUGE = 2**70


#: Numbers where JSON text and orjson part ways: beyond 64 bits, at the edges, floats that may
#: stand for integer literals; and whole numbers past 2**53, which a float reads as a neighbour.
numbers = st.one_of(
    st.integers(-10, 10),
    # Around 2**53, where a float stops holding every whole number.
    st.integers(2**53 - 3, 2**53 + 3),
    st.integers(2**63 - 2, 2**64 + 2),
    # Odd, so that no float holds them exactly.
    st.integers(2**64, 2**200).map(lambda n: n | 1),
    st.integers(-(2**200), -(2**63) + 2).map(lambda n: n | 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e21, -1e21, 2.0**63, 2.0**64, 1.8446744073709552e19, 1e300, 2**70]),
)

#: Unions of integer and float variants: the first variant, in declared order, that matches the
#: number as written wins, whatever the form of the input.
NUMBER_CASES: tuple[Case, ...] = (
    Case(Annotated[int, Ge(0)] | float, numbers, frozenset({"number"})),
    Case(list[int] | list[float], st.lists(numbers, max_size=3), frozenset({"array"})),
    Case(
        dict[str, int] | dict[str, float],
        st.dictionaries(text, numbers, max_size=3),
        frozenset({"object"}),
    ),
    Case(int | float, numbers, frozenset({"number"})),
    Case(int | str, numbers | text, frozenset({"number", "string"})),
    Case(float | None, numbers | st.none(), frozenset({"number", "null"})),
    # `T | None` of one variant is inlined in generated code: the variant's checks behind None.
    Case(
        list[int] | None,
        st.lists(numbers, max_size=3) | st.none() | numbers,
        frozenset({"array", "null"}),
    ),
    # A list of a union keeps the items of the types the union keeps, found in one pass.
    Case(
        list[str | int | float | bool | None] | None,
        st.lists(numbers | text | st.none() | st.booleans(), max_size=6) | st.none(),
        frozenset({"array", "null"}),
    ),
    Case(
        dict[str, float] | None,
        st.dictionaries(text, numbers, max_size=3) | st.none() | st.lists(numbers, max_size=2),
        frozenset({"object", "null"}),
    ),
    Case(Annotated[float, Le(2.0**64)] | int, numbers, frozenset({"number"})),
    # A bound the float read breaks and the number sent keeps: the next variant takes it.
    Case(Annotated[float, Gt(2**53)] | int, numbers, frozenset({"number"})),
    Case(
        Annotated[set[float], MinLen(2)] | None,
        st.sets(numbers, max_size=3).map(list) | st.none(),
        frozenset({"array", "null"}),
    ),
    Case(Literal[1, 2**64, 2**70] | float, numbers, frozenset({"number"})),
    Case(Huge | float, numbers, frozenset({"number"})),
    Case(set[int] | set[float], st.sets(numbers, max_size=3).map(list), frozenset({"array"})),
    Case(tuple[int, float], st.tuples(numbers, numbers).map(list), frozenset({"array"})),
)


#: Format types, alone, in lists, in unions and in a class: texts of the formats bent at one
#: place (what the inlined layout checks and C readers must read exactly as the grammar does),
#: now and then a value of another JSON type.
_FORMAT_TEXTS = {
    kind: bent(valid) | st.sampled_from([None, 20240101, ["2024-01-01"]])
    for kind, (_, valid) in FORMAT_STRATEGIES.items()
}


@attrs.frozen
class Meeting:
    start: datetime.datetime
    day: datetime.date | None = None
    ids: list[uuid.UUID] = attrs.Factory(list)


FORMAT_CASES: tuple[Case, ...] = (
    Case(datetime.datetime, _FORMAT_TEXTS["date-time"], frozenset({"string"})),
    Case(
        list[datetime.datetime],
        st.lists(_FORMAT_TEXTS["date-time"], max_size=4),
        frozenset({"array"}),
    ),
    Case(datetime.time, _FORMAT_TEXTS["time"], frozenset({"string"})),
    Case(list[datetime.time], st.lists(_FORMAT_TEXTS["time"], max_size=4), frozenset({"array"})),
    Case(datetime.date | None, _FORMAT_TEXTS["date"], frozenset({"string", "null"})),
    Case(
        tuple[datetime.date, ...], st.lists(_FORMAT_TEXTS["date"], max_size=4), frozenset({"array"})
    ),
    Case(uuid.UUID, _FORMAT_TEXTS["uuid"], frozenset({"string"})),
    Case(list[uuid.UUID], st.lists(_FORMAT_TEXTS["uuid"], max_size=4), frozenset({"array"})),
    Case(
        Meeting,
        st.fixed_dictionaries(
            {"start": _FORMAT_TEXTS["date-time"]},
            optional={
                "day": _FORMAT_TEXTS["date"],
                "ids": st.lists(_FORMAT_TEXTS["uuid"], max_size=3),
            },
        ),
        frozenset({"object"}),
    ),
    Case(
        Meeting | None,
        st.fixed_dictionaries({"start": _FORMAT_TEXTS["date-time"]})
        | st.none()
        | st.sampled_from([[], "2024-01-01T00:00:00Z", 1]),
        frozenset({"object", "null"}),
    ),
)


@st.composite
def tools(
    draw: st.DrawFn, cases: st.SearchStrategy[Case]
) -> tuple[list[tuple[str, Case, object]], dict[str, Any]]:
    """Parameters (name, case, default) and JSON arguments for them, valid if the cases are."""
    count = draw(st.integers(0, 3))
    chosen = draw(st.lists(names, min_size=count, max_size=count, unique=True))
    params: list[tuple[str, Case, object]] = []
    arguments: dict[str, Any] = {}
    for name in chosen:
        case = draw(cases)
        default: object = inspect.Parameter.empty
        if draw(st.booleans()):
            default = _default(case, draw)
        if default is inspect.Parameter.empty or draw(st.booleans()):
            arguments[name] = _json(case, draw(case.values))
        params.append((name, case, default))
    return params, arguments


def _is_number_case(case: Case) -> bool:
    """Whether *case* draws JSON values itself (a number or a format case)."""
    return any(case is json_case for json_case in (*NUMBER_CASES, *FORMAT_CASES))


def _default(case: Case, draw: st.DrawFn) -> object:
    if _is_number_case(case):
        return None if "None" in repr(case.annotation) else inspect.Parameter.empty
    return draw(case.values)


def _json(case: Case, value: object) -> object:
    """The JSON form of a drawn value (number and format cases draw JSON values already)."""
    if _is_number_case(case):
        return value
    return converter.unstructure(value, unstructure_as=case.annotation)


def build(params: list[tuple[str, Case, object]], limits: Limits | None) -> ToolProxy:
    cls = make_echo_toolset([(n, c.annotation, d) for n, c, d in params], limits=limits)
    return cls.to_tools()[0]


def depth_of(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    if isinstance(value, (list, tuple)):
        return 1 + max(map(depth_of, value), default=0)
    return 0


@st.composite
def limits_near(draw: st.DrawFn, size: int, depth: int) -> Limits | None:
    """The default limits, or limits at (or one short of) the input's size and depth."""
    kind = draw(st.sampled_from(["default", "size", "depth"]))
    if kind == "size":
        return Limits(max_argument_bytes=max(1, size - draw(st.integers(0, 1))))
    if kind == "depth":
        return Limits(max_depth=max(1, depth - draw(st.integers(0, 1))))
    return None


# -------------------------------------------------------------------------------- bending JSON

Path = tuple[Any, ...]


def places(value: object, path: Path = ()) -> list[Path]:
    """Every place in a JSON value (the value itself first)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += places(item, (*path, index))
    return found


def at(value: Any, path: Path) -> Any:
    for segment in path:
        value = value[segment]
    return value


def replaced(value: Any, path: Path, new: object) -> Any:
    if not path:
        return new
    head, *rest = path
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], tuple(rest), new)}
    copy = list(value)
    copy[head] = replaced(value[head], tuple(rest), new)
    return copy


@st.composite
def near_misses(draw: st.DrawFn, value: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """*value*, possibly bent at one place; and whether it was left as it was."""
    kind = draw(st.sampled_from(["none", "colon", "number", "colon key", "any"]), label="near miss")
    spots = places(value)
    if kind == "colon":
        strings = [p for p in spots if isinstance(at(value, p), str)]
        if strings:
            spot = draw(st.sampled_from(strings))
            where = draw(st.integers(0, len(at(value, spot))))
            old = at(value, spot)
            return replaced(value, spot, old[:where] + ": " + old[where:]), False
    elif kind == "number":
        spot = draw(st.sampled_from(spots[1:] or spots))
        return replaced(value, spot, draw(numbers)), False
    elif kind == "colon key":
        objects = [p for p in spots if isinstance(at(value, p), dict)]
        spot = draw(st.sampled_from(objects))
        key = draw(st.sampled_from(["a:b", "url: https://x", ":", "k\\u003a"]))
        return replaced(value, spot, {**at(value, spot), key: draw(numbers | text)}), False
    elif kind == "any":
        spot = draw(st.sampled_from(spots[1:] or spots))
        return replaced(value, spot, draw(_json_values)), False
    return value, True


_json_values = st.recursive(
    st.none() | st.booleans() | numbers | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=6,
)


class Writer:
    """Writes a JSON value as text, with random spacing, escapes and duplicate members."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw
        self.plain = True  # as json.dumps writes it, every member once

    def value(self, value: object) -> str:
        if isinstance(value, dict):
            return self.object(value)
        if isinstance(value, list):
            spacer = self.draw(st.sampled_from([",", ", ", " ,\n "]))
            return "[" + spacer.join(self.value(item) for item in value) + "]"
        if isinstance(value, str):
            return self.string(value)
        return json.dumps(value)

    def object(self, value: dict[str, Any]) -> str:
        members = list(value.items())
        if members and self.draw(st.integers(0, 5)) == 0:
            # A duplicate key, with the same value or another one, anywhere in the object.
            key, original = members[self.draw(st.integers(0, len(members) - 1))]
            other = self.draw(st.sampled_from([original, None, "a: b", 2**64 + 1, [{"k": 1}]]))
            members.insert(self.draw(st.integers(0, len(members))), (key, other))
            self.plain = False
        colon = self.draw(st.sampled_from([": ", ":", " :\t"]))
        comma = self.draw(st.sampled_from([", ", ",", "\n, "]))
        written = [self.string(key) + colon + self.value(item) for key, item in members]
        return "{" + comma.join(written) + "}"

    def string(self, value: str) -> str:
        written = json.dumps(value, ensure_ascii=self.draw(st.booleans()))
        if ":" in written and self.draw(st.integers(0, 3)) == 0:
            escape = self.draw(st.sampled_from(["\\u003a", "\\u003A"]))
            written = written.replace(":", escape, self.draw(st.integers(1, 3)))
            self.plain = False
        return written


@st.composite
def texts(draw: st.DrawFn, value: dict[str, Any]) -> tuple[str | bytes, bool]:
    """*value* written as JSON text (or UTF-8 bytes); and whether it is written plainly."""
    writer = Writer(draw)
    written = writer.value(value)
    plain = writer.plain
    if draw(st.integers(0, 3)) == 0:
        # Past the length from which a text of arguments that admit no number is read by
        # jiter, which refuses repeated keys itself (the colons are not counted).
        written = written.replace("{", "{" + " " * UNIQUE_KEYS_FROM, 1)
    if draw(st.integers(0, 9)) == 0:
        written = "\ufeff" + written  # a byte order mark
        plain = False
    if draw(st.integers(0, 9)) == 0:
        # Invalid JSON, mostly: orjson's error says where it stopped, the exact path reads on.
        where = draw(st.integers(0, len(written)))
        extra = draw(st.sampled_from(["", ",", "]", '"', "x", "1e400", "9" * 400, " "]))
        written = written[:where] + extra + written[where + draw(st.integers(0, 2)) :]
        plain = False
    if draw(st.booleans()):
        return written.encode(), plain
    return written, plain


def holds_big_number(value: object) -> bool:
    """Whether a number of 2**63 or more sits anywhere in *value* (orjson may misread it)."""
    if isinstance(value, dict):
        return any(map(holds_big_number, value.values()))
    if isinstance(value, (list, tuple)):
        return any(map(holds_big_number, value))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return abs(value) >= 2**63
    return False


# ------------------------------------------------------------------------- the Python mappings


class Name(str):
    """A str subclass a caller may pass."""


class Count(int):
    """An int subclass a caller may pass."""


class Ratio(float):
    """A float subclass a caller may pass."""


class Color(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    LOW = 1


class Word(str, enum.Enum):
    ONE = "one"


@st.composite
def python_forms(draw: st.DrawFn, value: object) -> tuple[object, bool]:
    """*value* with parts a Python caller may pass instead of plain JSON; whether left plain."""
    if draw(st.integers(0, 2)) == 0:
        return value, True
    bent = value
    for _ in range(draw(st.integers(1, 3))):
        spots = places(bent)[1:]  # not the arguments object itself
        if not spots:
            break
        spot = draw(st.sampled_from(spots))
        old = at(bent, spot)
        options: list[object] = [Color.RED, Level.LOW, Word.ONE, math.nan, -math.inf]
        if isinstance(old, str):
            options += [Name(old), Word.ONE if old == "one" else Name(old)]
        if isinstance(old, int) and not isinstance(old, bool):
            options += [Count(old)] + ([Level.LOW] if old == 1 else [])
        if isinstance(old, float):
            options += [Ratio(old)]
        if isinstance(old, list):
            options += [tuple(old)]
        if isinstance(old, dict):
            options += [collections.OrderedDict(old), types.MappingProxyType(old)]
        new = draw(st.sampled_from(options))
        bent = _set_anywhere(bent, spot, new)
    return bent, False


def _set_anywhere(value: Any, path: Path, new: object) -> Any:
    """`replaced`, for values that may already hold tuples and other mappings."""
    if not path:
        return new
    head, *rest = path
    if isinstance(value, (dict, collections.OrderedDict, types.MappingProxyType)):
        copy = dict(value)
        copy[head] = _set_anywhere(value[head], tuple(rest), new)
        return copy
    items = list(value)
    items[head] = _set_anywhere(value[head], tuple(rest), new)
    return items


# ------------------------------------------------------------------------------------- tests

_generated = cases(max_leaves=3)


def _check_text(data: st.DataObject, case_strategy: st.SearchStrategy[Case]) -> None:
    params, valid = data.draw(tools(case_strategy), label="tool")
    value, unbent = data.draw(near_misses(valid))
    written, plain = data.draw(texts(value))
    note(f"arguments: {written!r}")
    raw = written.encode() if isinstance(written, str) else written
    limits = data.draw(limits_near(len(raw), depth_of(value) or 1), label="limits")
    proxy = build(params, limits)
    result = agree(proxy, written)
    taken = fast_alone(proxy)(written)
    if taken == REFUSED:
        # Straight to the validator: the same outcome as structuring the strict parse first.
        refused = outcome(lambda a: proxy._pipeline.exact(a, handover=True), written)
        assert refused == result or same(refused, result)
    if unbent and plain and not holds_big_number(value) and not isinstance(result, ToolError):
        # Plain valid arguments, colons in strings or not: the fast path takes them itself.
        assert type(taken) is dict


@MANY
@given(st.data())
def test_texts_of_generated_tools(data: st.DataObject) -> None:
    _check_text(data, _generated)


@MANY
@given(st.data())
def test_texts_of_unions_of_integer_and_float_variants(data: st.DataObject) -> None:
    _check_text(data, st.sampled_from(NUMBER_CASES))


@MANY
@given(st.data())
def test_texts_of_format_types_bent_at_one_place(data: st.DataObject) -> None:
    _check_text(data, st.sampled_from(FORMAT_CASES))


def _check_mapping(data: st.DataObject, case_strategy: st.SearchStrategy[Case]) -> None:
    params, valid = data.draw(tools(case_strategy), label="tool")
    value, unbent = data.draw(near_misses(valid))
    mapping, plain = data.draw(python_forms(value))
    note(f"arguments: {mapping!r}")
    compact = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
    limits = data.draw(limits_near(len(compact), depth_of(value) or 1), label="limits")
    proxy = build(params, limits)
    result = agree(proxy, mapping)
    # orjson may write a float a byte shorter than Python's json: near the limit, the fast path
    # leaves the measuring to the exact path.
    near_the_limit = limits is not None and limits.max_argument_bytes < 2 * len(compact)
    accepted = not isinstance(result, ToolError)
    if unbent and plain and accepted and not near_the_limit and not holds_big_number(value):
        taken = fast_alone(proxy)(mapping)
        assert type(taken) is dict
        assert not any(item is taken_item for item, taken_item in _pairs(mapping, taken))


def _pairs(given: object, taken: object) -> list[tuple[object, object]]:
    """The containers of the input beside the values the method gets: never the same object."""
    if isinstance(given, dict) and isinstance(taken, dict):
        return [(given[k], taken[k]) for k in given if k in taken and isinstance(given[k], list)]
    return []


@MANY
@given(st.data())
def test_mappings_of_generated_tools(data: st.DataObject) -> None:
    _check_mapping(data, _generated)


@MANY
@given(st.data())
def test_mappings_of_unions_of_integer_and_float_variants(data: st.DataObject) -> None:
    _check_mapping(data, st.sampled_from(NUMBER_CASES))


@MANY
@given(st.data())
def test_mappings_of_format_types_bent_at_one_place(data: st.DataObject) -> None:
    _check_mapping(data, st.sampled_from(FORMAT_CASES))
