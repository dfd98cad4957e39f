"""Finding the items of a list that are not of given Python types, in passes made in C.

A list of JSON values usually holds one Python type throughout (ints, strings): the structuring
code keeps such items as they are, and the checker looks only at the others.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Collection, Iterable
from typing import Any, Final

__all__ = ["SHORT", "all_of", "inexact", "kept_items"]

#: Below this many items, calling a hook on each costs less than listing their types.
SHORT: Final = 4
# With at most one odd item in this many, they are found by halving (else in one pass).
_SPARSE: Final = 64
# Up to this many items, a loop over them costs less than listing their types and counting them
# (measured: 3 items 140 ns against 340, 16 items 365 against 500).
_LOOPED: Final = 16


def all_of(items: Collection[Any], kind: type) -> bool:
    """Whether every one of *items* is exactly of type *kind*.

    Many items are listed by type and counted in C (a pointer comparison each); a few are looked
    at one by one.
    """
    if len(items) <= _LOOPED:
        for item in items:  # noqa: SIM110 - all() over a generator costs a frame more
            if type(item) is not kind:
                return False
        return True
    return list(map(type, items)).count(kind) == len(items)


def inexact(items: list[Any], exact: frozenset[type]) -> Iterable[int]:
    """The indexes of the *items* whose Python type is not one of *exact*, in order.

    The types are listed and counted in C: counting is a pointer comparison per item when they
    match, so a list holding only *exact* types costs two passes. The others are found by
    halving: a part whose count says it holds none is not looked into, so a few odd items in a
    long list cost a few dozen counts over shrinking slices; when they are many, one pass in C
    picks them all.
    """
    types = list(map(type, items))
    size = len(types)
    odd = size - _count(types, exact)
    if not odd:
        return ()
    if odd == size:  # none of them: nothing to pick
        return range(size)
    if odd * _SPARSE > size:
        if len(exact) == 1:
            (kind,) = exact
            flags: Iterable[bool] = map(operator.is_not, types, itertools.repeat(kind))
        else:
            flags = map(operator.not_, map(exact.__contains__, types))
        return itertools.compress(range(size), flags)
    found: list[int] = []
    # (start, end, how many odd items between): the right half is pushed first, so the left
    # one is split first and the indexes come out in order.
    parts = [(0, size, odd)]
    while parts:
        start, end, inside = parts.pop()
        if inside == end - start:
            found.extend(range(start, end))
            continue
        middle = (start + end) // 2
        left = middle - start - _count(types[start:middle], exact)
        if inside > left:
            parts.append((middle, end, inside - left))
        if left:
            parts.append((start, middle, left))
    return found


def _count(types: list[type], exact: frozenset[type]) -> int:
    """How many of *types* are in *exact*."""
    if len(exact) == 1:
        (kind,) = exact
        return types.count(kind)
    return sum(map(types.count, exact))


def kept_items(items: list[Any], kind: frozenset[type], hook: Callable[[Any], Any]) -> list[Any]:
    """``[hook(item) for item in items]``, where *hook* returns items of *kind* unchanged.

    Only the items not of *kind* cost a call, and *items* itself is returned when all are of
    *kind* (worth it from `SHORT` items on). A hook that raises leaves *items* as they were.
    """
    odd = inexact(items, kind)
    if odd == ():
        return items
    result = items.copy()
    for index in odd:
        result[index] = hook(items[index])
    return result
