"""Values drawn from a registered type's schema (`typed_toolsets.testing._schemavalues`)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from typed_toolsets.testing._schemavalues import schema_values

DRAWN = [
    {"type": "string"},
    {"type": "string", "minLength": 2, "maxLength": 3},
    {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]{1,2})?$"},
    {"type": "string", "pattern": "[a-z]"},
    {"type": "integer", "minimum": -3, "exclusiveMaximum": 7.5},
    {"type": "integer", "exclusiveMinimum": 2, "maximum": 3.5},
    {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
    {"type": "number", "minimum": 0.5, "maximum": 0.75},
    {"type": "boolean"},
    {"type": "null"},
    {"enum": ["a", 1, None]},
    {"const": {"k": [1]}},
]

NOT_DRAWN = [
    {},  # every JSON value: left to the type's strategy
    {"type": "string", "format": "date"},
    {"type": "number", "multipleOf": 0.5},
    {"type": ["string", "null"]},
    {"type": "object", "properties": {}},
    {"type": "string", "pattern": "^a+$", "maxLength": 3},
    {"type": "integer", "minimum": 0, "exclusiveMinimum": 1},
    {"enum": []},
    {"type": "integer", "exclusiveMinimum": 2, "maximum": 2.5},  # no integer at all
]


@pytest.mark.parametrize("schema", DRAWN)
@given(data=st.data())
def test_every_value_drawn_is_one_the_schema_admits(
    schema: dict[str, Any], data: st.DataObject
) -> None:
    strategy = schema_values(schema)
    assert strategy is not None
    value = data.draw(strategy)
    jsonschema.Draft202012Validator(schema).validate(value)


@pytest.mark.parametrize("schema", NOT_DRAWN)
def test_a_schema_not_drawn_exactly_is_left_to_the_strategy(schema: dict[str, Any]) -> None:
    assert schema_values(schema) is None


def test_a_pattern_s_values_are_not_only_what_a_hook_would_write() -> None:
    # The point of drawing from the schema: "12" and "-0.5" are admitted, as "12.00" is.
    strategy = schema_values({"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]{1,2})?$"})
    assert strategy is not None
    seen: set[bool] = set()

    @given(strategy)
    def collect(text: str) -> None:
        seen.add("." in text)

    collect()
    assert seen == {True, False}


@pytest.mark.parametrize(
    ("schema", "spellings"),
    [
        ({"type": "integer", "minimum": 0}, {int, float}),
        ({"enum": [1, 2]}, {int, float}),
        ({"const": 3.0}, {int, float}),
        ({"enum": ["a", True, 1.5]}, {str, bool, float}),
    ],
)
def test_a_whole_number_is_drawn_in_both_json_spellings(
    schema: dict[str, Any], spellings: set[type]
) -> None:
    # JSON's 3 and 3.0 are the same number for the schema: a model may send either, and the
    # structure hook gets what was sent.
    strategy = schema_values(schema)
    assert strategy is not None
    seen: set[type] = set()

    @given(strategy)
    def collect(value: object) -> None:
        seen.add(type(value))

    collect()
    assert seen == spellings
