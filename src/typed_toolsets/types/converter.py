"""The project's cattrs converter, whose hooks come from the type registry.

Every annotation the registry supports is structured and unstructured by the hooks of its
`TypeSpec`: strict (no coercion of ``"5"`` to ``5`` or ``2.5`` to ``2``), and the same hooks the
schema was built with. Tool arguments are structured through this converter. Importing this module
imports cattrs, so the core loads it only when a tool is first called.
"""

from __future__ import annotations

import threading
import typing
from collections.abc import Callable, Hashable
from typing import Any, Final

import cattrs

from .bounded import keep_recent
from .catalog import registry
from .typespec import TypeSpec, Unresolved, Unsupported

__all__ = ["converter", "structure_hook", "unstructure_hook"]

#: Marks hooks that delegate to the registry, so callers can use the spec's function directly.
_MARK: Final = "__typed_toolsets_hook__"


def _supported(annotation: Any) -> bool:
    try:
        registry.spec(annotation)
    except (Unsupported, Unresolved):
        return False
    except Exception:  # noqa: BLE001 - cattrs asks about objects that are no annotation at all
        return False
    return True


def _structure_factory(annotation: Any) -> Callable[[Any, Any], Any]:
    structure = registry.spec(annotation).structure

    def hook(value: Any, _annotation: Any) -> Any:
        return structure(value)

    setattr(hook, _MARK, True)
    return hook


def _structure_by_type(value: Any, annotation: Any) -> Any:
    # Registered for the classes cattrs handles by class dispatch (str, int, float, bool), which
    # would otherwise win over the registry's factory and coerce.
    return registry.spec(annotation).structure(value)


def _unstructure_factory(annotation: Any) -> Callable[[Any], Any]:
    return registry.spec(annotation).unstructure


setattr(_structure_by_type, _MARK, True)

#: The converter used for every tool argument. Its hooks are strict: a value that does not match
#: the annotation's JSON Schema raises `typed_toolsets.types.typespec.Reject`.
converter = cattrs.Converter(detailed_validation=False)
converter.register_structure_hook_factory(_supported, _structure_factory)
converter.register_unstructure_hook_factory(_supported, _unstructure_factory)
for _scalar in (str, int, float, bool):
    converter.register_structure_hook(_scalar, _structure_by_type)
    converter.register_unstructure_hook(_scalar, registry.spec(_scalar).unstructure)


class _HookCache:
    """cattrs' cache of the hook found for each type, which a `register_type` cannot leave stale.

    cattrs caches with `functools.lru_cache`: a hook found from a type's old spec while another
    thread registers the type would be stored after the registration cleared the cache, and
    used for good. Here a hook found before the last clearing is used once, not stored.
    """

    def __init__(self, find: Callable[[Any], Any]) -> None:
        self._find = find
        self._hooks: dict[Hashable, Any] = {}
        self._cleared = 0
        self._lock = threading.Lock()

    def __call__(self, annotation: Hashable) -> Any:
        try:
            return self._hooks[annotation]
        except KeyError:
            pass
        cleared = self._cleared
        hook = self._find(annotation)
        with self._lock:
            if cleared == self._cleared:
                self._hooks[annotation] = hook
                keep_recent(self._hooks)
        return hook

    def cache_clear(self) -> None:
        """Forget every hook, and any being found now (cattrs calls it on each new hook)."""
        with self._lock:
            self._cleared += 1
            self._hooks.clear()


for _dispatch in (converter._structure_func, converter._unstructure_func):  # pyright: ignore[reportPrivateUsage]
    # In place of its lru_cache, around the function that cache wraps (`__wrapped__`:
    # `dispatch_without_caching`). cattrs types the attribute as taking the converter too, but
    # calls it, and clears it, as a cache of that function.
    _uncached = getattr(_dispatch.dispatch, "__wrapped__", None)
    if _uncached is not None:
        typing.cast("Any", _dispatch).dispatch = _HookCache(_uncached)


def _forget_hooks() -> None:
    # cattrs caches the hook it dispatched to for each type, and a factory's hook holds the spec
    # it was made from: both must go when `register_type` changes what a type is.
    converter._structure_func.clear_cache()  # pyright: ignore[reportPrivateUsage]
    converter._unstructure_func.clear_cache()  # pyright: ignore[reportPrivateUsage]


registry.on_new_rule(_forget_hooks)


def structure_hook(annotation: object, spec: TypeSpec | None = None) -> Callable[[Any], Any]:
    """The one-argument structuring function the converter uses for *annotation*.

    When the converter's hook is the registry's (the default), that is the spec's own function
    (*spec*'s when given: the strict form's); a hook registered on the converter by hand is
    honoured.
    """
    if not _hashable(annotation):  # cattrs dispatches by a dict: no hook of its own is there
        return (registry.spec(annotation) if spec is None else spec).structure
    hook = converter.get_structure_hook(annotation)
    if getattr(hook, _MARK, False):
        return (registry.spec(annotation) if spec is None else spec).structure

    def structure(value: Any) -> Any:
        return hook(value, annotation)

    return structure


def unstructure_hook(annotation: object) -> Callable[[Any], Any]:
    """The unstructuring function the converter uses for *annotation*."""
    if not _hashable(annotation):  # as in `structure_hook`
        return registry.spec(annotation).unstructure
    return converter.get_unstructure_hook(annotation)


def _hashable(annotation: object) -> bool:
    """Whether cattrs can dispatch on *annotation*: it looks hooks up in dicts.

    A class whose metaclass has ``__eq__`` and no ``__hash__`` cannot be a key, nor can an
    ``Annotated`` with a dict in its metadata.
    """
    try:
        hash(annotation)
    except TypeError:
        return False
    return True
