"""`TypeSpec`: everything the library knows about one annotation, built in one place.

A spec carries the JSON Schema of the annotation together with the functions that structure a
JSON value into the annotated Python type and unstructure it back. Because both come from the
same factory, a type cannot be supported by the schema but not by the converter.
"""

from __future__ import annotations

import inspect
import types
import typing
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, TypeAlias

import attrs

__all__ = [
    "AmbiguousNumber",
    "BoundLost",
    "ChildrenFn",
    "JSONValue",
    "LONG_INT",
    "MAX_INT_DIGITS",
    "MISSING",
    "Path",
    "Reject",
    "Schema",
    "StructureHook",
    "TypeSpec",
    "UNSAFE_FLOAT",
    "Unresolved",
    "Unsupported",
    "UnsupportedMetadata",
    "check_float",
    "container_spec",
    "count_members",
    "exact_numbers",
    "has_long_int",
    "has_unsafe_float",
    "instance_of",
    "joined_colons",
    "json_copy",
    "json_key",
    "json_keys",
    "json_type_of",
    "kind_admitted",
    "nested_depth",
    "schema_kind",
    "structures_numbers",
    "union_refs",
]

#: A JSON Schema, or a fragment of one.
Schema: TypeAlias = dict[str, Any]
#: A value as the JSON parser produces it (dict, list, str, int, float, bool or None).
JSONValue: TypeAlias = object
#: Where a value sits inside a JSON value: object keys and array indexes, from the outside in.
Path: TypeAlias = tuple["str | int", ...]
StructureHook: TypeAlias = Callable[[Any], Any]
ChildrenFn: TypeAlias = Callable[[Any], Iterator[tuple["str | int", "TypeSpec", Any]]]


class Reject(Exception):  # noqa: N818 - a verdict, not an error
    """Raised by a structuring hook when the JSON value does not match the type's schema.

    It carries no message: the fast path only needs the verdict, and the detailed messages come
    from jsonschema.
    """

    __slots__ = ()


class NoJSONFormError(ValueError):
    """Raised by the library's own unstructure functions: a value the type cannot write as JSON.

    Its message says why in the type's words (``'x' is not a list or tuple``); a default's
    problem (`typed_toolsets.types.defaults.json_default`) shows it as it is, where another
    exception (a registered type's own hook) is shown with its type.
    """


class BoundLost(Reject):
    """A value within its bounds whose Python value is not: the reading changed it.

    A whole number past 2**53 read as a float is the nearest float, which may be on the other
    side of the bound; a set's items equal as Python values (two such numbers, two structs of
    them) count once. The exact path reports it with the keyword, its limit and what was read.
    A `Reject`: a union goes on to its next variant, as for any value the variant cannot hold.

    Attributes:
        keyword: The JSON Schema keyword the read value breaks.
        limit: The keyword's value.
        result: What was read (a float, a set).
    """

    __slots__ = ("keyword", "limit", "result")

    def __init__(self, keyword: str, limit: int | float, result: object) -> None:
        super().__init__(keyword, limit)
        self.keyword: Final = keyword
        self.limit: Final = limit
        self.result: Final = result


class Unsupported(Exception):  # noqa: N818 - a verdict on an annotation, not an error
    """An annotation has no JSON Schema mapping. The message says why."""


class UnsupportedMetadata(Unsupported):
    """An ``Annotated`` annotation's metadata has no JSON Schema mapping (its type alone may)."""


class Unresolved(Exception):  # noqa: N818 - a verdict on an annotation, not an error
    """An annotation names something that is not defined (yet).

    Attributes:
        name: The name that could not be resolved.
    """

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def json_type_of(value: object) -> str:
    """Name the JSON type of a parsed JSON value (``integer`` for ints, ``number`` for floats)."""
    if value is None:
        return "null"
    kind = type(value)
    if kind is bool:
        return "boolean"
    if kind is int:
        return "integer"
    if kind is float:
        return "number"
    if kind is str:
        return "string"
    if kind is list:
        return "array"
    if kind is dict:
        return "object"
    return kind.__name__


def schema_kind(value: object) -> str:
    """The narrowest JSON Schema type of a JSON value: `json_type_of`, a whole float "integer".

    jsonschema's ``"integer"`` admits ``1.0``, so a whole float is one; ``"number"`` admits
    every integer (`kind_admitted`).
    """
    kind = json_type_of(value)
    if kind == "number" and isinstance(value, float) and value.is_integer():
        return "integer"
    return kind


def kind_admitted(kind: str, names: Collection[str]) -> bool:
    """Whether a value of JSON Schema type *kind* (`schema_kind`) passes ``"type": names``."""
    return kind in names or (kind == "integer" and "number" in names)


def _no_children(_value: object) -> Iterator[tuple[str | int, TypeSpec, object]]:
    return iter(())


def _never(_value: object) -> bool:
    return False


@attrs.frozen(eq=False)
class TypeSpec:
    """The schema and hooks of one annotation.

    Attributes:
        annotation: The annotation this spec was built for.
        schema: Its JSON Schema fragment. Never mutate it; copy before handing it out.
        structure: Turns a JSON value into the Python value, raising `Reject` when the value does
            not match ``schema`` (any other exception means it matched but could not be built).
        unstructure: Turns a Python value into a JSON value.
        json_types: The JSON types a valid instance can have (``integer`` is also a ``number``).
        depth: The deepest container nesting of a valid instance (0 for scalars), or None when
            unbounded (recursive types).
        exact_type: When set, valid instances are exactly the values of this Python type and
            structuring returns them unchanged (``str``, ``bool``).
        passthrough: The Python types whose values are exactly the valid instances, returned
            unchanged by structuring (``(str,)``; ``(str, NoneType)`` for ``str | None``); empty
            when structuring has more to check or build.
        shortcut: A Python type whose values are valid and returned unchanged, while other
            values still go through ``structure`` (``int``: an int is kept, ``1.0`` converted).
        list_of: For ``list[T]`` whose items pass through exactly as ``T``: that type.
        lookup: For enums and literals of strings only: JSON string to structured value.
        identity: Structuring a valid instance returns it unchanged.
        hashable: Structured values are hashable and compare like their JSON form (for sets).
        constants: For enums and literals: the JSON values admitted.
        required_keys: For object types with fixed keys: the required property names.
        property_keys: For object types with fixed keys: every property name.
        refs: Recursive classes whose ``$defs`` entries this schema refers to.
        instance_check: Whether a Python value is of this type (picks a union's variant when
            unstructuring).
        members: Counts the members of every JSON object inside a valid instance (keys of the
            instance itself when it is an object, and of nested objects); None when the type
            holds no objects. The fast path compares the total with the colons of the JSON text
            to detect duplicate keys, which its parser merges silently.
        colons: Counts the colons inside the strings of a valid instance, never more than it
            holds (the fast path adds them to *members* before writing the value back to count
            them, see `typed_toolsets.types.fastpath`); None when the type does not count them.
        children: Yields ``(path segment, child spec, child value)`` for a JSON value, to locate
            the part of a valid value that failed to structure.
    """

    annotation: object
    schema: Schema
    structure: StructureHook
    unstructure: Callable[[Any], Any]
    json_types: frozenset[str]
    depth: int | None = 0
    exact_type: type | None = None
    passthrough: tuple[type, ...] = ()
    shortcut: type | None = None
    list_of: type | None = None
    lookup: Mapping[str, object] | None = None
    identity: bool = False
    hashable: bool = False
    constants: tuple[object, ...] | None = None
    required_keys: frozenset[str] | None = None
    property_keys: frozenset[str] | None = None
    refs: frozenset[type] = frozenset()
    instance_check: Callable[[Any], bool] = _never
    children: ChildrenFn = _no_children
    members: Callable[[Any], int] | None = None
    colons: Callable[[Any], int] | None = None


#: Shared marker for "no value" in generated code and lookups.
MISSING: Final = object()


def joined_colons(value: Any) -> int:
    """The colons of an array of strings (a valid instance of one), counted at once in C."""
    try:
        return "".join(value).count(":")
    except TypeError:  # not strings after all: none counted is never too many
        return 0


def count_members(value: object) -> int:
    """Count the members of every JSON object in *value*, whatever its schema (iteratively)."""
    total = 0
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            mapping = typing.cast("dict[str, object]", item)
            total += len(mapping)
            stack.extend(v for v in mapping.values() if type(v) in (dict, list))
        elif kind is list:
            items = typing.cast("list[object]", item)
            stack.extend(v for v in items if type(v) in (dict, list))
    return total


# Whether the numbers being structured are exactly as the input wrote them: true everywhere but
# inside a fast path. The fast path parses with orjson, which turns integer literals beyond 64
# bits into floats: while it structures, a float of 2**63 or more may stand for an integer
# literal, so the hooks that would read it differently from the literal give up with
# `AmbiguousNumber` and the exact path decides. The innermost of the registered functions on the
# current thread's stack says which mode applies (none: exact), so a call made while structuring
# (from an attrs validator, say) has its own mode and leaves the outer call's as it was. Asked
# only for such a float: a fast path pays nothing per call for it (a context variable set and
# reset cost each call about 2,500 instructions).
# By the id of each registered code, a weak reference to the code and whether it structures
# exactly: an int is hashed at once, a code object's hash reads it all. The entry goes with its
# code (before another object can take its id): each size limit writes its own fast path, and
# held here, every one a process ever made stayed, with its source in linecache.
_modes: Final[dict[int, tuple[weakref.ref[types.CodeType], bool]]] = {}


def structures_numbers(code: types.CodeType, *, exactly: bool) -> None:
    """Register *code* as a function that structures in exact mode or in the fast path's.

    Args:
        code: The code of a fast path (*exactly* false) or of the exact path's entry (true).
        exactly: Which mode the functions it calls structure in, up to the next registered one.
    """
    key = id(code)

    def forget(ref: weakref.ref[types.CodeType]) -> None:
        if _modes.get(key, (None,))[0] is ref:
            del _modes[key]

    _modes[key] = (weakref.ref(code, forget), exactly)


def exact_numbers() -> bool:
    """Whether numbers are being structured as the input wrote them (not inside a fast path)."""
    frame = inspect.currentframe()
    modes = _modes
    while frame is not None:
        found = modes.get(id(frame.f_code))
        if found is not None:
            return found[1]
        frame = frame.f_back
    return True


#: Floats at least this large may be integer literals that orjson turned into floats.
UNSAFE_FLOAT: Final = 2.0**63


class AmbiguousNumber(Exception):  # noqa: N818 - a verdict, not an error
    """A hook met a float that may stand for an integer literal (only while the fast path runs).

    Not a `Reject`: a union must not try its next variant, since the literal may match an
    earlier one. It leaves the whole fast path, which hands the call to the exact path.
    """

    __slots__ = ()


def check_float(value: float) -> None:
    """Raise `AmbiguousNumber` when *value* may be an integer literal in disguise.

    Never in exact mode; the cheap comparison comes first, so small floats cost no lookup.
    """
    if (value >= UNSAFE_FLOAT or value <= -UNSAFE_FLOAT) and not exact_numbers():
        raise AmbiguousNumber


#: Integer literals longer than this are invalid JSON, whatever the interpreter's own limit.
MAX_INT_DIGITS: Final = 4300
#: The least integer of more than `MAX_INT_DIGITS` digits. Not `Final`: mypy before 2.0 crashed
#: writing a Final int of 4,300 digits into its cache.
LONG_INT = 10**MAX_INT_DIGITS


def has_long_int(value: object) -> bool:
    """Whether a JSON value holds an integer of more than `MAX_INT_DIGITS` digits anywhere."""
    return _holds(value, _is_long_int)


def has_unsafe_float(value: object) -> bool:
    """Whether a JSON value holds a float of 2**63 or more anywhere."""
    return _holds(value, _is_unsafe_float)


# isinstance narrows for the type checkers; type() leaves out bool and subclasses.
def _is_long_int(item: object) -> bool:
    return isinstance(item, int) and type(item) is int and abs(item) >= LONG_INT


def _is_unsafe_float(item: object) -> bool:
    if not isinstance(item, float) or type(item) is not float:
        return False
    return item >= UNSAFE_FLOAT or item <= -UNSAFE_FLOAT


def _holds(value: object, found: Callable[[object], bool]) -> bool:
    """Whether a JSON value holds, at any depth, a scalar *found* accepts (walked iteratively)."""
    stack: list[object] = [value]
    # Each list and dict is walked once: a registered type's hook may hand back one that holds
    # itself (a default's JSON form is looked at before it is known to be JSON), and the walk
    # must end.
    walked: set[int] = set()
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict or kind is list:
            if id(item) in walked:
                continue
            walked.add(id(item))
            if kind is dict:
                stack.extend(typing.cast("dict[str, object]", item).values())
            else:
                stack.extend(typing.cast("list[object]", item))
        elif found(item):
            return True
    return False


def container_spec(
    annotation: object,
    json_type: str,
    parts: Sequence[TypeSpec],
    schema: Schema,
    structure: StructureHook,
    unstructure: Callable[[Any], Any],
    instance_check: Callable[[Any], bool],
    children: ChildrenFn,
) -> TypeSpec:
    """The spec of a JSON array or object holding values of *parts*.

    Its depth and ``$defs`` references come from theirs; the other fields keep their defaults
    (set them with `attrs.evolve`).
    """
    return TypeSpec(
        annotation=annotation,
        schema=schema,
        structure=structure,
        unstructure=unstructure,
        json_types=frozenset({json_type}),
        depth=nested_depth(parts),
        refs=union_refs(parts),
        instance_check=instance_check,
        children=children,
    )


def instance_of(python_type: type) -> Callable[[Any], bool]:
    """An ``instance_check`` for the instances of *python_type*."""
    return lambda value: isinstance(value, python_type)


_BOOL: Final = 0
_ARRAY: Final = 1
_OBJECT: Final = 2


def json_key(value: object) -> object:
    """A hashable key, equal for two JSON values exactly when JSON says they are equal.

    JSON tells ``true`` from ``1`` (Python does not), ``1`` equals ``1.0``, and arrays and objects
    compare member by member: the key of a set item, of a ``uniqueItems`` check, of an ``enum``.
    """
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


# Digits as "0", a point and an "e" as themselves, an object's brace as itself, the rest as " ".
_REPR_MARKS: Final = bytes(
    48 if 48 <= byte <= 57 else byte if byte in b".e{" else 32 for byte in range(256)
)


def json_keys(values: list[object]) -> list[object]:
    """A key of each of *values* (JSON values), equal exactly when JSON calls two equal.

    Their reprs, written in C, when no float and no object is among them: Python's repr then
    tells apart what JSON does (``True`` from ``1``, ``[1]`` from ``[True]``), and `json_key`
    costs a frame per array (a set of 110,000 arrays of arrays of arrays took 0.5 s). A float
    (``1`` is ``1.0``) or an object (whose keys come in any order) leaves them to `json_key`, as
    does a string that looks like one.
    """
    written = list(map(repr, values))
    text = "".join(written).encode("utf-8", "surrogatepass")
    marks = text.translate(_REPR_MARKS)
    if b"0." in marks or b"0e" in marks or b"{" in marks or b"inf" in text or b"nan" in text:
        return [json_key(value) for value in values]
    return list[object](written)


@typing.overload
def json_copy(value: Mapping[str, Any]) -> Schema: ...
@typing.overload
def json_copy(value: object) -> Any: ...
def json_copy(value: object) -> Any:
    """A deep copy of a JSON-ready value (a schema), as plain dicts and lists."""
    if isinstance(value, Mapping):
        mapping = typing.cast("Mapping[object, object]", value)
        return {str(k): json_copy(v) for k, v in mapping.items()}
    if isinstance(value, (list, tuple)):
        items = typing.cast("list[object] | tuple[object, ...]", value)
        return [json_copy(v) for v in items]
    return value


def nested_depth(specs: Iterable[TypeSpec]) -> int | None:
    """The depth of a container whose items or members have *specs* (None when unbounded)."""
    deepest = 0
    for spec in specs:
        if spec.depth is None:
            return None
        deepest = max(deepest, spec.depth)
    return 1 + deepest


def union_refs(specs: Iterable[TypeSpec]) -> frozenset[type]:
    """Every recursive class the schemas of *specs* refer to."""
    return frozenset[type]().union(*(spec.refs for spec in specs))
