"""A string holding the JSON of the value that was wanted: the hint to send the value itself.

Models often send an array, an object, a number or ``true`` as a string holding its JSON
(``"tags": "[1, 2]"``, ``"n": "5"``). The call stays strict (no string is read as JSON in its
place); the refusal says what is wanted instead, so the model can correct itself in one step.
"""

from __future__ import annotations

import json
import math
import typing
from collections.abc import Collection, Iterable
from typing import Final

from typed_toolsets.types.typespec import json_key, kind_admitted, schema_kind

__all__ = ["member_hint", "object_text_hint", "quoted_hint", "quoted_object", "union_hint"]

#: The JSON type a text may hold, by its first character.
_BY_FIRST: Final = {
    "[": "array",
    "{": "object",
    "t": "boolean",
    "f": "boolean",
    "n": "null",
    "-": "number",
    **dict.fromkeys("0123456789", "number"),
}
#: JSON's words as other languages (and other cases) write them, by their lower case.
_WORDS: Final = {"true": "true", "false": "false", "null": "null", "none": "null"}
_LONGEST_WORD: Final = max(map(len, _WORDS))
#: Up to this many characters, a number or word is shown in the hint as it should be sent.
_SHOWN: Final = 40
#: Longer strings are not read for a hint: a refusal costs about what reading the call did.
_READ: Final = 10_000


def quoted_object(text: str) -> object:
    """The JSON object a string holds (arguments sent as the text of one), else None.

    Only read to word a hint, and only up to the length hints read.
    """
    if len(text) > _READ or text.lstrip(" \t\n\r")[:1] != "{":
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def quoted_hint(instance: object, expected: Collection[str]) -> str:
    """``"; ... is wanted"`` when *instance* is a string holding JSON of an *expected* type.

    Args:
        instance: The value the schema refused.
        expected: The JSON types the schema wanted (``"array"``, ``"integer"``, ...).

    Returns:
        The hint, to follow the reason; ``""`` when *instance* is no such string.
    """
    if type(instance) is not str or len(instance) > _READ:
        return ""
    text = instance.strip()
    word = _WORDS.get(text.lower()) if len(text) <= _LONGEST_WORD else None
    if word is not None and text != word:
        # Python's `True` or `None`, another case (`FALSE`): the JSON word meant, if wanted.
        kind = "null" if word == "null" else "boolean"
        return f"; {word} is wanted, without quotes" if kind_admitted(kind, expected) else ""
    guess = _BY_FIRST.get(text[:1])
    # A number's digits may hold an integer: wanted as "number" or as "integer".
    if guess is None or not (
        kind_admitted(guess, expected) or (guess == "number" and "integer" in expected)
    ):
        return ""
    digits = text[1:] if text[:1] == "-" else text
    if digits.isascii() and digits.isdigit() and (digits[:1] != "0" or len(digits) == 1):
        kind = "integer"  # the usual case, read without the parser's frames
    else:
        try:
            value: object = json.loads(text)
        except (ValueError, RecursionError):
            return ""  # not JSON after all (or nested past what is worth reading for a hint)
        if type(value) is float and not math.isfinite(value):
            return ""  # 1e400 overflows a float: sent without quotes, it is refused all the same
        kind = schema_kind(value)  # 1e3 is a whole number: an integer, as jsonschema says
    if not kind_admitted(kind, expected):
        return ""
    # Said of the value, not to the model alone: a tool's result is checked with these words too.
    if kind in ("array", "object"):
        return _HELD_AS_TEXT.format(kind=kind)
    if len(text) > _SHOWN:
        return "; the number itself is wanted, without quotes"
    return f"; {text} is wanted, without quotes"


#: What to say of an array or object sent as a string of its JSON.
_HELD_AS_TEXT: Final = "; the {kind} itself is wanted, not a string holding its JSON"


def object_text_hint(value: object) -> str:
    """``"; the object itself is wanted, ..."`` when *value* is a string holding a JSON object.

    For arguments that must be an object and came as the text of one (encoded twice).
    """
    if type(value) is str and type(quoted_object(value)) is dict:
        return _HELD_AS_TEXT.format(kind="object")
    return ""


def member_hint(instance: object, members: Iterable[object]) -> str:
    """``"; 2 is wanted, without quotes"`` when *instance* is a string holding one of *members*.

    For an ``enum`` or ``const`` of numbers, booleans or null (``Literal[1, 2]``, an `IntEnum`):
    ``"2"`` is refused as any string is, and the reason says which value to send instead.

    Args:
        instance: The value the schema refused.
        members: The values the schema accepts.

    Returns:
        The hint, to follow the reason; ``""`` when *instance* is no such string.
    """
    if type(instance) is not str or len(instance) > _SHOWN:
        return ""
    text = instance.strip()
    if _BY_FIRST.get(text[:1]) in (None, "array", "object"):
        return ""  # an enum's members are scalars: a text of none is no member
    try:
        value: object = json.loads(text)
    except ValueError:
        return ""
    wanted = json_key(value)
    if any(json_key(member) == wanted for member in members if not isinstance(member, str)):
        return f"; {text} is wanted, without quotes"
    return ""


def union_hint(instance: object, options: Iterable[object]) -> str:
    """The hint for *instance* refused by a union of *options* (schemas): what it holds, if wanted.

    A variant of constants (``enum``, ``const``: a ``Literal``, an enum) wants its members only:
    ``"3"`` sent for ``Literal[1, 2] | None`` gets no hint, ``"1"`` gets ``1 is wanted``. The
    other variants want a JSON type (`quoted_hint`). A ``$ref`` names a class, which may be an
    object or (a NamedTuple) an array: no hint is guessed for it.
    """
    if type(instance) is not str:
        return ""
    types: set[str] = set()
    members: list[object] = []
    for option in options:
        if not isinstance(option, dict):
            continue
        schema = typing.cast("dict[str, object]", option)
        if "enum" in schema or "const" in schema:
            found = schema.get("enum", [schema.get("const")])
            members.extend(typing.cast("list[object]", found) if isinstance(found, list) else [])
            continue
        declared = schema.get("type")
        if isinstance(declared, str):
            types.add(declared)
        elif isinstance(declared, list):
            types.update(t for t in typing.cast("list[object]", declared) if isinstance(t, str))
    return quoted_hint(instance, frozenset(types)) or member_hint(instance, members)
