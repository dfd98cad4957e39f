"""The schema keywords that look only at the value itself, for `typed_toolsets.call.checker`.

Each keyword (``type``, ``enum``, ``format``, ``minimum``, ``uniqueItems``, ...) becomes a test
(or, for ``type``, an expression that generated code inlines) and the reason a failing value is
given, worded by `typed_toolsets.call.validation` as for jsonschema's errors.

Equality follows JSON (``true`` is not ``1``, ``1`` is ``1.0``, arrays compare item by item), and
``uniqueItems`` compares items by a hashable key (`json_key`), not pairwise: linear, where
jsonschema's comparison of a refused array is quadratic. One deliberate difference: jsonschema 4
misses a duplicate when arrays that hold ``true`` and ``1`` sort between the two copies; here
duplicates are always found.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Sized
from typing import Any, Final

from typed_toolsets.rules.formats import BY_FORMAT
from typed_toolsets.types.annotated import not_multiple
from typed_toolsets.types.compiled import compile_function
from typed_toolsets.types.typespec import json_key, json_keys, kind_admitted, schema_kind

from .validation import SHALLOW_KEYWORDS, reason_of

__all__ = ["SCALAR_KEYWORDS", "Scalar", "Test", "Unsupported", "json_key", "type_implied"]

#: Keywords that only look at the value itself (no subschema); checked inline.
SCALAR_KEYWORDS: Final = frozenset(
    [
        "type",
        "enum",
        "const",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
    ]
)

Test = Callable[[Any], bool]


#: Python types among whose values Python's equality is JSON's (no ``True == 1``, no arrays):
#: items of these types only are compared as they are, by one set built in C.
_PLAIN_NUMBERS: Final = frozenset({str, int, float, type(None)})
_PLAIN_BOOLEANS: Final = frozenset({str, bool, type(None)})


def _unique(items: list[object]) -> bool:
    # Values JSON calls equal are equal in Python too: distinct in Python, they are distinct.
    # Only a repeat Python sees (``true`` beside ``1``, say) needs JSON's own comparison.
    try:
        if len(set(items)) == len(items):
            return True
    except TypeError:  # an array or object among them
        pass
    types = list(map(type, items))
    # Counting the first type is a pointer comparison per item: all alike is decided in C.
    kinds = {types[0]} if types and types.count(types[0]) == len(types) else set(types)
    if kinds <= _PLAIN_NUMBERS or kinds <= _PLAIN_BOOLEANS:
        return len(set(items)) == len(items)
    keys = json_keys(items)
    return len(set(keys)) == len(keys)


# -------------------------------------------------------------------------- scalar keywords

#: The JSON types as expressions over a value ``{v}``, with jsonschema's meaning (an integral
#: float is an integer; a boolean is neither an integer nor a number).
_TYPE_EXPRESSIONS: Final = {
    "string": "isinstance({v}, str)",
    "integer": (
        "(isinstance({v}, int) and not isinstance({v}, bool)"
        " or isinstance({v}, float) and {v}.is_integer())"
    ),
    "number": "(isinstance({v}, (int, float)) and not isinstance({v}, bool))",
    "boolean": "isinstance({v}, bool)",
    "null": "{v} is None",
    "array": "isinstance({v}, list)",
    "object": "isinstance({v}, dict)",
}
#: The Python types whose values are exactly the valid values of a JSON type, as the parser
#: makes them (an integral float is an integer too: it is checked one by one).
_EXACT_TYPES: Final[dict[str, frozenset[type]]] = {
    "string": frozenset({str}),
    "integer": frozenset({int}),
    "number": frozenset({int, float}),
    "boolean": frozenset({bool}),
    "null": frozenset({type(None)}),
    "array": frozenset({list}),
    "object": frozenset({dict}),
}
#: What the length keywords (``minLength``, ``maxItems``, ...) measure, by their last word.
_SIZED: Final[dict[str, type[Sized]]] = {"Length": str, "Items": list, "Properties": dict}


class Unsupported(Exception):  # noqa: N818 - a verdict: leave this schema to jsonschema
    """A keyword or value the checker does not compile: jsonschema checks that schema."""


def _expression_test(expression: str) -> Test:
    source = f"def generated(v):\n    return {expression.format(v='v')}\n"
    test: Test = compile_function(source, "checker type test", {})
    return test


#: Enums of up to this many strings are checked by an expression generated code inlines.
_INLINE_STRINGS: Final = 64


def _strings_expression(constants: list[object]) -> str | None:
    """For constants that are all strings (a few): whether ``{v}`` is one, as an expression.

    A set display of constants after ``in`` is compiled as one frozenset constant. A string is
    only ever JSON-equal to an equal string, so plain membership is jsonschema's verdict.
    """
    if not constants or len(constants) > _INLINE_STRINGS:
        return None
    if not all(type(c) is str for c in constants):
        return None
    written = ", ".join(sorted(repr(c) for c in set(typing.cast("list[str]", constants))))
    escaped = written.replace("{", "{{").replace("}", "}}")  # the expression is a format string
    return f"(isinstance({{v}}, str) and {{v}} in {{{{{escaped},}}}})"


def _type_expression(value: object) -> str:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names:
        raise Unsupported
    parts: list[str] = []
    for name in typing.cast("list[object]", names):
        part = _TYPE_EXPRESSIONS.get(name) if isinstance(name, str) else None
        if part is None:
            raise Unsupported
        parts.append(part)
    return parts[0] if len(parts) == 1 else "(" + " or ".join(parts) + ")"


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _multiple_test(divisor: object) -> Test:
    if not _is_number(divisor) or typing.cast(float, divisor) <= 0:
        raise Unsupported
    by = typing.cast(float, divisor)

    def test(x: object) -> bool:
        if not _is_number(x):
            return True
        return not not_multiple(typing.cast(float, x), by)

    return test


def _bound_test(keyword: str, bound: object) -> Test:
    if not _is_number(bound):
        raise Unsupported
    limit = typing.cast(float, bound)

    def test(x: object) -> bool:
        if not _is_number(x):
            return True
        number = typing.cast(float, x)
        if keyword == "minimum":
            return number >= limit
        if keyword == "maximum":
            return number <= limit
        if keyword == "exclusiveMinimum":
            return number > limit
        return number < limit

    return test


def _size_test(keyword: str, bound: object) -> Test:
    if not isinstance(bound, int) or isinstance(bound, bool):
        raise Unsupported
    kind = _SIZED[keyword[3:]]
    if keyword.startswith("min"):
        return lambda x: not isinstance(x, kind) or len(x) >= bound
    return lambda x: not isinstance(x, kind) or len(x) <= bound


def _size_expression(keyword: str, bound: object) -> str:
    """`_size_test` as an expression over ``{v}``, for generated code to inline.

    A nested array is then checked a frame less per level (its ``minItems`` and ``maxItems``
    were a call each).
    """
    kind = _SIZED[keyword[3:]].__name__
    compared = ">=" if keyword.startswith("min") else "<="
    return f"(not isinstance({{v}}, {kind}) or len({{v}}) {compared} {bound!r})"


def _constants_test(constants: list[object]) -> Test:
    keys = {json_key(c) for c in constants}
    # Most enums hold only scalars: then an array or object is refused without reading it.
    scalars = not any(isinstance(c, (list, dict)) for c in constants)

    def test(x: object) -> bool:
        if scalars and isinstance(x, (list, dict)):
            return False
        return json_key(x) in keys

    return test


def _format_test(name: object) -> Test | None:
    row = BY_FORMAT.get(name) if isinstance(name, str) else None
    if row is None:
        return None  # jsonschema checks only the library's formats: any other passes
    parse = row.parse

    def test(x: object) -> bool:
        if not isinstance(x, str):
            return True
        try:
            parse(x)
        except ValueError:
            return False
        return True

    return test


def _unique_test(x: object) -> bool:
    return not isinstance(x, list) or _unique(typing.cast("list[object]", x))


class Scalar:
    """One keyword that looks at the value itself: its test, and its reason when it fails.

    Attributes:
        expression: For ``type``, the size keywords (and enums of a few strings): the test as
            an expression over ``{v}``, for generated code.
        exact: For ``type``: Python types whose values pass for sure (see `_EXACT_TYPES`).
        shallow: A failure means the value has not even the shape of the schema.
        reason: Why a value fails this keyword (see `typed_toolsets.call.validation.reason_of`).
    """

    __slots__ = ("exact", "expression", "keyword", "reason", "shallow", "test", "value")

    def __init__(self, keyword: str, value: object) -> None:
        self.keyword = keyword
        self.value = value
        self.shallow = keyword in SHALLOW_KEYWORDS
        self.expression: str | None = None
        self.exact: frozenset[type] = frozenset()
        test: Test | None
        if keyword == "type":
            self.expression = _type_expression(value)
            test = _expression_test(self.expression)
            names = [value] if isinstance(value, str) else typing.cast("list[str]", value)
            self.exact = frozenset[type]().union(*(_EXACT_TYPES[name] for name in names))
        elif keyword in ("enum", "const"):
            if keyword == "enum" and not isinstance(value, list):
                raise Unsupported
            constants: list[object] = (
                typing.cast("list[object]", value) if keyword == "enum" else [self.value]
            )
            self.expression = _strings_expression(constants)
            test = (
                _constants_test(constants)
                if self.expression is None
                else _expression_test(self.expression)
            )
        elif keyword == "format":
            test = _format_test(value)
        elif keyword == "multipleOf":
            test = _multiple_test(value)
        elif keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            test = _bound_test(keyword, value)
        elif keyword == "uniqueItems":
            test = _unique_test if value else None
        else:
            test = _size_test(keyword, value)
            self.expression = _size_expression(keyword, value)
        self.test: Test | None = test
        reason = reason_of(keyword, self.value)
        if reason is None:  # pragma: no cover - every scalar keyword has its words
            msg = f"no reason for {keyword!r}"
            raise AssertionError(msg)
        self.reason: Callable[[object], str] = reason


def type_implied(schema: dict[str, object]) -> bool:
    """Whether *schema*'s ``type`` is implied by its ``enum`` or ``const``: every constant has it.

    A value of another type then fails both keywords, and the constants say more (``2 is not
    one of ['low', 'high']``): only their problem is reported, not one about the type beside it.
    """
    if "type" not in schema:
        return False
    if "const" in schema:
        constants: object = [schema["const"]]
    else:
        constants = schema.get("enum")
    declared = schema["type"]
    names = [declared] if isinstance(declared, str) else declared
    if not isinstance(constants, list) or not isinstance(names, list):
        return False
    # Read per error by `jsonschema_errors.expand` too: the JSON types compared, nothing built.
    wanted = typing.cast("list[str]", names)
    return all(
        kind_admitted(schema_kind(c), wanted) for c in typing.cast("list[object]", constants)
    )
