"""Turning what a caller passes as arguments into a JSON object, within the limits.

Accepted: a mapping, a JSON text (``str`` or ``bytes``), or None / empty text for "no arguments".
The bounds and errors are `.jsonbounds`'s, text is parsed by `.jsontext` and a mapping copied by
`.jsonvalues`; this module picks which, and re-exports their names the call path uses.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Final

from typed_toolsets.definition.limits import Limits
from typed_toolsets.types.typespec import MAX_INT_DIGITS

from .jsonbounds import (
    MAX_NESTING,
    ArgumentsInputError,
    InvalidJSON,
    LimitExceeded,
    NotAnObject,
    NotJSONValue,
    check_size,
    check_text_depth,
    depth_limit,
    text_depth,
)
from .jsontext import long_numbers_in, parse_strict, raw_surrogate, text_shape
from .jsonvalues import Link, copy_mapping, path_of
from .quoted import object_text_hint

__all__ = [
    "MAX_INT_DIGITS",
    "MAX_NESTING",
    "ArgumentsInputError",
    "InvalidJSON",
    "LimitExceeded",
    "Link",
    "NotAnObject",
    "NotJSONValue",
    "check_size",
    "depth_limit",
    "load_arguments",
    "parse_strict",
    "path_of",
    "text_depth",
]


#: The size of ``{}``, what None and empty text mean (see `_no_arguments`).
_EMPTY_OBJECT_BYTES: Final = len(b"{}")


def load_arguments(arguments: object, limits: Limits, stopped: int = 0) -> dict[str, object]:
    """Turn the caller's arguments into a fresh JSON object (a dict).

    *stopped* is where orjson stopped reading them, when they are JSON text (a str) it found
    invalid (see `parse_strict`).

    Raises:
        LimitExceeded: The input is too large or too deep.
        ArgumentsInputError: It is not valid JSON, not an object, or holds non-JSON values.
    """
    if arguments is None:
        return _no_arguments(limits)
    if isinstance(arguments, str):
        text = str.__str__(arguments)
        if not text:
            return _no_arguments(limits)
        if len(text) > limits.max_argument_bytes:
            # Every character is at least one byte: over the limit without encoding anything
            # (an ASCII text's size is its length; another's is not measured further).
            check_size(len(text) if text.isascii() else None, limits)
        if not text.isascii():
            try:
                encoded = len(text.encode("utf-8"))
            except UnicodeEncodeError as exc:
                raise InvalidJSON(raw_surrogate(text, exc.start)) from None
            check_size(encoded, limits)
    elif isinstance(arguments, (bytes, bytearray, memoryview)):
        # Measured before the copy (a buffer of any size is refused without one).
        # The buffer's own length: a subclass's __len__ may say anything, or raise.
        size = memoryview(typing.cast("bytes | bytearray | memoryview", arguments)).nbytes
        if not size:
            return _no_arguments(limits)
        check_size(size, limits)
        raw = bytes(typing.cast("bytes | bytearray | memoryview", arguments))
        stopped = 0  # orjson's position counts bytes
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            msg = f"the bytes are not valid UTF-8 ({exc.reason} at byte {exc.start})"
            raise InvalidJSON(msg) from None
    elif isinstance(arguments, Mapping):
        return copy_mapping(typing.cast(object, arguments), limits)
    elif isinstance(arguments, (bool, int, float, list, tuple)):
        # A value with a JSON form is named by it, as the same value sent as text would be.
        msg = f"must be a JSON object, not {_json_kind(typing.cast(object, arguments))}"
        raise NotAnObject(msg)
    else:
        msg = (
            "must be a JSON object (a mapping or JSON text), not a value of the Python type "
            f"{type(arguments).__name__!r}"
        )
        raise NotAnObject(msg)
    if stopped > 0:
        check_text_depth(text, limits)
        value = parse_strict(text, stopped)
    else:
        # One pass in C serves the depth bound (its brackets) and the look for long numbers.
        data, shape = text_shape(text)
        check_text_depth(text, limits, shape.count(b"["))
        value = parse_strict(text, long_numbers=long_numbers_in(data, shape))
    if not isinstance(value, dict):
        # Encoded twice (a provider's arguments text sent as a JSON string) is said to be so, as
        # for a parameter holding its object's text.
        msg = f"must be a JSON object, not {_json_kind(value)}{object_text_hint(value)}"
        raise NotAnObject(msg)
    return typing.cast("dict[str, object]", value)


def _no_arguments(limits: Limits) -> dict[str, object]:
    """What None and empty text mean: ``{}``, measured as its text (2 bytes), as sent it is.

    Under a limit of 1 byte, ``{}`` is refused, in whatever form it comes.
    """
    check_size(_EMPTY_OBJECT_BYTES, limits)
    return {}


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array"
