"""Naming rules of a Toolset: exported tool names, default names and descriptions.

Standard library only: the mypy plugin imports this module on every run.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "API_NAMES",
    "CLASS_OPTIONS",
    "TOOL_NAME_PATTERN",
    "class_display_name",
    "close_matches",
    "default_description",
    "default_toolset_name",
    "final_tool_name",
    "is_valid_tool_name",
    "mangle",
    "tool_name_problem",
    "written_names",
]

#: Exported tool names must match this (the intersection of the OpenAI, Anthropic, Gemini and
#: MCP rules). It is checked with a full match, so a trailing newline is invalid.
TOOL_NAME_PATTERN: Final = r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$"
_TOOL_NAME_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")
#: The longest valid tool name.
MAX_TOOL_NAME: Final = 64
_NAME_CHARACTER_RE: Final = re.compile(r"[A-Za-z0-9_-]")

#: The toolset-wide options, class attributes of a Toolset class (``ClassVar``s of `Toolset`).
CLASS_OPTIONS: Final = (
    "toolset_name",
    "exports",
    "limits",
    "tool_annotations",
    "requires_approval",
)
#: Attributes of `Toolset` itself that can never be exported.
API_NAMES: Final = frozenset({"to_tools", "proxy", *CLASS_OPTIONS})


def is_valid_tool_name(name: str) -> bool:
    """Return whether *name* is acceptable as an exported tool name."""
    return _TOOL_NAME_RE.fullmatch(name) is not None


def tool_name_problem(name: str) -> str | None:
    """What is wrong with *name* as an exported tool name, in words; None when it is valid.

    ``"it is too long (70 > 64 characters)"``, ``"it starts with '1'"``, ``"it contains ' '"``,
    joined with "and" when several apply.
    """
    if is_valid_tool_name(name):
        return None
    if not name:
        return "it is empty"
    reasons: list[str] = []
    if len(name) > MAX_TOOL_NAME:
        reasons.append(f"it is too long ({len(name)} > {MAX_TOOL_NAME} characters)")
    if not (name[0].isascii() and (name[0].isalpha() or name[0] == "_")):
        reasons.append(f"it starts with {name[0]!r}")
    bad = sorted({c for c in name[1:] if not _NAME_CHARACTER_RE.fullmatch(c)}, key=name.index)
    if bad:
        reasons.append(f"it contains {', '.join(repr(c) for c in bad)}")
    return " and ".join(reasons)


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

    Underscores become spaces, the first letter is upper-cased and the rest lower-cased. A
    leading, trailing or repeated underscore leaves no space of its own (``_under`` gives
    ``Under operation``).
    """
    words = " ".join(word for word in method_name.split("_") if word) or method_name
    return f"{words[:1].upper()}{words[1:].lower()} operation"


def mangle(class_name: str, name: str) -> str:
    """*name* as Python stores it when it is written in the body of the class *class_name*.

    A private name (``__x``: two leading underscores, not two trailing) becomes ``_Class__x``,
    with the class name's own leading underscores dropped; a class named only with underscores
    mangles nothing. A method ``def __x`` is the attribute ``_Class__x``, and so is its
    parameter ``__x``; the string ``tool("__x")`` is not mangled.
    """
    if not name.startswith("__") or name.endswith("__") or "." in name:
        return name
    owner = class_name.lstrip("_")
    return f"_{owner}{name}" if owner else name


def written_names(class_name: str, name: str) -> tuple[str, ...]:
    """The names that, written in the body of the class *class_name*, are stored as *name*.

    ``_Class__x`` is written ``__x`` (or, rarely, as is); a private ``__x`` is written by no
    name in a class that mangles it.
    """
    owner = class_name.lstrip("_")
    prefix = f"_{owner}"
    found: list[str] = []
    if owner and name.startswith(prefix + "__") and mangle(class_name, name[len(prefix) :]) == name:
        found.append(name[len(prefix) :])
    if mangle(class_name, name) == name:
        found.append(name)
    return tuple(found)


def close_matches(name: str, candidates: list[str], cutoff: float = 0.6) -> list[str]:
    """Return up to three candidates close to *name*, best first (for "did you mean").

    *cutoff* is how alike (0 to 1, difflib's ratio) a candidate must be.
    """
    import difflib  # only a definition error needs it; keeps class creation's imports small

    return difflib.get_close_matches(name, candidates, n=3, cutoff=cutoff)


def class_display_name(qualname: str) -> str:
    """A class's qualified name without the ``<locals>`` part of classes defined in functions."""
    return qualname.rsplit("<locals>.", 1)[-1]
