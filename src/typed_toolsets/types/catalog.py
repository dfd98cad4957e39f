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

from typed_toolsets.rules import reasons

from .annotated import ANNOTATED_RULES
from .containers import CONTAINER_RULES, fullname, is_bare_generic
from .formats import FORMAT_RULES
from .hints import is_type_alias
from .registry import Builder, Rule, TypeRegistry, registry, unknown_shape
from .scalars import SCALAR_RULES
from .structs import STRUCT_RULES
from .typespec import TypeSpec, Unsupported
from .unions import UNION_RULES
from .usertypes import register_type

__all__ = ["BUILTIN_RULES", "explain_unsupported", "register_type", "registry"]

_TYPING_CALLABLE: Final[object] = getattr(typing, "Callable")  # noqa: B009 - the bare alias
# Looked up by name: Python 3.10's typing has neither Never nor LiteralString.
_NEVER: Final[tuple[object, ...]] = (
    typing.NoReturn,
    getattr(typing, "Never", typing.NoReturn),
    typing_extensions.Never,
)
_LITERAL_STRING: Final[tuple[object, ...]] = (
    getattr(typing, "LiteralString", typing_extensions.LiteralString),
    typing_extensions.LiteralString,
)


# Looked up by name: Python 3.10's typing has no Self, and TypeIs came in 3.13.
_EXTENSIONS_SELF: Final = typing.cast(object, getattr(typing_extensions, "Self"))  # noqa: B009
_SELF: Final[tuple[object, ...]] = (getattr(typing, "Self", _EXTENSIONS_SELF), _EXTENSIONS_SELF)
_TYPE_PREDICATES: Final[tuple[object, ...]] = (
    typing.TypeGuard,
    typing_extensions.TypeGuard,
    getattr(typing, "TypeIs", typing_extensions.TypeIs),
    typing_extensions.TypeIs,
)


def explain_unsupported(annotation: object) -> str:
    """Say why *annotation* has no JSON Schema, and what to use instead."""
    if annotation is typing.Any or annotation is typing_extensions.Any:
        return reasons.ANY
    if annotation is object:
        return reasons.OBJECT
    if annotation is type or typing.get_origin(annotation) is type:
        return reasons.CLASSES
    if annotation in _NEVER:
        return reasons.NEVER
    if annotation in _LITERAL_STRING:
        return reasons.LITERAL_STRING
    if annotation in _SELF:  # as mypy sees it: a TypeVar bound to the class
        return reasons.type_variable("Self")
    if typing.get_origin(annotation) in _TYPE_PREDICATES:
        return reasons.TYPE_PREDICATE
    if annotation is bytes or annotation is bytearray or annotation is memoryview:
        return reasons.BYTES
    if isinstance(annotation, typing.TypeVar):
        return reasons.type_variable(annotation.__name__)
    if isinstance(annotation, typing.ForwardRef):
        # Left in an annotation already resolved: a string alias naming itself, which Python
        # evaluates one level deep (`Json: TypeAlias = "dict[str, Json] | ..."`).
        return reasons.RECURSIVE_ALIAS
    origin = typing.get_origin(annotation)
    if fullname(origin) == "collections.abc.Callable" or annotation is _TYPING_CALLABLE:
        return reasons.CALLABLES
    if is_bare_generic(annotation):
        name = getattr(annotation, "__name__", repr(annotation))
        return reasons.missing_parameters(
            fullname(typing.get_origin(annotation) or annotation), name
        )
    if isinstance(annotation, str):
        return f"the annotation {annotation!r} is still a string; it could not be resolved"
    alias = annotation if is_type_alias(annotation) else origin
    if is_type_alias(alias):
        # Left by `types.hints` (and the "type alias" rule): one with type parameters, or one
        # naming itself.
        if getattr(alias, "__type_params__", ()):
            return reasons.GENERIC_TYPE_ALIAS
        return reasons.RECURSIVE_ALIAS
    if isinstance(origin, type) and any(rule.predicate(origin) for rule in STRUCT_RULES):
        # `Page[int]`: the struct rules take classes, not their parameterisations.
        return reasons.generic_struct(origin.__qualname__)
    if isinstance(annotation, type):
        return reasons.not_a_struct(annotation.__qualname__)
    if isinstance(origin, type):  # `Iterable[int]`: said of the class, as the plugin says it
        return reasons.not_a_struct(origin.__qualname__)
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
