"""Limits: validation of the settings, per-toolset and per-tool limits, and deadlines."""

from __future__ import annotations

import asyncio
import contextvars
import re
import threading
import time
from typing import Any

import attrs
import pytest

from typed_toolsets import Limits, Toolset, tool
from typed_toolsets.call import execution as call_module
from typed_toolsets.definition.limits import call_deadline

_release = threading.Event()


class SlowToolset(Toolset):
    toolset_name = "slow"
    limits = Limits(timeout=0.2)

    @tool
    def wait(self, *, seconds: float) -> str:
        _release.wait(seconds)
        return "done"

    @tool(limits=Limits(timeout=None, max_argument_bytes=100))
    def patient(self, *, seconds: float) -> str:
        time.sleep(seconds)
        return "done"

    @tool
    async def nap(self, *, seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "done"

    @tool
    def fails(self) -> None:
        raise TimeoutError("the tool's own timeout")


class BriefToolset(Toolset):
    limits = Limits(timeout=0.002)

    @tool
    def wait(self, *, seconds: float) -> str:
        _release.wait(seconds)
        return "done"


def slow() -> dict[str, Any]:
    return {t.method_name: t for t in SlowToolset.to_tools()}


class TestSettings:
    def test_defaults(self) -> None:
        assert Limits() == Limits(max_argument_bytes=1_000_000, max_depth=32, timeout=None)

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"max_argument_bytes": 0},
            {"max_argument_bytes": 1.5},
            {"max_depth": -1},
            {"max_depth": True},
            {"timeout": 0},
            {"timeout": -1.0},
            {"timeout": float("inf")},
            {"timeout": "1"},
        ],
    )
    def test_invalid_settings(self, kwargs: dict[str, Any]) -> None:
        with pytest.raises(ValueError, match=f"`{next(iter(kwargs))}` must be"):
            Limits(**kwargs)

    @pytest.mark.parametrize(
        "timeout", [10**400, 1e10, 1e300, float("nan")], ids=["10**400", "1e10", "1e300", "nan"]
    )
    def test_a_timeout_no_thread_can_wait_for_is_refused_with_the_bound(
        self, timeout: float
    ) -> None:
        # 1e10 s passed the validator, then every sync call of the tool failed with
        # "OverflowError: timestamp out of range for platform time_t" (its async calls worked);
        # 10**400 raised OverflowError from the validator itself.
        with pytest.raises(
            ValueError,
            match=r"`timeout` must be None or a positive number of "
            r"seconds, at most [0-9,]+ \(got ",
        ):
            Limits(timeout=timeout)

    def test_the_longest_timeout_works_in_every_form(self) -> None:
        from typed_toolsets.definition.validators import MAX_SECONDS

        class Patient(Toolset):
            limits = Limits(timeout=MAX_SECONDS)

            @tool
            def ping(self) -> str:
                return "pong"

            @tool
            async def aping(self) -> str:
                return "pong"

        for proxy in Patient.to_tools():
            assert proxy.dynamic_call({}) == "pong"
            assert asyncio.run(proxy.adynamic_call({})) == "pong"

    def test_evolve_changes_one_field(self) -> None:
        assert attrs.evolve(SlowToolset.limits, max_depth=3) == Limits(max_depth=3, timeout=0.2)

    def test_tool_limits_replace_toolset_limits(self) -> None:
        tools = slow()
        assert tools["wait"].limits == Limits(timeout=0.2)
        assert tools["patient"].limits == Limits(timeout=None, max_argument_bytes=100)
        message = tools["patient"].dynamic_call({"seconds": 0.0, "padding": "x" * 100})
        assert "over the limit of 100 bytes" in message

    def test_subclass_inherits_toolset_limits(self) -> None:
        class Faster(SlowToolset):
            limits = Limits(timeout=0.05)

        tools = {t.method_name: t for t in Faster.to_tools()}
        assert tools["wait"].limits.timeout == 0.05
        assert tools["patient"].limits.timeout is None


class TestSyncDeadline:
    def test_timeout_returns_at_the_deadline(self) -> None:
        started = time.monotonic()
        result = slow()["wait"].invoke({"seconds": 5})
        elapsed = time.monotonic() - started
        assert elapsed < 2
        assert result.error is not None
        assert result.error.kind == "timeout"
        assert result.error.message.startswith("Tool 'slow_wait' timed out: no result after 0.2")
        assert "(Limits.timeout=0.2)" in result.error.message
        assert "thread may still be running" in result.error.message
        _release.set()
        _release.clear()

    def test_a_short_timeout_says_how_long_it_waited(self) -> None:
        # Two decimals said "no result after 0.00 s" for a timeout of a millisecond or two.
        result = BriefToolset.to_tools()[0].invoke({"seconds": 1})
        _release.set()
        _release.clear()
        assert result.error is not None
        said = r"no result after ([0-9]\.[0-9]+) s \(Limits\.timeout=0\.002\)"  # no exponent
        waited = re.search(said, result.error.message)
        assert waited is not None, result.error.message
        assert 0.002 <= float(waited.group(1)) < 1

    def test_fast_call_within_the_deadline(self) -> None:
        assert slow()["wait"].dynamic_call({"seconds": 0}) == "done"

    def test_a_timed_out_call_does_not_delay_later_calls(self) -> None:
        tools = slow()
        tools["wait"].invoke({"seconds": 3})
        started = time.monotonic()
        assert tools["wait"].dynamic_call({"seconds": 0}) == "done"
        assert time.monotonic() - started < 0.5
        _release.set()
        _release.clear()

    def test_the_tools_own_timeout_error_is_an_execution_error(self) -> None:
        result = slow()["fails"].invoke(None)
        assert result.error is not None
        assert result.error.kind == "execution"
        assert (
            result.error.message == "Tool 'slow_fails' failed: TimeoutError: the tool's own timeout"
        )

    def test_the_bounds_are_the_readmes(self) -> None:
        # README, "Deadlines hold": 32 abandoned threads and tasks, and 0.5 s of grace after
        # cancelling an async tool. (The tests below lower the cap to reach it quickly.)
        assert call_module.MAX_ABANDONED_THREADS == 32
        assert call_module.CANCEL_GRACE == 0.5

    def test_abandoned_threads_are_capped(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(call_module, "MAX_ABANDONED_THREADS", 2)
        wait = slow()["wait"]
        try:
            kinds = [wait.invoke({"seconds": 10}).error.kind for _ in range(3)]  # type: ignore[union-attr]
            assert kinds == ["timeout", "timeout", "limit"]
            refused = wait.invoke({"seconds": 0})
            assert refused.error is not None
            assert "abandoned threads" in refused.error.message
            # check() says so too (it said None, and an approved call was then refused); a
            # tool without a deadline is started all the same.
            assert wait.check({"seconds": 0}) == refused.error
            assert wait.check({"seconds": "x"}).kind == "arguments"  # type: ignore[union-attr]
            assert slow()["patient"].check({"seconds": 0}) is None
        finally:
            _release.set()
        deadline = time.monotonic() + 5
        while call_module.abandoned.count and time.monotonic() < deadline:
            time.sleep(0.01)
        _release.clear()
        assert call_module.abandoned.count == 0
        assert wait.dynamic_call({"seconds": 0}) == "done"


_user: contextvars.ContextVar[str] = contextvars.ContextVar("_user", default="nobody")


class Contextual(Toolset):
    @tool(limits=Limits(timeout=30.0))
    def timed(self) -> str:
        return _user.get()

    @tool(limits=Limits(timeout=30.0))
    async def atimed(self) -> str:
        return _user.get()

    @tool
    def free(self) -> str:
        return _user.get()


@pytest.mark.parametrize("name", ["timed", "atimed", "free"])
def test_a_tool_sees_the_callers_context_variables_in_every_form(name: str) -> None:
    # A sync tool with a timeout ran in a thread with an empty context: a request's context
    # variables (a user, a trace id) read their defaults there, and only there.
    proxy = {t.method_name: t for t in Contextual.to_tools()}[name]

    def call_as(user: str) -> tuple[object, object, float | None]:
        _user.set(user)

        async def main() -> object:
            return await proxy.adynamic_call({})

        # The worker's deadline is set in its own copy of the context, not in the caller's.
        return proxy.dynamic_call({}), asyncio.run(main()), call_deadline()

    assert contextvars.copy_context().run(call_as, "alice") == ("alice", "alice", None)


class Named(Toolset):
    """Parameters named as the pipeline's own helpers' parameters."""

    @tool
    def apply(self, *, func: str, args: list[int]) -> str:
        return f"{func}{args}"

    @tool(limits=Limits(timeout=30.0))
    def timed(self, *, func: str, kwargs: str, name: str, after: str, timeout: str) -> str:
        return func + kwargs + name + after + timeout


def test_a_sync_tool_with_a_parameter_named_func_runs_from_async_code() -> None:
    # From async code, the arguments went to the helper running it in a thread as keywords:
    # "failed: TypeError: Pipeline._in_thread() got multiple values for argument 'func'".
    tools = {t.method_name: t for t in Named.to_tools()}
    cases = [
        ("apply", {"func": "f", "args": [1]}, "f[1]"),
        ("timed", dict.fromkeys(["func", "kwargs", "name", "after", "timeout"], "x"), "xxxxx"),
    ]
    for name, arguments, expected in cases:
        assert tools[name].dynamic_call(arguments) == expected
        assert asyncio.run(tools[name].adynamic_call(arguments)) == expected


class TestAsyncDeadline:
    def test_async_tool_is_cancelled_at_the_deadline(self) -> None:
        nap = slow()["nap"]

        async def main() -> Any:
            return await nap.ainvoke({"seconds": 5})

        started = time.monotonic()
        result = asyncio.run(main())
        assert time.monotonic() - started < 2
        assert result.error is not None
        assert result.error.kind == "timeout"
        assert "it was cancelled" in result.error.message

    def test_async_tool_through_the_sync_form(self) -> None:
        result = slow()["nap"].invoke({"seconds": 5})
        assert result.error is not None
        assert result.error.kind == "timeout"
        assert slow()["nap"].dynamic_call({"seconds": 0}) == "done"

    def test_sync_tool_through_the_async_form(self) -> None:
        wait = slow()["wait"]

        async def main() -> Any:
            return await wait.ainvoke({"seconds": 5}), await wait.adynamic_call({"seconds": 0})

        started = time.monotonic()
        timed_out, done = asyncio.run(main())
        assert time.monotonic() - started < 2
        assert timed_out.error.kind == "timeout"
        assert done == "done"
        _release.set()
        _release.clear()


class _NoRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_a_limit_whose_repr_raises_is_refused_by_its_type() -> None:
    # Its repr's RuntimeError came out instead of the refusal.
    with pytest.raises(ValueError, match=r"`timeout` must be None .*\(got <_NoRepr>\)"):
        Limits(timeout=_NoRepr())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"`max_depth` must be a positive int \(got <_NoRepr>\)"):
        Limits(max_depth=_NoRepr())  # type: ignore[arg-type]
