"""Why an annotation (or a default) has no JSON form: each reason written once, for both sides.

The type registry (`typed_toolsets.types`) and the mypy plugin judge annotations apart, from
Python objects and from mypy's types, but say the same thing in the same words: a problem's
reason comes from here, given the names as each side shows them.

Standard library only: the mypy plugin imports this module on every run.
"""

from __future__ import annotations

from typing import Final

from .typenames import MAPPING_ORIGINS

__all__ = [
    "ANY",
    "BYTES",
    "CALLABLES",
    "CLASSES",
    "EMPTY_LITERAL",
    "GENERIC_TYPE_ALIAS",
    "LITERAL_STRING",
    "NEVER",
    "OBJECT",
    "OMITTED_PARAMETERS",
    "RECURSIVE_ALIAS",
    "TYPE_PREDICATE",
    "field_none_default",
    "field_reason",
    "enum_value",
    "flag_values",
    "generic_struct",
    "init_var_field",
    "literal_value",
    "missing_parameters",
    "no_members",
    "no_variant",
    "not_a",
    "not_finite",
    "not_a_struct",
    "str_keys",
    "type_variable",
    "unannotated_field",
    "wrong_parameters",
]

ANY: Final = "Any has no JSON Schema; use a concrete type"
OBJECT: Final = "object has no JSON Schema; use a concrete type"
BYTES: Final = "bytes cannot be sent as JSON; use str (for example base64 text)"
CALLABLES: Final = "callables have no JSON Schema"
RECURSIVE_ALIAS: Final = "recursive type aliases are not supported; use a recursive attrs class"
#: An alias made with the ``type`` statement (or ``TypeAliasType``) that takes type parameters;
#: one without them stands for the type it names.
GENERIC_TYPE_ALIAS: Final = "generic type aliases are not supported; write the type it names"
#: Only the plugin says it: mypy fills a generic's omitted parameters in with ``Any`` where the
#: run time sees the bare generic (`missing_parameters`, with its name).
OMITTED_PARAMETERS: Final = "a generic type needs its type parameters (for example list[str])"
CLASSES: Final = "classes (type[...]) have no JSON Schema"
UNPACKED_TUPLE: Final = (
    "a tuple of any length unpacked in a tuple (*tuple[X, ...]) has no JSON Schema; write "
    "tuple[X, ...] for any number of items, or list each item: tuple[A, B]"
)
NEVER: Final = "Never has no JSON Schema"
#: Only the run time can tell (mypy reads ``LiteralString`` as ``str``).
LITERAL_STRING: Final = (
    "LiteralString is a string written in the source code, and a model's arguments never are; "
    "use str, and check the value in the method"
)


#: Only the run time can tell (mypy reads ``TypeGuard[T]`` and ``TypeIs[T]`` as ``bool``).
TYPE_PREDICATE: Final = (
    "TypeGuard and TypeIs annotate what a type predicate returns, a bool; use bool"
)


def type_variable(shown: str) -> str:
    """The reason a type variable (*shown* as the message writes it) has no schema."""
    return f"the type variable {shown} has no JSON Schema"


def str_keys(key: str) -> str:
    """The reason a mapping whose key type (*key*, as shown) is not ``str`` has no schema."""
    # True of a key type whose values are strings too (``Literal["a"]``, a str enum): none but
    # str is read as a key.
    return (
        "only str keys are supported, as JSON object keys are strings; use dict[str, ...] and "
        f"convert or check the keys in the method (got {key})"
    )


#: Why ``Literal[()]`` has no schema: it lists no value (only the runtime sees it; mypy refuses
#: the annotation itself).
EMPTY_LITERAL: Final = "a Literal with no values admits nothing a model can send; list at least one"


def generic_struct(name: str) -> str:
    """The reason a parameterised struct (``Page[int]``, its class named *name*) has no schema."""
    return f"{name!r} is generic; generic structs are not supported"


def no_members(name: str) -> str:
    """The reason an enum without members (named *name*) has no schema."""
    return f"enum {name!r} has no members"


def not_a_struct(name: str) -> str:
    """The reason a class named *name* that no rule knows has no schema."""
    return (
        f"{name!r} is not an attrs class, dataclass, TypedDict, NamedTuple, enum or supported "
        "builtin type; use one of those, or register it with typed_toolsets.register_type() "
        "(and, for the mypy plugin, list it under registered_types in its config)"
    )


def literal_value(literal: str, *, is_bytes: bool) -> str:
    """The reason a ``Literal`` (*literal*, as shown) whose value JSON cannot hold has no schema."""
    if is_bytes:
        return f"the literal {literal} is bytes; JSON has no bytes"
    return f"the literal {literal} is not a JSON string, number, boolean or null"


def flag_values(enum: str, limit: int) -> str:
    """The reason a Flag whose members combine into more than *limit* values has no schema."""
    return (
        f"enum {enum!r} is a Flag whose members combine into more than {limit:,} values, too "
        "many for a JSON enum to list; use a set of an Enum's members (frozenset[...]) instead"
    )


def enum_value(enum: str, member: str, value: str | None) -> str:
    """The reason an enum with a *member* whose value JSON cannot hold has no schema.

    Args:
        enum: The enum's name as the message shows it.
        member: The member's name.
        value: Its value as Python writes it, when known (the plugin may not know it).
    """
    written = "" if value is None else f" {value}"
    return (
        f"enum {enum!r} has the member {member!r}, whose value{written} is not a JSON string, "
        "number, boolean or null"
    )


def missing_parameters(fullname: str, name: str) -> str:
    """The reason a generic written without its type parameters (``dict``) has no schema.

    Args:
        fullname: The generic's fully qualified name (``builtins.dict``, ``typing.Mapping``).
        name: Its name as the message shows it.
    """
    return f"{name} needs its type parameters (for example {_example(fullname, name)})"


def wrong_parameters(fullname: str, name: str, given: int) -> str:
    """The reason a list, set or dict given too many or too few type parameters has no schema.

    Args:
        fullname: The generic's fully qualified name (``builtins.dict``, ``typing.Mapping``).
        name: Its name as the message shows it.
        given: How many it was given (``dict[str]``: 1).
    """
    takes = "two type parameters" if fullname in MAPPING_ORIGINS else "one type parameter"
    return f"{name} takes {takes}, not {given} (for example {_example(fullname, name)})"


def _example(fullname: str, name: str) -> str:
    if fullname in MAPPING_ORIGINS:
        return f"{name}[str, int]"
    if fullname in ("builtins.tuple", "typing.Tuple"):
        return f"{name}[int, ...]"
    return f"{name}[str]"


def field_reason(field: str, reason: str) -> str:
    """A struct's *field* (``Class.name``) has no schema, for *reason*: the struct has none."""
    return f"field {field}: {reason}"


def unannotated_field(field: str) -> str:
    """The reason a struct with an unannotated *field* (``Class.name``) has no schema."""
    return f"field {field} has no type annotation"


def init_var_field(struct: str, name: str) -> str:
    """The reason a dataclass (*struct*, as shown) with an ``InitVar`` *name* has no schema."""
    return f"dataclass {struct} has the InitVar field {name!r} (not supported)"


def field_none_default(field: str, type_label: str) -> str:
    """The reason a struct with a field defaulting to None whose type refuses null has no schema.

    Args:
        field: The field as the message shows it (``Class.name``).
        type_label: Its type as the message shows it.
    """
    return (
        f"field {field} defaults to None but its type {type_label} does not admit null; add "
        "`| None` to its annotation (a None default does not make a field nullable)"
    )


# ----------------------------------------------------- why a default has no JSON form (its type)


def not_a(value: str, what: str) -> str:
    """Why *value* (as shown) is no default of a plain type: ``True is not an int``."""
    return f"{value} is not {what}"


def not_finite(value: str) -> str:
    """Why *value* (as shown) is no default of ``float``: ``False is not a finite number``."""
    return f"{value} is not a finite number"


def no_variant(value: str, union: str) -> str:
    """Why *value* (as shown) is no default of the union *union* (as shown)."""
    return f"none of the variants of {union} takes {value}"
