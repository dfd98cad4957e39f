"""How deep JSON text nests, from its brackets: `typed_toolsets.types.brackets`."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from typed_toolsets.types import brackets, handover
from typed_toolsets.types.brackets import depth_over, outside_strings, text_depth

_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def _running_sum_top(text: str) -> int:
    """The definition: the highest running sum of the brackets outside strings, at least 0."""
    data = outside_strings(text).encode("utf-8", "surrogatepass")
    steps = [_STEP[byte] for byte in data if byte in _STEP]
    return max(0, *itertools.accumulate(steps)) if steps else 0


def _balanced(levels: list[bool]) -> str:
    """Brackets that balance: True opens (a list or an object, alternately), False closes."""
    out: list[str] = []
    stack: list[str] = []
    for opens in levels:
        if opens or not stack:
            stack.append("]" if len(stack) % 2 else "}")
            out.append("[" if len(stack) % 2 == 0 else "{")
        else:
            out.append(stack.pop())
    return "".join(out) + "".join(reversed(stack))


#: Texts of the characters that matter (brackets, quotes, escapes), and some that do not.
texts = st.text(st.sampled_from(list('[]{}"\\a:, é\ud800')), max_size=60)


@given(texts)
def test_the_depth_is_the_highest_running_sum_outside_strings(text: str) -> None:
    assert text_depth(text) == _running_sum_top(text)
    data = text.encode("utf-8", "surrogatepass")
    assert text_depth(data) == text_depth(text)  # bytes are measured as their text is


@given(texts, st.integers(0, 8))
def test_depth_over_says_the_depth_exactly_when_it_is_over_the_limit(text: str, limit: int) -> None:
    depth = _running_sum_top(text)
    assert depth_over(text, limit) == (depth if depth > limit else None)


@given(st.lists(st.booleans(), max_size=200), st.integers(0, 8))
def test_balanced_brackets_are_measured_by_their_passes(levels: list[bool], limit: int) -> None:
    # Valid JSON's brackets balance: the passes and what is left say the depth, never summing
    # up all the brackets.
    text = _balanced(levels)
    square = brackets._brackets(text).translate(brackets._SQUARE)
    depth = _running_sum_top(text)
    assert brackets._summed(square) == (depth, True)
    assert brackets._measured(brackets._brackets(text)) == depth
    assert brackets._measured(brackets._brackets(text), limit) == (depth if depth > limit else None)


@given(texts, st.integers(0, 8))
def test_a_measure_within_the_limit_is_the_only_none(text: str, limit: int) -> None:
    depth = _running_sum_top(text)
    found = brackets._measured(brackets._brackets(text), limit)
    assert found is None or found == depth
    if depth > limit:
        assert found == depth


def test_strings_and_escapes_hold_no_bracket() -> None:
    assert text_depth('{"a": "[[[[", "b": "\\\\"}') == 1
    assert text_depth('["\\"[", [[]]]') == 3
    assert text_depth(b'{"a": "\\u005b]", "b": [{}]}') == 3


def _wide(levels: int, copies: int) -> str:
    """``{"a": [...]}`` holding *copies* arrays, the whole nested *levels* deep."""
    inner = levels - 2
    return '{"a": [' + ",".join(["[" * inner + "]" * inner] * copies) + "]}"


def test_a_dense_text_is_measured_rather_than_its_value_walked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Walking a megabyte of nested arrays took 0.3 s, measuring its text 20 ms.
    text = _wide(40, 2_000)
    value = json.loads(text)
    opened = text.count("[")

    def walked(value: object, max_depth: int) -> bool:
        raise AssertionError("walked")

    monkeypatch.setattr(handover, "too_deep", walked)
    assert handover.nests_deeper(text, value, 32, opened)
    assert not handover.nests_deeper(text, value, 40, opened)
    assert handover.nests_deeper(text.encode(), value, 39, opened)
    # Few containers, most of the text a string: the value is walked.
    sparse = json.dumps({"a": [[[]]] * 5_000, "b": "x" * 500_000})
    with pytest.raises(AssertionError, match="walked"):
        handover.nests_deeper(sparse, json.loads(sparse), 2, sparse.count("["))
