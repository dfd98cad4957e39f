"""Why the exact path refuses arguments: their problems, found once, as one `ToolError`.

Arguments the method's arguments model did not structure are checked against the exported
schema by the tool's `typed_toolsets.call.checker.Checker` (built on the first refusal, kept as
long as the arguments model): every problem up to the cap, in linear time. Arguments it accepts
but that still cannot be built (a class's own validator refused them, a number too large for a
float) are located down to their innermost part by the arguments model.

The problems become one `ArgumentsRefusal`: its message is written at once, and the `ToolError`
with one `ArgumentProblem` per problem only when a `ToolResult` asks for it.
"""

from __future__ import annotations

import sys
import threading
import typing
import weakref
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeAlias

from typed_toolsets.definition.limits import Limits
from typed_toolsets.types.arguments import ArgumentsVariant, Unbuilt
from typed_toolsets.types.typespec import Path

from .checker import Checker
from .paths import json_path, shown_dotted_path
from .quoted import quoted_object
from .result import ArgumentProblem, ToolError
from .shown import short
from .validation import (
    MAX_PROBLEMS,
    Problem,
    collect,
    unbuilt_reason,
)

__all__ = ["ArgumentsRefusal", "Verdict", "checker_of", "explainer", "message_prefix"]

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


#: Python's default recursion limit: arguments within `typed_toolsets.call.jsonin.MAX_NESTING`
#: are structured well within it, on a fresh stack.
_DEFAULT_RECURSION_LIMIT: Final = 1000

#: Paths already written for a message (`shown_dotted_path`), by path: the same few recur.
_written: Final[dict[Path, str]] = {}
#: At most this many are kept, each at most `_WRITTEN_CHARS` long: keys come from the model.
_WRITTEN_PATHS: Final = 4096
_WRITTEN_CHARS: Final = 80


def _write(path: Path) -> str:
    written = shown_dotted_path(path)  # a long key the model sent: its middle left out
    if len(written) <= _WRITTEN_CHARS and len(_written) < _WRITTEN_PATHS:
        _written[path] = written
    return written


def message_prefix(tool: str) -> str:
    """How the message of refused arguments for *tool* starts (each problem follows)."""
    return f"Invalid arguments for tool {tool!r}: "


class ArgumentsRefusal:
    """Refused arguments: the error's message at once, the `ToolError` itself when asked.

    ``dynamic_call`` needs only the message. The error's details (one `ArgumentProblem` per
    problem, its path written as a JSON path) are built for a `ToolResult`, once.

    Attributes:
        tool: The exported tool name.
        message: The error's message: every problem as ``<path>: <reason>``.
    """

    __slots__ = ("_error", "_problems", "message", "tool")

    def __init__(
        self, tool: str, problems: list[Problem], more: bool, prefix: str | None = None
    ) -> None:
        """Word the refusal.

        Args:
            tool: The exported tool name.
            problems: Each problem's path and reason (at least one).
            more: Whether more problems were found than are reported.
            prefix: ``message_prefix(tool)``, when the caller keeps it.
        """
        self.tool = tool
        self._problems = problems
        self._error: ToolError | None = None
        if prefix is None:
            prefix = message_prefix(tool)
        written = _written
        # f-strings: each part is built at once, not through intermediate concatenations.
        if len(problems) == 1:  # the usual refusal: no list to join
            ((path, reason),) = problems
            message = f"{prefix}{written.get(path) or _write(path)}: {reason}"
        else:
            # One string per problem, joined in C: a quarter less than adding their parts to
            # one list (20 problems: 0.65 us less), and no slower when they share a reason.
            message = prefix + "; ".join(
                [f"{written.get(path) or _write(path)}: {reason}" for path, reason in problems]
            )
        self.message = message + "; (more problems not shown)" if more else message

    def error(self) -> ToolError:
        """The ``"arguments"`` error, with one `ArgumentProblem` per problem."""
        error = self._error
        if error is None:
            details = tuple(
                [ArgumentProblem(json_path(path), reason) for path, reason in self._problems]
            )
            error = self._error = ToolError(self.tool, "arguments", self.message, details)
        return error


#: Why a call failed: an error, or refused arguments whose error is built when asked for.
Verdict: TypeAlias = "ToolError | ArgumentsRefusal"


def _at(value: object, path: Path) -> object:
    found: Any = value  # the path was read from this very value
    for key in path:
        found = found[key]
    return typing.cast(object, found)


def _unbuilt_problem(arguments: dict[str, object], unbuilt: Unbuilt) -> Problem:
    return unbuilt.path, unbuilt_reason(_at(arguments, unbuilt.path), unbuilt.cause)


def explainer(
    tool: str, limits: Limits, variant: ArgumentsVariant
) -> Callable[[dict[str, object]], dict[str, object] | Verdict]:
    """The function checking arguments (parsed, within the limits) against *variant*'s schema.

    It returns the error naming every problem (up to the cap); or, when the schema accepts the
    arguments, the keyword arguments, or the error naming each part that could not be built.
    Arguments within `typed_toolsets.call.jsonin.MAX_NESTING` are judged within Python's default
    recursion limit, but not from any stack: a caller already hundreds of frames deep can run
    out. What ran out of stack is judged again on a fresh one (`_on_fresh_stack`), so the
    verdict does not depend on how deep the caller is.
    """
    # The checker's stream, collected here: `Checker.problems` without a frame of its own.
    checker = checker_of(variant)
    errors, distinct = checker.errors, checker.distinct
    convert = variant.convert
    prefix = message_prefix(tool)
    names = frozenset(variant.schema.get("properties", ()))
    defaults = _defaults(variant.schema)

    def explain(arguments: dict[str, object], fresh: bool = False) -> dict[str, object] | Verdict:
        # One frame for the usual refusal: the stack is looked at again only when it ran out.
        try:
            found, more = collect(errors(arguments, None, {}), distinct=distinct)
        except RecursionError:
            # jsonschema recurses, for a registered type's schema.
            return again(arguments, fresh)
        if found:
            if len(arguments) <= 2 and names.isdisjoint(arguments):
                found = _unwrapped(arguments, found, names)
            elif defaults and None in arguments.values():
                found = _nulls_for_defaults(arguments, found, defaults)
            # Positional: a class called with a keyword argument costs half as much again.
            return ArgumentsRefusal(tool, found, more, prefix)
        # One past the cap: whether more parts fail than the refusal names.
        converted = convert(arguments, MAX_PROBLEMS + 1)
        if isinstance(converted, list):
            if any(isinstance(unbuilt.cause, RecursionError) for unbuilt in converted) and (
                not fresh or sys.getrecursionlimit() < _DEFAULT_RECURSION_LIMIT
            ):
                return again(arguments, fresh)
            # On a fresh stack, under the default limit, arguments the checker took do not nest
            # deep enough to run out of it: the part's own hook or validator recursed.
            failures = [_unbuilt_problem(arguments, unbuilt) for unbuilt in converted]
            more = len(failures) > MAX_PROBLEMS
            return ArgumentsRefusal(tool, failures[:MAX_PROBLEMS], more, prefix)
        return converted

    def again(arguments: dict[str, object], fresh: bool) -> dict[str, object] | Verdict:
        """The verdict on arguments that ran out of stack: judged on a fresh one, once."""
        if not fresh:
            return _on_fresh_stack(lambda found: explain(found, fresh=True), arguments)
        # Out of stack on a fresh one too: the interpreter's recursion limit is set lower than
        # the nesting read needs.
        message = (
            f"Arguments for tool {tool!r} are nested too deeply to validate under this "
            f"interpreter's recursion limit (Limits.max_depth={limits.max_depth}); send a "
            "flatter structure"
        )
        return ToolError(tool, "limit", message)

    return explain


def _defaults(schema: Mapping[str, object]) -> dict[str, object]:
    """The default of each parameter that has one (in the schema), by name."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return {}
    return {
        name: sub["default"]
        for name, sub in typing.cast("Mapping[str, object]", properties).items()
        if isinstance(sub, Mapping) and "default" in sub
    }


def _nulls_for_defaults(
    arguments: dict[str, object], found: list[Problem], defaults: dict[str, object]
) -> list[Problem]:
    """*found*, each null sent for a parameter with a default said to be left out instead.

    Models send ``null`` for the parameters they do not mean to set: leaving one out gives it
    its default, which null does not (a problem at the parameter's path says null is refused).
    """
    problems: list[Problem] = []
    for path, reason in found:
        if len(path) == 1 and path[0] in defaults and arguments.get(str(path[0]), 0) is None:
            default = short(defaults[str(path[0])])
            reason = f"{reason}; leave the argument out to use its default ({default})"
        problems.append((path, reason))
    return problems


def _unwrapped(
    arguments: dict[str, object], found: list[Problem], names: frozenset[str]
) -> list[Problem]:
    """*found*, the unexpected key holding the arguments themselves said to be one.

    Models sometimes send ``{"arguments": {...}}`` (or ``input``, ``params``, a whole tool call
    with its ``name``): the key is unexpected and every required argument missing. When an
    object at an unexpected key holds only parameter names, its problem says to send them at
    the top level; so does a string there holding such an object as JSON text (what a provider
    hands over as a tool call's ``arguments``).
    """
    problems: list[Problem] = []
    for path, reason in found:
        if len(path) == 1:
            inner = arguments.get(typing.cast("str", path[0]))
            if type(inner) is str:
                inner = quoted_object(inner)
                how = ", as JSON text: send them as an object"
            else:
                how = ": send them"
            if type(inner) is dict and inner and names.issuperset(inner):  # pyright: ignore[reportUnknownArgumentType]
                reason = (
                    f"{reason}; it holds the arguments themselves{how} at the top level, "
                    f"not inside {short(path[0])}"
                )
        problems.append((path, reason))
    return problems


_Judged = typing.TypeVar("_Judged")


def _on_fresh_stack(
    func: Callable[[dict[str, object]], _Judged], arguments: dict[str, object]
) -> _Judged:
    """``func(arguments)`` in a thread of its own, whose stack starts empty; waited for.

    Only for arguments that ran out of stack where they were judged: a thread costs tens of
    microseconds, and judging them (within `typed_toolsets.call.jsonin.MAX_NESTING`) little more.

    Raises:
        BaseException: What *func* raised.
    """
    outcome: list[_Judged] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(func(arguments))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            failure.append(exc)

    worker = threading.Thread(target=run, name="typed_toolsets-fresh-stack", daemon=True)
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return outcome[0]
