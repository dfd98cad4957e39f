"""The items of a list not of given Python types: found in C, in order, kept or replaced."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from typed_toolsets.types.items import inexact, kept_items

_values = st.lists(
    st.one_of(st.integers(), st.floats(allow_nan=False), st.text(max_size=3), st.booleans()),
    max_size=40,
)
_kinds = st.sampled_from([frozenset({int}), frozenset({str}), frozenset({int, float})])


@given(_values, _kinds)
def test_inexact_lists_the_other_items_in_order(items: list[Any], exact: frozenset[type]) -> None:
    assert list(inexact(items, exact)) == [
        index for index, item in enumerate(items) if type(item) not in exact
    ]


@given(_values)
def test_kept_items_calls_the_hook_only_for_the_others(items: list[Any]) -> None:
    called: list[object] = []

    def hook(value: object) -> object:
        called.append(value)
        return value if type(value) is int else ("hooked", value)

    kept = kept_items(items, frozenset({int}), hook)
    assert kept == [item if type(item) is int else ("hooked", item) for item in items]
    assert called == [item for item in items if type(item) is not int]
    assert (kept is items) == (not called)


def test_a_hook_that_raises_leaves_the_items_as_they_were() -> None:
    items: list[object] = [1, 2.0, "x"]

    def hook(value: object) -> object:
        if isinstance(value, str):
            raise ValueError(value)
        return int(value)  # type: ignore[call-overload]

    with pytest.raises(ValueError, match="x"):
        kept_items(items, frozenset({int}), hook)
    assert items == [1, 2.0, "x"]
    assert type(items[1]) is float


@given(st.integers(0, 300), st.sets(st.integers(0, 299), max_size=12))
def test_inexact_finds_a_few_odd_items_in_a_long_list(size: int, places: set[int]) -> None:
    items: list[object] = list(range(size))
    for place in places:
        if place < size:
            items[place] = str(place)
    assert list(inexact(items, frozenset({int}))) == sorted(p for p in places if p < size)
    assert list(inexact(items, frozenset({int, float}))) == sorted(p for p in places if p < size)


@given(_values)
def test_all_of_is_every_item_of_exactly_that_type(items: list[Any]) -> None:
    from typed_toolsets.types.items import all_of

    assert all_of(items, int) == all(type(item) is int for item in items)


@pytest.mark.parametrize("size", [0, 1, 16, 17, 40])
def test_all_of_finds_one_odd_item_anywhere_in_a_list_or_a_dict_s_values(size: int) -> None:
    from typed_toolsets.types.items import all_of

    items: list[Any] = list(range(size))
    assert all_of(items, int)
    assert all_of(dict(enumerate(items)).values(), int)
    for place in range(size):
        odd = [*items]
        odd[place] = place == 0  # a bool is an int, but not exactly one
        assert not all_of(odd, int)
        assert not all_of(dict(enumerate(odd)).values(), int)


@pytest.mark.parametrize("size", [1, 8, 9, 64, 1_000])
def test_inexact_of_a_list_without_one_exact_item_is_every_index(size: int) -> None:
    items = [str(index) for index in range(size)]
    assert list(inexact(items, frozenset({int}))) == list(range(size))
    assert list(inexact([*items, 0], frozenset({int}))) == list(range(size))
