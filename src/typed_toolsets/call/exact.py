"""The exact path of one tool's arguments, and the wrapped failure a call returns.

`ExactPath` gives the verdict on arguments the fast path (`typed_toolsets.types.fastpath`) does
not vouch for: strict parsing within the limits (`typed_toolsets.call.jsonin`), then the
arguments model's structurer; what that refuses, the schema's checker explains
(`typed_toolsets.call.refusal`). `read_arguments` reads a call's arguments as the call does,
without validating them. `Failed` wraps a refusal or failure (`typed_toolsets.call.pipeline`
returns it in place of a value).
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs
from typing_extensions import Never

from typed_toolsets.definition.limits import Limits
from typed_toolsets.types.arguments import ArgumentsVariant
from typed_toolsets.types.fastpath import FastArguments
from typed_toolsets.types.handover import CutShort, Handover, Oversized
from typed_toolsets.types.typespec import structures_numbers

from .execution import internal_error
from .jsonhints import CUT_HINT
from .jsonin import (
    InvalidJSON,
    LimitExceeded,
    NotAnObject,
    NotJSONValue,
    depth_limit,
    load_arguments,
)
from .jsonvalues import size_refusal
from .result import ToolError, ToolResult
from .strict import StrictArguments

if TYPE_CHECKING:
    from .refusal import ArgumentsRefusal, Verdict

__all__ = [
    "ExactPath",
    "Failed",
    "invalid_json",
    "limit_error",
    "read_arguments",
    "tool_error",
]


@typing.final
class Failed:
    """A failed call's error, wrapped.

    Wrapping keeps a tool's own return value from ever being mistaken for a failure: the class is
    private, so no tool returns one. The exact path returns one for refused arguments (in place
    of the keyword arguments), whose `ToolError` (and `ToolResult`) are built only when asked
    for: ``dynamic_call`` needs only the message.
    """

    __slots__ = ("_error", "message")

    def __init__(self, error: Verdict) -> None:
        self._error = error
        #: The error's message.
        self.message: str = error.message

    @property
    def error(self) -> ToolError:
        """The `ToolError`."""
        return tool_error(self._error)

    @property
    def result(self) -> ToolResult[Never]:
        """The failed `ToolResult`."""
        return ToolResult.failure(tool_error(self._error))


def tool_error(verdict: Verdict) -> ToolError:
    """The `ToolError` of *verdict*."""
    if type(verdict) is ToolError:
        return verdict
    return typing.cast("ArgumentsRefusal", verdict).error()


# ---------------------------------------------------------------------------------- exact path


@attrs.frozen
class ExactPath:
    """The exact path of one tool: the verdict on the arguments the fast path does not vouch for.

    Strict parsing within the limits (`typed_toolsets.call.jsonin`), then the arguments model's
    structurer; what that refuses, the schema's checker explains (`typed_toolsets.call.refusal`).
    Its fast path (`fast`) hands over to it.

    Attributes:
        name: The exported tool name (every error names it).
        limits: The limits that apply.
        arguments: The form of the method's arguments read.
    """

    name: str
    limits: Limits
    arguments: ArgumentsVariant
    # The fast path of the strict form, built on first use (a plain holder, as `Pipeline`'s).
    _strict: list[FastArguments[dict[str, object] | Failed]] = attrs.field(
        init=False, factory=list, eq=False, repr=False
    )
    # What explains refused arguments (`typed_toolsets.call.refusal`), built on the first one.
    _explain: list[Callable[[dict[str, object]], dict[str, object] | Verdict]] = attrs.field(
        init=False, factory=list, eq=False, repr=False
    )

    def __call__(self, arguments: object, handover: Handover = False) -> dict[str, object] | Failed:
        """The keyword arguments, checked exactly, or the verdict on them.

        Args:
            arguments: What the caller passed. `StrictArguments` (never JSON text, so the fast
                path always hands them here) go to the strict form's own fast path.
            handover: What the fast path found (see `typed_toolsets.types.handover`): True when
                it read the arguments but could not structure them (they go straight to the
                checker once parsed), or that reading itself when it is the strict one (it is
                not parsed again); orjson's error when it found JSON text invalid, or the strict
                parser's own (`CutShort`) for an object's text cut before its closing brace.

        Returns:
            The keyword arguments, or a `Failed` with the verdict to report. A refusal is
            returned, not raised: through the fast path's frame and the caller's, an exception
            would cost a small refusal a sixth of its time (5,000 instructions measured). It
            raises no `Exception`.
        """
        checked: dict[str, object] | Verdict
        if isinstance(handover, dict):  # the fast path's reading: usually refused arguments
            explain = self._explain  # called here once built: one frame fewer per refusal
            try:
                checked = explain[0](handover) if explain else self.explain(handover)
            except Exception as exc:  # noqa: BLE001 - a bug here must still end in an error
                checked = internal_error(self.name, exc)
            return checked if isinstance(checked, dict) else Failed(checked)
        if type(arguments) is StrictArguments:
            try:
                strict = self.strict()
            except Exception as exc:  # noqa: BLE001 - a bug here must still end in an error
                return Failed(internal_error(self.name, exc))
            return strict(arguments.arguments)
        try:
            checked = self._check(arguments, handover)
        except Exception as exc:  # noqa: BLE001 - a bug here must still end in an error
            checked = internal_error(self.name, exc)
        return checked if isinstance(checked, dict) else Failed(checked)

    def strict(self) -> FastArguments[dict[str, object] | Failed]:
        """The fast path of the strict form of these arguments, built once.

        It hands over to the strict form's own exact path, and returns a `Failed` as this one does.
        """
        found = self._strict
        if not found:
            found.append(ExactPath(self.name, self.limits, self.arguments.strict_form()).fast())
        return found[0]

    def fast(self) -> FastArguments[dict[str, object] | Failed]:
        """The fast path of these arguments, handing over to this exact path; built once.

        It is handed the bound ``__call__``: a method is called for less than an instance that
        has one (65 ns less a handover, a refusal's 3%). A bound method is equal only to those
        of the same object: each exact path has its own fast path (their code is shared).
        """
        limits = self.limits
        handover = self.__call__
        return self.arguments.fast_path(limits.max_argument_bytes, depth_limit(limits), handover)

    def _check(self, arguments: object, handover: Handover) -> dict[str, object] | Verdict:
        args = read_arguments(self.name, self.limits, arguments, handover)
        if not isinstance(args, dict):
            return args
        if handover is not True:  # not parsed by the fast path, so not structured
            try:
                return self.arguments.structure(args)
            except Exception:  # noqa: BLE001, S110 - whatever the refusal, the checker explains it
                pass
        return self.explain(args)

    def explain(self, arguments: dict[str, object]) -> dict[str, object] | Verdict:
        """Check *arguments* (parsed, within the limits) against the schema.

        See `typed_toolsets.call.refusal`.
        """
        explain = self._explain
        if not explain:
            from .refusal import explainer

            explain.append(explainer(self.name, self.limits, self.arguments))
        return explain[0](arguments)


def read_arguments(
    name: str, limits: Limits, arguments: object, handover: Handover = False
) -> dict[str, object] | Verdict:
    """Read a call's arguments as the call reads them, without validating them.

    Args:
        name: The exported tool name (the errors name it).
        limits: The limits that apply.
        arguments: What the caller passed: JSON text (``str`` or bytes), a mapping or None.
        handover: What the fast path found, when it read *arguments* first (see `ExactPath`).

    Returns:
        A fresh JSON object, within *limits*; or the error about the input: too large or too
        deep (``"limit"``), not JSON or not an object (``"arguments"``), or holding a value
        that is no JSON value (refused at its path).
    """
    if isinstance(handover, Oversized):
        # A dict the fast path found over the limit: refused without a walk when it can be.
        try:
            size_refusal(arguments, handover.written, limits)
        except LimitExceeded as exc:
            return limit_error(name, exc)
    if isinstance(handover, CutShort):
        # The strict parser's own error, found by the fast path: not read again (nor raised).
        # It stops at the text's end, expecting more: `json_hint`'s hint for that, looked up.
        return invalid_json(name, f"{handover}{CUT_HINT}")
    try:
        # Where orjson stopped reading the text, when it found it invalid.
        stopped = handover.pos if isinstance(handover, ValueError) else 0
        return load_arguments(arguments, limits, stopped)
    except LimitExceeded as exc:
        return limit_error(name, exc)
    except InvalidJSON as exc:
        return invalid_json(name, str(exc))
    except NotAnObject as exc:
        return ToolError(name, "arguments", f"Arguments for tool {name!r} {exc}")
    except NotJSONValue as exc:
        from .refusal import ArgumentsRefusal

        return ArgumentsRefusal(name, [(tuple(exc.path), str(exc))], more=False)


def invalid_json(name: str, reason: str) -> ToolError:
    """The error of tool *name*'s arguments that are no JSON text (*reason* says why)."""
    return ToolError(name, "arguments", f"Invalid JSON arguments for tool {name!r}: {reason}")


def limit_error(name: str, exc: LimitExceeded) -> ToolError:
    """The error of tool *name*'s arguments over a limit (*exc* says which, and by how much)."""
    return ToolError(name, "limit", f"Arguments for tool {name!r} are {exc}")


# Numbers are read as written here, also when this call is made while another call's fast path
# is structuring (see `typed_toolsets.types.typespec.exact_numbers`).
structures_numbers(ExactPath.__call__.__code__, exactly=True)
