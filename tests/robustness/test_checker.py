"""The compiled checker gives jsonschema's verdict and the same problems, in the same order.

jsonschema (with the library's wording over its errors, `call.jsonschema_errors.problems`) is the
reference: for generated schemas and values (valid ones, near misses, and any JSON at all), the
checker must find exactly the problems jsonschema's errors stand for.
"""

from __future__ import annotations

import enum
import itertools
import json
import typing
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from jsonschema._utils import uniq  # the reference's own uniqueness rule

from tests.strategies.annotations import Chain, Tree, cases, fresh, json_values, union
from tests.strategies.toolsets import echo_tool
from typed_toolsets.call.checker import ASSERTING, Checker, json_key
from typed_toolsets.call.jsonschema_errors import expand
from typed_toolsets.call.nodes import _CHECKED_ONE_BY_ONE  # pyright: ignore[reportPrivateUsage]
from typed_toolsets.call.validation import Problem, collect
from typed_toolsets.testing import arguments, invalid_arguments
from typed_toolsets.types.validator import make_validator

EVERYTHING = 10**9
#: Arrays up to this long are checked item by item by the generated code.
ONE_BY_ONE = _CHECKED_ONE_BY_ONE


def reference(schema: dict[str, Any], instance: object) -> list[Problem]:
    errors = make_validator(schema).iter_errors(instance)
    return collect(
        itertools.chain.from_iterable(expand(e, (), schema) for e in errors), EVERYTHING
    )[0]


def arrays(value: object) -> list[list[Any]]:
    found: list[list[Any]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            found.append(item)
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return found


def unordered_somewhere(schema: object) -> bool:
    """jsonschema walks the keys of a free-form object (``dict[str, T]``) in set order."""
    text = json.dumps(schema)
    return '"additionalProperties": {' in text


def agree(schema: dict[str, Any], instance: object) -> None:
    # jsonschema 4 misses some duplicates (arrays mixing true and 1); the checker does not.
    assume(all(uniq(a) == (len({json_key(i) for i in a}) == len(a)) for a in arrays(instance)))
    same_problems(schema, instance)


def same_problems(schema: dict[str, Any], instance: object) -> None:
    expected = reference(schema, instance)
    checker = Checker(schema)
    found, more = checker.problems(instance, EVERYTHING)
    assert not more
    if checker.distinct:  # read without a set of the problems seen: it must hold no repeat
        stream = list(checker.errors(instance, None, {}))
        assert len(set(stream)) == len(stream), stream
    if unordered_somewhere(schema):
        assert sorted(found, key=repr) == sorted(expected, key=repr)
    else:
        assert found == expected
    assert Checker(schema).is_valid(instance) == (not expected)


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
_settings = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@_settings
@given(st.data())
def test_valid_arguments_have_no_problems(data: st.DataObject) -> None:
    proxy = echo_tool(data.draw(cases()).annotation)
    agree(proxy.parameters, data.draw(arguments(proxy)))


@_settings
@given(st.data())
def test_near_misses_have_the_same_problems(data: st.DataObject) -> None:
    proxy = echo_tool(data.draw(cases()).annotation)
    agree(proxy.parameters, dict(data.draw(invalid_arguments(proxy)).arguments))


@_settings
@given(st.data())
def test_any_json_has_the_same_problems(data: st.DataObject) -> None:
    proxy = echo_tool(data.draw(cases()).annotation)
    agree(proxy.parameters, {"value": data.draw(json_values)})


def test_generated_unions_keep_the_order_drawn() -> None:
    # typing would hand back the order it cached first (Optional[Union[Chain, Tree]] for
    # Optional[Union[Tree, Chain]]): the draws of `arguments` would then depend on the examples
    # run before, and Hypothesis's replay of a failure would find other data (a flaky test).
    cached = typing.Optional[typing.Union[Chain, Tree]]  # noqa: UP007, UP045
    assert typing.get_args(cached) == (Chain, Tree, type(None))
    assert typing.get_args(union(union(Tree, Chain), type(None))) == (Tree, Chain, type(None))
    _ = typing.Sequence[typing.Union[Chain, Tree]]  # noqa: UP007 - cached first
    inner = typing.get_args(fresh(typing.Sequence, union(Tree, Chain)))[0]
    assert typing.get_args(inner) == (Tree, Chain)


def test_keywords_match_jsonschema() -> None:
    from jsonschema import Draft202012Validator

    assert set(Draft202012Validator.VALIDATORS) == ASSERTING


class Rank(enum.Enum):
    SECOND = 2
    THIRD = 3


@pytest.mark.parametrize(
    ("annotation", "value"),
    [
        (list[int], [1, True, 2.0, 2.5, "3", None, 4, [5], {"6": 6}]),
        (list[float], [1, 1.5, False, "x", 2]),
        (list[str], ["a", "b", *([1] * 30)]),  # more problems than the cap
        # Short arrays are checked item by item, longer ones by their types first.
        (list[int], [1, "2", *range(3, ONE_BY_ONE), None]),
        (list[int], [1, "2", *range(3, ONE_BY_ONE + 1), None]),
        (list[str], list(range(ONE_BY_ONE + 1))),  # none of the type
        (list[str], ["a", *range(ONE_BY_ONE + 1)]),
        (list[str], [1]),
        (set[int], [1, 2, 1.0]),
        (set[int], [1, 2, "1", 3, 2]),
        (set[str | None], ["a", None, "b", None]),
        # Booleans meet numbers in JSON (a plain enum's members equal no bool in Python).
        (set[Rank | bool], [True, False, 2, 3, 2]),
        (set[Rank | bool], [True, 2, True]),
    ],
)
def test_arrays_read_by_the_types_of_their_items_agree(annotation: object, value: object) -> None:
    """Items are first sorted by their Python types, in C: the problems stay jsonschema's."""
    proxy = echo_tool(annotation)
    same_problems(proxy.parameters, {"value": value})
    assert Checker(proxy.parameters).problems({"value": value})[0]


@pytest.mark.parametrize(
    "value",
    ["low", "urgent", "a{b}", "it's", 'say "hi"', 1, True, None, ["low"], {"low": 1}, "LOW"],
)
def test_enums_and_constants_of_strings_inlined_agree(value: object) -> None:
    """Enums of a few strings are checked by an inlined set membership: jsonschema's verdict."""
    strings = ["low", "high", "a{b}", "it's", 'say "hi"']
    for schema in (
        {"type": "object", "properties": {"value": {"enum": strings}}},
        {"type": "object", "properties": {"value": {"const": "a{b}"}}},
        {"type": "object", "properties": {"value": {"type": "array", "items": {"enum": strings}}}},
    ):
        same_problems(schema, {"value": value})
        same_problems(schema, {"value": [value, value]})
