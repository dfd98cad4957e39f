"""How messages show the user's values: one safe repr, cut where asked (rules/labels.py)."""

from __future__ import annotations

import re
import sys

import pytest

from typed_toolsets import Limits, ToolsetDefinitionError
from typed_toolsets.rules.labels import safe_repr

from .strategies.toolsets import make_echo_toolset


class _NoRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr today")


class _WrongRepr:
    def __repr__(self) -> str:
        return 5  # type: ignore[return-value]  # a repr that gives no str


def test_a_value_is_shown_by_its_repr() -> None:
    assert safe_repr([1, "a"]) == "[1, 'a']"


@pytest.mark.parametrize("value", [_NoRepr(), _WrongRepr()])
def test_a_failing_repr_names_the_type(value: object) -> None:
    assert safe_repr(value) == f"<{type(value).__name__}>"


def test_an_int_past_the_digit_limit_is_described_by_its_size() -> None:
    if not hasattr(sys, "get_int_max_str_digits"):
        pytest.skip("this interpreter has no digit limit")
    huge = 10 ** (sys.get_int_max_str_digits() + 5)
    assert re.fullmatch(r"<an integer of about \d+ digits>", safe_repr(huge))


def test_a_long_repr_is_cut_to_the_limit() -> None:
    shown = safe_repr("x" * 500, 40)
    assert len(shown) == 40
    assert shown.endswith("...")
    assert safe_repr("short", 40) == "'short'"


def test_limits_show_a_huge_value_cut() -> None:
    with pytest.raises(ValueError, match=r"got 1000000000\d+\.\.\.\)") as caught:
        Limits(timeout=10**300)
    assert len(str(caught.value)) < 200


def test_a_default_with_a_long_repr_is_cut_in_the_definition_error() -> None:
    with pytest.raises(ToolsetDefinitionError) as caught:
        make_echo_toolset([("n", int, "x" * 5000)])
    assert "xxx..." in str(caught.value)
    assert len(str(caught.value)) < 1000
