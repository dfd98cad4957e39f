"""Finding the items of a list that are not of given Python types, in passes made in C.

A list of JSON values usually holds one Python type throughout (ints, strings): the structuring
code keeps such items as they are, and the checker looks only at the others.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable
from typing import Any, Final

__all__ = ["SHORT", "inexact", "kept_items"]

#: Below this many items, calling a hook on each costs less than listing their types.
SHORT: Final = 4


def inexact(items: list[Any], exact: frozenset[type]) -> Iterable[int]:
    """The indexes of the *items* whose Python type is not one of *exact*, in order.

    The types are listed and counted in C (counting is a pointer comparison per item when they
    match), and the others are picked out in C too: no Python step per item.
    """
    types = list(map(type, items))
    size = len(types)
    if sum(map(types.count, exact)) == size:
        return ()
    if len(exact) == 1:
        (kind,) = exact
        odd: Iterable[bool] = map(operator.is_not, types, itertools.repeat(kind))
    else:
        odd = map(operator.not_, map(exact.__contains__, types))
    return itertools.compress(range(size), odd)


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
