"""The outcome of a model-facing call: `ToolResult`, `ToolError` and `ArgumentProblem`."""

from __future__ import annotations

import itertools
import reprlib
import typing
from typing import Any, Final, Generic, Literal, TypeAlias

import attrs
from typing_extensions import Never, TypeVar

from typed_toolsets._public import public

__all__ = ["ArgumentProblem", "ErrorKind", "ToolError", "ToolResult", "error_text", "short_repr"]

#: The type of a result's value (`object` for a bare ``ToolResult``).
_R_co = TypeVar("_R_co", covariant=True, default=object)
_T = TypeVar("_T")

#: What went wrong: the arguments, the tool itself, its deadline, or a size/depth/thread limit.
ErrorKind: TypeAlias = Literal["arguments", "execution", "timeout", "limit"]


@public
@attrs.frozen
class ArgumentProblem:
    """One problem with the arguments.

    Attributes:
        path: Where, as a JSON path (``$.owner.age``, ``$.tags[3]``; ``$`` is the arguments
            object itself).
        message: What is wrong and what to send instead.
    """

    path: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """Return ``{"path": ..., "message": ...}``."""
        return {"path": self.path, "message": self.message}


@public
@attrs.frozen
class ToolError:
    """Why a call failed.

    Attributes:
        tool: The exported tool name.
        kind: ``"arguments"``, ``"execution"``, ``"timeout"`` or ``"limit"``.
        message: The whole explanation, written for a model to correct itself and for a person to
            debug; it names the tool.
        details: For ``"arguments"``, one entry per problem; empty otherwise.
    """

    tool: str
    kind: ErrorKind
    message: str
    details: tuple[ArgumentProblem, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return the error envelope shared by every export dialect.

        ``{"error": {"kind": ..., "tool": ..., "message": ..., "details": [{"path": ...,
        "message": ...}]}}``
        """
        return {
            "error": {
                "kind": self.kind,
                "tool": self.tool,
                "message": self.message,
                "details": [d.to_dict() for d in self.details],
            }
        }


class _InOrder(reprlib.Repr):
    """reprlib's cut of long values, with a dict's items in their own order (reprlib sorts)."""

    def repr_dict(self, x: dict[Any, Any], level: int) -> str:
        if not x:
            return "{}"
        if level <= 0:
            return "{...}"
        below = level - 1
        items = itertools.islice(x.items(), self.maxdict)
        shown = [f"{self.repr1(key, below)}: {self.repr1(value, below)}" for key, value in items]
        if len(x) > self.maxdict:
            shown.append("...")
        return "{" + ", ".join(shown) + "}"


def _values_repr() -> reprlib.Repr:
    shown = _InOrder()
    shown.maxstring = shown.maxother = shown.maxlong = 200
    shown.maxlist = shown.maxtuple = shown.maxdict = shown.maxset = shown.maxfrozenset = 32
    shown.maxlevel = 6
    return shown


_VALUES_REPR: Final = _values_repr()


def short_repr(value: object) -> str:
    """*value* in a repr, cut where long: a result of 10 MB would fill a log line with it."""
    return _VALUES_REPR.repr(value)


@public
@attrs.frozen
class ToolResult(Generic[_R_co]):
    """The result of `ToolProxy.invoke`: a value, or an error.

    Generic in the type of the value: ``ToolResult[int]`` from a tool whose method returns
    ``int`` (see `typed_toolsets.Toolset.proxy`); a bare ``ToolResult`` holds an ``object``.

    Attributes:
        ok: True when the tool ran and returned.
        value: What the method returned (None when not ``ok``).
        error: Why the call failed (None when ``ok``).
    """

    ok: bool
    value: _R_co | None = attrs.field(default=None, repr=short_repr)
    error: ToolError | None = None

    @classmethod
    def success(cls, value: _T) -> ToolResult[_T]:
        """A successful result carrying *value*."""
        return ToolResult(ok=True, value=value, error=None)

    @classmethod
    def failure(cls, error: ToolError) -> ToolResult[Never]:
        """A failed result carrying *error* (a result of any value type)."""
        return ToolResult(ok=False, value=None, error=error)

    def dynamic(self) -> _R_co | str:
        """The `ToolProxy.dynamic_call` form: the value, or ``"Error: " + message``."""
        if self.ok or self.error is None:
            # The value when ok (None only for a method that returns it).
            return typing.cast("_R_co", self.value)
        return error_text(self.error.message)


def error_text(message: str) -> str:
    """The `ToolProxy.dynamic_call` form of a failure with *message*: ``"Error: " + message``."""
    return "Error: " + message
