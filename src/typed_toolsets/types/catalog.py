"""The process-wide type registry with the built-in rules installed, in dispatch order.

The rules themselves live by family: `annotated` (Annotated, NewType), `scalars` (scalars, enums,
literals), `formats` (the string format types), `unions`, `containers` and `structs` (object
types). Whatever no rule claims ends at the last rule here, which explains why the annotation has
no JSON Schema.
"""

from __future__ import annotations

import typing
from typing import Final

import typing_extensions

from typed_toolsets.rules.typenames import missing_parameters

from .annotated import ANNOTATED_RULES
from .containers import CONTAINER_RULES, fullname, is_bare_generic
from .formats import FORMAT_RULES
from .registry import Builder, Rule, TypeRegistry, registry, unknown_shape
from .scalars import SCALAR_RULES
from .structs import STRUCT_RULES
from .typespec import TypeSpec, Unsupported
from .unions import UNION_RULES
from .usertypes import register_type

__all__ = ["BUILTIN_RULES", "explain_unsupported", "register_type", "registry"]

_TYPING_CALLABLE: Final[object] = getattr(typing, "Callable")  # noqa: B009 - the bare alias


def explain_unsupported(annotation: object) -> str:
    """Say why *annotation* has no JSON Schema, and what to use instead."""
    if annotation is typing.Any or annotation is typing_extensions.Any:
        return "Any has no JSON Schema; use a concrete type"
    if annotation is object:
        return "object has no JSON Schema; use a concrete type"
    if annotation is bytes or annotation is bytearray or annotation is memoryview:
        return "bytes cannot be sent as JSON; use str (for example base64 text)"
    if isinstance(annotation, typing.TypeVar):
        return f"the type variable {annotation!r} has no JSON Schema"
    origin = typing.get_origin(annotation)
    if fullname(origin) == "collections.abc.Callable" or annotation is _TYPING_CALLABLE:
        return "callables have no JSON Schema"
    if is_bare_generic(annotation):
        name = getattr(annotation, "__name__", repr(annotation))
        return missing_parameters(fullname(typing.get_origin(annotation) or annotation), name)
    if isinstance(annotation, str):
        return f"the annotation {annotation!r} is still a string; it could not be resolved"
    if isinstance(origin, type) and any(rule.predicate(origin) for rule in STRUCT_RULES):
        # `Page[int]`: the struct rules take classes, not their parameterisations.
        return f"{origin.__qualname__!r} is generic; generic structs are not supported"
    if isinstance(annotation, type):
        return (
            f"{annotation.__qualname__!r} is not an attrs class, dataclass, TypedDict, NamedTuple, "
            "enum or supported builtin type; use one of those, or register it with "
            "typed_toolsets.register_type()"
        )
    return f"{annotation!r} has no JSON Schema mapping"


def _unsupported_rule(annotation: object, _builder: Builder) -> TypeSpec:
    raise Unsupported(explain_unsupported(annotation))


def _always(_annotation: object) -> bool:
    return True


BUILTIN_RULES: Final = (
    *ANNOTATED_RULES,
    *SCALAR_RULES,
    *FORMAT_RULES,
    *UNION_RULES,
    *CONTAINER_RULES,
    *STRUCT_RULES,
    Rule("unsupported", _always, _unsupported_rule, unknown_shape),
)


def _install(target: TypeRegistry) -> None:
    for rule in BUILTIN_RULES:
        target.add_builtin(rule)


_install(registry)
