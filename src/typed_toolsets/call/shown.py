r"""How a value is shown in a message: JSON's words, cut to a few dozen characters.

Values are shown as the model wrote them (``true``, ``null``; strings and keys quoted as every
message has always quoted them, ``'x'``, with JSON's escapes, ``'a\u0000'``). Writing stops
as soon as the text is known to be too long, so showing part of a megabyte costs no more than
showing a short value. Imports only the standard library and `typed_toolsets.rules`.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterator, Sequence
from typing import Any, Final

from typed_toolsets.rules.labels import int_text, safe_repr

__all__ = ["SHORT_INTS", "SHORT_LIMIT", "json_escaped", "short", "short_text"]


#: An escape in a repr: those JSON lacks (``\x00``, ``\U000e0001``) to write as JSON's, or any
#: other, matched whole so that an escaped backslash before ``x00`` is left as it is.
_REPR_ESCAPE: Final = re.compile(r"\\(x[0-9a-f]{2}|U[0-9a-f]{8}|.)")


def _json_escape(match: re.Match[str]) -> str:
    code = match[1]
    if len(code) == 3:  # x and two digits
        return f"\\u00{code[1:]}"
    if len(code) == 9:  # U and eight digits: a character past U+FFFF, as JSON's surrogate pair
        point = int(code[1:], 16) - 0x10000
        return f"\\u{0xD800 + (point >> 10):04x}\\u{0xDC00 + (point & 0x3FF):04x}"
    return match[0]


def json_escaped(written: str) -> str:
    r"""A repr of a string with JSON's escapes: ``'a\u0000'``, not ``'a\x00'``.

    Keys and strings are quoted in messages as Python quotes them; their escapes are JSON's, the
    ones a model can send back (and the ones JSON path, RFC 9535, reads).
    """
    return _REPR_ESCAPE.sub(_json_escape, written) if "\\" in written else written


def _quote_char(text: str) -> str:
    # The quote Python's repr picks: a double quote only for text with ' and no ".
    return '"' if "'" in text and '"' not in text else "'"


def _quoted(text: str, cut: int) -> str:
    """*text* quoted as repr quotes it; past *cut* characters only its beginning (unclosed)."""
    quote = _quote_char(text)
    # repr of the beginning plus the other quote character picks the quote the whole text gets
    # (and escapes the same characters); the added character and its quote are cut off again.
    other = '"' if quote == "'" else "'"
    body = json_escaped(repr(text[:cut] + other)[1:-2])
    return quote + body + (quote if len(text) <= cut else "")


def _pieces(value: object, cut: int) -> Iterator[str]:
    """The text of *value*, piece by piece (the caller stops reading once it has enough)."""
    if value is None:
        yield "null"
    elif value is True:
        yield "true"
    elif value is False:
        yield "false"
    elif isinstance(value, str):
        yield _quoted(value, cut)
    elif isinstance(value, int):
        yield int_text(value)
    elif isinstance(value, float):
        yield repr(value)
    elif isinstance(value, (list, tuple)):
        items = typing.cast("Sequence[object]", value)
        yield "["
        for index, item in enumerate(items):
            if index:
                yield ", "
            yield from _pieces(item, cut)
        yield "]"
    elif isinstance(value, dict):
        mapping = typing.cast("dict[object, object]", value)
        yield "{"
        for index, (key, item) in enumerate(mapping.items()):
            if index:
                yield ", "
            yield from _pieces(key, cut)
            yield ": "
            yield from _pieces(item, cut)
        yield "}"
    else:
        yield safe_repr(value, cut)


def _last_char(value: object) -> str:
    """The last character of *value*'s whole text, without writing it."""
    if value is None:
        return "l"
    if value is True or value is False:
        return "e"
    if isinstance(value, str):
        return _quote_char(value)
    if isinstance(value, int):
        return str(abs(value) % 10)
    if isinstance(value, (list, tuple)):
        return "]"
    if isinstance(value, dict):
        return "}"
    return safe_repr(value, None)[-1:]  # the last character, not the cut's


#: How many characters `short` shows by default.
SHORT_LIMIT: Final = 60
#: The integers whose repr `short` shows whole by default (at most `SHORT_LIMIT` characters),
#: bounds excluded: generated code writes those itself (see `typed_toolsets.call.source.Source`).
SHORT_INTS: Final = (-(10 ** (SHORT_LIMIT - 1)), 10**SHORT_LIMIT)


def short(value: object, limit: int = SHORT_LIMIT) -> str:
    """*value* as a message shows it, cut to *limit* characters (keeping the last one).

    JSON's own words are used (``true``, ``false``, ``null``); strings and keys are quoted as
    Python quotes them (``'x'``). Writing stops as soon as the text is known to be too long, so
    showing part of a megabyte costs no more than showing a short value, and a value nested
    thousands of levels deep needs no more than *limit* levels of recursion.
    """
    # The usual cases, in one step.
    kind = type(value)
    plain: Any = value  # a str or an int, once its type is known
    if kind is str:
        if len(plain) <= limit:
            text = repr(plain)
            if "\\" in text:  # an escape, written as JSON's (most texts have none)
                text = json_escaped(text)
            if len(text) <= limit:
                return text
    elif kind is int:
        try:
            text = repr(plain)
        except ValueError:  # past the digit limit: `int_text` words it
            text = int_text(plain)
        if len(text) <= limit:
            return text
    elif value is None or kind is bool:
        return "null" if value is None else "true" if value else "false"
    elif not plain and (kind is list or kind is dict):
        return "[]" if kind is list else "{}"
    parts: list[str] = []
    size = 0
    for piece in _pieces(value, limit + 1):
        parts.append(piece)
        size += len(piece)
        if size > limit:
            break
    text = "".join(parts)
    if size <= limit:
        return text
    return f"{_cut(text, limit - 4)}...{_last_char(value)}"


#: The longest escape a shown text holds: ``\u0000``.
_LONGEST_ESCAPE: Final = 6


def _cut(text: str, at: int) -> str:
    r"""*text*'s first *at* characters, or fewer, so as not to cut an escape (``\n``, ``\u0000``).

    Nor between the two escapes of a character past U+FFFF: its first half alone is no text. A
    backslash that an odd number of backslashes precede is the second half of an escaped one.
    """
    kept = text[:at]
    start = text.rfind("\\", max(0, at - _LONGEST_ESCAPE + 1), at)
    if start >= 0 and not _escaped(text, start):
        length = _LONGEST_ESCAPE if text[start + 1 : start + 2] == "u" else 2
        if start + length > at:
            kept = text[:start]
    if _HIGH_SURROGATE_END.search(kept) is not None:
        escape = len(kept) - _LONGEST_ESCAPE
        if not _escaped(kept, escape):
            kept = kept[:escape]
    return kept


def _escaped(text: str, at: int) -> bool:
    r"""Whether the backslash at *at* is the second half of an escaped one (``\\``)."""
    return bool((at - len(text[:at].rstrip("\\"))) % 2)


#: An escape of the first half of a surrogate pair, ending a text.
_HIGH_SURROGATE_END: Final = re.compile(r"\\ud[89ab][0-9a-f]{2}\Z")


def short_text(text: str, limit: int = 200) -> str:
    """*text* cut to *limit* characters."""
    return text if len(text) <= limit else f"{text[: limit - 3]}..."
