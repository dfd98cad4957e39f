"""typed_toolsets: turn typed methods into tools an LLM agent can call, safely.

A `Toolset` groups related methods; the ones declared with `tool` are exported as `ToolProxy`
objects, each with a JSON Schema built from its annotations. A model's JSON arguments are
validated (jsonschema) and structured (cattrs) into the annotated types before the method runs.

The public API is re-exported here; implementation lives in private modules, loaded on first
use so that ``import typed_toolsets`` stays light (the mypy plugin imports this package too).
Public classes name this package as their module (``typed_toolsets.ToolError``), wherever they
are defined (see `typed_toolsets._public`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_names
from ._version import __version__

if TYPE_CHECKING:
    from ._toolset import Toolset as Toolset
    from .call.proxy import Arguments as Arguments
    from .call.proxy import ToolProxy as ToolProxy
    from .call.result import ArgumentProblem as ArgumentProblem
    from .call.result import ErrorKind as ErrorKind
    from .call.result import ToolError as ToolError
    from .call.result import ToolResult as ToolResult
    from .call.strict import StrictArguments as StrictArguments
    from .definition.declarations import AnnotationsLike as AnnotationsLike
    from .definition.declarations import ToolAnnotations as ToolAnnotations
    from .definition.declarations import ToolSpec as ToolSpec
    from .definition.declarations import tool as tool
    from .definition.errors import ExportError as ExportError
    from .definition.errors import ToolsetDefinitionError as ToolsetDefinitionError
    from .definition.errors import TypedToolsetsError as TypedToolsetsError
    from .definition.limits import Limits as Limits
    from .rules.problems import Problem as Problem
    from .types.catalog import register_type as register_type
    from .types.description import Description as Description

__all__ = [
    "AnnotationsLike",
    "ArgumentProblem",
    "Arguments",
    "Description",
    "ErrorKind",
    "ExportError",
    "Limits",
    "Problem",
    "StrictArguments",
    "ToolAnnotations",
    "ToolError",
    "ToolProxy",
    "ToolResult",
    "ToolSpec",
    "Toolset",
    "ToolsetDefinitionError",
    "TypedToolsetsError",
    "__version__",
    "register_type",
    "tool",
]

_WHERE = {
    "AnnotationsLike": ".definition.declarations",
    "ArgumentProblem": ".call.result",
    "Arguments": ".call.proxy",
    "Description": ".types.description",
    "ErrorKind": ".call.result",
    "ExportError": ".definition.errors",
    "Limits": ".definition.limits",
    "Problem": ".rules.problems",
    "StrictArguments": ".call.strict",
    "ToolError": ".call.result",
    "ToolProxy": ".call.proxy",
    "ToolAnnotations": ".definition.declarations",
    "ToolResult": ".call.result",
    "ToolSpec": ".definition.declarations",
    "Toolset": "._toolset",
    "ToolsetDefinitionError": ".definition.errors",
    "TypedToolsetsError": ".definition.errors",
    "register_type": ".types.catalog",
    "tool": ".definition.declarations",
}


# Hidden from type checkers: they would take any name, a misspelled one too, for an
# attribute of type Any. They see the names imported under TYPE_CHECKING above.
if not TYPE_CHECKING:
    __getattr__ = lazy_names(globals(), _WHERE)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
