"""The format parsers' shortcut through the C parsers (``fromisoformat``, ``int(..., 16)``) reads
exactly what the RFC 3339 and UUID grammars read, to the same values, and leaves everything else
(with its message) to the grammar.

Texts are generated valid and then bent at one place (a character replaced, inserted or
removed, from characters that the C parsers treat specially: signs, spaces, commas, lower-case
``t`` and ``z``, non-ASCII digits, underscores, letters beyond ``f``).
"""

from __future__ import annotations

import pickle
import sys
import uuid
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone
from unittest import mock

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from typed_toolsets.rules import formats
from typed_toolsets.types.formats import format_spec
from typed_toolsets.types.gen import items_hook
from typed_toolsets.types.typespec import Reject

pytestmark = pytest.mark.skipif(
    sys.version_info < (3, 11), reason="before 3.11 the grammar reads every text"
)

_offsets = st.one_of(
    st.sampled_from(["Z", "z", "+00:00", "-00:00", "+23:59", "-23:59", "+24:00", "+02:60"]),
    st.builds(
        lambda sign, hours, minutes: f"{sign}{hours:02d}:{minutes:02d}",
        st.sampled_from("+-"),
        st.integers(0, 25),
        st.integers(0, 99),
    ),
)
_fractions = st.one_of(
    st.just(""), st.text("0123456789", min_size=0, max_size=12).map(lambda d: "." + d)
)


@st.composite
def _datetimes(draw: st.DrawFn) -> str:
    moment = draw(st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)))
    separator = draw(st.sampled_from("Tt"))
    return moment.strftime("%Y-%m-%d") + separator + _clock(draw, moment)


def _clock(draw: st.DrawFn, moment: datetime) -> str:
    seconds = draw(st.sampled_from([f"{moment.second:02d}"] * 4 + ["60", "61"]))
    return f"{moment.hour:02d}:{moment.minute:02d}:{seconds}" + draw(_fractions) + draw(_offsets)


@st.composite
def _times(draw: st.DrawFn) -> str:
    return _clock(draw, draw(st.datetimes()))


_dates = st.one_of(
    st.dates().map(date.isoformat),
    st.builds(
        lambda y, m, d: f"{y:04d}-{m:02d}-{d:02d}",
        st.integers(0, 9999),
        st.integers(0, 13),
        st.integers(0, 32),
    ),
)
_uuids = st.uuids().map(str) | st.uuids().map(lambda u: str(u).upper())

_SPECIAL = [*"+-  ,.:Tt Zz0169_afgAFG", "\u0660", "\u00b2", "\uff11", "\n"]


@st.composite
def bent(draw: st.DrawFn, valid: st.SearchStrategy[str]) -> str:
    text = draw(valid)
    how = draw(st.sampled_from(["as is", "as is", "as is", "replace", "insert", "remove"]))
    if how == "as is" or not text:
        return text
    where = draw(st.integers(0, len(text) - 1))
    char = draw(st.sampled_from(_SPECIAL))
    if how == "replace":
        return text[:where] + char + text[where + 1 :]
    if how == "insert":
        return text[:where] + char + text[where:]
    return text[:where] + text[where + 1 :]


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


#: Each format's parser and its valid texts (the differential test bends them too).
FORMAT_STRATEGIES: dict[str, tuple[Callable[[str], object], st.SearchStrategy[str]]] = {
    "date-time": (formats.parse_datetime, _datetimes()),
    "time": (formats.parse_time, _times()),
    "date": (formats.parse_date, _dates),
    "uuid": (formats.parse_uuid, _uuids),
}


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


_COLUMN_ROWS = [row for row in formats.FORMAT_TYPES if row.columns]


@pytest.mark.parametrize("row", _COLUMN_ROWS, ids=lambda row: row.format_name)
@given(data=st.data())
def test_texts_the_columns_allow_have_the_layout(
    row: formats.FormatType[object], data: st.DataObject
) -> None:
    length = data.draw(st.sampled_from(sorted(row.columns)), label="length")
    chars = data.draw(st.lists(st.sampled_from(_SPECIAL), min_size=length, max_size=length))
    for place, allowed in row.columns[length]:
        chars[place] = chr(data.draw(st.sampled_from(allowed)))
    text = "".join(chars)
    note(repr(text))
    layout = eval(f"lambda x: {row.layout}", dict(formats.LAYOUT_NAMES))  # noqa: S307
    assert layout(text)


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        # A seventh fraction digit of another script: the C parser skips it, the grammar refuses.
        ("time", "00:00:00.000000\u0660Z"),
        ("date-time", "2020-01-01T00:00:00.000000\u0660Z"),
        ("time", "00:00:00.12\u0663Z"),
        # What an offset's columns allow, with a Z for the minutes' last digit.
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


def test_the_columns_of_an_offset_allow_what_the_layout_reads() -> None:
    row = formats.BY_CLASS[datetime]
    layout = eval(f"lambda x: {row.layout}", dict(formats.LAYOUT_NAMES))  # noqa: S307
    assert layout("++++-++-++T++:++:++.000+++:0Z")


@pytest.mark.parametrize(
    ("kind", "values"),
    [
        ("date-time", ["2024-02-29T12:30:00Z", "2024-03-01T00:00:00+05:30"] * 40),
        ("time", ["12:30:00Z", "23:59:59-08:00", "00:00:00+00:00"] * 30),
        ("date", ["2024-02-29", "1999-12-31"] * 40),
        ("uuid", ["123E4567-e89b-12d3-A456-426614174000"] * 70),
    ],
)
def test_lists_of_common_spellings_are_read_column_by_column(kind: str, values: list[str]) -> None:
    from typed_toolsets.types.formats import (
        _column_reader,  # pyright: ignore[reportPrivateUsage]
    )

    parse = FORMAT_STRATEGIES[kind][0]
    read_all = _column_reader(formats.BY_FORMAT[kind])
    assert read_all is not None
    read = read_all(values)
    assert read is not None
    assert [_described(value) for value in read] == [_parsed(parse, value) for value in values]
    # One text of another layout, or one the reader refuses: the list goes one by one.
    assert read_all([*values, "2024-02-29T12:30:00.5Z"[: len(values[0])] + "!"]) is None
    assert read_all([*values, 5]) is None
    if kind in ("date-time", "time"):
        assert read_all([*values, values[0].replace(":00", ":60", 1)]) is None


def test_a_list_of_uuids_read_at_once_holds_what_uuid_builds() -> None:
    from typed_toolsets.types.formats import (
        _column_reader,  # pyright: ignore[reportPrivateUsage]
    )

    texts = [str(uuid.UUID(int=n * 0x1234_5678_9ABC_DEF0_1234_5678_9ABC_DEF)) for n in range(70)]
    texts[3] = texts[3].upper()
    read_all = _column_reader(formats.BY_CLASS[uuid.UUID])
    assert read_all is not None
    read = read_all(texts)
    assert read is not None
    for value, text in zip(read, texts, strict=True):
        expected = uuid.UUID(text)
        assert type(value) is uuid.UUID
        assert (value.int, value.is_safe, hash(value), str(value)) == (
            expected.int,
            expected.is_safe,
            hash(expected),
            str(expected),
        )
        assert value == expected
        assert pickle.dumps(value) == pickle.dumps(expected)
    # A digit that is not hexadecimal, or a space among them: the list goes one by one.
    for bad in ("g", " "):
        assert read_all([*texts[:5], texts[5][:-1] + bad]) is None
    # Lengths that add up to one length's but hide a newline in a text are not one length.
    glued = [texts[0] + "\n" + texts[1], "", texts[2][1:]]
    assert read_all(glued) is None


# One text of each spelling the columns read (a fraction of 0, 3 or 6 digits, then Z or an
# offset), by format: each column length has one.
_SPELLINGS = {
    kind: [
        start + fraction + zone
        for fraction in ("", ".123", ".123456")
        for zone in ("Z", "+05:30", "-08:00")
    ]
    for kind, start in (("date-time", "2024-02-29T23:59:58"), ("time", "23:59:58"))
}
# Every ASCII character a place may be bent to, and a few others the C parsers read specially.
_BENT_TO = [*map(chr, range(128)), "\u0660", "\uff11"]


@pytest.mark.parametrize("kind", list(_SPELLINGS))
def test_every_column_length_reads_what_the_grammar_reads_whatever_one_place_holds(
    kind: str,
) -> None:
    # Each spelling with each place bent to each character, in a list of its length and in a
    # list mixing lengths: the column reader reads the list to the grammar's values, or leaves
    # it to the texts one by one (which the hook reads as the grammar does too).
    from typed_toolsets.types.formats import (
        _column_reader,  # pyright: ignore[reportPrivateUsage]
    )

    row = formats.BY_FORMAT[kind]
    parse = FORMAT_STRATEGIES[kind][0]
    read_all = _column_reader(row)
    each = items_hook(format_spec(row).structure)
    assert read_all is not None
    assert each is not None
    spellings = _SPELLINGS[kind]
    assert {len(text) for text in spellings} == set(row.columns)
    texts = [
        text[:place] + char + text[place + 1 :]
        for text in spellings
        for place in range(len(text))
        for char in _BENT_TO
    ]
    leap = [text.replace(":58", ":60") for text in spellings]  # only the grammar reads these
    with mock.patch.object(formats, "_C_PARSERS", new=False):
        expected = {text: _outcome(parse, text) for text in [*texts, *leap, *spellings]}
    valid = {text for text, outcome in expected.items() if outcome[0] != "refused"}
    assert valid >= {*spellings, leap[0], leap[3]}  # 23:59:60Z, 23:59:60.123Z
    assert read_all(spellings) is not None
    by_length = {len(text): index for index, text in enumerate(spellings)}
    read_any = 0
    for text in [*texts, *leap]:
        index = by_length[len(text)]
        same, other = spellings[index], spellings[(index + 1) % len(spellings)]
        for values in ([text, same, text], [text, other]):
            read = read_all(values)
            if read is not None:
                read_any += 1
                assert all(value in valid for value in values)
                assert [_described(value) for value in read] == [expected[v] for v in values]
            try:
                listed: object = [_described(value) for value in each(values)]
            except Reject:
                listed = "rejected"
            refused = any(v not in valid for v in values)
            assert listed == ("rejected" if refused else [expected[v] for v in values])
    assert read_any > 2 * len(spellings)


@pytest.mark.parametrize(
    "valid",
    ["2024-02-29", "123e4567-e89b-12d3-a456-426614174000", "2024-02-29T12:30:00Z", "12:30:00Z"],
)
def test_a_newline_inside_a_text_is_never_read_as_a_separator(valid: str) -> None:
    # The lengths, not the newlines, say where each text ends: a text of the list's length with
    # a newline anywhere, or two texts whose lengths add up to two texts of it, is never read.
    from typed_toolsets.types.formats import (
        _column_reader,  # pyright: ignore[reportPrivateUsage]
    )

    kind = {10: "date", 36: "uuid", 20: "date-time", 9: "time"}[len(valid)]
    read_all = _column_reader(formats.BY_FORMAT[kind])
    assert read_all is not None
    assert read_all([valid, valid]) is not None
    for place in range(len(valid)):
        assert read_all([valid, valid[:place] + "\n" + valid[place + 1 :], valid]) is None
        assert read_all([valid + "\n" + valid[:place], valid[place:]]) is None


class _Text(str):
    """A subclass of str, which the hooks refuse whatever it holds."""


@pytest.mark.parametrize("writer", ["orjson", "plain"])
@pytest.mark.parametrize(
    ("kind", "valid"),
    [
        ("date", ["2024-02-29", "1999-12-31"]),
        ("uuid", ["123e4567-e89b-12d3-a456-426614174000"] * 2),
        ("date-time", ["2024-02-29T12:30:00Z", "2024-02-29T12:30:00+05:30"]),
        ("date-time", ["2024-02-29T12:30:00-08:00", "2024-02-29T12:30:00+05:30"]),
        ("time", ["12:30:00Z", "12:30:00.123-08:00", "12:30:00+05:30"]),
    ],
)
def test_the_column_reader_reads_only_plain_texts_of_the_spellings_shapes(
    writer: str, kind: str, valid: list[str]
) -> None:
    # The list is checked as it is written as JSON (without orjson, by `_write_plain`): whatever
    # is not a str exactly, needs escaping, or breaks a shape leaves the list one by one.
    from typed_toolsets.types import formats as hooks

    with mock.patch.object(
        hooks,
        "_write",
        new=hooks._write_plain if writer == "plain" else hooks._write,  # pyright: ignore[reportPrivateUsage]
    ):
        read_all = hooks._column_reader(formats.BY_FORMAT[kind])  # pyright: ignore[reportPrivateUsage]
        assert read_all is not None
        parse = FORMAT_STRATEGIES[kind][0]
        read = read_all(valid * 3)
        assert read is not None
        assert [_described(value) for value in read] == [_parsed(parse, v) for v in valid * 3]
        first = valid[0]
        odd: list[list[object]] = [
            [*valid, _Text(first)],
            [_Text(first), *valid],
            [*valid, [first]],
            [*valid, None],
            [],
            [*valid, first[:-1] + '"'],
            [*valid, first[:-1] + "\\"],
            [*valid, first[:-1] + "\u00e9"],
            [*valid, first[:-1] + "\ud800"],
            [*valid, first[:-1] + "?"],
            [*valid, first + '","' + first],
            [*valid, first[:2] + '","' + first[5:]],
            # Lengths adding up to the first one's, quoted texts of other lengths.
            [first, first[:5], first[5:] + first],
            [first, first + first[:4], first[4:], first],
        ]
        for values in odd:
            assert read_all(values) is None, values
    each = items_hook(format_spec(formats.BY_FORMAT[kind]).structure)
    assert each is not None
    with pytest.raises(Reject):
        each([*valid, _Text(first)])


@pytest.mark.parametrize("kind", list(_SPELLINGS))
def test_the_colons_of_a_list_just_read_are_its_spellings(kind: str) -> None:
    # The list's spec counts the colons of a list the columns read last from its spelling; any
    # other list (another object, one read since, one the columns did not read) is counted.
    from typed_toolsets.types.gen import inline_form

    structure = format_spec(formats.BY_FORMAT[kind]).structure
    form = inline_form(structure)
    assert form is not None
    assert form.colons is not None
    each, colons = form.items, form.colons
    for text in _SPELLINGS[kind]:
        values = [text] * 5
        each(values)
        assert colons(values) == 5 * text.count(":")
        assert colons(values) == 5 * text.count(":")  # counted, the second time
        assert colons(list(values)) == 5 * text.count(":")
    mixed = _SPELLINGS[kind][:4]
    each(mixed)
    assert colons(mixed) == "".join(mixed).count(":")
    # A list read, then changed and read one by one (a leap second): counted as it is now.
    values = [_SPELLINGS[kind][1]] * 3
    each(values)
    values[:] = [_SPELLINGS[kind][0].replace(":58", ":60")] * 3
    each(values)
    assert colons(values) == 3 * values[0].count(":")
