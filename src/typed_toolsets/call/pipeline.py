"""The model-facing call: one pipeline behind `invoke`, `dynamic_call` and their async forms.

A model's arguments take one path (`Pipeline.run`, or `Pipeline.arun` from async code):

1. The fast path (`typed_toolsets.types.fastpath`) reads JSON text and structures it in one
   generated pass, once. What it cannot vouch for, it hands to the tool's `ExactPath`:
   `typed_toolsets.call.jsonin` parses strictly within the limits, the method's arguments model
   structures the arguments, and when it refuses them the schema decides (jsonschema's verdict,
   found in linear time by `typed_toolsets.call.checker`) and `typed_toolsets.call.refusal`
   reports every problem.
2. The method runs: directly, in a worker thread when it has a deadline (or, from async code,
   when it is sync), or as a task (async methods). Sync and async differ only in this step;
   `typed_toolsets.call.execution` counts what is left running at a deadline and words failures.

The outcome is the method's return value or a `Failed` carrying the `ToolResult` of the failure;
the proxy turns it into a `ToolResult` (``invoke``) or the value or ``"Error: ..."`` text
(``dynamic_call``). Nothing here raises an `Exception` to the caller; `KeyboardInterrupt`,
`SystemExit` and `asyncio.CancelledError` propagate.
"""

from __future__ import annotations

import time
import typing
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import attrs
from typing_extensions import Never

from typed_toolsets.definition.classes import Export
from typed_toolsets.definition.errors import ExportError
from typed_toolsets.definition.limits import Limits
from typed_toolsets.types.arguments import ArgumentsVariant
from typed_toolsets.types.fastpath import FastArguments
from typed_toolsets.types.handover import CutShort, Handover
from typed_toolsets.types.typespec import Schema, structures_numbers

from . import execution
from .execution import CANCEL_GRACE, execution_error, internal_error, propagates
from .jsonhints import json_hint
from .jsonin import (
    InvalidJSON,
    LimitExceeded,
    NotAnObject,
    NotJSONValue,
    depth_limit,
    load_arguments,
)
from .offload import large
from .result import ToolError, ToolResult
from .strict import StrictArguments

if TYPE_CHECKING:
    # Imported where used: the first call of a sync tool without a deadline needs neither
    # (asyncio and concurrent.futures cost more than the rest of a first call together).
    import concurrent.futures

    from .refusal import ArgumentsRefusal, Verdict

__all__ = ["ExactPath", "Failed", "Pipeline", "limit_error", "read_arguments"]

# How much longer than its deadline and grace a sync caller waits for an async tool's own event
# loop before leaving its thread behind (a tool that blocks that loop cannot be cancelled).
_LOOP_MARGIN: Final = 0.5

# How a timeout's message ends when the call's thread, which nothing can stop, is left running.
_THREAD_LEFT: Final = "its thread may still be running"
# How it ends when an async tool blocked its event loop past the deadline (then ended).
_BLOCKED_LOOP: Final = (
    "it blocked the event loop, so it could not be cancelled at its deadline; what it returned "
    "after it is dropped"
)


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


#: The tool's return value, or a `Failed`.
Outcome = object


def tool_error(verdict: Verdict) -> ToolError:
    """The `ToolError` of *verdict*."""
    if type(verdict) is ToolError:
        return verdict
    return typing.cast("ArgumentsRefusal", verdict).error()


def _not_started(name: str) -> Failed | None:
    """The failure of a call with a deadline while too many abandoned calls still run."""
    error = execution.too_many_abandoned(name)
    return None if error is None else Failed(error)


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
    if isinstance(handover, CutShort):
        # The strict parser's own error, found by the fast path: not read again (nor raised).
        hint = json_hint(handover.msg, handover.doc, handover.pos)
        return invalid_json(name, f"{handover}{hint}")
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


# ------------------------------------------------------------------------------------ pipeline

#: The pipeline of each export, kept as long as the export (its class) lives.
_pipelines: weakref.WeakKeyDictionary[Export, Pipeline] = weakref.WeakKeyDictionary()


@attrs.frozen(eq=False)
class Pipeline:
    """The model-facing call of one exported tool; every instance's proxy of it shares one.

    Attributes:
        exact: The exact path.
        fast: The keyword arguments, by the fast path for JSON text when it can vouch for them,
            else by `exact` (which returns a `Failed` with the verdict to report instead).
        is_async: Whether the method is an ``async def`` (or a sync wrapper of one).
        direct: `run` calls the (sync) method right there: no deadline to watch.
        adirect: `arun` awaits the (async) method right there: no deadline to watch.
        ainline: `arun` calls the (sync) method right there, on the event loop's thread: it is
            declared ``tool(..., inline=True)`` (which refuses a deadline).
        wrapper: The method is a plain ``def`` wrapper of an ``async def``
            (`typed_toolsets.definition.methods.MethodInfo.sync_wrapper`).
    """

    exact: ExactPath
    fast: FastArguments[dict[str, object] | Failed]
    is_async: bool
    direct: bool
    adirect: bool
    ainline: bool = False
    wrapper: bool = False

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
                strict.append(strict_parameters(self.exact.name, self.exact.arguments))
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
            fast=exact.fast(),
            is_async=method.is_async,
            direct=unbounded and not method.is_async,
            adirect=unbounded and method.is_async and not method.sync_wrapper,
            ainline=export.inline and unbounded and not method.is_async,
            wrapper=method.sync_wrapper,
        )

    # -------------------------------------------------------------------------------- running

    def run(self, bound: Callable[..., Any], arguments: object) -> Outcome:
        """The whole call of *bound* (the method), from sync code: its value, or a `Failed`.

        A sync method runs here (in a worker thread when it has a deadline); an async one runs
        to completion when no event loop is running in this thread. Never raises an `Exception`.
        The proxy's ``invoke`` and ``dynamic_call`` make a `direct` call themselves, as here.
        """
        # Read from the slot first: calling ``self.fast(...)`` would look it up as a method.
        fast = self.fast
        try:
            kwargs = fast(arguments)
            if type(kwargs) is Failed:
                return kwargs
            if self.direct:
                return bound(**kwargs)
            return self._execute(bound, kwargs)
        except BaseException as exc:  # noqa: BLE001 - reported unless it `propagates`
            return self.failure(exc)

    async def arun(self, bound: Callable[..., Any], arguments: object) -> Outcome:
        """The whole call of *bound*, from async code: a sync method runs in a worker thread.

        Large arguments are read in a worker thread too (`typed_toolsets.call.offload`), so
        neither accepting nor refusing them holds the event loop for long.
        """
        fast = self.fast
        try:
            if large(arguments):
                read = await self._in_thread(fast, arguments)
                kwargs = typing.cast("dict[str, object] | Failed", read)
            else:
                kwargs = fast(arguments)
            if type(kwargs) is Failed:
                return kwargs
            if self.adirect:
                return await bound(**kwargs)
            if self.ainline:
                return bound(**kwargs)
            return await self._aexecute(bound, kwargs)
        except BaseException as exc:  # reported unless it `propagates` (or the caller is cancelled)
            if execution.being_cancelled(exc):
                # The tool turned the caller's cancellation into another exception: the caller
                # is cancelled all the same (an enclosing `asyncio.timeout` counts on it), with
                # the cancellation's own words, by which anyio knows its cancel scope's.
                import asyncio

                cause = execution.cancellation_in(exc, asyncio.CancelledError)
                raise asyncio.CancelledError(*(cause.args if cause else ())) from exc
            return self.failure(exc)

    def not_started(self) -> ToolError | None:
        """The refusal a call would get before it starts, whatever its arguments (None: none).

        A tool with a deadline is not started while too many calls left at theirs still run.
        """
        if self.exact.limits.timeout is None:
            return None
        refused = _not_started(self.exact.name)
        return None if refused is None else refused.error

    def failure(self, exc: BaseException) -> Failed:
        """The outcome of a call that raised *exc*: the tool's own failure.

        Raises:
            BaseException: *exc* itself when it `propagates` (the host is stopping).
        """
        if propagates(exc):
            raise exc
        return Failed(execution_error(self.exact.name, exc))

    def _execute(self, bound: Callable[..., Any], kwargs: dict[str, object]) -> Outcome:
        import asyncio

        name = self.exact.name
        timeout = self.exact.limits.timeout
        if self.is_async:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                pass
            else:
                message = (
                    f"Tool {name!r} is async and an event loop is running in this thread; "
                    "use `await proxy.ainvoke(...)` or `await proxy.adynamic_call(...)` instead "
                    "(through typed_toolsets.export: adispatch, arespond, amcp_call)"
                )
                return Failed(ToolError(name, "execution", message))
            if timeout is None:
                return execution.run_apart(self._await(bound, kwargs))
            return self._drive(bound, kwargs, timeout)
        # A sync method with a deadline (`run` calls the others directly).
        refused = _not_started(name)
        if refused is not None:
            return refused
        started = time.monotonic()
        future, state = execution.start_thread(name, bound, kwargs, timeout=timeout)
        return self._wait(future, state, started, timeout)

    def _drive(
        self, bound: Callable[..., Any], kwargs: dict[str, object], timeout: float
    ) -> Outcome:
        """Run an async method with a deadline from sync code, on its own loop in a thread.

        The loop's thread is what lets a task that ignores its cancellation be left behind: the
        caller gets the timeout while the thread runs the task to its end (counted as abandoned).
        """
        import asyncio

        refused = _not_started(self.exact.name)
        if refused is not None:
            return refused
        started = time.monotonic()
        loop = asyncio.new_event_loop()
        future, state = execution.start_thread(  # in the caller's context, as asyncio.run is
            self.exact.name,
            lambda: loop.run_until_complete(self._await(bound, kwargs)),
            {},
            after=lambda: execution.finish_loop(loop),
        )
        return self._wait(future, state, started, timeout + CANCEL_GRACE + _LOOP_MARGIN)

    def _wait(
        self,
        future: concurrent.futures.Future[Any],
        state: dict[str, bool],
        started: float,
        timeout: float | None,
    ) -> Outcome:
        """The outcome of a worker thread, or a timeout after *timeout* seconds (it goes on)."""
        import concurrent.futures

        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            if execution.abandon(future, state):
                return self._timed_out(started, _THREAD_LEFT)
            # It finished right at the deadline: take its outcome.
        except BaseException:
            # Ctrl-C (or an exit) while waiting: the thread goes on, and is counted.
            execution.abandon(future, state)
            raise
        return future.result(0)

    async def _in_thread(
        self, func: Callable[..., Any], /, *args: object, **kwargs: object
    ) -> Outcome:
        """`_captured` in a worker thread (*kwargs*, a tool's arguments, may hold a ``func``)."""
        import asyncio

        return await asyncio.to_thread(self._captured, func, *args, **kwargs)

    def _captured(self, func: Callable[..., Any], /, *args: object, **kwargs: object) -> Outcome:
        """``func(*args, **kwargs)``: its value, or a `Failed`.

        What it raises is reported here, in the thread: a ``GeneratorExit`` handed back through
        the awaiting coroutines would close them instead of reaching their handlers.
        """
        try:
            return func(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - reported unless it `propagates`
            return self.failure(exc)

    async def _aexecute(self, bound: Callable[..., Any], kwargs: dict[str, object]) -> Outcome:
        timeout = self.exact.limits.timeout
        if self.is_async:
            if timeout is not None:
                refused = _not_started(self.exact.name)
                if refused is not None:
                    return refused
            return await self._await(bound, kwargs)
        if timeout is None:
            return await self._in_thread(bound, **kwargs)
        refused = _not_started(self.exact.name)
        if refused is not None:
            return refused
        started = time.monotonic()
        future, state = execution.start_thread(self.exact.name, bound, kwargs, timeout=timeout)
        if not await execution.wait_thread(future, state, timeout):
            return self._timed_out(started, _THREAD_LEFT)
        raised = future.exception(0)  # not raised: a StopIteration here becomes a RuntimeError
        return future.result(0) if raised is None else self.failure(raised)

    async def _unwrapped(
        self, bound: Callable[..., Any], kwargs: dict[str, object], left: list[dict[str, bool]]
    ) -> Outcome:
        # A sync wrapper of an async def returns its coroutine, or runs it itself with
        # asyncio.run, which the thread of a running loop refuses: it is called in a worker
        # thread (with a deadline, its own: counted when left running, holding no worker of the
        # loop's executor, and noted in *left* for `_await`), and what it returns is awaited
        # here when it needs to be.
        if self.exact.limits.timeout is None:
            value = await self._in_thread(bound, **kwargs)
        else:
            call = lambda: self._captured(bound, **kwargs)  # noqa: E731
            value = await execution.call_in_own_thread(self.exact.name, call, left)
        return await value if execution.awaitable(value) else value

    async def _await(self, bound: Callable[..., Any], kwargs: dict[str, object]) -> Outcome:
        """Call an async method and await its coroutine, cancelling it at the deadline.

        A task that does not stop within `CANCEL_GRACE` of its cancellation is left behind
        (counted, as abandoned threads are) and the call reports its timeout; so is the thread
        of a sync wrapper still running at the deadline.
        """
        import asyncio

        timeout = self.exact.limits.timeout
        # The state of a sync wrapper's thread, once started (`_unwrapped`).
        left: list[dict[str, bool]] = []
        coroutine = self._unwrapped(bound, kwargs, left) if self.wrapper else bound(**kwargs)
        if timeout is None:
            return await coroutine
        started = time.monotonic()
        task = asyncio.ensure_future(execution.contained(coroutine))
        try:
            done, _ = await asyncio.wait({task}, timeout=timeout)
            if done:
                if time.monotonic() - started > timeout + CANCEL_GRACE + _LOOP_MARGIN:
                    # It held the loop past its deadline, so no timer could stop it: late, as
                    # the sync form (which waits this long for a blocked loop) reports it.
                    execution.retrieved(task)
                    return self._timed_out(started, _BLOCKED_LOOP)
                value = task.result()
                if isinstance(value, execution.Exited):
                    raise value.exc
                return value
            task.cancel()
            stopped, _ = await asyncio.wait({task}, timeout=CANCEL_GRACE)
        except asyncio.CancelledError:  # the caller is cancelled: so is the tool
            task.cancel()
            execution.abandon_task(task)
            raise
        if not stopped:
            execution.abandon_task(task)
            note = f"it was cancelled but did not stop within {CANCEL_GRACE} s, and is left running"
            return self._timed_out(started, note)
        if not task.cancelled():
            task.exception()  # retrieved: what it raised after the deadline does not matter
        if any(state["abandoned"] for state in left):
            # The wrapper's thread, which no cancellation reaches, was left running (counted).
            return self._timed_out(started, _THREAD_LEFT)
        return self._timed_out(started, "it was cancelled")

    def _timed_out(self, started: float, note: str) -> Failed:
        waited = time.monotonic() - started
        # Two decimals, or (under a tenth of a second) up to six, never an exponent: a timeout
        # of a millisecond said "after 0.00 s".
        shown = f"{waited:.2f}" if waited >= 0.1 else f"{waited:.6f}".rstrip("0").rstrip(".")
        message = (
            f"Tool {self.exact.name!r} timed out: no result after {shown} s "
            f"(Limits.timeout={self.exact.limits.timeout}); {note}"
        )
        return Failed(ToolError(self.exact.name, "timeout", message))
