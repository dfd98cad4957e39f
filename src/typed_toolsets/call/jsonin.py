"""Turning what a caller passes as arguments into a JSON object, within the limits.

Accepted: a mapping, a JSON text (``str`` or ``bytes``), or None / empty text for "no arguments".
Sizes and depths are measured before any work that scales with them, and without recursion, so
a 100,000-deep input is a clean error rather than a RecursionError or a crash. Nesting deeper than
`MAX_NESTING` is refused whatever ``Limits.max_depth`` allows: up to it, every later step (the
parser, structuring, the checker) stays well within Python's default recursion limit, so the
verdict on an input never depends on that limit. Parsing is strict:
``NaN``/``Infinity``, numbers that overflow a float, integer literals over 4,300 digits,
duplicate keys and lone surrogates are invalid JSON.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import typing
from collections.abc import Callable, Iterator, Mapping
from json.encoder import encode_basestring
from typing import Any, Final, TypeAlias

from typed_toolsets.definition.limits import Limits
from typed_toolsets.types.typespec import LONG_INT, MAX_INT_DIGITS

__all__ = [
    "MAX_INT_DIGITS",
    "MAX_NESTING",
    "ArgumentsInputError",
    "InvalidJSON",
    "Link",
    "NotAnObject",
    "NotJSONValue",
    "LimitExceeded",
    "check_size",
    "depth_limit",
    "load_arguments",
    "parse_strict",
    "path_of",
    "text_depth",
]

#: The deepest nesting read, whatever ``Limits.max_depth`` allows (serde_json's default limit
#: too). The call path recurses at most a few frames per level, so up to this depth it needs a
#: few hundred frames, well within Python's default limit of 1,000.
MAX_NESTING: Final = 128
#: Ints below this magnitude are measured with str() (whatever the interpreter's digit limit).
_SMALL_INT: Final = 10**600
_SURROGATE_RE: Final = re.compile("[\ud800-\udfff]")
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
_ESCAPE_RE: Final = re.compile(r"\\.", re.DOTALL)
# What a number literal is written with: before where orjson stopped, the number it was reading.
_NUMBER_CHARS: Final = "0123456789+-.eE"
# Every byte but the four brackets, for deleting them all in one C pass.
_NOT_BRACKETS: Final = bytes(byte for byte in range(256) if byte not in b"[]{}")
_BRACKET_STEP: Final = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
#: A string quoted and escaped as ``json.dumps(ensure_ascii=False)`` writes it (C, when built).
_quote: Final[Callable[[str], str]] = encode_basestring


class LimitExceeded(Exception):  # noqa: N818 - named for the verdict, as the limit messages read
    """The input is over a size or depth limit. ``str()`` is the message (without the tool)."""


class ArgumentsInputError(Exception):
    """The input is not a JSON object; subclasses say how. ``str()`` is the reason."""


class InvalidJSON(ArgumentsInputError):  # noqa: N818 - a kind of ArgumentsInputError
    """The text is not valid JSON (strictly parsed)."""


class NotAnObject(ArgumentsInputError):  # noqa: N818 - a kind of ArgumentsInputError
    """The input is valid JSON (or a Python value) but not an object."""


class NotJSONValue(ArgumentsInputError):  # noqa: N818 - a kind of ArgumentsInputError
    """A mapping holds something that has no JSON form.

    Attributes:
        path: Where, as a list of keys and indices.
    """

    def __init__(self, message: str, path: list[str | int]) -> None:
        super().__init__(message)
        self.path = path


# ------------------------------------------------------------------------------ size and depth


def check_size(size: int | None, limits: Limits) -> None:
    """Raise `LimitExceeded` when *size* is over the byte limit.

    A *size* of None means measuring stopped early: the input is over the limit.
    """
    limit = limits.max_argument_bytes
    if size is None or size > limit:
        measured = f"more than {limit:,}" if size is None else f"{size:,}"
        msg = (
            f"{measured} bytes, over the limit of {limit:,} bytes (Limits.max_argument_bytes); "
            "send less data"
        )
        raise LimitExceeded(msg)


def depth_limit(limits: Limits) -> int:
    """The deepest nesting accepted: ``Limits.max_depth``, at most `MAX_NESTING`."""
    return min(limits.max_depth, MAX_NESTING)


def _depth_error(depth: int | None, limit: int) -> LimitExceeded:
    measured = f"more than {limit}" if depth is None else str(depth)
    setting = (
        "Limits.max_depth"
        if limit < MAX_NESTING
        else "the deepest nesting typed_toolsets reads, whatever Limits.max_depth allows"
    )
    return LimitExceeded(
        f"nested {measured} levels deep, over the limit of {limit} ({setting}); "
        "send a flatter structure"
    )


def text_depth(text: str) -> int:
    """Measure the deepest nesting of ``[``/``{`` outside strings, without recursion or parsing.

    Passes in C, linear whatever the text: escapes are dropped first (outside strings they are
    invalid JSON anyway), so every quote left delimits a string; splitting at the quotes leaves
    the text outside strings at the even places; every byte of it but the brackets is deleted,
    and the brackets left are summed up. Malformed text gives some number; the parser rejects it
    afterwards.
    """
    if "\\" in text:
        text = _ESCAPE_RE.sub("", text)
    outside = "".join(text.split('"')[::2]).encode("utf-8", "surrogatepass")
    brackets = outside.translate(None, _NOT_BRACKETS)
    if not brackets:
        return 0
    # No list of the levels: a megabyte of brackets would make one of tens of megabytes.
    return max(0, max(itertools.accumulate(map(_BRACKET_STEP.__getitem__, brackets))))


def _check_text_depth(text: str, limits: Limits, opened: int | None = None) -> None:
    """Raise `LimitExceeded` when *text* nests deeper than the limit.

    *opened* is the number of its opening brackets, when the caller has counted them.
    """
    limit = depth_limit(limits)
    if opened is None:
        opened = text.count("[") + text.count("{")
    # Cheap bound first: a text with fewer opening brackets than the limit cannot be too deep.
    if opened <= limit:
        return
    depth = text_depth(text)
    if depth > limit:
        raise _depth_error(depth, limit)


# ------------------------------------------------------------------------------- strict parsing


def _reject_constant(name: str) -> object:
    msg = f"{name} is not valid JSON (numbers must be finite)"
    raise ValueError(msg)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        msg = f"the number {text[:40]} is too large for a float"
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


def _repeated(key: str, where: str = "") -> str:
    """The refusal of *key* twice in one object (*where*: that object's path, when nested)."""
    at = f" at {where}" if where else ""
    return f"the key {key!r} appears more than once in an object{at}"


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
            from .validation import dotted_path  # the words of a refusal, not of every call

            return (
                f"the key {item.key!r} appears more than once in an object at {dotted_path(path)}"
            )
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
            if not item.isascii() and _SURROGATE_RE.search(item):
                char = _SURROGATE_RE.search(item)
                code = ord(char.group()) if char else 0
                msg = f"the string {_short(item)} contains a lone surrogate (U+{code:04X})"
                raise ValueError(msg)
        elif isinstance(item, dict):
            mapping = typing.cast("dict[str, object]", item)
            stack.extend(mapping.keys())
            stack.extend(mapping.values())
        elif isinstance(item, list):
            stack.extend(typing.cast("list[object]", item))


def _shape(text: str) -> tuple[bytes, bytes]:
    """*text* in UTF-8, and that translated to `_CLASSES`."""
    data = text.encode("utf-8", "surrogatepass")
    return data, data.translate(_CLASSES)


def _long_numbers(text: str) -> bool:
    """Whether *text* may hold a number of 200 digits or more, or an exponent of 100 or more.

    Below both, a number literal is under 1e300 (no float overflows) and has fewer than 640
    digits (the lowest digit limit an interpreter accepts).
    """
    return _long_in(*_shape(text))


def _long_in(data: bytes, shape: bytes) -> bool:
    """`_long_numbers` of the text whose UTF-8 is *data* and `_shape` *shape*.

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
            msg = "the text starts with a byte order mark (U+FEFF); send the JSON without it"
            raise json.JSONDecodeError(msg, text, 0)
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
        if _SURROGATE_ESCAPE_RE.search(text) or (not text.isascii() and _SURROGATE_RE.search(text)):
            _check_strings(value)
    except _DuplicateKeyError as exc:
        raise InvalidJSON(_where_repeated(text, exc)) from None
    except (ValueError, RecursionError) as exc:
        raise InvalidJSON(str(exc) or type(exc).__name__) from None
    return value


# ------------------------------------------------------------------------------------- mappings


def _short(value: object, limit: int = 40) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a repr that fails must not break error reporting
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


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
    finite = math.isfinite(plain)
    return plain, None if finite else f"{value!r} is not valid JSON (numbers must be finite)"


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
    if not plain.isascii() and _SURROGATE_RE.search(plain):
        msg = f"the string {_short(plain)} contains a lone surrogate"
        raise NotJSONValue(msg, [])
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

    msg = (
        f"{_short(value)} ({with_article(type(value).__name__)}) is not a JSON value; send "
        "strings, numbers, booleans, null, lists and string-keyed mappings"
    )
    raise NotJSONValue(msg, [])


def _members(value: object) -> Iterator[tuple[Any, Any]]:
    """A mapping's members, read one at a time (a mapping may be lazy, or endless)."""
    mapping = typing.cast("Mapping[Any, Any]", value)
    if type(value) is dict:
        return iter(mapping.items())
    return ((key, mapping[key]) for key in mapping)


def _copy_mapping(arguments: object, limits: Limits) -> dict[str, object]:
    """Copy a mapping into plain JSON values, checking types, depth and size as it goes.

    The size is counted while walking, the way compact JSON text would be written, and the walk
    stops as soon as it passes the limit: a huge list (or an endless lazy mapping) costs no more
    than the limit allows. No recursion: one iterator per open container.
    """
    max_depth = depth_limit(limits)
    max_size = limits.max_argument_bytes
    root: dict[str, object] = {}
    size = 2  # the braces
    check_size(size, limits)
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
                    msg = f"the key {_short(key)} is not a string (JSON object keys are strings)"
                    raise NotJSONValue(msg, list(path))
                try:
                    key = _plain_string(key)
                except NotJSONValue as exc:
                    exc.path = list(path)
                    raise
                size += _json_string_size(key) + 1  # the key and its colon
            if isinstance(value, (Mapping, list, tuple)):
                if len(iterators) >= max_depth:
                    raise _depth_error(None, max_depth)
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
            if size > max_size:
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
    return root


# ------------------------------------------------------------------------------------ the entry


def load_arguments(arguments: object, limits: Limits, stopped: int = 0) -> dict[str, object]:
    """Turn the caller's arguments into a fresh JSON object (a dict).

    *stopped* is where orjson stopped reading them, when they are JSON text (a str) it found
    invalid (see `parse_strict`).

    Raises:
        LimitExceeded: The input is too large or too deep.
        ArgumentsInputError: It is not valid JSON, not an object, or holds non-JSON values.
    """
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        text = str.__str__(arguments)
        if not text:
            return {}
        if len(text) > limits.max_argument_bytes:
            # Every character is at least one byte: over the limit without encoding anything
            # (an ASCII text's size is its length; another's is not measured further).
            check_size(len(text) if text.isascii() else None, limits)
        if not text.isascii():
            try:
                encoded = len(text.encode("utf-8"))
            except UnicodeEncodeError as exc:
                msg = f"the text contains a lone surrogate at character {exc.start}"
                raise InvalidJSON(msg) from None
            check_size(encoded, limits)
    elif isinstance(arguments, (bytes, bytearray, memoryview)):
        # Measured before the copy (a buffer of any size is refused without one).
        size = arguments.nbytes if isinstance(arguments, memoryview) else len(arguments)
        if not size:
            return {}
        check_size(size, limits)
        raw = bytes(typing.cast("bytes | bytearray | memoryview", arguments))
        stopped = 0  # orjson's position counts bytes
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            msg = f"the bytes are not valid UTF-8 ({exc.reason} at byte {exc.start})"
            raise InvalidJSON(msg) from None
    elif isinstance(arguments, Mapping):
        return _copy_mapping(typing.cast(object, arguments), limits)
    elif isinstance(arguments, (bool, int, float, list, tuple)):
        # A value with a JSON form is named by it, as the same value sent as text would be.
        msg = f"must be a JSON object, not {_json_kind(typing.cast(object, arguments))}"
        raise NotAnObject(msg)
    else:
        msg = f"must be a JSON object (a mapping or JSON text), not {type(arguments).__name__}"
        raise NotAnObject(msg)
    if stopped > 0:
        _check_text_depth(text, limits)
        value = parse_strict(text, stopped)
    else:
        # One pass in C serves the depth bound (its brackets) and the look for long numbers.
        data, shape = _shape(text)
        _check_text_depth(text, limits, shape.count(b"["))
        value = parse_strict(text, long_numbers=_long_in(data, shape))
    if not isinstance(value, dict):
        msg = f"must be a JSON object, not {_json_kind(value)}"
        raise NotAnObject(msg)
    return typing.cast("dict[str, object]", value)


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
