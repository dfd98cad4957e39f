"""Ambiguous unions: the JSON values a type admits (`Shape`) and where two variants overlap.

Standard library only: the mypy plugin imports this module on every run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from .formats import BY_FORMAT
from .problems import Problem, problem
from .typenames import NUMBER_KINDS

__all__ = ["Ambiguity", "Shape", "find_ambiguity", "find_strict_ambiguity", "overlaps"]

_T = TypeVar("_T")

# A union is ambiguous when one JSON value could match two of its variants: the declared order
# then decides silently (``str | Color`` never produces a ``Color``). The runtime check and the
# mypy plugin each describe a parameter's type as a `Shape` (from ``typing`` objects and from
# mypy's types respectively) and hand it to `find_ambiguity`, so both reach the same verdict.


def _value_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    return "string"


def _json_key(value: object) -> tuple[str, object] | None:
    """*value* as a dict key equal exactly for equal JSON values; None for one equal to none.

    JSON tells booleans from numbers, while Python says ``True == 1``; ``1`` and ``1.0`` are one
    JSON number; NaN equals nothing, itself included.
    """
    if value is None:
        return _NULL_KEY
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, (int, float)):
        return None if value != value else ("number", value)
    return ("string", value)


_NULL_KEY: Final = ("null", None)


class Shape:
    """The JSON values a type admits, as far as the ambiguity analysis needs to know.

    Build shapes with the class methods; object shapes may be recursive (create the shape, then
    fill ``fields`` and ``required``).

    Attributes:
        kind: ``scalar``, ``constants``, ``array``, ``mapping``, ``object``, ``union`` or
            ``opaque`` (a user-registered type: only its JSON kinds are known).
        label: How to show the type in a message.
        kinds: The JSON value kinds it admits (see `scalar_kinds`).
        fmt: For string scalars, the format (``date`` ...), else None.
        constants: For enums and literals, the JSON values admitted.
        keys: For enums and literals, the constants as `_json_key` gives them (found at once).
        unknown: For enums the mypy plugin cannot fully compute, the JSON kinds each member of
            unknown value may have (empty when every value is known).
        item: For variable-length arrays, the item shape; for mappings, the value shape.
        prefix: For fixed-length arrays, the item shapes.
        fields: For objects, the shape of each property.
        required: For objects, the required properties.
        variants: For unions, the variants in declared order (``None`` included).
        bounds: For a number with constraints (``Annotated[int, Ge(0)]``), the values it admits:
            ``(low, low included, high, high included)``; None for any number.
        lengths: For a string or an array with length constraints, the least and the most
            characters or items (``math.inf`` for no most); None for any length.
    """

    __slots__ = (
        "bounds",
        "constants",
        "fields",
        "fmt",
        "item",
        "keys",
        "kind",
        "kinds",
        "label",
        "lengths",
        "prefix",
        "required",
        "unknown",
        "variants",
    )

    def __init__(self, kind: str, label: str, kinds: frozenset[str]) -> None:
        self.kind = kind
        self.label = label
        self.kinds = kinds
        self.fmt: str | None = None
        self.constants: tuple[object, ...] = ()
        self.keys: frozenset[tuple[str, object]] = frozenset()
        self.unknown: tuple[frozenset[str], ...] = ()
        self.item: Shape | None = None
        self.prefix: tuple[Shape, ...] | None = None
        self.fields: dict[str, Shape] = {}
        self.required: frozenset[str] = frozenset()
        self.variants: tuple[Shape, ...] = ()
        self.bounds: tuple[float, bool, float, bool] | None = None
        self.lengths: tuple[int, float] | None = None

    def constrained(
        self,
        bounds: tuple[float, bool, float, bool] | None,
        lengths: tuple[int, float] | None,
    ) -> Shape:
        """A copy admitting only the numbers within *bounds* and the lengths within *lengths*.

        Only a scalar (numbers, strings) or a variable-length array is narrowed; any other
        shape is returned as it is (its constraints never make two variants disjoint here).
        """
        if self.kind not in ("scalar", "array") or self.prefix is not None:
            return self
        shape = Shape(self.kind, self.label, self.kinds)
        shape.fmt, shape.item = self.fmt, self.item
        shape.bounds = _meet_bounds(self.bounds, bounds)
        shape.lengths = _meet_lengths(self.lengths, lengths)
        return shape

    @classmethod
    def scalar(cls, label: str, kinds: frozenset[str], fmt: str | None = None) -> Shape:
        """A scalar of the type table (see `scalar_kinds`), with its string format if any."""
        shape = cls("scalar", label, kinds)
        shape.fmt = fmt
        return shape

    @classmethod
    def constants_of(
        cls, label: str, values: tuple[object, ...], unknown: tuple[frozenset[str], ...] = ()
    ) -> Shape:
        """An enum or a literal: exactly these JSON values.

        *unknown* serves the mypy plugin, which may not know every value of an enum
        (``auto()``, a call): the JSON kinds each other member's value may have. Such a value
        only overlaps a type that admits every value of each of its kinds (``str``, ``int``).
        """
        kinds = frozenset(_value_kind(v) for v in values).union(*unknown)
        shape = cls("constants", label, kinds)
        shape.constants = values
        shape.keys = frozenset(key for key in map(_json_key, values) if key is not None)
        shape.unknown = tuple(k for k in unknown if k)
        return shape

    @classmethod
    def array(cls, label: str, item: Shape) -> Shape:
        """A variable-length array (list, sequence, set, ``tuple[T, ...]``)."""
        shape = cls("array", label, frozenset({"array"}))
        shape.item = item
        return shape

    @classmethod
    def fixed_array(cls, label: str, prefix: tuple[Shape, ...]) -> Shape:
        """A fixed-length array (``tuple[A, B]``)."""
        shape = cls("array", label, frozenset({"array"}))
        shape.prefix = prefix
        return shape

    @classmethod
    def mapping(cls, label: str, value: Shape) -> Shape:
        """An object with any ``str`` keys (``dict[str, T]``)."""
        shape = cls("mapping", label, frozenset({"object"}))
        shape.item = value
        return shape

    @classmethod
    def closed_object(cls, label: str) -> Shape:
        """A closed object (attrs class, dataclass, TypedDict, NamedTuple); fill its fields."""
        return cls("object", label, frozenset({"object"}))

    @classmethod
    def union(cls, label: str, variants: tuple[Shape, ...]) -> Shape:
        """A union, variants in declared order."""
        kinds = frozenset[str]().union(*(v.kinds for v in variants))
        shape = cls("union", label, kinds)
        shape.variants = variants
        return shape

    @classmethod
    def union_of(
        cls,
        label: str,
        items: Sequence[_T],
        number_kind: Callable[[_T], str | None],
        shape_of: Callable[[_T], Shape],
    ) -> Shape:
        """A union of *items*, where ``int`` and ``float`` together are one Numeric variant.

        The runtime treats ``int | float`` as one variant, placed where the first of the two is
        declared. *number_kind* says which items are ``"int"`` or ``"float"`` (None for others);
        *shape_of* gives every other item's shape.
        """
        kinds = [number_kind(item) for item in items]
        numeric = "int" in kinds and "float" in kinds
        variants: list[Shape] = []
        placed = False
        for item, kind in zip(items, kinds, strict=True):
            if numeric and kind is not None:
                if not placed:
                    variants.append(cls.scalar("int | float", NUMBER_KINDS))
                    placed = True
                continue
            variants.append(shape_of(item))
        return cls.union(label, tuple(variants))

    @classmethod
    def opaque(cls, label: str, kinds: frozenset[str]) -> Shape:
        """A type known only by the JSON kinds of its schema (a user-registered type)."""
        if "number" in kinds:
            kinds |= {"integer"}
        return cls("opaque", label, kinds)


def _meet_bounds(
    left: tuple[float, bool, float, bool] | None, right: tuple[float, bool, float, bool] | None
) -> tuple[float, bool, float, bool] | None:
    """The numbers within both bounds (None: any number)."""
    if left is None or right is None:
        return right if left is None else left
    # Of two equal ends, the one that leaves its end out is the narrower.
    low, low_out = max((left[0], not left[1]), (right[0], not right[1]))
    high, high_in = min((left[2], left[3]), (right[2], right[3]))
    return low, not low_out, high, high_in


def _meet_lengths(
    left: tuple[int, float] | None, right: tuple[int, float] | None
) -> tuple[int, float] | None:
    """The lengths within both (None: any length)."""
    if left is None or right is None:
        return right if left is None else left
    return max(left[0], right[0]), min(left[1], right[1])


def _holds_number(bounds: tuple[float, bool, float, bool] | None, *, integers: bool) -> bool:
    """Whether some number (an integer, with *integers*) lies within *bounds*."""
    if bounds is None:
        return True
    low, low_in, high, high_in = bounds
    if integers and math.isfinite(low) and math.isfinite(high):
        least = math.ceil(low) if low_in else math.floor(low) + 1
        most = math.floor(high) if high_in else math.ceil(high) - 1
        return least <= most
    return low < high or (low == high and low_in and high_in)


def _within(shape: Shape, value: object) -> bool:
    """Whether *value* (of a kind *shape* admits) meets its bounds and lengths."""
    if shape.bounds is not None and isinstance(value, (int, float)):
        low, low_in, high, high_in = shape.bounds
        if value < low or (value == low and not low_in):
            return False
        if value > high or (value == high and not high_in):
            return False
    if shape.lengths is not None and isinstance(value, str):
        return shape.lengths[0] <= len(value) <= shape.lengths[1]
    return True


def _scalars_meet(left: Shape, right: Shape) -> bool:
    """Whether two scalars of common JSON kinds both admit one value, by their constraints."""
    common = left.kinds & right.kinds
    if common - NUMBER_KINDS - {"string"}:
        return True  # a boolean or null: no constraint applies
    if "string" in common:
        lengths = _meet_lengths(left.lengths, right.lengths)
        if lengths is None or lengths[0] <= lengths[1]:
            return True
    if common & NUMBER_KINDS:
        bounds = _meet_bounds(left.bounds, right.bounds)
        return _holds_number(bounds, integers="number" not in common)
    return False


def _admits(shape: Shape, value: object) -> bool:
    """Whether *shape* admits the JSON scalar *value*."""
    if shape.kind == "union":
        return any(_admits(v, value) for v in shape.variants)
    if _value_kind(value) not in shape.kinds:
        return False
    if not _within(shape, value):
        return False
    if shape.kind == "constants":
        return _json_key(value) in shape.keys
    if shape.kind == "scalar" and shape.fmt is not None:
        # The format's grammar without its range checks: a constant that matches could be valid.
        row = BY_FORMAT.get(shape.fmt)
        return row is None or (isinstance(value, str) and row.pattern.fullmatch(value) is not None)
    return shape.kind in ("scalar", "opaque")


def _admits_all(shape: Shape, kinds: frozenset[str]) -> bool:
    """Whether *shape* admits every JSON value of each of *kinds* (a value only known by kind)."""
    if shape.kind == "union":
        return any(_admits_all(v, kinds) for v in shape.variants)
    return (
        shape.kind in ("scalar", "opaque")
        and shape.fmt is None
        and shape.bounds is None
        and shape.lengths is None
        and kinds <= shape.kinds
    )


def overlaps(left: Shape, right: Shape) -> bool:
    """Whether some JSON value matches both shapes."""
    return _overlaps(left, right, set())


def _overlaps(left: Shape, right: Shape, assumed: set[tuple[int, int]]) -> bool:
    if left.kind == "union":
        return any(_overlaps(v, right, assumed) for v in left.variants)
    if right.kind == "union":
        return any(_overlaps(left, v, assumed) for v in right.variants)
    if not left.kinds & right.kinds:
        return False
    if left.kind == "opaque" or right.kind == "opaque":
        return True
    if left.kind == "constants" and right.kind == "constants":
        # A value known only by its kind never matches constants (see `_admits_all`).
        return not left.keys.isdisjoint(right.keys)
    if left.kind == "constants" or right.kind == "constants":
        constants, other = (left, right) if left.kind == "constants" else (right, left)
        return any(_admits(other, value) for value in constants.constants) or any(
            _admits_all(other, kinds) for kinds in constants.unknown
        )
    if left.kind == "scalar" and right.kind == "scalar":
        # Only strings can differ by format; two different formats never share a value (a
        # promise of the format table). Constraints may leave no value for both.
        if left.fmt is not None and right.fmt is not None and left.fmt != right.fmt:
            return False
        return _scalars_meet(left, right)
    if left.kind == "array" and right.kind == "array":
        return _arrays_overlap(left, right, assumed)
    return _objects_overlap(left, right, assumed)


def _arrays_overlap(left: Shape, right: Shape, assumed: set[tuple[int, int]]) -> bool:
    if left.prefix is None and right.prefix is None:
        lengths = _meet_lengths(left.lengths, right.lengths)
        if lengths is None or lengths[0] == 0:
            return True  # the empty array matches both
        if lengths[0] > lengths[1]:
            return False
        return left.item is None or right.item is None or _overlaps(left.item, right.item, assumed)
    if left.prefix is not None and right.prefix is not None:
        return len(left.prefix) == len(right.prefix) and all(
            _overlaps(a, b, assumed) for a, b in zip(left.prefix, right.prefix, strict=True)
        )
    prefix = left.prefix if left.prefix is not None else right.prefix or ()
    item = right.item if left.prefix is not None else left.item
    lengths = right.lengths if left.prefix is not None else left.lengths
    if lengths is not None and not lengths[0] <= len(prefix) <= lengths[1]:
        return False
    return item is None or all(_overlaps(item, p, assumed) for p in prefix)


def _objects_overlap(left: Shape, right: Shape, assumed: set[tuple[int, int]]) -> bool:
    if left.kind == "mapping" and right.kind == "mapping":
        return True  # the empty object matches both
    if left.kind == "mapping" or right.kind == "mapping":
        mapping, closed = (left, right) if left.kind == "mapping" else (right, left)
        value = mapping.item
        return value is None or all(
            _overlaps(value, closed.fields[key], assumed)
            for key in closed.required
            if key in closed.fields
        )
    pair = (id(left), id(right))
    if pair in assumed:
        return True  # recursive classes: assume the cycle matches, look elsewhere for a clash
    assumed.add(pair)
    # The smallest object that could match both has exactly the keys either one requires; it
    # matches only when both classes know every such key and the values can agree.
    keys = left.required | right.required
    if not keys <= (left.fields.keys() & right.fields.keys()):
        return False
    return all(_overlaps(left.fields[k], right.fields[k], assumed) for k in sorted(keys))


class Ambiguity:
    """An ambiguous union found by `find_ambiguity`.

    Attributes:
        union: The label of the union.
        first: The label of the first variant that can match a value.
        second: The label of a later variant that can match the same value.
        null: One of the two takes only null (``None``): they share only null, which the call
            always reads as None, whatever the order.
        objects: Both are JSON objects of their own classes (attrs, dataclass, TypedDict):
            what is read as the first is never the second's value, whatever the JSON.
    """

    __slots__ = ("first", "null", "objects", "second", "union")

    def __init__(
        self, union: str, first: str, second: str, *, null: bool = False, objects: bool = False
    ) -> None:
        self.union = union
        self.first = first
        self.second = second
        self.null = null
        self.objects = objects

    def __repr__(self) -> str:
        return f"Ambiguity({self.union!r}, {self.first!r}, {self.second!r})"

    def problem(self, toolset: str, method: str, parameter: str) -> Problem:
        """The ``ambiguous-union`` problem of *parameter*, worded for what the call does."""
        return problem(
            "ambiguous-null" if self.null else "ambiguous-union",
            toolset,
            method,
            parameter,
            union=self.union,
            first=self.first,
            second=self.second,
        )


#: The JSON types of a variant that takes only null (``None``).
_NULL: Final = frozenset({"null"})


def _none_alone(shape: Shape) -> bool:
    """Whether *shape* is ``None`` or ``Literal[None]``: either reads null as None, the same value.

    (mypy folds ``Literal[None]`` into ``None``: the plugin never sees the two apart.)
    """
    if shape.kind == "constants":
        return all(value is None for value in shape.constants)
    return shape.kind == "scalar" and shape.kinds == _NULL


def _clash(first: Shape, second: Shape) -> bool:
    return overlaps(first, second) and not (_none_alone(first) and _none_alone(second))


def _first_clash(variants: tuple[Shape, ...]) -> tuple[int, int] | None:
    """The first two variants (by the first's index, then the second's) that share a value.

    A ``Literal`` of 4,000 values is 4,000 variants: constants are matched through their keys,
    and only pairs with another kind of variant are compared one by one.
    """
    best = _first_shared_constant(variants)
    others = [j for j, v in enumerate(variants) if v.kind != "constants"]
    for i, first in enumerate(variants):
        if best is not None and i > best[0]:
            break
        later = range(i + 1, len(variants)) if first.kind != "constants" else others
        for j in later:
            if j <= i:
                continue
            if best is not None and (i, j) >= best:
                break
            if _clash(first, variants[j]):
                best = (i, j)
                break
    return best


def _first_shared_constant(variants: tuple[Shape, ...]) -> tuple[int, int] | None:
    """The first two constants variants sharing a value, as `_first_clash` orders them."""
    holders: dict[tuple[str, object], list[int]] = {}
    for index, variant in enumerate(variants):
        if variant.kind == "constants":
            for key in variant.keys:
                holders.setdefault(key, []).append(index)
    best: tuple[int, int] | None = None
    for key, indexes in holders.items():
        if key == _NULL_KEY:
            # Two variants that take only null read it as the same None: no clash.
            alone = [_none_alone(variants[i]) for i in indexes]
            pairs = (
                (indexes[a], indexes[b])
                for a in range(len(indexes))
                for b in range(a + 1, len(indexes))
                if not (alone[a] and alone[b])
            )
            pair = next(pairs, None)
        else:
            pair = (indexes[0], indexes[1]) if len(indexes) > 1 else None
        if pair is not None and (best is None or pair < best):
            best = pair
    return best


def find_ambiguity(shape: Shape) -> Ambiguity | None:
    """Return the first ambiguous union in *shape* (depth first, in declared order), if any."""
    return _find(shape, set())


def _find(shape: Shape, seen: set[int]) -> Ambiguity | None:
    if id(shape) in seen:
        return None
    seen.add(id(shape))
    if shape.kind == "union":
        pair = _first_clash(shape.variants)
        if pair is not None:
            first, second = shape.variants[pair[0]], shape.variants[pair[1]]
            null = _NULL in (first.kinds, second.kinds)
            objects = first.kind == second.kind == "object"
            return Ambiguity(shape.label, first.label, second.label, null=null, objects=objects)
    children: list[Shape] = list(shape.variants)
    if shape.item is not None:
        children.append(shape.item)
    if shape.prefix is not None:
        children.extend(shape.prefix)
    children.extend(shape.fields.values())
    for child in children:
        found = _find(child, seen)
        if found is not None:
            return found
    return None


# ------------------------------------------------------------------------------ strict form

#: The ``null`` a defaulted property also takes in the strict form (it stands for the default).
_DEFAULT_NULL: Final = Shape.scalar("null (the default)", _NULL)


def find_strict_ambiguity(shape: Shape) -> Ambiguity | None:
    """Return the first union that only the strict form makes ambiguous, if any.

    The strict form (OpenAI and Anthropic ``strict: true``, `typed_toolsets.types.strict`) has
    every property of an object present and ``null`` for a defaulted one standing for its
    default. Two variants no JSON value matches both of may then share one: ``{"name": null}``
    is the default of ``Named(name: str = "anon")`` and a value of ``Numbered(name: int |
    None)``; the first variant would take it, so the second's value could not be sent. An
    ambiguity the standard form has already is `find_ambiguity`'s, not this one's.
    """
    unions: list[tuple[Shape, Shape]] = []
    _strict_form(shape, {}, unions)
    for standard, strict in unions:
        variants = standard.variants
        # Constants are their own strict form: two of them overlap in both forms or neither.
        others = [j for j, v in enumerate(variants) if v.kind != "constants"]
        for index, first in enumerate(variants):
            later = range(index + 1, len(variants)) if first.kind != "constants" else others
            for j in later:
                if j > index and (
                    overlaps(strict.variants[index], strict.variants[j])
                    and not overlaps(first, variants[j])
                ):
                    return Ambiguity(standard.label, first.label, variants[j].label)
    return None


def _strict_form(shape: Shape, done: dict[int, Shape], unions: list[tuple[Shape, Shape]]) -> Shape:
    """*shape* as the strict form admits it; each union is noted in *unions* with its copy."""
    found = done.get(id(shape))
    if found is not None:
        return found
    if shape.kind not in ("object", "union", "array", "mapping"):
        return shape  # a scalar, constants, opaque: the same values
    copy = Shape(shape.kind, shape.label, shape.kinds)
    copy.bounds, copy.lengths = shape.bounds, shape.lengths
    done[id(shape)] = copy  # before the children: recursive classes end here
    if shape.kind == "union":
        unions.append((shape, copy))
        copy.variants = tuple(_strict_form(v, done, unions) for v in shape.variants)
    if shape.item is not None:
        copy.item = _strict_form(shape.item, done, unions)
    if shape.prefix is not None:
        copy.prefix = tuple(_strict_form(p, done, unions) for p in shape.prefix)
    for name, field in shape.fields.items():
        strict = _strict_form(field, done, unions)
        if name not in shape.required and "null" not in field.kinds:
            strict = Shape.union(strict.label, (strict, _DEFAULT_NULL))
        copy.fields[name] = strict
    copy.required = frozenset(shape.fields) if shape.kind == "object" else shape.required
    return copy
