"""`Limits.max_concurrent`: at most that many calls of a tool run at once (security.md AG-3)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from typed_toolsets import Limits, ToolError, ToolProxy, ToolResult, Toolset, tool
from typed_toolsets.call.execution import refused_as_busy

# Every wait is bounded by this many seconds: a broken limit fails, never hangs.
_WAIT = 30.0
_CALLS = 100
_LIMIT = 4


def _message(name: str, limit: int) -> str:
    calls = "1 call" if limit == 1 else f"{limit} calls"
    return (
        f"Tool {name!r} was not started: it is already running {calls} "
        f"(Limits.max_concurrent={limit}), the most it runs at once; wait for one of them to "
        "end, then call again"
    )


def _until(condition: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + _WAIT
    while not condition():
        assert time.monotonic() < end, f"gave up waiting: {what}"
        time.sleep(0.005)


async def _auntil(condition: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + _WAIT
    while not condition():
        assert time.monotonic() < end, f"gave up waiting: {what}"
        await asyncio.sleep(0.005)


class Gauge:
    """How many calls of a tool run at once, and the most seen; they end when released."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0
        self.release = threading.Event()

    def enter(self) -> None:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)

    def leave(self) -> None:
        with self.lock:
            self.now -= 1


_gauge = Gauge()


class Capped(Toolset):
    toolset_name = "capped"
    limits = Limits(max_concurrent=_LIMIT)

    @tool
    def work(self, *, hold: bool = True) -> str:
        _gauge.enter()
        try:
            if hold:
                assert _gauge.release.wait(_WAIT)
        finally:
            _gauge.leave()
        return "done"

    @tool
    async def awork(self, *, hold: bool = True) -> str:
        _gauge.enter()
        try:
            end = time.monotonic() + _WAIT
            while hold and not _gauge.release.is_set():
                assert time.monotonic() < end
                await asyncio.sleep(0.005)
        finally:
            _gauge.leave()
        return "done"

    @tool(limits=Limits())
    def free(self) -> str:
        return "free"

    @tool
    def named(self, *, bound: int, kwargs: int) -> int:
        return bound + kwargs

    @tool
    async def anamed(self, *, bound: int, kwargs: int) -> int:
        return bound + kwargs


@pytest.fixture
def gauge() -> Gauge:
    global _gauge  # the tools read the current gauge
    _gauge = Gauge()
    return _gauge


def _tools() -> dict[str, ToolProxy]:
    return {proxy.method_name: proxy for proxy in Capped().to_tools()}


def _check_outcome(results: list[ToolResult[Any]], gauge: Gauge, name: str) -> None:
    assert gauge.peak == _LIMIT  # the limit is reached, and never passed
    done = [r for r in results if r.ok]
    refused = [r.error for r in results if r.error is not None]
    assert len(done) == _LIMIT
    assert len(refused) == _CALLS - _LIMIT
    for error in refused:
        assert error.kind == "limit"
        assert error.message == _message(name, _LIMIT)
        assert refused_as_busy(error)


def test_a_hundred_sync_calls_in_threads_run_at_most_the_limit_at_once(gauge: Gauge) -> None:
    proxy = _tools()["work"]
    results: list[ToolResult[Any]] = []

    def call() -> None:
        result = proxy.invoke({})
        with gauge.lock:
            results.append(result)

    threads = [threading.Thread(target=call) for _ in range(_CALLS)]
    for thread in threads:
        thread.start()
    # Held until every call is either running or answered: a broken limit lets more in.
    _until(lambda: gauge.now + len(results) >= _CALLS, "every call running or answered")
    busy = proxy.check()
    assert busy is not None
    assert (busy.kind, busy.message) == ("limit", _message(proxy.name, _LIMIT))
    gauge.release.set()
    for thread in threads:
        thread.join(_WAIT)
        assert not thread.is_alive()
    _check_outcome(results, gauge, proxy.name)
    # Every place was given back.
    assert proxy.check() is None
    assert proxy.invoke({"hold": False}).value == "done"


@pytest.mark.parametrize("method", ["work", "awork"])
@pytest.mark.parametrize("form", ["ainvoke", "adynamic_call"])
def test_a_hundred_async_calls_run_at_most_the_limit_at_once(
    gauge: Gauge, method: str, form: str
) -> None:
    proxy = _tools()[method]
    results: list[ToolResult[Any]] = []

    async def call() -> None:
        if form == "ainvoke":
            results.append(await proxy.ainvoke({}))
            return
        value = await proxy.adynamic_call({})
        if value == "done":
            results.append(ToolResult.success(value))
        else:
            prefix = "Error: "
            assert value.startswith(prefix)
            error = ToolError(proxy.name, "limit", value[len(prefix) :])
            results.append(ToolResult.failure(error))

    async def main() -> None:
        calls = asyncio.gather(*(call() for _ in range(_CALLS)))
        await _auntil(
            lambda: calls.done() or gauge.now + len(results) >= _CALLS,
            "every call running or answered",
        )
        gauge.release.set()
        await asyncio.wait_for(calls, _WAIT)
        assert proxy.check() is None
        assert (await proxy.ainvoke({"hold": False})).value == "done"

    asyncio.run(main())
    _check_outcome(results, gauge, proxy.name)


def test_refused_arguments_are_reported_as_such_at_the_limit(gauge: Gauge) -> None:
    proxy = _tools()["work"]
    threads = [threading.Thread(target=proxy.invoke, args=({},)) for _ in range(_LIMIT)]
    for thread in threads:
        thread.start()
    _until(lambda: gauge.now == _LIMIT, "the limit reached")
    try:
        bad = proxy.invoke({"hold": "yes"})
        assert bad.error is not None
        assert bad.error.kind == "arguments"
        check = proxy.check({"hold": "yes"})
        assert check is not None
        assert check.kind == "arguments"
        busy = proxy.check({"hold": True})
        assert busy is not None
        assert busy.kind == "limit"
    finally:
        gauge.release.set()
        for thread in threads:
            thread.join(_WAIT)


def test_a_tool_without_the_limit_keeps_the_direct_route() -> None:
    tools = _tools()
    assert tools["free"]._pipeline.direct  # the zero-cost route
    assert tools["free"]._pipeline.slots is None
    assert not tools["work"]._pipeline.direct
    assert not tools["awork"]._pipeline.adirect
    assert tools["free"].invoke().value == "free"


@pytest.mark.parametrize("method", ["named", "anamed"])
def test_a_parameter_may_have_any_name(method: str) -> None:
    proxy = _tools()[method]
    assert proxy.invoke({"bound": 1, "kwargs": 2}).value == 3
    assert asyncio.run(proxy.ainvoke({"bound": 1, "kwargs": 2})).value == 3


def test_the_limit_is_shared_by_every_instance_of_the_toolset(gauge: Gauge) -> None:
    first, second = Capped.proxy(Capped().work), Capped.proxy(Capped().work)
    threads = [threading.Thread(target=first.invoke, args=({},)) for _ in range(_LIMIT)]
    for thread in threads:
        thread.start()
    try:
        _until(lambda: gauge.now == _LIMIT, "the limit reached")
        error = second.invoke({}).error
        assert error is not None
        assert error.kind == "limit"
    finally:
        gauge.release.set()
        for thread in threads:
            thread.join(_WAIT)


def test_renamed_copies_and_their_copies_and_pickles_count_with_the_tool(gauge: Gauge) -> None:
    # Each rename, and each copy or pickle of one, had a count of its own: 3 ran with a limit of 4
    # already reached.
    original = Capped.proxy(Capped().work)
    renamed = attrs.evolve(original, name="renamed")
    others = [
        attrs.evolve(original, name="renamed"),
        copy.copy(renamed),
        pickle.loads(pickle.dumps(renamed)),  # noqa: S301 - our own object
    ]
    threads = [threading.Thread(target=original.invoke, args=({},)) for _ in range(_LIMIT)]
    for thread in threads:
        thread.start()
    try:
        _until(lambda: gauge.now == _LIMIT, "the limit reached")
        for other in [renamed, *others]:
            error = other.invoke({}).error
            assert error is not None
            # The message names the tool as it was called.
            assert error.message == _message("renamed", _LIMIT)
        assert gauge.peak == _LIMIT
    finally:
        gauge.release.set()
        for thread in threads:
            thread.join(_WAIT)


def test_a_sync_tool_with_a_limit_and_no_deadline_does_not_import_asyncio() -> None:
    # Its first call imported asyncio, which a sync call without a deadline never needs.
    code = (
        "import sys\n"
        "from typed_toolsets import Limits, Toolset, tool\n"
        "class T(Toolset):\n"
        "    @tool(limits=Limits(max_concurrent=2))\n"
        "    def quick(self) -> int:\n"
        "        return 1\n"
        "assert T().to_tools()[0].invoke({}).value == 1\n"
        "print('asyncio' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=_WAIT, check=True
    )
    assert done.stdout.strip() == "False"


# ----------------------------------------------------------------- calls left at their deadline

_stubborn_release = threading.Event()


class Stubborn(Toolset):
    limits = Limits(timeout=0.05, max_concurrent=1)

    @tool
    def blocks(self, *, hold: bool = True) -> str:
        if hold:
            _stubborn_release.wait(_WAIT)
        return "done"

    @tool
    async def ignores(self, *, hold: bool = True) -> str:
        # Swallows its cancellation and goes on until released: it is left behind.
        end = time.monotonic() + _WAIT
        while hold and not _stubborn_release.is_set() and time.monotonic() < end:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(0.005)
        return "done"


def _stubborn(method: str) -> ToolProxy:
    return next(p for p in Stubborn().to_tools() if p.method_name == method)


def _refused_for_the_limit(result: ToolResult[Any] | None) -> None:
    assert result is not None
    assert result.error is not None
    assert result.error.kind == "limit", result.error
    assert result.error.message == _message(result.error.tool, 1)


@pytest.fixture
def stubborn_release() -> Any:
    _stubborn_release.clear()
    yield _stubborn_release
    _stubborn_release.set()


@pytest.mark.parametrize("form", ["invoke", "ainvoke"])
def test_a_sync_call_left_running_at_its_deadline_keeps_its_place(
    stubborn_release: threading.Event, form: str
) -> None:
    proxy = _stubborn("blocks")

    def call(arguments: dict[str, Any]) -> ToolResult[Any]:
        if form == "invoke":
            return proxy.invoke(arguments)
        return asyncio.run(proxy.ainvoke(arguments))

    first = call({})
    assert first.error is not None
    assert first.error.kind == "timeout"
    # Its thread still runs: the place is still taken.
    _refused_for_the_limit(call({"hold": False}))
    check = proxy.check()
    assert check is not None
    assert check.kind == "limit"
    stubborn_release.set()
    _until(lambda: proxy.check() is None, "the abandoned thread's end")
    assert call({"hold": False}).value == "done"


@pytest.mark.parametrize("form", ["invoke", "ainvoke"])
def test_an_async_call_left_behind_at_its_deadline_keeps_its_place(
    stubborn_release: threading.Event, form: str
) -> None:
    proxy = _stubborn("ignores")

    async def main() -> None:
        first = await proxy.ainvoke({})
        assert first.error is not None
        assert first.error.kind == "timeout"
        assert "left running" in first.error.message
        _refused_for_the_limit(await proxy.ainvoke({"hold": False}))
        stubborn_release.set()
        await _auntil(lambda: proxy.check() is None, "the abandoned task's end")
        assert (await proxy.ainvoke({"hold": False})).value == "done"

    if form == "ainvoke":
        asyncio.run(main())
        return
    # From sync code the tool runs on a loop of its own, in a thread left at the deadline.
    first = proxy.invoke({})
    assert first.error is not None
    assert first.error.kind == "timeout"
    _refused_for_the_limit(proxy.invoke({"hold": False}))
    stubborn_release.set()
    _until(lambda: proxy.check() is None, "the abandoned loop's end")
    assert proxy.invoke({"hold": False}).value == "done"


# ---------------------------------------------------- sync wrappers of async defs, inline tools


def _returns_coroutine(method: Callable[..., Any]) -> Callable[..., Any]:
    """A plain ``def`` wrapper returning the method's coroutine once the stubborn one is released."""

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("hold", True):
            _stubborn_release.wait(_WAIT)
        return method(*args, **kwargs)

    return wrapper


class Wrapped(Toolset):
    limits = Limits(max_concurrent=1)

    @tool
    @_returns_coroutine
    async def wrapped(self, *, hold: bool = True) -> str:
        return await Capped().awork(hold=hold)

    @tool(limits=Limits(timeout=0.05, max_concurrent=1))
    @_returns_coroutine
    async def late(self, *, hold: bool = True) -> str:
        return "done"

    @tool(inline=True)
    def where(self) -> int:
        return threading.get_ident()


def _wrapped(method: str) -> ToolProxy:
    return next(p for p in Wrapped().to_tools() if p.method_name == method)


def test_a_sync_wrappers_coroutine_holds_the_place_until_it_ends(
    gauge: Gauge, stubborn_release: threading.Event
) -> None:
    proxy = _wrapped("wrapped")
    assert proxy._pipeline.wrapper
    stubborn_release.set()

    async def main() -> None:
        task = asyncio.ensure_future(proxy.ainvoke({}))
        await _auntil(lambda: gauge.now == 1, "the coroutine running")
        _refused_for_the_limit(await proxy.ainvoke({"hold": False}))
        gauge.release.set()
        assert (await asyncio.wait_for(task, _WAIT)).value == "done"
        assert proxy.check() is None

    asyncio.run(main())
    assert proxy.invoke({"hold": False}).value == "done"
    assert proxy.check() is None


def test_a_sync_wrappers_coroutine_never_awaited_gives_the_place_back(
    stubborn_release: threading.Event,
) -> None:
    proxy = _wrapped("late")
    first = asyncio.run(proxy.ainvoke({}))
    assert first.error is not None
    assert first.error.kind == "timeout"
    _refused_for_the_limit(asyncio.run(proxy.ainvoke({"hold": False})))
    # Released, the wrapper returns its coroutine after the deadline: it is closed unawaited.
    stubborn_release.set()
    _until(lambda: proxy.check() is None, "the coroutine closed")
    assert asyncio.run(proxy.ainvoke({"hold": False})).value == "done"


def test_an_inline_tool_with_a_limit_still_runs_on_the_event_loop() -> None:
    proxy = _wrapped("where")
    assert not proxy._pipeline.ainline  # it takes a place first
    assert asyncio.run(proxy.ainvoke()).value == threading.get_ident()
    assert proxy.check() is None


# ------------------------------------------------------------------------ places given back


class Raises(BaseException):
    """A BaseException the call path reports as the tool's failure (not Ctrl-C or an exit)."""


class Failing(Toolset):
    limits = Limits(max_concurrent=1)

    @tool
    def fails(self, *, base: bool) -> None:
        raise (Raises("base") if base else ValueError("plain"))

    @tool
    async def afails(self, *, base: bool) -> None:
        raise (Raises("base") if base else ValueError("plain"))

    @tool
    def closes(self) -> None:
        raise GeneratorExit

    @tool
    def stops(self) -> None:
        raise KeyboardInterrupt


@pytest.mark.parametrize("base", [False, True], ids=["Exception", "BaseException"])
@pytest.mark.parametrize("method", ["fails", "afails"])
@pytest.mark.parametrize("form", ["invoke", "ainvoke"])
def test_a_tool_that_raises_gives_its_place_back(base: bool, method: str, form: str) -> None:
    proxy = next(p for p in Failing().to_tools() if p.method_name == method)
    for _ in range(3):  # with a place kept, the second call would be refused
        if form == "invoke":
            result = proxy.invoke({"base": base})
        else:
            result = asyncio.run(proxy.ainvoke({"base": base}))
        assert result.error is not None
        assert result.error.kind == "execution"
        assert proxy.check({"base": base}) is None


def test_generator_exit_and_keyboard_interrupt_give_the_place_back() -> None:
    tools = {p.method_name: p for p in Failing().to_tools()}
    for _ in range(2):
        error = tools["closes"].invoke().error
        assert error is not None
        assert error.kind == "execution"
        with pytest.raises(KeyboardInterrupt):
            tools["stops"].invoke()
        assert tools["stops"].check() is None
        with pytest.raises(KeyboardInterrupt):
            asyncio.run(tools["stops"].ainvoke())
        assert tools["stops"].check() is None


def test_a_call_refused_before_its_method_starts_gives_the_place_back() -> None:
    proxy = next(p for p in Failing().to_tools() if p.method_name == "afails")

    async def main() -> None:
        for _ in range(2):
            # invoke() of an async tool inside a running loop: the method never starts.
            error = proxy.invoke({"base": False}).error
            assert error is not None
            assert error.kind == "execution"
            assert "use `await proxy.ainvoke(...)`" in error.message

    asyncio.run(main())
    assert proxy.check({"base": False}) is None


def test_a_cancelled_caller_gives_the_place_back_when_the_tool_ends(gauge: Gauge) -> None:
    proxy = _tools()["awork"]

    async def main() -> None:
        task = asyncio.ensure_future(proxy.ainvoke({}))
        await _auntil(lambda: gauge.now == 1, "the call running")
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, _WAIT)
        assert proxy.check() is None
        gauge.release.set()
        assert (await proxy.ainvoke({"hold": False})).value == "done"

    asyncio.run(main())


# ------------------------------------------------------------------ security.md AG-3: programs

_children = Gauge()


class Spawning(Toolset):
    @tool(limits=Limits(max_concurrent=_LIMIT))
    def spawn(self) -> str:
        return _run_child()

    @tool(limits=Limits(timeout=0.02, max_concurrent=_LIMIT))
    def spawn_timed(self) -> str:
        return _run_child()


def _run_child() -> str:
    _children.enter()
    try:
        subprocess.run(
            [sys.executable, "-c", "import time; time.sleep(0.2)"], check=True, timeout=_WAIT
        )
    finally:
        _children.leave()
    return "done"


@pytest.mark.parametrize("method", ["spawn", "spawn_timed"])
def test_a_hundred_calls_of_a_tool_starting_a_program_run_at_most_four_programs(
    method: str,
) -> None:
    global _children  # the tool reads the current gauge
    _children = Gauge()
    proxy = next(p for p in Spawning().to_tools() if p.method_name == method)
    results: list[ToolResult[Any]] = []
    lock = threading.Lock()
    start = threading.Barrier(_CALLS, timeout=_WAIT)

    def call() -> None:
        start.wait()
        result = proxy.invoke()
        with lock:
            results.append(result)

    threads = [threading.Thread(target=call) for _ in range(_CALLS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(_WAIT)
        assert not thread.is_alive()
    # With a deadline the calls end before their programs: those still hold their places.
    _until(lambda: _children.now == 0, "the programs' end")
    assert 1 <= _children.peak <= _LIMIT
    kinds = {r.error.kind for r in results if r.error is not None}
    assert kinds <= {"limit", "timeout"}
    assert any(r.error is not None and r.error.kind == "limit" for r in results)
    _until(lambda: proxy.check() is None, "every place given back")


# ------------------------------------------------------------------------------------ settings


@pytest.mark.parametrize("value", [0, -1, 1.5, True, "4"], ids=repr)
def test_an_invalid_max_concurrent_is_refused(value: object) -> None:
    with pytest.raises(
        ValueError, match=rf"^`max_concurrent` must be None or a positive int \(got {value!r}\)\.$"
    ):
        Limits(max_concurrent=value)  # type: ignore[arg-type]


def test_max_concurrent_defaults_to_none_and_is_the_last_field() -> None:
    assert Limits().max_concurrent is None
    assert Limits(max_concurrent=None).max_concurrent is None
    assert Limits(1000, 8, 2.0, 3) == Limits(
        max_argument_bytes=1000, max_depth=8, timeout=2.0, max_concurrent=3
    )


def test_a_tools_limits_replace_the_toolsets_max_concurrent() -> None:
    tools = _tools()
    assert tools["work"].limits.max_concurrent == _LIMIT
    assert tools["free"].limits.max_concurrent is None
