"""How the agent waits within its deadline: for models, approval callbacks and tools.

May import what `typed_toolsets.agent` may (see there); used only by `typed_toolsets.agent.loop`.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Final

from typed_toolsets.call.execution import (
    CANCEL_GRACE,
    abandon_task,
    finish_loop,
    in_own_thread,
)

__all__ = ["TIMED_OUT", "SyncRunner", "call_async", "running_loop", "settle"]


class _TimedOut:
    """The answer to a request that the run's deadline cut short."""


#: What waiting gives back when the run's deadline passed first.
TIMED_OUT: Final = _TimedOut()


def _is_async_callable(function: object) -> bool:
    return inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(
        getattr(function, "__call__", None)  # noqa: B004 - an object with an async __call__
    )


async def call_async(function: Callable[..., Any], *args: object) -> object:
    """Call a sync or async callable from the event loop without blocking it.

    A sync one (usually a blocking network call) runs in a thread of its own: one that never
    returns is left behind at the deadline, holding no worker of the loop's executor.
    """
    if _is_async_callable(function):
        value = function(*args)
    else:
        value = await in_own_thread("agent callback", function, *args)
    if inspect.isawaitable(value):
        value = await value
    return value


def _leave(task: asyncio.Future[object]) -> None:
    """Cancel *task* and leave it to end, counted until it does, as a cancelled call does."""
    task.cancel()
    abandon_task(task)  # what it ends with no longer matters: read when it ends


async def settle(awaitable: Awaitable[object], timeout: float | None) -> object:
    """Await *awaitable*, giving up (`TIMED_OUT`) when the run's deadline passes.

    At the deadline the work is cancelled; work that ignores its cancellation is left running
    (counted, as a call's own timeout leaves it) once `CANCEL_GRACE` has passed, so no wait
    outlasts the deadline by more. Which timeout it was is told by where it came from, not by
    reading the clock again: an event loop may run a timer up to its clock's resolution early
    (15.6 ms on Windows before Python 3.13), when the clock does not yet say the deadline passed.
    """
    if timeout is None:
        return await awaitable
    if timeout <= 0:
        # The deadline passed already: the work is not started (a coroutine is closed, so that
        # Python does not warn that it was never awaited; a future is cancelled).
        if inspect.iscoroutine(awaitable):
            awaitable.close()
        elif isinstance(awaitable, asyncio.Future):
            awaitable.cancel()
        return TIMED_OUT
    task = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
        if done:
            return task.result()  # its value, or what it raised (a timeout of its own too)
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=CANCEL_GRACE)
    except asyncio.CancelledError:  # the run itself is cancelled: so is the work
        _leave(task)
        raise
    if not done:
        _leave(task)
        return TIMED_OUT
    if task.cancelled():
        return TIMED_OUT
    return task.result()  # it ignored the cancellation, but ended within the grace


def running_loop() -> bool:
    """Whether an event loop is running in this thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class SyncRunner:
    """Settles what a sync run meets: plain values as they are, awaitables on a private loop.

    One event loop serves the whole run, created when the first awaitable appears, so an async
    client used by the model keeps its connections on one loop.
    """

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None

    def settle(self, value: object, timeout: float | None, what: str) -> object:
        """*value* itself, or what it awaits to within *timeout* (`TIMED_OUT` past it).

        Raises:
            RuntimeError: *value* (from *what*) is awaitable, and an event loop is running.
        """
        if not inspect.isawaitable(value):
            return value
        if running_loop():
            if inspect.iscoroutine(value):
                value.close()  # never awaited: close it, so Python does not warn about it
            msg = (
                f"{what} returned an awaitable, but run() was called from a running event "
                "loop, where it cannot wait for it; use `await agent.arun(task)`"
            )
            raise RuntimeError(msg)
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(settle(value, timeout))

    def close(self) -> None:
        """Close the run's loop, if it made one, leaving what still runs to end on its own."""
        loop, self._loop = self._loop, None
        if loop is None:
            return
        if asyncio.all_tasks(loop):
            # A task left running (an async tool that ignored its cancellation at its timeout,
            # counted until it ends): closing the loop would destroy it, counted forever. Its
            # loop runs on to the end in a thread of its own, as in a sync call of the tool.
            threading.Thread(
                target=finish_loop, args=(loop,), name="typed_toolsets agent loop", daemon=True
            ).start()
            return
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            # Not shutdown_default_executor(): it would wait for a worker thread that the
            # deadline abandoned.
            loop.close()
