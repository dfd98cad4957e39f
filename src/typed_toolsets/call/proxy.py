"""`ToolProxy`: one exported method, bound to a toolset instance, callable by a model."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

import attrs

from typed_toolsets.definition.classes import Export
from typed_toolsets.definition.declarations import ToolAnnotations
from typed_toolsets.definition.errors import ExportError
from typed_toolsets.definition.limits import Limits

from .fastpath import FastArguments
from .pipeline import (
    MISS,
    Failed,
    call_async,
    call_sync,
    execution_error,
    fast_arguments,
)
from .result import ToolError, ToolResult

if TYPE_CHECKING:
    from typed_toolsets._toolset import Toolset

__all__ = ["Arguments", "ToolProxy", "make_proxies"]

#: What the model-facing calls accept: a mapping, a JSON text, or None / empty for no arguments.
Arguments: TypeAlias = "Mapping[str, object] | str | bytes | None"


def _json_copy(value: Any) -> Any:
    # Schemas are plain JSON (dicts, lists, scalars); copying them this way is cheap and deep.
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, list):
        return [_json_copy(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value


def _last_resort(name: str, exc: BaseException) -> ToolError:
    return ToolError(name, "execution", f"Tool {name!r} failed: {type(exc).__name__}")


@attrs.frozen(eq=False)
class ToolProxy:
    """One exported method bound to a toolset instance: what an agent calls.

    Proxies are immutable and safe to share across threads. ``parameters``, ``schema`` and
    ``output_schema`` return fresh copies, so changing what you received never changes how calls
    are validated.

    Attributes:
        name: The exported tool name (``<toolset_name>_<method>`` unless overridden).
        description: The description shown to the model.
        method_name: The name of the method it calls.
        toolset: The toolset instance the method is bound to.
    """

    name: str
    description: str
    method_name: str
    toolset: Toolset
    _export: Export = attrs.field(repr=False, alias="export")
    _bound: Callable[..., Any] = attrs.field(repr=False, alias="bound")
    _fast: FastArguments | None = attrs.field(repr=False, alias="fast", default=None)
    # A tool without a timeout can be called right here, with no further dispatch.
    _direct: bool = attrs.field(repr=False, alias="direct", default=False)
    _direct_async: bool = attrs.field(repr=False, alias="direct_async", default=False)

    @property
    def parameters(self) -> dict[str, Any]:
        """The JSON Schema of the arguments object (a fresh, JSON-ready copy)."""
        method = self._export.method
        return _json_copy(method.parameters) if method is not None else {}

    @property
    def schema(self) -> dict[str, Any]:
        """``{"name": ..., "description": ..., "parameters": ...}`` (a fresh, JSON-ready copy)."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}

    @property
    def strict_parameters(self) -> dict[str, Any]:
        """The strict variant of `parameters` (OpenAI and Anthropic ``strict: true``), a fresh copy.

        Every property is required and every object closed (``additionalProperties: false``); a
        parameter or field with a default is nullable, its description says what ``null`` means,
        and ``typed_toolsets.export.dispatch(..., strict=True)`` maps ``null`` back to the default.
        Keywords some provider's strict mode lacks are still here; each export dialect moves
        them into descriptions.

        Raises:
            ExportError: A parameter has no lossless strict form (an object with free-form keys
                such as ``dict[str, T]``, or a nullable parameter whose default is not None);
                the message names the tool and each parameter.
        """
        method = self._export.method
        if method is None:  # pragma: no cover - exports are resolved before proxies exist
            return {}
        key = ("strict-parameters", self.name)
        found = method.cache.get(key)
        if found is None:
            from .strict import strict_parameters

            try:
                found = strict_parameters(self.name, method.parameters)
            except ExportError as exc:
                found = exc
            method.cache[key] = found
        if isinstance(found, ExportError):
            raise ExportError(found.problems)
        return _json_copy(found)  # type: ignore[no-any-return]

    @property
    def annotations(self) -> ToolAnnotations | None:
        """Hints for clients (MCP tool annotations): the tool's own laid over its toolset's."""
        return self._export.annotations

    @property
    def requires_approval(self) -> bool:
        """Whether an agent may run this tool only after its approval callback agrees."""
        return self._export.requires_approval

    @property
    def output_schema(self) -> dict[str, Any] | None:
        """The JSON Schema of the return annotation, or None when it has none (or it is None)."""
        method = self._export.method
        if method is None or method.output_schema is None:
            return None
        return _json_copy(method.output_schema)  # type: ignore[no-any-return]

    @property
    def is_async(self) -> bool:
        """Whether the method is an ``async def``."""
        method = self._export.method
        return method is not None and method.is_async

    @property
    def limits(self) -> Limits:
        """The `Limits` that apply to this tool."""
        return self._export.limits

    def call(self, **kwargs: Any) -> Any:
        """Call the method directly: no conversion, exceptions propagate, its result is returned.

        For an async method this returns the coroutine; await it, or use `acall`.
        """
        return self._bound(**kwargs)

    def __call__(self, **kwargs: Any) -> Any:
        """Same as `call`."""
        return self._bound(**kwargs)

    def invoke(self, arguments: Arguments = None) -> ToolResult:
        """Run the model-facing call and return a `ToolResult`.

        Args:
            arguments: A mapping, a JSON text, or None / ``""`` for no arguments.

        Returns:
            ``ToolResult(ok=True, value=...)``, or ``ok=False`` with a `ToolError` saying what to
            change. Never raises an `Exception`.
        """
        try:
            outcome = call_sync(self._export, self._bound, arguments, self._fast)
        except Exception as exc:  # noqa: BLE001 - the contract: never raise
            return ToolResult.failure(_last_resort(self.name, exc))
        if type(outcome) is Failed:
            return ToolResult.failure(outcome.error)
        return ToolResult.success(outcome)

    def dynamic_call(self, arguments: Arguments = None) -> Any:
        """Run the model-facing call: the method's return value, or ``"Error: <message>"``.

        Exactly ``r.value if r.ok else "Error: " + r.error.message`` for ``r = invoke(arguments)``.
        Never raises an `Exception`; `KeyboardInterrupt`, `SystemExit` and cancellation propagate.
        """
        fast = self._fast
        if fast is not None and self._direct:
            # The common case, kept flat: JSON text, checked and structured, then the call.
            try:
                kwargs = fast(arguments)
            except Exception:  # noqa: BLE001  # pragma: no cover - fast() never raises
                kwargs = MISS
            if kwargs is not MISS:
                try:
                    return self._bound(**kwargs)  # type: ignore[arg-type]  # pyright: ignore[reportCallIssue,reportUnknownVariableType]
                except Exception as exc:  # noqa: BLE001
                    return "Error: " + execution_error(self.name, exc).message
        try:
            outcome = call_sync(self._export, self._bound, arguments, fast)
        except Exception as exc:  # noqa: BLE001 - the contract: never raise
            return "Error: " + _last_resort(self.name, exc).message
        if type(outcome) is Failed:
            return "Error: " + outcome.error.message
        return outcome

    async def acall(self, **kwargs: Any) -> Any:
        """Call the method directly from async code (a sync method runs in a worker thread)."""
        if self.is_async:
            return await self._bound(**kwargs)
        return await asyncio.to_thread(self._bound, **kwargs)

    async def ainvoke(self, arguments: Arguments = None) -> ToolResult:
        """The async form of `invoke`; a sync method runs in a worker thread."""
        try:
            outcome = await call_async(self._export, self._bound, arguments, self._fast)
        except Exception as exc:  # noqa: BLE001
            return ToolResult.failure(_last_resort(self.name, exc))
        if type(outcome) is Failed:
            return ToolResult.failure(outcome.error)
        return ToolResult.success(outcome)

    async def adynamic_call(self, arguments: Arguments = None) -> Any:
        """The async form of `dynamic_call`."""
        fast = self._fast
        if fast is not None and self._direct_async:
            try:
                kwargs = fast(arguments)
            except Exception:  # noqa: BLE001  # pragma: no cover - fast() never raises
                kwargs = MISS
            if kwargs is not MISS:
                try:
                    return await self._bound(**kwargs)  # type: ignore[arg-type]  # pyright: ignore[reportCallIssue,reportUnknownVariableType]
                except Exception as exc:  # noqa: BLE001
                    return "Error: " + execution_error(self.name, exc).message
        try:
            outcome = await call_async(self._export, self._bound, arguments, self._fast)
        except Exception as exc:  # noqa: BLE001
            return "Error: " + _last_resort(self.name, exc).message
        if type(outcome) is Failed:
            return "Error: " + outcome.error.message
        return outcome


def make_proxies(exports: list[Export], instance: Toolset) -> list[ToolProxy]:
    """Bind each export to *instance*."""
    return [
        ToolProxy(
            name=export.name,
            description=export.description,
            method_name=export.method_name,
            toolset=instance,
            export=export,
            bound=getattr(instance, export.method_name),
            fast=fast_arguments(export),
            direct=export.limits.timeout is None
            and export.method is not None
            and not export.method.is_async,
            direct_async=export.limits.timeout is None
            and export.method is not None
            and export.method.is_async,
        )
        for export in exports
    ]
