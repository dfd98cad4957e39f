"""typed_toolsets: turn typed methods into tools an LLM agent can call, safely.

A `Toolset` groups related methods; the ones declared with `tool` are exported as `ToolProxy`
objects, each with a JSON Schema built from its annotations. A model's JSON arguments are
validated (jsonschema) and structured (cattrs) into the annotated types before the method runs.

The public API is re-exported here; implementation lives in private modules, loaded on first
use so that ``import typed_toolsets`` stays light (the mypy plugin imports this package too).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:
    from ._errors import ToolsetDefinitionError as ToolsetDefinitionError
    from ._errors import TypedToolsetsError as TypedToolsetsError
    from ._limits import Limits as Limits
    from ._meta import Description as Description
    from ._proxy import ToolProxy as ToolProxy
    from ._registry import register_type as register_type
    from ._result import ArgumentProblem as ArgumentProblem
    from ._result import ToolError as ToolError
    from ._result import ToolResult as ToolResult
    from ._spec import ToolSpec as ToolSpec
    from ._spec import tool as tool
    from ._toolset import Toolset as Toolset

__all__ = [
    "ArgumentProblem",
    "Description",
    "Limits",
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
    "ArgumentProblem": "._result",
    "Description": "._meta",
    "Limits": "._limits",
    "ToolError": "._result",
    "ToolProxy": "._proxy",
    "ToolResult": "._result",
    "ToolSpec": "._spec",
    "Toolset": "._toolset",
    "ToolsetDefinitionError": "._errors",
    "TypedToolsetsError": "._errors",
    "register_type": "._types",
    "tool": "._spec",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        msg = f"module 'typed_toolsets' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
