"""Why the exact path refuses arguments: their problems, found once, as one `ToolError`.

Arguments the method's arguments model did not structure are checked against the exported
schema by the tool's `typed_toolsets.call.checker.Checker` (built on the first refusal, kept as
long as the arguments model): every problem up to the cap, in linear time. Arguments it accepts
but that still cannot be built (a class's own validator refused them, a number too large for a
float) are located down to their innermost part by the arguments model.
"""

from __future__ import annotations

import threading
import typing
import weakref
from collections.abc import Callable
from typing import Any, Final

from typed_toolsets.definition.limits import Limits
from typed_toolsets.types.arguments import ArgumentsVariant, Unbuilt
from typed_toolsets.types.typespec import Path

from .checker import Checker
from .result import ArgumentProblem, ToolError
from .validation import Problem, dotted, json_path, unbuilt_reason

__all__ = ["arguments_error", "checker_of", "explainer"]

_checkers: Final[weakref.WeakKeyDictionary[ArgumentsVariant, Checker]] = weakref.WeakKeyDictionary()
_lock: Final = threading.Lock()


def checker_of(variant: ArgumentsVariant) -> Checker:
    """The checker of *variant*'s schema, compiled once."""
    found = _checkers.get(variant)
    if found is None:
        with _lock:
            found = _checkers.get(variant)
            if found is None:
                found = _checkers[variant] = Checker(variant.schema)
    return found


def arguments_error(tool: str, problems: list[Problem], more: bool) -> ToolError:
    """The ``"arguments"`` error listing *problems* (and saying when more were not shown)."""
    details: list[ArgumentProblem] = []
    parts: list[str] = []
    for path, reason in problems:
        where = json_path(path)
        details.append(ArgumentProblem(where, reason))
        parts.append(f"{dotted(where)}: {reason}")
    message = f"Invalid arguments for tool {tool!r}: " + "; ".join(parts)
    if more:
        message += "; (more problems not shown)"
    return ToolError(tool, "arguments", message, tuple(details))


def _at(value: object, path: Path) -> object:
    found: Any = value  # the path was read from this very value
    for key in path:
        found = found[key]
    return typing.cast(object, found)


def _unbuilt_problem(arguments: dict[str, object], unbuilt: Unbuilt) -> Problem:
    return unbuilt.path, unbuilt_reason(_at(arguments, unbuilt.path), unbuilt.cause)


def explainer(
    tool: str, limits: Limits, variant: ArgumentsVariant
) -> Callable[[dict[str, object]], dict[str, object] | ToolError]:
    """The function checking arguments (parsed, within the limits) against *variant*'s schema.

    It returns the error naming every problem (up to the cap); or, when the schema accepts the
    arguments, the keyword arguments, or the error naming each part that could not be built.
    """
    problems = checker_of(variant).problems
    convert = variant.convert

    def explain(arguments: dict[str, object]) -> dict[str, object] | ToolError:
        try:
            found, more = problems(arguments)
        except RecursionError:
            # Only jsonschema, for a registered type's schema, recurses this deep.
            message = (
                f"Arguments for tool {tool!r} are nested too deeply to validate "
                f"(Limits.max_depth={limits.max_depth}); send a flatter structure"
            )
            return ToolError(tool, "limit", message)
        if found:
            return arguments_error(tool, found, more)
        converted = convert(arguments)
        if isinstance(converted, list):
            failures = [_unbuilt_problem(arguments, unbuilt) for unbuilt in converted]
            return arguments_error(tool, failures, more=False)
        return converted

    return explain
