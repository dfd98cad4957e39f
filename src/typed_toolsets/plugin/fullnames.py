"""The library objects the plugin hooks, by their fully qualified names.

A test imports each one, so that moving a class or function in the library cannot silently turn
the plugin off.
"""

from __future__ import annotations

from typing import Final

__all__ = ["INIT_SUBCLASS", "PROXY", "TOOLSET", "TOOL_FUNCTION", "TOOL_SPEC", "TO_TOOLS_GET"]

TOOLSET: Final = "typed_toolsets._toolset.Toolset"
TOOL_FUNCTION: Final = "typed_toolsets.definition.declarations.tool"
TOOL_SPEC: Final = "typed_toolsets.definition.declarations.ToolSpec"
TO_TOOLS_GET: Final = "typed_toolsets._toolset._ToTools.__get__"
#: `Toolset.proxy`, the typed access to one tool (as ``Cls.proxy`` on any subclass too).
PROXY: Final = "typed_toolsets._toolset.Toolset.proxy"
#: The suffix of the ``__init_subclass__`` methods mypy simulates a call to after a class body.
INIT_SUBCLASS: Final = ".__init_subclass__"
