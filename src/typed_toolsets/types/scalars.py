"""Registry rules for scalars, enums and literals.

Scalars are str, int, float, bool, None and Numeric; the string formats (dates, UUIDs) have their
own rule in `formats`.
"""

from __future__ import annotations

import enum
import math
import numbers
import typing
from collections.abc import Callable
from typing import Any, Final, Literal

import attrs
import typing_extensions

from typed_toolsets.rules import reasons
from typed_toolsets.rules.flags import MAX_FLAG_VALUES, flag_values
from typed_toolsets.rules.labels import literal_label, safe_repr, value_text
from typed_toolsets.rules.shapes import Shape
from typed_toolsets.rules.typenames import scalar_kinds

from . import docstrings
from .containers import fullname
from .registry import Builder, Describer, Rule, unknown_shape
from .typespec import (
    LONG_INT,
    NoJSONFormError,
    Reject,
    Schema,
    TypeSpec,
    Unsupported,
    check_float,
    instance_of,
)

__all__ = ["SCALAR_RULES", "class_description", "numeric_spec", "scalar_spec"]

_NoneType: Final = type(None)


def class_description(cls: type, generated: str | None = None) -> str | None:
    """The description written in a class body's docstring, ignoring generated docstrings."""
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str) or doc == generated:
        return None
    return docstrings.description_text(doc)


# --------------------------------------------------------------------------------------- scalars


def _structure_str(value: Any) -> Any:
    if type(value) is not str:
        raise Reject
    return value


def _structure_bool(value: Any) -> Any:
    if type(value) is not bool:
        raise Reject
    return value


def _structure_none(value: Any) -> Any:
    if value is not None:
        raise Reject
    return value


def _structure_int(value: Any) -> Any:
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        check_float(value)
        return int(value)
    raise Reject


def _structure_float(value: Any) -> Any:
    if type(value) is float:
        return value
    if type(value) is int:
        return float(value)
    raise Reject


def _structure_number(value: Any) -> Any:
    if type(value) is int:
        return value
    if type(value) is float:
        check_float(value)
        return value
    raise Reject


def _identity(value: Any) -> Any:
    return value


def _unstructure_number(value: Any) -> Any:
    if type(value) is int:
        return value
    if not isinstance(value, float) or not math.isfinite(value):
        msg = reasons.not_finite(safe_repr(value))
        raise NoJSONFormError(msg)
    # A subclass (numpy's float64, a float-mixin enum member) as the plain float it holds.
    return value if type(value) is float else float.__float__(value)


def _unstructure_exact(kind: type, what: str) -> Callable[[Any], Any]:
    # A subclass's value as the plain kind: an IntEnum or str-mixin enum member (a default of an
    # ``int`` or ``str`` parameter, or of a union variant) has the JSON form of its plain value.
    plain: Callable[[Any], Any] = int.__int__ if kind is int else str.__str__  # (no bool subclass)

    def unstructure(value: Any) -> Any:
        if type(value) is kind:
            return value
        if not isinstance(value, kind) or (kind is int and type(value) is bool):
            msg = reasons.not_a(safe_repr(value), what)
            raise NoJSONFormError(msg)
        return plain(value)

    return unstructure


def _scalar(
    annotation: object,
    json_type: str,
    structure: Callable[[Any], Any],
    unstructure: Callable[[Any], Any],
    instance_check: Callable[[Any], bool],
) -> TypeSpec:
    """The spec of a JSON scalar: hashable values of one JSON type."""
    return TypeSpec(
        annotation=annotation,
        schema={"type": json_type},
        structure=structure,
        unstructure=unstructure,
        json_types=frozenset({json_type}),
        hashable=True,
        instance_check=instance_check,
    )


def _kept(
    annotation: object,
    kind: type,
    json_type: str,
    structure: Callable[[Any], Any],
    unstructure: Callable[[Any], Any],
) -> TypeSpec:
    """The spec of a scalar whose valid JSON values are exactly the Python values, kept as is."""
    return attrs.evolve(
        _scalar(annotation, json_type, structure, unstructure, instance_of(kind)),
        exact_type=kind,
        passthrough=(kind,),
        identity=True,
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and type(value) is not bool


def _is_float(value: object) -> bool:
    # An int is a float's value too (PEP 484's numeric tower, and JSON's 1 for a number), as
    # `_unstructure_number` takes it: a union's variant is picked by this check, so without the
    # int `x: float | None = 0` was refused as a default matching no variant.
    return isinstance(value, float) or type(value) is int


def _make_scalars() -> dict[object, TypeSpec]:
    return {
        str: _kept(str, str, "string", _structure_str, _unstructure_exact(str, "a str")),
        bool: _kept(bool, bool, "boolean", _structure_bool, _unstructure_exact(bool, "a bool")),
        int: attrs.evolve(
            _scalar(int, "integer", _structure_int, _unstructure_exact(int, "an int"), _is_int),
            shortcut=int,
        ),
        float: attrs.evolve(
            _scalar(float, "number", _structure_float, _unstructure_number, _is_float),
            shortcut=float,
        ),
        _NoneType: _kept(None, _NoneType, "null", _structure_none, _identity),
    }


_SCALARS: Final = _make_scalars()


def scalar_spec(kind: object) -> TypeSpec:
    """The spec of ``str``, ``int``, ``float``, ``bool`` or ``None``."""
    return _SCALARS[_NoneType if kind is None else kind]


def numeric_spec(annotation: object) -> TypeSpec:
    """``numbers.Real`` and ``int | float``: any JSON number, kept as parsed (2 stays int)."""
    return attrs.evolve(
        _scalar(
            annotation,
            "number",
            _structure_number,
            _unstructure_number,
            lambda v: isinstance(v, (int, float)) and type(v) is not bool,
        ),
        identity=True,
        shortcut=int,  # an int is never ambiguous: kept as parsed
    )


def _is_scalar(annotation: object) -> bool:
    if annotation is None or annotation is numbers.Real:
        return True
    try:
        return annotation in _SCALARS
    except TypeError:  # unhashable annotation
        return False


def _scalar_rule(annotation: object, _builder: Builder) -> TypeSpec:
    if annotation is numbers.Real:
        return numeric_spec(annotation)
    return scalar_spec(annotation)


def _scalar_shape(annotation: object, describer: Describer) -> Shape:
    # The JSON kinds are the plugin's table (float admits integral numbers too).
    kinds = scalar_kinds(fullname(_NoneType if annotation is None else annotation))
    return Shape.scalar(describer.label(annotation), kinds or frozenset())


# ------------------------------------------------------------------------------ enums and literals


def _encodes(text: str) -> bool:
    """Whether *text* has a UTF-8 form (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json_scalar_type(value: object) -> str:
    if value is None:
        return "null"
    if type(value) is bool:
        return "boolean"
    if isinstance(value, str) and _encodes(value):  # a lone surrogate: no JSON text holds it
        return "string"
    if isinstance(value, int) and -LONG_INT < value < LONG_INT:  # JSON text of 4,300 digits at most
        return "integer"
    if isinstance(value, float) and math.isfinite(value):
        return "number"
    # An enum's members are checked first: a value here is a Literal's.
    msg = reasons.literal_value(f"Literal[{value_text(value)}]", is_bytes=isinstance(value, bytes))
    raise Unsupported(msg)


def plain_json(value: object) -> object:
    """A JSON scalar as a plain value (enum values may be str or int subclasses)."""
    if value is None or type(value) is bool:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value


def _constants_spec(
    annotation: object,
    values: list[object],
    results: list[object],
    description: str | None,
    instance_check: Callable[[Any], bool],
    unstructure: Callable[[Any], Any],
    *,
    one_as_const: bool,
) -> TypeSpec:
    """The spec of a closed set of JSON values (an enum's, a literal's).

    Its schema is ``{"enum": [...]}``, with ``"type"`` when the values share one JSON type
    (integers and floats as ``"number"``); with *one_as_const*, a single value is ``{"const": v}``.
    """
    json_types = {_json_scalar_type(v) for v in values}
    plain = [plain_json(v) for v in values]
    # Booleans are looked up apart from numbers: JSON `true` is not `1`, but Python says True == 1.
    by_bool: dict[object, object] = {}
    by_other: dict[object, object] = {}
    accepted: set[type] = set()
    for value, result in zip(plain, results, strict=True):
        if type(value) is bool:
            by_bool.setdefault(value, result)
            accepted.add(bool)
        else:
            by_other.setdefault(value, result)
            accepted.update((int, float) if isinstance(value, (int, float)) else (type(value),))

    def structure(value: Any) -> Any:
        kind: type[Any] = type(value)  # pyright: ignore[reportUnknownVariableType]
        if kind not in accepted:
            raise Reject
        if kind is float:
            check_float(value)
        table = by_bool if kind is bool else by_other
        try:
            return table[value]
        except KeyError:
            raise Reject from None

    schema: Schema
    if len(plain) == 1 and one_as_const:
        schema = {"const": plain[0]}
    else:
        schema = {}
        if len(json_types) == 1:
            schema["type"] = next(iter(json_types))
        elif json_types == {"integer", "number"}:
            schema["type"] = "number"
        schema["enum"] = plain
    if description:
        schema["description"] = description
    if "integer" in json_types:
        json_types.add("number")
    strings_only = not by_bool and all(type(v) is str for v in by_other)
    return TypeSpec(
        annotation=annotation,
        lookup=typing.cast("dict[str, object]", by_other) if strings_only else None,
        schema=schema,
        structure=structure,
        unstructure=unstructure,
        json_types=frozenset(json_types),
        hashable=True,
        constants=tuple(plain),
        instance_check=instance_check,
    )


def _is_enum(annotation: object) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, enum.Enum)


def _enum_rule(annotation: object, _builder: Builder) -> TypeSpec:
    cls = typing.cast("type[enum.Enum]", annotation)
    members = list(cls)
    if not members:
        msg = reasons.no_members(cls.__qualname__)
        raise Unsupported(msg)
    for member in members:
        try:
            _json_scalar_type(member.value)
        except Unsupported:
            msg = reasons.enum_value(cls.__qualname__, member.name, value_text(member.value))
            raise Unsupported(msg) from None

    def unstructure(value: Any) -> Any:
        if not isinstance(value, cls):
            msg = f"{safe_repr(value)} is not a member of {cls.__qualname__}"
            raise NoJSONFormError(msg)
        return plain_json(value.value)

    generated = "An enumeration."  # Python 3.10 gives every undocumented Enum this docstring
    chosen = _flag_results(cls) if issubclass(cls, enum.Flag) else members
    return _constants_spec(
        cls,
        [m.value for m in chosen],
        list[object](chosen),
        class_description(cls, generated),
        lambda v: isinstance(v, cls),
        unstructure,
        one_as_const=False,  # an enum is always an "enum", however many members it has
    )


def _flag_results(cls: type[enum.Flag]) -> list[enum.Enum]:
    """Every value of a Flag (`flag_values`): its members' and their combinations.

    Read from ``__members__``, which holds the members of more than one bit and of no bit that
    iteration leaves out (from Python 3.11), so that every Python lists the same values.
    """
    values = [member.value for member in cls.__members__.values()]
    if not all(type(v) is int and v >= 0 for v in values):  # an IntFlag's values are plain ints
        return list(cls)  # not values that combine as bits: the members alone, as for an Enum
    combined = flag_values(values)
    if combined is None:
        raise Unsupported(reasons.flag_values(cls.__qualname__, MAX_FLAG_VALUES))
    return [cls(value) for value in combined]


def _constants_shape(annotation: object, describer: Describer) -> Shape:
    constants = describer.spec(annotation).constants
    if constants is None:  # pragma: no cover - both rules' specs list their constants
        return unknown_shape(annotation, describer)
    return Shape.constants_of(describer.label(annotation), constants)


def literal_of(value: object) -> object:
    """``Literal[value]``, for a value known only at run time."""
    return Literal.__getitem__(value)  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType]


def _literal_shape(annotation: object, describer: Describer) -> Shape:
    values = typing.get_args(annotation)
    constants = describer.spec(annotation).constants
    if len(values) < 2 or constants is None:
        return _constants_shape(annotation, describer)
    # mypy reads Literal[a, b] as Literal[a] | Literal[b], the same shape here: two values read
    # from one JSON value (Literal[Color.RED, "red"]) are then found, as the plugin finds them.
    # The spec of the whole gives each value's JSON form: no spec is built per value.
    return Shape.union(
        describer.label(annotation),
        tuple(
            Shape.constants_of(literal_label((v,)), (c,))
            for v, c in zip(values, constants, strict=True)
        ),
    )


def is_literal(annotation: object) -> bool:
    """Whether *annotation* is a ``Literal`` (of typing or typing_extensions)."""
    return typing.get_origin(annotation) in (Literal, typing_extensions.Literal)


def _literal_rule(annotation: object, _builder: Builder) -> TypeSpec:
    results: list[object] = list(typing.get_args(annotation))
    if not results:
        raise Unsupported(reasons.EMPTY_LITERAL)
    values = [r.value if isinstance(r, enum.Enum) else r for r in results]
    for value in values:
        _json_scalar_type(value)

    # Keyed by type too: True == 1, and Literal[1] does not take True.
    json_of: dict[tuple[type, object], object] = {}
    for result, json_value in zip(results, values, strict=True):
        json_of.setdefault((type(result), result), plain_json(json_value))

    def key(value: object) -> tuple[type, object] | None:
        try:
            found = (type(value), value)
            return found if found in json_of else None
        except Exception:  # noqa: BLE001 - a value that cannot be hashed is none of the literal's
            return None

    def check(value: Any) -> bool:
        return key(value) is not None

    def unstructure(value: Any) -> Any:
        found = key(value)
        if found is not None:
            return json_of[found]
        msg = f"{safe_repr(value)} is not one of {safe_repr(results)}"
        raise NoJSONFormError(msg)

    return _constants_spec(annotation, values, results, None, check, unstructure, one_as_const=True)


SCALAR_RULES: Final = (
    Rule("scalar", _is_scalar, _scalar_rule, _scalar_shape),
    Rule("enum", _is_enum, _enum_rule, _constants_shape),
    Rule("literal", is_literal, _literal_rule, _literal_shape),
)
