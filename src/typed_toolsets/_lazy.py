"""A package's public names, each imported from its module on first use.

Standard library only, and nothing heavy: ``import typed_toolsets`` loads it.
"""

from __future__ import annotations

import importlib
import typing
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    namespace: dict[str, Any],
    where: Mapping[str, str],
    missing: Callable[[ModuleNotFoundError], Exception | None] | None = None,
) -> Callable[[str], Any]:
    """A package's module ``__getattr__``: each public name imported from its module on first use.

    Args:
        namespace: The package's globals (its ``__name__`` anchors *where*'s relative modules);
            a name loaded is kept there, so it is looked up once.
        where: The module defining each name (``".definition.declarations"``).
        missing: Given an optional dependency's absence, the error to raise instead (None: the
            import error itself).
    """
    package = typing.cast("str", namespace["__name__"])

    def load(name: str) -> Any:
        module = where.get(name)
        if module is None:
            msg = f"module {package!r} has no attribute {name!r}"
            raise AttributeError(msg)
        try:
            value = getattr(importlib.import_module(module, package), name)
        except ModuleNotFoundError as exc:
            instead = missing(exc) if missing is not None else None
            if instead is None:
                raise
            raise instead from exc
        namespace[name] = value
        return value

    return load
