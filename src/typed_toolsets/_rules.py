"""The definition rules of a Toolset, in one place.

Both the runtime (`Toolset.__init_subclass__`, ``typed-toolsets check``) and the mypy plugin
(`typed_toolsets.mypy`) apply these rules. This module therefore imports nothing but the standard
library: the plugin is loaded by mypy on every run and must stay cheap.
"""

from __future__ import annotations

import difflib
import re
from typing import Final

__all__ = [
    "API_NAMES",
    "MAPPING_ORIGINS",
    "NUMERIC_NAMES",
    "PROBLEM_CODES",
    "SCALAR_NAMES",
    "SEQUENCE_ORIGINS",
    "SET_ORIGINS",
    "TOOL_NAME_PATTERN",
    "class_display_name",
    "close_matches",
    "default_description",
    "default_toolset_name",
    "final_tool_name",
    "is_valid_tool_name",
    "problem",
]

#: Exported tool names must match this (the intersection of the OpenAI, Anthropic, Gemini and
#: MCP rules). It is checked with a full match, so a trailing newline is invalid.
TOOL_NAME_PATTERN: Final = r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$"
_TOOL_NAME_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")

#: Attributes of `Toolset` itself that can never be exported.
API_NAMES: Final = frozenset({"to_tools", "toolset_name", "exports", "limits"})

#: Error codes, shared by the runtime messages and the mypy plugin (``toolset-<code>``).
PROBLEM_CODES: Final = frozenset(
    {
        "unknown-method",
        "not-a-method",
        "duplicate-name",
        "invalid-name",
        "signature",
        "param-type",
        "init",
        "ambiguous-union",
    }
)

# The supported annotation table, by fully qualified name. The runtime type registry matches
# classes and generic origins against these; the mypy plugin matches mypy's fullnames (which use
# the ``typing`` spelling for the abstract collections).
SCALAR_NAMES: Final = frozenset(
    {
        "builtins.str",
        "builtins.int",
        "builtins.float",
        "builtins.bool",
        "datetime.datetime",
        "datetime.date",
        "datetime.time",
        "uuid.UUID",
    }
)
NUMERIC_NAMES: Final = frozenset({"numbers.Real"})
SEQUENCE_ORIGINS: Final = frozenset(
    {
        "builtins.list",
        "collections.abc.Sequence",
        "collections.abc.MutableSequence",
        "typing.Sequence",
        "typing.MutableSequence",
        "typing.List",
    }
)
SET_ORIGINS: Final = frozenset(
    {
        "builtins.set",
        "builtins.frozenset",
        "collections.abc.Set",
        "collections.abc.MutableSet",
        "typing.AbstractSet",
        "typing.MutableSet",
        "typing.Set",
        "typing.FrozenSet",
    }
)
MAPPING_ORIGINS: Final = frozenset(
    {
        "builtins.dict",
        "collections.abc.Mapping",
        "collections.abc.MutableMapping",
        "typing.Mapping",
        "typing.MutableMapping",
        "typing.Dict",
    }
)


def is_valid_tool_name(name: str) -> bool:
    """Return whether *name* is acceptable as an exported tool name."""
    return _TOOL_NAME_RE.fullmatch(name) is not None


def default_toolset_name(class_name: str) -> str:
    """Derive a toolset name from a class name, as the seed library does.

    One trailing ``Toolset`` is removed (case-sensitive), then the rest is lower-cased, with no
    snake-casing: ``TextStatsToolset`` gives ``textstats``; ``ToolsetHelper`` gives
    ``toolsethelper``.
    """
    if class_name.endswith("Toolset"):
        class_name = class_name[: -len("Toolset")]
    return class_name.lower()


def final_tool_name(toolset_name: str, method_name: str, tool_name: str | None) -> str:
    """Return the exported name: *tool_name* as is when given, else ``<toolset>_<method>``."""
    if tool_name is not None:
        return tool_name
    return f"{toolset_name}_{method_name}"


def default_description(method_name: str) -> str:
    """Build the fallback description like the seed: ``word_count`` gives ``Word count operation``.

    Underscores become spaces, the first letter is upper-cased and the rest lower-cased.
    """
    words = method_name.replace("_", " ")
    return f"{words[:1].upper()}{words[1:].lower()} operation"


def close_matches(name: str, candidates: list[str]) -> list[str]:
    """Return up to three candidates close to *name*, best first (for "did you mean")."""
    return difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)


def class_display_name(qualname: str) -> str:
    """A class's qualified name without the ``<locals>`` part of classes defined in functions."""
    return qualname.rsplit("<locals>.", 1)[-1]


def problem(class_name: str, method_name: str | None, code: str, cause: str) -> str:
    """Format one definition problem: the class, the method, the cause and its code."""
    where = class_name if method_name is None else f"{class_name}.{method_name}"
    return f"{where}: {cause} [toolset-{code}]"
