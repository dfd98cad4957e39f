"""The structuring function of an annotation, without loading cattrs when nothing needs it.

The project's cattrs converter (`typed_toolsets.types.converter`) honours hooks that users
register on it by hand; its default hooks are the registry's own functions. A hook can only have
been registered on the converter once its module is loaded, so until then the registry's
function is what the converter would give, and cattrs (a large import) waits until a caller
actually uses the converter.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Final

from .catalog import registry
from .typespec import TypeSpec

__all__ = ["structure_hook"]

_CONVERTER: Final = "typed_toolsets.types.converter"


def structure_hook(annotation: object, spec: TypeSpec | None = None) -> Callable[[Any], Any]:
    """The one-argument structuring function the converter would use for *annotation*.

    As `typed_toolsets.types.converter.structure_hook`: the spec's own function (*spec*'s when
    given: the strict form's) unless a hook was registered on the converter by hand.
    """
    if _CONVERTER not in sys.modules:
        return (registry.spec(annotation) if spec is None else spec).structure
    from .converter import structure_hook as converter_hook

    return converter_hook(annotation, spec)
