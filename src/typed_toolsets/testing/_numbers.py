"""Strategies of numbers within JSON Schema's numeric constraints, multiples as JSON writes them."""

from __future__ import annotations

import math
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any, Final

from hypothesis import strategies as st

__all__ = ["NOTHING", "Constraints", "floats_within", "integers_within", "limits"]

#: A schema's numeric and size keywords with their values, in the order the schema gives them.
Constraints = tuple[tuple[str, "int | float"], ...]
#: The strategy with no values (typed: Hypothesis's own is generic in nothing).
NOTHING: st.SearchStrategy[Any] = st.nothing()  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]


def limits(constraints: Constraints, *keywords: str) -> list[int | float]:
    """The values of the constraints named *keywords*, in order."""
    return [limit for keyword, limit in constraints if keyword in keywords]


def _integer_bounds(constraints: Constraints) -> tuple[int | None, int | None]:
    lows = [math.ceil(v) for v in limits(constraints, "minimum")]
    lows += [math.floor(v) + 1 for v in limits(constraints, "exclusiveMinimum")]
    highs = [math.floor(v) for v in limits(constraints, "maximum")]
    highs += [math.ceil(v) - 1 for v in limits(constraints, "exclusiveMaximum")]
    return (max(lows) if lows else None), (min(highs) if highs else None)


def integers_within(
    constraints: Constraints, low: int | None = None, high: int | None = None
) -> st.SearchStrategy[int]:
    """Integers within the numeric constraints (and within *low*..*high* when given)."""
    bottom, top = _integer_bounds(constraints)
    if low is not None:
        bottom = low if bottom is None else max(bottom, low)
    if high is not None:
        top = high if top is None else min(top, high)
    if bottom is not None and top is not None and bottom > top:
        return NOTHING
    steps = limits(constraints, "multipleOf")
    if steps and float(steps[0]).is_integer():
        # As JSON writes it: 1e23 is 10**23, not int(1e23) (`not_multiple`).
        step = int(Decimal(repr(steps[0]))) if isinstance(steps[0], float) else steps[0]
        first = None if bottom is None else -(-bottom // step)
        last = None if top is None else top // step
        if first is not None and last is not None and first > last:
            return NOTHING
        return st.integers(first, last).map(lambda k: k * step)
    return st.integers(bottom, top)


def _tightest(
    constraints: Constraints, inclusive: str, exclusive: str, *, lower: bool
) -> tuple[float, bool] | None:
    """The tightest of the bounds named *inclusive* / *exclusive*, and whether it is exclusive."""
    bounds = [(float(v), False) for v in limits(constraints, inclusive)]
    bounds += [(float(v), True) for v in limits(constraints, exclusive)]
    if not bounds:
        return None
    # At equal values the exclusive bound is the tighter one.
    if lower:
        return max(bounds)
    return min(bounds, key=lambda bound: (bound[0], not bound[1]))


def _empty_range(low: tuple[float, bool] | None, high: tuple[float, bool] | None) -> bool:
    if low is None or high is None:
        return False
    return low[0] > high[0] or (low[0] == high[0] and (low[1] or high[1]))


def floats_within(constraints: Constraints) -> st.SearchStrategy[float]:
    """Finite floats within the numeric constraints."""
    low = _tightest(constraints, "minimum", "exclusiveMinimum", lower=True)
    high = _tightest(constraints, "maximum", "exclusiveMaximum", lower=False)
    steps = limits(constraints, "multipleOf")
    if steps:
        # Multiples of the step; values at the edges are settled by the caller's final check.
        step = steps[0]
        # k times the step as written (0.3, not 3 * 0.1 = 0.30000000000000004, which is no
        # multiple of 0.1 as JSON writes it: `not_multiple`).
        written = Decimal(repr(float(step)))
        # Past the largest float, k times the step is no number JSON can hold. (Divided as
        # fractions of the step as written: a bound near the float range over a small step
        # overflows a float, and a step's written form may be above its binary value.)
        per = Fraction(written)
        widest = math.floor(Fraction(sys.float_info.max) / abs(per))
        first = -widest if low is None else math.ceil(Fraction(low[0]) / per)
        last = widest if high is None else math.floor(Fraction(high[0]) / per)
        if first > last:
            return NOTHING
        digits = _FLOAT_DIGITS - len(written.as_tuple().digits)
        return st.integers(first, last).map(
            lambda k: float(_few_digits(k, digits, first, last) * written)
        )
    if _empty_range(low, high):
        return NOTHING
    return st.floats(
        min_value=None if low is None else low[0],
        max_value=None if high is None else high[0],
        exclude_min=low is not None and low[1],
        exclude_max=high is not None and high[1],
        allow_nan=False,
        allow_infinity=False,
    )


#: Every decimal with at most this many significant digits is read back from a float as written.
_FLOAT_DIGITS: Final = sys.float_info.dig


def _few_digits(k: int, digits: int, first: int, last: int) -> int:
    """*k*, or a number near it in ``[first, last]`` with at most *digits* significant digits.

    A multiple of a step with more digits than a float holds is rounded when read as one, and
    the float's shortest form is then seldom a multiple (near ``1e300``, one in seventeen for a
    step of ``1.7``): so many draws would be thrown away that Hypothesis gives up.
    """
    if digits <= 0 or -(10**digits) < k < 10**digits:
        return k
    unit = 10 ** (len(str(abs(k))) - digits)
    kept = k // unit * unit
    if kept < first:
        kept += unit
    return kept if kept <= last else k  # a range narrower than the unit: none has few digits
