"""Texts of the RFC 3339 and UUID formats: valid ones, and ones bent at one place.

A bent text has one character replaced, inserted or removed, from characters that the C
parsers and msgspec treat specially: signs, spaces, commas, lower-case ``t`` and ``z``,
non-ASCII digits, underscores, letters beyond ``f``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from hypothesis import strategies as st

from typed_toolsets.rules import formats

__all__ = ["FORMAT_STRATEGIES", "SPECIAL", "bent"]

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

SPECIAL = [*"+-  ,.:Tt Zz0169_afgAFG", "\u0660", "\u00b2", "\uff11", "\n"]


@st.composite
def bent(draw: st.DrawFn, valid: st.SearchStrategy[str]) -> str:
    text = draw(valid)
    how = draw(st.sampled_from(["as is", "as is", "as is", "replace", "insert", "remove"]))
    if how == "as is" or not text:
        return text
    where = draw(st.integers(0, len(text) - 1))
    char = draw(st.sampled_from(SPECIAL))
    if how == "replace":
        return text[:where] + char + text[where + 1 :]
    if how == "insert":
        return text[:where] + char + text[where:]
    return text[:where] + text[where + 1 :]


#: Each format's parser and its valid texts (the differential test bends them too).
FORMAT_STRATEGIES: dict[str, tuple[Callable[[str], object], st.SearchStrategy[str]]] = {
    "date-time": (formats.parse_datetime, _datetimes()),
    "time": (formats.parse_time, _times()),
    "date": (formats.parse_date, _dates),
    "uuid": (formats.parse_uuid, _uuids),
}
