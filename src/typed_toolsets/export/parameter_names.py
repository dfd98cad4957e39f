"""The names each provider takes for a tool's parameters, where they are narrower than Python's.

The API refuses a whole request over one parameter name that breaks its rule, so such a tool
is refused at export (`typed_toolsets.export.dialects`, `typed_toolsets.export.gemini`).
"""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping
from typing import Final

import attrs

from typed_toolsets.call.proxy import ToolProxy

__all__ = ["ANTHROPIC_PARAMETER", "GEMINI_PARAMETER", "ParameterNames", "parameter_name_problems"]


@attrs.frozen
class ParameterNames:
    """A provider's rule for the names of a tool's parameters (the top-level properties).

    The API refuses the whole request over one name that breaks it, so such a tool is refused
    at export, naming it. A Python parameter name breaks these rules only by a letter outside
    ASCII (PEP 3131 allows ``café``) or a length over 64.

    Attributes:
        provider: The provider's name, for messages.
        pattern: The names it takes (matched in full).
        rule: The rule in words.
    """

    provider: str
    pattern: re.Pattern[str]
    rule: str


#: Anthropic's (the API's message: "Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'").
ANTHROPIC_PARAMETER: Final = ParameterNames(
    "Anthropic",
    re.compile(r"[a-zA-Z0-9_.-]{1,64}"),
    "1 to 64 ASCII letters, digits, '_', '.' or '-'",
)
#: Gemini's (the google-genai `FunctionDeclaration.parameters` documentation).
GEMINI_PARAMETER: Final = ParameterNames(
    "Gemini",
    re.compile(r"[a-zA-Z_][a-zA-Z0-9_]{0,63}"),
    "an ASCII letter or '_', then ASCII letters, digits or '_', 64 characters at most",
)


def parameter_name_problems(proxy: ToolProxy, names: ParameterNames) -> list[str]:
    """Why *proxy* cannot be exported under *names*' rule: one problem per parameter breaking it."""
    properties = typing.cast("Mapping[str, object]", proxy.parameters.get("properties") or {})
    return [
        f"Tool {proxy.name!r} cannot be exported to {names.provider}: the name of parameter "
        f"{name!r} is not one {names.provider} accepts ({names.rule}), and "
        f"{names.provider} refuses the whole request over it; rename the parameter"
        for name in properties
        if names.pattern.fullmatch(name) is None
    ]
