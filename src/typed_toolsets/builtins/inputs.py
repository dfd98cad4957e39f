"""Checks on tool inputs that guard the process: size caps, patterns, values bound for an argv.

These are the checks the built-in tools keep on every path (the rule is in
docs/builtin-toolsets.md, "Which checks run where"): the model-facing path has already validated
each argument against its schema, and the direct ``call`` path trusts its Python caller's types,
so what is checked here is only what a schema cannot say or what protects the process. Each
check raises an `InvalidArgumentError` subclass whose message names the argument, the limit and
the measured value, so a model can correct the call.
"""

from __future__ import annotations

from typing import Final

from .exceptions import InputTooLargeError, InvalidArgumentError, InvalidPatternError

__all__ = [
    "MAX_PATTERN_BYTES",
    "check_int",
    "check_pattern",
    "check_text",
    "encode_text",
    "text_size_problem",
]

#: Largest pattern, in UTF-8 bytes. Far below Linux's 128 KiB limit for one argv element
#: (MAX_ARG_STRLEN), and far above any pattern a person writes.
MAX_PATTERN_BYTES: Final = 4096


def _utf8_length(text: str) -> int:
    # Lone surrogates count as the 3 bytes they would take; the strict check is elsewhere.
    return len(text.encode("utf-8", "surrogatepass"))


def text_size_problem(text: str, *, max_bytes: int, name: str = "text") -> str | None:
    """Why *text* is over *max_bytes* UTF-8 bytes, or None when it fits.

    Cheap for the common cases: a text of more code points than the cap is over it, and one
    whose worst-case encoding fits is under it, with no encoding done.
    """
    if len(text) > max_bytes:
        size = f"more than {max_bytes:,}"
    elif len(text) * 4 <= max_bytes:
        return None
    else:
        length = _utf8_length(text)
        if length <= max_bytes:
            return None
        size = f"{length:,}"
    return f"`{name}` is {size} bytes (UTF-8); the limit is {max_bytes:,} bytes"


def check_text(text: str, *, max_bytes: int, name: str = "text") -> str:
    """Return *text* if it is within *max_bytes* UTF-8 bytes.

    Raises:
        InputTooLargeError: Over the cap.
    """
    problem = text_size_problem(text, max_bytes=max_bytes, name=name)
    if problem is not None:
        msg = f"{problem}; send a smaller part of the text"
        raise InputTooLargeError(msg)
    return text


def encode_text(text: str, *, max_bytes: int, name: str = "text") -> bytes:
    """Encode *text* as strict UTF-8 for a program's stdin, enforcing *max_bytes*.

    Raises:
        InvalidArgumentError: Not encodable (a lone surrogate).
        InputTooLargeError: Over the cap.
    """
    check_text(text, max_bytes=max_bytes, name=name)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        msg = (
            f"`{name}` is not valid Unicode: it contains a lone surrogate "
            f"(U+{ord(text[exc.start]):04X}) at index {exc.start}"
        )
        raise InvalidArgumentError(msg) from None


def check_pattern(pattern: object, *, engine: str, allow_newline: bool = True) -> str:
    """Check a model-supplied regular expression before it reaches an engine or an argv.

    Rules: a str of 1 to `MAX_PATTERN_BYTES` UTF-8 bytes, encodable (no lone surrogates), with no
    NUL character and, unless *allow_newline*, no newline (grep would read a newline as a second
    pattern, and the empty one after a trailing newline matches every line; rg refuses it with
    advice about a flag its tool cannot take).

    Raises:
        InvalidPatternError: A rule is broken; the message says which.
    """
    if not isinstance(pattern, str):
        msg = f"`pattern` must be a string, not {type(pattern).__name__}"
        raise InvalidPatternError(msg)
    if not pattern:
        msg = f"`pattern` is empty; give {engine} at least one character to search for"
        raise InvalidPatternError(msg)
    if "\x00" in pattern:
        # grep and rg take the pattern as a program argument; RE2's is kept to their rules.
        why = "no program argument can hold" if engine != "RE2" else "this tool cannot search for"
        msg = f"`pattern` contains a NUL character (\\x00), which {why}; leave it out"
        raise InvalidPatternError(msg)
    if not allow_newline and "\n" in pattern:
        msg = (
            f"`pattern` contains a newline; {engine} matches one line at a time, so no match "
            "can contain one. Search for text within one line, or use alternation (a|b) to "
            "find lines that match either part"
        )
        raise InvalidPatternError(msg)
    if len(pattern) > MAX_PATTERN_BYTES:
        msg = (
            f"`pattern` is more than {MAX_PATTERN_BYTES:,} bytes; the limit is "
            f"{MAX_PATTERN_BYTES:,} bytes (UTF-8)"
        )
        raise InputTooLargeError(msg)
    try:
        size = len(pattern.encode("utf-8"))
    except UnicodeEncodeError as exc:
        msg = (
            f"`pattern` is not valid Unicode: it contains a lone surrogate "
            f"(U+{ord(pattern[exc.start]):04X}) at index {exc.start}"
        )
        raise InvalidPatternError(msg) from None
    if size > MAX_PATTERN_BYTES:
        msg = f"`pattern` is {size:,} bytes; the limit is {MAX_PATTERN_BYTES:,} bytes (UTF-8)"
        raise InputTooLargeError(msg)
    return pattern


def check_int(value: object, *, name: str, low: int, high: int) -> int:
    """Return *value* if it is an int (not a bool) in ``low..high``.

    For a number that reaches a program's argument vector: the schema enforces the same on the
    model-facing path, and this keeps it true on the direct path.

    Raises:
        InvalidArgumentError: Not an int, or out of range.
    """
    if type(value) is not int:
        msg = f"`{name}` must be an integer, not {type(value).__name__} ({value!r})"
        raise InvalidArgumentError(msg)
    if not low <= value <= high:
        msg = f"`{name}` must be between {low:,} and {high:,} (got {value:,})"
        raise InvalidArgumentError(msg)
    return value
