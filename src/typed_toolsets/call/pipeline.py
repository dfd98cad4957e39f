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
   A tool with a `Limits.max_concurrent` first takes a place (`typed_toolsets.call.slots`),
   held until its method has really ended, or is refused.

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

from typed_toolsets.definition.classes import Export
from typed_toolsets.definition.errors import ExportError
from typed_toolsets.types.fastpath import FastArguments
from typed_toolsets.types.typespec import Schema

from . import execution
from .exact import ExactPath, Failed
from .execution import CANCEL_GRACE, execution_error, propagates
from .offload import large
from .result import ToolError
from .slots import Slots

if TYPE_CHECKING:
    # Imported where used: the first call of a sync tool without a deadline needs neither
    # (asyncio and concurrent.futures cost more than the rest of a first call together).
    import concurrent.futures


__all__ = ["Outcome", "Pipeline"]

# How much longer than its deadline and grace a sync caller waits for an async tool's own event
# loop before leaving its thread behind (a tool that blocks that loop cannot be cancelled).
_LOOP_MARGIN: Final = 0.5

# How a timeout's message ends when the call's thread, which nothing can stop, is left running.
_THREAD_LEFT: Final = "its thread may still be running"
# How it ends when an async tool's event loop was blocked past the deadline (then it ended): by
# the tool, or by other code on the caller's loop, which the call cannot tell apart.
_BLOCKED_LOOP: Final = (
    "the event loop was blocked past its deadline (by the tool or by other code on that loop), "
    "so it could not be cancelled then; what it returned after it is dropped"
)
# The same when the loop is the call's own (the sync forms): only the tool ran on it.
_BLOCKED_OWN_LOOP: Final = (
    "the tool blocked its event loop past its deadline, so it could not be cancelled then; "
    "what it returned after it is dropped"
)


#: The tool's return value, or a `Failed`.
Outcome = object


def _not_started(name: str) -> Failed | None:
    """The failure of a call with a deadline while too many abandoned calls still run."""
    error = execution.too_many_abandoned(name)
    return None if error is None else Failed(error)


# ------------------------------------------------------------------------------------ pipeline

#: The pipeline of each export, kept as long as the export (its class) lives.
_pipelines: weakref.WeakKeyDictionary[Export, Pipeline] = weakref.WeakKeyDictionary()


def _lost_interrupt(
    exc: BaseException, future: concurrent.futures.Future[Any]
) -> BaseException | None:
    """The Ctrl-C (or exit) an error raised while waiting for *future* stands in for, if any.

    On Python 3.10 a Ctrl-C can land inside the wait's own lock handling, between releasing a
    lock and the code that takes it back: the lock's release then fails, and the
    ``RuntimeError("release unlocked lock")`` raised holds the interrupt as its context. What
    the tool itself raised is its own.
    """
    if future.done() and not future.cancelled() and future.exception(0) is exc:
        return None
    return execution.lost_interrupt(exc)


@attrs.frozen(eq=False)
class Pipeline:
    """The model-facing call of one exported tool; every instance's proxy of it shares one.

    Attributes:
        exact: The exact path.
        fast: The keyword arguments, by the fast path for JSON text when it can vouch for them,
            else by `exact` (which returns a `Failed` with the verdict to report instead).
        is_async: Whether the method is an ``async def`` (or a sync wrapper of one).
        direct: `run` calls the (sync) method right there: no deadline to watch, no place to
            take.
        adirect: `arun` awaits the (async) method right there: no deadline to watch, no place
            to take.
        ainline: `arun` calls the (sync) method right there, on the event loop's thread: it is
            declared ``tool(..., inline=True)`` (which refuses a deadline), and takes no place.
        wrapper: The method is a plain ``def`` wrapper of an ``async def``
            (`typed_toolsets.definition.methods.MethodInfo.sync_wrapper`).
        inline: It is declared ``tool(..., inline=True)``: from async code, the (sync) method
            runs on the event loop's thread.
        slots: The places of its calls (`Limits.max_concurrent`), or None: no limit.
    """

    exact: ExactPath
    fast: FastArguments[dict[str, object] | Failed]
    is_async: bool
    direct: bool
    adirect: bool
    ainline: bool = False
    wrapper: bool = False
    inline: bool = False
    slots: Slots | None = None

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

    def renamed(self, export: Export) -> Pipeline:
        """The pipeline of *export*, this one's tool under another name (`attrs.evolve`).

        Its calls count with this one's (`Limits.max_concurrent`): it is the same tool.
        """
        return attrs.evolve(self._build(export), slots=self.slots)

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
        # No deadline to watch and no place to take: the method may be called right there.
        concurrent = limits.max_concurrent
        unbounded = limits.timeout is None and concurrent is None
        return cls(
            exact=exact,
            fast=exact.fast(),
            is_async=method.is_async,
            direct=unbounded and not method.is_async,
            adirect=unbounded and method.is_async and not method.sync_wrapper,
            ainline=export.inline and unbounded and not method.is_async,
            wrapper=method.sync_wrapper,
            inline=export.inline,
            slots=None if concurrent is None else Slots(concurrent),
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

        A tool is not started while it runs as many calls as its `Limits.max_concurrent`
        allows, and a tool with a deadline while too many calls left at theirs still run.
        """
        slots = self.slots
        if slots is not None:
            busy = slots.refusal(self.exact.name)
            if busy is not None:
                return busy
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
        slots = self.slots
        if slots is None:
            return self._execute_free(bound, kwargs)
        place = slots.take(self.exact.name)
        if isinstance(place, ToolError):
            return Failed(place)
        try:
            held = place.held(bound, is_async=self.is_async, wrapper=self.wrapper)
            return self._execute_free(held, kwargs)
        finally:
            place.end_call()

    def _execute_free(self, bound: Callable[..., Any], kwargs: dict[str, object]) -> Outcome:
        """`_execute` once the call has its place, if its tool has a limit."""
        name = self.exact.name
        timeout = self.exact.limits.timeout
        if self.is_async:
            import asyncio  # not for a sync tool without a deadline (see the imports above)

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
        if timeout is None:  # one with a place to hold (`run` calls the others directly)
            return bound(**kwargs)
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
            lambda: loop.run_until_complete(self._await(bound, kwargs, _BLOCKED_OWN_LOOP)),
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
        except BaseException as exc:
            # Ctrl-C (or an exit) while waiting: the thread goes on, and is counted.
            execution.abandon(future, state)
            interrupt = _lost_interrupt(exc, future)
            if interrupt is not None:
                raise interrupt from None
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
        slots = self.slots
        if slots is None:
            return await self._aexecute_free(bound, kwargs)
        place = slots.take(self.exact.name)
        if isinstance(place, ToolError):
            return Failed(place)
        try:
            held = place.held(bound, is_async=self.is_async, wrapper=self.wrapper)
            return await self._aexecute_free(held, kwargs)
        finally:
            place.end_call()

    async def _aexecute_free(self, bound: Callable[..., Any], kwargs: dict[str, object]) -> Outcome:
        """`_aexecute` once the call has its place, if its tool has a limit."""
        timeout = self.exact.limits.timeout
        if self.is_async:
            if timeout is not None:
                refused = _not_started(self.exact.name)
                if refused is not None:
                    return refused
            return await self._await(bound, kwargs)
        if timeout is None:
            if self.inline:  # one with a place to hold (`arun` calls the others directly)
                return bound(**kwargs)
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

    async def _await(
        self,
        bound: Callable[..., Any],
        kwargs: dict[str, object],
        blocked: str = _BLOCKED_LOOP,
    ) -> Outcome:
        """Call an async method and await its coroutine, cancelling it at the deadline.

        A task that does not stop within `CANCEL_GRACE` of its cancellation is left behind
        (counted, as abandoned threads are) and the call reports its timeout; so is the thread
        of a sync wrapper still running at the deadline. *blocked* ends the timeout's message
        when the loop was held past the deadline: whose it is decides who may have held it.
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
                    return self._timed_out(started, blocked)
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
