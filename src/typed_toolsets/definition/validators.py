"""attrs validators shared by the library's configuration classes (`Limits`, the built-ins)."""

from __future__ import annotations

import math

import attrs

__all__ = ["optional_positive_seconds", "positive_int", "positive_seconds"]


def positive_int(_instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    """Accept an int of at least 1 (not a bool).

    Raises:
        ValueError: Naming the field and the value.
    """
    if type(value) is not int or value < 1:
        msg = f"`{attribute.name}` must be a positive int (got {value!r})."
        raise ValueError(msg)


def positive_seconds(_instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    """Accept a finite, positive number of seconds.

    Raises:
        ValueError: Naming the field and the value.
    """
    if type(value) not in (int, float) or not math.isfinite(value) or value <= 0:
        msg = f"`{attribute.name}` must be a positive number of seconds (got {value!r})."
        raise ValueError(msg)


def optional_positive_seconds(
    _instance: object, attribute: attrs.Attribute[float | None], value: float | None
) -> None:
    """Accept None or a finite, positive number of seconds.

    Raises:
        ValueError: Naming the field and the value.
    """
    if value is None:
        return
    if type(value) not in (int, float) or not math.isfinite(value) or value <= 0:
        msg = f"`{attribute.name}` must be None or a positive number of seconds (got {value!r})."
        raise ValueError(msg)
