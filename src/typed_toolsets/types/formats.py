"""The string formats the library enforces itself: RFC 3339 date, time and date-time, and UUID.

The same functions serve as the jsonschema format checks and as the structuring hooks, so a
string passes validation exactly when it can be turned into the Python value.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from typing import Final

__all__ = [
    "FORMAT_PARSERS",
    "format_date",
    "format_datetime",
    "format_time",
    "format_uuid",
    "parse_date",
    "parse_datetime",
    "parse_time",
    "parse_uuid",
]

_DATE: Final = r"([0-9]{4})-([0-9]{2})-([0-9]{2})"
_TIME: Final = r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?([Zz]|[+-][0-9]{2}:[0-9]{2})"
_DATE_RE: Final = re.compile(_DATE)
_TIME_RE: Final = re.compile(_TIME)
_DATETIME_RE: Final = re.compile(f"{_DATE}[Tt]{_TIME}")
_UUID_RE: Final = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)


def _offset(text: str) -> tzinfo:
    if text in ("Z", "z", "-00:00", "+00:00"):
        return timezone.utc
    hours, minutes = int(text[1:3]), int(text[4:6])
    if hours > 23 or minutes > 59:
        msg = f"invalid UTC offset {text!r}"
        raise ValueError(msg)
    delta = timedelta(hours=hours, minutes=minutes)
    return timezone(-delta if text[0] == "-" else delta)


def _micro(fraction: str | None) -> int:
    # RFC 3339 allows any number of digits; Python keeps microseconds, so extra digits are cut.
    return 0 if fraction is None else int(fraction[:6].ljust(6, "0"))


def parse_date(text: str) -> date:
    """Parse an RFC 3339 ``full-date`` (``2024-02-29``).

    Raises:
        ValueError: *text* is not a valid date.
    """
    match = _DATE_RE.fullmatch(text)
    if match is None:
        msg = f"{text!r} is not an RFC 3339 date (YYYY-MM-DD)"
        raise ValueError(msg)
    year, month, day = (int(g) for g in match.groups())
    return date(year, month, day)


def parse_time(text: str) -> time:
    """Parse an RFC 3339 ``full-time`` (``12:30:00Z``, ``12:30:00.5+02:00``), offset required.

    Raises:
        ValueError: *text* is not a valid time with an offset.
    """
    match = _TIME_RE.fullmatch(text)
    if match is None:
        msg = f"{text!r} is not an RFC 3339 time (HH:MM:SS[.fraction] followed by Z or +HH:MM)"
        raise ValueError(msg)
    hour, minute, second, fraction, offset = match.groups()
    return time(int(hour), int(minute), int(second), _micro(fraction), _offset(offset))


def parse_datetime(text: str) -> datetime:
    """Parse an RFC 3339 ``date-time`` (``2024-02-29T12:30:00Z``); the offset is required.

    Raises:
        ValueError: *text* is not a valid date-time with an offset.
    """
    match = _DATETIME_RE.fullmatch(text)
    if match is None:
        msg = (
            f"{text!r} is not an RFC 3339 date-time "
            "(YYYY-MM-DDTHH:MM:SS[.fraction] followed by Z or +HH:MM)"
        )
        raise ValueError(msg)
    year, month, day, hour, minute, second, fraction, offset = match.groups()
    return datetime(
        int(year),
        int(month),
        int(day),
        int(hour),
        int(minute),
        int(second),
        _micro(fraction),
        _offset(offset),
    )


def parse_uuid(text: str) -> uuid.UUID:
    """Parse a UUID in its hyphenated 8-4-4-4-12 hexadecimal form.

    Raises:
        ValueError: *text* is not a UUID in that form.
    """
    if _UUID_RE.fullmatch(text) is None:
        msg = f"{text!r} is not a UUID (8-4-4-4-12 hexadecimal digits)"
        raise ValueError(msg)
    return uuid.UUID(text)


def _check_offset(offset: timedelta | None, what: str) -> None:
    if offset is None:
        msg = f"a naive {what} has no UTC offset and cannot be sent as RFC 3339; attach a tzinfo"
        raise ValueError(msg)
    if offset.seconds % 60 or offset.microseconds:
        msg = f"the {what}'s UTC offset {offset} is not a whole number of minutes"
        raise ValueError(msg)


def format_datetime(value: datetime) -> str:
    """Write an aware datetime as RFC 3339.

    Raises:
        ValueError: *value* is naive, or its offset has seconds.
    """
    _check_offset(value.utcoffset(), "datetime")
    return value.isoformat()


def format_time(value: time) -> str:
    """Write an aware time as RFC 3339 ``full-time``.

    Raises:
        ValueError: *value* is naive, or its offset has seconds.
    """
    _check_offset(value.utcoffset(), "time")
    return value.isoformat()


def format_date(value: date) -> str:
    """Write a date as RFC 3339 ``full-date``."""
    return value.isoformat()


def format_uuid(value: uuid.UUID) -> str:
    """Write a UUID in its hyphenated form."""
    return str(value)


#: Parsers by JSON Schema format name, used by the validator's format checker.
FORMAT_PARSERS: Final[dict[str, Callable[[str], object]]] = {
    "date": parse_date,
    "time": parse_time,
    "date-time": parse_datetime,
    "uuid": parse_uuid,
}
