"""Registry rules for the forms standing for another type: Annotated, NewType, ``type`` aliases.

``Annotated`` adds a description and annotated_types constraints to its type.
"""

from __future__ import annotations

import math
import sys
import typing
from collections.abc import Callable, Collection, Sized
from typing import TYPE_CHECKING, Any, Final

import attrs

from typed_toolsets.rules.labels import label
from typed_toolsets.rules.shapes import Shape

from .description import annotated_description
from .hints import expand_alias, is_type_alias
from .registry import Builder, Describer, Rule
from .typespec import (
    LONG_INT,
    MAX_INT_DIGITS,
    BoundLost,
    Reject,
    Schema,
    TypeSpec,
    UnsupportedMetadata,
    check_float,
)
from .unions import is_union, numbers_merged, union_spec

if TYPE_CHECKING:
    from decimal import Context
    from fractions import Fraction

__all__ = ["ANNOTATED_RULES", "distinct_values", "not_multiple"]

_NoneType: Final = type(None)
_NUMBER_TYPES: Final = frozenset({"integer", "number"})
_NUMBER_CONSTRAINTS: Final = {
    "Ge": "minimum",
    "Gt": "exclusiveMinimum",
    "Le": "maximum",
    "Lt": "exclusiveMaximum",
    "MultipleOf": "multipleOf",
}
_LENGTH_KEYWORDS: Final = {
    "string": ("minLength", "maxLength"),
    "array": ("minItems", "maxItems"),
    "object": ("minProperties", "maxProperties"),
}
_LENGTH_TYPES: Final[dict[str, type]] = {"string": str, "array": list, "object": dict}


def _is_annotated(annotation: object) -> bool:
    return typing.get_origin(annotation) is typing.Annotated


def _constraints(metadata: tuple[object, ...]) -> list[tuple[str, object]]:
    """The ``(constraint name, value)`` pairs of ``Annotated`` metadata, in order.

    Raises:
        UnsupportedMetadata: An annotated_types constraint that JSON Schema cannot express.
    """
    import annotated_types

    simple: list[tuple[type, str, str]] = [
        (annotated_types.Ge, "Ge", "ge"),
        (annotated_types.Gt, "Gt", "gt"),
        (annotated_types.Le, "Le", "le"),
        (annotated_types.Lt, "Lt", "lt"),
        (annotated_types.MinLen, "MinLen", "min_length"),
        (annotated_types.MaxLen, "MaxLen", "max_length"),
        (annotated_types.MultipleOf, "MultipleOf", "multiple_of"),
    ]
    found: list[tuple[str, object]] = []
    queue = list(metadata)
    while queue:
        item = queue.pop(0)
        if isinstance(item, annotated_types.GroupedMetadata):
            queue[:0] = list(item)
            continue
        if _is_annotated(item):
            # annotated_types' named constraints (`LowerCase`, `IsFinite`, ...) are aliases,
            # ``Annotated[<type variable>, Predicate(...)]``: as metadata, their own metadata
            # applies (left unread, a constraint the user wrote would be lost without a word).
            queue[:0] = typing.get_args(item)[1:]
            continue
        for kind, name, field in simple:
            if isinstance(item, kind):
                found.append((name, getattr(item, field)))
                break
        else:
            if type(item).__module__ == "annotated_types":
                msg = f"annotated_types.{type(item).__name__} cannot be expressed in JSON Schema"
                raise UnsupportedMetadata(msg)
    return found


def _limit(name: str, value: object) -> int | float:
    # An int is finite however large (math.isfinite would convert it to a float, and overflow).
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (isinstance(value, float) and not math.isfinite(value))
    ):
        msg = f"the {name} constraint needs a finite int or float (got {value!r})"
        raise UnsupportedMetadata(msg)
    if isinstance(value, int) and not -LONG_INT < value < LONG_INT:
        # No JSON text writes it (nor does repr, past the interpreter's digit limit).
        msg = f"the {name} constraint needs an int of at most {MAX_INT_DIGITS:,} digits"
        raise UnsupportedMetadata(msg)
    if name in ("MinLen", "MaxLen") and (not isinstance(value, int) or value < 0):
        msg = f"the {name} constraint needs a non-negative int (got {value!r})"
        raise UnsupportedMetadata(msg)
    if name == "MultipleOf" and value <= 0:
        msg = f"the MultipleOf constraint needs a positive number (got {value!r})"
        raise UnsupportedMetadata(msg)
    if type(value) not in (int, float):
        # A subclass (NumPy's float64) as the number itself: it is written and read by its repr
        # (``np.float64(0.2)``), which JSON never writes.
        return float(value) if isinstance(value, float) else int(value)
    return value


def not_multiple(value: int | float, divisor: int | float) -> bool:
    """Whether *value* is not a multiple of *divisor*, each number as JSON text writes it.

    Integers divide exactly. A float is read as its shortest decimal form (``repr``: the number
    a model writes and JSON text holds, not the binary fraction nearest it), so ``19.99`` is a
    multiple of ``0.01`` and ``0.3`` one of ``0.1``, as JSON Schema means them; dividing in
    binary floats, as jsonschema does, refuses both (``0.3 / 0.1`` is ``2.9999999999999996``).
    ``0.30000000000000004`` is no multiple of ``0.1``: that is the number the text says.
    """
    if isinstance(value, int) and isinstance(divisor, int):
        return bool(value % divisor)
    try:
        quotient = value / divisor
        # A multiple's binary quotient is a whole number to within a few units in the last
        # place: one farther off is none, decided without exact arithmetic. (A subnormal float
        # holds fewer digits, so its quotient can be farther off: it is read exactly.)
        if (
            abs(quotient - round(quotient)) > _NEAR_WHOLE * max(1.0, abs(quotient))
            and min(abs(value), abs(divisor)) >= sys.float_info.min
        ):
            return True
    except OverflowError:  # a quotient past the float range: decided exactly below
        pass
    return not _exact(value, divisor)


#: How near a whole number the binary quotient of two decimal multiples always is, relatively
#: (three roundings of 2**-53 each, with a wide margin).
_NEAR_WHOLE: Final = 1e-9


def _exact(value: int | float, divisor: int | float) -> bool:
    """Whether *value* is a multiple of *divisor*, each read exactly (a float by its ``repr``)."""
    first = repr(value) if isinstance(value, float) else value
    second = repr(divisor) if isinstance(divisor, float) else divisor
    context = _CONTEXT[0] if _CONTEXT else _context()
    # In C, a fifth of the time of fractions; exact while the numbers and their whole quotient
    # fit the context's digits (a float's repr has at most 17, its exponent -324 to 308).
    try:
        make = context.create_decimal
        return not context.remainder(make(first), make(second))
    except ArithmeticError:  # more digits: an integer past the float range
        from fractions import Fraction

        return (Fraction(first) / Fraction(second)).denominator == 1


#: The decimal context of `_exact`, made on first use (only a number near a multiple needs it).
_CONTEXT: Final[list[Context]] = []


def _context() -> Context:
    from decimal import Context, Inexact, InvalidOperation, Rounded

    # An inexact conversion (an integer of more digits) raises, and so does a remainder whose
    # quotient has more digits (`DivisionImpossible`, else a NaN): both are read as fractions.
    context = Context(prec=_QUOTIENT_DIGITS, traps=[Inexact, Rounded, InvalidOperation])
    _CONTEXT.append(context)
    return context


#: Digits enough for the quotient of any two floats (each at most 17 digits, 10**-324 to 10**309).
_QUOTIENT_DIGITS: Final = 700


def _keywords(constraints: list[tuple[str, object]], base: TypeSpec, base_type: object) -> Schema:
    """Turn constraints into JSON Schema keywords for *base*, keeping the strictest of repeats."""
    keywords: Schema = {}
    for name, raw in constraints:
        limit = _limit(name, raw)
        targets = _targets(name, base.json_types)
        if not targets:
            applies = "numbers" if name in _NUMBER_CONSTRAINTS else "strings, arrays and objects"
            msg = f"the {name} constraint applies to {applies}, not to {label(base_type)}"
            raise UnsupportedMetadata(msg)
        for keyword in targets:
            if keyword == "multipleOf" and keyword in keywords:
                msg = "only one MultipleOf constraint can apply"
                raise UnsupportedMetadata(msg)
            _tightened(keywords, keyword, limit)
    return keywords


#: Every JSON type a constraint may apply to.
_EVERY_KIND: Final = _NUMBER_TYPES | _LENGTH_KEYWORDS.keys()


def _targets(name: str, kinds: Collection[str]) -> list[str]:
    """The keywords the constraint *name* sets for values of the JSON types *kinds* (none: [])."""
    if name in _NUMBER_CONSTRAINTS:
        return [_NUMBER_CONSTRAINTS[name]] if any(k in _NUMBER_TYPES for k in kinds) else []
    return [pair[name == "MaxLen"] for kind, pair in _LENGTH_KEYWORDS.items() if kind in kinds]


def _tightened(keywords: Schema, keyword: str, limit: int | float) -> None:
    """Set the bound *keyword* of *keywords* to *limit*, keeping the stricter of a repeat."""
    if keyword in keywords:
        lower = keyword.startswith(("min", "exclusiveMin"))
        limit = max(limit, keywords[keyword]) if lower else min(limit, keywords[keyword])
    keywords[keyword] = limit


def _bounds(constraints: list[tuple[str, object]]) -> Schema:
    """The bounds *constraints* set, for every JSON type they may apply to (checked already)."""
    bounds: Schema = {}
    for name, raw in constraints:
        if name == "MultipleOf":
            bounds["multipleOf"] = _limit(name, raw)  # one at most (checked already)
            continue
        for keyword in _targets(name, _EVERY_KIND):
            _tightened(bounds, keyword, _limit(name, raw))
    return bounds


# A bound's constraint, by the keyword it became (what the author wrote, for the message).
_BOUND_NAMES: Final = {
    "minimum": "Ge",
    "exclusiveMinimum": "Gt",
    "maximum": "Le",
    "exclusiveMaximum": "Lt",
    **{low: "MinLen" for low, _ in _LENGTH_KEYWORDS.values()},
    **{high: "MaxLen" for _, high in _LENGTH_KEYWORDS.values()},
}


def _no_value_between(keywords: Schema, json_types: frozenset[str]) -> str | None:
    """Why no value of *json_types* meets both a lower and an upper bound of *keywords*, if none.

    *keywords* hold the bounds for every JSON type they may apply to (`_bounds`); a type they do
    not apply to has all its values left.

    ``MinLen(5)`` with ``MaxLen(2)``, ``Ge(3)`` with ``Le(1)``, ``Gt(2)`` with ``Lt(2)``: the
    schema is valid but refuses every value, so the tool could never be called; that is said
    once, when the class is made, rather than by every call. A type with values the bounds do
    not apply to (``null`` of ``str | None``) keeps them.
    """
    pairs = [(kind, low, high, False) for kind, (low, high) in _LENGTH_KEYWORDS.items()]
    pairs += [
        ("number", low, high, low.startswith("exclusive") or high.startswith("exclusive"))
        for low in ("minimum", "exclusiveMinimum")
        for high in ("maximum", "exclusiveMaximum")
    ]
    empty: dict[str, str] = {}  # JSON type -> why none of its values is left
    for kind, low, high, strict in pairs:
        if kind in empty or low not in keywords or high not in keywords:
            continue
        floor, ceiling = keywords[low], keywords[high]
        if floor > ceiling or (strict and floor >= ceiling):
            what = "number" if kind == "number" else "length"
            empty[kind] = (
                f"{_BOUND_NAMES[low]}({floor!r}) and {_BOUND_NAMES[high]}({ceiling!r}) leave no "
                f"{what} between them"
            )
    step = keywords.get("multipleOf")
    if "number" not in empty and isinstance(step, float):
        no_multiple = _no_multiple_between(keywords, integers=False)
        if no_multiple is not None:
            empty["number"] = no_multiple
    if "number" in empty:
        empty["integer"] = empty["number"]
    else:
        no_integer = _no_integer_between(keywords)
        if no_integer is not None:
            empty["integer"] = no_integer
            if isinstance(step, int):  # its multiples are all integers
                empty["number"] = no_integer
    if not empty or not json_types <= empty.keys():
        return None
    return next(iter(empty.values()))


#: Past this, a float's binary value and the number its shortest text writes part (1e23).
_EXACT_FLOATS: Final = 2**53


def _no_integer_between(keywords: Schema) -> str | None:
    """Why no integer meets the number bounds of *keywords*, when numbers do (``Gt(0), Lt(1)``).

    With a ``multipleOf``, also why no integer multiple of it does (``MultipleOf(5), Ge(1),
    Le(4)``; ``MultipleOf(0.3), Ge(0.9), Le(1.1)``).
    """
    found = _no_multiple_between(keywords, integers=True, of_one=True)
    if found is None and "multipleOf" in keywords:
        found = _no_multiple_between(keywords, integers=True)
    return found


def _no_multiple_between(keywords: Schema, *, integers: bool, of_one: bool = False) -> str | None:
    """Why no multiple of the ``multipleOf`` (or of 1) meets the number bounds, if none does.

    Numbers are read as JSON text writes them (a float by its ``repr``), as `not_multiple` reads
    them, and compared exactly: a float bound and its shortest text lie on the same side of
    every number below 2**53 that JSON can write, so the verdict is the validator's. Bounds past
    2**53 are not judged (an integer is compared with a float bound's binary value there); the
    divisor, read as `not_multiple` reads it, may be any.

    Args:
        keywords: The bounds (`_bounds`).
        integers: Only integers are wanted: a multiple of ``p/q`` (lowest terms) is an integer
            exactly when it is a multiple of ``p``.
        of_one: Any integer will do (the ``multipleOf`` is not looked at).
    """
    lows = [k for k in ("minimum", "exclusiveMinimum") if k in keywords]
    highs = [k for k in ("maximum", "exclusiveMaximum") if k in keywords]
    if not lows or not highs:
        return None
    divisor = None if of_one else keywords.get("multipleOf")
    if any(abs(keywords[k]) > _EXACT_FLOATS for k in (*lows, *highs)):
        # Past 2**53 an integer is compared with a float bound's binary value, not its text.
        return None
    from fractions import Fraction

    step = Fraction(1) if divisor is None else _exactly(divisor)
    if integers:
        step = Fraction(step.numerator)
    # The least and the most multiple index each bound leaves (an exclusive one skips itself).
    least, low = max(
        (math.floor(_exactly(keywords[k]) / step) + 1, k)
        if k == "exclusiveMinimum"
        else (math.ceil(_exactly(keywords[k]) / step), k)
        for k in lows
    )
    most, high = min(
        (math.ceil(_exactly(keywords[k]) / step) - 1, k)
        if k == "exclusiveMaximum"
        else (math.floor(_exactly(keywords[k]) / step), k)
        for k in highs
    )
    if least <= most:
        return None
    bounds = f"{_BOUND_NAMES[low]}({keywords[low]!r}) and {_BOUND_NAMES[high]}({keywords[high]!r})"
    if divisor is None:
        return f"{bounds} leave no integer between them"
    what = "integer multiple" if integers and not isinstance(divisor, int) else "multiple"
    return f"{bounds} leave no {what} of {divisor!r} between them (MultipleOf({divisor!r}))"


def _exactly(number: int | float) -> Fraction:
    """*number* as JSON text writes it, exactly (a float by its ``repr``)."""
    from fractions import Fraction

    return Fraction(repr(number)) if isinstance(number, float) else Fraction(number)


_NUMBER_COMPARE: Final = frozenset(_NUMBER_CONSTRAINTS.values())


def _compare(keyword: str, limit: int | float) -> Callable[[int | float], bool]:
    """Whether a number breaks *keyword* of value *limit* (jsonschema's comparisons)."""
    if keyword == "minimum":
        return lambda n: n < limit
    if keyword == "exclusiveMinimum":
        return lambda n: n <= limit
    if keyword == "maximum":
        return lambda n: n > limit
    if keyword == "exclusiveMaximum":
        return lambda n: n >= limit
    return lambda n: not_multiple(n, limit)


def _violation(keyword: str, limit: int | float) -> Callable[[Any], bool]:
    """A predicate that is True when a JSON value violates one keyword (jsonschema semantics)."""
    if keyword in _NUMBER_COMPARE:
        failed = _compare(keyword, limit)

        def number_violation(value: Any) -> bool:
            kind: type[Any] = type(value)  # pyright: ignore[reportUnknownVariableType]
            if kind is float:
                check_float(value)  # it may stand for an integer literal: the exact path decides
                return failed(value)
            return kind is int and failed(value)

        return number_violation
    kind: type = next(_LENGTH_TYPES[k] for k, pair in _LENGTH_KEYWORDS.items() if keyword in pair)
    lower = keyword.startswith("min")

    def length_violation(value: Any) -> bool:
        if type(value) is not kind:
            return False
        size = len(typing.cast("Sized", value))
        return size < limit if lower else size > limit

    return length_violation


#: From here on, floats are whole numbers spaced more than 1 apart.
_EXACT_WHOLE: Final = float(_EXACT_FLOATS)

#: The types of read values that may break a bound their JSON value keeps (`_read_check`).
_READ_CHANGES: Final = frozenset({int, float, set, frozenset})
_ITEM_COUNTS: Final = ("minItems", "maxItems")


def _read_check(keywords: Schema) -> Callable[[Any, Any], None]:
    """The check of what was read from a JSON value within the bounds *keywords* set.

    The bounds hold for the JSON value, but the method gets what was read: a whole number past
    2**53 becomes the nearest float (`2**53 + 1` is `2.0**53`), and a set's items that are equal
    once read (such floats, structs holding them) count once. Each bound is checked again on
    what was read (a float; a set's size) when the reading changed it.

    Raises:
        BoundLost: what was read breaks one of *keywords* (the first, in their order).
    """
    numbers = [(k, v, _compare(k, v)) for k, v in keywords.items() if k in _NUMBER_COMPARE]
    sizes = [(k, v) for k, v in keywords.items() if k in _ITEM_COUNTS]
    steps = [(k, v) for k, v in keywords.items() if k == "multipleOf"]

    def check(value: Any, result: Any) -> None:
        if type(result) is int:
            # A whole float read as an int: `multipleOf` judged its shortest form (1e+23), the
            # method gets its exact value (99999999999999991611392), which past 2**53 differs.
            if type(value) is float and not -_EXACT_WHOLE < value < _EXACT_WHOLE:
                for keyword, limit in steps:
                    if not_multiple(result, limit):
                        raise BoundLost(keyword, limit, result)
            return
        if type(result) is float:
            # An int and a float compare exactly: unequal when the float is not that number.
            if type(value) is int and result != value:
                for keyword, limit, failed in numbers:
                    if failed(result):
                        raise BoundLost(keyword, limit, result)
            return
        size = len(typing.cast("Sized", result))
        if size != len(typing.cast("Sized", value)):
            for keyword, limit in sizes:
                if size < limit if keyword == "minItems" else size > limit:
                    raise BoundLost(keyword, limit, result)

    return check


def _annotated_rule(annotation: object, builder: Builder) -> TypeSpec:
    base_type, *metadata = typing.get_args(annotation)
    description = annotated_description(metadata)
    constraints = _constraints(tuple(metadata))
    if not constraints:
        return _constrained(annotation, builder.spec(base_type), base_type, [], description)
    if is_union(base_type):
        spec, emptied = _distribute(annotation, base_type, constraints, description, builder)
    else:
        spec = _constrained(
            annotation, builder.spec(base_type), base_type, constraints, description
        )
        emptied = None
    empty = _no_value_between(_bounds(constraints), spec.json_types)
    if empty is None:
        empty = _own_bounds_crossed(spec, base_type, constraints) if emptied is None else emptied
    if empty is not None:
        msg = f"{empty}, so every value would be refused"
        raise UnsupportedMetadata(msg)
    return spec


def _own_bounds_crossed(
    spec: TypeSpec, base_type: object, constraints: list[tuple[str, object]]
) -> str | None:
    """Why *constraints* and the type's own bounds leave *spec* (not a union) no value, if so.

    The bounds the constraints set alone are judged before (`_no_value_between`); these are a
    fixed tuple's length, a set's few possible items, a registered type's own bounds.
    """
    empty = _no_length_left(spec.schema, base_type, constraints)
    if empty is None:
        own = {k: v for k, v in spec.schema.items() if k in _BOUND_NAMES or k == "multipleOf"}
        empty = _no_value_between(own, spec.json_types)
    return empty


def _no_length_left(
    schema: Schema, base_type: object, constraints: list[tuple[str, object]]
) -> str | None:
    """Why a length constraint leaves no array of a fixed tuple's length, if it leaves none.

    ``Annotated[tuple[int, int], MinLen(3)]``: the tuple's own ``minItems`` and ``maxItems``
    meet the constraint's in the schema, which no value can then meet.
    """
    least, most = schema.get("minItems"), schema.get("maxItems")
    written = ", ".join(f"{name}({raw!r})" for name, raw in constraints if name.endswith("Len"))
    if isinstance(least, int) and isinstance(most, int) and least > most:
        return f"{written} leaves no length for {label(base_type)}, whose length is fixed"
    distinct = distinct_values(schema.get("items")) if schema.get("uniqueItems") else None
    if isinstance(least, int) and distinct is not None and least > distinct:
        return (
            f"{written} asks for {least} different items, but {label(base_type)} has "
            f"{distinct} possible item{'s' if distinct != 1 else ''}"
        )
    return None


def distinct_values(schema: object) -> int | None:
    """How many different JSON values *schema* admits, when they are few and known; else None."""
    if not isinstance(schema, dict):
        return None
    found = typing.cast("dict[str, object]", schema)
    if "const" in found:
        return 1
    values = found.get("enum")
    if isinstance(values, list):
        return len(typing.cast("list[object]", values))  # JSON Schema's enum values are distinct
    options = found.get("anyOf")
    if isinstance(options, list):
        counts = [distinct_values(option) for option in typing.cast("list[object]", options)]
        return None if None in counts else sum(typing.cast("list[int]", counts))
    return {"boolean": 2, "null": 1}.get(str(found.get("type")))


def _constrained(
    annotation: object,
    base: TypeSpec,
    base_type: object,
    constraints: list[tuple[str, object]],
    description: str | None,
) -> TypeSpec:
    """*base* (the spec of *base_type*) with *constraints* and *description* applied."""
    keywords = _keywords(constraints, base, base_type)
    schema = dict(base.schema)
    for keyword, value in keywords.items():
        if keyword in _BOUND_NAMES and isinstance(schema.get(keyword), (int, float)):
            # The type's own bound (a fixed tuple's length) stays where it is the stricter:
            # replaced, `Len(1, 3)` let a tuple[int, int] be sent one or three items.
            _tightened(schema, keyword, value)
        else:
            schema[keyword] = value
    if description is not None:
        schema["description"] = description
    if not keywords:
        return attrs.evolve(base, annotation=annotation, schema=schema)
    violations = [_violation(k, v) for k, v in keywords.items()]
    structure_base = base.structure
    read_check = _read_check(keywords)

    def structure(value: Any) -> Any:
        result = structure_base(value)
        for violated in violations:
            if violated(value):
                raise Reject
        if result is not value and type(result) in _READ_CHANGES:
            read_check(value, result)
        return result

    return attrs.evolve(
        base,
        annotation=annotation,
        schema=schema,
        structure=structure,
        exact_type=None,
        passthrough=(),
        shortcut=None,
        list_of=None,
        lookup=None,
    )


def _distribute(
    annotation: object,
    base_type: object,
    constraints: list[tuple[str, object]],
    description: str | None,
    builder: Builder,
) -> tuple[TypeSpec, str | None]:
    """Build ``Annotated[A | B | None, C]`` as ``Annotated[A, C] | B | None`` where C applies.

    The variants' specs are built here, not from typing forms written for them: typing (3.10 to
    3.13) caches ``Annotated[...]`` and ``Union[...]`` by equality, which would bring back forms
    built earlier with other (equal) constraint values or inner unions in another order.

    Returns:
        The union's spec, and why the constraints leave no value in any of its variants when
        they leave none (``Annotated[tuple[int, int] | tuple[str, str], MinLen(3)]``), else None.
    """
    names = {name for name, _ in constraints}
    wants_number = bool(names & _NUMBER_CONSTRAINTS.keys())
    wants_length = bool(names - _NUMBER_CONSTRAINTS.keys())
    parts: list[object] = []  # an annotation, or the spec of a constrained variant
    emptied: list[str] = []  # why each constrained variant has no value left
    # `int | float` is one Numeric variant before the constraints apply, as in the union rule:
    # constrained one by one, `2.0` would be an int (the first variant it matches).
    for arg in numbers_merged([a for a in typing.get_args(base_type) if a is not _NoneType]):
        variant = builder.spec(arg)
        fits = (not wants_number or bool(variant.json_types & _NUMBER_TYPES)) and (
            not wants_length or any(k in variant.json_types for k in _LENGTH_KEYWORDS)
        )
        if not fits:
            parts.append(arg)
            continue
        constrained = _constrained(annotation, variant, arg, constraints, None)
        parts.append(constrained)
        empty = _no_value_between(_bounds(constraints), constrained.json_types)
        empty = empty or _own_bounds_crossed(constrained, arg, constraints)
        if empty is not None:
            emptied.append(empty)
    if all(not isinstance(part, TypeSpec) for part in parts):
        msg = f"no variant of {base_type!r} accepts the constraints {sorted(names)}"
        raise UnsupportedMetadata(msg)
    variants = [part if isinstance(part, TypeSpec) else builder.spec(part) for part in parts]
    nullable = _NoneType in typing.get_args(base_type)
    union = union_spec(annotation, variants, nullable=nullable)
    reason = None
    if not nullable and len(emptied) == len(parts):  # null, or a variant left as it was, is left
        reason = f"the constraints leave no value in any variant of {label(base_type)}: " + (
            "; ".join(dict.fromkeys(emptied))
        )
    if description is not None:
        union = attrs.evolve(union, schema={**union.schema, "description": description})
    return union, reason


def _is_newtype(annotation: object) -> bool:
    return callable(annotation) and hasattr(annotation, "__supertype__")


def _newtype_rule(annotation: object, builder: Builder) -> TypeSpec:
    supertype: object = getattr(annotation, "__supertype__")  # noqa: B009
    return builder.spec(supertype)


def _is_named_type(annotation: object) -> bool:
    # Given to the registry itself (annotations are expanded as they are evaluated): a generic
    # one, or one naming itself, has no mapping (`catalog.explain_unsupported` says why).
    return (
        is_type_alias(annotation)
        and not getattr(annotation, "__type_params__", ())
        and expand_alias(annotation) is not None
    )


def _named_type_rule(annotation: object, builder: Builder) -> TypeSpec:
    return builder.spec(expand_alias(annotation))


def _named_type_shape(annotation: object, describer: Describer) -> Shape:
    return describer.shape(expand_alias(annotation))


def _annotated_shape(annotation: object, describer: Describer) -> Shape:
    # The base type's shape, narrowed by the bounds and lengths: the union tries its variants
    # in order, so `Annotated[int, Ge(0)] | Annotated[int, Lt(0)]` is no ambiguity.
    base, *metadata = typing.get_args(annotation)
    shape = describer.shape(base)
    try:
        constraints = _constraints(tuple(metadata))
    except UnsupportedMetadata:  # the spec says why; the shape is the base's
        return shape
    for name, limit in constraints:
        if isinstance(limit, bool) or not isinstance(limit, (int, float)):
            continue
        if name in _SHAPE_BOUNDS:
            shape = shape.constrained(_SHAPE_BOUNDS[name](limit), None)
        elif name == "MinLen" and isinstance(limit, int):
            shape = shape.constrained(None, (limit, math.inf))
        elif name == "MaxLen" and isinstance(limit, int):
            shape = shape.constrained(None, (0, limit))
    return shape


#: A number constraint as the values it leaves: ``(low, low included, high, high included)``.
_SHAPE_BOUNDS: Final[dict[str, Callable[[float], tuple[float, bool, float, bool]]]] = {
    "Ge": lambda limit: (limit, True, math.inf, True),
    "Gt": lambda limit: (limit, False, math.inf, True),
    "Le": lambda limit: (-math.inf, True, limit, True),
    "Lt": lambda limit: (-math.inf, True, limit, False),
}


def _newtype_shape(annotation: object, describer: Describer) -> Shape:
    return describer.shape(getattr(annotation, "__supertype__"))  # noqa: B009


ANNOTATED_RULES: Final = (
    Rule("annotated", _is_annotated, _annotated_rule, _annotated_shape),
    Rule("newtype", _is_newtype, _newtype_rule, _newtype_shape),
    Rule("type alias", _is_named_type, _named_type_rule, _named_type_shape),
)
