"""Argument error messages: `<path>: <reason>`, every problem, stable order, at most 20."""

from __future__ import annotations

import enum
import json
import re
import sys
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Literal

if sys.version_info < (3, 11):
    from exceptiongroup import ExceptionGroup

import attrs
import cattrs
import pytest
from annotated_types import Ge, Gt, Le, Lt, MaxLen, MinLen, MultipleOf
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies.toolsets import echo_tool
from tests.test_export_strict import Cat as Kitty
from tests.test_export_strict import Dog as Puppy
from typed_toolsets import ArgumentProblem, Toolset, register_type, tool
from typed_toolsets.call.jsonschema_errors import problems
from typed_toolsets.call.paths import dotted_path, json_path
from typed_toolsets.call.shown import short
from typed_toolsets.call.validation import (
    MAX_PROBLEMS,
    collect,
    union_expectation,
    union_mismatch,
)
from typed_toolsets.types.validator import make_validator


class Role(enum.Enum):
    ADMIN = "admin"
    USER = "user"


@attrs.define
class Owner:
    name: str
    age: int


@attrs.define
class Cat:
    kind: str
    lives: int


@attrs.define
class Dog:
    kind: str
    good: bool


class FormToolset(Toolset):
    toolset_name = "form"

    @tool
    def submit(
        self,
        *,
        owner: Owner,
        tags: list[str],
        roles: dict[str, Role] | None = None,
        pet: Cat | Dog | None = None,
    ) -> str:
        return "ok"


def submit() -> Any:
    return FormToolset.to_tools()[0]


def details(arguments: object) -> list[tuple[str, str]]:
    result = submit().invoke(arguments)
    assert result.error is not None
    return [(d.path, d.message) for d in result.error.details]


def test_paths_in_messages_and_details() -> None:
    arguments = {"owner": {"name": "A", "age": "x"}, "tags": ["a", "b", "c", 4]}
    assert submit().dynamic_call(arguments) == (
        "Error: Invalid arguments for tool 'form_submit': owner.age: 'x' is not of type "
        "'integer'; tags[3]: 4 is not of type 'string'"
    )
    assert details(arguments) == [
        ("$.owner.age", "'x' is not of type 'integer'"),
        ("$.tags[3]", "4 is not of type 'string'"),
    ]


def test_missing_and_unknown_at_every_level() -> None:
    assert details({"owner": {"name": "A", "extra": 1}, "other": 2}) == [
        ("$.owner.age", "missing required field"),
        ("$.owner.extra", "unexpected field; expected only: name, age"),
        ("$.tags", "missing required argument"),
        ("$.other", "unexpected argument; expected only: owner, tags, roles, pet"),
    ]


@attrs.frozen
class Marker:
    """A struct with no fields."""


class Bare(Toolset):
    @tool
    def ping(self) -> str:
        return "pong"

    @tool
    def mark(self, *, marker: Marker) -> str:
        return "marked"


def test_unknown_keys_where_none_are_declared_say_so() -> None:
    # Not "expected only: nothing".
    (ping, mark) = Bare().to_tools()
    assert ping.dynamic_call({"x": 1}) == (
        "Error: Invalid arguments for tool 'bare_ping': x: unexpected argument; the tool takes "
        "no arguments"
    )
    result = mark.invoke({"marker": {"x": 1}})
    assert result.error is not None
    assert [(d.path, d.message) for d in result.error.details] == [
        ("$.marker.x", "unexpected field; no field is allowed")
    ]


def test_odd_keys_are_quoted_in_paths() -> None:
    found = details({"owner": {"name": "A", "age": 1}, "tags": [], "roles": {"a b": "root"}})
    assert found == [("$.roles['a b']", "'root' is not one of ['admin', 'user']")]
    assert (
        submit()
        .dynamic_call({"owner": {"name": "A", "age": 1}, "tags": [], "roles": {"a b": "root"}})
        .endswith("roles['a b']: 'root' is not one of ['admin', 'user']")
    )


def test_a_long_enum_is_listed_by_whole_members_and_the_rest_counted() -> None:
    # It was cut inside a member ("'region-15...]"), and the rest went unnamed.
    members = [f"region-{i}" for i in range(40)]
    proxy = echo_tool(Literal[tuple(members)])  # type: ignore[misc]
    (problem,) = proxy.invoke({"value": "region-99"}).error.details  # type: ignore[union-attr]
    shown = ", ".join(repr(m) for m in members[:31])
    assert problem.message == f"'region-99' is not one of [{shown}, ...] (9 more in the schema)"
    short_list = echo_tool(Literal["a", "b"]).invoke({"value": "c"}).error
    assert short_list is not None
    assert short_list.details[0].message == "'c' is not one of ['a', 'b']"


def test_a_value_of_another_type_than_an_enum_s_is_one_problem() -> None:
    # The enum implies the type: its words alone, not "1 is not of type 'string'" beside them.
    found = details({"owner": {"name": "A", "age": 1}, "tags": [], "roles": {"a": 1}})
    assert found == [("$.roles.a", "1 is not one of ['admin', 'user']")]
    # The same from jsonschema's own errors, the reference the checker is held to; a type the
    # constants do not all have is still a problem of its own.
    schema = {"type": "string", "enum": ["admin", "user"]}
    assert problems(make_validator(schema), 1) == (
        [((), "1 is not one of ['admin', 'user']")],
        False,
    )
    mixed = {"type": "string", "enum": ["admin", 1]}
    assert problems(make_validator(mixed), 2.5) == (
        [((), "2.5 is not of type 'string'"), ((), "2.5 is not one of ['admin', 1]")],
        False,
    )


def test_union_of_structs_reports_the_closest_variant() -> None:
    found = details(
        {"owner": {"name": "A", "age": 1}, "tags": [], "pet": {"kind": "cat", "lives": "9"}}
    )
    assert found == [("$.pet.lives", "'9' is not of type 'integer'; 9 is wanted, without quotes")]
    found = details({"owner": {"name": "A", "age": 1}, "tags": [], "pet": 3})
    assert found == [("$.pet", "3 is not valid here; expected an object or null")]


@attrs.frozen
class Kennel:
    """Refers to itself: its variants are $refs."""

    pet: Kitty | Puppy | Kennel


@pytest.mark.parametrize(
    ("sent", "expected"),
    [
        # The value carries Dog's tag: Dog's problem, not "be a cat".
        ({"kind": "dog", "good": "yes"}, [("$.value", "good", "'yes' is not of type 'boolean'")]),
        (
            {"kind": "cat", "lives": "9"},
            [("$.value", "lives", "'9' is not of type 'integer'; 9 is wanted, without quotes")],
        ),
        # Every variant's tag contradicted: each accepted tag, not "'cat', the only accepted
        # value" (the first variant's).
        (
            {"kind": "bird"},
            [("$.value", "kind", "'bird' is not valid here; expected 'cat' or 'dog'")],
        ),
        (
            {"kind": "bird", "lives": 1},
            [("$.value", "kind", "'bird' is not valid here; expected 'cat' or 'dog'")],
        ),
    ],
)
def test_a_union_reports_the_variant_whose_tag_the_value_carries(
    sent: dict[str, object], expected: list[tuple[str, str, str]]
) -> None:
    for annotation, at in ((Kitty | Puppy, "$.value"), (Kennel, "$.value.pet")):
        arguments = {"value": sent if annotation is not Kennel else {"pet": sent}}
        found = _refused_as_the_reference_refuses(annotation, arguments)
        assert found == [(f"{at}.{key}", message) for _, key, message in expected]


def _refused_as_the_reference_refuses(
    annotation: object, arguments: Mapping[str, object]
) -> list[tuple[str, str]]:
    """The problems of refused *arguments* of a tool taking *annotation*, as JSON paths.

    The jsonschema reference path finds the same ones.
    """
    result = echo_tool(annotation).invoke(arguments)
    assert result.error is not None
    found = [(d.path, d.message) for d in result.error.details]
    reference = problems(make_validator(echo_tool(annotation).parameters), arguments)[0]
    assert [(json_path(p), m) for p, m in reference] == found
    return found


@attrs.frozen
class ByName:
    name: str


@attrs.frozen
class ById:
    id: int


@attrs.frozen
class Optionals:
    a: int
    b: int = 0
    c: int = 0


@attrs.frozen
class Lookup:
    """Refers to itself: its variants are $refs."""

    by: ByName | ById | Lookup


@pytest.mark.parametrize(
    ("sent", "expected"),
    [
        # ById's key with a wrong value: its problem, not "id: unexpected field; expected
        # only: name" (ByName's, the first variant's), which is false of the union.
        ({"id": "7"}, [("id", "'7' is not of type 'integer'; 7 is wanted, without quotes")]),
    ],
)
def test_a_union_without_tags_reports_the_variant_the_object_s_keys_are_nearest(
    sent: dict[str, object], expected: list[tuple[str, str]]
) -> None:
    for annotation, at in ((ByName | ById, "$.value"), (Lookup, "$.value.by")):
        arguments = {"value": sent if annotation is not Lookup else {"by": sent}}
        found = _refused_as_the_reference_refuses(annotation, arguments)
        assert found == [(f"{at}.{key}", message) for key, message in expected]


@pytest.mark.parametrize("sent", [{"name": 1, "id": 2}, {}, {"nick": "x"}])
def test_an_object_as_near_to_several_variants_is_told_what_each_wants(
    sent: dict[str, object],
) -> None:
    # The first variant's problems ("expected only: name") were false of the union.
    for annotation, at, shapes in (
        (ByName | ById, "$.value", "an object with only 'name', or an object with only 'id'"),
        (
            Lookup,
            "$.value.by",
            "an object with only 'name', an object with only 'id', or an object with only 'by'",
        ),
    ):
        arguments = {"value": sent if annotation is not Lookup else {"by": sent}}
        found = _refused_as_the_reference_refuses(annotation, arguments)
        assert found == [
            (at, f"{short(sent)} fits none of the accepted objects; expected {shapes}")
        ]


@attrs.frozen
class Count:
    """The keys of `Label`, with other types: only the members' types tell the two apart."""

    x: int
    next: Count | Label | None = None


@attrs.frozen
class Label:
    x: str
    next: Count | Label | None = None


@attrs.frozen
class Amount:
    unit: str
    value: float


@attrs.frozen
class Phrase:
    unit: str
    value: str


@pytest.mark.parametrize(
    ("annotation", "sent", "expected"),
    [
        # A Label (its x a string) whose wrong part is two levels down: that part's problem,
        # not "x: 's' is not of type 'integer'" (Count's, the first variant's), which is false
        # of the union.
        (
            Count | Label,
            {"x": "s", "next": {"x": 1, "next": {"x": [], "next": None}}},
            [("next.next.x", "[] is not of type 'integer'")],
        ),
        (
            Count | Label,
            {"x": "s", "next": 7},
            [("next", "7 is not valid here; expected a Count object, a Label object or null")],
        ),
        # One member of the wrong type for Phrase, two for Amount: Phrase's problem.
        (Amount | Phrase, {"unit": 5, "value": "x"}, [("unit", "5 is not of type 'string'")]),
        (Phrase | Amount, {"unit": 5, "value": 2.5}, [("unit", "5 is not of type 'string'")]),
        # Maps: their values' schema counts for every member (three misfits against one).
        (
            dict[str, int] | dict[str, str],
            {"a": "x", "b": "y", "c": "z", "d": 1},
            [("d", "1 is not of type 'string'")],
        ),
    ],
)
def test_among_variants_the_keys_fit_alike_the_members_types_choose(
    annotation: object, sent: dict[str, object], expected: list[tuple[str, str]]
) -> None:
    found = _refused_as_the_reference_refuses(annotation, {"value": sent})
    assert found == [(f"$.value.{key}", message) for key, message in expected]


@attrs.frozen
class Nothing:
    """No fields: admits only {}."""


@attrs.frozen
class Maybe:
    a: int = 0


def test_an_object_variant_is_described_by_its_required_and_optional_keys() -> None:
    empty = echo_tool(Nothing | Maybe)
    assert empty.dynamic_call({"value": {"x": 1}}) == (
        f"Error: Invalid arguments for tool {empty.name!r}: value: {{'x': 1}} fits none of the "
        "accepted objects; expected an empty object, or an object with at most 'a'"
    )
    proxy = echo_tool(Optionals | ByName)
    assert proxy.dynamic_call({"value": {"x": 1}}) == (
        f"Error: Invalid arguments for tool {proxy.name!r}: value: {{'x': 1}} fits none of the "
        "accepted objects; expected an object with 'a', and optionally 'b' and 'c', or an "
        "object with only 'name'"
    )


@attrs.frozen
class Item:
    """Refers to itself: the schema names it in ``$defs``, and a message by that name."""

    inner: Item | None = None


@attrs.frozen
class Unit:
    parts: tuple[Unit, ...] = ()


@attrs.frozen
class Tree:
    children: tuple[Tree, ...] = ()


def test_a_referenced_class_is_named_with_its_article() -> None:
    message = echo_tool(Item | Tree | Unit | None).dynamic_call({"value": 5})
    assert message.endswith(
        "value: 5 is not valid here; expected an Item object, a Tree object, a Unit object or null"
    )


def test_order_is_stable() -> None:
    arguments = {"tags": [1, 2], "owner": {"age": "x"}, "zzz": 1}
    assert details(arguments) == details(dict(reversed(list(arguments.items()))))


def test_at_most_twenty_problems() -> None:
    arguments = {"owner": {"name": "A", "age": 1}, "tags": list(range(100))}
    result = submit().invoke(arguments)
    assert result.error is not None
    assert len(result.error.details) == MAX_PROBLEMS
    assert result.error.details[-1].path == f"$.tags[{MAX_PROBLEMS - 1}]"
    assert result.error.message.endswith("; (more problems not shown)")


def test_long_values_are_cut_in_messages() -> None:
    result = submit().invoke({"owner": {"name": "A", "age": "x" * 10_000}, "tags": []})
    assert result.error is not None
    assert len(result.error.message) < 300
    assert "..." in result.error.message


@pytest.mark.parametrize("key", ["k" * 100_000, "odd key " * 5_000])
def test_long_keys_are_cut_in_messages_and_kept_whole_in_details(key: str) -> None:
    """A key the model sent is echoed in its path: the message stays short, the details exact."""
    result = submit().invoke({"owner": {"name": "A", "age": 1, key: 0}, "tags": [5], key: 1})
    assert result.error is not None
    message = result.error.message
    assert len(message) < 700
    assert message.count("...") == 2
    paths = [p.path for p in result.error.details]
    assert f"$.owner{json_path([key])[1:]}" in paths
    assert json_path([key]) in paths
    assert "tags[0]: 5 is not of type 'string'" in message  # the others are written as before


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ([], "[]"),
        ({}, "{}"),
        ([[]], "[[]]"),
        ({"a": []}, "{'a': []}"),
        (None, "null"),
        (1.5, "1.5"),
    ],
)
def test_values_are_shown_in_json_words(value: object, shown: str) -> None:
    assert short(value) == shown


class _LongRepr:
    def __repr__(self) -> str:
        return "LongRepr(" + "k" * 500 + ")"


@pytest.mark.parametrize("limit", [60, 300, 1000])
def test_a_value_with_a_long_repr_is_cut_keeping_its_last_character(limit: int) -> None:
    # The shared repr helper cuts at 200 characters, ending in "...": `short` took its last
    # character for the value's and ended the text "....".
    whole = repr(_LongRepr())
    shown = short(_LongRepr(), limit)
    if limit >= len(whole):
        assert shown == whole
    else:
        assert shown.startswith("LongRepr(kkk")
        assert shown.endswith("k...)")
        assert len(shown) == limit


#: Characters whose escapes are longest or easiest to cut: a backslash, a newline, NUL, quotes,
#: a character written as a surrogate pair.
_ESCAPED = st.sampled_from(
    ["a", "\\", "\n", "\x00", "'", '"', "\u2028", "\U0001f600", "\U000e0001", "\x7f"]
)


@given(st.lists(_ESCAPED, min_size=40, max_size=120).map("".join))
def test_a_long_string_is_cut_between_escapes(text: str) -> None:
    # Cut at a fixed length after escaping, a shown value ended on half an escape ('...\...',
    # '...\u000...'), which no longer read as the quoted string it began.
    shown = short(text)
    if not shown.endswith("..." + shown[0]):
        return
    body = shown[1 : -len("...") - 1]
    assert re.fullmatch(r"(?:[^\\]|\\(?:u[0-9a-f]{4}|[^u]))*", body), shown
    # Nor between a surrogate pair's two escapes (its first half alone is no character).
    assert not re.search(r"(?:^|[^\\])(?:\\\\)*\\ud[89ab][0-9a-f]{2}$", body), shown
    assert len(shown) <= 60


def test_a_union_s_expectation_is_the_same_kept_or_not() -> None:
    options: list[object] = [{"type": "string"}, {"type": "null"}]
    kept = union_expectation(options)
    assert kept == "a string or null"
    assert union_mismatch(5, options) == union_mismatch(5, options, kept)
    assert union_mismatch([], options) == "[] is not valid here; expected a string or null"


def test_path_writers() -> None:
    assert json_path([]) == "$"
    assert json_path(["owner", "age"]) == "$.owner.age"
    assert json_path(["tags", 3]) == "$.tags[3]"
    assert json_path(["a b", 0, "c"]) == "$['a b'][0].c"
    assert dotted_path(["owner", "age"]) == "owner.age"
    assert dotted_path(["tags", 3]) == "tags[3]"
    assert dotted_path([]) == "$"


@pytest.mark.parametrize(
    ("key", "written"),
    [
        ("a\x00", "$['a\\u0000']"),
        ("\x7f\x85", "$['\\u007f\\u0085']"),
        ("\U000e0001", "$['\\udb40\\udc01']"),  # past U+FFFF: JSON's surrogate pair
        ("tab\there", "$['tab\\there']"),
        ("\\x00", "$['\\\\x00']"),  # a backslash the key holds, then "x00": no escape
    ],
)
def test_a_key_is_written_with_json_escapes(key: str, written: str) -> None:
    # Python's own escapes (\x00, \U000e0001) are no JSON, nor JSON path (RFC 9535): a model
    # copying the key from its error could not send it back.
    assert json_path([key]) == written
    assert json.loads(f'"{written[3:-2]}"') == key
    assert short(key) == written[2:-1]
    result = echo_tool(dict[str, int]).invoke({"value": {key: "x"}})
    assert result.error is not None
    assert [problem.path for problem in result.error.details] == [f"$.value{written[1:]}"]
    assert f"value{written[1:]}: 'x' is not of type 'integer'" in result.error.message


@pytest.mark.parametrize(
    "path", [[], ["owner", "age"], ["tags", 3], [3, "a"], ["a b", 0, "c"], ["", "x"], ["1a"]]
)
def test_a_message_path_is_the_json_path_without_its_root(path: list[str | int]) -> None:
    written = json_path(path)
    expected = "$" if written == "$" else written[2:] if written.startswith("$.") else written[1:]
    assert dotted_path(path) == expected


def test_collect_keeps_the_first_of_each_problem_up_to_the_cap() -> None:
    a, b, c = (("a",), "x"), (("b",), "y"), (("c",), "z")
    assert collect([a, a, b, a, b]) == ([a, b], False)
    assert collect([a, b, a, c], cap=2) == ([a, b], True)
    assert collect([a, a, a], cap=1) == ([a], False)  # only repeats past the cap: no more
    assert collect([a], cap=0) == ([], True)
    assert collect([], cap=0) == ([], False)


def test_collect_reads_one_problem_past_the_cap() -> None:
    read: list[int] = []

    def stream() -> Iterator[tuple[tuple[str | int, ...], str]]:
        for index in range(1_000):
            read.append(index)
            yield (index,), "wrong"
            yield (index,), "wrong"  # a repeat is no new problem

    found, more = collect(stream(), cap=3)
    assert found == [((0,), "wrong"), ((1,), "wrong"), ((2,), "wrong")]
    assert more
    assert read == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("annotation", "value", "message"),
    [
        (Annotated[int, Ge(0)], -1, "-1 is less than the minimum of 0"),
        (Annotated[int, Gt(0)], 0, "0 must be greater than 0"),
        (Annotated[int, Le(3)], 4, "4 is greater than the maximum of 3"),
        (Annotated[int, Lt(3)], 3, "3 must be less than 3"),
        (Annotated[float, MultipleOf(0.5)], 1.2, "1.2 is not a multiple of 0.5"),
        (Annotated[str, MinLen(2)], "a", "'a' is shorter than 2 characters"),
        (Annotated[str, MaxLen(2)], "abc", "'abc' is longer than 2 characters"),
        # Nouns agree with their numbers: 1 item, 1 character, 1 entry.
        (Annotated[str, MinLen(1)], "", "'' is shorter than 1 character"),
        (Annotated[str, MaxLen(1)], "ab", "'ab' is longer than 1 character"),
        (Annotated[list[int], MinLen(2)], [1], "has 1 item, fewer than the minimum of 2"),
        (Annotated[list[int], MinLen(1)], [], "has 0 items, fewer than the minimum of 1"),
        (Annotated[list[int], MaxLen(1)], [1, 2], "has 2 items, more than the maximum of 1"),
        (frozenset[int], [1, 1], "has duplicate items; every item must be different"),
        (Annotated[dict[str, int], MinLen(1)], {}, "has fewer than 1 entry"),
        (Annotated[dict[str, int], MinLen(2)], {"a": 1}, "has fewer than 2 entries"),
        (Annotated[dict[str, int], MaxLen(1)], {"a": 1, "b": 2}, "has more than 1 entry"),
    ],
)
def test_every_constraint_is_explained(annotation: object, value: object, message: str) -> None:
    result = echo_tool(annotation).invoke({"value": value})
    assert result.error is not None
    assert result.error.details == (ArgumentProblem("$.value", message),)


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"not": {"type": "null"}}, None, [("$.value", "null must not match {'type': 'null'}")]),
        (
            {"type": "object", "properties": {"a": False}},
            {"a": None},
            [("$.value.a", "null is not allowed here; leave it out")],
        ),
        (
            {"prefixItems": [{"type": "integer"}], "items": False},
            [1, None, 2],
            [("$.value", "has 3 items, more than the 1 allowed")],
        ),
        (
            {"prefixItems": [{"type": "integer"}], "unevaluatedItems": False},
            [1, None],
            [("$.value", "[1, null] has more items than its schema allows")],
        ),
        (
            {"type": "object", "properties": {"a": {}}, "unevaluatedProperties": False},
            {"a": True, "b": None},
            [
                (
                    "$.value",
                    (
                        "{'a': true, 'b': null} has entries its schema does not allow; "
                        "send only the declared ones"
                    ),
                )
            ],
        ),
        (
            {"contains": {"type": "string"}},
            [1, None],
            [("$.value", "[1, null] has no item matching {'type': 'string'}")],
        ),
        (
            {"contains": {"type": "string"}, "minContains": 2},
            ["a", 2],
            [("$.value", "['a', 2] has fewer than 2 items matching {'type': 'string'}")],
        ),
        (
            {"contains": {"type": "string"}, "maxContains": 1},
            ["a", "b"],
            [("$.value", "['a', 'b'] has more than 1 item matching {'type': 'string'}")],
        ),
        (
            {"type": "object", "dependentRequired": {"a": ["b", "c"]}},
            {"a": 1},
            [
                ("$.value.b", "missing; required when 'a' is present"),
                ("$.value.c", "missing; required when 'a' is present"),
            ],
        ),
        ({"pattern": "^a"}, "b", [("$.value", "'b' does not match '^a'")]),  # jsonschema's words
        (
            {"oneOf": [{"type": "string"}, {"minLength": 2}]},
            "ab",
            [
                (
                    "$.value",
                    (
                        "'ab' matches more than one of a string or a valid value; "
                        "send one matching exactly one"
                    ),
                )
            ],
        ),
        (  # a key a pattern admits is not unexpected
            {
                "type": "object",
                "patternProperties": {"^x": {"type": "integer"}},
                "additionalProperties": False,
            },
            {"xa": "s", "xb": 2, "y": 1},
            [
                ("$.value.xa", "'s' is not of type 'integer'"),
                ("$.value.y", "unexpected field; expected only: keys matching '^x'"),
            ],
        ),
        # jsonschema's own message wrote Python's escapes ('a\x00b'), and was not cut: a long
        # value left no room for the pattern (the reason ended inside the value).
        ({"pattern": "^[a-z]+$"}, "a\x00b", [("$.value", "'a\\u0000b' does not match '^[a-z]+$'")]),
        (
            {"pattern": "^[a-z]+$"},
            "A" * 300,
            [("$.value", f"'{'A' * 55}...' does not match '^[a-z]+$'")],
        ),
        (  # a key is said to be one (jsonschema checks it at its object's path)
            {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
            {"ok": 1, "B": 2},
            [("$.value", "the key 'B' does not match '^[a-z]+$'")],
        ),
        (  # below a union too; and a property named propertyNames is no key
            {
                "type": "object",
                "propertyNames": {"allOf": [{"pattern": "^[A-Za-z]+$"}]},
                "properties": {"propertyNames": {"type": "integer"}},
            },
            {"propertyNames": "x", "b2": 2},
            [
                ("$.value", "the key 'b2' does not match '^[A-Za-z]+$'"),
                ("$.value.propertyNames", "'x' is not of type 'integer'"),
            ],
        ),
    ],
)
def test_keywords_only_registered_schemas_use_are_explained_in_json_words(
    schema: dict[str, Any], value: object, expected: list[tuple[str, str]]
) -> None:
    """jsonschema checks these; the words are the library's, with JSON's `null` and `true`."""

    class Custom:
        pass

    register_type(Custom, schema=schema, structure=lambda _: Custom(), unstructure=lambda _: None)
    result = echo_tool(Custom).invoke({"value": value})
    assert result.error is not None
    assert [(p.path, p.message) for p in result.error.details] == expected


@attrs.define
class Tagged:
    tag: str = attrs.field(validator=attrs.validators.in_(["a", "b"]))


class TagToolset(Toolset):
    @tool
    def keep(self, *, item: Tagged) -> str:
        return item.tag

    @tool
    def build(self, *, tag: str) -> str:
        return Tagged(tag).tag


def test_an_exception_with_a_message_and_more_shows_the_message_alone() -> None:
    # attrs' validators raise ValueError(message, attribute, options, value): the default str()
    # would write that tuple, the attribute's repr included.
    keep, build = TagToolset.to_tools()
    reason = "ValueError: 'tag' must be in ['a', 'b'] (got 'c')"
    assert keep.dynamic_call({"item": {"tag": "c"}}) == (
        f"Error: Invalid arguments for tool 'tag_keep': item: {{'tag': 'c'}} is not accepted: "
        f"{reason}"
    )
    assert build.dynamic_call('{"tag": "c"}') == f"Error: Tool 'tag_build' failed: {reason}"


class TagsToolset(Toolset):
    @tool
    def keep(self, *, items: list[Tagged], first: Tagged | None = None) -> int:
        return len(items)


def test_every_part_that_cannot_be_built_is_named_up_to_the_cap() -> None:
    # Only the first failing item was named: the model fixed it, and learned of the next one
    # on its next call (SPEC 4: all problems are reported, not just the first).
    (keep,) = TagsToolset.to_tools()
    reason = "is not accepted: ValueError: 'tag' must be in ['a', 'b']"
    result = keep.invoke(
        {"items": [{"tag": "c"}, {"tag": "a"}, {"tag": "d"}], "first": {"tag": "e"}}
    )
    assert result.error is not None
    assert [(p.path, p.message) for p in result.error.details] == [
        ("$.items[0]", f"{{'tag': 'c'}} {reason} (got 'c')"),
        ("$.items[2]", f"{{'tag': 'd'}} {reason} (got 'd')"),
        ("$.first", f"{{'tag': 'e'}} {reason} (got 'e')"),
    ]
    many = keep.dynamic_call({"items": [{"tag": str(i)} for i in range(30)]})
    assert many.count(reason) == 20
    assert many.endswith(
        "items[19]: {'tag': '19'} " + reason + " (got '19'); (more problems not shown)"
    )
    exactly = keep.dynamic_call({"items": [{"tag": str(i)} for i in range(20)]})
    assert exactly.count(reason) == 20
    assert not exactly.endswith("(more problems not shown)")


@attrs.define
class Point:
    x: int
    y: str


class Plotted:
    """Registered below: its hook structures a `Point` with a converter of its own."""

    def __init__(self, point: Point) -> None:
        self.point = point


class Itself(ExceptionGroup):  # type: ignore[type-arg]
    """A group that holds itself: its walk must end all the same."""

    @property
    def exceptions(self) -> tuple[BaseException, ...]:  # type: ignore[override]
        return (self,)


def test_a_group_of_exceptions_says_what_each_member_said() -> None:
    # cattrs' own error said only "While structuring Point (2 sub-exceptions)", an
    # ExceptionGroup "(2 sub-exceptions)": nothing a model or a person could act on.
    own = cattrs.Converter()
    register_type(
        Plotted,
        schema={"type": "object"},
        structure=lambda value: Plotted(own.structure(value, Point)),
        unstructure=lambda plotted: own.unstructure(plotted.point),
    )
    echo = echo_tool(Plotted)
    assert echo.dynamic_call('{"value": {"x": "a"}}') == (
        f"Error: Invalid arguments for tool {echo.name!r}: value: {{'x': 'a'}} is not accepted: "
        "ClassValidationError: While structuring Point (2 sub-exceptions): invalid value for "
        "type, expected int @ $.x; required field missing @ $.y"
    )

    class Grouped(Toolset):
        @tool
        def run(self) -> None:
            inner = ExceptionGroup("inner", [ValueError("boom"), TypeError()])
            raise ExceptionGroup("outer", [KeyError("k"), inner, OSError("disk")])

    class Nested(Toolset):
        @tool
        def run(self) -> None:
            try:
                own.structure({"x": "a"}, Point)
            except Exception as exc:
                raise ExceptionGroup("tasks", [exc]) from None

    class Loops(Toolset):
        @tool
        def run(self) -> None:
            raise Itself("loops", [ValueError("v")])

    # cattrs' words at any depth (they were Python's, without paths, inside another group).
    assert Nested.to_tools()[0].dynamic_call(None) == (
        "Error: Tool 'nested_run' failed: ExceptionGroup: tasks (1 sub-exception): invalid "
        "value for type, expected int @ $.x; required field missing @ $.y"
    )
    assert Loops.to_tools()[0].dynamic_call(None) == (
        "Error: Tool 'loops_run' failed: Itself: loops (1 sub-exception)"
    )

    (run,) = Grouped.to_tools()
    assert run.dynamic_call(None) == (
        "Error: Tool 'grouped_run' failed: ExceptionGroup: outer (3 sub-exceptions): "
        "KeyError: 'k'; ValueError: boom; TypeError; OSError: disk"
    )

    class Many(Toolset):
        @tool
        def run(self, *, count: int) -> None:
            inner = ExceptionGroup("inner", [ValueError(i) for i in range(count)])
            raise ExceptionGroup("outer", [inner, TypeError("t")])

    # Past the eight written, the others are counted: none is left out without a word.
    (many,) = Many.to_tools()
    written = "; ".join(f"ValueError: {i}" for i in range(8))
    prefix = "Error: Tool 'many_run' failed: ExceptionGroup: outer (2 sub-exceptions): "
    assert many.dynamic_call({"count": 8}) == f"{prefix}{written}; and 1 more exception"
    assert many.dynamic_call({"count": 12}) == f"{prefix}{written}; and 5 more exceptions"
    assert many.dynamic_call({"count": 7}).endswith("ValueError: 6; TypeError: t")
    # Looked at up to 10,000 members (a group met again too): the rest is not counted.
    assert many.dynamic_call({"count": 20_000}).endswith("; and at least 9,992 more exceptions")

    class Again(Toolset):
        @tool
        def run(self, *, count: int) -> None:
            inner = ExceptionGroup("inner", [ValueError(i) for i in range(9)])
            raise ExceptionGroup("outer", [inner] * count)

    # The same group 100,000 times: each met again is a step, the walk stops all the same.
    (again,) = Again.to_tools()
    assert again.dynamic_call({"count": 100_000}).endswith(
        "ValueError: 7; and at least 1 more exception"
    )
    assert again.dynamic_call({"count": 1}).endswith("ValueError: 7; and 1 more exception")


#: A whole number past the float range, and a registered schema whose ``not`` leaves its check to
#: jsonschema, whose own ``multipleOf`` divides it by the float divisor and overflows.
_HUGE = 10**399
_THIRDS = {"type": "integer", "multipleOf": 0.3, "not": {"const": 5}}


def test_a_multiple_of_a_float_is_judged_for_an_integer_past_the_float_range() -> None:
    # It answered "they could not be processed (OverflowError: int too large to convert to
    # float)"; now exactly, as for 10**307, whose quotient alone overflows.
    class Thirds:
        pass

    register_type(Thirds, schema=_THIRDS, structure=lambda _: Thirds(), unstructure=lambda _: 0)
    for huge in (_HUGE, 10**307):
        reason = f"{short(huge)} is not a multiple of 0.3"
        result = echo_tool(Thirds).invoke(json.dumps({"value": huge}))
        assert result.error is not None
        assert [(p.path, p.message) for p in result.error.details] == [("$.value", reason)]
        assert problems(make_validator(_THIRDS), huge) == ([((), reason)], False)
        assert problems(make_validator(_THIRDS), 3 * huge) == ([], False)
        assert echo_tool(Thirds).invoke(json.dumps({"value": 3 * huge})).ok
    assert echo_tool(Thirds).invoke({"value": 3}).ok


@pytest.mark.parametrize(
    ("value", "divisor", "multiple"),
    [
        # What a model writes for a step of 0.1 or 0.01: jsonschema's float division refused
        # each (0.3 / 0.1 is 2.9999999999999996).
        (0.3, 0.1, True),
        (0.7, 0.1, True),
        (19.99, 0.01, True),
        (0.07, 0.01, True),
        (4.35, 0.05, True),
        (3, 0.1, True),
        (-2.4, 0.6, True),
        (1e300, 0.1, True),
        (0.35, 0.1, False),
        (1.005, 0.01, False),
        # The number the text says, not the sum it came from.
        (0.30000000000000004, 0.1, False),
        (1e300, 7, False),
        (7e300, 7, True),
        (10**400 + 1, 0.5, True),
        (10**400 + 1, 2, False),
        # A whole quotient of more digits than the decimal context holds: read as fractions.
        (10**699, 0.01, True),
        (3 * 10**699, 0.3, True),
        (10**699 + 1, 0.3, False),
        # Subnormal floats hold fewer digits: their binary quotient is far from whole (10.02).
        (1e-320, 1e-321, True),
        (7e-321, 1e-322, True),
    ],
)
def test_a_multiple_is_judged_on_the_numbers_as_json_writes_them(
    value: float, divisor: float, multiple: bool
) -> None:
    schema = {"type": "number", "multipleOf": divisor}
    kind = int if isinstance(value, int) else float
    proxy = echo_tool(Annotated[kind, MultipleOf(divisor)])
    reason = f"{short(value)} is not a multiple of {divisor}"
    expected = [] if multiple else [((), reason)]
    assert problems(make_validator(schema), value) == (expected, False)
    for sent in (json.dumps({"value": value}), {"value": value}):
        result = proxy.invoke(sent)
        if multiple:
            assert result.ok, result.error
            assert result.value == {"value": value}
        else:
            assert result.error is not None
            assert [(p.path, p.message) for p in result.error.details] == [("$.value", reason)]


def test_the_reference_keeps_the_object_s_order_for_its_extra_members() -> None:
    # jsonschema goes through a set of the extra keys: the problems came in another order in
    # every process (its hash seed); the checker's fallback to jsonschema had the same order.
    schema = {
        "type": "object",
        "properties": {"k": {}},
        "additionalProperties": {"type": "integer"},
    }
    sent = dict.fromkeys("qwkertyu")
    found, more = problems(make_validator(schema), sent)
    assert (found, more) == (
        [((name,), "null is not of type 'integer'") for name in "qwertyu"],
        False,
    )
