"""Ambiguous unions: the shared analysis (`_rules`) and the runtime's shapes (`_ambiguity`)."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import uuid
from typing import Annotated, Literal, NamedTuple, NewType, Optional, Union

import annotated_types
import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typing_extensions import NotRequired, TypedDict

from tests.strategies.annotations import Case, cases
from typed_toolsets import register_type
from typed_toolsets.analysis.ambiguity import find_ambiguity, label, shape_of
from typed_toolsets.rules.shapes import Shape, overlaps
from typed_toolsets.rules.typenames import NUMBER_KINDS
from typed_toolsets.types.catalog import registry
from typed_toolsets.types.typespec import Reject


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


def test_unknown_shapes_never_overlap() -> None:
    unknown = Shape.opaque("?", frozenset())
    assert not overlaps(unknown, Shape.scalar("str", frozenset({"string"})))
    assert not overlaps(unknown, unknown)


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


@given(first=cases(max_leaves=4), second=cases(max_leaves=4))
def test_overlap_is_symmetric(first: Case, second: Case) -> None:
    left, right = shape_of(first.annotation), shape_of(second.annotation)
    assert overlaps(left, right) == overlaps(right, left)


@given(case=cases(max_leaves=4))
def test_a_type_overlaps_itself(case: Case) -> None:
    shape = shape_of(case.annotation)
    assert overlaps(shape, shape) or shape.kind == "opaque"
