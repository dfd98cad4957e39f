"""The project's cattrs converter, whose hooks come from the type registry.

Every annotation the registry supports is structured and unstructured by the hooks of its
`TypeSpec`; the converter is the single place tool arguments are structured through. Importing
this module imports cattrs, so the core loads it only when a tool is first called.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cattrs

from ._types import registry
from ._typespec import Unresolved, Unsupported

__all__ = ["converter", "structure_hook", "unstructure_hook"]


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

    return hook


def _unstructure_factory(annotation: Any) -> Callable[[Any], Any]:
    return registry.spec(annotation).unstructure


#: The converter used for every tool argument. Its hooks are strict: a value that does not match
#: the annotation's JSON Schema raises `typed_toolsets._typespec.Reject`.
converter = cattrs.Converter(detailed_validation=False)
converter.register_structure_hook_factory(_supported, _structure_factory)
converter.register_unstructure_hook_factory(_supported, _unstructure_factory)


def structure_hook(annotation: object) -> Callable[[Any], Any]:
    """The one-argument structuring function the converter uses for *annotation*."""
    hook = converter.get_structure_hook(annotation)

    def structure(value: Any) -> Any:
        return hook(value, annotation)

    # The registry's own function is what the converter's hook calls; use it directly when the
    # converter did not replace it, to save a frame on the hot path.
    spec = registry.spec(annotation)
    return spec.structure if _is_registry_hook(hook) else structure


def unstructure_hook(annotation: object) -> Callable[[Any], Any]:
    """The unstructuring function the converter uses for *annotation*."""
    return converter.get_unstructure_hook(annotation)


_REGISTRY_HOOK_CODE = _structure_factory(str).__code__


def _is_registry_hook(hook: object) -> bool:
    return getattr(hook, "__code__", None) is _REGISTRY_HOOK_CODE
