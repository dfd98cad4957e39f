"""Ambiguous unions: the shared analysis (`rules.shapes`) and the runtime's shapes.

At run time each registry rule describes its own annotations (`Rule.shape`); `RULE_SHAPES` holds
one case per built-in rule.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import typing
import uuid
from typing import Annotated, Literal, NamedTuple, NewType, Optional, Union

import annotated_types
import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from typing_extensions import NotRequired, TypeAliasType, TypedDict

from tests.strategies.annotations import Case, cases
from typed_toolsets import register_type
from typed_toolsets.analysis.ambiguity import find_ambiguity, label, shape_of
from typed_toolsets.rules import shapes
from typed_toolsets.rules.shapes import Shape, overlaps
from typed_toolsets.rules.shapes import find_ambiguity as find_shape_ambiguity
from typed_toolsets.rules.typenames import NUMBER_KINDS
from typed_toolsets.types.catalog import BUILTIN_RULES, registry
from typed_toolsets.types.typespec import Reject, Unsupported


class Color(str, enum.Enum):
    RED = "red"
    BLUE = "blue"


class Size(enum.Enum):
    SMALL = 1
    LARGE = 2.5


@attrs.define
class ByName:
    name: str
    limit: int = 10


@attrs.define
class ByLabel:
    name: str
    exact: bool = False


@attrs.define
class Cat:
    kind: Literal["cat"]
    lives: int


@attrs.define
class Dog:
    kind: Literal["dog"]
    lives: int


@attrs.define
class Node:
    value: int
    next: Node | None = None


@attrs.define
class Link:
    value: int
    next: Link | None = None


@dataclasses.dataclass
class Aliased:
    name: str


@attrs.define
class Private:
    _name: str


class NameDict(TypedDict):
    name: str
    extra: NotRequired[int]


class Point(NamedTuple):
    x: int
    y: int


class Money:
    pass


register_type(
    Money,
    schema={"type": "string"},
    structure=lambda value: Money(),
    unstructure=lambda value: "0",
)

UserId = NewType("UserId", str)
Name = TypeAliasType("Name", UserId)


AMBIGUOUS = [
    str | Color,
    Color | str,
    Optional[Union[Color, str]],  # noqa: UP007, UP045 - the typing spellings on purpose
    ByName | ByLabel,
    NameDict | ByName,
    Aliased | Private,  # both require "name" (the attrs alias drops the underscore)
    Node | Link,  # recursive classes with the same shape
    datetime.date | str,
    Literal["2024-01-01"] | datetime.date,
    Literal["a", "b"] | str,
    Literal[1] | float,
    Literal[1] | Size,
    int | Size,
    list[int] | tuple[int, int],
    list[int] | set[str],  # [] matches both
    dict[str, int] | dict[str, str],  # {} matches both
    dict[str, str] | ByName,  # {"name": "x"} matches both
    list[str | Color],
    dict[str, ByName | ByLabel],
    UserId | str,
    Money | str,
    Annotated[int, annotated_types.Ge(0)] | Size,
    # Constraints that leave a value for both: 0; 0.5; "abc"; [] (no least length).
    Annotated[int, annotated_types.Ge(0)] | Annotated[int, annotated_types.Le(0)],
    Annotated[float, annotated_types.Gt(0)] | Annotated[float, annotated_types.Lt(1)],
    Annotated[str, annotated_types.MaxLen(3)] | Annotated[str, annotated_types.MinLen(3)],
    Annotated[list[int], annotated_types.MaxLen(2)] | list[str],
    Literal[5] | Annotated[int, annotated_types.Ge(0)],
    Annotated[int, annotated_types.Interval(ge=0, lt=10)] | Annotated[int, annotated_types.Gt(8)],
]

UNAMBIGUOUS = [
    Optional[Color],  # noqa: UP045 - the typing spelling on purpose
    int | float,
    int | float | None,
    bool | int,
    Cat | Dog,
    Cat | Dog | None,
    Literal["a"] | Literal["b"],
    datetime.date | datetime.datetime | datetime.time | uuid.UUID,
    Literal["today"] | datetime.date,
    Literal[1.5] | int,
    Size | str,
    tuple[int] | tuple[int, int],
    dict[str, int] | ByName,  # ByName requires a str "name"; the mapping only has ints
    Literal[2] | Size,
    ByName | Cat,
    Point | str,
    Money | int,
    list[int],
    str,
    # Constraints that leave no value for both (the union tries its variants in order).
    Annotated[int, annotated_types.Ge(0)] | Annotated[int, annotated_types.Lt(0)],
    Annotated[int, annotated_types.Gt(0)] | Annotated[int, annotated_types.Lt(1)],  # no integer
    Annotated[str, annotated_types.MaxLen(3)] | Annotated[str, annotated_types.MinLen(4)],
    Annotated[list[int], annotated_types.MinLen(1)]
    | Annotated[list[str], annotated_types.MinLen(1)],
    Annotated[list[int], annotated_types.MaxLen(1)] | tuple[int, int],
    Literal[-1] | Annotated[int, annotated_types.Ge(0)],
    Annotated[int, annotated_types.Interval(ge=0, lt=10)] | Annotated[int, annotated_types.Ge(10)],
]


@pytest.mark.parametrize("annotation", AMBIGUOUS, ids=label)
def test_ambiguous(annotation: object) -> None:
    assert find_ambiguity(annotation) is not None


@pytest.mark.parametrize("annotation", UNAMBIGUOUS, ids=label)
def test_unambiguous(annotation: object) -> None:
    assert find_ambiguity(annotation) is None


def test_the_report_names_the_union_and_the_two_variants() -> None:
    found = find_ambiguity(list[int | Color | str])
    assert found is not None
    assert (found.union, found.first, found.second) == ("int | Color | str", "Color", "str")


def test_labels() -> None:
    assert label(dict[str, list[Color]] | None) == "dict[str, list[Color]] | None"
    assert label(Literal["a", 1]) == "Literal['a', 1]"
    assert label(tuple[int, ...]) == "tuple[int, ...]"
    assert label(None) == "None"
    # As mypy writes them: an enum member by its name, and the empty tuple (not the bare one).
    assert label(Literal[Color.RED, "red"]) == "Literal[Color.RED, 'red']"
    assert label(tuple[()] | list[int]) == "tuple[()] | list[int]"
    assert label(typing.Tuple[()]) == "tuple[()]"  # noqa: UP006
    assert label(typing.Tuple) == "Tuple"  # noqa: UP006


def test_unknown_shapes_never_overlap() -> None:
    unknown = Shape.opaque("?", frozenset())
    assert not overlaps(unknown, Shape.scalar("str", frozenset({"string"})))
    assert not overlaps(unknown, unknown)


def test_values_known_only_by_kind() -> None:
    # The plugin's enums with values mypy does not compute: they overlap only a type that takes
    # every value of their kind, never a literal, a string format or another such enum.
    enum_shape = Shape.constants_of("E", ("b",), (frozenset({"integer"}), NUMBER_KINDS))
    assert enum_shape.kinds == {"string", "integer", "number"}
    assert overlaps(enum_shape, Shape.scalar("int", frozenset({"integer"})))
    assert overlaps(Shape.scalar("int", frozenset({"integer"})), enum_shape)
    assert overlaps(enum_shape, Shape.scalar("str", frozenset({"string"})))  # "b"
    assert not overlaps(enum_shape, Shape.constants_of("Literal[1]", (1,)))
    assert not overlaps(enum_shape, Shape.scalar("date", frozenset({"string"}), "date"))
    assert not overlaps(enum_shape, Shape.constants_of("F", (), (frozenset({"integer"}),)))
    # A value that may be 0.5 or 1.0 is only surely taken by a type that takes both.
    floats = Shape.constants_of("R", (), (NUMBER_KINDS,))
    assert not overlaps(floats, Shape.scalar("int", frozenset({"integer"})))
    assert overlaps(floats, Shape.scalar("float", NUMBER_KINDS))


def test_numbers() -> None:
    integer = Shape.scalar("int", frozenset({"integer"}))
    number = Shape.scalar("float", NUMBER_KINDS)
    assert overlaps(integer, number)
    assert overlaps(Shape.constants_of("Literal[2.0]", (2.0,)), integer)
    assert not overlaps(Shape.constants_of("Literal[True]", (True,)), integer)
    assert not overlaps(Shape.constants_of("Literal[1]", (1,)), Shape.constants_of("T", (True,)))


def test_shapes_follow_the_registry() -> None:
    shape = shape_of(Annotated[ByName, "described"])
    assert (shape.kind, sorted(shape.fields), shape.required) == (
        "object",
        ["limit", "name"],
        frozenset({"name"}),
    )
    assert shape_of(Private).required == frozenset({"name"})
    assert shape_of(Point).kind == "opaque"  # NamedTuples are not analysed, as in the plugin
    assert shape_of(Money).kinds == frozenset({"string"})


# ------------------------------------------------------------------------------- each rule's shape


def summary(shape: Shape, depth: int = 3) -> object:
    """The facts of a shape as plain data (classes nested deeper than *depth* by label only)."""
    if depth == 0:
        return shape.label
    inner = depth - 1
    facts: dict[str, object] = {"kind": shape.kind, "label": shape.label}
    facts["kinds"] = sorted(shape.kinds)
    if shape.fmt is not None:
        facts["fmt"] = shape.fmt
    if shape.constants:
        facts["constants"] = shape.constants
    if shape.item is not None:
        facts["item"] = summary(shape.item, inner)
    if shape.prefix is not None:
        facts["prefix"] = [summary(p, inner) for p in shape.prefix]
    if shape.fields:
        facts["fields"] = {k: summary(v, inner) for k, v in shape.fields.items()}
        facts["required"] = sorted(shape.required)
    if shape.variants:
        facts["variants"] = [summary(v, inner) for v in shape.variants]
    return facts


def scalar(text: str, *kinds: str, fmt: str | None = None) -> dict[str, object]:
    facts: dict[str, object] = {"kind": "scalar", "label": text, "kinds": sorted(kinds)}
    if fmt is not None:
        facts["fmt"] = fmt
    return facts


def unknown(text: str) -> dict[str, object]:
    return {"kind": "opaque", "label": text, "kinds": []}


STR = scalar("str", "string")
INT = scalar("int", "integer")
NUMERIC = scalar("int | float", *NUMBER_KINDS)
NONE = scalar("None", "null")

#: One annotation per built-in rule, by rule name, with the shape the rule gives it.
RULE_SHAPES: dict[str, tuple[object, object]] = {
    "annotated": (Annotated[int, annotated_types.Ge(0), "a count"], INT),
    "newtype": (UserId, STR),
    "type alias": (Name, STR),
    "scalar": (float, scalar("float", *NUMBER_KINDS)),
    "enum": (
        Size,
        {
            "kind": "constants",
            "label": "Size",
            "kinds": ["integer", "number"],
            "constants": (1, 2.5),
        },
    ),
    # One value per variant, as mypy reads it: two values one JSON value gives are then found.
    "literal": (
        Literal["a", True, None],
        {
            "kind": "union",
            "label": "Literal['a', True, None]",
            "kinds": ["boolean", "null", "string"],
            "variants": [
                {"kind": "constants", "label": label, "kinds": [kind], "constants": (value,)}
                for label, kind, value in [
                    ("Literal['a']", "string", "a"),
                    ("Literal[True]", "boolean", True),
                    ("Literal[None]", "null", None),
                ]
            ],
        },
    ),
    "format": (datetime.time, scalar("time", "string", fmt="time")),
    "union": (
        Optional[Union[float, str, int]],  # noqa: UP007, UP045 - the typing spellings on purpose
        {
            "kind": "union",
            "label": "float | str | int | None",
            "kinds": ["integer", "null", "number", "string"],
            "variants": [NUMERIC, STR, NONE],
        },
    ),
    "sequence": (
        list[Color],
        {
            "kind": "array",
            "label": "list[Color]",
            "kinds": ["array"],
            "item": {
                "kind": "constants",
                "label": "Color",
                "kinds": ["string"],
                "constants": ("red", "blue"),
            },
        },
    ),
    "tuple": (
        tuple[int, str],
        {"kind": "array", "label": "tuple[int, str]", "kinds": ["array"], "prefix": [INT, STR]},
    ),
    "set": (
        frozenset[str],
        {"kind": "array", "label": "frozenset[str]", "kinds": ["array"], "item": STR},
    ),
    "mapping": (
        dict[str, int],
        {"kind": "mapping", "label": "dict[str, int]", "kinds": ["object"], "item": INT},
    ),
    "attrs": (
        Private,
        {
            "kind": "object",
            "label": "Private",
            "kinds": ["object"],
            "fields": {"name": STR},  # the attrs alias: the JSON name drops the underscore
            "required": ["name"],
        },
    ),
    "dataclass": (
        Aliased,
        {
            "kind": "object",
            "label": "Aliased",
            "kinds": ["object"],
            "fields": {"name": STR},
            "required": ["name"],
        },
    ),
    "typeddict": (
        NameDict,
        {
            "kind": "object",
            "label": "NameDict",
            "kinds": ["object"],
            "fields": {"name": STR, "extra": INT},
            "required": ["name"],
        },
    ),
    "namedtuple": (Point, unknown("Point")),
    "unsupported": (bytes, unknown("bytes")),
}


def _first_rule(annotation: object) -> str:
    return next(rule.name for rule in registry.rules() if rule.predicate(annotation))


def test_literals_are_read_as_mypy_reads_them() -> None:
    # One value: its constant. Several: a union of one each, repeats dropped and
    # Literal[None] read as None, so the runtime and the plugin find the same ambiguities.
    assert summary(shape_of(Literal["a"])) == {
        "kind": "constants",
        "label": "Literal['a']",
        "kinds": ["string"],
        "constants": ("a",),
    }
    found = find_ambiguity(Literal[Color.RED, "red"])
    assert found is not None
    assert (found.union, found.first, found.second) == (
        "Literal[Color.RED, 'red']",
        "Literal[Color.RED]",
        "Literal['red']",
    )
    # Either variant gives the same value: no ambiguity (check warned; mypy did not).
    assert find_ambiguity(Optional[Literal[None, 1]]) is None  # noqa: UP045
    assert find_ambiguity(Union[Literal["a"], Literal["a", "b"]]) is None  # noqa: UP007


def test_every_built_in_rule_has_a_shape_case() -> None:
    assert sorted(RULE_SHAPES) == sorted(rule.name for rule in BUILTIN_RULES)


@pytest.mark.parametrize("name", sorted(RULE_SHAPES))
def test_rule_shape(name: str) -> None:
    annotation, expected = RULE_SHAPES[name]
    assert _first_rule(annotation) == name
    assert summary(shape_of(annotation)) == expected


class Ratio:
    pass


register_type(Ratio, schema={"type": "number"}, structure=lambda v: Ratio(), unstructure=float)


@attrs.define
class Broken:
    value: Undefined  # noqa: F821 - never defined, on purpose


def test_a_user_type_is_known_by_its_schema_s_json_types() -> None:
    assert _first_rule(Money).startswith("user:")
    assert summary(shape_of(Money)) == {"kind": "opaque", "label": "Money", "kinds": ["string"]}
    # A JSON number may be integral: an opaque number admits integers too.
    assert shape_of(Ratio).kinds == frozenset({"integer", "number"})
    assert find_ambiguity(Ratio | int) is not None
    assert find_ambiguity(Ratio | str) is None


@pytest.mark.parametrize(
    "annotation",
    [Optional[str] | Literal[None], Literal[None] | None, Optional[Literal[None]]],  # noqa: UP045
)
def test_none_beside_literal_none_is_no_ambiguity(annotation: object) -> None:
    # Both read null as None: no order changes the value (mypy folds them into one, too).
    assert find_ambiguity(annotation) is None


class MaybeCount:
    pass


register_type(
    MaybeCount,
    schema={"type": ["integer", "null"]},
    structure=lambda value: MaybeCount(),
    unstructure=lambda value: None,
)


@pytest.mark.parametrize("annotation", [MaybeCount | None, None | MaybeCount])
def test_a_variant_taking_null_beside_none_is_said_to_give_none(annotation: object) -> None:
    # The call reads null as None whatever the order; the report said the first one wins.
    found = find_ambiguity(annotation)
    assert found is not None
    assert found.null
    text = found.problem("T", "m", "x").message
    assert "a JSON null can match both" in text
    assert "(null always gives None, whatever the order)" in text
    assert "declared order wins" not in text
    # A union without None keeps the words of the order.
    other = find_ambiguity(MaybeCount | int)
    assert other is not None
    assert not other.null
    assert "(the first one in declared order wins)" in other.problem("T", "m", "x").message


def test_a_recursive_class_shares_one_shape() -> None:
    shape = shape_of(list[Node])
    node = shape.item
    assert node is not None
    assert node.kind == "object"
    (inner, none) = node.fields["next"].variants
    assert inner is node
    assert none.kinds == frozenset({"null"})


def test_a_class_whose_fields_cannot_be_read_is_unknown() -> None:
    assert summary(shape_of(Broken)) == unknown("Broken")
    # Met twice in one description: unknown both times, never a half-built (empty) object.
    pair = shape_of(tuple[Broken, Broken])
    assert [summary(p) for p in pair.prefix or ()] == [unknown("Broken")] * 2
    assert find_ambiguity(Broken | ByName) is None


# ------------------------------------------------------------------------------------ properties


def _matches(annotation: object, value: object) -> bool:
    """Whether the JSON *value* is one the registry accepts for *annotation*."""
    try:
        registry.spec(annotation).structure(value)
    except Reject:
        return False
    except Exception:
        return True
    return True


@given(first=cases(max_leaves=4), second=cases(max_leaves=4), data=st.data())
def test_a_value_of_one_variant_that_the_other_accepts_means_overlap(
    first: Case, second: Case, data: st.DataObject
) -> None:
    # Soundness of "not ambiguous": whenever a JSON value of one type is also accepted by the
    # other, the analysis must say their shapes overlap.
    value = data.draw(first.values)
    json_value = registry.spec(first.annotation).unstructure(value)
    assert _matches(first.annotation, json_value)
    if _matches(second.annotation, json_value):
        assert overlaps(shape_of(first.annotation), shape_of(second.annotation))


_ENDS = st.sampled_from([-2, -1, -0.5, 0, 0.5, 1, 2])
_CONSTRAINTS = st.lists(
    st.sampled_from(
        [annotated_types.Ge, annotated_types.Gt, annotated_types.Le, annotated_types.Lt]
    ).flatmap(lambda kind: _ENDS.map(kind)),
    min_size=1,
    max_size=2,
)


def _buildable(annotation: object) -> bool:
    try:
        registry.spec(annotation)
    except Unsupported:
        return False
    return True


@given(base=st.sampled_from([int, float]), first=_CONSTRAINTS, second=_CONSTRAINTS)
def test_number_bounds_overlap_exactly_when_a_number_meets_both(
    base: type, first: list[object], second: list[object]
) -> None:
    # Every end is a multiple of 0.5: a value within both bounds, if any, is one of the
    # quarters in between (or, for ints, an integer) in [-3, 3].
    left = Annotated[(base, *first)]  # type: ignore[valid-type]
    right = Annotated[(base, *second)]  # type: ignore[valid-type]
    # Bounds no number meets (Ge(-2) with Lt(-2)) are a definition error: no type to compare.
    assume(_buildable(left) and _buildable(right))
    candidates = range(-3, 4) if base is int else [n / 4 for n in range(-12, 13)]
    both = any(_matches(left, value) and _matches(right, value) for value in candidates)
    assert overlaps(shape_of(left), shape_of(right)) == both


@given(first=cases(max_leaves=4), second=cases(max_leaves=4))
def test_overlap_is_symmetric(first: Case, second: Case) -> None:
    left, right = shape_of(first.annotation), shape_of(second.annotation)
    assert overlaps(left, right) == overlaps(right, left)


@given(case=cases(max_leaves=4))
def test_a_type_overlaps_itself(case: Case) -> None:
    shape = shape_of(case.annotation)
    assert overlaps(shape, shape) or shape.kind == "opaque"


# ------------------------------------------------------------- many variants: the first pair found

_CONSTANT_POOL = [None, True, False, 0, 1, 1.0, -0.0, 2, "a", "b", "1", float("nan")]

_VARIANTS = st.one_of(
    st.lists(st.sampled_from(_CONSTANT_POOL), min_size=1, max_size=3).map(
        lambda values: Shape.constants_of(repr(values), tuple(values))
    ),
    st.just(Shape.scalar("None", frozenset({"null"}))),
    cases(max_leaves=2).map(lambda case: shape_of(case.annotation)),
)


def _none_only(shape: Shape) -> bool:
    if shape.kind == "constants":
        return all(value is None for value in shape.constants)
    return shape.kind == "scalar" and shape.kinds == frozenset({"null"})


def _first_pair_one_by_one(variants: list[Shape]) -> tuple[int, int] | None:
    for i, first in enumerate(variants):
        for j in range(i + 1, len(variants)):
            second = variants[j]
            if overlaps(first, second) and not (_none_only(first) and _none_only(second)):
                return i, j
    return None


@given(variants=st.lists(_VARIANTS, max_size=8))
def test_the_first_clash_is_the_one_comparing_every_pair_finds(variants: list[Shape]) -> None:
    # Constants are matched through their keys, not pair by pair: the verdict and the pair
    # reported must be those of comparing each variant with every later one, in order.
    expected = _first_pair_one_by_one(variants)
    assert shapes._first_clash(tuple(variants)) == expected
    found = find_shape_ambiguity(Shape.union("u", tuple(variants)))
    if expected is None:
        assert found is None or found.union != "u"  # a clash inside a variant, not between two
    else:
        assert found is not None
        assert (found.first, found.second) == (
            variants[expected[0]].label,
            variants[expected[1]].label,
        )


def _strict_pair_one_by_one(variants: list[Shape]) -> tuple[str, str] | None:
    unions: list[tuple[Shape, Shape]] = []
    strict = shapes._strict_form(Shape.union("u", tuple(variants)), {}, unions)
    for i, first in enumerate(variants):
        for j in range(i + 1, len(variants)):
            if overlaps(strict.variants[i], strict.variants[j]) and not overlaps(
                first, variants[j]
            ):
                return first.label, variants[j].label
    return None


@given(variants=st.lists(_VARIANTS, max_size=6))
def test_strict_ambiguity_skips_only_pairs_of_constants(variants: list[Shape]) -> None:
    expected = _strict_pair_one_by_one(variants)
    found = shapes.find_strict_ambiguity(Shape.union("u", tuple(variants)))
    if expected is not None:
        assert found is not None
        assert (found.union, found.first, found.second) == ("u", *expected)
    else:
        assert found is None or found.union != "u"


def test_constants_match_by_json_value() -> None:
    def constants(value: object) -> Shape:
        return Shape.constants_of("c", (value,))

    assert overlaps(constants(1), constants(1.0))  # one JSON number
    assert overlaps(constants(0), constants(-0.0))
    assert not overlaps(constants(value=True), constants(1))  # JSON tells true from 1
    assert not overlaps(constants(value=False), constants(0))
    assert not overlaps(constants("1"), constants(1))
    assert not overlaps(constants(float("nan")), constants(float("nan")))  # NaN equals nothing
    assert overlaps(constants(None), constants(None))


def test_a_literal_of_many_values_is_checked_at_once() -> None:
    # 20,000 one-value variants: pair by pair, 200 million comparisons.
    values = tuple(f"v{n}" for n in range(20_000))
    many = typing.cast("object", Literal.__getitem__(values))  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    assert find_ambiguity(many) is None
    # A value in two literals is read once (as mypy reads it): no clash, and found at once.
    again = typing.cast("object", Literal.__getitem__(values[::-1]))  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    assert find_ambiguity(Union[many, again]) is None  # noqa: UP007
    found = find_ambiguity(Union[many, str])  # noqa: UP007
    assert found is not None
    assert (found.first, found.second) == ("Literal['v0']", "str")
