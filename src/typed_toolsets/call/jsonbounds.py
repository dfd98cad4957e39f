"""What a call's arguments may be: the input errors, and the size and depth bounds.

Measured before any work that scales with the input, and without recursion, so a 100,000-deep
input is a clean error rather than a RecursionError or a crash. Nesting deeper than
`MAX_NESTING` is refused whatever ``Limits.max_depth`` allows: up to it, every later step (the
parser, structuring, the checker) stays well within Python's default recursion limit, so the
verdict on an input never depends on that limit. The depth of a text is measured from its
brackets by `typed_toolsets.types.brackets` (the fast path measures large texts with it too).
"""

from __future__ import annotations

import re
from typing import Final

from typed_toolsets.definition.limits import Limits
from typed_toolsets.types.brackets import depth_over, one_value, outside_strings, text_depth

__all__ = [
    "FLOAT_RANGE",
    "MAX_NESTING",
    "SURROGATE_RE",
    "ArgumentsInputError",
    "InvalidJSON",
    "LimitExceeded",
    "NotAnObject",
    "NotJSONValue",
    "check_size",
    "check_text_depth",
    "depth_error",
    "depth_limit",
    "depth_over",
    "lone_surrogate",
    "one_value",
    "outside_strings",
    "size_error",
    "text_depth",
]

#: The deepest nesting read, whatever ``Limits.max_depth`` allows (serde_json's default limit
#: too). The call path recurses at most a few frames per level, so up to this depth it needs a
#: few hundred frames, well within Python's default limit of 1,000.
MAX_NESTING: Final = 128
#: What to send instead of a number too large for a float (the largest finite float is about
#: 1.8e308), wherever it was found: in JSON text, or in a value the type could not build.
FLOAT_RANGE: Final = "send a number between -1.8e308 and 1.8e308"
#: A lone surrogate (half of a UTF-16 pair): no UTF-8 form, so no JSON text holds it.
SURROGATE_RE: Final = re.compile("[\ud800-\udfff]")


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


def lone_surrogate(text: str, where: str = "") -> str:
    """Why *text* (found at *where*, when given) is no JSON string: it holds a lone surrogate."""
    from .shown import short  # the words of a refusal, not of every call

    found = SURROGATE_RE.search(text)
    code = ord(found.group()) if found else 0
    at = f" at {where}" if where else ""
    return (
        f"the string {short(text)}{at} contains a lone surrogate (U+{code:04X}), half of a "
        "character, which UTF-8 cannot hold; send whole characters or leave it out"
    )


# ------------------------------------------------------------------------------ size and depth


def check_size(size: int | None, limits: Limits) -> None:
    """Raise `LimitExceeded` when *size* is over the byte limit.

    A *size* of None means measuring stopped early: the input is over the limit.
    """
    if size is None or size > limits.max_argument_bytes:
        raise size_error(size, limits)


def size_error(size: int | None, limits: Limits) -> LimitExceeded:
    """The refusal of *size* bytes (None: more than the limit) over the byte limit."""
    limit = limits.max_argument_bytes
    unit = "byte" if limit == 1 else "bytes"
    # A size over the limit is at least 2: bytes; "more than" the limit is said in its unit.
    measured = f"more than {limit:,} {unit}" if size is None else f"{size:,} bytes"
    return LimitExceeded(
        f"{measured}, over the limit of {limit:,} {unit} (Limits.max_argument_bytes); "
        "send less data"
    )


def depth_limit(limits: Limits) -> int:
    """The deepest nesting accepted: ``Limits.max_depth``, at most `MAX_NESTING`."""
    return min(limits.max_depth, MAX_NESTING)


def depth_error(depth: int | None, limit: int) -> LimitExceeded:
    """The refusal of nesting *depth* levels deep (None: more than *limit*) under *limit*."""
    measured = f"more than {limit}" if depth is None else str(depth)
    setting = (
        "Limits.max_depth"
        if limit < MAX_NESTING
        else "the deepest nesting typed_toolsets reads, whatever Limits.max_depth allows"
    )
    levels = "level" if measured == "more than 1" else "levels"
    return LimitExceeded(
        f"nested {measured} {levels} deep, over the limit of {limit} ({setting}); "
        "send a flatter structure"
    )


def check_text_depth(text: str, limits: Limits, opened: int | None = None) -> None:
    """Raise `LimitExceeded` when *text* nests deeper than the limit.

    *opened* is the number of its opening brackets, when the caller has counted them.
    """
    limit = depth_limit(limits)
    depth = depth_over(text, limit, opened)
    if depth is not None:
        raise depth_error(depth, limit)
