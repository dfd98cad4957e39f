r"""The fast path of the model-facing call, for arguments given as JSON text or as a dict.

orjson parses the text; the generated structuring code then checks and builds the arguments in
one pass. Whatever this path cannot vouch for, it leaves to the exact path (stdlib parsing with
strict hooks, then jsonschema), which gives the verdict and the messages. So the fast path only
ever says "here are the arguments" or hands the call to the exact path it was built with (saying
whether orjson parsed the arguments but they did not structure), and it must say the first
exactly when the exact path would accept the same input with the same result:

- orjson merges duplicate keys silently. The total number of object members the arguments hold
  is compared with the number of ``:`` in the text: a colon outside a string separates a key
  from its value. When they differ (a colon inside a string, or a duplicate key), the parsed
  value is written back with orjson and its colons counted: without an escaped colon
  (``\u003a``, which sends the call on) the text has exactly as many colons as that writing
  when no member was dropped, and more when one was (each dropped member takes its own colon
  with it, and nothing adds one). The colons of the strings the arguments hold, or of some of
  them (string arguments, arrays of strings: a spec's `TypeSpec.colons`), are counted first:
  the writing's count lies between the members plus those and the text's own, so when those
  account for every colon of the text, nothing is written. A text of more than
  `typed_toolsets.types.handover.UNIQUE_KEYS_FROM` characters, of arguments that admit no
  number and no array and cannot nest deeper than the limit, is read by jiter instead, which
  refuses a repeated key at any depth however it is escaped (counting a long string's colons
  costs more than that; an array's many short strings orjson builds faster); nothing is
  counted. What jiter reads and the strict parser refuses is a number (an infinite float, an
  integer of too many digits), which no such argument takes: a refusal hands over jiter's
  reading only when it holds none (`reads_alike`), and a text jiter refuses is read by orjson as
  the others are;
- orjson turns integer literals beyond 64 bits into floats. While the fast path structures, the
  number mode (`typed_toolsets.types.typespec.exact_numbers`) is off, and a hook that would read
  a float of 2**63 or more differently from the integer literal it may stand for raises
  `AmbiguousNumber`, which leaves the fast path (it is no refusal: a union must not go on to a
  later variant). The mode is that of the innermost fast or exact path on the thread's stack
  (nothing is set per call), so a call made while structuring has its own and leaves the outer
  call's as it was;
- size is the UTF-8 length, checked before parsing (a text of at most a quarter of the limit in
  code points is within it whatever it holds); orjson itself refuses nesting past 1,024, and
  nesting past ``Limits.max_depth`` is checked before the arguments are accepted (statically when
  the parameter types bound it);
- NaN, Infinity, numbers overflowing a float, lone surrogates, a byte order mark and invalid UTF-8
  make orjson fail.

A dict is written with orjson (which refuses what has no JSON form, subclasses of ``str``,
``int``, ``dict`` and ``list`` included) and read back: the copy is used only when it equals the
dict (a tuple, an enum, a UUID or a NaN makes it differ), so the values are the plain JSON values
the exact path's own copy would hold. For a tool whose parameters take only strings, integers,
booleans and null, a dict whose values are exactly of those types is copied instead of read back:
orjson wrote it, so it holds no subclass, lone surrogate, integer past 64 bits or key that is no
``str``, and reading it back would give an equal dict of equal immutable values (a float is
always read back: NaN is written as ``null``). Its size is that of the compact text, as the exact
path measures it with Python's ``json`` (orjson writes a float in exponent form at most one byte
shorter, so a text within one byte per ``e`` of the limit is left to the exact path).

Arguments the fast path does not take are handed to the exact path with what it knows about
them (`typed_toolsets.types.handover`).

Without orjson (an optional speed-up), the exact path handles every call.
"""

from __future__ import annotations

import builtins
import typing
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from typed_toolsets.rules.formats import LAYOUT_NAMES

from .compiled import compile_bound
from .gen import KeyHook, object_body
from .handover import (
    BYTE_ESCAPES,
    BYTE_MARKS,
    ESCAPES,
    FLAT_TYPES,
    LONG,
    MARKS,
    UNIQUE_KEYS,
    UNIQUE_KEYS_FROM,
    UNIQUE_KEYS_OPTIONS,
    Handover,
    Oversized,
    count_char,
    cut_short,
    escaped_colon,
    exponents,
    nests_deeper,
    orjson_loads,
    orjson_names,
    strict_reading,
    unique_keys_reader,
)
from .typespec import (
    MISSING,
    AmbiguousNumber,
    Reject,
    Schema,
    TypeSpec,
    joined_colons,
    nested_depth,
    structures_numbers,
)

__all__ = ["ExactPath", "FastArguments", "make_fast_arguments", "orjson_available"]

_R = TypeVar("_R")

#: The exact path the fast path hands a call to: ``exact(arguments, handover)``.
ExactPath = Callable[[object, Handover], _R]
#: JSON text, a dict (or anything) in; the keyword arguments, or what the exact path returns, out.
FastArguments = Callable[[object], "dict[str, object] | _R"]


def orjson_available() -> bool:
    """Whether the fast path can run (orjson is importable)."""
    return orjson_loads is not None


def _subschemas(schema: dict[str, Any]) -> list[object]:
    found: list[object] = []
    for keyword in ("properties", "$defs"):
        found.extend(dict(schema.get(keyword) or {}).values())
    found.extend(
        schema[keyword]
        for keyword in ("items", "additionalProperties")
        if isinstance(schema.get(keyword), dict)
    )
    for keyword in ("prefixItems", "anyOf"):
        found.extend(list(schema.get(keyword) or ()))
    return found


def _admits(schema: object, kinds: frozenset[str]) -> bool:
    """Whether a schema admits JSON values of *kinds* anywhere (types, enums or constants)."""
    stack: list[object] = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        mapping = typing.cast("dict[str, Any]", node)
        declared: object = mapping.get("type")
        # A registered type's schema may name a list of types.
        named = typing.cast("list[object]", declared) if isinstance(declared, list) else [declared]
        if any(kind in kinds for kind in named if isinstance(kind, str)):
            return True
        constants = [mapping["const"]] if "const" in mapping else list(mapping.get("enum") or ())
        if any(_kind_of(constant) in kinds for constant in constants):
            return True
        if declared is None and not mapping.keys() & {"anyOf", "$ref", "enum", "const"}:
            return True  # an open schema (a registered type's, say) may admit anything
        stack.extend(_subschemas(mapping))
    return False


def _kind_of(constant: object) -> str:
    """The JSON type of a constant, as the kinds `_admits` looks for name it."""
    if isinstance(constant, bool):
        return "boolean"
    if isinstance(constant, (int, float)):
        return "number"
    return "array" if isinstance(constant, (list, tuple)) else "other"


_NUMBERS: Final = frozenset({"integer", "number"})
#: What a text read by jiter must not be able to hold: numbers (it reads ``1e400`` as infinity),
#: and arrays (orjson builds many short strings faster than jiter, counting colons included).
_NOT_FOR_JITER: Final = frozenset({"integer", "number", "array"})


def _has_numbers(schema: object) -> bool:
    """Whether a schema admits JSON numbers anywhere (types, enums or constants)."""
    return _admits(schema, _NUMBERS)


# The JSON types of a flat tool's values (the Python types of such values orjson writes as it
# reads them are `FLAT_TYPES`: a float may be NaN, which it writes as null).
_FLAT_JSON_TYPES: Final = frozenset({"string", "integer", "boolean", "null"})
#: From this length on, a text not ending in "}" is handed to the exact path before orjson reads it
#: (for shorter ones, orjson's error costs less than looking at the text's end on every call).
_CUT_SHORT: Final = 256
#: Whether the text ``arguments`` does not end as a JSON object's text does (it has a character).
_NO_OBJECT_END: Final = "arguments[-1] != '}' and arguments.rstrip()[-1:] != '}'"

#: The globals of every fast path: what they all hold alike (the rest is each one's own).
_SHARED: Final[dict[str, Any]] = {
    "__builtins__": builtins,
    **orjson_names,
    "Ambiguous": AmbiguousNumber,
    "escaped": escaped_colon,
    "marks": MARKS,
    "escapes": ESCAPES,
    "byte_marks": BYTE_MARKS,
    "byte_escapes": BYTE_ESCAPES,
    "count": count_char,
    "joined_colons": joined_colons,
    "long": LONG,
    "deeper": nests_deeper,
    "reading": strict_reading,
    "cut": cut_short,
    "Oversized": Oversized,
    "exponents": exponents,
    "Reject": Reject,
    "M": MISSING,
    "flat": FLAT_TYPES,
    "U": UNIQUE_KEYS,
    **LAYOUT_NAMES,  # what inlined format layouts read
}


def make_fast_arguments(
    name: str,
    keys: Sequence[KeyHook],
    specs: Sequence[TypeSpec],
    schema: Schema,
    max_bytes: int,
    max_depth: int,
    exact: ExactPath[_R],
) -> FastArguments[_R]:
    """Build the fast path of one arguments object: JSON text or a dict in, keyword arguments out.

    The generated function parses, checks and structures in one frame; see the module docstring
    for what it must leave to the exact path.

    Args:
        name: What the arguments belong to (for tracebacks).
        keys: How to structure each argument.
        specs: Each argument's spec, in the order of *keys*.
        schema: The arguments' JSON Schema.
        max_bytes: ``Limits.max_argument_bytes``.
        max_depth: ``Limits.max_depth``.
        exact: The exact path, called with the arguments and what the fast path found out
            about them (a `Handover`).

    Returns:
        The function; without orjson, one that hands every call to *exact*.
    """
    if not orjson_available():

        def exact_only(arguments: object) -> _R:
            return exact(arguments, False)  # noqa: FBT003 - the exact path's positional flag

        return exact_only
    static_depth = nested_depth(specs)
    check_depth = static_depth is None or static_depth > max_depth
    # Only arguments that can hold numbers need the guard against orjson's integer-as-float.
    guard_numbers = _has_numbers(schema)
    # What the function holds of its own (its parameters' defaults, see `compile_bound`). The
    # limits are written in the source as numbers: a default costs each call a copy, and most
    # tools have the same limits.
    namespace: dict[str, Any] = {"exact": exact}
    # Up to this many code points, a text is within the limit whatever its UTF-8 length.
    small = max_bytes // 4
    # Up to this many bytes, orjson's text of a dict is within the limit however Python's json
    # would write its floats (at most one byte longer per float, in exponent form).
    sure = max_bytes // 2
    miss = "return exact(arguments, False)"
    # Arguments whose valid values are all scalars other than numbers that may be floats: a dict
    # of them is checked for such values and copied, not read back (see below).
    flat = all(spec.json_types <= _FLAT_JSON_TYPES for spec in specs)
    # Read by jiter: texts of arguments whose values hold no number and no array (a long string
    # of code or prose, most often), that cannot nest past the limit.
    unique = None if check_depth or _admits(schema, _NOT_FOR_JITER) else unique_keys_reader()
    if unique is not None:
        namespace["unique"] = unique
    # Written in the source as keywords (a ``**`` mapping would be unpacked on every call).
    unique_options = ", ".join(f"{key}={value!r}" for key, value in UNIQUE_KEYS_OPTIONS.items())

    def unique_first(data: str, indent: str) -> list[str]:
        """The lines reading a long text with jiter first (*data*: its UTF-8), when it can."""
        if unique is None:
            return []
        return [
            f"{indent}if size > {UNIQUE_KEYS_FROM}:",
            f"{indent}    try:",
            f"{indent}        v = unique({data}, {unique_options})",
            f"{indent}        kind = U",
            f"{indent}    except Exception:",  # a repeated key, or no JSON: orjson reads it
            f"{indent}        pass",
        ]

    def or_orjson(kind: str, reading: list[str]) -> list[str]:
        """The lines reading a text of *kind* with orjson: only if jiter did not read it."""
        if unique is None:
            return reading
        return [f"        if kind is {kind}:", *[f"    {line}" for line in reading]]

    # What the checks written in this frame do with arguments that do not structure: hand them
    # over at once (raising `Reject` to the handler below costs a refusal about 2,000 instructions).
    handover = f"return exact(arguments, reading(kind, text, v, {max_depth}))"
    body, result = object_body(keys, None, namespace, "        ", known_dict=True, refuse=handover)
    # A short text is past one comparison: its size cannot reach the limit, and its end is not
    # looked at (see `_CUT_SHORT`).
    short = min(small, _CUT_SHORT)
    limit_checks = [
        f"            if size > {max_bytes}:  # the limit",
        f"                {miss}",
        "            try:",
        f"                if len(arguments.encode()) > {max_bytes}:  # the limit",
        f"                    {miss}",
        "            except UnicodeEncodeError:",
        f"                {miss}",
    ]
    lines = [
        "    kind = type(arguments)",
        "    if kind is str:",
        "        size = len(arguments)",
        f"        if size > {short}:",
        *(
            # Under a limit of 1 KB the test above is the quarter's already.
            limit_checks
            if short == small
            else [f"            if size > {small}:  # a quarter of the limit"]
            + [f"    {line}" for line in limit_checks]
        ),
        # A JSON object's text ends in "}" (then whitespace): any other text is refused or read
        # as no arguments. One that is not short (a model's output cut off, most often) goes to
        # the exact path without orjson's error built first, whose line count walks the text.
        (
            f"            if {_NO_OBJECT_END}:"
            if short == _CUT_SHORT
            else f"            if size > {_CUT_SHORT} and {_NO_OBJECT_END}:"
        ),
        f"                return exact(arguments, cut(arguments, {max_depth}))",
        *unique_first("arguments.encode()", "            "),
        "        text = arguments",
        *or_orjson(
            "str",
            [
                "        try:",
                "            v = loads(text)",
                "        except invalid as e:",  # where orjson stopped: the exact path reads on
                "            return exact(arguments, e)",
                "        except Exception:",
                f"            {miss}",
            ],
        ),
        "    elif kind is dict:",
        "        try:",
        "            text = dumps(arguments, None, plain_only)",
        "            size = len(text)",
        # A count of every "e" first (orjson's floats write one), then of the exponents alone.
        (
            f'            if size > {sure} and size + text.count(b"e") > {max_bytes} and '
            f"size + exponents(text) > {max_bytes}:"
        ),
        "                return exact(arguments, Oversized(text))",
        *(
            [
                # Only strings, integers, booleans and nulls, which orjson has written (so no
                # subclass, surrogate or integer past 64 bits, and only str keys): its reading
                # would equal the dict and hold equal immutable values; a copy of it is that.
                "            if set(map(type, arguments.values())) <= flat:",
                "                v = arguments.copy()",
                "            else:",
                "                v = loads(text)",
                "                if v != arguments:",
                f"                    {miss}",
            ]
            if flat
            else [
                "            v = loads(text)",
                "            if v != arguments:",
                f"                {miss}",
            ]
        ),
        "        except Exception:",
        f"            {miss}",
        "    elif kind is bytes:",
        "        size = len(arguments)",
        f"        if size > {max_bytes}:  # the limit",
        f"            {miss}",
        "        text = arguments",
        *unique_first("arguments", "        "),
        *or_orjson(
            "bytes",
            [
                "        try:",
                "            v = loads(text)",
                "        except Exception:",
                f"            {miss}",
            ],
        ),
        "    else:",
        f"        {miss}",
        "    if type(v) is not dict:",
        f"        {miss}",
    ]
    if check_depth:
        lines += [
            "    if kind is str:",
            '        opened = text.count("[") + text.count("{")',
            "    else:",
            '        opened = text.count(b"[") + text.count(b"{")',
            f"    if opened > {max_depth} and deeper(text, v, {max_depth}, opened):  # the limit",
            f"        {miss}",
        ]
    lines += ["    try:", *body]
    if guard_numbers:
        # A float that may be an integer literal in disguise (see `exact_numbers`): the exact
        # path reads the text itself.
        lines += ["    except Ambiguous:", f"        {miss}"]
    lines += ["    except Exception:", f"        {handover}"]
    lines += [
        "    if kind is str:",
        '        colons = text.count(":") if size < long else count(text, ":")',
        "    elif kind is dict:",
        f"        return {result}",
        *(["    elif kind is U:", f"        return {result}"] if unique is not None else []),
        "    else:",
        '        colons = count(text, b":")',
        "    members = len(v)",
    ]
    for index, spec in enumerate(specs):
        if spec.members is not None:
            namespace[f"c{index}"] = spec.members
            lines += [f"    if K{index} in v:", f"        members += c{index}(v[K{index}])"]
    lines += [
        # They differ when a string holds a colon, or when a duplicate member was dropped: the
        # text then has more colons than the parsed value written back (see the module
        # docstring), unless an escaped colon hides one (searched for only past a backslash).
        "    if colons != members:",
        "        if kind is str:",
        '            if "\\\\" in text and escaped(text, marks, escapes):',
        f"                {miss}",
        # A backslash by its number: a bytes needle is first tried as an int (an exception
        # raised and cleared, 0.12 us).
        "        elif 92 in text and escaped(text, byte_marks, byte_escapes):",
        f"            {miss}",
    ]
    # The colons of the arguments' own strings (most of a text's are in them: URLs, times,
    # code) are counted first; when those account for every colon of the text, it is the
    # written count too (which lies between them and the text's own), without writing it.
    text_keys = [i for i, spec in enumerate(specs) if "string" in spec.json_types]
    for index in text_keys:
        lines += [
            f"        x = v.get(K{index})",
            "        if type(x) is str:",
            '            members += x.count(":") if len(x) < long else count(x, ":")',
        ]
    # So are those of strings in arrays (date-times, URLs), by the spec's count.
    array_keys = [i for i, spec in enumerate(specs) if spec.colons is not None]
    for index in array_keys:
        counter = f"n{index}"
        if specs[index].colons is joined_colons:
            counter = "joined_colons"  # a global of every fast path: no parameter to copy
        namespace[counter] = specs[index].colons
        lines += [
            f"        x = v.get(K{index})",
            "        if type(x) is list:",
            f"            members += {counter}(x)",
        ]
    if text_keys or array_keys:
        lines += ["    if colons != members:"]
    lines += [
        "        written = dumps(v)",
        "        if len(written) < long:",
        '            written_colons = written.count(b":")',
        "        else:",
        '            written_colons = count(written, b":")',
        "        if colons != written_colons:",
        f"            {miss}",
        f"    return {result}",
    ]
    generated: FastArguments[_R] = compile_bound(
        f"fast path of {name}", "arguments", lines, namespace, _SHARED
    )
    # What it calls structures in the fast path's number mode (see `exact_numbers`).
    structures_numbers(typing.cast("Any", generated).__code__, exactly=False)
    return generated
