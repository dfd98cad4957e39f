"""The model-facing call: one pipeline behind `invoke`, `dynamic_call` and their async forms.

A model's arguments take one path (`Pipeline.run`, or `Pipeline.arun` from async code):

1. The fast path (`typed_toolsets.types.fastpath`) reads JSON text and structures it in one
   generated pass, once. What it cannot vouch for, it hands to the tool's `ExactPath`:
   `typed_toolsets.call.jsonin` parses strictly within the limits, the method's arguments model
   structures the arguments, and when it refuses them jsonschema decides (it has the final word)
   and `typed_toolsets.call.validation` explains every problem.
2. The method runs: directly, in a worker thread when it has a deadline (or, from async code,
   when it is sync), or as a task (async methods). Sync and async differ only in this step.

The outcome is the method's return value or a `Failed` carrying the `ToolResult` of the failure;
the proxy turns it into a `ToolResult` (``invoke``) or the value or ``"Error: ..."`` text
(``dynamic_call``). Nothing here raises an `Exception` to the caller; `KeyboardInterrupt`,
`SystemExit` and `asyncio.CancelledError` propagate.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Final

import attrs

from typed_toolsets.definition.classes import Export
from typed_toolsets.definition.errors import ExportError
from typed_toolsets.definition.limits import Limits
from typed_toolsets.types.arguments import ArgumentsVariant, Unbuilt
from typed_toolsets.types.fastpath import FastArguments
from typed_toolsets.types.typespec import Path, Schema, exact_numbers

from .jsonin import InvalidJSON, LimitExceeded, NotAnObject, NotJSONValue, load_arguments
from .result import ArgumentProblem, ToolError, ToolResult
from .strict import StrictArguments

if TYPE_CHECKING:
    # Imported where used: the first call of a sync tool without a deadline needs neither
    # (asyncio and concurrent.futures cost more than the rest of a first call together).
    import concurrent.futures

__all__ = [
    "MAX_ABANDONED_THREADS",
    "ExactPath",
    "Failed",
    "Pipeline",
    "Refused",
    "execution_error",
]

#: At most this many timed-out sync calls may still be running in abandoned threads; past that,
#: calls with a timeout are refused with a ``"limit"`` error until some finish.
MAX_ABANDONED_THREADS: Final = 32
_MAX_MESSAGE: Final = 2000


class Failed:
    """A failed call's `ToolResult`, wrapped.

    Wrapping keeps a tool's own return value from ever being mistaken for a failure: the class is
    private, so no tool returns one.
    """

    __slots__ = ("result",)

    def __init__(self, error: ToolError) -> None:
        self.result = ToolResult.failure(error)


#: The tool's return value, or a `Failed`.
Outcome = object


class Refused(Exception):  # noqa: N818 - a verdict, raised through the generated fast path
    """The exact path refuses the arguments; ``error`` says why."""

    def __init__(self, error: ToolError) -> None:
        super().__init__(error.message)
        self.error = error


# ------------------------------------------------------------------------------------ messages


def _exception_text(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - a broken __str__ must not break the error path
        text = ""
    name = type(exc).__name__
    if not text:
        return name
    if len(text) > _MAX_MESSAGE:
        text = text[: _MAX_MESSAGE - 3] + "..."
    return f"{name}: {text}"


def _internal_error(tool: str, exc: BaseException) -> ToolError:
    # Only a bug in this library gets here; the call still ends in an error, never an exception.
    message = (
        f"Invalid arguments for tool {tool!r}: they could not be processed ({_exception_text(exc)})"
    )
    return ToolError(tool, "arguments", message)


def execution_error(tool: str, exc: BaseException) -> ToolError:
    """The error for an exception raised by the tool itself."""
    return ToolError(tool, "execution", f"Tool {tool!r} failed: {_exception_text(exc)}")


def _arguments_error(tool: str, problems: list[tuple[Path, str]], more: bool) -> ToolError:
    from .validation import dotted_path, json_path

    parts = [f"{dotted_path(path)}: {reason}" for path, reason in problems]
    message = f"Invalid arguments for tool {tool!r}: " + "; ".join(parts)
    if more:
        message += "; (more problems not shown)"
    details = tuple(ArgumentProblem(json_path(path), reason) for path, reason in problems)
    return ToolError(tool, "arguments", message, details)


def _type_name(annotation: object) -> str:
    name = getattr(annotation, "__qualname__", None)
    return name if isinstance(name, str) else repr(annotation)


def _unbuilt_problem(unbuilt: Unbuilt) -> tuple[Path, str]:
    cause = (
        "it does not match the schema" if unbuilt.cause is None else _exception_text(unbuilt.cause)
    )
    return unbuilt.path, f"could not be converted to {_type_name(unbuilt.annotation)}: {cause}"


# ------------------------------------------------------------------------------ running methods


class _Abandoned:
    """Counts timed-out sync calls whose threads are still running."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()


_abandoned = _Abandoned()


def _start_thread(
    name: str, func: Callable[..., Any], kwargs: dict[str, object]
) -> tuple[concurrent.futures.Future[Any], dict[str, bool]]:
    import concurrent.futures

    future: concurrent.futures.Future[Any] = concurrent.futures.Future()
    state = {"abandoned": False}

    def worker() -> None:
        try:
            result = func(**kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
            future.set_exception(exc)
        else:
            future.set_result(result)
        finally:
            with _abandoned.lock:
                if state["abandoned"]:
                    _abandoned.count -= 1

    thread = threading.Thread(target=worker, name=f"typed_toolsets {name}", daemon=True)
    thread.start()
    return future, state


def _too_many_abandoned(name: str) -> Failed | None:
    with _abandoned.lock:
        if _abandoned.count >= MAX_ABANDONED_THREADS:
            message = (
                f"Tool {name!r} was not started: {_abandoned.count} earlier calls that timed out "
                f"are still running (the limit is {MAX_ABANDONED_THREADS} abandoned threads); "
                "try again later"
            )
            return Failed(ToolError(name, "limit", message))
    return None


def _abandon(future: concurrent.futures.Future[Any], state: dict[str, bool]) -> bool:
    """Mark a timed-out call abandoned; False if it finished in the meantime."""
    with _abandoned.lock:
        if future.done():
            return False
        state["abandoned"] = True
        _abandoned.count += 1
        return True


# ---------------------------------------------------------------------------------- exact path


@attrs.frozen
class ExactPath:
    """The exact path of one tool: the verdict on the arguments the fast path does not vouch for.

    Strict parsing within the limits (`typed_toolsets.call.jsonin`), then the arguments model's
    structurer; what that refuses, jsonschema explains (`typed_toolsets.call.validation`). Equal
    paths (same tool name, limits and arguments) share one fast path.

    Attributes:
        name: The exported tool name (every error names it).
        limits: The limits that apply.
        arguments: The form of the method's arguments read.
    """

    name: str
    limits: Limits
    arguments: ArgumentsVariant
    # The fast path of the strict form, built on first use (a plain holder, as `Pipeline`'s).
    _strict: list[FastArguments[dict[str, object]]] = attrs.field(
        init=False, factory=list, eq=False, repr=False
    )

    def __call__(self, arguments: object, refused: bool = False) -> dict[str, object]:
        """The keyword arguments, checked exactly.

        Args:
            arguments: What the caller passed. `StrictArguments` (never JSON text, so the fast
                path always hands them here) go to the strict form's own fast path.
            refused: The fast path already failed to structure this text: go straight to the
                validator once the text is parsed.

        Raises:
            Refused: With the error to report (it raises nothing else).
        """
        if type(arguments) is StrictArguments:
            try:
                strict = self.strict()
            except Exception as exc:  # noqa: BLE001 - a bug here must still end in an error
                raise Refused(_internal_error(self.name, exc)) from None
            return strict(arguments.arguments)
        # Numbers are read as written here, also when this call is made while another call's
        # fast path is structuring (its mode is restored afterwards).
        token = exact_numbers.set(True)
        try:
            checked = self._check(arguments, refused)
        except Exception as exc:  # noqa: BLE001 - a bug here must still end in an error
            checked = _internal_error(self.name, exc)
        finally:
            exact_numbers.reset(token)
        if isinstance(checked, ToolError):
            raise Refused(checked)
        return checked

    def strict(self) -> FastArguments[dict[str, object]]:
        """The fast path of the strict form of these arguments, built once.

        It hands over to the strict form's own exact path, and raises `Refused` as this one does.
        """
        found = self._strict
        if not found:
            variant = self.arguments.strict_form()
            exact = ExactPath(self.name, self.limits, variant)
            limits = self.limits
            found.append(variant.fast_path(limits.max_argument_bytes, limits.max_depth, exact))
        return found[0]

    def _check(self, arguments: object, refused: bool) -> dict[str, object] | ToolError:
        name = self.name
        try:
            args = load_arguments(arguments, self.limits)
        except LimitExceeded as exc:
            return ToolError(name, "limit", f"Arguments for tool {name!r} are {exc}")
        except InvalidJSON as exc:
            return ToolError(name, "arguments", f"Invalid JSON arguments for tool {name!r}: {exc}")
        except NotAnObject as exc:
            return ToolError(name, "arguments", f"Arguments for tool {name!r} {exc}")
        except NotJSONValue as exc:
            return _arguments_error(name, [(tuple(exc.path), str(exc))], more=False)
        if refused:
            return self._explain(args)
        try:
            return self.arguments.structure(args)
        except Exception:  # noqa: BLE001 - whatever the refusal, the validator explains it
            return self._explain(args)

    def _explain(self, args: dict[str, object]) -> dict[str, object] | ToolError:
        """Validate *args*: the problems jsonschema finds, or the arguments built one by one."""
        from .validation import problems

        try:
            found, more = problems(self.arguments.validator(), args)
        except RecursionError:
            message = (
                f"Arguments for tool {self.name!r} are nested too deeply to validate "
                f"(Limits.max_depth={self.limits.max_depth}); send a flatter structure"
            )
            return ToolError(self.name, "limit", message)
        if found:
            return _arguments_error(self.name, found, more)
        converted = self.arguments.convert(args)
        if isinstance(converted, list):
            failures = [_unbuilt_problem(unbuilt) for unbuilt in converted]
            return _arguments_error(self.name, failures, more=False)
        return converted


# ------------------------------------------------------------------------------------ pipeline

#: The pipeline of each export, kept as long as the export (its class) lives.
_pipelines: weakref.WeakKeyDictionary[Export, Pipeline] = weakref.WeakKeyDictionary()


@attrs.frozen(eq=False)
class Pipeline:
    """The model-facing call of one exported tool; every instance's proxy of it shares one.

    Attributes:
        exact: The exact path.
        fast: The keyword arguments, by the fast path for JSON text when it can vouch for them,
            else by `exact` (which raises `Refused` with the error to report).
        is_async: Whether the method is an ``async def``.
        direct: `run` calls the (sync) method right there: no deadline to watch.
        adirect: `arun` awaits the (async) method right there: no deadline to watch.
        ainline: `arun` calls the (sync) method right there, on the event loop's thread: it is
            declared ``tool(..., inline=True)`` (which refuses a deadline).
    """

    exact: ExactPath
    fast: FastArguments[dict[str, object]]
    is_async: bool
    direct: bool
    adirect: bool
    ainline: bool = False

    # Built on first use (a plain holder: a cached_property would give the class a __getattr__,
    # which makes every attribute read on the hot path slower).
    _strict: list[Schema | ExportError] = attrs.field(init=False, factory=list, repr=False)

    def strict_parameters(self) -> Schema | ExportError:
        """The strict variant of the arguments schema, or why the tool has none; built once.

        See `typed_toolsets.call.strict`.
        """
        strict = self._strict
        if not strict:
            from .strict import strict_parameters

            try:
                strict.append(strict_parameters(self.exact.name, self.exact.arguments.schema))
            except ExportError as exc:
                strict.append(exc)
        return strict[0]

    @classmethod
    def of(cls, export: Export) -> Pipeline:
        """The pipeline of *export* (its method is resolved), built once per export."""
        found = _pipelines.get(export)
        if found is None:
            found = _pipelines[export] = cls._build(export)
        return found

    @classmethod
    def _build(cls, export: Export) -> Pipeline:
        method = export.method
        if method is None:  # pragma: no cover - exports are resolved before proxies exist
            msg = f"the tool {export.name!r} has an unresolved annotation"
            raise RuntimeError(msg)
        variant = method.arguments.standard
        limits = export.limits
        exact = ExactPath(export.name, limits, variant)
        unbounded = limits.timeout is None
        return cls(
            exact=exact,
            fast=variant.fast_path(limits.max_argument_bytes, limits.max_depth, exact),
            is_async=method.is_async,
            direct=unbounded and not method.is_async,
            adirect=unbounded and method.is_async,
            ainline=export.inline and unbounded and not method.is_async,
        )

    # -------------------------------------------------------------------------------- running

    def run(self, bound: Callable[..., Any], arguments: object) -> Outcome:
        """The whole call of *bound* (the method), from sync code: its value, or a `Failed`.

        A sync method runs here (in a worker thread when it has a deadline); an async one runs
        to completion when no event loop is running in this thread. Never raises an `Exception`.
        """
        # Read from the slot first: calling ``self.fast(...)`` would look it up as a method.
        fast = self.fast
        try:
            kwargs = fast(arguments)
            if self.direct:
                return bound(**kwargs)
            return self._execute(bound, kwargs)
        except Refused as refused:
            return Failed(refused.error)
        except Exception as exc:  # noqa: BLE001 - the tool's own failure, reported
            return Failed(execution_error(self.exact.name, exc))

    async def arun(self, bound: Callable[..., Any], arguments: object) -> Outcome:
        """The whole call of *bound*, from async code: a sync method runs in a worker thread.

        An inline sync method (``tool(..., inline=True)``) runs right here, on the loop's thread.
        """
        fast = self.fast
        try:
            kwargs = fast(arguments)
            if self.adirect:
                return await bound(**kwargs)
            if self.ainline:
                return bound(**kwargs)
            return await self._aexecute(bound, kwargs)
        except Refused as refused:
            return Failed(refused.error)
        except Exception as exc:  # noqa: BLE001 - the tool's own failure, reported
            return Failed(execution_error(self.exact.name, exc))

    def _execute(self, bound: Callable[..., Any], kwargs: dict[str, object]) -> Outcome:
        import asyncio
        import concurrent.futures

        if self.is_async:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                return asyncio.run(self._await(bound(**kwargs)))
            message = (
                f"Tool {self.exact.name!r} is async and an event loop is running in this thread; "
                "use `await proxy.ainvoke(...)` or `await proxy.adynamic_call(...)` instead"
            )
            return Failed(ToolError(self.exact.name, "execution", message))
        # A sync method with a deadline (`run` calls the others directly).
        refused = _too_many_abandoned(self.exact.name)
        if refused is not None:
            return refused
        started = time.monotonic()
        future, state = _start_thread(self.exact.name, bound, kwargs)
        try:
            return future.result(self.exact.limits.timeout)
        except concurrent.futures.TimeoutError:
            if _abandon(future, state):
                return self._timed_out(started, sync=True)
            # It finished right at the deadline: take its outcome.
        except Exception as exc:  # noqa: BLE001 - the tool's failure, reported
            return Failed(execution_error(self.exact.name, exc))
        return self._outcome(lambda: future.result(0))

    async def _aexecute(self, bound: Callable[..., Any], kwargs: dict[str, object]) -> Outcome:
        import asyncio

        if self.is_async:
            return await self._await(bound(**kwargs))
        timeout = self.exact.limits.timeout
        if timeout is None:
            try:
                return await asyncio.to_thread(bound, **kwargs)
            except Exception as exc:  # noqa: BLE001 - the tool's failure, reported
                return Failed(execution_error(self.exact.name, exc))
        refused = _too_many_abandoned(self.exact.name)
        if refused is not None:
            return refused
        started = time.monotonic()
        future, state = _start_thread(self.exact.name, bound, kwargs)
        wrapped = asyncio.wrap_future(future)
        try:
            done, _ = await asyncio.wait({wrapped}, timeout=timeout)
        except asyncio.CancelledError:
            _abandon(future, state)
            raise
        if not done and _abandon(future, state):
            return self._timed_out(started, sync=True)
        return self._outcome(lambda: future.result(0))

    async def _await(self, coroutine: Coroutine[Any, Any, Any]) -> Outcome:
        """Await an async method's coroutine, cancelling it at the deadline."""
        import asyncio
        import contextlib

        timeout = self.exact.limits.timeout
        if timeout is None:
            try:
                return await coroutine
            except Exception as exc:  # noqa: BLE001 - the tool's failure, reported
                return Failed(execution_error(self.exact.name, exc))
        started = time.monotonic()
        task = asyncio.ensure_future(coroutine)
        try:
            done, _ = await asyncio.wait({task}, timeout=timeout)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if not done:
            task.cancel()
            with contextlib.suppress(BaseException):  # the cancellation we asked for
                await task
            return self._timed_out(started, sync=False)
        return self._outcome(task.result)

    def _outcome(self, result: Callable[[], object]) -> Outcome:
        """What *result* returns, or the execution error for what it raises."""
        try:
            return result()
        except Exception as exc:  # noqa: BLE001 - the tool's failure, reported
            return Failed(execution_error(self.exact.name, exc))

    def _timed_out(self, started: float, *, sync: bool) -> Failed:
        waited = time.monotonic() - started
        note = "; its thread may still be running" if sync else "; it was cancelled"
        message = (
            f"Tool {self.exact.name!r} timed out: no result after {waited:.2f} s "
            f"(Limits.timeout={self.exact.limits.timeout}){note}"
        )
        return Failed(ToolError(self.exact.name, "timeout", message))
