"""`ToolProxy`: one exported method, bound to a toolset instance, callable by a model."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Generic, Literal, TypeAlias, cast, overload

import attrs
from typing_extensions import ParamSpec, TypeVar

# The package itself, for `Toolset`, defined above this layer: the package loads it lazily when
# the annotation is evaluated (`typing.get_type_hints`), or a proxy is loaded (`_rebuilt`).
import typed_toolsets
from typed_toolsets._public import public
from typed_toolsets.definition.classes import Export, check_present, exports_of
from typed_toolsets.definition.declarations import ToolAnnotations
from typed_toolsets.definition.errors import ExportError
from typed_toolsets.definition.limits import Limits
from typed_toolsets.rules.labels import safe_repr
from typed_toolsets.types.typespec import json_copy

from .exact import Failed
from .execution import awaitable
from .pipeline import Pipeline
from .result import ToolError, ToolResult, error_text
from .strict import JSONArguments, StrictArguments

__all__ = ["Arguments", "ToolProxy", "make_proxies"]

#: The method's parameters and return type; a bare ``ToolProxy`` is ``ToolProxy[..., Any]``.
_P = ParamSpec("_P", default=...)
_R_co = TypeVar("_R_co", covariant=True, default=Any)
_Q = ParamSpec("_Q")
_T = TypeVar("_T")

#: What the model-facing calls accept: a mapping, a JSON text, or None / empty for no arguments;
#: or such arguments written for the strict schema, as `StrictArguments`.
Arguments: TypeAlias = JSONArguments | StrictArguments


@public
@attrs.frozen(eq=False)
class ToolProxy(Generic[_P, _R_co]):
    """One exported method bound to a toolset instance: what an agent calls.

    Proxies are immutable and safe to share across threads. ``parameters``, ``schema`` and
    ``output_schema`` return fresh copies, so changing what you received never changes how calls
    are validated.

    Generic in the method's parameters and return type: ``ToolProxy[P, R]``, from
    `typed_toolsets.Toolset.proxy`, has a `call` with the method's own signature and an `invoke`
    returning ``ToolResult[R]`` (the awaited value's type for an async method). A bare
    ``ToolProxy``, as `to_tools` lists them, takes any arguments and returns ``Any``.

    ``attrs.evolve(proxy, name="other")`` renames the tool: the copy is the same tool under the
    new name, which its schema, its errors and refusals, and its own copies and pickles all say.

    Attributes:
        name: The exported tool name (``<toolset_name>_<method>`` unless overridden).
        description: The description shown to the model.
        method_name: The name of the method it calls.
        toolset: The toolset instance the method is bound to.
    """

    name: str
    description: str
    method_name: str
    toolset: typed_toolsets.Toolset
    _export: Export = attrs.field(repr=False, alias="export")
    _pipeline: Pipeline = attrs.field(repr=False, alias="pipeline")
    _bound: Callable[_P, _R_co] = attrs.field(repr=False, alias="bound")
    # The toolset the three fields above were made for: `toolset` unless the proxy was moved.
    _built_for: object = attrs.field(repr=False, eq=False, alias="built_for")

    def __attrs_post_init__(self) -> None:
        if self._built_for is not self.toolset:
            self._move()
            return
        # Renamed (`attrs.evolve(proxy, name=...)`): the export and its pipeline name the tool
        # in every message, so the renamed tool gets its own (built once per rename), whose
        # calls still count with the tool's (`Limits.max_concurrent`).
        export = self._export
        if export.name != self.name:
            export = attrs.evolve(export, name=self.name)
            object.__setattr__(self, "_export", export)
            object.__setattr__(self, "_pipeline", self._pipeline.renamed(export))

    def _move(self) -> None:
        """Moved to another toolset (`attrs.evolve(proxy, toolset=other)`): become its tool.

        The same tool of the other toolset, as a pickle loads it, so that its method is the one
        called; the other toolset must be of the proxy's class or a subclass of it.

        Raises:
            TypeError: The other toolset is of another class.
        """
        built = type(self._built_for)
        if not isinstance(self.toolset, built):
            msg = (
                f"attrs.evolve(proxy, toolset=...) takes a toolset of the tool's class, "
                f"{built.__qualname__}, or of a subclass (got {safe_repr(self.toolset, 60)}); "
                "take the tools of another toolset from its to_tools()"
            )
            raise TypeError(msg)
        moved = _rebuilt(self.toolset, self.name, self.method_name, self.description)
        object.__setattr__(self, "_export", moved._export)
        object.__setattr__(self, "_pipeline", moved._pipeline)
        object.__setattr__(self, "_bound", moved._bound)
        object.__setattr__(self, "_built_for", self.toolset)

    @property
    def parameters(self) -> dict[str, Any]:
        """The JSON Schema of the arguments object (a fresh, JSON-ready copy)."""
        method = self._export.method
        return json_copy(method.parameters) if method is not None else {}

    @property
    def schema(self) -> dict[str, Any]:
        """``{"name": ..., "description": ..., "parameters": ...}`` (a fresh, JSON-ready copy)."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}

    @property
    def strict_parameters(self) -> dict[str, Any]:
        """The strict variant of `parameters` (OpenAI and Anthropic ``strict: true``), a fresh copy.

        Every property is required and every object closed (``additionalProperties: false``); a
        parameter or field with a default is nullable and its description says what ``null``
        means. Call the tool with what a model wrote for it as `StrictArguments` (as
        ``typed_toolsets.export.dispatch(..., strict=True)`` does): ``null`` then stands for the
        default.
        Keywords some provider's strict mode lacks are still here; each export dialect moves
        them into descriptions.

        Raises:
            ExportError: A parameter has no lossless strict form (an object with free-form keys
                such as ``dict[str, T]``, or a nullable parameter whose default is not None);
                the message names the tool and each parameter.
        """
        found = self._pipeline.strict_parameters()
        if isinstance(found, ExportError):
            raise ExportError(found.problems)
        return json_copy(found)

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
        return json_copy(method.output_schema)

    @property
    def is_async(self) -> bool:
        """Whether the method is an ``async def``."""
        method = self._export.method
        return method is not None and method.is_async

    @property
    def inline(self) -> bool:
        """Whether the async forms run this sync method on the event loop's own thread.

        Declared with ``tool(..., inline=True)``; otherwise a sync method called from async code
        runs in a worker thread.
        """
        return self._export.inline

    @property
    def limits(self) -> Limits:
        """The `Limits` that apply to this tool."""
        return self._export.limits

    def __reduce__(self) -> tuple[Callable[..., ToolProxy], tuple[object, ...]]:
        """Pickled (or copied) as its toolset and its name: built again from them when loaded.

        What it holds besides is built per class, with compiled code and locks no pickle takes.
        A deep copy is the tool of a deep copy of the toolset. The toolset must pickle itself
        (its class importable, its fields picklable), as for any object sent to a process.
        """
        return _rebuilt, (self.toolset, self.name, self.method_name, self.description)

    # The bound method itself, not a method of the proxy's own: ``inspect.signature`` then shows
    # the method's parameters, where a forwarding ``call(*args, **kwargs)`` showed those two.
    @property
    def call(self) -> Callable[_P, _R_co]:
        """The method bound to the toolset: calling it is the direct call.

        No conversion, exceptions propagate, its result is returned; for an async method it
        returns the coroutine (await it, or use `acall`). Its signature is the method's own
        (``inspect.signature(proxy.call)``), and so is its type for a proxy from
        `typed_toolsets.Toolset.proxy`.
        """
        return self._bound

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R_co:
        """Same as `call`."""
        return self._bound(*args, **kwargs)

    # An async method's model-facing result is what its coroutine returns.
    @overload
    def invoke(
        self: ToolProxy[_Q, Awaitable[_T]], arguments: Arguments = None
    ) -> ToolResult[_T]: ...
    @overload
    def invoke(self: ToolProxy[_Q, _T], arguments: Arguments = None) -> ToolResult[_T]: ...
    def invoke(self, arguments: Arguments = None) -> ToolResult[Any]:
        """Run the model-facing call and return a `ToolResult`.

        Args:
            arguments: A mapping, a JSON text, or None / ``""`` for no arguments; wrapped in
                `StrictArguments` when written for `strict_parameters`.

        Returns:
            ``ToolResult(ok=True, value=...)``, or ``ok=False`` with a `ToolError` saying what to
            change. Never raises an `Exception`.
        """
        pipeline = self._pipeline
        if pipeline.direct:
            # `Pipeline.run` when it calls the method right there, without its frame.
            fast = pipeline.fast
            bound: Callable[..., Any] = self._bound
            try:
                kwargs = fast(arguments)
                if type(kwargs) is Failed:  # refused arguments
                    return kwargs.result
                value = bound(**kwargs)
            except BaseException as exc:  # noqa: BLE001 - reported unless it `propagates`
                return pipeline.failure(exc).result
            return ToolResult.success(value)
        outcome = pipeline.run(self._bound, arguments)
        return outcome.result if type(outcome) is Failed else ToolResult.success(outcome)

    def check(self, arguments: Arguments = None) -> ToolError | None:
        """Read and validate *arguments* as `invoke` would, without running the method.

        For a host that must decide about a call before it runs (an approval prompt shows only
        arguments the tool would accept, de-duplicated and within the limits). They are read
        again when the call is made: a class's own validator runs each time.

        Returns:
            The error `invoke` would return before running the method (``"arguments"`` or
            ``"limit"``, the latter also when the tool would not be started now: it runs as many
            calls as its `Limits.max_concurrent` allows, or it has a timeout and too many calls
            left at their deadline still run), or None when the arguments would reach it.
            Never raises an `Exception`; `KeyboardInterrupt`, `SystemExit` and cancellation
            propagate.
        """
        pipeline = self._pipeline
        try:
            kwargs = pipeline.fast(arguments)
        except BaseException as exc:  # noqa: BLE001 - reported unless it `propagates`
            return pipeline.failure(exc).error
        return kwargs.error if type(kwargs) is Failed else pipeline.not_started()

    def dynamic_call(self, arguments: Arguments = None) -> Any:
        """Run the model-facing call: the method's return value, or ``"Error: <message>"``.

        Exactly ``invoke(arguments).dynamic()``: ``r.value if r.ok else "Error: " +
        r.error.message``. Never raises an `Exception`; `KeyboardInterrupt`, `SystemExit` and
        cancellation propagate.
        """
        pipeline = self._pipeline
        if pipeline.direct:
            # `Pipeline.run` when it calls the method right there, without its frame.
            fast = pipeline.fast
            bound: Callable[..., Any] = self._bound
            try:
                kwargs = fast(arguments)
                if type(kwargs) is Failed:  # refused arguments
                    return error_text(kwargs.message)
                return bound(**kwargs)
            except BaseException as exc:  # noqa: BLE001 - reported unless it `propagates`
                return error_text(pipeline.failure(exc).message)
        outcome = pipeline.run(self._bound, arguments)
        return error_text(outcome.message) if type(outcome) is Failed else outcome

    @overload
    async def acall(
        self: ToolProxy[_Q, Awaitable[_T]], *args: _Q.args, **kwargs: _Q.kwargs
    ) -> _T: ...
    @overload
    async def acall(self: ToolProxy[_Q, _T], *args: _Q.args, **kwargs: _Q.kwargs) -> _T: ...
    async def acall(self, *args: Any, **kwargs: Any) -> Any:
        """Call the method directly from async code.

        A sync method runs in a worker thread, or on the loop's thread when it is `inline`.
        """
        if self.is_async and not self._pipeline.wrapper:
            # An `async def`: calling it made a coroutine.
            return await cast("Awaitable[Any]", self._bound(*args, **kwargs))
        if self._export.inline:
            return self._bound(*args, **kwargs)
        import asyncio  # a running loop loaded it; the module does not need it before

        returned, value = await asyncio.to_thread(_outcome, self._bound, args, kwargs)
        if not returned:
            # Raised here, not in the worker: an asyncio future cannot hold a StopIteration
            # (the call never ended); in this coroutine it becomes Python's RuntimeError.
            raise value
        # A sync wrapper of an async def may return the coroutine (or run it itself).
        return await value if self._pipeline.wrapper and awaitable(value) else value

    @overload
    async def ainvoke(
        self: ToolProxy[_Q, Awaitable[_T]], arguments: Arguments = None
    ) -> ToolResult[_T]: ...
    @overload
    async def ainvoke(self: ToolProxy[_Q, _T], arguments: Arguments = None) -> ToolResult[_T]: ...
    async def ainvoke(self, arguments: Arguments = None) -> ToolResult[Any]:
        """The async form of `invoke`; a sync method runs in a worker thread unless `inline`."""
        outcome = await self._pipeline.arun(self._bound, arguments)
        return outcome.result if type(outcome) is Failed else ToolResult.success(outcome)

    async def adynamic_call(self, arguments: Arguments = None) -> Any:
        """The async form of `dynamic_call`: exactly ``(await ainvoke(arguments)).dynamic()``."""
        outcome = await self._pipeline.arun(self._bound, arguments)
        return error_text(outcome.message) if type(outcome) is Failed else outcome


def make_proxies(exports: list[Export], instance: typed_toolsets.Toolset) -> list[ToolProxy]:
    """Bind each export to *instance*.

    Raises:
        ToolsetDefinitionError: A method was deleted from the class after it was created.
    """
    try:
        return [
            ToolProxy(
                name=export.name,
                description=export.description,
                method_name=export.method_name,
                toolset=instance,
                export=export,
                pipeline=Pipeline.of(export),
                bound=getattr(instance, export.method_name),
                built_for=instance,
            )
            for export in exports
        ]
    except AttributeError:
        # Looked for only now: binding is what fails without the method.
        check_present(type(instance), exports)
        raise


def _rebuilt(
    toolset: typed_toolsets.Toolset, name: str, method_name: str, description: str | None = None
) -> ToolProxy:
    """The tool *name* of *toolset*, as `ToolProxy.__reduce__` stores it.

    A *description* other than the class's (`attrs.evolve`) is kept; None keeps the class's
    (a pickle of an earlier version stores none).

    Only that tool is built, as ``toolset.to_tools()`` would build it: loading every tool of a
    toolset built them all for each.

    Raises:
        LookupError: The toolset's class no longer exports it (another version of the code).
    """
    exports = exports_of(type(toolset), typed_toolsets.Toolset)
    # By its method first: a class exports each method once, and a renamed proxy (attrs.evolve)
    # may bear the name of another of its tools.
    found = next((e for e in exports if e.method_name == method_name), None)
    if found is None:  # the method renamed since (another version of the code)
        found = next((e for e in exports if e.name == name), None)
    if found is None:
        msg = f"{type(toolset).__qualname__} exports no tool {name!r} (method {method_name!r})"
        raise LookupError(msg)
    proxy = make_proxies([found], toolset)[0]
    if description is None:
        description = proxy.description
    if proxy.name == name and proxy.description == description:
        return proxy
    return attrs.evolve(proxy, name=name, description=description)


def _outcome(
    func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[Literal[True], Any] | tuple[Literal[False], BaseException]:
    """``func(*args, **kwargs)``: (True, its value), or (False, what it raised)."""
    try:
        return True, func(*args, **kwargs)
    except BaseException as exc:  # noqa: BLE001 - raised again by the caller, in its coroutine
        return False, exc
