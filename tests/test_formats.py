"""RFC 3339 dates, times and date-times, and UUIDs: parsed and written by the library itself.

The first tests run over the format table: a row is all a format type needs, so each row must
come out right everywhere it is used (schema, hooks, validator, messages, the plugin's tables and
the ambiguity analysis). The plugin's own view of each row is in
``tests/mypy_plugin/test_format_table.py``.
"""

from __future__ import annotations

import inspect
import uuid
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies.toolsets import echo_tool, make_echo_toolset
from typed_toolsets.analysis.ambiguity import find_ambiguity, shape_of
from typed_toolsets.rules import formats
from typed_toolsets.rules.formats import BY_CLASS, BY_FORMAT, BY_FULLNAME, FORMAT_TYPES, FormatType
from typed_toolsets.rules.shapes import Shape, overlaps
from typed_toolsets.rules.typenames import FORMAT_NAMES, SCALAR_NAMES, scalar_kinds
from typed_toolsets.types.catalog import registry
from typed_toolsets.types.typespec import Reject
from typed_toolsets.types.validator import make_validator

rows = pytest.mark.parametrize("row", FORMAT_TYPES, ids=lambda row: row.format_name)


def near_misses(row: FormatType[Any]) -> list[str]:
    """Strings one edit away from the row's example, none of them valid."""
    return [row.example[:-1], f"{row.example}0", f" {row.example}", f"{row.example}\n", ""]


def others(row: FormatType[Any]) -> list[FormatType[Any]]:
    return [other for other in FORMAT_TYPES if other is not row]


@rows
def test_the_row_is_consistent(row: FormatType[Any]) -> None:
    assert row.pattern.fullmatch(row.example) is not None
    assert type(row.parse(row.example)) is row.cls
    assert row.hint == f"{row.what} such as {row.example}"
    assert (BY_CLASS[row.cls], BY_FULLNAME[row.fullname], BY_FORMAT[row.format_name]) == (row,) * 3
    # The plugin matches mypy's fullname; at run time the class gives the same name.
    assert f"{row.cls.__module__}.{row.cls.__qualname__}" == row.fullname


@rows
def test_schema_call_and_message(row: FormatType[Any]) -> None:
    cls = make_echo_toolset([("value", row.cls, inspect.Parameter.empty)], toolset_name="f")
    proxy = cls.to_tools()[0]
    assert proxy.parameters["properties"]["value"] == {
        "type": row.json_kind,
        "format": row.format_name,
    }
    result = proxy.invoke({"value": row.example})
    assert result.ok, result.error
    assert result.value == {"value": row.parse(row.example)}
    assert type(result.value["value"]) is row.cls
    for bad in near_misses(row):
        # The example without its last character, a Z: a date-time or time with no offset.
        offset = row.aware and bad == row.example[:-1]
        rule = f"; {formats.MISSING_OFFSET_RULE}" if offset else ""
        assert proxy.dynamic_call({"value": bad}) == (
            f"Error: Invalid arguments for tool 'f_echo': value: {bad!r} is not {row.hint}{rule}"
        )
    assert proxy.dynamic_call({"value": 5}) == (
        "Error: Invalid arguments for tool 'f_echo': value: 5 is not of type 'string'"
    )


@rows
def test_structure_unstructure_round_trip(row: FormatType[Any]) -> None:
    spec = registry.spec(row.cls)
    value = spec.structure(row.example)
    assert type(value) is row.cls
    text = spec.unstructure(value)
    assert isinstance(text, str)
    assert text == row.write(value)
    assert spec.structure(text) == value
    assert spec.instance_check(value)
    for bad in [*near_misses(row), 5, None]:
        with pytest.raises(Reject):
            spec.structure(bad)
    with pytest.raises(ValueError, match=f"is not a {row.cls.__name__}"):
        spec.unstructure(row.example)


@rows
def test_validator_verdicts(row: FormatType[Any]) -> None:
    validator = make_validator({"type": "string", "format": row.format_name})
    assert validator.is_valid(row.example)
    for bad in near_misses(row):
        assert not validator.is_valid(bad)
        with pytest.raises(ValueError):
            row.parse(bad)
    # Each format admits strings every other one rejects: the ambiguity analysis relies on it.
    for other in others(row):
        assert not validator.is_valid(other.example)
        assert row.pattern.fullmatch(other.example) is None


@rows
def test_plugin_tables(row: FormatType[Any]) -> None:
    assert row.fullname in SCALAR_NAMES
    assert FORMAT_NAMES[row.fullname] == row.format_name
    assert scalar_kinds(row.fullname) == frozenset({row.json_kind})


@rows
def test_shape(row: FormatType[Any]) -> None:
    shape = shape_of(row.cls)
    assert (shape.kind, shape.kinds, shape.fmt) == (
        "scalar",
        frozenset({"string"}),
        row.format_name,
    )
    assert overlaps(shape, Shape.constants_of("example", (row.example,)))
    assert overlaps(shape, shape_of(str))
    for bad in near_misses(row):
        assert not overlaps(shape, Shape.constants_of("near miss", (bad,)))
    for other in others(row):
        assert not overlaps(shape, shape_of(other.cls))
    assert find_ambiguity(row.cls | Literal[row.example]) is not None
    assert find_ambiguity(row.cls | Literal[row.example[:-1]]) is None


def test_the_table_has_one_row_per_class_fullname_and_format() -> None:
    assert len(BY_CLASS) == len(BY_FULLNAME) == len(BY_FORMAT) == len(FORMAT_TYPES)


# --------------------------------------------------------------------------- the parsers themselves

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


def test_a_value_missing_only_its_offset_is_refused_saying_so() -> None:
    # It was "is not an RFC 3339 date-time such as 2024-05-01T12:30:00Z", leaving the model to
    # find what differs from its "2026-04-30T09:00:00" (what Python writes for a naive one).
    for text, parse in [
        ("2026-04-30T09:00:00", formats.parse_datetime),
        ("2026-04-30t09:00:00.250", formats.parse_datetime),
        ("09:00:00", formats.parse_time),
    ]:
        with pytest.raises(formats.MissingOffsetError, match="it has no UTC offset: end it with Z"):
            parse(text)
    # Not only the offset: a space, an hour of 25, the 30th of February, a leap second at
    # another minute, the year 0000; an offset added would not make them valid.
    for text, parse in [
        ("2026-04-30 09:00:00", formats.parse_datetime),
        ("2026-04-30T25:00:00", formats.parse_datetime),
        ("2026-02-30T09:00:00", formats.parse_datetime),
        ("2026-04-30T12:59:60", formats.parse_datetime),
        ("0000-01-01T00:00:00", formats.parse_datetime),
        ("25:61:00", formats.parse_time),
    ]:
        with pytest.raises(ValueError) as refused:
            parse(text)
        assert not isinstance(refused.value, formats.MissingOffsetError), text
    proxy = echo_tool(datetime)
    assert proxy.dynamic_call({"value": "2026-04-30T09:00:00"}).endswith(
        "value: '2026-04-30T09:00:00' is not an RFC 3339 date-time such as "
        "2024-05-01T12:30:00Z; it has no UTC offset: end it with Z (UTC) or the offset of its "
        "zone, such as +02:00"
    )
    union = echo_tool(time | None).dynamic_call({"value": "09:00:00"})
    assert union.endswith(
        "or null; it has no UTC offset: end it with Z (UTC) or the offset of its zone, such as +02:00"
    )


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
