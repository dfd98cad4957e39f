"""Copying an already-parsed mapping into plain JSON values, within the limits.

What SDKs hand over (a dict, a lazy mapping, tuples, str and int subclasses) is walked once,
without recursion, as compact JSON text would write it: its size is counted on the way and the
walk stops at twice the limit, so a huge or endless input costs no more than that.
"""

from __future__ import annotations

import math
import typing
from collections.abc import Callable, Iterator, Mapping
from json import dumps as _json_dumps
from json.encoder import encode_basestring
from typing import Any, Final, TypeAlias

from typed_toolsets.definition.limits import Limits
from typed_toolsets.rules.labels import safe_repr
from typed_toolsets.rules.sendable import not_finite
from typed_toolsets.types.brackets import depth_over
from typed_toolsets.types.typespec import LONG_INT, MAX_INT_DIGITS

from .jsonbounds import (
    SURROGATE_RE,
    NotJSONValue,
    check_size,
    depth_error,
    depth_limit,
    lone_surrogate,
)

__all__ = ["Link", "copy_mapping", "path_of", "size_refusal"]

#: Ints below this magnitude are measured with str() (whatever the interpreter's digit limit).
_SMALL_INT: Final = 10**600
#: A string quoted and escaped as ``json.dumps(ensure_ascii=False)`` writes it (C, when built).
_quote: Final[Callable[[str], str]] = encode_basestring


def _int_size(number: int) -> int:
    """The length of an int's JSON literal (str() can refuse long ints, so it is not used)."""
    if -_SMALL_INT < number < _SMALL_INT:
        return len(str(number))
    magnitude = abs(number)
    digits = int(math.log10(magnitude)) + 1
    # log10 can be off by one next to a power of ten.
    if magnitude >= 10**digits:
        digits += 1
    elif magnitude < 10 ** (digits - 1):
        digits -= 1
    return digits + (number < 0)


def _json_string_size(text: str) -> int:
    """The UTF-8 length of *text* as compact JSON writes it (quoted, escaped, not ASCII-only)."""
    quoted = _quote(text)
    return len(quoted) if quoted.isascii() else len(quoted.encode("utf-8"))


def _plain_number(value: float) -> tuple[float, str | None]:
    """A number as a plain int or float, and why it has no JSON form (None when it has one)."""
    # The value itself, as JSON writers read it: ``int()`` and ``float()`` would call a
    # subclass's own ``__int__`` / ``__float__``, which may return another number.
    if isinstance(value, int):
        number = int.__int__(value)
        too_long = abs(number) >= LONG_INT
        return number, f"the integer has more than {MAX_INT_DIGITS:,} digits" if too_long else None
    plain = float.__float__(value)
    return plain, None if math.isfinite(plain) else not_finite(plain)


#: A path while walking a value: None at the top, else (the parent's link, key or index). Written
#: out (`path_of`) only for an error, so going one level deeper costs the same at any depth.
Link: TypeAlias = "tuple[Link, str | int] | None"


def path_of(link: Link) -> tuple[str | int, ...]:
    """The keys and indexes of *link*, from the top."""
    if link is None:
        return ()
    link, key = link
    if link is None:  # an argument: most problems are at one
        return (key,)
    parent, inner = link
    if parent is None:  # or just below one
        return (inner, key)
    keys: list[str | int] = [key]
    while link is not None:
        link, key = link
        keys.append(key)
    keys.reverse()
    return tuple(keys)


def _plain_string(value: str) -> str:
    """*value* as a plain str.

    Raises:
        NotJSONValue: It holds a lone surrogate (no UTF-8 form); the caller sets the path.
    """
    plain = str.__str__(value)
    if not plain.isascii() and SURROGATE_RE.search(plain):
        raise NotJSONValue(lone_surrogate(plain), [])
    return plain


def _scalar_copy(value: object) -> tuple[object, int]:
    """A JSON scalar as a plain value, with the length of its compact JSON text.

    Raises:
        NotJSONValue: *value* is no JSON scalar (containers are the caller's); the caller sets
            the path.
    """
    if value is None or value is True:
        return value, 4
    if value is False:
        return value, 5
    if isinstance(value, str):
        plain = _plain_string(value)
        return plain, _json_string_size(plain)
    if isinstance(value, (int, float)):
        number, problem = _plain_number(value)
        if problem is not None:
            raise NotJSONValue(problem, [])
        return number, _int_size(number) if type(number) is int else len(repr(number))
    from .validation import with_article  # the words of a refusal, not of every call

    name = type(value).__name__
    # object's own repr says nothing but an address: the type alone is named.
    shown = (
        f"a Python {name}"
        if type(value).__repr__ is object.__repr__
        else f"{safe_repr(value, 40)} ({with_article(name)})"
    )
    msg = (
        f"{shown} is not a JSON value; send strings, numbers, booleans, null, lists and "
        "string-keyed mappings"
    )
    raise NotJSONValue(msg, [])


def _check_length(text: str, room: int, limits: Limits) -> None:
    """Refuse *text* as too large when its length alone leaves no *room* (bytes still allowed).

    Quoting, escaping and encoding a string cost as much as the string: one of a gigabyte was
    copied twice before the walk found it over the limit.
    """
    if str.__len__(text) > room:
        check_size(None, limits)


def _members(value: object) -> Iterator[tuple[Any, Any]]:
    """A mapping's members, read one at a time (a mapping may be lazy, or endless)."""
    mapping = typing.cast("Mapping[Any, Any]", value)
    if type(value) is dict:
        return iter(mapping.items())
    return ((key, mapping[key]) for key in mapping)


def copy_mapping(arguments: object, limits: Limits) -> dict[str, object]:
    """Copy a mapping into plain JSON values, checking types, depth and size as it goes.

    The size is counted while walking, the way compact JSON text would be written, and the walk
    stops once it passes twice the limit: a huge list (or an endless lazy mapping) costs no more
    than that, and arguments a little over the limit are refused with their size, as text is
    ("more than" the limit only when the walk stopped). No recursion: one iterator per open
    container.
    """
    max_depth = depth_limit(limits)
    measured_to = 2 * limits.max_argument_bytes  # where measuring stops (see above)
    root: dict[str, object] = {}
    size = 2  # the braces (checked at the end: under a limit of 1, a member makes it "more than")
    # Per open container: its members or items, still to read, and the copy being filled; the
    # path holds the key (or index) of each open container inside its parent.
    iterators: list[Iterator[tuple[Any, Any]]] = [_members(arguments)]
    targets: list[dict[str, object] | list[object]] = [root]
    path: list[str | int] = []
    while iterators:
        iterator = iterators[-1]
        target = targets[-1]
        opened = False
        for key, value in iterator:
            if target:
                size += 1  # the comma before this member or item
            if isinstance(target, dict):
                if not isinstance(key, str):
                    from .shown import short  # the words of a refusal, not of every call

                    msg = f"the key {short(key)} is not a string (JSON object keys are strings)"
                    raise NotJSONValue(msg, list(path))
                _check_length(key, measured_to - size, limits)
                try:
                    key = _plain_string(key)
                except NotJSONValue as exc:
                    exc.path = list(path)
                    raise
                size += _json_string_size(key) + 1  # the key and its colon
            if isinstance(value, (Mapping, list, tuple)):
                if len(iterators) >= max_depth:
                    # The first limit the walk meets: text is measured whole before its depth
                    # (its size costs nothing), a mapping's rest is not read (see the README).
                    raise depth_error(None, max_depth)
                element: Any
                if isinstance(value, Mapping):
                    element = {}
                    iterators.append(_members(typing.cast(object, value)))
                else:
                    element = []
                    items = typing.cast("list[object] | tuple[object, ...]", value)
                    iterators.append(enumerate(items))
                size += 2  # the brackets
                opened = True
            else:
                if isinstance(value, str):
                    _check_length(value, measured_to - size, limits)
                try:
                    element, length = _scalar_copy(value)
                except NotJSONValue as exc:
                    exc.path = [*path, key]
                    raise
                size += length
            if isinstance(target, dict):
                target[key] = element
            else:
                target.append(element)
            if size > measured_to:
                check_size(None, limits)
            if opened:
                targets.append(element)
                path.append(key)
                break
        if not opened:
            iterators.pop()
            targets.pop()
            if path:
                path.pop()
    check_size(size, limits)
    return root


def size_refusal(arguments: object, written: bytes, limits: Limits) -> None:
    """Refuse a dict over the byte limit as `copy_mapping` would, without walking it, if it can.

    *written* is orjson's writing of it (which refuses what is no plain JSON value but an
    infinity, a NaN or an enum member). When the dict nests within the limit (measured on
    *written*, in C) and Python's own JSON writer takes it (as the walk would: no infinity, NaN
    or object of another type; it writes floats as the walk counts them), the walk could only
    end in its size, which that writer measures: the same refusal, a tenth of the time or less.
    Otherwise this returns, and the walk says what it finds first.

    Raises:
        LimitExceeded: The dict is over the byte limit.
    """
    if type(arguments) is not dict:  # pragma: no cover - the fast path hands over only dicts
        return
    max_depth = depth_limit(limits)
    if depth_over(written, max_depth) is not None:
        return  # the walk may meet the depth first
    try:
        text = _json_dumps(arguments, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        size = len(text) if text.isascii() else len(text.encode("utf-8"))
    except (ValueError, TypeError, RecursionError):  # the walk names what it cannot write
        return
    if size > limits.max_argument_bytes:
        # Past twice the limit the walk stops measuring: "more than" the limit, as it says.
        check_size(size if size <= 2 * limits.max_argument_bytes else None, limits)
