"""Public classes carry the package's name: ``typed_toolsets.ToolError``, as httpx does.

A class defined in an internal module and re-exported by `typed_toolsets` gets
``__module__ = "typed_toolsets"``, so reprs, tracebacks and pickles name it where users import it
from (pickle finds it again through the package's lazy attributes).

Its annotations keep being read where they were written. `typing.get_type_hints` (and
`attrs.resolve_types`, which calls it) evaluates a string annotation in the namespace of the
class's ``__module__``: the package's, which loads names lazily and holds none of them. So each
string annotation becomes a `typing.ForwardRef` bound to the defining module, which typing
evaluates there instead.

Standard library only; every layer may use it.
"""

from __future__ import annotations

import inspect
import typing
from typing import Final, TypeVar

__all__ = ["PACKAGE", "public", "public_in"]

#: The module public classes name.
PACKAGE: Final = "typed_toolsets"

_C = TypeVar("_C", bound=type)


def public(cls: _C) -> _C:
    """Give *cls* its public module, keeping its annotations resolvable (a class decorator).

    Apply it outermost, after ``attrs.define`` and friends: they read the annotations as written.
    """
    return public_in(PACKAGE)(cls)


def public_in(package: str) -> typing.Callable[[_C], _C]:
    """`public`, for a class whose public module is the subpackage *package* that exports it.

    For ``typed_toolsets.agent.ReAct`` and the like: *package* must export the class under its
    own name, since pickle looks it up there.
    """

    def publish(cls: _C) -> _C:
        module = cls.__module__
        cls.__annotations__ = {
            name: _bound(value, module) for name, value in inspect.get_annotations(cls).items()
        }
        cls.__module__ = package
        return cls

    return publish


def _bound(annotation: object, module: str) -> object:
    """*annotation*, a string or unbound `typing.ForwardRef` read in *module* wherever it is.

    A `NamedTuple` turns its string annotations into forward references itself, bound to no
    module: read in the package's namespace they would find only what it happens to import.
    """
    if isinstance(annotation, typing.ForwardRef):
        if annotation.__forward_module__ is not None:
            return annotation
        annotation = annotation.__forward_arg__
    if isinstance(annotation, str):
        return typing.ForwardRef(annotation, is_argument=False, module=module, is_class=True)
    return annotation
