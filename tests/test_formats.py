"""RFC 3339 dates, times and date-times, and UUIDs: parsed and written by the library itself."""

from __future__ import annotations

import uuid
from datetime import date, datetime, time, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from typed_toolsets.rules import formats

offsets = st.integers(-23 * 60 - 59, 23 * 60 + 59).map(lambda m: timezone(timedelta(minutes=m)))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-02-29T12:30:00Z", datetime(2024, 2, 29, 12, 30, tzinfo=timezone.utc)),
        ("2024-02-29t12:30:00z", datetime(2024, 2, 29, 12, 30, tzinfo=timezone.utc)),
        ("0001-01-01T00:00:00-00:00", datetime(1, 1, 1, tzinfo=timezone.utc)),
        (
            "2024-02-29T12:30:00.1234567+05:30",
            datetime(2024, 2, 29, 12, 30, 0, 123456, timezone(timedelta(hours=5, minutes=30))),
        ),
    ],
)
def test_parse_datetime(text: str, expected: datetime) -> None:
    parsed = formats.parse_datetime(text)
    assert parsed == expected
    assert parsed.utcoffset() == expected.utcoffset()


@pytest.mark.parametrize(
    "text",
    [
        "2024-02-29T12:30:00",  # no offset
        "2024-02-30T12:30:00Z",  # no such day
        "2024-02-29 12:30:00Z",  # space separator
        "2024-02-29T12:30Z",  # no seconds
        "2024-02-29T12:30:60Z",  # leap second: no Python value
        "2024-02-29T12:30:00+24:00",
        "2024-02-29T12:30:00+05:60",
        "0000-01-01T00:00:00Z",
        "2024-02-29T12:30:00Z\n",
        "２０２４-02-29T12:30:00Z",
    ],
)
def test_reject_datetime(text: str) -> None:
    with pytest.raises(ValueError):
        formats.parse_datetime(text)


def test_dates_times_and_uuids() -> None:
    assert formats.parse_date("2024-02-29") == date(2024, 2, 29)
    assert formats.parse_time("23:59:59+01:00") == time(
        23, 59, 59, tzinfo=timezone(timedelta(hours=1))
    )
    value = uuid.UUID("123e4567-e89b-12d3-a456-426614174000")
    assert formats.parse_uuid("123E4567-E89B-12D3-A456-426614174000") == value
    for bad, parse in [
        ("2024-2-29", formats.parse_date),
        ("12:30:00", formats.parse_time),
        ("{123e4567-e89b-12d3-a456-426614174000}", formats.parse_uuid),
        ("123e4567e89b12d3a456426614174000", formats.parse_uuid),
    ]:
        with pytest.raises(ValueError):
            parse(bad)


def test_naive_values_cannot_be_written() -> None:
    with pytest.raises(ValueError, match="naive datetime"):
        formats.format_datetime(datetime(2024, 1, 1))
    with pytest.raises(ValueError, match="naive time"):
        formats.format_time(time(1, 2))
    with pytest.raises(ValueError, match="whole number of minutes"):
        formats.format_datetime(datetime(2024, 1, 1, tzinfo=timezone(timedelta(seconds=30))))


@given(st.datetimes(timezones=offsets))
def test_datetime_round_trip(value: datetime) -> None:
    assert formats.parse_datetime(formats.format_datetime(value)) == value


@given(st.times(timezones=offsets))
def test_time_round_trip(value: time) -> None:
    parsed = formats.parse_time(formats.format_time(value))
    assert parsed == value
    assert parsed.utcoffset() == value.utcoffset()
