"""Finding what is wrong with arguments, in time linear in their size, stopping at the cap.

A `Checker` is a JSON Schema compiled once into plain Python checks. Its verdict is jsonschema's
(Draft 2020-12, with the library's format checks), and its problems are the ones
`typed_toolsets.call.validation` words from jsonschema's errors, in the same order; what differs
is the cost of a refusal:

- problems are produced lazily, so reading stops one problem past the cap instead of building
  every error of every union variant first (jsonschema lists each variant's errors in full);
- ``uniqueItems`` compares items by a hashable key, not pairwise;
- whether a union variant accepts a value is decided once per variant and value, however many
  enclosing unions ask;
- a value is only shown (cut to a few dozen characters) when a problem names it, and paths are
  built only for the problems reported.

So refusing any input costs time linear in its size, and memory linear in its nesting.

The checker compiles the keywords the library writes (`SUPPORTED`). A subschema using another
keyword that jsonschema asserts (a registered type's ``pattern``, say) is left to jsonschema,
which then finds its problems at its own cost; a schema that changes how references resolve
(``$id``, anchors) is left to jsonschema whole. jsonschema is imported only then.

Equality follows JSON (``true`` is not ``1``, ``1`` is ``1.0``, arrays compare item by item).
One deliberate difference: jsonschema 4 misses a duplicate in ``uniqueItems`` when arrays that
hold ``true`` and ``1`` sort between the two copies; here duplicates are always found.
"""

from __future__ import annotations

import threading
import typing
from collections.abc import Callable, Iterable, Iterator, Sized
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from typed_toolsets.rules.formats import BY_FORMAT
from typed_toolsets.types.annotated import not_multiple
from typed_toolsets.types.gen import compile_function
from typed_toolsets.types.typespec import MISSING, Path, Schema

from .jsonin import Link, path_of
from .validation import (
    MAX_PROBLEMS,
    SHALLOW_KEYWORDS,
    Problem,
    collect,
    expand,
    keyword_reason,
    missing,
    unexpected,
    union_mismatch,
)

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

__all__ = ["ASSERTING", "SUPPORTED", "Checker", "json_key"]

#: Keywords that only look at the value itself (no subschema); checked inline.
_SCALAR: Final = frozenset(
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
#: The keywords the checker compiles: every one the library's schemas use.
SUPPORTED: Final = _SCALAR | frozenset(
    ["$ref", "properties", "required", "additionalProperties", "items", "prefixItems", "anyOf"]
)
#: Every keyword jsonschema's Draft 2020-12 validator acts on (the others are annotations);
#: those not `SUPPORTED` leave their subschema to jsonschema.
ASSERTING: Final = SUPPORTED | frozenset(
    [
        "$dynamicRef",
        "allOf",
        "oneOf",
        "not",
        "if",
        "contains",
        "dependentRequired",
        "dependentSchemas",
        "pattern",
        "patternProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
    ]
)
#: Keywords that change how references resolve: a schema holding one goes to jsonschema whole.
_RESOLUTION: Final = frozenset(
    {"$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveAnchor", "$recursiveRef"}
)

#: Per check: (variant id, value id) -> whether the variant accepts the value.
Memo: TypeAlias = dict[tuple[int, int], bool]
_Valid = Callable[[Any, Memo], bool]
_Errors = Callable[[Any, Link, Memo], Iterable[Problem]]
_Test = Callable[[Any], bool]


def _path(link: Link) -> Path:
    return tuple(path_of(link))


# ---------------------------------------------------------------------------------- equality

_BOOL: Final = 0
_ARRAY: Final = 1
_OBJECT: Final = 2


def json_key(value: object) -> object:
    """A hashable key, equal for two JSON values exactly when JSON says they are equal."""
    if value is True or value is False:
        return (_BOOL, value)
    if isinstance(value, list):
        keys: list[object] = []
        for item in typing.cast("list[object]", value):  # a loop: one frame per level
            keys.append(json_key(item))  # noqa: PERF401
        return (_ARRAY, tuple(keys))
    if isinstance(value, dict):
        mapping = typing.cast("dict[str, object]", value)
        return (_OBJECT, frozenset([(k, json_key(v)) for k, v in mapping.items()]))
    return value


def _unique(items: list[object]) -> bool:
    seen: set[object] = set()
    for item in items:
        key = json_key(item)
        if key in seen:
            return False
        seen.add(key)
    return True


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


class _Unsupported(Exception):  # noqa: N818 - a verdict: leave this schema to jsonschema
    pass


def _expression_test(expression: str) -> _Test:
    source = f"def generated(v):\n    return {expression.format(v='v')}\n"
    test: _Test = compile_function(source, "checker type test", {})
    return test


def _type_expression(value: object) -> str:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names:
        raise _Unsupported
    parts: list[str] = []
    for name in typing.cast("list[object]", names):
        part = _TYPE_EXPRESSIONS.get(name) if isinstance(name, str) else None
        if part is None:
            raise _Unsupported
        parts.append(part)
    return parts[0] if len(parts) == 1 else "(" + " or ".join(parts) + ")"


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _multiple_test(divisor: object) -> _Test:
    if not _is_number(divisor) or typing.cast(float, divisor) <= 0:
        raise _Unsupported
    by = typing.cast(float, divisor)

    def test(x: object) -> bool:
        if not _is_number(x):
            return True
        number = typing.cast(float, x)
        try:
            return not not_multiple(number, by)
        except OverflowError:  # a huge integer over a float divisor: exactly, as a fraction
            return (Fraction(number) / Fraction(by)).denominator == 1

    return test


def _bound_test(keyword: str, bound: object) -> _Test:
    if not _is_number(bound):
        raise _Unsupported
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


def _size_test(keyword: str, bound: object) -> _Test:
    if not isinstance(bound, int) or isinstance(bound, bool):
        raise _Unsupported
    kind = _SIZED[keyword[3:]]
    if keyword.startswith("min"):
        return lambda x: not isinstance(x, kind) or len(x) >= bound
    return lambda x: not isinstance(x, kind) or len(x) <= bound


def _constants_test(constants: list[object]) -> _Test:
    keys = {json_key(c) for c in constants}
    # Most enums hold only scalars: then an array or object is refused without reading it.
    scalars = not any(isinstance(c, (list, dict)) for c in constants)

    def test(x: object) -> bool:
        if scalars and isinstance(x, (list, dict)):
            return False
        return json_key(x) in keys

    return test


def _format_test(name: object) -> _Test | None:
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


class _Scalar:
    """One keyword that looks at the value itself: its test, and its reason when it fails.

    Attributes:
        expression: For ``type``: the test as an expression over ``{v}``, for generated code.
        exact: For ``type``: Python types whose values pass for sure (see `_EXACT_TYPES`).
        shallow: A failure means the value has not even the shape of the schema.
    """

    __slots__ = ("exact", "expression", "keyword", "shallow", "test", "value")

    def __init__(self, keyword: str, value: object) -> None:
        self.keyword = keyword
        self.value = value
        self.shallow = keyword in SHALLOW_KEYWORDS
        self.expression: str | None = None
        self.exact: frozenset[type] = frozenset()
        test: _Test | None
        if keyword == "type":
            self.expression = _type_expression(value)
            test = _expression_test(self.expression)
            names = [value] if isinstance(value, str) else typing.cast("list[str]", value)
            self.exact = frozenset[type]().union(*(_EXACT_TYPES[name] for name in names))
        elif keyword == "enum":
            if not isinstance(value, list):
                raise _Unsupported
            test = _constants_test(typing.cast("list[object]", value))
        elif keyword == "const":
            test = _constants_test([value])
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
        self.test: _Test | None = test

    def reason(self, x: object) -> str:
        reason = keyword_reason(self.keyword, self.value, x)
        if reason is None:  # pragma: no cover - every scalar keyword has its words
            msg = f"no reason for {self.keyword!r}"
            raise AssertionError(msg)
        return reason


# -------------------------------------------------------------------------------------- nodes


class _Node:
    """A compiled schema.

    Attributes:
        valid: Whether a value matches (stops at its first problem).
        errors: The problems of a value at a path, lazily.
        shallow: Whether the value fails a type, enum, const or format keyword at its own
            path (following references): it has not even the shape of this schema.
        leaf: The schema only looks at the value itself, with ``scalars``; generated code
            checks such a child inline.
        quick: ``valid`` is cheap to ask again (a union's, remembered per value): generated code
            asks it before starting on the problems.
        nested: A union or a reference is at or below this node (so unions above it remember
            what their variants said: the same value may be asked about again).
        scalars: A leaf's keywords.
        schema: The schema it was compiled from.
    """

    __slots__ = ("errors", "leaf", "nested", "quick", "scalars", "schema", "shallow", "valid")

    def __init__(self, schema: object) -> None:
        self.schema = schema
        self.leaf = False
        self.nested = False
        self.quick = False
        self.scalars: list[_Scalar] = []
        self.valid: _Valid = _accept
        self.errors: _Errors = _no_errors
        self.shallow: _Test = _never

    def fill(self, other: _Node) -> None:
        """Behave as *other* (this node was referred to before it was compiled)."""
        self.leaf = other.leaf
        self.nested = self.nested or other.nested
        self.quick = other.quick
        self.scalars = other.scalars
        self.valid = other.valid
        self.errors = other.errors
        self.shallow = other.shallow


def _accept(_x: object, _memo: Memo) -> bool:
    return True


def _no_errors(_x: object, _link: Link, _memo: Memo) -> Iterable[Problem]:
    return ()


def _never(_x: object) -> bool:
    return False


def _closed_problems(x: dict[str, object], link: Link, allowed: list[str]) -> Iterator[Problem]:
    for name in x:
        if name not in allowed:
            path = (*_path(link), name)
            yield path, unexpected(path, allowed)


class _Source:
    """The source of generated functions, and the values it refers to by name."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = {
            "M": MISSING,
            "P": _path,
            "missing": missing,
            "closed": _closed_problems,
        }
        self._names: dict[int, str] = {}

    def name(self, value: object) -> str:
        """The name *value* has in the generated code."""
        found = self._names.get(id(value))
        if found is None:
            found = self._names[id(value)] = f"k{len(self._names)}"
            self.namespace[found] = value
        return found

    def inline(self, scalars: list[_Scalar], var: str) -> str:
        """An expression over *var*: whether it passes every one of *scalars*."""
        parts = [
            c.expression.format(v=var)
            if c.expression is not None
            else f"{self.name(c.test)}({var})"
            for c in scalars
            if c.test is not None
        ]
        return " and ".join(parts) if parts else "True"

    def child_valid(self, node: _Node, var: str) -> str:
        if node.leaf:
            return self.inline(node.scalars, var)
        return f"{self.name(node)}.valid({var}, memo)"

    def child_errors(self, node: _Node, var: str, link: str) -> list[str]:
        errors = f"yield from {self.name(node)}.errors({var}, {link}, memo)"
        if node.leaf or node.quick:
            return [f"if not ({self.child_valid(node, var)}):", f"    {errors}"]
        return [errors]


class _Keyword:
    """A keyword with subschemas (or a reference): the lines checking it, in generated code."""

    def children(self) -> list[_Node]:
        """The nodes of its subschemas."""
        return []

    def valid_lines(self, src: _Source) -> list[str]:
        """Lines returning False when ``x`` fails the keyword."""
        raise NotImplementedError

    def error_lines(self, src: _Source) -> list[str]:
        """Lines yielding the problems of ``x`` (at ``link``) for the keyword."""
        raise NotImplementedError


class _Properties(_Keyword):
    def __init__(self, named: list[tuple[str, _Node]]) -> None:
        self.named = named

    def children(self) -> list[_Node]:
        return [node for _, node in self.named]

    def valid_lines(self, src: _Source) -> list[str]:
        lines = ["if isinstance(x, dict):"]
        for name, node in self.named:
            lines += [
                f"    v = x.get({name!r}, M)",
                f"    if v is not M and not ({src.child_valid(node, 'v')}):",
                "        return False",
            ]
        return lines

    def error_lines(self, src: _Source) -> list[str]:
        lines = ["if isinstance(x, dict):"]
        for name, node in self.named:
            lines += [f"    v = x.get({name!r}, M)", "    if v is not M:"]
            lines += [
                f"        {line}" for line in src.child_errors(node, "v", f"(link, {name!r})")
            ]
        return lines


class _Required(_Keyword):
    def __init__(self, names: list[str]) -> None:
        self.names = names

    def valid_lines(self, src: _Source) -> list[str]:
        absent = " or ".join(f"{name!r} not in x" for name in self.names) or "False"
        return [f"if isinstance(x, dict) and ({absent}):", "    return False"]

    def error_lines(self, src: _Source) -> list[str]:
        lines = ["if isinstance(x, dict):"]
        for name in self.names:
            lines += [
                f"    if {name!r} not in x:",
                f"        p = (*P(link), {name!r})",
                "        yield p, missing(p)",
            ]
        return lines


class _Closed(_Keyword):
    def __init__(self, allowed: list[str]) -> None:
        self.allowed = allowed
        self.known = frozenset(allowed)

    def valid_lines(self, src: _Source) -> list[str]:
        return [
            f"if isinstance(x, dict) and not {src.name(self.known)}.issuperset(x):",
            "    return False",
        ]

    def error_lines(self, src: _Source) -> list[str]:
        return [
            f"if isinstance(x, dict) and not {src.name(self.known)}.issuperset(x):",
            f"    yield from closed(x, link, {src.name(self.allowed)})",
        ]


class _Additional(_Keyword):
    def __init__(self, declared: frozenset[str], node: _Node) -> None:
        self.declared = declared
        self.node = node

    def children(self) -> list[_Node]:
        return [self.node]

    def valid_lines(self, src: _Source) -> list[str]:
        return [
            "if isinstance(x, dict):",
            "    for key, v in x.items():",
            (
                f"        if key not in {src.name(self.declared)} and not "
                f"({src.child_valid(self.node, 'v')}):"
            ),
            "            return False",
        ]

    def error_lines(self, src: _Source) -> list[str]:
        # In the object's own order (jsonschema walks a set: an order that varies by run).
        return [
            "if isinstance(x, dict):",
            "    for key, v in x.items():",
            f"        if key not in {src.name(self.declared)}:",
            *(f"            {line}" for line in src.child_errors(self.node, "v", "(link, key)")),
        ]


class _Items(_Keyword):
    def __init__(self, start: int, node: _Node) -> None:
        self.start = start
        self.node = node
        # Items of a plain JSON type: one pass in C over their Python types decides most arrays.
        scalars = node.scalars if node.leaf else []
        only_type = len(scalars) == 1 and scalars[0].keyword == "type" and start == 0
        self.exact = scalars[0].exact if only_type else frozenset[type]()

    def children(self) -> list[_Node]:
        return [self.node]

    def _head(self, src: _Source) -> list[str]:
        if self.exact:
            head = (
                f"if isinstance(x, list) and not {src.name(self.exact)}.issuperset(map(type, x)):"
            )
        else:
            head = "if isinstance(x, list):"
        if self.start == 0:
            return [head, "    for i, v in enumerate(x):"]
        return [head, f"    for i in range({self.start}, len(x)):", "        v = x[i]"]

    def valid_lines(self, src: _Source) -> list[str]:
        return [
            *self._head(src),
            f"        if not ({src.child_valid(self.node, 'v')}):",
            "            return False",
        ]

    def error_lines(self, src: _Source) -> list[str]:
        return [
            *self._head(src),
            *(f"        {line}" for line in src.child_errors(self.node, "v", "(link, i)")),
        ]


class _Prefix(_Keyword):
    def __init__(self, nodes: list[_Node]) -> None:
        self.nodes = nodes

    def children(self) -> list[_Node]:
        return self.nodes

    def valid_lines(self, src: _Source) -> list[str]:
        lines = ["if isinstance(x, list):", "    n = len(x)"]
        for index, node in enumerate(self.nodes):
            lines += [
                f"    if n > {index}:",
                f"        v = x[{index}]",
                f"        if not ({src.child_valid(node, 'v')}):",
                "            return False",
            ]
        return lines

    def error_lines(self, src: _Source) -> list[str]:
        lines = ["if isinstance(x, list):", "    n = len(x)"]
        for index, node in enumerate(self.nodes):
            lines += [f"    if n > {index}:", f"        v = x[{index}]"]
            lines += [f"        {line}" for line in src.child_errors(node, "v", f"(link, {index})")]
        return lines


class _AnyOf(_Keyword):
    """A union: accepted when a variant accepts it.

    Otherwise its problems are those of the first variant the value has the shape of, or, when
    it has none's, what to send.
    """

    def __init__(self, nodes: list[_Node], options: list[object]) -> None:
        self.nodes = nodes
        self.options = options
        src = _Source()
        src.namespace["memo_any"] = self._memo_valid
        either = " or ".join(f"({src.child_valid(node, 'x')})" for node in nodes)
        lines = ["def generated(x, memo):"]
        if any(node.nested for node in nodes):
            # A value inside may be asked about again by a union below: remember the answers.
            lines += ["    if isinstance(x, (list, dict)):", "        return memo_any(x, memo)"]
        lines.append(f"    return {either}")
        self.valid: _Valid = compile_function("\n".join(lines) + "\n", "checker", src.namespace)

    def children(self) -> list[_Node]:
        return self.nodes

    def _memo_valid(self, x: object, memo: Memo) -> bool:
        # Decided once per variant and value, however many enclosing unions ask.
        for node in self.nodes:
            key = (id(node), id(x))
            known = memo.get(key)
            if known is None:
                known = memo[key] = node.valid(x, memo)
            if known:
                return True
        return False

    def errors(self, x: object, link: Link, memo: Memo) -> Iterator[Problem]:
        if self.valid(x, memo):
            return
        for node in self.nodes:
            if not node.shallow(x):
                yield from node.errors(x, link, memo)
                return
        yield _path(link), union_mismatch(x, self.options)

    def valid_lines(self, src: _Source) -> list[str]:
        return [f"if not {src.name(self)}.valid(x, memo):", "    return False"]

    def error_lines(self, src: _Source) -> list[str]:
        return [
            f"if not {src.name(self)}.valid(x, memo):",
            f"    yield from {src.name(self)}.errors(x, link, memo)",
        ]


class _Reference(_Keyword):
    def __init__(self, target: _Node) -> None:
        self.target = target

    def shallow(self, x: object) -> bool:
        # Read at call time: a recursive schema's target is finished after this keyword.
        return self.target.shallow(x)

    def valid_lines(self, src: _Source) -> list[str]:
        return [f"if not {src.name(self.target)}.valid(x, memo):", "    return False"]

    def error_lines(self, src: _Source) -> list[str]:
        return [f"yield from {src.name(self.target)}.errors(x, link, memo)"]


def _leaf(schema: object, scalars: list[_Scalar]) -> _Node:
    node = _Node(schema)
    node.leaf = True
    node.scalars = scalars
    src = _Source()
    source = f"def generated(x, memo):\n    return {src.inline(scalars, 'x')}\n"
    node.valid = compile_function(source, "checker", src.namespace)
    tests = [(c, c.test) for c in scalars if c.test is not None]

    def errors(x: Any, link: Link, _memo: Memo) -> list[Problem]:
        reasons = [c.reason(x) for c, test in tests if not test(x)]
        if not reasons:
            return []
        path = _path(link)
        return [(path, reason) for reason in reasons]

    node.errors = errors
    return node


def _generated(schema: object, checks: list[_Scalar | _Keyword]) -> _Node:
    node = _Node(schema)
    node.nested = any(
        isinstance(c, (_AnyOf, _Reference)) or any(n.nested for n in c.children())
        for c in checks
        if isinstance(c, _Keyword)
    )
    if len(checks) == 1 and isinstance(checks[0], _AnyOf):
        node.valid, node.errors = checks[0].valid, checks[0].errors  # no wrapper: one frame less
        node.quick = True
        return node
    src = _Source()
    valid = ["def generated(x, memo):"]
    errors = ["def generated(x, link, memo):"]
    for check in checks:
        if isinstance(check, _Scalar):
            if check.test is None:
                continue
            test = src.inline([check], "x")
            valid += [f"    if not ({test}):", "        return False"]
            errors += [
                f"    if not ({test}):",
                f"        yield P(link), {src.name(check)}.reason(x)",
            ]
        else:
            valid += [f"    {line}" for line in check.valid_lines(src)]
            errors += [f"    {line}" for line in check.error_lines(src)]
    valid.append("    return True")
    errors += ["    return", "    yield  # a generator, whatever the checks"]
    node.valid = compile_function("\n".join(valid) + "\n", "checker", src.namespace)
    node.errors = compile_function("\n".join(errors) + "\n", "checker", src.namespace)
    return node


def _with_shallow(node: _Node, checks: list[_Scalar | _Keyword]) -> _Node:
    tests = [c.test for c in checks if isinstance(c, _Scalar) and c.shallow and c.test is not None]
    followed = [c.shallow for c in checks if isinstance(c, _Reference)]
    if tests or followed:

        def shallow(x: Any) -> bool:
            return any(not test(x) for test in tests) or any(f(x) for f in followed)

        node.shallow = shallow
    return node


# ----------------------------------------------------------------------------------- compiler


def _resolution_keywords(schema: object) -> bool:
    """Whether any subschema of *schema* holds a keyword that changes how references resolve."""
    stack: list[object] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            mapping = typing.cast("dict[str, object]", node)
            if not _RESOLUTION.isdisjoint(mapping):
                return True
            stack.extend(mapping.values())
        elif isinstance(node, list):
            stack.extend(typing.cast("list[object]", node))
    return False


def _as_dict(value: object) -> dict[str, object]:
    if not isinstance(value, dict):
        raise _Unsupported
    return typing.cast("dict[str, object]", value)


def _as_list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise _Unsupported
    return typing.cast("list[object]", value)


class Checker:
    """A JSON Schema compiled for finding problems; safe to share across threads.

    Args:
        schema: The schema (a standalone document: its ``$ref``s point into its own ``$defs``).
    """

    def __init__(self, schema: Schema) -> None:
        self._schema = schema
        self._refs: dict[str, _Node] = {}
        self._jsonschema: list[Draft202012Validator] = []
        self._lock = threading.Lock()
        self._root = (
            self._fallback(schema) if _resolution_keywords(schema) else self._compile(schema)
        )

    def problems(self, instance: object, cap: int = MAX_PROBLEMS) -> tuple[list[Problem], bool]:
        """Up to *cap* problems of *instance* (a parsed JSON value), and whether it has more."""
        return collect(self._root.errors(instance, None, {}), cap)

    def is_valid(self, instance: object) -> bool:
        """Whether *instance* matches the schema (jsonschema's verdict)."""
        return self._root.valid(instance, {})

    # ------------------------------------------------------------------------------ compiling

    def _compile(self, schema: object) -> _Node:
        if schema is True:
            return _Node(schema)
        if not isinstance(schema, dict):
            return self._fallback(schema)
        mapping = typing.cast("dict[str, object]", schema)
        keywords = [k for k in mapping if k in ASSERTING]
        if not SUPPORTED.issuperset(keywords):
            return self._fallback(mapping)
        try:
            if keywords == ["$ref"]:
                return self._reference(mapping["$ref"])  # the target itself: no extra frame
            checks = [c for c in (self._keyword(k, mapping[k], mapping) for k in keywords) if c]
        except _Unsupported:
            return self._fallback(mapping)
        if all(isinstance(c, _Scalar) for c in checks):
            node = _leaf(mapping, typing.cast("list[_Scalar]", checks))
        else:
            node = _generated(mapping, checks)
        return _with_shallow(node, checks)

    def _keyword(
        self, keyword: str, value: object, schema: dict[str, object]
    ) -> _Scalar | _Keyword | None:
        if keyword in _SCALAR:
            return _Scalar(keyword, value)
        if keyword == "properties":
            named = [(name, self._compile(sub)) for name, sub in _as_dict(value).items()]
            return _Properties(named) if named else None
        if keyword == "required":
            names = _as_list(value)
            if not all(isinstance(n, str) for n in names):
                raise _Unsupported
            return _Required(typing.cast("list[str]", names)) if names else None
        if keyword == "additionalProperties":
            declared = list(_as_dict(schema.get("properties", {})))
            if value is False:
                return _Closed(declared)
            if value is True:
                return None
            return _Additional(frozenset(declared), self._compile(_as_dict(value)))
        if keyword == "items":
            if value is True:
                return None
            prefix = schema.get("prefixItems", [])
            start = len(prefix) if isinstance(prefix, list) else 0  # pyright: ignore[reportUnknownArgumentType]
            return _Items(start, self._compile(_as_dict(value)))
        if keyword == "prefixItems":
            return _Prefix([self._compile(sub) for sub in _as_list(value)])
        if keyword == "anyOf":
            options = _as_list(value)
            if not options:
                raise _Unsupported
            return _AnyOf([self._compile(sub) for sub in options], options)
        # "$ref", the last supported keyword.
        return _Reference(self._reference(value))

    def _reference(self, ref: object) -> _Node:
        if not isinstance(ref, str):
            raise _Unsupported
        node = self._refs.get(ref)
        if node is None:
            target = self._resolve(ref)
            # Registered before compiling, so a schema that refers to itself finds it.
            node = self._refs[ref] = _Node(target)
            node.nested = True  # it may be recursive
            node.fill(self._compile(target))
        return node

    def _resolve(self, ref: str) -> object:
        if not ref.startswith("#"):
            raise _Unsupported  # another document: jsonschema's resolver decides
        found: object = self._schema
        for part in ref[1:].split("/")[1:]:
            key = part.replace("~1", "/").replace("~0", "~")
            if isinstance(found, dict) and key in found:
                found = typing.cast("dict[str, object]", found)[key]
            elif isinstance(found, list) and key.isdigit():
                items = typing.cast("list[object]", found)
                if int(key) >= len(items):
                    raise _Unsupported
                found = items[int(key)]
            else:
                raise _Unsupported
        return found

    def _fallback(self, schema: object) -> _Node:
        """A node that asks jsonschema (built on first use) about *schema*."""
        node = _Node(schema)
        ask = self._ask

        def valid(x: Any, _memo: Memo) -> bool:
            return ask(schema).is_valid(x)  # pyright: ignore[reportUnknownMemberType]

        def errors(x: Any, link: Link, _memo: Memo) -> Iterator[Problem]:
            prefix = _path(link)
            for error in ask(schema).iter_errors(x):  # pyright: ignore[reportUnknownMemberType]
                yield from expand(error, prefix)

        def shallow(x: Any) -> bool:
            found = ask(schema).iter_errors(x)  # pyright: ignore[reportUnknownMemberType]
            return any(not e.path and e.validator in SHALLOW_KEYWORDS for e in found)

        node.valid = valid
        node.errors = errors
        node.shallow = shallow
        return node

    def _ask(self, schema: object) -> Draft202012Validator:
        """The jsonschema validator of *schema*, resolving references in the whole document."""
        if not self._jsonschema:
            with self._lock:
                if not self._jsonschema:
                    from typed_toolsets.types.validator import make_validator

                    self._jsonschema.append(make_validator(self._schema))
        root = self._jsonschema[0]
        if schema is self._schema:
            return root
        return typing.cast("Draft202012Validator", root.evolve(schema=schema))  # pyright: ignore[reportUnknownMemberType]
