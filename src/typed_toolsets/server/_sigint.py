"""`run`: `asyncio.run` with Ctrl-C and SIGTERM as a cancellation of the main task.

Why: on Python 3.11+, `asyncio.run` (its ``asyncio.Runner``) replaces the default SIGINT handler
while it runs: the first Ctrl-C cancels the main task, which unwinds as any cancellation does,
and ``KeyboardInterrupt`` is raised once it has. Python 3.10 has no such handler: the
``KeyboardInterrupt`` is raised wherever the main thread happens to be, often inside one of the
MCP SDK's anyio tasks, whose task group then gathers a copy of it that ``asyncio.run`` logs as an
unhandled error while it cancels what is left. Doing on 3.10 what the Runner does stops the
server the same way on every version, at the one place that starts its loop (`serve`).

SIGTERM (what an MCP client sends a stdio server that does not exit after stdin closes) killed
the process at once, on every version, with its calls still running: a tool's child process
went on alone. It now cancels the main task as Ctrl-C does; once that has unwound, the process
ends by SIGTERM all the same (its status is the signal's, as before).

In the server's own process, the first Ctrl-C or SIGTERM also starts a `stopping.Watchdog`: a
call that ignores its cancellation would hold the unwinding forever.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from collections.abc import Coroutine
from types import FrameType
from typing import Any, TypeVar

from typed_toolsets import _ending

from .stopping import watchdog

__all__ = ["run"]

_T = TypeVar("_T")


def run(main: Coroutine[Any, Any, _T]) -> _T:
    """Run *main* with `asyncio.run`; a first Ctrl-C or SIGTERM cancels it.

    On Python 3.11+ Ctrl-C is `asyncio.run`'s own. On 3.10, while *main* runs (in the main
    thread, with Python's default SIGINT handler in place), the first SIGINT cancels the task
    running *main* and a second one raises ``KeyboardInterrupt`` where it lands; the previous
    handler is put back when *main* ends. SIGTERM, where its handling is the default one (the
    application chose no other), cancels the task too; once it has unwound, the process is
    ended by SIGTERM (a second SIGTERM ends it at once).

    Args:
        main: The coroutine to run as the main task.

    Returns:
        What *main* returns.

    Raises:
        KeyboardInterrupt: *main* ended cancelled after a Ctrl-C, or a second Ctrl-C came first.
    """
    sigterm = _EndOnSigterm()
    try:
        if sys.version_info >= (3, 11):
            # Its Runner does Ctrl-C (where Python's default handling is in place), the
            # watchdog only looks on.
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                main = _watch_runner_sigint(main)
            return asyncio.run(sigterm.watch(main))
        sigint = _CancelOnSigint()
        try:
            return asyncio.run(sigint.watch(sigterm.watch(main)))
        except asyncio.CancelledError:
            if sigint.count:
                # The cancellation was Ctrl-C's (the Runner also checks that no other one is
                # pending; Python 3.10's tasks do not count them). Raised as the Runner raises
                # it, in the cancellation's context.
                raise KeyboardInterrupt  # noqa: B904
            raise
    except asyncio.CancelledError:
        if sigterm.count:
            sigterm.end()
        raise


def _main_task(signum: signal.Signals, default: object) -> asyncio.Task[Any] | None:
    """The running task, if a handler of *signum* may be put in for it; else None.

    Only in the main thread (which alone takes signal handlers), and only over *signum*'s
    *default* handling: any other was chosen by the application.
    """
    task = asyncio.current_task()
    if (
        task is None
        or threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signum) is not default
    ):
        return None
    return task


async def _watch_runner_sigint(main: Coroutine[Any, Any, _T]) -> _T:
    """Await *main*; the first Ctrl-C also starts a watchdog, before the Runner's own handling.

    Only over the handler ``asyncio.Runner`` put in over Python's default one (the caller
    checked that it was the default), in the main thread. When *main* ends, Python's default is
    put back, as the Runner does with its own (which it leaves alone once replaced), unless the
    handler was replaced meanwhile.
    """
    runners = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(runners):
        return await main
    loop = asyncio.get_running_loop()
    count = 0

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        nonlocal count
        count += 1
        if count == 1:  # started by the loop, as in `_CancelOnSigint`
            loop.call_soon_threadsafe(watchdog, signal.SIGINT)
        runners(signum, frame)

    signal.signal(signal.SIGINT, on_sigint)
    try:
        return await main
    finally:
        # Also after a second Ctrl-C's KeyboardInterrupt, which leaves the loop before the
        # Runner looks at the handler, and this only when the Runner cancels what is left.
        if signal.getsignal(signal.SIGINT) is on_sigint:
            signal.signal(signal.SIGINT, signal.default_int_handler)


class _EndOnSigterm:
    """The SIGTERM handling of one run: cancel the main task, then end the process by SIGTERM."""

    def __init__(self) -> None:
        self.count = 0

    async def watch(self, main: Coroutine[Any, Any, _T]) -> _T:
        """Await *main* in this task, which a SIGTERM meanwhile cancels.

        Only in the main thread, where SIGTERM's handling is the default one, and where the
        loop takes signal handlers (not on Windows).
        """
        task = _main_task(signal.SIGTERM, signal.SIG_DFL)
        if task is None:
            return await main
        loop = asyncio.get_running_loop()

        def on_sigterm() -> None:
            self.count += 1
            if self.count == 1 and not task.done():
                task.cancel()
                watchdog(signal.SIGTERM)
            else:
                self.end()

        try:
            loop.add_signal_handler(signal.SIGTERM, on_sigterm)
        except (NotImplementedError, RuntimeError, ValueError):  # no loop signal handlers here
            return await main
        try:
            return await main
        finally:
            loop.remove_signal_handler(signal.SIGTERM)

    def end(self) -> None:
        """End the process by SIGTERM, as its default handling would have.

        Raises:
            SystemExit: With 143 (128 + SIGTERM, as a shell reports it) if the signal, blocked
                in this thread, has not ended it.
        """
        _ending.end_all()  # no exit of the interpreter follows: end what it would have
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        raise SystemExit(128 + signal.SIGTERM)


class _CancelOnSigint:
    """The SIGINT handling of one run (the Runner's ``_on_sigint``): count, cancel, then raise."""

    def __init__(self) -> None:
        self.count = 0

    async def watch(self, main: Coroutine[Any, Any, _T]) -> _T:
        """Await *main* in this task, which the first SIGINT meanwhile cancels.

        The handler is installed only in the main thread and over Python's default one (anything
        else was chosen by the application), and removed when *main* ends, unless it was
        replaced meanwhile.
        """
        task = _main_task(signal.SIGINT, signal.default_int_handler)
        if task is None:
            return await main
        loop = asyncio.get_running_loop()

        def on_sigint(_signum: int, _frame: FrameType | None) -> None:
            self.count += 1
            if self.count == 1 and not task.done():
                # Scheduled rather than called here, in whatever loop code the signal
                # interrupted; writing to the loop's self-pipe also wakes a select() that would
                # otherwise go on waiting (it is retried after a signal handler returns).
                loop.call_soon_threadsafe(task.cancel)
                # Started by the loop: a thread started in a signal handler can deadlock on a
                # lock of `threading` the interrupted code holds.
                loop.call_soon_threadsafe(watchdog, signal.SIGINT)
                return
            raise KeyboardInterrupt

        try:
            signal.signal(signal.SIGINT, on_sigint)
        except ValueError:  # a main thread that cannot take signals (an embedded interpreter)
            return await main
        try:
            return await main
        finally:
            if signal.getsignal(signal.SIGINT) is on_sigint:
                signal.signal(signal.SIGINT, signal.default_int_handler)
