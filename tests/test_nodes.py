"""The generated checks of `typed_toolsets.call.nodes`: repeated type tests are written once."""

from __future__ import annotations

import pytest

from typed_toolsets.call.checker import Checker
from typed_toolsets.call.nodes import _merged  # pyright: ignore[reportPrivateUsage]


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
