"""A string holding the JSON of the wanted value is refused, with what is wanted instead."""

from __future__ import annotations

import enum
import inspect
import json
from typing import Literal

import pytest

from tests.strategies.toolsets import make_echo_toolset
from typed_toolsets import ToolProxy
from typed_toolsets.call.checker import Checker
from typed_toolsets.call.jsonschema_errors import problems
from typed_toolsets.call.quoted import quoted_hint
from typed_toolsets.types.validator import make_validator

ARRAY = "; the array itself is wanted, not a string holding its JSON"
OBJECT = "; the object itself is wanted, not a string holding its JSON"


def echo(annotation: object) -> ToolProxy:
    cls = make_echo_toolset([("value", annotation, inspect.Parameter.empty)])
    return cls.to_tools()[0]


def reason(annotation: object, value: object) -> str:
    result = echo(annotation).invoke({"value": value})
    assert result.error is not None
    assert result.error.kind == "arguments"
    (problem,) = result.error.details
    return problem.message


@pytest.mark.parametrize(
    ("annotation", "sent", "expected"),
    [
        (list[str], '["a", "b"]', "'[\"a\", \"b\"]' is not of type 'array'" + ARRAY),
        (dict[str, int], ' {"a": 1} ', "' {\"a\": 1} ' is not of type 'object'" + OBJECT),
        (int, "5", "'5' is not of type 'integer'; 5 is wanted, without quotes"),
        (int, "-1e3", "'-1e3' is not of type 'integer'; -1e3 is wanted, without quotes"),
        (int, "-12", "'-12' is not of type 'integer'; -12 is wanted, without quotes"),
        (float, "0", "'0' is not of type 'number'; 0 is wanted, without quotes"),
        (float, "2.5", "'2.5' is not of type 'number'; 2.5 is wanted, without quotes"),
        (bool, "false", "'false' is not of type 'boolean'; false is wanted, without quotes"),
        # Python's spellings, another case: the JSON word meant.
        (bool, "True", "'True' is not of type 'boolean'; true is wanted, without quotes"),
        (bool, " FALSE", "' FALSE' is not of type 'boolean'; false is wanted, without quotes"),
        (
            bool | None,
            "None",
            "'None' is not valid here; expected a boolean or null; null is wanted, without quotes",
        ),
        (
            int,
            "1" * 50,
            f"'{'1' * 50}' is not of type 'integer'; the number itself is wanted, without quotes",
        ),
        (
            dict[str, int] | None,
            '{"a": 1}',
            "'{\"a\": 1}' is not valid here; expected an object or null" + OBJECT,
        ),
    ],
)
def test_the_value_itself_is_asked_for(annotation: object, sent: str, expected: str) -> None:
    assert reason(annotation, sent) == expected
    # The same from JSON text, and the call stays strict: nothing was read from the string.
    text = echo(annotation).dynamic_call(json.dumps({"value": sent}))
    assert text.endswith(f"value: {expected}")


@pytest.mark.parametrize(
    ("annotation", "sent"),
    [
        (list[str], "[oops"),  # not JSON
        (int, "2.5"),  # JSON, but no integer
        (int, "007"),  # no JSON number has a leading zero
        (int, "[1]"),  # JSON of another type than the one wanted
        (list[int], "5"),
        (int, "True"),  # Python's spelling of a boolean, not wanted
        (int | None, "True"),
        (bool, "Nonee"),
        (int, "NaN"),
        (float, "1e400"),  # overflows a float: refused without quotes too
        (float, "-1e400"),
        (int, "[" * 5000),  # nested past what is read for a hint
        (list[int], json.dumps(list(range(3000)))),  # longer than what is read for a hint
    ],
)
def test_no_hint_for_a_string_that_holds_no_wanted_value(annotation: object, sent: str) -> None:
    assert "is wanted" not in reason(annotation, sent)


def test_a_hint_is_only_for_strings() -> None:
    assert quoted_hint(5, frozenset({"string"})) == ""
    assert quoted_hint(["5"], frozenset({"integer"})) == ""
    assert quoted_hint("5", frozenset({"integer"})) == "; 5 is wanted, without quotes"


def test_the_checker_and_jsonschema_s_errors_say_the_same() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer"},
            "xs": {"type": "array", "items": {"type": "integer"}},
            "m": {"anyOf": [{"type": "object"}, {"type": "null"}]},
        },
    }
    instance = {"n": "7", "xs": ["1", "[2]"], "m": "{}"}
    found = Checker(schema).problems(instance, 20)
    assert found == problems(make_validator(schema), instance)
    assert [reason for _, reason in found[0]] == [
        "'7' is not of type 'integer'; 7 is wanted, without quotes",
        "'1' is not of type 'integer'; 1 is wanted, without quotes",
        "'[2]' is not of type 'integer'",
        "'{}' is not valid here; expected an object or null" + OBJECT,
    ]


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@pytest.mark.parametrize(
    ("annotation", "sent", "expected"),
    [
        (Literal[1, 2], "2", "'2' is not one of [1, 2]; 2 is wanted, without quotes"),
        (Level, " 1 ", "' 1 ' is not one of [1, 2]; 1 is wanted, without quotes"),
        (Literal[1, 2], "2.0", "'2.0' is not one of [1, 2]; 2.0 is wanted, without quotes"),
        (
            Literal["a", None],
            "null",
            "'null' is not one of ['a', null]; null is wanted, without quotes",
        ),
        (
            Literal[True],
            "true",
            "'true' is not true, the only accepted value; true is wanted, without quotes",
        ),
        # No member: no hint; and a string enum's members are strings already.
        (Literal[1, 2], "3", "'3' is not one of [1, 2]"),
        (Literal[1, 2], "true", "'true' is not one of [1, 2]"),
        (Literal["a", "b"], "1", "'1' is not one of ['a', 'b']"),
        (Literal["1", 2], "2", "'2' is not one of ['1', 2]; 2 is wanted, without quotes"),
        # In a union, a variant of constants wants its members only, not any integer.
        (
            Literal[1, 2] | None,
            "1",
            "'1' is not valid here; expected one of [1, 2] or null; 1 is wanted, without quotes",
        ),
        (Literal[1, 2] | None, "3", "'3' is not valid here; expected one of [1, 2] or null"),
    ],
)
def test_a_string_holding_an_enum_member_asks_for_the_member(
    annotation: object, sent: str, expected: str
) -> None:
    assert reason(annotation, sent) == expected
    text = echo(annotation).dynamic_call(json.dumps({"value": sent}))
    assert text.endswith(f"value: {expected}")
    schema = echo(annotation).parameters
    instance = {"value": sent}
    assert Checker(schema).problems(instance, 20) == problems(make_validator(schema), instance)
