"""The string format types (RFC 3339 date, time and date-time, UUID): one table row each.

`FORMAT_TYPES` is the one source of every fact about a format type: the type registry builds
its schema and hooks from the row, the validator its format check and the hint in its message,
the type-name tables of the runtime and the mypy plugin their entries, and the ambiguity
analysis the grammar a string constant is matched against. Adding a format type is one row here
(plus its tests).

The library parses the formats itself, so a string passes validation exactly when it can be
turned into the Python value, on every supported Python and without jsonschema's optional
format extras.

Leap seconds: RFC 3339 allows a second of 60 in the last minute of a UTC day (``23:59:60Z``, or
``15:59:60-08:00``). Python's date-times have no 61st second, so such a value is read as the last
representable instant of that minute, ``:59.999999``; a second of 60 at any other minute is not
a valid time (`MisplacedLeapSecondError` says why).

Standard library only: the mypy plugin imports this module (through `typenames`) on every run.
"""

from __future__ import annotations

import re
import sys
import uuid
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from typing import Any, Final, Generic, Literal, TypeVar

__all__ = [
    "LEAP_SECOND_RULE",
    "MISSING_OFFSET_RULE",
    "BY_CLASS",
    "BY_FORMAT",
    "BY_FULLNAME",
    "FORMAT_TYPES",
    "LAYOUT_NAMES",
    "FormatType",
    "MisplacedLeapSecondError",
    "MissingOffsetError",
    "YEAR_ZERO_RULE",
    "YearZeroError",
    "format_date",
    "format_datetime",
    "format_time",
    "format_uuid",
    "parse_date",
    "parse_datetime",
    "parse_time",
    "parse_uuid",
]

_T = TypeVar("_T")


class FormatType(Generic[_T]):
    """One string format type: how its values look in JSON and how to read and write them.

    A plain slotted class rather than a dataclass: the mypy plugin imports the table on every
    run, and a dataclass costs a millisecond to create.

    Attributes:
        cls: The Python class, matched exactly (not its subclasses).
        fullname: Its fully qualified name as type checkers spell it (the mypy plugin's key).
        format_name: The JSON Schema ``format``.
        pattern: The grammar of the text, without range checks (``2024-02-30`` matches): what the
            ambiguity analysis matches string constants against, and the parser's first step.
        what: The model-facing name of the format, with its article (``a date``).
        example: A valid value, shown to the model after *what* in error messages.
        parse: Reads the text; raises `ValueError` when it is not a valid value.
        layout: A Python expression over a str ``x``: when true, ``read(x)`` reads *x* exactly
            as *parse* does (the value, or a `ValueError` where *parse* refuses it). Generated
            structuring code inlines it (with the names of `LAYOUT_NAMES`), so the common
            spellings cost no Python frame per value; ``"False"`` when there is no shortcut.
        read: The quick reader, for texts of the layout (a C parser where there is one).
        aware: Whether the format requires an offset (a list reader must refuse a naive value).
        list_colons: Given a JSON array of texts (written by orjson) and their number, which
            msgspec's reader of the class (an offset required when *aware*) reads, the texts'
            colons when it reads each as *parse* does; None when it may read one otherwise.
            msgspec reads a little more than RFC 3339 and the hyphenated UUID (a space for the
            ``T``, an offset without its colon, a fraction rounded past its sixth digit, a UUID
            without hyphens): this counts and looks for those in the array, in C passes.
            Within what msgspec reads, its ranges and values are the grammar's.
        write: Writes a value; raises `ValueError` when it cannot be written in the format.
        json_kind: The JSON type of the value: a string, since the format is read from text.
    """

    __slots__ = (
        "aware",
        "cls",
        "example",
        "format_name",
        "fullname",
        "json_kind",
        "layout",
        "list_colons",
        "parse",
        "pattern",
        "read",
        "what",
        "write",
    )

    def __init__(
        self,
        *,
        cls: type[_T],
        fullname: str,
        format_name: str,
        pattern: re.Pattern[str],
        what: str,
        example: str,
        parse: Callable[[str], _T],
        layout: str,
        read: Callable[[str], _T],
        aware: bool,
        list_colons: Callable[[bytes, int], int | None],
        write: Callable[[_T], str],
        json_kind: Literal["string"] = "string",
    ) -> None:
        self.cls: Final = cls
        self.fullname: Final = fullname
        self.format_name: Final = format_name
        self.pattern: Final = pattern
        self.what: Final = what
        self.example: Final = example
        self.parse: Final = parse
        self.layout: Final = layout
        self.read: Final = read
        self.aware: Final = aware
        self.list_colons: Final = list_colons
        self.write: Final = write
        self.json_kind: Final = json_kind

    @property
    def hint(self) -> str:
        """What to send, in the words of an error message: ``a date such as 2024-05-01``."""
        return f"{self.what} such as {self.example}"

    def __repr__(self) -> str:
        return f"FormatType({self.fullname}, {self.format_name!r})"


# RFC 3339 (section 5.6): full-date, full-time with its offset, and date-time.
_DATE: Final = r"([0-9]{4})-([0-9]{2})-([0-9]{2})"
_TIME: Final = r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?([Zz]|[+-][0-9]{2}:[0-9]{2})"
_DATE_RE: Final = re.compile(_DATE)
_TIME_RE: Final = re.compile(_TIME)
_DATETIME_RE: Final = re.compile(f"{_DATE}[Tt]{_TIME}")
# The hyphenated 8-4-4-4-12 form only: no braces, no URN prefix, no bare hex.
_UUID_RE: Final = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)


# A date-time or time as RFC 3339 writes it but for its offset (what Python writes for a naive
# one): refused, with the reason.
_NAIVE_TIME: Final = r"[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?"
_NAIVE_TIME_RE: Final = re.compile(_NAIVE_TIME)
_NAIVE_DATETIME_RE: Final = re.compile(f"{_DATE}[Tt]{_NAIVE_TIME}")

#: Why a time or date-time without its offset is refused, as an error message says it.
MISSING_OFFSET_RULE: Final = (
    "it has no UTC offset: end it with Z (UTC) or the offset of its zone, such as +02:00"
)


class MissingOffsetError(ValueError):
    """A time or date-time written as RFC 3339 writes it but for its required UTC offset.

    Only when the offset is all it lacks: with one, it is valid (not ``25:00:00``).
    """


def _valid(parse: Callable[[str], object], text: str) -> bool:
    """Whether *parse* reads *text*."""
    try:
        parse(text)
    except ValueError:
        return False
    return True


#: Where a leap second may fall, as an error message says it.
LEAP_SECOND_RULE: Final = "a leap second (:60) is only valid at 23:59:60 UTC"


class MisplacedLeapSecondError(ValueError):
    """A time with a second of 60 outside the last minute of a UTC day (``str()`` says so)."""


#: Why a date in the year 0000 is refused, said after the value: RFC 3339 allows it.
YEAR_ZERO_RULE: Final = (
    "is in the year 0000, which RFC 3339 allows but Python's dates do not (they start at "
    "0001); send a year from 0001 to 9999"
)


class YearZeroError(ValueError):
    """A date or date-time in the year 0000, which RFC 3339 allows and Python cannot hold."""


def _year(text: str, year: str) -> int:
    """The year of a matched date; 0000 is refused for what it is."""
    if year == "0000":
        msg = f"{text!r} {YEAR_ZERO_RULE}"
        raise YearZeroError(msg)
    return int(year)


def _second(text: str, hour: str, minute: str, second: str, offset: str) -> int:
    """The second (0 to 59) of a matched time; a leap second is checked, then read as 59."""
    if second != "60":
        return int(second)
    minutes = int(hour) * 60 + int(minute)
    if offset not in ("Z", "z"):
        sign = -1 if offset[0] == "-" else 1
        minutes -= sign * (int(offset[1:3]) * 60 + int(offset[4:6]))
    if minutes % (24 * 60) != 23 * 60 + 59:
        msg = f"{text!r} has a second of 60 at {hour}:{minute}{offset}; {LEAP_SECOND_RULE}"
        raise MisplacedLeapSecondError(msg)
    return 59


def _micro_of(second: str, fraction: str | None) -> int:
    # A leap second is read as the last microsecond of its minute.
    return 999_999 if second == "60" else _micro(fraction)


# The C parsers (``fromisoformat``) read far more than RFC 3339 (basic formats, week dates, any
# separator, a missing offset, ...) and, from Python 3.11, everything RFC 3339 allows but the
# lower-case ``t`` and ``z``. A text whose layout is RFC 3339's, fixed characters checked at fixed
# places and the free parts read as digits by the C parser, is read by it; anything else (and
# anything it refuses, for the message) by the grammar below, which defines the format.
_C_PARSERS: Final = sys.version_info >= (3, 11)
_SIGNS: Final = frozenset({"+:", "-:"})
_datetime_from_iso: Final = datetime.fromisoformat
_time_from_iso: Final = time.fromisoformat
_date_from_iso: Final = date.fromisoformat
_UNKNOWN_SAFETY: Final = uuid.SafeUUID.unknown
# Bound once: a UUID is built as uuid.UUID builds it, its two slots set through their descriptors.
_from_hex: Final = bytes.fromhex
_from_bytes: Final = int.from_bytes
_new_object: Final = object.__new__
_set_uuid_int: Final[Callable[[uuid.UUID, int], None]] = vars(uuid.UUID)["int"].__set__
_set_uuid_safety: Final[Callable[[uuid.UUID, uuid.SafeUUID], None]] = vars(uuid.UUID)[
    "is_safe"
].__set__


def _iso_offset(tail: str) -> bool:
    """Whether *tail* (what follows the seconds) is ``Z``, ``+HH:MM`` or a fraction and one.

    The C parser checks that the hour and the minutes are digits; minutes of 60 or more it would
    carry into the hour, so they are refused here. The fraction's digits are checked here: past
    its sixth digit the C parser (3.11) also skips digits of other scripts, which RFC 3339 refuses.
    An offset's shape is looked for before a final ``Z``, so that whatever the columns of an
    offset allow (`_time_columns`) has the layout, and the C parser refuses a ``Z`` for a digit.
    """
    if tail == "Z":
        return True
    if len(tail) == 6:
        return tail[0:4:3] in _SIGNS and tail[4] < "6"
    if tail[:1] != ".":
        return False
    if tail[-6:-2:3] in _SIGNS and tail[-2] < "6":
        fraction = tail[1:-6]
    elif tail[-1] == "Z":
        fraction = tail[1:-1]
    else:
        return False
    return fraction.isascii() and fraction.isdigit()


#: The names the layout expressions use besides ``x`` and builtins.
LAYOUT_NAMES: Final[dict[str, object]] = {"iso_offset": _iso_offset}

# The layouts the C parsers read as the grammar does (`FormatType.layout`): every third character
# from the first hyphen (a date-time) or colon (a time), the common spellings first: ending in Z
# (20 and 9 characters long) or in +HH:MM (25 and 14), then a fraction. Constants are written in
# the expressions, so generated code loads them as constants; ``x_len`` (the length, measured once)
# is theirs to bind.
_DATE_LAYOUT: Final = 'len(x) == 10 and x[4:8:3] == "--"' if _C_PARSERS else "False"
_TIME_LAYOUT: Final = (
    '((x_len := len(x)) == 9 and x[2:9:3] == "::Z")'
    ' or (x_len == 14 and x[2:12:3] in ("::+:", "::-:") and x[12] < "6")'
    ' or (x_len > 9 and x[2:6:3] == "::" and iso_offset(x[8:]))'
    if _C_PARSERS
    else "False"
)
_DATETIME_LAYOUT: Final = (
    '((x_len := len(x)) == 20 and x[4:20:3] == "--T::Z")'
    ' or (x_len == 25 and x[4:23:3] in ("--T::+:", "--T::-:") and x[23] < "6")'
    ' or (x_len > 20 and x[4:17:3] == "--T::" and iso_offset(x[19:]))'
    if _C_PARSERS
    else "False"
)
_UUID_LAYOUT: Final = 'len(x) == 36 and x[8:24:5] == "----"'  # the hyphens at 8, 13, 18, 23
# What a list reader is handed: a compact JSON array of texts (written by orjson from exact strs)
# and how many there are. In it, every sign, colon and letter is a text's own (the array's marks
# are brackets, quotes and commas). The counts below hold for texts msgspec reads (a date, a
# separator, HH:MM:SS, maybe a fraction, then Z, z, +HH:MM or +HHMM), which is all they are
# asked about: the reader trusts them only when msgspec read the whole array.
_long_fraction: Final = re.compile(rb"\.[0-9]{7}").search


def _clock_colons(array: bytes, size: int) -> int | None:
    """The colons of *size* texts msgspec read as clocks with offsets, when all are RFC 3339's.

    Each text has two colons in its clock and one offset: ``Z`` or ``z``, or a sign and two
    digits, then (in RFC 3339, not always for msgspec) a colon, then two digits. All offsets
    are whole exactly when the colons are the clocks' two and one an offset that is not ``Z``.
    A fraction past six digits, which msgspec rounds and the grammar cuts, is looked for after
    any dot.
    """
    if b"." in array and _long_fraction(array) is not None:
        return None
    zulu = array.count(b"Z")
    if zulu == size:
        return 2 * size  # every text ends in Z (a text has at most one)
    if b"z" in array:
        zulu += array.count(b"z")
    colons = array.count(b":")
    return colons if colons == 3 * size - zulu else None


def _datetimes_listed(array: bytes, size: int) -> int | None:
    """The colons of date-times msgspec read, when all are RFC 3339's (a space is not a T)."""
    return None if b" " in array else _clock_colons(array, size)


def _times_listed(array: bytes, size: int) -> int | None:
    """The colons of times msgspec read, when all are RFC 3339's."""
    return _clock_colons(array, size)


def _dates_listed(array: bytes, size: int) -> int | None:
    """The colons of dates msgspec read: none (it reads exactly RFC 3339's full-date)."""
    return 0


def _uuids_listed(array: bytes, size: int) -> int | None:
    """The colons of UUIDs msgspec read (none), when each has its 4 hyphens.

    msgspec reads 36 characters with hyphens where they belong, or 32 digits; in the array
    (ASCII, since it read them, and unescaped: orjson escapes nothing a UUID holds), each is
    quoted and followed by a comma but the last: the array is as long as 36 each only when no
    text has 32.
    """
    return 0 if len(array) == (39 * size + 1 if size else 2) else None


def _layout_check(expression: str) -> Callable[[str], bool]:
    """The layout *expression* as a function of ``x``."""
    check: Callable[[str], bool] = eval(  # noqa: S307 - one of the constant expressions above
        f"lambda x: {expression}", dict(LAYOUT_NAMES)
    )
    return check


_is_date_layout: Final = _layout_check(_DATE_LAYOUT)
_is_time_layout: Final = _layout_check(_TIME_LAYOUT)
_is_datetime_layout: Final = _layout_check(_DATETIME_LAYOUT)
_is_uuid_layout: Final = _layout_check(_UUID_LAYOUT)


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
    if _C_PARSERS and _is_date_layout(text):
        try:
            return _date_from_iso(text)
        except ValueError:
            pass  # the grammar below says why
    match = _DATE_RE.fullmatch(text)
    if match is None:
        msg = f"{text!r} is not an RFC 3339 date (YYYY-MM-DD)"
        raise ValueError(msg)
    year, month, day = match.groups()
    return date(_year(text, year), int(month), int(day))


def parse_time(text: str) -> time:
    """Parse an RFC 3339 ``full-time`` (``12:30:00Z``, ``12:30:00.5+02:00``), offset required.

    A leap second (``23:59:60Z``) is read as ``23:59:59.999999``.

    Raises:
        ValueError: *text* is not a valid time with an offset.
    """
    if _C_PARSERS and _is_time_layout(text):
        try:
            return _time_from_iso(text)
        except ValueError:
            pass  # the grammar below says why
    match = _TIME_RE.fullmatch(text)
    if match is None:
        msg = f"{text!r} is not an RFC 3339 time (HH:MM:SS[.fraction] followed by Z or +HH:MM)"
        if _NAIVE_TIME_RE.fullmatch(text) is not None and _valid(parse_time, f"{text}Z"):
            msg = f"{msg}: {MISSING_OFFSET_RULE}"
            raise MissingOffsetError(msg)
        raise ValueError(msg)
    hour, minute, second, fraction, offset = match.groups()
    zone = _offset(offset)
    return time(
        int(hour),
        int(minute),
        _second(text, hour, minute, second, offset),
        _micro_of(second, fraction),
        zone,
    )


def parse_datetime(text: str) -> datetime:
    """Parse an RFC 3339 ``date-time`` (``2024-02-29T12:30:00Z``); the offset is required.

    A leap second (``2016-12-31T23:59:60Z``) is read as ``23:59:59.999999`` of that day.

    Raises:
        ValueError: *text* is not a valid date-time with an offset.
    """
    if _C_PARSERS and _is_datetime_layout(text):
        try:
            return _datetime_from_iso(text)
        except ValueError:
            pass  # the grammar below says why
    match = _DATETIME_RE.fullmatch(text)
    if match is None:
        msg = (
            f"{text!r} is not an RFC 3339 date-time "
            "(YYYY-MM-DDTHH:MM:SS[.fraction] followed by Z or +HH:MM)"
        )
        if _NAIVE_DATETIME_RE.fullmatch(text) is not None and _valid(parse_datetime, f"{text}Z"):
            msg = f"{msg}: {MISSING_OFFSET_RULE}"
            raise MissingOffsetError(msg)
        raise ValueError(msg)
    year, month, day, hour, minute, second, fraction, offset = match.groups()
    zone = _offset(offset)
    return datetime(
        _year(text, year),
        int(month),
        int(day),
        int(hour),
        int(minute),
        _second(text, hour, minute, second, offset),
        _micro_of(second, fraction),
        zone,
    )


def _read_uuid(text: str) -> uuid.UUID:
    """Read a UUID of the hyphenated layout as uuid.UUID would, without reading it twice.

    Raises:
        ValueError: the digits are not 32 hexadecimal ones.
    """
    # Hexadecimal digits only (fromhex also skips spaces: then fewer than 16 bytes).
    raw = _from_hex(text.replace("-", ""))
    if len(raw) != 16:
        msg = f"{text!r} has spaces among its digits"
        raise ValueError(msg)
    value = _new_object(uuid.UUID)
    _set_uuid_int(value, _from_bytes(raw, "big"))
    _set_uuid_safety(value, _UNKNOWN_SAFETY)
    return value


def parse_uuid(text: str) -> uuid.UUID:
    """Parse a UUID in its hyphenated 8-4-4-4-12 hexadecimal form.

    Raises:
        ValueError: *text* is not a UUID in that form.
    """
    if _is_uuid_layout(text):
        try:
            return _read_uuid(text)
        except ValueError:
            pass  # the grammar below says why
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


#: The format types, one row each. Each format admits strings that every other one rejects (the
#: ambiguity analysis relies on it: two different formats never share a value).
FORMAT_TYPES: Final[tuple[FormatType[Any], ...]] = (
    FormatType(
        cls=datetime,
        fullname="datetime.datetime",
        format_name="date-time",
        pattern=_DATETIME_RE,
        what="an RFC 3339 date-time",
        example="2024-05-01T12:30:00Z",
        parse=parse_datetime,
        layout=_DATETIME_LAYOUT,
        read=_datetime_from_iso,
        aware=True,
        list_colons=_datetimes_listed,
        write=format_datetime,
    ),
    FormatType(
        cls=date,
        fullname="datetime.date",
        format_name="date",
        pattern=_DATE_RE,
        what="a date",
        example="2024-05-01",
        parse=parse_date,
        layout=_DATE_LAYOUT,
        read=_date_from_iso,
        aware=False,
        list_colons=_dates_listed,
        write=format_date,
    ),
    FormatType(
        cls=time,
        fullname="datetime.time",
        format_name="time",
        pattern=_TIME_RE,
        what="a time with an offset",
        example="12:30:00Z",
        parse=parse_time,
        layout=_TIME_LAYOUT,
        read=_time_from_iso,
        aware=True,
        list_colons=_times_listed,
        write=format_time,
    ),
    FormatType(
        cls=uuid.UUID,
        fullname="uuid.UUID",
        format_name="uuid",
        pattern=_UUID_RE,
        what="a UUID",
        example="123e4567-e89b-12d3-a456-426614174000",
        parse=parse_uuid,
        layout=_UUID_LAYOUT,
        read=_read_uuid,
        aware=False,
        list_colons=_uuids_listed,
        write=format_uuid,
    ),
)

#: The rows by Python class (the runtime registry's key; any annotation may be looked up).
BY_CLASS: Final[dict[object, FormatType[Any]]] = {row.cls: row for row in FORMAT_TYPES}
#: The rows by class fullname (the mypy plugin's key).
BY_FULLNAME: Final[dict[str, FormatType[Any]]] = {row.fullname: row for row in FORMAT_TYPES}
#: The rows by JSON Schema format name (the validator's and the ambiguity analysis's key).
BY_FORMAT: Final[dict[str, FormatType[Any]]] = {row.format_name: row for row in FORMAT_TYPES}
