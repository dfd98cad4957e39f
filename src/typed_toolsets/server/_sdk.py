"""The MCP SDK is an optional extra: fail on import, early and with the remedy, when it is missing.

Imported first by the package, so every module of it may import ``mcp`` at its top.
"""

from __future__ import annotations

import importlib
from typing import Final

__all__ = ["MISSING_EXTRA"]

#: What to do when the MCP SDK is missing (the extra was not installed).
MISSING_EXTRA: Final = (
    "the MCP server needs the official MCP SDK, an optional extra: "
    "pip install 'typed-toolsets[mcp]'"
)

try:
    importlib.import_module("mcp")
except ImportError as exc:
    msg = f"{MISSING_EXTRA} ({exc})"
    raise ImportError(msg, name="mcp") from exc
