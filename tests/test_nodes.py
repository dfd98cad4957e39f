"""The generated checks of `typed_toolsets.call.nodes`: repeated type tests are written once."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.strategies.annotations import json_values
from typed_toolsets.call.assembly import _merged  # pyright: ignore[reportPrivateUsage]
from typed_toolsets.call.checker import Checker
from typed_toolsets.call.jsonschema_errors import problems
from typed_toolsets.call.shown import short
from typed_toolsets.call.source import listed_reasons
from typed_toolsets.call.validation import reason_of, suffix_of
from typed_toolsets.types.typespec import json_key, json_keys


def test_blocks_under_the_same_type_test_in_a_row_become_one() -> None:
    lines = [
        "if isinstance(x, dict):",
        "    a()",
        "if isinstance(x, dict):",
        "    b()",
        "    if c:",
        "        d()",
    ]
    assert _merged(lines) == [
        "if isinstance(x, dict):",
        "    a()",
        "    b()",
        "    if c:",
        "        d()",
    ]


def test_the_block_after_the_type_keyword_s_own_failure_is_its_else() -> None:
    lines = [
        "if not (isinstance(x, dict)):",
        "    yield P(link), k0.reason(x)",
        "if isinstance(x, dict):",
        "    a()",
        "if isinstance(x, dict):",
        "    b()",
    ]
    assert _merged(lines) == [
        "if not (isinstance(x, dict)):",
        "    yield P(link), k0.reason(x)",
        "else:",
        "    a()",
        "    b()",
    ]


@pytest.mark.parametrize(
    "lines",
    [
        # Another test, or anything between two blocks, keeps them apart.
        ["if isinstance(x, dict):", "    a()", "if isinstance(x, list):", "    b()"],
        ["if isinstance(x, dict):", "    a()", "n = 1", "if isinstance(x, dict):", "    b()"],
        ["if not (isinstance(x, list)):", "    a()", "if isinstance(x, dict):", "    b()"],
        # A test with more to it than the type is not taken for it.
        ["if isinstance(x, dict) and y:", "    a()", "if isinstance(x, dict) and y:", "    b()"],
        ["if not (isinstance(x, str) and y):", "    a()", "if isinstance(x, str):", "    b()"],
        [
            "if isinstance(x, (list, dict)):",
            "    a()",
            "if isinstance(x, (list, dict)):",
            "    b()",
        ],
    ],
)
def test_other_blocks_are_left_as_they_are(lines: list[str]) -> None:
    assert _merged(lines) == lines


def test_an_object_s_problems_keep_their_order() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "required": ["a", "b", "c"],
        "additionalProperties": False,
    }
    found, more = Checker(schema).problems({"b": 1, "z": 2})
    assert [path for path, _ in found] == [("b",), ("a",), ("c",), ("z",)]
    assert not more
    assert Checker(schema).problems(5)[0] == [((), "5 is not of type 'object'")]


def _reference(schema: dict[str, object], instance: object) -> list[tuple[tuple[object, ...], str]]:
    found, _ = problems(Draft202012Validator(schema), instance)
    return found


def test_a_child_of_the_wrong_container_type_is_its_type_s_one_problem() -> None:
    # The parent words it without asking the child's own generator (`Node.guard`).
    person = {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": False,
    }
    schema = {
        "type": "object",
        "properties": {
            "owner": person,
            "tags": {"type": "array", "items": {"type": "string"}},
            "team": {"type": "array", "items": person},
            "after": {"type": "integer"},
        },
    }
    instance = {"owner": [], "tags": "a", "team": [[], {"name": 1}, "x"], "after": "1"}
    found, more = Checker(schema).problems(instance)
    assert found == _reference(schema, instance)
    assert [path for path, _ in found] == [
        ("owner",),
        ("tags",),
        ("team", 0),
        ("team", 1, "name"),
        ("team", 2),
        ("after",),
    ]
    assert found[0] == (("owner",), "[] is not of type 'object'")
    assert not more


@pytest.mark.parametrize(
    ("child", "value"),
    [
        # Keywords that look at values of other types too: the type's problem is not the only one.
        ({"type": "object", "anyOf": [{"type": "string"}, {"type": "integer"}]}, []),
        ({"type": "array", "items": {"type": "integer"}, "enum": [[1], "x"]}, 7),
        ({"type": "object", "properties": {"a": {"type": "integer"}}, "const": "x"}, [1]),
    ],
)
def test_a_child_with_more_to_check_than_its_type_says_everything(
    child: dict[str, object], value: object
) -> None:
    schema = {"type": "object", "properties": {"c": child}}
    found, _ = Checker(schema).problems({"c": value})
    assert found == _reference(schema, {"c": value})
    assert len(found) == 2


def test_the_unknown_keys_of_an_object_each_have_their_path_and_the_reason() -> None:
    inner = {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "additionalProperties": False,
    }
    schema = {
        "type": "object",
        "properties": {"o": inner, "list": {"type": "array", "items": inner}},
        "additionalProperties": False,
    }
    instance = {"o": {"x": 1, "a": 2, "y": 3}, "list": [{"z": 1}, {"a": 1, "w": 2}], "q": 0}
    found, _ = Checker(schema).problems(instance)
    assert found == _reference(schema, instance)
    assert found == [
        (("o", "x"), "unexpected field; expected only: a"),
        (("o", "y"), "unexpected field; expected only: a"),
        (("list", 0, "z"), "unexpected field; expected only: a"),
        (("list", 1, "w"), "unexpected field; expected only: a"),
        (("q",), "unexpected argument; expected only: o, list"),
    ]


# ------------------------------------------------------------------------------- distinctness


def test_a_schema_of_the_library_s_own_keywords_yields_no_problem_twice() -> None:
    schema = {
        "type": "object",
        "properties": {
            "p": {"type": "string", "enum": ["low", "high"]},
            "o": {"anyOf": [{"$ref": "#/$defs/T"}, {"type": "null"}]},
            "t": {
                "type": "array",
                "prefixItems": [{"type": "string"}],
                "items": {"type": "integer"},
            },
        },
        "required": ["p", "o"],
        "additionalProperties": False,
        "$defs": {"T": {"type": "object", "properties": {"n": {"$ref": "#/$defs/T"}}}},
    }
    checker = Checker(schema)
    assert checker.distinct
    instance = {"p": 1, "o": {"n": {"n": 3}}, "t": [1, "x", "y"], "z": 0, "y": 1}
    stream = list(checker.errors(instance, None, {}))
    assert stream == _reference(schema, instance)
    # "p": the enum's problem alone (its type is implied: no "1 is not of type 'string'").
    assert len(set(stream)) == len(stream) == 7


@pytest.mark.parametrize(
    "schema",
    [
        # jsonschema words what `allOf` finds: both branches find the same missing key.
        {"allOf": [{"required": ["a"]}, {"required": ["a"]}]},
        # A name listed twice is missing twice.
        {"type": "object", "required": ["a", "a"]},
        # Two checks at the value's own path: a union beside a type.
        {"type": "object", "anyOf": [{"type": "object"}, {"type": "string"}]},
    ],
)
def test_a_schema_that_may_yield_a_problem_twice_is_collected_through_a_set(
    schema: dict[str, object],
) -> None:
    checker = Checker(schema)
    assert not checker.distinct
    found, more = checker.problems(7 if "anyOf" in schema else {})
    assert len(set(found)) == len(found) >= 1
    assert not more
    if "anyOf" not in schema:
        assert found == [(("a",), "missing required argument")]


def test_a_leaf_s_keywords_worded_alike_are_one_problem() -> None:
    from typed_toolsets.call.assembly import leaf_node
    from typed_toolsets.call.keywords import Scalar

    shorter, longer = Scalar("minLength", 3), Scalar("maxLength", 1)
    longer.reason = shorter.reason  # "ab" fails both: worded alike, it is said once
    node = leaf_node({}, [shorter, longer])
    assert node.distinct
    assert list(node.errors("ab", None, {})) == [((), "'ab' is shorter than 3 characters")]


def test_a_distinct_stream_is_read_one_problem_past_the_cap_at_most() -> None:
    from typed_toolsets.call.validation import collect

    read: list[int] = []

    def stream() -> Iterator[tuple[tuple[str], str]]:
        for i in range(100):
            read.append(i)
            yield (f"k{i}",), "unexpected"

    found, more = collect(stream(), 5, distinct=True)
    assert [path for path, _ in found] == [(f"k{i}",) for i in range(5)]
    assert more
    assert len(read) == 6
    read.clear()
    assert collect(itertools.islice(stream(), 5), 5, distinct=True) == (found, False)


def test_a_reason_written_inline_says_what_its_function_says() -> None:
    # Reasons of the form ``short(v) + tail`` are written into the generated code (`suffix_of`):
    # at a leaf child, a container child's guard, and a node's own type test.
    schema: dict[str, object] = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "kind": {"enum": ["a", "b"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "owner": {"type": "object", "properties": {"id": {"const": 7}}},
        },
    }
    instance = {"name": 5, "kind": "c", "tags": [1, "x", None], "owner": {"id": True}}
    found, _ = Checker(schema).problems(instance)
    assert found == _reference(schema, instance)
    assert found == [
        (("name",), "5 is not of type 'string'"),
        (("kind",), "'c' is not one of ['a', 'b']"),
        (("tags", 0), "1 is not of type 'string'"),
        (("tags", 2), "null is not of type 'string'"),
        (("owner", "id"), "true is not 7, the only accepted value"),
    ]
    assert Checker(schema).problems("x")[0] == [((), "'x' is not of type 'object'")]
    string, integer = reason_of("type", "string"), reason_of("type", "integer")
    assert string is not None
    assert integer is not None
    assert suffix_of(string) == " is not of type 'string'"
    assert suffix_of(integer) is None  # its reason adds a hint for a quoted number


def test_an_integer_written_inline_is_shown_as_short_shows_it() -> None:
    # Generated code writes an integer `short` shows whole itself (`Source.reason`); the others
    # (and every other value) go through `short`: both give `short`'s text, at the bounds too.
    schema: dict[str, object] = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
    }
    values: list[object] = [
        0,  # 0 to 99: looked up (`listed_reasons`)
        7,
        99,
        100,
        -1,
        -5,
        10**60 - 1,  # 60 digits: whole
        10**60,  # 61: cut
        -(10**59) + 1,  # a sign and 59 digits: whole
        -(10**59),  # a sign and 60: cut
        10**5000,  # past Python's digit limit for repr
        True,
        False,
        None,
        1.5,
        "a\x00",
    ]
    tail = " is not of type 'string'"
    for value in values:
        instance = {"name": value, "tags": [value, value]}
        found, _ = Checker(schema).problems(instance)
        expected = [] if isinstance(value, str) else [short(value) + tail] * 3
        assert [reason for _, reason in found] == expected
        if value != 10**5000:  # jsonschema's own message cannot repr it
            assert found == _reference(schema, instance)
    assert short(10**60 - 1) == str(10**60 - 1)
    assert short(10**60) != str(10**60)
    assert short(-(10**59) + 1) == str(-(10**59) + 1)
    assert short(-(10**59)) != str(-(10**59))


def test_the_reasons_of_small_integers_are_listed_once_per_short_tail() -> None:
    tail = " is not one of ['listed', 'tail']"
    listed = listed_reasons(tail)
    assert listed is not None
    assert listed == tuple(short(i) + tail for i in range(100))
    assert listed_reasons(tail) is listed  # shared by every checker
    assert listed_reasons(" is not one of ['" + "x" * 80 + "']") is None  # too long to list
    assert listed_reasons(" is not one of ['\U0001f600']") is None  # 4 bytes a character


def test_an_unknown_argument_s_problem_kept_is_the_one_built() -> None:
    # The problem of an unknown argument is kept for the next refusals (`Closed.unknown`), a few
    # hundred of them, each named by a short key: kept or built, it is the same problem.
    schema: dict[str, object] = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "additionalProperties": False,
    }
    checker = Checker(schema)
    long_key = "k" * 81
    instance: dict[str, object] = {"b": 1, long_key: 2, "a": "x", "c": None}
    first, _ = checker.problems(instance)
    second, _ = checker.problems(instance)
    assert first == second == _reference(schema, instance)
    assert [path for path, _ in first] == [("b",), (long_key,), ("c",)]
    assert second[0] is first[0]  # kept
    assert second[1] is not first[1]  # too long a key to keep: built each time
    many: dict[str, object] = {f"k{i}": i for i in range(300)}
    reason = first[0][1]
    for _ in range(2):  # past the number kept: the others are built each time
        found, more = checker.problems(many, 1000)
        assert found == [((key,), reason) for key in many]
        assert not more
    assert checker.problems(many)[0] == _reference(schema, many)


def test_an_array_of_plain_items_checked_in_its_parent_finds_what_its_own_node_finds() -> None:
    # An array whose only checks are its type and plain items is checked in its parent's
    # function (`Node.items`); its own node (a union's variant, a reference's target) still has
    # its generator: both find the same problems, in the same order.
    tags: dict[str, object] = {"type": "array", "items": {"type": "string"}}
    rows: dict[str, object] = {"type": "array", "items": tags}
    schema: dict[str, object] = {
        "type": "object",
        "properties": {
            "tags": tags,
            "rows": rows,
            "bounded": {**tags, "maxItems": 2},  # another check: its own generator
            "either": {"anyOf": [tags, {"type": "null"}]},
        },
        "additionalProperties": tags,
    }
    checker = Checker(schema)
    assert "item_base" in checker.errors.__code__.co_varnames
    many: list[object] = [*"abc", 1, None, *"de", 2.5, True, *("x" * 30), 7]
    for tags_value in (many, [1], [], "x", many[:5]):
        instance: dict[str, object] = {
            "tags": tags_value,
            "rows": [tags_value, ["a"], tags_value],
            "bounded": tags_value,
            "either": tags_value,
            "extra": tags_value,
        }
        found, _ = checker.problems(instance, 1000)
        expected = _reference(schema, instance)
        assert found[:20] == expected
        if isinstance(tags_value, list):
            # The array's own node, asked alone, words the items alike.
            alone, _ = Checker(tags).problems(tags_value, 1000)
            inside = [(path[1:], reason) for path, reason in found if path[0] == "tags"]
            assert inside == alone


#: Values JSON calls equal that Python writes apart, and the reverse, nested in a few ways.
_close_values = st.recursive(
    st.sampled_from([0, 1, 1.0, -0.0, 0.0, 1e16, True, False, None, "1", "1.0", "{", "inf"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("ab"), inner, max_size=2)
    ),
    max_leaves=6,
)


@given(st.lists(_close_values, max_size=8) | st.lists(json_values, max_size=4))
@example([0, -0.0, 1, 1.0, True, "1"])
@example([[1], [1.0], [True], [[1]]])
@example([{"a": 1, "b": 2}, {"b": 2, "a": 1}])
def test_the_keys_of_many_values_compare_as_their_json_keys(values: list[object]) -> None:
    # `json_keys` writes reprs where that is the same comparison: two keys are equal exactly
    # when the values' `json_key`s are, floats and objects (compared otherwise) among them.
    keys, one_by_one = json_keys(values), [json_key(value) for value in values]
    for i, j in itertools.product(range(len(values)), repeat=2):
        assert (keys[i] == keys[j]) is (one_by_one[i] == one_by_one[j]), (values[i], values[j])
    assert json_keys([[1], [True], [[1]], ["1"]]) == ["[1]", "[True]", "[[1]]", "['1']"]
