"""The format parsers' shortcut through the C parsers (``fromisoformat``, ``int(..., 16)``) reads
exactly what the RFC 3339 and UUID grammars read, to the same values, and leaves everything else
(with its message) to the grammar.

Texts are generated valid and then bent at one place (a character replaced, inserted or
removed, from characters that the C parsers treat specially: signs, spaces, commas, lower-case
``t`` and ``z``, non-ASCII digits, underscores, letters beyond ``f``).
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone
from unittest import mock

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from tests.strategies.formats import FORMAT_STRATEGIES, bent
from typed_toolsets.rules import formats
from typed_toolsets.types.formats import format_spec
from typed_toolsets.types.gen import items_hook
from typed_toolsets.types.typespec import Reject

pytestmark = pytest.mark.skipif(
    sys.version_info < (3, 11), reason="before 3.11 the grammar reads every text"
)


def _outcome(parse: Callable[[str], object], text: str) -> object:
    try:
        value = parse(text)
    except ValueError as exc:
        return ("refused", str(exc))
    tz = getattr(value, "tzinfo", None)
    return (type(value), value, None if tz is None else tz.utcoffset(None))


def _grammar_only(parse: Callable[[str], object], text: str) -> object:
    """What the grammar alone reads (the shortcut switched off)."""
    with mock.patch.object(formats, "_C_PARSERS", new=False):
        return _outcome(parse, text)


@pytest.mark.parametrize("kind", list(FORMAT_STRATEGIES))
@given(data=st.data())
def test_the_shortcut_reads_what_the_grammar_reads(kind: str, data: st.DataObject) -> None:
    parse, valid = FORMAT_STRATEGIES[kind]
    text = data.draw(bent(valid), label="text")
    note(repr(text))
    assert _outcome(parse, text) == _grammar_only(parse, text)


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        # What fromisoformat reads and RFC 3339 does not (or reads otherwise).
        (formats.parse_datetime, "2024-01-01T00:00:00+02:60"),
        (formats.parse_datetime, "2024-01-01T00:00:00+02:99"),
        (formats.parse_datetime, "2024-01-01T00:00:00.+02:00"),
        (formats.parse_datetime, "2024-01-01T00:00:00.Z"),
        (formats.parse_datetime, "2024-01-01T00:00:00,5Z"),
        (formats.parse_datetime, "2024-01-01T00:00:00 +02:00"),
        (formats.parse_datetime, "2024-01-01T00:00:00+02:00:00"),
        (formats.parse_datetime, "2024-01-01T00:00:00.1+02"),
        (formats.parse_datetime, "2024-01-01T00:00:00+0200"),
        (formats.parse_datetime, "2024-01-01 00:00:00+00:00"),
        (formats.parse_datetime, "2024-01-01T00:00:00"),
        (formats.parse_datetime, "2024-01-01T00:00:00.5\u00b2Z"),
        (formats.parse_datetime, "2024-01-01t00:00:00z"),
        (formats.parse_datetime, "2024-01-01T00:00:60Z"),
        (formats.parse_time, "10:00Z"),
        (formats.parse_time, "T10:00:00Z"),
        (formats.parse_time, "10:00:00+02:60"),
        (formats.parse_time, "10:00:00.+02:00"),
        (formats.parse_date, "20240101"),
        (formats.parse_date, "2024-W01-1"),
        (formats.parse_date, "2024-01-0\u0661"),
        (formats.parse_uuid, "123e4567-e89b-12d3-a456-4266141740_0"),
        (formats.parse_uuid, "123e4567-e89b-12d3-a456-42661417400g"),
        (formats.parse_uuid, "123e4567-e89b-12d3-a456-42661417400\uff11"),
        (formats.parse_uuid, "+23e4567-e89b-12d3-a456-426614174000"),
        (formats.parse_uuid, " 23e4567-e89b-12d3-a456-426614174000"),
        (formats.parse_uuid, "123e4567-e89b-12d3-a456-4266 4174 00"),
        # The hook reads a UUID of the layout with msgspec, quoted as a JSON string: what JSON
        # would read otherwise (a quote, escapes, controls) or not at all is refused as before.
        (formats.parse_uuid, '123e4567-e89b-12d3-a456-42661417400"'),
        (formats.parse_uuid, '123e4567-e89b-12d3-a456-4266141740"0'),
        (formats.parse_uuid, "123e4567-e89b-12d3-a456-42661417400\\"),
        (formats.parse_uuid, "123e4567-e89b-12d3-a456-4266\\u0041BC"),
        (formats.parse_uuid, "123e4567-e89b-12d3-a456-42661417400\x00"),
        (formats.parse_uuid, "123e4567-e89b-12d3-a456-42661417400\ud800"),
        (formats.parse_uuid, "123e4567-e89b-12d3-a456-42661417400\u00e9"),
        (formats.parse_uuid, "123e4567-e89b-12d3-a456-42661417400\uff41"),
    ],
)
def test_near_misses_read_as_the_grammar_reads_them(
    parse: Callable[[str], object], text: str
) -> None:
    assert _outcome(parse, text) == _grammar_only(parse, text)
    # The generated hook and its list function, which inline the layout check, too.
    row = next(row for row in formats.FORMAT_TYPES if row.parse is parse)
    structure = format_spec(row).structure
    each = items_hook(structure)
    assert each is not None
    expected = _parsed(parse, text)
    assert _hooked(structure, text) == expected
    assert _hooked(lambda value: each([value])[0], text) == expected


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (formats.parse_datetime, "2024-02-29T12:30:00Z"),
        (formats.parse_datetime, "2024-02-29T12:30:00.123456789+05:30"),
        (formats.parse_datetime, "2024-02-29T12:30:00-00:00"),
        (formats.parse_time, "23:59:59.5+01:00"),
        (formats.parse_date, "2024-02-29"),
        (formats.parse_uuid, "123E4567-e89b-12d3-A456-426614174000"),
    ],
)
def test_common_spellings_take_the_shortcut(
    parse: Callable[[str], object], text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = parse(text)
    # Without the grammar, the common spellings still parse: the C parser read them.
    for pattern in ("_DATETIME_RE", "_TIME_RE", "_DATE_RE", "_UUID_RE"):
        monkeypatch.setattr(formats, pattern, None)
    assert parse(text) == expected


def test_the_values_are_those_of_the_grammar() -> None:
    value = formats.parse_datetime("2024-02-29T12:30:00.5+02:00")
    assert value == datetime(2024, 2, 29, 12, 30, 0, 500000, timezone(timedelta(hours=2)))
    assert formats.parse_datetime("2024-02-29T12:30:00Z").tzinfo is timezone.utc
    assert formats.parse_time("10:00:00-00:00") == time(10, tzinfo=timezone.utc)
    parsed = formats.parse_uuid("123e4567-e89b-12d3-a456-426614174000")
    assert type(parsed) is uuid.UUID
    assert parsed == uuid.UUID("123e4567-e89b-12d3-a456-426614174000")
    assert parsed.is_safe is uuid.SafeUUID.unknown
    assert hash(parsed) == hash(uuid.UUID(int=parsed.int))


def test_the_hook_reads_a_uuid_as_the_parser_does() -> None:
    structure = format_spec(formats.BY_CLASS[uuid.UUID]).structure
    text = "123E4567-e89b-12d3-A456-426614174000"
    hooked = structure(text)
    assert type(hooked) is uuid.UUID
    assert hooked == formats.parse_uuid(text) == uuid.UUID(text)
    assert hooked.is_safe is uuid.SafeUUID.unknown
    assert hash(hooked) == hash(uuid.UUID(text))
    assert str(hooked) == text.lower()


def _hooked(structure: Callable[[object], object], value: object) -> object:
    try:
        parsed = structure(value)
    except Reject:
        return "rejected"
    return _described(parsed)


def _described(parsed: object) -> object:
    tz = getattr(parsed, "tzinfo", None)
    return (type(parsed), parsed, None if tz is None else tz.utcoffset(None))


def _parsed(parse: Callable[[str], object], value: object) -> object:
    if type(value) is not str:
        return "rejected"
    outcome = _grammar_only(parse, value)
    return "rejected" if type(outcome) is tuple and outcome[0] == "refused" else outcome


_ROWS = {"date-time": datetime, "time": time, "date": date, "uuid": uuid.UUID}


@pytest.mark.parametrize("kind", list(FORMAT_STRATEGIES))
@given(data=st.data())
def test_the_generated_hooks_read_what_the_grammar_reads(kind: str, data: st.DataObject) -> None:
    # The spec's hook and its list function inline the layout check: one value, then a list
    # (bent texts, and now and then a value of another JSON type), agree with the grammar.
    parse, valid = FORMAT_STRATEGIES[kind]
    structure = format_spec(formats.BY_CLASS[_ROWS[kind]]).structure
    each = items_hook(structure)
    assert each is not None
    values = data.draw(
        st.lists(bent(valid) | st.sampled_from([None, 1, ["x"]]), max_size=5), label="values"
    )
    expected = [_parsed(parse, value) for value in values]
    assert [_hooked(structure, value) for value in values] == expected
    try:
        listed: object = [_described(value) for value in each(values)]
    except Reject:
        listed = "rejected"
    # The list is refused exactly when one of its values is, and otherwise holds their values.
    assert listed == ("rejected" if "rejected" in expected else expected)


def test_a_list_of_a_constrained_format_keeps_its_constraint() -> None:
    # The list function belongs to the hook: a spec whose hook is replaced does not keep it.
    spec = format_spec(formats.BY_CLASS[datetime])
    assert items_hook(spec.structure) is not None
    assert items_hook(lambda value: spec.structure(value)) is None


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        # A seventh fraction digit of another script: the C parser skips it, the grammar refuses.
        ("time", "00:00:00.000000\u0660Z"),
        ("date-time", "2020-01-01T00:00:00.000000\u0660Z"),
        ("time", "00:00:00.12\u0663Z"),
        # What the layout check of an offset lets through, with a Z for the last digit.
        ("time", "00:00:00.000+00:0Z"),
        ("date-time", "2020-01-01T00:00:00.000+00:0Z"),
    ],
)
def test_the_hooks_refuse_what_the_grammar_refuses_found_by_the_thorough_run(
    kind: str, text: str
) -> None:
    parse, _ = FORMAT_STRATEGIES[kind]
    structure = format_spec(formats.BY_CLASS[_ROWS[kind]]).structure
    each = items_hook(structure)
    assert each is not None
    assert _parsed(parse, text) == "rejected"
    assert _hooked(structure, text) == "rejected"
    with pytest.raises(Reject):
        each([text, text])
