"""SPEC section 3, row by row: the schema, a good call and a bad call with its message."""

from __future__ import annotations

import dataclasses
import enum
import inspect
import json
import math
import numbers
import sys
import uuid
from collections.abc import Mapping, Sequence
from datetime import date, datetime, time, timedelta, timezone
from typing import Annotated, Any, Literal, NamedTuple, NewType, Optional, Union

import annotated_types
import attrs
import hypothesis
import jsonschema
import pytest
import typing_extensions
from annotated_types import Ge, Gt, Interval, Le, Len, Lt, MaxLen, MinLen, MultipleOf
from jsonschema import Draft202012Validator
from typing_extensions import Doc

from tests.strategies.toolsets import make_echo_toolset
from typed_toolsets import Description, ToolProxy, Toolset, ToolsetDefinitionError, tool


class Color(enum.Enum):
    """A colour."""

    RED = "red"
    GREEN = "green"


class Size(enum.IntEnum):
    SMALL = 1
    LARGE = 3


class Only(enum.Enum):
    ONE = "one"


class Unit(enum.IntEnum):
    ONE = 1


class Perm(enum.Flag):
    READ = 1
    WRITE = 2
    RUN = 4
    ALL = 7  # a member of three bits, which iteration leaves out (from Python 3.11)


@attrs.define
class Person:
    """Someone.

    Attributes:
        name: Their full name.
    """

    name: str
    age: int = 0


@dataclasses.dataclass
class Point:
    x: float
    y: float


class Movie(typing_extensions.TypedDict):
    """A film."""

    title: str
    year: typing_extensions.NotRequired[int]


class Pair(NamedTuple):
    left: int
    right: str = "r"


class Review(typing_extensions.TypedDict, total=False):
    # PEP 655 lets a qualifier stand inside Annotated as well as around it.
    stars: Annotated[typing_extensions.Required[int], "out of five"]
    text: typing_extensions.NotRequired[Annotated[str, "the words"]]
    author: Annotated[typing_extensions.NotRequired[str], "who wrote it"]


def test_typeddict_qualifiers_inside_annotated_are_read() -> None:
    proxy = echo(Review)
    assert proxy.parameters["properties"]["value"] == {
        "type": "object",
        "properties": {
            "stars": {"type": "integer", "description": "out of five"},
            "text": {"type": "string", "description": "the words"},
            "author": {"type": "string", "description": "who wrote it"},
        },
        "required": ["stars"],
        "additionalProperties": False,
    }
    assert proxy.dynamic_call({"value": {"stars": 4, "author": "Ana"}}) == {
        "value": {"stars": 4, "author": "Ana"}
    }


class Scores(typing_extensions.TypedDict, extra_items=int):  # type: ignore[call-arg]
    name: str


class Sealed(typing_extensions.TypedDict, closed=True):
    name: str


def test_a_typeddict_with_extra_items_is_a_definition_error() -> None:
    # Read as closed, it would refuse every extra key the class admits.
    with pytest.raises(ToolsetDefinitionError, match=r"Scores declares extra_items \(PEP 728\)"):
        make_echo_toolset([("value", Scores, inspect.Parameter.empty)])
    assert echo(Sealed).parameters["properties"]["value"]["additionalProperties"] is False


@attrs.frozen
class Node:
    value: int
    children: list[Node] = attrs.Factory(list)


UserId = NewType("UserId", str)
Tags = typing_extensions.TypeAliasType("Tags", list[str])
Key = typing_extensions.TypeAliasType("Key", UserId)
MaybeTags = typing_extensions.TypeAliasType("MaybeTags", "Tags | None")


def echo(annotation: object) -> ToolProxy:
    cls = make_echo_toolset([("value", annotation, inspect.Parameter.empty)], toolset_name="types")
    return cls.to_tools()[0]


PREFIX = "Error: Invalid arguments for tool "

ROWS: list[tuple[str, object, dict[str, Any], object, object, object, str]] = [
    ("str", str, {"type": "string"}, "hi", "hi", 5, "value: 5 is not of type 'string'"),
    ("int", int, {"type": "integer"}, 3, 3, 2.5, "value: 2.5 is not of type 'integer'"),
    (
        "int from integral float",
        int,
        {"type": "integer"},
        3.0,
        3,
        True,
        "value: true is not of type 'integer'",
    ),
    (
        "float",
        float,
        {"type": "number"},
        2,
        2.0,
        "2",
        "value: '2' is not of type 'number'; 2 is wanted, without quotes",
    ),
    (
        "bool",
        bool,
        {"type": "boolean"},
        True,
        True,
        "true",
        "value: 'true' is not of type 'boolean'; true is wanted, without quotes",
    ),
    (
        "numbers.Real",
        numbers.Real,
        {"type": "number"},
        2,
        2,
        None,
        "value: null is not of type 'number'",
    ),
    (
        "int | float keeps float",
        int | float,
        {"type": "number"},
        2.0,
        2.0,
        "2",
        "value: '2' is not of type 'number'; 2 is wanted, without quotes",
    ),
    (
        "float | int is Numeric too, keeping int",
        float | int,
        {"type": "number"},
        2,
        2,
        "2",
        "value: '2' is not of type 'number'; 2 is wanted, without quotes",
    ),
    (
        "enum",
        Color,
        {"type": "string", "enum": ["red", "green"], "description": "A colour."},
        "red",
        Color.RED,
        "RED",
        "value: 'RED' is not one of ['red', 'green']",
    ),
    (
        "int enum",
        Size,
        {"type": "integer", "enum": [1, 3]},
        3,
        Size.LARGE,
        2,
        "value: 2 is not one of [1, 3]",
    ),
    (
        "enum of one member",  # an enum is always an "enum" with its type; a literal is not
        Only,
        {"type": "string", "enum": ["one"]},
        "one",
        Only.ONE,
        "two",
        "value: 'two' is not one of ['one']",
    ),
    (
        "int enum of one member",
        Unit,
        {"type": "integer", "enum": [1]},
        1,
        Unit.ONE,
        2,
        "value: 2 is not one of [1]",
    ),
    (
        # Its values are every combination of its members: READ | WRITE is a Perm of value 3.
        "flag",
        Perm,
        {"type": "integer", "enum": [1, 2, 4, 7, 0, 3, 5, 6]},
        3,
        Perm.READ | Perm.WRITE,
        8,
        "value: 8 is not one of [1, 2, 4, 7, 0, 3, 5, 6]",
    ),
    (
        "literal",
        Literal["a", "b"],
        {"type": "string", "enum": ["a", "b"]},
        "b",
        "b",
        "c",
        "value: 'c' is not one of ['a', 'b']",
    ),
    (
        "single literal",
        Literal["only"],
        {"const": "only"},
        "only",
        "only",
        "other",
        "value: 'other' is not 'only', the only accepted value",
    ),
    (
        "attrs class",
        Person,
        {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "Their full name."},
                "age": {"type": "integer", "default": 0},
            },
            "required": ["name"],
            "additionalProperties": False,
            "description": "Someone.",
        },
        {"name": "Ana"},
        Person("Ana"),
        {"name": "Ana", "age": "3", "x": 1},
        (
            "value.age: '3' is not of type 'integer'; 3 is wanted, without quotes; "
            "value.x: unexpected field; expected only: name, age"
        ),
    ),
    (
        "dataclass",
        Point,
        {
            "type": "object",
            "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
            "required": ["x", "y"],
            "additionalProperties": False,
        },
        {"x": 1, "y": 2.5},
        Point(1.0, 2.5),
        {"x": 1},
        "value.y: missing required field",
    ),
    (
        "TypedDict",
        Movie,
        {
            "type": "object",
            "properties": {"title": {"type": "string"}, "year": {"type": "integer"}},
            "required": ["title"],
            "additionalProperties": False,
            "description": "A film.",
        },
        {"title": "T"},
        {"title": "T"},
        {"year": 1999},
        "value.title: missing required field",
    ),
    (
        "NamedTuple",
        Pair,
        {
            "type": "object",
            "properties": {
                "left": {"type": "integer"},
                "right": {"type": "string", "default": "r"},
            },
            "required": ["left"],
            "additionalProperties": False,
        },
        {"left": 1},
        Pair(1, "r"),
        {"left": 1, "right": 2},
        "value.right: 2 is not of type 'string'",
    ),
    (
        "list",
        list[int],
        {"type": "array", "items": {"type": "integer"}},
        [1, 2],
        [1, 2],
        [1, "2"],
        "value[1]: '2' is not of type 'integer'; 2 is wanted, without quotes",
    ),
    (
        "Sequence",
        Sequence[str],
        {"type": "array", "items": {"type": "string"}},
        ["a"],
        ["a"],
        "a",
        "value: 'a' is not of type 'array'",
    ),
    (
        "tuple[T, ...]",
        tuple[int, ...],
        {"type": "array", "items": {"type": "integer"}},
        [1, 2],
        (1, 2),
        [1, None],
        "value[1]: null is not of type 'integer'",
    ),
    (
        "fixed tuple",
        tuple[int, str],
        {
            "type": "array",
            "prefixItems": [{"type": "integer"}, {"type": "string"}],
            "minItems": 2,
            "maxItems": 2,
        },
        [1, "a"],
        (1, "a"),
        [1, "a", 2],
        "value: has 3 items, more than the maximum of 2",
    ),
    (
        "set",
        set[int],
        {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
        [1, 2],
        {1, 2},
        [1, 1],
        "value: has duplicate items; every item must be different",
    ),
    (
        "frozenset",
        frozenset[str],
        {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        ["a"],
        frozenset({"a"}),
        ["a", 3],
        "value[1]: 3 is not of type 'string'",
    ),
    (
        "dict",
        dict[str, int],
        {"type": "object", "additionalProperties": {"type": "integer"}},
        {"a": 1},
        {"a": 1},
        {"a": "1"},
        "value.a: '1' is not of type 'integer'; 1 is wanted, without quotes",
    ),
    (
        "Mapping",
        Mapping[str, bool],
        {"type": "object", "additionalProperties": {"type": "boolean"}},
        {"a": True},
        {"a": True},
        {"a": 1},
        "value.a: 1 is not of type 'boolean'",
    ),
    (
        "optional",
        Optional[int],  # noqa: UP045
        {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        None,
        None,
        "x",
        "value: 'x' is not valid here; expected an integer or null",
    ),
    (
        "union",
        Union[int, str],  # noqa: UP007
        {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        "x",
        "x",
        1.5,
        "value: 1.5 is not valid here; expected an integer or a string",
    ),
    (
        "datetime",
        datetime,
        {"type": "string", "format": "date-time"},
        "2024-05-01T12:30:00.25+02:00",
        datetime(2024, 5, 1, 12, 30, 0, 250000, timezone(timedelta(hours=2))),
        "2024-05-01T12:30:00",
        (
            "value: '2024-05-01T12:30:00' is not an RFC 3339 date-time such as "
            "2024-05-01T12:30:00Z; it has no UTC offset: end it with Z (UTC) or the offset of its "
            "zone, such as +02:00"
        ),
    ),
    (
        "date",
        date,
        {"type": "string", "format": "date"},
        "2024-02-29",
        date(2024, 2, 29),
        "2023-02-29",
        "value: '2023-02-29' is not a date such as 2024-05-01",
    ),
    (
        "time",
        time,
        {"type": "string", "format": "time"},
        "12:30:00Z",
        time(12, 30, tzinfo=timezone.utc),
        "12:30",
        "value: '12:30' is not a time with an offset such as 12:30:00Z",
    ),
    (
        "UUID",
        uuid.UUID,
        {"type": "string", "format": "uuid"},
        "123e4567-e89b-12d3-a456-426614174000",
        uuid.UUID("123e4567-e89b-12d3-a456-426614174000"),
        "not-a-uuid",
        "value: 'not-a-uuid' is not a UUID such as 123e4567-e89b-12d3-a456-426614174000",
    ),
    (
        "Annotated bounds",
        Annotated[int, Ge(0), Le(10)],
        {"type": "integer", "minimum": 0, "maximum": 10},
        5,
        5,
        11,
        "value: 11 is greater than the maximum of 10",
    ),
    (
        "Annotated exclusive bounds",
        Annotated[float, Gt(0), Lt(1)],
        {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        0.5,
        0.5,
        0,
        "value: 0 must be greater than 0",
    ),
    (
        "Annotated Interval and Len",
        Annotated[list[Annotated[int, Interval(ge=1, le=3)]], Len(1, 2)],
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 3},
            "minItems": 1,
            "maxItems": 2,
        },
        [1, 3],
        [1, 3],
        [1, 2, 4],
        "value[2]: 4 is greater than the maximum of 3; value: has 3 items, more than the maximum of 2",
    ),
    (
        "Annotated string and Description",
        Annotated[str, MinLen(2), MaxLen(3), Description("A code")],
        {"type": "string", "minLength": 2, "maxLength": 3, "description": "A code"},
        "ab",
        "ab",
        "a",
        "value: 'a' is shorter than 2 characters",
    ),
    (
        "Annotated PEP 727 Doc",
        Annotated[str, MinLen(1), Doc("A code")],
        {"type": "string", "minLength": 1, "description": "A code"},
        "ab",
        "ab",
        "",
        "value: '' is shorter than 1 character",
    ),
    (
        "Annotated plain str",
        Annotated[str, "A note"],
        {"type": "string", "description": "A note"},
        "x",
        "x",
        1,
        "value: 1 is not of type 'string'",
    ),
    (
        "MultipleOf",
        Annotated[float, MultipleOf(0.5)],
        {"type": "number", "multipleOf": 0.5},
        1.5,
        1.5,
        1.2,
        "value: 1.2 is not a multiple of 0.5",
    ),
    (
        "Annotated optional",
        Annotated[Optional[int], Ge(0)],  # noqa: UP045
        {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
        None,
        None,
        -1,
        "value: -1 is less than the minimum of 0",
    ),
    ("NewType", UserId, {"type": "string"}, "u1", "u1", 1, "value: 1 is not of type 'string'"),
    (
        "NewType of str as mapping keys",
        dict[UserId, int],
        {"type": "object", "additionalProperties": {"type": "integer"}},
        {"u1": 1},
        {"u1": 1},
        {"u1": "1"},
        "value.u1: '1' is not of type 'integer'; 1 is wanted, without quotes",
    ),
    (
        "type alias",
        Tags,
        {"type": "array", "items": {"type": "string"}},
        ["a"],
        ["a"],
        [1],
        "value[0]: 1 is not of type 'string'",
    ),
    (
        "type alias of a NewType of str as mapping keys",
        dict[Key, int],
        {"type": "object", "additionalProperties": {"type": "integer"}},
        {"u1": 1},
        {"u1": 1},
        {"u1": True},
        "value.u1: true is not of type 'integer'",
    ),
    (
        "type alias naming another, as text",
        MaybeTags,
        {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        None,
        None,
        "a",
        "value: 'a' is not valid here; expected an array or null",
    ),
]


@pytest.mark.parametrize(
    ("label", "annotation", "schema", "good", "expected", "bad", "message"),
    ROWS,
    ids=[r[0] for r in ROWS],
)
def test_row(
    label: str,
    annotation: object,
    schema: dict[str, Any],
    good: object,
    expected: object,
    bad: object,
    message: str,
) -> None:
    proxy = echo(annotation)
    parameters = proxy.parameters
    Draft202012Validator.check_schema(parameters)
    assert parameters["properties"]["value"] == schema
    result = proxy.invoke({"value": good})
    assert result.ok, result.error
    assert result.value == {"value": expected}
    assert type(result.value["value"]) is type(expected)  # type: ignore[index]
    assert proxy.dynamic_call({"value": bad}) == f"{PREFIX}'types_echo': {message}"


def test_a_key_type_with_constraints_is_named_as_written() -> None:
    # The schema has no place for key constraints; the message shows what was written, not
    # the bare str it would otherwise label.
    with pytest.raises(ToolsetDefinitionError) as caught:
        echo(dict[Annotated[str, MaxLen(2)], int])
    message = str(caught.value)
    assert "a key type cannot carry constraints or descriptions" in message
    assert "(got Annotated[str, MaxLen(max_length=2)])" in message
    # The type is shown with the Annotated its key has (it read dict[str, int], a type that
    # has a schema).
    assert "has type dict[Annotated[str, ...], int], which has no JSON Schema" in message


def test_annotated_types_named_constraints_are_read_not_dropped() -> None:
    # `LowerCase`, `IsFinite` and the like are aliases (``Annotated[T, Predicate(...)]``): as
    # metadata, their predicate is a constraint JSON Schema cannot express, said so; their
    # bounds are read as if written in place.
    with pytest.raises(ToolsetDefinitionError) as caught:
        echo(Annotated[str, annotated_types.LowerCase])
    assert "annotated_types.Predicate cannot be expressed in JSON Schema" in str(caught.value)
    bounded = echo(Annotated[int, Annotated[int, Ge(1)]])
    assert bounded.parameters["properties"]["value"] == {"type": "integer", "minimum": 1}
    assert bounded.dynamic_call({"value": 0}).startswith(f"{PREFIX}'types_echo': value: 0 is")


def test_recursive_class_uses_defs_and_ref() -> None:
    proxy = echo(Node)
    parameters = proxy.parameters
    assert parameters["properties"]["value"] == {"$ref": "#/$defs/Node"}
    assert parameters["$defs"] == {
        "Node": {
            "type": "object",
            "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "required": ["value"],
            "additionalProperties": False,
        }
    }
    Draft202012Validator.check_schema(parameters)
    assert proxy.dynamic_call({"value": {"value": 1, "children": [{"value": 2}]}}) == {
        "value": Node(1, [Node(2)])
    }
    assert proxy.dynamic_call({"value": {"value": 1, "children": [{"value": "2"}]}}) == (
        f"{PREFIX}'types_echo': value.children[0].value: '2' is not of type 'integer'; "
        "2 is wanted, without quotes"
    )


@attrs.frozen
class Ping:
    pong: Pong | None = None


@attrs.frozen
class Pong:
    ping: Ping | None = None


def test_mutual_recursion_defines_both() -> None:
    parameters = echo(Ping).parameters
    assert set(parameters["$defs"]) == {"Ping", "Pong"}
    assert parameters["$defs"]["Ping"]["properties"]["pong"]["anyOf"][0] == {"$ref": "#/$defs/Pong"}
    Draft202012Validator.check_schema(parameters)


def test_non_recursive_structs_are_inlined_at_each_use() -> None:
    parameters = echo(tuple[Person, Person]).parameters
    assert "$defs" not in parameters
    items = parameters["properties"]["value"]["prefixItems"]
    assert items[0] == items[1]
    assert items[0]["type"] == "object"


def test_union_picks_the_first_matching_variant() -> None:
    proxy = echo(Union[str, Color])  # noqa: UP007
    assert proxy.dynamic_call({"value": "red"}) == {"value": "red"}
    proxy = echo(Union[Color, str])  # noqa: UP007
    assert proxy.dynamic_call({"value": "red"}) == {"value": Color.RED}
    assert proxy.dynamic_call({"value": "blue"}) == {"value": "blue"}


@attrs.frozen
class Cat:
    name: str


@attrs.frozen
class Dog:
    name: str


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="the pitfall of Python 3.10 to 3.13")
def test_typing_hands_back_a_union_in_the_order_it_cached() -> None:
    # What the README's Types section warns about: typing caches Optional[...], Annotated[...]
    # (and the like) by equality, and a union is equal to itself in any order. Python gives the
    # library the first order built, whatever the annotation says.
    first = Optional[Cat | Dog]  # noqa: UP045 - the cached form is the point
    assert Optional[Dog | Cat] is first  # noqa: UP045
    described = Annotated[Cat | Dog, "a pet"]
    assert Annotated[Dog | Cat, "a pet"] is described
    assert echo(Annotated[Dog | Cat, "a pet"]).dynamic_call({"value": {"name": "x"}}) == {
        "value": Cat("x")
    }


def test_constraints_spread_over_a_union_keep_its_order() -> None:
    # The library builds Annotated[list[...], MinLen(1)] and a Union of the variants itself: it
    # must not take the equal ones typing cached for another tool, whose inner unions differ.
    first = echo(Annotated[list[Cat | Dog] | None, MinLen(1), "cats first"])
    second = echo(Annotated[list[Dog | Cat] | None, MinLen(1), "dogs first"])
    sent = {"value": [{"name": "x"}]}
    assert first.dynamic_call(sent) == {"value": [Cat("x")]}
    assert second.dynamic_call(sent) == {"value": [Dog("x")]}
    assert second.dynamic_call(json.dumps(sent)) == {"value": [Dog("x")]}


def test_constraints_spread_over_a_union_keep_their_own_values() -> None:
    # MultipleOf(2) equals MultipleOf(2.0), which the first tool spreads over its variants; the
    # second must still check integers exactly (2**53 + 1 is odd, and even as a float).
    echo(Annotated[float | str, MultipleOf(2.0)])
    proxy = echo(Annotated[int | None, MultipleOf(2)])
    variant = proxy.parameters["properties"]["value"]["anyOf"][0]
    assert repr(variant) == "{'type': 'integer', 'multipleOf': 2}"
    assert proxy.dynamic_call({"value": 2**53 + 1}).startswith("Error: ")
    assert proxy.dynamic_call({"value": 2**53 + 2}) == {"value": 2**53 + 2}


@pytest.mark.parametrize(
    "annotation",
    [
        Annotated[int | float, Ge(0)],
        Annotated[float | int | None, Ge(0), "a size"],
        Annotated[str | int | float, MinLen(1)],
    ],
)
def test_constraints_on_numeric_keep_the_parsed_form(annotation: Any) -> None:
    # `int | float` is Numeric (2.0 stays a float) with constraints too: one "number" schema,
    # not an integer variant that takes 2.0 first and hands the method an int.
    proxy = echo(annotation)
    schema = proxy.parameters["properties"]["value"]
    numbers_ = [s for s in schema.get("anyOf", [schema]) if s.get("type") in ("integer", "number")]
    assert [s["type"] for s in numbers_] == ["number"]
    for sent in ({"value": 2.0}, '{"value": 2.0}', b'{"value": 2.0}'):
        got = proxy.dynamic_call(sent)
        assert got == {"value": 2.0}
        assert type(got["value"]) is float
    got = proxy.dynamic_call('{"value": 2}')
    assert type(got["value"]) is int


def test_the_union_spellings_the_readme_gives_keep_their_order() -> None:
    # Each built after its other order was: no typing form wraps the union, so none is cached.
    _ = (Optional[Cat | Dog], Annotated[Cat | Dog, "a pet"])  # noqa: UP045
    sent = {"name": "x"}
    assert echo(Dog | Cat | None).dynamic_call({"value": sent}) == {"value": Dog("x")}
    assert echo(list[Dog | Cat]).dynamic_call({"value": [sent]}) == {"value": [Dog("x")]}
    each = Annotated[Dog, "a pet"] | Annotated[Cat, "a pet"]
    assert echo(each).dynamic_call({"value": sent}) == {"value": Dog("x")}


@pytest.mark.parametrize(
    ("annotation", "value", "expected"),
    [
        # The first candidate keeps the value as is: taken without calling a hook.
        (str | int | float | bool | None, "a", "a"),
        (str | int | float | bool | None, 2, 2),
        (str | int | float | bool | None, 2.5, 2.5),
        (str | int | float | bool | None, True, True),
        (str | int | float | bool | None, None, None),
        (list[int | str] | None, [1, "a", 2], [1, "a", 2]),
        # The first candidate has more to check: the later ones still get their turn, in order.
        (Literal["a"] | str, "a", "a"),
        (Literal["a"] | str, "b", "b"),
        (Annotated[int, Ge(0)] | float, -1, -1.0),
        (Annotated[int, Ge(0)] | float, 3, 3),
        (int | str, 2.0, 2),
        (Color | str, "red", Color.RED),
    ],
)
def test_union_values_kept_as_is_are_those_of_the_first_matching_variant(
    annotation: Any, value: object, expected: object
) -> None:
    for arguments in ({"value": value}, json.dumps({"value": value})):
        result = echo(annotation).dynamic_call(arguments)["value"]
        assert result == expected
        assert type(result) is type(expected)


@attrs.define
class AttrsBase:
    a: int = 1


@dataclasses.dataclass
class DataChild(AttrsBase):
    """A dataclass: its own decorator wrote the __init__ (which takes b alone)."""

    b: int = 2


def test_a_dataclass_deriving_from_an_attrs_class_is_a_dataclass() -> None:
    proxy = echo(DataChild)
    assert proxy.parameters["properties"]["value"] == {
        "type": "object",
        "properties": {"b": {"type": "integer", "default": 2}},
        "required": [],
        "additionalProperties": False,
        "description": "A dataclass: its own decorator wrote the __init__ (which takes b alone).",
    }
    assert proxy.dynamic_call({"value": {"b": 5}}) == {"value": DataChild(b=5)}


@attrs.define
class Huge:
    count: int = 10**5000  # no JSON reader takes it back


def test_a_default_past_the_json_digit_limit_is_not_published() -> None:
    proxy = echo(Huge)
    assert proxy.parameters["properties"]["value"]["properties"]["count"] == {"type": "integer"}
    assert len(json.dumps(proxy.parameters)) < 1000
    assert proxy.dynamic_call({"value": {}}) == {"value": Huge()}
    longest = 10**4299  # 4,300 digits: still JSON
    widest = make_echo_toolset([("n", int, longest)], toolset_name="wide").to_tools()[0]
    assert widest.parameters["properties"]["n"]["default"] == longest


def test_a_parameter_default_past_the_json_digit_limit_is_a_definition_error() -> None:
    with pytest.raises(ToolsetDefinitionError, match=r"<an integer of about 4301 digits>"):
        make_echo_toolset([("n", int, 10**4300)])


def _reach(annotation: object, default: float) -> ToolProxy:
    """A tool returning its one argument, ``limit``, whose default is *default*."""

    def reach(self: object, *, limit: float = default) -> object:
        return limit

    reach.__annotations__["limit"] = annotation  # (this module's annotations are strings)
    far = type("Far", (Toolset,), {"reach": tool(reach), "__module__": __name__})
    return far.to_tools()[0]


@pytest.mark.parametrize(
    ("annotation", "default"),
    [
        (float, math.inf),
        (float, -math.inf),
        (Optional[float], math.inf),  # noqa: UP045
        (Annotated[float, Ge(0)], math.inf),
        (Union[int, float], -math.inf),  # noqa: UP007
    ],
)
def test_an_infinite_default_of_a_float_is_kept_out_of_the_schema(
    annotation: object, default: float
) -> None:
    # A fine Python default the schema cannot write ("default" is for JSON-representable ones).
    proxy = _reach(annotation, default)
    assert "default" not in proxy.parameters["properties"]["limit"]
    assert proxy.parameters["required"] == []
    assert proxy.dynamic_call({}) == default
    assert proxy.dynamic_call('{"limit": 2.5}') == 2.5


@pytest.mark.parametrize(
    "annotation",
    [
        Optional[float],  # noqa: UP045
        float | None,
        float | str,
        bool | float,
        list[float | None],
    ],
)
def test_an_int_default_of_a_float_in_a_union_is_a_float_value(annotation: object) -> None:
    # SPEC 3: float takes an integer (JSON's 1, PEP 484's numeric tower), so `x: float | None = 0`
    # is a fine declaration in a union too, as it is for a bare `float`, not a definition error.
    default: Any = [0] if typing_extensions.get_origin(annotation) is list else 0
    proxy = _reach(annotation, default)
    assert proxy.parameters["properties"]["limit"]["default"] == default
    assert proxy.dynamic_call({}) == default
    assert proxy.invoke({"limit": default}).value == default


def test_a_nan_default_of_a_float_reaches_the_method() -> None:
    proxy = _reach(float, math.nan)
    assert "default" not in proxy.parameters["properties"]["limit"]
    assert math.isnan(proxy.dynamic_call({}))


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        # A float may default to an infinity: the constraint is what refuses it.
        (Annotated[float, Le(10)], "not a valid float (inf breaks a constraint of the annotation)"),
        (int, "not a valid int (inf is not an int)"),
    ],
)
def test_an_infinite_default_the_type_refuses_is_a_definition_error(
    annotation: object, expected: str
) -> None:
    with pytest.raises(ToolsetDefinitionError) as caught:
        make_echo_toolset([("limit", annotation, math.inf)])
    assert f"has the default inf, which is {expected} [toolset-signature]" in str(caught.value)


def test_a_field_defaulting_to_none_must_admit_null() -> None:
    # Read as written, as a parameter is: the default does not make the field nullable.
    @attrs.define
    class Loose:
        n: int = None  # type: ignore[assignment]

    @dataclasses.dataclass
    class Fine:
        n: int | None = None

    with pytest.raises(ToolsetDefinitionError, match=r"field .*Loose\.n defaults to None but its "):
        make_echo_toolset([("value", Loose, inspect.Parameter.empty)])
    assert echo(Fine).dynamic_call({"value": {}}) == {"value": Fine()}


def test_generated_docstrings_are_not_descriptions() -> None:
    class Plain(enum.Enum):
        A = "a"

    @dataclasses.dataclass
    class Bare:
        n: int

    class Lone(NamedTuple):  # Python's docstring for it is "Lone(n,)"
        n: int

    class Twin(NamedTuple):
        a: int
        b: str

    for annotation in (Plain, Bare, Lone, Twin):
        assert "description" not in echo(annotation).parameters["properties"]["value"]


@pytest.mark.parametrize(
    ("annotation", "spellings", "item"),
    [
        (
            set[datetime],
            ["2024-01-01T00:00:00Z", "2024-01-01T02:00:00+02:00"],
            datetime(2024, 1, 1, tzinfo=timezone.utc),
        ),
        (
            frozenset[uuid.UUID],
            [str(uuid.NAMESPACE_DNS), str(uuid.NAMESPACE_DNS).upper()],
            uuid.NAMESPACE_DNS,
        ),
    ],
)
def test_two_spellings_of_one_set_item_are_two_in_json_and_one_in_the_set(
    annotation: object, spellings: list[str], item: object
) -> None:
    # README, "Set items": uniqueItems compares the JSON strings; the method gets one item.
    for arguments in ({"value": spellings}, json.dumps({"value": spellings})):
        assert echo(annotation).invoke(arguments).value == {"value": {item}}


@pytest.mark.parametrize(
    "items",
    [
        [[1, "a"], [2, "a"], [1, "b"]],
        [[1, "a"], [1.0, "a"]],  # one item in JSON: a duplicate
        [[1, "a"], [1, "a"]],
        [[True, "a"], [1, "a"]],
        [[1, ["a"]], [1, ["a"]]],
        [[1, {"a": 1}]],
        [[1, "a", 3]],
        ["ab", ["a", "b"]],
        [[1, None]],
        [],
    ],
)
@pytest.mark.parametrize("annotation", [set[tuple[int, str]], frozenset[tuple[int, ...]]])
def test_a_set_of_tuples_gives_jsonschema_s_verdict(annotation: object, items: list[Any]) -> None:
    # Their items are keyed as tuples (not `json_key`, a microsecond an item): the verdict
    # and the value stay jsonschema's and the converter's.
    proxy = echo(annotation)
    valid = jsonschema.Draft202012Validator(proxy.parameters).is_valid({"value": items})
    for arguments in ({"value": items}, json.dumps({"value": items})):
        result = proxy.invoke(arguments)
        assert result.ok is valid, (arguments, result)
        if valid:
            assert result.value == {"value": {tuple(item) for item in items}}


def test_float_beyond_the_float_range_is_an_argument_problem() -> None:
    result = echo(float).invoke('{"value": ' + "9" * 400 + "}")
    assert not result.ok
    assert result.error is not None
    assert result.error.kind == "arguments"
    assert result.error.details[0].path == "$.value"
    assert result.error.details[0].message.endswith(
        "is too large for a float; send a number between -1.8e308 and 1.8e308"
    )


def test_a_class_validator_failure_is_an_argument_problem_at_its_path() -> None:
    @attrs.define
    class Positive:
        n: int = attrs.field(validator=attrs.validators.ge(0))

    result = echo(list[Positive]).invoke({"value": [{"n": 1}, {"n": -1}]})
    assert result.error is not None
    assert result.error.kind == "arguments"
    assert [d.path for d in result.error.details] == ["$.value[1]"]
    # The class's own words (with their type, as for a failing tool), about the value sent.
    assert result.error.details[0].message == (
        "{'n': -1} is not accepted: ValueError: 'n' must be >= 0: -1"
    )


def test_datetime_formats_are_enforced_by_the_library() -> None:
    proxy = echo(datetime)
    for text in [
        "2024-05-01T12:30:00Z",
        "2024-05-01t12:30:00z",
        "2024-05-01T12:30:00.123456789-05:30",
    ]:
        assert proxy.invoke({"value": text}).ok, text
    for text in [
        "2024-05-01 12:30:00Z",
        "2024-05-01T24:00:00Z",
        "2024-05-01T12:30:60Z",
        "2024-05-01T12:30Z",
        "２０２４-05-01T12:30:00Z",
    ]:
        assert not proxy.invoke({"value": text}).ok, text


# Objects are built with positional arguments where the constructor's signature allows it (they
# are much cheaper); each case below would put a value in the wrong field if that mapping slipped.


@attrs.define
class KeywordOnlyInMiddle:
    first: str
    middle: str = attrs.field(kw_only=True)
    last: str = "z"


@dataclasses.dataclass
class AfterKwOnlyMarker:
    first: str
    _: dataclasses.KW_ONLY
    second: str
    third: str = "z"


@dataclasses.dataclass
class ChildAfterKwOnly(AfterKwOnlyMarker):
    fourth: int = 4


@attrs.define
class FactoryInMiddle:
    first: str
    middle: list[str] = attrs.Factory(list)
    last: str = "z"


@attrs.define
class PrivateAttribute:
    _hidden: str
    shown: str


@attrs.define(init=False)
class OwnInitReversed:
    a: str
    b: str

    def __init__(self, b: str, a: str) -> None:
        self.a = a
        self.b = b


class Pair(NamedTuple):
    left: str
    right: str = "r"


@pytest.mark.parametrize("as_text", [False, True], ids=["mapping", "json-text"])
@pytest.mark.parametrize(
    ("annotation", "arguments", "expected"),
    [
        (
            KeywordOnlyInMiddle,
            {"first": "a", "middle": "b", "last": "c"},
            KeywordOnlyInMiddle("a", middle="b", last="c"),
        ),
        (KeywordOnlyInMiddle, {"middle": "b", "first": "a"}, KeywordOnlyInMiddle("a", middle="b")),
        (
            AfterKwOnlyMarker,
            {"first": "a", "second": "b", "third": "c"},
            AfterKwOnlyMarker("a", second="b", third="c"),
        ),
        (
            ChildAfterKwOnly,
            {"first": "a", "second": "b", "fourth": 5},
            ChildAfterKwOnly("a", second="b", fourth=5),
        ),
        (FactoryInMiddle, {"first": "a", "last": "c"}, FactoryInMiddle("a", [], "c")),
        (FactoryInMiddle, {"first": "a", "middle": ["m"]}, FactoryInMiddle("a", ["m"], "z")),
        (PrivateAttribute, {"shown": "s", "hidden": "h"}, PrivateAttribute("h", "s")),
        (OwnInitReversed, {"a": "A", "b": "B"}, OwnInitReversed(b="B", a="A")),
        (Pair, {"right": "R", "left": "L"}, Pair("L", "R")),
        (Pair, {"left": "L"}, Pair("L")),
    ],
)
def test_struct_values_reach_the_right_constructor_parameters(
    annotation: type, arguments: dict[str, Any], expected: object, as_text: bool
) -> None:
    import json

    proxy = echo(annotation)
    payload: object = {"value": arguments}
    result = proxy.dynamic_call(json.dumps(payload) if as_text else payload)
    assert result == {"value": expected}
    if isinstance(expected, OwnInitReversed):
        assert (result["value"].a, result["value"].b) == ("A", "B")


class _Level(enum.IntEnum):
    LOW = 1
    HIGH = 10


class _Mode(str, enum.Enum):
    READ = "r"


@pytest.mark.parametrize(
    ("annotation", "default", "written"),
    [
        (int | _Level, _Level.LOW, 1),  # found by the thorough differential run
        (int, _Level.HIGH, 10),
        (str, _Mode.READ, "r"),
        (str | None, _Mode.READ, "r"),
    ],
)
def test_an_enum_member_default_of_a_plain_type_has_its_plain_json_form(
    annotation: object, default: object, written: object
) -> None:
    tool = make_echo_toolset([("value", annotation, default)]).to_tools()[0]
    shown = tool.parameters["properties"]["value"]["default"]
    assert shown == written
    assert type(shown) is type(written)


def test_a_flag_s_combinations_are_results_it_admits() -> None:
    # A combination was refused: "returned a value its return annotation does not admit:
    # $.result: 3 is not one of [1, 2, 4]", and as a default "(3 is not one of [1, 2, 4, 7])".
    from typed_toolsets.export import mcp_call

    class Grants(Toolset):
        @tool
        def grant(self, *, perm: Perm = Perm.READ | Perm.WRITE) -> Perm:
            return perm | Perm.READ

    tools = Grants.to_tools()
    assert tools[0].output_schema == {"type": "integer", "enum": [1, 2, 4, 7, 0, 3, 5, 6]}
    assert tools[0].parameters["properties"]["perm"]["default"] == 3
    for sent, read in [(2, 3), (0, 1), (6, 7)]:
        answer = mcp_call(tools, "grants_grant", {"perm": sent})
        assert answer == {
            "content": [{"type": "text", "text": str(read)}],
            "structuredContent": {"result": read},
            "isError": False,
        }


def test_a_flag_of_too_many_combinations_is_a_definition_error() -> None:
    many = enum.Flag("Many", [f"M{i}" for i in range(11)])  # 2,048 values
    with pytest.raises(ToolsetDefinitionError) as caught:
        echo(many)
    assert (
        "(enum 'Many' is a Flag whose members combine into more than 1,024 values, too many for "
        "a JSON enum to list; use a set of an Enum's members (frozenset[...]) instead)"
    ) in str(caught.value)
    echo(enum.Flag("Ten", [f"M{i}" for i in range(10)]))  # 1,024 values: listed


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the `type` statement is Python 3.12+")
def test_an_alias_made_with_the_type_statement_is_the_type_it_names() -> None:
    namespace: dict[str, Any] = {}
    exec("type Tags = list[str]\ntype Pair[T] = tuple[T, T]", namespace)  # noqa: S102
    proxy = echo(namespace["Tags"])
    assert proxy.parameters["properties"]["value"] == {"type": "array", "items": {"type": "string"}}
    assert proxy.dynamic_call({"value": ["a"]}) == {"value": ["a"]}
    with pytest.raises(ToolsetDefinitionError, match=r"has type Pair\[int\].*generic type aliases"):
        echo(namespace["Pair"][int])


def test_an_alias_given_to_the_registry_itself_is_the_type_it_names() -> None:
    from typed_toolsets.testing import values
    from typed_toolsets.types.catalog import registry

    assert registry.spec(Tags).schema == {"type": "array", "items": {"type": "string"}}
    assert registry.spec(MaybeTags).schema == registry.spec(Optional[list[str]]).schema  # noqa: UP045
    found = hypothesis.find(values(Tags), lambda value: len(value) > 1)
    assert all(isinstance(item, str) for item in found)


# ------------------------------------------------------------------------- unpacked tuples

_FIXED_UNPACKED: list[object] = [tuple[int, typing_extensions.Unpack[tuple[str, str]]]]
_ANY_LENGTH_UNPACKED: list[object] = [
    tuple[int, typing_extensions.Unpack[tuple[str, ...]]],
    tuple[typing_extensions.Unpack[tuple[int, ...]]],
    tuple[str, typing_extensions.Unpack[tuple[int, ...]], str],
]
if sys.version_info >= (3, 11):  # the star syntax
    _FIXED_UNPACKED.append(eval("tuple[int, *tuple[str, str]]"))  # noqa: S307
    _ANY_LENGTH_UNPACKED.append(eval("tuple[int, *tuple[str, ...]]"))  # noqa: S307


@pytest.mark.parametrize("annotation", _FIXED_UNPACKED)
def test_a_fixed_tuple_unpacked_in_a_tuple_is_written_out_in_place(annotation: object) -> None:
    # As mypy reads it: tuple[int, str, str]. It was a schema of two items, the second an array.
    (proxy,) = make_echo_toolset([("value", annotation, inspect.Parameter.empty)]).to_tools()
    assert proxy.parameters["properties"]["value"] == {
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "string"}, {"type": "string"}],
        "minItems": 3,
        "maxItems": 3,
    }
    result = proxy.invoke({"value": [1, "a", "b"]})
    assert (result.ok, result.value) == (True, {"value": (1, "a", "b")})


def test_a_set_of_tuples_with_a_fixed_tuple_unpacked_reads_them_written_out() -> None:
    # Its check for tuples of scalars read the tuple's arguments itself: a definition error
    # ("Unpack[tuple[str, str]] has no JSON Schema mapping") that mypy's plugin did not report.
    annotation = set[tuple[int, typing_extensions.Unpack[tuple[str, str]]]]
    (proxy,) = make_echo_toolset([("value", annotation, inspect.Parameter.empty)]).to_tools()
    result = proxy.invoke({"value": [[1, "a", "b"], [2, "a", "b"]]})
    assert (result.ok, result.value) == (True, {"value": {(1, "a", "b"), (2, "a", "b")}})


@pytest.mark.parametrize("annotation", _ANY_LENGTH_UNPACKED)
def test_a_tuple_of_any_length_unpacked_in_a_tuple_is_a_definition_error(
    annotation: object,
) -> None:
    # It was read as one nested array: [1, "a", "b"] refused, [1, ["a", "b"]] accepted and
    # (1, ("a", "b")) given to a method annotated for (1, "a", "b").
    with pytest.raises(ToolsetDefinitionError) as raised:
        make_echo_toolset([("value", annotation, inspect.Parameter.empty)])
    message = str(raised.value)
    assert "*tuple[" in message  # the type as it is written, star and all
    assert message.endswith(
        "(a tuple of any length unpacked in a tuple (*tuple[X, ...]) has no JSON Schema; write "
        "tuple[X, ...] for any number of items, or list each item: tuple[A, B]) "
        "[toolset-param-type]"
    )
