"""A list of date-times, dates, times or UUIDs is read at once, to exactly what the grammar reads.

msgspec reads the list's JSON array in C. It reads a little more than RFC 3339 and the hyphenated
UUID (a space for the ``T``, an offset without its colon, a fraction past six digits rounded
where the grammar cuts it, 32 digits without hyphens, a value with no offset); the row's
`list_colons` finds those in the array, and the list then goes one text at a time, where the
grammar decides. Every spelling is bent at every place, and msgspec is shown to read each near
miss these tests expect the checks to catch, so none of them passes for want of msgspec reading
it.
"""

from __future__ import annotations

import pickle
import uuid
from collections.abc import Callable
from datetime import date, datetime, time
from typing import Annotated, Any
from unittest import mock

import msgspec
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from tests.strategies.formats import FORMAT_STRATEGIES, bent
from typed_toolsets.rules import formats
from typed_toolsets.types import formats as hooks
from typed_toolsets.types.formats import format_spec
from typed_toolsets.types.gen import inline_form, items_hook
from typed_toolsets.types.typespec import Reject

_ROWS = {"date-time": datetime, "time": time, "date": date, "uuid": uuid.UUID}


def _described(value: object) -> object:
    tz = getattr(value, "tzinfo", None)
    return (type(value), value, None if tz is None else tz.utcoffset(None))


def _grammar(kind: str, value: object) -> object:
    """What the grammar alone reads (the C parsers' shortcut off), or "rejected"."""
    if type(value) is not str:
        return "rejected"
    parse = FORMAT_STRATEGIES[kind][0]
    with mock.patch.object(formats, "_C_PARSERS", new=False):
        try:
            return _described(parse(value))
        except ValueError:
            return "rejected"


def _reader(kind: str) -> Callable[[list[Any]], list[Any] | None]:
    return hooks._list_reader(formats.BY_FORMAT[kind])  # pyright: ignore[reportPrivateUsage]


def _listed(each: Callable[[list[Any]], list[Any]], values: list[Any]) -> object:
    try:
        return [_described(value) for value in each(values)]
    except Reject:
        return "rejected"


def _each(kind: str) -> Callable[[list[Any]], list[Any]]:
    each = items_hook(format_spec(formats.BY_FORMAT[kind]).structure)
    assert each is not None
    return each


def _msgspec_reads(kind: str, texts: list[str]) -> bool:
    """Whether msgspec alone (offsets required where the format requires them) reads *texts*."""
    row = formats.BY_FORMAT[kind]
    item: Any = Annotated[row.cls, msgspec.Meta(tz=True)] if row.aware else row.cls
    try:
        msgspec.json.decode(msgspec.json.encode(texts), type=list[item])
    except msgspec.ValidationError:
        return False
    return True


@pytest.mark.parametrize(
    ("kind", "values"),
    [
        ("date-time", ["2024-02-29T12:30:00Z", "2024-03-01T00:00:00+05:30"] * 40),
        ("date-time", ["2024-02-29t12:30:00.5z", "2024-03-01T00:00:00.123456-00:00"] * 3),
        ("date-time", ["2024-02-29T12:30:00Z"] * 70),
        ("time", ["12:30:00Z", "23:59:59-08:00", "00:00:00+00:00"] * 30),
        ("time", ["12:30:00.25z"] * 3),
        ("date", ["2024-02-29", "1999-12-31"] * 40),
        ("uuid", ["123E4567-e89b-12d3-A456-426614174000"] * 70),
    ],
)
def test_lists_of_common_spellings_are_read_at_once(kind: str, values: list[str]) -> None:
    read_all = _reader(kind)
    read = read_all(values)
    assert read is not None
    assert [_described(value) for value in read] == [_grammar(kind, v) for v in values]
    # One text msgspec refuses, or one that is not a str: the list goes one by one.
    assert read_all([*values, values[0][:-1] + "!"]) is None
    assert read_all([*values, 5]) is None
    assert read_all([*values, None]) is None
    if kind in ("date-time", "time"):
        leap = "23:59:60Z" if kind == "time" else "2016-12-31T23:59:60Z"
        assert _grammar(kind, leap) != "rejected"  # the grammar reads a leap second
        assert read_all([*values, leap]) is None
        assert _listed(_each(kind), [*values, leap]) == [_grammar(kind, v) for v in [*values, leap]]


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        # msgspec reads these; RFC 3339 refuses them.
        ("date-time", "2024-01-01 00:00:00Z"),
        ("date-time", "2024-01-01 00:00:00+02:00"),
        ("date-time", "2024-01-01T00:00:00+0200"),
        ("date-time", "2024-01-01T00:00:00.5-0800"),
        ("time", "10:00:00-0800"),
        ("time", "10:00:00.123+0530"),
        ("uuid", "123e4567e89b12d3a456426614174000"),
        # ... and these to other values: it rounds past the sixth digit, the grammar cuts.
        ("date-time", "2024-01-01T00:00:00.1234567Z"),
        ("date-time", "2024-12-31T23:59:59.9999999+02:00"),
        ("time", "23:59:59.99999951Z"),
        ("time", "10:00:00.0000009z"),
    ],
)
def test_what_msgspec_reads_beyond_the_grammar_leaves_the_list_to_it(kind: str, text: str) -> None:
    assert _msgspec_reads(kind, [text])
    common = {
        "date-time": ["2024-02-29T12:30:00Z", "2024-02-29T12:30:00+05:30", "2024-02-29T12:30:00z"],
        "time": ["12:30:00Z", "12:30:00-08:00", "12:30:00.5z"],
        "uuid": ["123e4567-e89b-12d3-a456-426614174000"] * 3,
    }[kind]
    read_all = _reader(kind)
    each = _each(kind)
    for values in ([text], [text] * 3, [*common, text], [text, *common], [*common[:1], text]):
        assert _msgspec_reads(kind, values)
        assert read_all(values) is None, values
        assert _listed(each, values) == (
            "rejected"
            if any(_grammar(kind, v) == "rejected" for v in values)
            else [_grammar(kind, v) for v in values]
        )


def test_a_value_without_an_offset_is_refused_in_a_list_too() -> None:
    for kind, text in (("date-time", "2024-01-01T00:00:00"), ("time", "10:00:00")):
        assert _grammar(kind, text) == "rejected"
        assert _reader(kind)([text, text]) is None
        assert _listed(_each(kind), [text]) == "rejected"


# One text of each spelling, by format: fractions of 0 to 7 digits, Z, z and offsets.
_SPELLINGS = {
    kind: [
        start + fraction + zone
        for fraction in ("", ".1", ".123", ".123456", ".1234567")
        for zone in ("Z", "z", "+05:30", "-08:00")
    ]
    for kind, start in (("date-time", "2024-02-29T23:59:58"), ("time", "23:59:58"))
}
_SPELLINGS["date"] = ["2024-02-29", "1999-12-31"]
_SPELLINGS["uuid"] = [
    "123e4567-e89b-12d3-a456-426614174000",
    "ABCDEF01-2345-6789-abcd-ef0123456789",
]
# Every ASCII character a place may be bent to, and a few others the parsers read specially.
_BENT_TO = [*map(chr, range(128)), "\u0660", "\uff11", "\u00e9"]


@pytest.mark.parametrize("kind", list(_SPELLINGS))
def test_every_spelling_bent_anywhere_reads_as_the_grammar_reads_it(kind: str) -> None:
    # Each spelling with each place replaced by each character, or removed, in a list of itself
    # and in a list with another spelling: the list reader reads the list to the grammar's
    # values, or leaves it to the texts one by one (which the hook reads as the grammar does).
    read_all = _reader(kind)
    each = _each(kind)
    spellings = _SPELLINGS[kind]
    texts = [
        text[:place] + char + text[place + 1 :]
        for text in spellings
        for place in range(len(text))
        for char in _BENT_TO
    ]
    texts += [text[:place] + text[place + 1 :] for text in spellings for place in range(len(text))]
    expected = {text: _grammar(kind, text) for text in {*texts, *spellings}}
    read_any = 0
    for index, text in enumerate(texts):
        other = spellings[index % len(spellings)]
        for values in ([text, text], [text, other, text]):
            read = read_all(values)
            want = [expected[v] for v in values]
            if read is not None:
                read_any += 1
                assert "rejected" not in want, values
                assert [_described(value) for value in read] == want, values
            assert _listed(each, values) == ("rejected" if "rejected" in want else want)
    assert read_any > len(spellings) * 20


def test_a_list_of_uuids_read_at_once_holds_what_uuid_builds() -> None:
    texts = [str(uuid.UUID(int=n * 0x1234_5678_9ABC_DEF0_1234_5678_9ABC_DEF)) for n in range(70)]
    texts[3] = texts[3].upper()
    read = _reader("uuid")(texts)
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
        assert pickle.dumps(value) == pickle.dumps(expected)


@pytest.mark.parametrize(
    "valid",
    ["2024-02-29", "123e4567-e89b-12d3-a456-426614174000", "2024-02-29T12:30:00Z", "12:30:00Z"],
)
def test_a_newline_or_quote_inside_a_text_is_never_read_as_a_separator(valid: str) -> None:
    kind = {10: "date", 36: "uuid", 20: "date-time", 9: "time"}[len(valid)]
    read_all = _reader(kind)
    assert read_all([valid, valid]) is not None
    for place in range(len(valid)):
        for mark in ("\n", '"', '","', "\\"):
            bent_text = valid[:place] + mark + valid[place + 1 :]
            assert read_all([valid, bent_text, valid]) is None
            assert read_all([valid + mark + valid[:place], valid[place:]]) is None


class _Text(str):
    """A subclass of str, which the hooks refuse whatever it holds."""


@pytest.mark.parametrize("writer", ["orjson", "plain"])
@pytest.mark.parametrize("kind", list(_SPELLINGS))
def test_the_list_reader_reads_only_exact_strs(writer: str, kind: str) -> None:
    # Without orjson the list is written by `_write_plain`: the same lists are read.
    valid = [text for text in _SPELLINGS[kind] if _grammar(kind, text) != "rejected"][:4]
    writer_of = hooks._json_writer  # pyright: ignore[reportPrivateUsage]
    plain = (hooks._write_plain, 0)  # pyright: ignore[reportPrivateUsage]
    with mock.patch.object(
        hooks, "_json_writer", new=(lambda: plain) if writer == "plain" else writer_of
    ):
        read_all = _reader(kind)
        odd: list[list[object]] = [
            [*valid, _Text(valid[0])],
            [_Text(valid[0]), *valid],
            [*valid, [valid[0]]],
            [*valid, None],
            [*valid, valid[0][:-1] + "\ud800"],
        ]
        for values in odd:
            assert read_all(values) is None, values
        assert read_all([]) == []
        if not any(len(v) > 30 and "." in v for v in valid):  # no fraction msgspec rounds
            read = read_all(valid)
            assert read is not None
            assert [_described(value) for value in read] == [_grammar(kind, v) for v in valid]
    with pytest.raises(Reject):
        _each(kind)([*valid, _Text(valid[0])])


@pytest.mark.parametrize("kind", ["date-time", "time"])
def test_the_colons_of_a_list_just_read_are_its_texts(kind: str) -> None:
    # The list's spec counts the colons of a list the reader read last when it read them; any
    # other list (another object, one read since, one left to the texts) is counted.
    form = inline_form(format_spec(formats.BY_FORMAT[kind]).structure)
    assert form is not None
    assert form.colons is not None
    each, colons = form.items, form.colons
    for text in _SPELLINGS[kind]:
        values = [text] * 5
        each(values)
        assert colons(values) == 5 * text.count(":")
        assert colons(values) == 5 * text.count(":")  # counted, the second time
        assert colons(list(values)) == 5 * text.count(":")
    mixed = _SPELLINGS[kind][:8]
    each(mixed)
    assert colons(mixed) == "".join(mixed).count(":")
    # A list read, then changed and read one by one (a leap second): counted as it is now.
    values = [_SPELLINGS[kind][2]] * 3
    each(values)
    values[:] = [_SPELLINGS[kind][0].replace(":58", ":60")] * 3
    each(values)
    assert colons(values) == 3 * values[0].count(":")


def test_without_msgspec_each_text_is_read_on_its_own() -> None:
    values = ["2024-02-29T12:30:00Z", "2024-02-29T12:30:00+05:30"]
    with mock.patch.object(hooks, "_decoder", return_value=None):
        assert _reader("date-time")(values) is None
        assert _listed(_each("date-time"), values) == [_grammar("date-time", v) for v in values]


@pytest.mark.parametrize("kind", list(FORMAT_STRATEGIES))
@given(data=st.data())
def test_lists_of_bent_texts_read_as_the_grammar_reads_them(kind: str, data: st.DataObject) -> None:
    values = data.draw(st.lists(bent(FORMAT_STRATEGIES[kind][1]), max_size=6), label="values")
    note(repr(values))
    want = [_grammar(kind, v) for v in values]
    read = _reader(kind)(values)
    if read is not None:
        assert [_described(value) for value in read] == want
    assert _listed(_each(kind), values) == ("rejected" if "rejected" in want else want)
