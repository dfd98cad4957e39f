"""Strict parsing of JSON text (the caller has bounded its size and depth).

``NaN``/``Infinity``, numbers that overflow a float, integer literals over 4,300 digits,
duplicate keys and lone surrogates are invalid JSON, whatever the interpreter's settings.
"""

from __future__ import annotations

import json
import math
import re
import typing
from collections.abc import Callable
from typing import Any, Final

from typed_toolsets.rules.sendable import not_finite, too_large
from typed_toolsets.types.typespec import MAX_INT_DIGITS

from .jsonbounds import FLOAT_RANGE, SURROGATE_RE, InvalidJSON, lone_surrogate
from .jsonhints import json_hint

__all__ = ["long_numbers_in", "parse_strict", "raw_surrogate", "text_shape"]

_SURROGATE_ESCAPE_RE: Final = re.compile(r"\\u[dD][89a-fA-F]")
# Digits as "0", "e" and "E" as "e", the opening brackets as "[", everything else as " ": a run of
# digits becomes a run of "0" bytes, an exponent follows a digit as "0e", and the brackets a depth
# bound counts are counted in the same translation (no byte of a longer UTF-8 sequence is one).
_CLASSES: Final = bytes(
    48 if 48 <= byte <= 57 else 101 if byte in b"eE" else 91 if byte in b"[{" else 32
    for byte in range(256)
)
_BIG_EXPONENT_RE: Final = re.compile(rb"[eE]\+?0*[1-9][0-9]{2}")
# A digit followed by an exponent mark, in the digits' shape. Looked for by the regular expression
# engine: its search for a literal prefix is two to three times faster than ``bytes.__contains__``
# for this two-byte needle, whose last byte (a space or an "e") is everywhere in prose and code.
_EXPONENT_MARK_RE: Final = re.compile(rb"0e")
# What a number literal is written with: before where orjson stopped, the number it was reading.
_NUMBER_CHARS: Final = "0123456789+-.eE"


def _reject_constant(name: str) -> object:
    msg = not_finite(name)
    raise ValueError(msg)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        msg = f"{too_large(text)} for a float; {FLOAT_RANGE}"
        raise ValueError(msg)
    return value


def _bounded_int(text: str) -> int:
    digits = len(text) - (text[0] == "-")
    if digits > MAX_INT_DIGITS:
        msg = f"an integer literal has {digits:,} digits; at most {MAX_INT_DIGITS:,} are allowed"
        raise ValueError(msg)
    if digits <= 640:
        return int(text)
    # Convert in chunks so a lower interpreter limit (sys.set_int_max_str_digits) cannot refuse
    # a literal that JSON allows here.
    sign = -1 if text[0] == "-" else 1
    body = text[1:] if sign < 0 else text
    value = 0
    for start in range(0, len(body), 600):
        chunk = body[start : start + 600]
        value = value * 10 ** len(chunk) + int(chunk)
    return sign * value


#: The refusal of a text starting with a byte order mark (JSON texts have none).
BOM_REFUSAL: Final = "the text starts with a byte order mark (U+FEFF); send the JSON without it"


def _repeated(key: str, where: str = "") -> str:
    """The refusal of *key* twice in one object (*where*: that object's path, when nested).

    The key is cut, and the path's middle left out, as a refusal's values and paths are: both
    are the model's, of any length.
    """
    from .paths import shown_path
    from .shown import short  # the words of a refusal, not of every call

    at = f" at {shown_path(where)}" if where else ""
    return f"the key {short(key)} appears more than once in an object{at}; send each key once"


class _DuplicateKeyError(ValueError):
    """A key twice in one object; `parse_strict` adds where the object is."""

    def __init__(self, key: str) -> None:
        super().__init__(_repeated(key))
        self.key = key


def _repeated_key(pairs: list[tuple[str, Any]]) -> str | None:
    """The first key *pairs* holds twice, if any."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return key
        seen.add(key)
    return None


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _DuplicateKeyError(_repeated_key(pairs) or "")
    return result


class _Repeated(dict[str, Any]):
    """An object read with a key twice (`_where_repeated`), and that key."""

    key: str = ""


def _marked(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) == len(pairs):
        return result
    marked = _Repeated(result)
    marked.key = _repeated_key(pairs) or ""
    return marked


def _where_repeated(text: str, error: _DuplicateKeyError) -> str:
    """*error*'s message, with the path of the object that holds its key twice when nested.

    The parser builds objects innermost first and gives no position: the text is read again,
    with each such object marked, and the first one in document order is named.
    """
    try:
        value = _MARKING_DECODER.decode(text)
    except (ValueError, RecursionError):  # a later problem of the text: said without the path
        return str(error)
    stack: list[tuple[tuple[str | int, ...], object]] = [((), value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, _Repeated):
            if not path:
                break  # the arguments object itself
            from .paths import dotted_path  # the words of a refusal, not of every call

            return _repeated(item.key, dotted_path(path))
        if isinstance(item, dict):
            members = typing.cast("dict[str, object]", item)
            stack.extend(((*path, k), v) for k, v in reversed(members.items()))
        elif isinstance(item, list):
            items = typing.cast("list[object]", item)
            stack.extend(((*path, i), v) for i, v in reversed(list(enumerate(items))))
    return str(error)


def _check_strings(value: object) -> None:
    r"""Reject lone surrogates (a JSON escape such as ``\\ud800`` with no pair): not UTF-8."""
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and SURROGATE_RE.search(item):
                raise ValueError(_first_lone_surrogate(value) or lone_surrogate(item))
        elif isinstance(item, dict):
            mapping = typing.cast("dict[str, object]", item)
            stack.extend(mapping.keys())
            stack.extend(mapping.values())
        elif isinstance(item, list):
            stack.extend(typing.cast("list[object]", item))


def raw_surrogate(text: str, start: int) -> str:
    """Why *text*, which holds a lone surrogate character at *start*, is refused.

    A Python caller's text (or a provider SDK's, read from JSON that escaped half a character)
    can hold one as a character, not as an escape: read as JSON all the same, the string that
    holds it is named with its path, as an escaped one is; a text that is not JSON besides is
    told by the character's position.
    """
    import json  # a refusal's words only

    try:
        found = _first_lone_surrogate(json.loads(text))
    except (ValueError, RecursionError):
        found = None
    # (json keeps the last of repeated keys: the string may be one it dropped.)
    return found or (
        f"the text contains a lone surrogate at character {start}, half of a character, which "
        "UTF-8 cannot hold; send whole characters or leave it out"
    )


def _first_lone_surrogate(value: object) -> str | None:
    """Why *value* is refused: its first string holding a lone surrogate, and where it is.

    Walked again, in the text's order and with paths, only once one was found (None when
    *value* holds none).
    """
    from .paths import dotted_path  # the words of a refusal only

    # Each item with its path (a key's own path is its object's).
    stack: list[tuple[object, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and SURROGATE_RE.search(item):
                return lone_surrogate(item, dotted_path(path) if path else "")
        elif isinstance(item, dict):
            mapping = typing.cast("dict[str, object]", item)
            for key, member in reversed(mapping.items()):
                stack.append((member, (*path, key)))
                stack.append((key, path))
        elif isinstance(item, list):
            items = typing.cast("list[object]", item)
            stack.extend((items[index], (*path, index)) for index in reversed(range(len(items))))
    return None


def text_shape(text: str) -> tuple[bytes, bytes]:
    """*text* in UTF-8, and that translated to `_CLASSES`."""
    data = text.encode("utf-8", "surrogatepass")
    return data, data.translate(_CLASSES)


def _long_numbers(text: str) -> bool:
    """Whether *text* may hold a number of 200 digits or more, or an exponent of 100 or more.

    Below both, a number literal is under 1e300 (no float overflows) and has fewer than 640
    digits (the lowest digit limit an interpreter accepts).
    """
    return long_numbers_in(*text_shape(text))


def long_numbers_in(data: bytes, shape: bytes) -> bool:
    """`_long_numbers` of the text whose UTF-8 is *data* and `text_shape` *shape*.

    Linear, in C: no regular expression over digit runs (which backtracks within each run).
    """
    if b"0" * 200 in shape:
        return True
    # The expression only where a digit is followed by an exponent (not at every "e" of a word).
    return _EXPONENT_MARK_RE.search(shape) is not None and _BIG_EXPONENT_RE.search(data) is not None


# Built once: json.loads would build a decoder (and its scanner) on every call.
_DECODER: Final = json.JSONDecoder(
    parse_constant=_reject_constant, object_pairs_hook=_no_duplicates
)


def _numbers_decoder(
    objects: Callable[[list[tuple[str, Any]]], dict[str, Any]],
) -> json.JSONDecoder:
    """A decoder reading every number itself (exactly, within bounds), objects by *objects*."""
    return json.JSONDecoder(
        parse_constant=_reject_constant,
        parse_float=_finite_float,
        parse_int=_bounded_int,
        object_pairs_hook=objects,
    )


_NUMBERS_DECODER: Final = _numbers_decoder(_no_duplicates)
#: Reads a text as `parse_strict` does, marking each object with a key twice instead of refusing.
_MARKING_DECODER: Final = _numbers_decoder(_marked)


def _decode_past(text: str, stopped: int) -> object:
    """Decode *text*, which orjson stopped reading at character *stopped* (finding it invalid).

    orjson refuses a number whose value is no finite float where it reads it, so the parser's own
    number reading gets every number before *stopped* right (see `parse_strict`): only the text
    from there to where this parser stops is looked at for long literals (none of it, for a file
    cut short, whose error is at its end for both).
    """
    # The number orjson was reading when it stopped, if any, is looked at whole.
    start = len(text[:stopped].rstrip(_NUMBER_CHARS))
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        if exc.pos <= start or not _long_numbers(text[start : exc.pos]):
            raise
    except ValueError:
        pass  # an integer past the interpreter's digit limit: read as below
    else:
        if not _long_numbers(text[start:]):
            return value
    return _NUMBERS_DECODER.decode(text)


def parse_strict(text: str, stopped: int = 0, *, long_numbers: bool | None = None) -> object:
    """Parse JSON text strictly (the caller has bounded its size and depth).

    Args:
        text: The text.
        stopped: Where orjson stopped reading *text*, when it found it invalid (the position of
            its error), else 0.
        long_numbers: `_long_numbers` of *text*, when the caller knows it (*stopped* is 0).

    Raises:
        ArgumentsInputError: With reason ``"json"`` and the parser's message.
    """
    try:
        if text.startswith("\ufeff"):  # json.loads refuses it too, with codec advice
            # No position: the mark is the text's first character, which the words say.
            raise InvalidJSON(BOM_REFUSAL)
        if stopped > 0:
            value = _decode_past(text, stopped)
        else:
            # Without a long number no literal can overflow a float or pass an interpreter's
            # digit limit: the parser's own (C) number reading is exact, and a Python call per
            # number (a tenth of the time for numeric arrays) is saved.
            if long_numbers is None:
                long_numbers = _long_numbers(text)
            decoder = _NUMBERS_DECODER if long_numbers else _DECODER
            value = decoder.decode(text)
        # A lone surrogate comes from an escape or sits in the text itself: with neither, no
        # string needs looking at.
        if _SURROGATE_ESCAPE_RE.search(text) or (not text.isascii() and SURROGATE_RE.search(text)):
            _check_strings(value)
    except _DuplicateKeyError as exc:
        raise InvalidJSON(_where_repeated(text, exc)) from None
    except json.JSONDecodeError as exc:
        msg = f"{exc}{json_hint(exc.msg, text, exc.pos)}"
        raise InvalidJSON(msg) from None
    except (ValueError, RecursionError) as exc:
        raise InvalidJSON(str(exc) or type(exc).__name__) from None
    return value
