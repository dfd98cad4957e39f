"""What a set's items may be: the one rule, for the runtime and the mypy plugin.

A Python set keeps one of two items that compare equal; JSON Schema's ``uniqueItems`` compares
JSON values. The two agree for strings, numbers, enums, literals and tuples of those, except
where a boolean can meet a number equal to it at one place: ``true`` and ``1`` are two items in
JSON, ``True == 1`` in Python. Such an item type is refused rather than merged silently. (Two
spellings of one instant or one UUID, ``Z`` and ``+00:00``, upper and lower case, are two items
in JSON and one in the set the method gets: what the model meant, kept once.)

Standard library only: the mypy plugin imports this module on every run.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal, TypeAlias

__all__ = ["ITEM_KINDS", "Place", "Scalar", "booleans_meet_numbers", "mixed", "unhashable"]

#: Where a scalar sits in an item: ``()`` for the item itself, then a tuple index, or ``"*"``
#: for any index of a variable-length tuple.
Place: TypeAlias = "tuple[int | str, ...]"
#: What stands there: a boolean value (``True``, ``False``), a number value that equals one
#: (``1``, ``0``), or ``"number"`` for any number. Other numbers equal no boolean.
Scalar: TypeAlias = "bool | int | float | Literal['number']"

#: What a set's items may be, as the messages say it.
ITEM_KINDS: Final = (
    "strings, numbers, booleans, enums, literals, dates, times, UUIDs or tuples of those"
)


def _same_place(first: Place, second: Place) -> bool:
    return len(first) == len(second) and all(
        a == b or a == "*" or b == "*" for a, b in zip(first, second, strict=True)
    )


def booleans_meet_numbers(scalars: Iterable[tuple[Place, Scalar]]) -> bool:
    """Whether a boolean and a number equal to it can stand at one place of two items."""
    found = list(scalars)
    booleans = [(place, value) for place, value in found if isinstance(value, bool)]
    numbers = [(place, value) for place, value in found if not isinstance(value, bool)]
    return any(
        _same_place(b_place, n_place) and (number == "number" or number == boolean)
        for b_place, boolean in booleans
        for n_place, number in numbers
    )


def unhashable(shown: str) -> str:
    """Why items of the type *shown* cannot be a set's."""
    return f"set items must be {ITEM_KINDS} (got {shown})"


def mixed(shown: str) -> str:
    """Why items of the type *shown*, where booleans meet numbers, cannot be a set's."""
    return (
        f"set items of type {shown} can hold a boolean and a number equal to it at one place, "
        "which JSON tells apart (true, 1) but a Python set merges (True == 1); use a list, or "
        "keep booleans and numbers apart"
    )
