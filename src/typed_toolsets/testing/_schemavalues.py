"""JSON values of a registered type's schema, drawn from the schema alone (simple ones only).

A registered type's strategy gives the values its unstructure hook writes; a model sends any
value the schema admits (``"12"`` where the hook writes ``"12.00"``), which the structure hook
must take too. So `typed_toolsets.testing.arguments` draws a registered type's JSON from both.
"""

from __future__ import annotations

import math
import typing
from collections.abc import Mapping
from typing import Any, Final

from hypothesis import strategies as st

__all__ = ["SAFE_INTEGER", "schema_values"]

#: Whole numbers up to this size are exactly floats too (2**53): a JSON ``3.0`` is ``3``.
SAFE_INTEGER: Final = 2**53

#: The keywords `schema_values` draws exactly; a schema with any other is left to its strategy.
_WORDS: Final = frozenset(
    {
        "type",
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "enum",
        "const",
        "title",
        "description",
        "examples",
        "default",
        "$comment",
    }
)


def schema_values(schema: Mapping[str, Any]) -> st.SearchStrategy[Any] | None:
    """Values *schema* admits (a string, a number, a boolean, null or constants), or None.

    None for a schema with another keyword (``format``, ``multipleOf``, an object's), several
    types, or a pattern with length bounds: its values cannot be drawn exactly here. Every value
    drawn is one the schema admits; not every such value is drawn (see `_text`).
    """
    if not set(schema) <= _WORDS:
        return None
    if "const" in schema:
        return st.sampled_from(_spellings(schema["const"]))
    if "enum" in schema:
        constants: object = schema["enum"]
        if not isinstance(constants, list) or not constants:
            return None
        listed = typing.cast("list[object]", constants)
        return st.sampled_from([spelling for c in listed for spelling in _spellings(c)])
    kind = schema.get("type")
    if kind == "string":
        return _text(schema)
    if kind == "integer" or kind == "number":
        return _number(schema, integer=kind == "integer")
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return None


def _text(schema: Mapping[str, Any]) -> st.SearchStrategy[str] | None:
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    if not isinstance(low, int) or not (high is None or isinstance(high, int)):
        return None
    pattern = schema.get("pattern")
    if pattern is None:
        return st.text(min_size=low, max_size=high)
    if not isinstance(pattern, str) or low or high is not None:
        return None
    # jsonschema searches for the pattern as Hypothesis draws for it. A `$` also matches before
    # a trailing newline in Python (not in JSON Schema's ECMA-262): such texts are left out.
    return st.from_regex(pattern).filter(lambda text: not text.endswith("\n"))


def _number(schema: Mapping[str, Any], *, integer: bool) -> st.SearchStrategy[Any] | None:
    bounds = [schema.get(k) for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")]
    if not all(b is None or (isinstance(b, (int, float)) and math.isfinite(b)) for b in bounds):
        return None
    low, high, above, below = bounds
    if (low is not None and above is not None) or (high is not None and below is not None):
        return None  # both bounds of a side: rare, and not worth drawing exactly
    least = None if low is None and above is None else _ceil(low, above)
    most = None if high is None and below is None else _floor(high, below)
    if least is not None and most is not None and least > most:
        return None if integer else _real(low, high, above, below)
    whole = st.integers(min_value=least, max_value=most)
    if integer:
        # "integer" admits integral floats: a model's 3.0 is sent to the hook as it is.
        safe_least = -SAFE_INTEGER if least is None else max(least, -SAFE_INTEGER)
        safe_most = SAFE_INTEGER if most is None else min(most, SAFE_INTEGER)
        if safe_least > safe_most:
            return whole
        return whole | st.integers(safe_least, safe_most).map(float)
    return st.one_of(whole, _real(low, high, above, below))


def _spellings(constant: object) -> list[object]:
    """*constant*, and the number equal to it that JSON writes otherwise (``1.0`` for ``1``)."""
    if isinstance(constant, bool) or not isinstance(constant, (int, float)):
        return [constant]
    if isinstance(constant, int):
        return [constant, float(constant)] if abs(constant) <= SAFE_INTEGER else [constant]
    if constant.is_integer() and abs(constant) <= SAFE_INTEGER:
        return [constant, int(constant)]
    return [constant]


def _real(
    low: float | None, high: float | None, above: float | None, below: float | None
) -> st.SearchStrategy[float]:
    return st.floats(
        min_value=above if low is None else low,
        max_value=below if high is None else high,
        exclude_min=low is None and above is not None,
        exclude_max=high is None and below is not None,
        allow_nan=False,
        allow_infinity=False,
    )


def _ceil(low: float | None, above: float | None) -> int:
    """The least integer at or above *low* and past *above* (at least one is given)."""
    found = [math.ceil(low)] if low is not None else []
    if above is not None:
        found.append(math.floor(above) + 1)
    return max(found)


def _floor(high: float | None, below: float | None) -> int:
    """The greatest integer at or below *high* and short of *below* (at least one is given)."""
    found = [math.floor(high)] if high is not None else []
    if below is not None:
        found.append(math.ceil(below) - 1)
    return min(found)
