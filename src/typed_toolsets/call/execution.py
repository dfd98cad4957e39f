"""How a tool's call ends: the error texts, what propagates, and the threads and tasks left behind.

A call with a deadline runs its method in a worker thread (sync) or as a task (async). At the
deadline the caller gets a ``"timeout"`` error; what cannot be stopped (a thread, or a task that
ignores its cancellation) is left running and counted in `abandoned` until it ends (a task also
until its loop is closed, when it can never run again); once
`MAX_ABANDONED_THREADS` are, calls with a deadline are not started. The calls already running
then may still time out and add theirs, so the count stays below the limit plus the number of
timed calls running at once (a strict bound would have to refuse calls that have not timed out:
a server's 64 concurrent calls, say). `typed_toolsets.call.pipeline` decides when; this module
keeps the count and says what a failure looks like.
"""

from __future__ import annotations

import builtins
import sys
import threading
import time
import typing
import weakref
from collections.abc import Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any, Final

from typed_toolsets.definition.limits import set_call_deadline

from .result import ToolError
from .validation import exception_text

_T = typing.TypeVar("_T")

if TYPE_CHECKING:
    # Imported where used: a first call without a deadline needs neither.
    import asyncio
    import concurrent.futures

__all__ = [
    "CANCEL_GRACE",
    "MAX_ABANDONED_THREADS",
    "Exited",
    "abandon",
    "abandon_task",
    "abandoned",
    "awaitable",
    "being_cancelled",
    "cancellation_in",
    "call_in_own_thread",
    "contained",
    "execution_error",
    "finish_loop",
    "holds",
    "in_own_thread",
    "internal_error",
    "not_started_error",
    "propagates",
    "refused_as_busy",
    "retrieved",
    "run_apart",
    "start_thread",
    "stray_cancellation",
    "too_many_abandoned",
    "wait_thread",
]

#: Once this many timed-out calls are still running in abandoned threads (or tasks), calls with a
#: timeout are refused with a ``"limit"`` error until some finish (see the module docstring).
MAX_ABANDONED_THREADS: Final = 32
_MAX_MESSAGE: Final = 2000


# ------------------------------------------------------------------------------------ messages


def _exception_text(exc: BaseException) -> str:
    return exception_text(exc, _MAX_MESSAGE)


def internal_error(tool: str, exc: BaseException) -> ToolError:
    """The error for a bug in this library met while reading arguments."""
    # Only a bug in this library gets here; the call still ends in an error, never an exception.
    message = (
        f"Invalid arguments for tool {tool!r}: they could not be processed ({_exception_text(exc)})"
    )
    return ToolError(tool, "arguments", message)


def execution_error(tool: str, exc: BaseException) -> ToolError:
    """The error for an exception raised by the tool itself."""
    return ToolError(tool, "execution", f"Tool {tool!r} failed: {_exception_text(exc)}")


# ------------------------------------------------------------------------------ running methods

#: What a call lets through instead of reporting: the host is stopping (Ctrl-C, exit), or the
#: caller's own task is being cancelled. Whatever else a tool raises (``GeneratorExit`` and the
#: ``BaseException`` subclasses of trio, gevent or pytest included) is an ``"execution"`` error.
_STOPPING: Final = (KeyboardInterrupt, SystemExit)
# Python 3.11's exception groups: one carrying an exception that propagates goes on too.
_GROUP: Final[type[BaseException] | tuple[()]] = getattr(builtins, "BaseExceptionGroup", ())

#: How long after a sync call's deadline a program it started is killed (see `start_thread`).
_KILL_GRACE: Final = 0.1

#: After cancelling an async tool at its deadline, how long to wait for it to stop before leaving
#: it behind (a task that catches `asyncio.CancelledError` and goes on would never end).
CANCEL_GRACE: Final = 0.5


def _propagating() -> tuple[type[BaseException], ...]:
    # No asyncio.CancelledError can have been raised before asyncio was imported.
    asyncio = sys.modules.get("asyncio")
    return _STOPPING if asyncio is None else (*_STOPPING, asyncio.CancelledError)


def _backported_group() -> type[BaseException] | tuple[()]:
    """On Python 3.10, the ``exceptiongroup`` backport's group (cattrs and anyio raise it there).

    None can have been raised before the backport was imported.
    """
    backport = sys.modules.get("exceptiongroup")
    found: type[BaseException] | None = getattr(backport, "BaseExceptionGroup", None)
    return () if found is None else found


def propagates(exc: BaseException) -> bool:
    """Whether *exc* goes on to the caller rather than becoming an ``"execution"`` error."""
    return holds(exc, _propagating())


def holds(exc: BaseException, kinds: type[BaseException] | tuple[type[BaseException], ...]) -> bool:
    """Whether *exc* is one of *kinds*, or an exception group holding one at any depth.

    Walked here rather than with ``subgroup``: the backport's (Python 3.10) follows a group that
    holds itself (its ``exceptions`` overridden) without end, taking all memory.
    """
    if isinstance(exc, kinds):
        return True
    group = _GROUP or _backported_group()
    if not isinstance(exc, group):
        return False
    seen: set[int] = set()
    stack: list[object] = [exc]
    while stack:
        member = stack.pop()
        if isinstance(member, kinds):
            return True
        if not isinstance(member, group) or id(member) in seen:
            continue
        seen.add(id(member))
        try:
            members: object = getattr(member, "exceptions", ())
        except Exception:  # noqa: BLE001, S112 - a property of the tool's own that fails
            continue
        if isinstance(members, tuple):
            stack.extend(typing.cast("tuple[object, ...]", members))
    return False


class _Abandoned:
    """Counts timed-out calls still running: sync calls' threads and async calls' tasks."""

    def __init__(self) -> None:
        #: Abandoned threads still running (each one's end takes it off).
        self.threads = 0
        #: Abandoned tasks, held weakly (`running` says which still count).
        self.tasks: weakref.WeakSet[asyncio.Future[Any]] = weakref.WeakSet()
        self.lock = threading.Lock()

    def running(self) -> int:
        """How many abandoned calls still run; to be called holding `lock`.

        A task counts until it ends, its loop is closed (it never runs again: a loop the user
        closed without running it to its end) or it is collected; those are let go here, not
        by a callback on the task, which a closed loop would never call.
        """
        gone = [task for task in self.tasks if task.done() or task.get_loop().is_closed()]
        for task in gone:
            self.tasks.discard(task)
        return self.threads + len(self.tasks)

    @property
    def count(self) -> int:
        """How many abandoned calls still run (threads and tasks)."""
        with self.lock:
            return self.running()


abandoned = _Abandoned()


def start_thread(
    name: str,
    func: Callable[..., Any],
    kwargs: dict[str, object],
    after: Callable[[], object] | None = None,
    *,
    timeout: float | None = None,
) -> tuple[concurrent.futures.Future[Any], dict[str, bool]]:
    """Run ``func(**kwargs)`` in a new thread; its outcome goes to the future, then *after* runs.

    With *timeout* (the call's `Limits.timeout`), the caller stops waiting that many seconds
    from now, and the thread's `call_deadline` (when a program the call started is killed) is
    `_KILL_GRACE` later: the caller's wait, which starts a moment after this, ends first and
    reports the ``"timeout"``, rather than the program's end being reported as the call's.
    The thread runs in a copy of the caller's context (`contextvars`), as a direct call, an
    ``asyncio.to_thread`` call or a task sees the caller's context variables.
    """
    import concurrent.futures
    import contextvars

    context = contextvars.copy_context()
    future: concurrent.futures.Future[Any] = concurrent.futures.Future()
    state = {"abandoned": False}
    deadline = None if timeout is None else time.monotonic() + timeout + _KILL_GRACE

    def worker() -> None:
        if deadline is not None:
            set_call_deadline(deadline)  # in the thread's copy of the context
        try:
            result = func(**kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
            future.set_exception(exc)
        else:
            future.set_result(result)
        finally:
            try:
                if after is not None:
                    after()
            finally:
                with abandoned.lock:
                    if state["abandoned"]:
                        abandoned.threads -= 1

    thread = threading.Thread(
        target=context.run, args=(worker,), name=f"typed_toolsets {name}", daemon=True
    )
    try:
        thread.start()  # waits for the thread to say it started: a Ctrl-C may land in the wait
    except Exception as exc:
        interrupt = lost_interrupt(exc)
        if interrupt is not None:
            if thread.ident is not None:  # it started: it goes on, counted as a Ctrl-C leaves it
                abandon(future, state)
            raise interrupt from None
        raise
    return future, state


def lost_interrupt(exc: BaseException) -> BaseException | None:
    """The Ctrl-C (or exit) an error raised while waiting on a lock stands in for, if any.

    On Python 3.10 a Ctrl-C can land inside a wait's own lock handling (``Event.wait`` as a
    thread starts, ``Future.result``), between releasing a lock and the code that takes it
    back: the release then fails, and the ``RuntimeError("release unlocked lock")`` raised holds
    the interrupt as its context.
    """
    if not isinstance(exc, Exception):
        return None
    context = exc.__context__
    for _ in range(_CONTEXTS):
        if context is None or isinstance(context, (KeyboardInterrupt, SystemExit)):
            return context
        context = context.__context__
    return None


#: How far back along an error's context `lost_interrupt` looks.
_CONTEXTS: Final = 8


async def wait_thread(
    future: concurrent.futures.Future[Any], state: dict[str, bool], timeout: float | None
) -> bool:
    """Await a `start_thread` call's end from async code: False when *timeout* passed first.

    A call still running at the timeout, or when the awaiting task is cancelled, is left
    behind and counted until it ends (`abandon`). Unlike `asyncio.to_thread`, whose thread is
    a worker of the loop's default executor, such a call holds none of its workers and does
    not make ``asyncio.run`` wait for it at its end.
    """
    import asyncio
    import concurrent.futures

    # The loop is told only that the call ended; the caller reads its outcome from `future`.
    # Not a copy of `future` (`asyncio.wrap_future`): an asyncio future cannot hold the
    # StopIteration a tool may raise, so the copy never ended and the caller waited out its
    # whole timeout (forever without one); and asyncio would log a SystemExit held in a copy
    # as "Future exception was never retrieved".
    ended: concurrent.futures.Future[None] = concurrent.futures.Future()
    future.add_done_callback(lambda _: ended.set_result(None))
    wrapped = asyncio.wrap_future(ended)
    try:
        # Not `await wrapped`: cancelling it would cancel `ended`, which `future`'s end then
        # could not complete.
        done, _ = await asyncio.wait({wrapped}, timeout=timeout)
    except asyncio.CancelledError:
        abandon(future, state)
        raise
    return bool(done) or not abandon(future, state)


async def in_own_thread(
    name: str, func: Callable[..., object], /, *args: object, **kwargs: object
) -> object:
    """``func(*args, **kwargs)`` in a thread of its own (`start_thread`): its value, or raises.

    Unlike `asyncio.to_thread`, a call still running when the awaiting task is cancelled (at
    a deadline) holds no worker of the loop's default executor, which later calls would queue
    behind and ``asyncio.run`` would wait for at its end; it is counted until it ends.
    """
    return await call_in_own_thread(name, lambda: func(*args, **kwargs), [])


async def call_in_own_thread(
    name: str, call: Callable[[], object], left: list[dict[str, bool]]
) -> object:
    """``call()`` in a thread of its own, as `in_own_thread`; its state is appended to *left*.

    Once the awaiting task is cancelled, the state's ``"abandoned"`` says whether the call was
    left running (and counted): a caller's message can then say so.
    """
    import asyncio

    future, state = start_thread(name, call, {})
    left.append(state)
    try:
        await wait_thread(future, state, None)
    except asyncio.CancelledError:
        future.add_done_callback(_close_unread)
        raise
    return future.result(0)


def _close_unread(future: concurrent.futures.Future[Any]) -> None:
    """Close the coroutine a call returned when nobody will read it (its caller was cancelled).

    A sync wrapper of an async def may return its coroutine after its deadline: never awaited,
    Python would warn about it ("coroutine ... was never awaited") when it is collected.
    """
    import contextlib
    import inspect

    if future.cancelled() or future.exception() is not None:
        return
    value = future.result()
    if inspect.iscoroutine(value):
        # Its own cleanup failing (one already started) concerns nobody now.
        with contextlib.suppress(Exception):
            value.close()


def _not_started(name: str) -> str:
    return f"Tool {name!r} was not started: "


def not_started_error(name: str, reason: str) -> ToolError:
    """The ``"limit"`` error of a call of *name* not started for *reason* (`refused_as_busy`)."""
    return ToolError(name, "limit", _not_started(name) + reason)


def too_many_abandoned(name: str) -> ToolError | None:
    """The ``"limit"`` error when too many abandoned calls still run, else None."""
    with abandoned.lock:
        running = abandoned.running()
        if running >= MAX_ABANDONED_THREADS:
            reason = (
                # Not only tool calls that timed out: an agent's model or approval left at its
                # run's deadline is one too.
                (
                    "1 earlier call left running at its deadline has not ended"
                    if running == 1
                    else f"{running} earlier calls left running at their deadline have not ended"
                )
                + f" (the limit is {MAX_ABANDONED_THREADS} abandoned threads and tasks); "
                "try again later"
            )
            return not_started_error(name, reason)
    return None


def refused_as_busy(error: ToolError) -> bool:
    """Whether *error* is a refusal to start, whatever the arguments (`not_started_error`).

    Too many abandoned calls still run (`too_many_abandoned`), or the tool runs as many calls
    as its `Limits.max_concurrent` allows (`typed_toolsets.call.slots`).
    """
    return error.kind == "limit" and error.message.startswith(_not_started(error.tool))


def abandon(future: concurrent.futures.Future[Any], state: dict[str, bool]) -> bool:
    """Mark a timed-out call abandoned; False if it finished in the meantime."""
    with abandoned.lock:
        if future.done():
            return False
        state["abandoned"] = True
        abandoned.threads += 1
        return True


def abandon_task(task: asyncio.Future[Any], *, answered: bool = True) -> None:
    """Count a task left running (it ignored its cancellation) until it ends (`_Abandoned`).

    Args:
        task: The task.
        answered: The task's call was answered without it: what it raises in the end is read
            (`retrieved`), not logged by asyncio as "Task exception was never retrieved" long
            after. A task a tool started and never awaited is not (its end is reported as
            ``asyncio.run`` would report it).
    """
    if answered:
        task.add_done_callback(retrieved)
    with abandoned.lock:
        if not task.done():
            abandoned.tasks.add(task)


def finish_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Run what an async tool left behind on its own loop to its end, then close the loop.

    What is left is cancelled first, as ``asyncio.run`` (the same call without a deadline)
    cancels it: a task the tool started and never awaited (a heartbeat looping forever) would
    else hold the loop's thread for good. Each is counted as abandoned until it ends, so work
    that ignores its cancellation holds a thread only within the bound. A task counted already
    was cancelled at its deadline: it is not cancelled again, which would cut short the
    cleanup it may be doing.
    """
    import asyncio

    try:
        rest = asyncio.all_tasks(loop)
        if rest:
            with abandoned.lock:
                left = [task for task in rest if task not in abandoned.tasks]
            for task in left:
                task.cancel()
                abandon_task(task, answered=False)
            loop.run_until_complete(asyncio.wait(rest))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())
    finally:
        loop.close()


@typing.final
class Exited:
    """The ``SystemExit`` or ``KeyboardInterrupt`` an async tool's own task raised, held."""

    __slots__ = ("exc",)

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def awaitable(value: object) -> typing.TypeGuard[typing.Awaitable[Any]]:
    """Whether *value* is to be awaited: what a sync wrapper of an ``async def`` returned."""
    import inspect  # only for such wrappers

    return inspect.isawaitable(value)


def being_cancelled(exc: BaseException) -> bool:
    """Whether the current task is being cancelled, *exc* (what a tool raised) standing for it.

    It is when a request to cancel it is pending (``Task.cancelling``) and *exc* holds a
    cancellation (it is one, or was raised from or while handling one): the caller's reached
    the tool, which turned it into *exc*. A request alone is not enough: the caller's task may
    keep one counted from before the call (code that handled a cancellation and went on without
    ``uncancel()``; on Python 3.11 and 3.12, its own ``TaskGroup`` whose child failed once the
    block's body had ended), and the tool's error is then its own failure, as the sync forms say
    it. A group the tool raised that way on those versions was raised while no cancellation was
    being handled, unlike one raised as the caller's cancellation reached the block: that
    request is the group's, taken back here. Nor is a `TimeoutError` raised from the
    cancellation: the tool's own deadline (``asyncio.timeout``, ``asyncio.wait_for``) turns the
    cancellation it requested into one, never the caller's. Python 3.10 cannot tell (False).

    Reading the count as each call starts would tell a request made during the call exactly,
    at a cost to every async call (half a microsecond on Python 3.11, a tenth of one on 3.13):
    so a tool that handles the caller's cancellation and raises another exception later, not
    from it nor while handling it (or a `TimeoutError` from it), leaves the caller uncancelled.
    """
    import asyncio

    if sys.version_info >= (3, 11):
        try:
            task = asyncio.current_task()
        except RuntimeError:  # no running loop
            return False
        if task is None or not task.cancelling():
            return False
        cancelled = asyncio.CancelledError
        if (
            sys.version_info < (3, 13)
            and not isinstance(exc, cancelled)
            and _left_by_group(exc, cancelled)
        ):
            task.uncancel()
        return task.cancelling() > 0 and _turned(exc, cancelled)
    return False  # pragma: no cover - Python 3.10


def _turned(exc: BaseException, cancelled: type[BaseException]) -> bool:
    """Whether *exc* holds a cancellation turned into it, not by a deadline (`being_cancelled`)."""
    before: BaseException | None = None
    for found in _chain(exc):
        if isinstance(found, cancelled):
            return not isinstance(before, TimeoutError)
        before = found
    return False


def stray_cancellation(exc: BaseException) -> bool:
    """Whether *exc*, out of a tool call, is a cancellation the tool raised of its own.

    A tool that awaits a task something else cancelled, or raises ``CancelledError`` itself,
    lets one out (alone, or in an exception group) while its caller goes on: the call path lets
    it through (`propagates`), and a caller that is not being cancelled may take it for the
    tool's failure. Outside a running task (a sync call) no caller was cancelled; inside one,
    Python 3.11's ``Task.cancelling`` tells the caller's cancellation apart, and Python 3.10
    cannot (False: the caller's, as far as it can tell).
    """
    asyncio = sys.modules.get("asyncio")
    if asyncio is None or not holds(exc, asyncio.CancelledError):
        return False
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running loop
        return True
    if task is None:
        return True
    return sys.version_info >= (3, 11) and not task.cancelling()


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """*exc*, then what it was raised from or while handling, and so on (each once)."""
    seen: set[int] = set()
    found: BaseException | None = exc
    while found is not None and id(found) not in seen:
        yield found
        seen.add(id(found))
        found = found.__cause__ or found.__context__


def _left_by_group(exc: BaseException, cancelled: type[BaseException]) -> bool:
    """Whether *exc* holds an exception group raised while no cancellation was handled."""
    for found in _chain(exc):
        if isinstance(found, _GROUP):
            return not any(isinstance(c, cancelled) for c in _chain(found))
    return False


def cancellation_in(exc: BaseException, cancelled: type[BaseException]) -> BaseException | None:
    """The cancellation *exc* was raised from or while handling, if any (a cancel scope's own)."""
    return next((found for found in _chain(exc) if isinstance(found, cancelled)), None)


def run_apart(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(coroutine)``, leaving the thread's current event loop as it was.

    ``asyncio.run`` ends by setting none (``asyncio.get_event_loop()`` then raises in a program
    that had set one): a sync call of an async tool is not to change the caller's asyncio state.
    From Python 3.11, `asyncio.Runner` with a loop factory runs it as ``asyncio.run`` does
    (Ctrl-C cancels the coroutine first); on 3.10, a loop of its own, finished as `finish_loop`
    finishes one.
    """
    import asyncio

    if sys.version_info >= (3, 11):
        with asyncio.Runner(loop_factory=asyncio.new_event_loop) as runner:
            outcome = runner.run(_held(coroutine))
    else:  # pragma: no cover - Python 3.10
        loop = asyncio.new_event_loop()
        try:
            outcome = loop.run_until_complete(_held(coroutine))
        finally:
            finish_loop(loop)
    if isinstance(outcome, _Raised):
        raise outcome.exception
    return outcome


class _Raised:
    """What a coroutine run by `run_apart` raised, carried out of the loop as a value."""

    __slots__ = ("exception",)

    def __init__(self, exception: BaseException) -> None:
        self.exception = exception


async def _held(coroutine: Coroutine[Any, Any, _T]) -> _T | _Raised:
    """*coroutine*'s value, or what it raised, held: its task never ends in an exception.

    A task that ends in one is shown with it wherever asyncio shows the task: the runner's
    Ctrl-C handler does (``signal.getsignal`` writes it), and an exception whose ``repr`` raises
    (or a group nested too deep to write) then broke that runner's own cleanup, leaving its
    handler installed and every later ``asyncio.run`` of the process failing. So is any other
    exception a call reports (`GeneratorExit`, another library's `BaseException`); a stop
    (`KeyboardInterrupt`, `SystemExit`, cancellation: what `propagates`) goes through the
    runner as before, which turns a Ctrl-C's cancellation into `KeyboardInterrupt`.
    """
    try:
        return await coroutine
    except BaseException as exc:  # raised again, outside the loop
        if propagates(exc):
            raise
        return _Raised(exc)


def retrieved(future: asyncio.Future[Any]) -> None:
    """Mark *future*'s exception read, so asyncio does not log it as "never retrieved".

    For a copy of an outcome the caller reads elsewhere (a wrapped thread's future).
    """
    if not future.cancelled():
        future.exception()


async def contained(awaitable: typing.Awaitable[Any]) -> object:
    """Await *awaitable* in a task of its own, holding an exit in an `Exited`.

    A task that raises ``SystemExit`` or ``KeyboardInterrupt`` re-raises it out of the event loop
    (asyncio's rule), stopping every other task on it, a server's included; held, it is raised
    again by the awaiting call, as it would be without a deadline.
    """
    try:
        return await awaitable
    except (KeyboardInterrupt, SystemExit) as exc:
        return Exited(exc)
