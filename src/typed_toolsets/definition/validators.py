"""attrs validators shared by the library's configuration classes (`Limits`, the built-ins)."""

from __future__ import annotations

import threading
import typing
from typing import Final

import attrs

from typed_toolsets.rules.labels import safe_repr

__all__ = [
    "MAX_SECONDS",
    "optional_positive_int",
    "optional_positive_seconds",
    "positive_int",
    "positive_seconds",
]

#: The longest number of seconds a setting may hold: what this platform's threads can wait for
#: (``threading.TIMEOUT_MAX``, about 292 years on Linux and 49 days on Windows), less a margin
#: for the grace a cancelled call is given. A longer wait would fail in the call itself
#: (``OverflowError``), so it is refused where it is set; ``None`` waits without a deadline.
MAX_SECONDS: Final = int(threading.TIMEOUT_MAX) - 10


def positive_int(_instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    """Accept an int of at least 1 (not a bool).

    Raises:
        ValueError: Naming the field and the value.
    """
    if type(value) is not int or value < 1:
        msg = f"`{attribute.name}` must be a positive int (got {safe_repr(value)})."
        raise ValueError(msg)


def optional_positive_int(
    _instance: object, attribute: attrs.Attribute[int | None], value: int | None
) -> None:
    """Accept None or an int of at least 1 (not a bool).

    Raises:
        ValueError: Naming the field and the value.
    """
    if value is not None and (type(value) is not int or value < 1):
        msg = f"`{attribute.name}` must be None or a positive int (got {safe_repr(value)})."
        raise ValueError(msg)


def _seconds_problem(value: object) -> bool:
    """Whether *value* is no number of seconds a call can wait for (over 0, at most the max).

    Compared, not converted: an int too large for a float is over the maximum, not an error;
    NaN compares false, and the infinities are over it.
    """
    if type(value) not in (int, float):
        return True
    return not 0 < typing.cast("float", value) <= MAX_SECONDS


def positive_seconds(_instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    """Accept a positive number of seconds, at most `MAX_SECONDS`.

    Raises:
        ValueError: Naming the field, the value and the bound.
    """
    if _seconds_problem(value):
        msg = (
            f"`{attribute.name}` must be a positive number of seconds, at most {MAX_SECONDS:,} "
            f"(got {safe_repr(value, 60)})."
        )
        raise ValueError(msg)


def optional_positive_seconds(
    _instance: object, attribute: attrs.Attribute[float | None], value: float | None
) -> None:
    """Accept None or a positive number of seconds, at most `MAX_SECONDS`.

    Raises:
        ValueError: Naming the field, the value and the bound.
    """
    if value is None:
        return
    if _seconds_problem(value):
        msg = (
            f"`{attribute.name}` must be None or a positive number of seconds, at most "
            f"{MAX_SECONDS:,} (got {safe_repr(value, 60)})."
        )
        raise ValueError(msg)
