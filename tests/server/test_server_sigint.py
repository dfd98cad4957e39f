"""`typed_toolsets.server._sigint.run`: Ctrl-C cancels the main task, on Python 3.10 as on 3.11+.

The same expectations hold on every version: on 3.11+ they are ``asyncio.Runner``'s behaviour,
which `run` reproduces on 3.10. SIGINT is sent to this process by its PID from another thread
while the loop waits in ``select()``; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType

import pytest

from typed_toolsets.server._sigint import run

#: Longer than any test may take: a loop that Ctrl-C did not wake would wait this long.
LONG = 30.0


@pytest.fixture(autouse=True)
def default_sigint() -> Iterator[None]:
    """Python's default SIGINT handler during the test, whatever was there before it."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def ctrl_c(after: float, sent: threading.Event | None = None) -> threading.Timer:
    """Send SIGINT to this process by its PID in *after* seconds (then set *sent*)."""

    def send() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        if sent is not None:
            sent.set()

    timer = threading.Timer(after, send)
    timer.start()
    return timer


@contextlib.contextmanager
def not_interrupted() -> Iterator[None]:
    """Fail the test, rather than end the session, when a KeyboardInterrupt comes out."""
    try:
        yield
    except KeyboardInterrupt:
        pytest.fail("KeyboardInterrupt")


def test_the_first_ctrl_c_cancels_the_main_task_then_raises_keyboard_interrupt() -> None:
    seen: list[str] = []

    async def main() -> None:
        try:
            await asyncio.sleep(LONG)
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    timer = ctrl_c(0.2)
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            run(main())
    finally:
        timer.cancel()
    assert time.monotonic() - started < LONG / 2  # woken at once, not at the sleep's end
    assert seen == ["cancelled"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_ctrl_c_landing_in_the_task_s_own_code_cancels_it_at_its_next_await() -> None:
    # Python 3.10's default handler would raise KeyboardInterrupt right there, inside the task
    # (an anyio task group then gathers it as an unhandled error).
    seen: list[str] = []
    sent = threading.Event()

    async def main() -> None:
        deadline = time.monotonic() + LONG / 2
        while not sent.is_set() and time.monotonic() < deadline:  # busy: no await
            pass
        time.sleep(0.1)  # the handler runs at the next bytecode boundary of the main thread
        seen.append("ran on")
        try:
            await asyncio.sleep(LONG)
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    timer = ctrl_c(0.1, sent)
    try:
        with pytest.raises(KeyboardInterrupt):
            run(main())
    finally:
        timer.cancel()
    assert seen == ["ran on", "cancelled"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_second_ctrl_c_raises_keyboard_interrupt_where_it_lands() -> None:
    seen: list[str] = []

    async def main() -> None:
        try:
            await asyncio.sleep(LONG)
        except asyncio.CancelledError:
            seen.append("cancelled")  # and go on: a slow shutdown the user will not wait for
        timer = ctrl_c(0.2)
        try:
            await asyncio.sleep(LONG)
        finally:
            timer.cancel()
        seen.append("not interrupted")

    timer = ctrl_c(0.2)
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            run(main())
    finally:
        timer.cancel()
    assert time.monotonic() - started < LONG / 2
    assert seen == ["cancelled"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_main_task_that_ends_normally_returns_its_value() -> None:
    async def main() -> int:
        return 7

    with not_interrupted():
        assert run(main()) == 7
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_ctrl_c_the_main_task_absorbs_is_no_interrupt() -> None:
    async def main() -> str:
        try:
            await asyncio.sleep(LONG)
        except asyncio.CancelledError:
            return "stopped"
        return "slept"

    timer = ctrl_c(0.2)
    try:
        with not_interrupted():
            assert run(main()) == "stopped"
    finally:
        timer.cancel()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_cancellation_without_ctrl_c_stays_a_cancellation() -> None:
    async def main() -> None:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()
        await asyncio.sleep(LONG)

    with pytest.raises(asyncio.CancelledError):
        run(main())


def test_an_application_s_own_sigint_handler_is_left_alone() -> None:
    caught: list[int] = []

    def handler(signum: int, _frame: FrameType | None) -> None:
        caught.append(signum)

    async def main() -> str:
        timer = ctrl_c(0.1)
        try:
            deadline = time.monotonic() + LONG / 2
            while not caught and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        finally:
            timer.cancel()
        return "not cancelled"

    signal.signal(signal.SIGINT, handler)
    with not_interrupted():
        assert run(main()) == "not cancelled"
    assert caught == [signal.SIGINT]
    assert signal.getsignal(signal.SIGINT) is handler
