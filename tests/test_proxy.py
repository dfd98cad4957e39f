"""ToolProxy: attributes, schema copies, the direct call and the sync/async model-facing calls."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
import time
from typing import Any

import attrs
import pytest

from typed_toolsets import Limits, ToolError, ToolResult, Toolset, tool


class Failure(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no str for you")


@attrs.define
class MathToolset(Toolset):
    toolset_name = "math"
    calls: list[str] = attrs.Factory(list)

    @tool
    def divide(self, *, a: int, b: int) -> float:
        """Divide a by b."""
        self.calls.append("divide")
        return a / b

    @tool
    async def slow_add(self, *, a: int, b: int, delay: float = 0.0) -> int:
        await asyncio.sleep(delay)
        return a + b

    @tool
    def broken(self) -> None:
        raise Failure

    @tool
    def returns_error_text(self) -> str:
        return "Error: this is the tool's own text"

    @tool
    def nothing(self) -> None:
        return None


def tools() -> dict[str, Any]:
    return {t.method_name: t for t in MathToolset.to_tools()}


class TestAttributes:
    def test_public_attributes(self) -> None:
        divide = tools()["divide"]
        assert divide.name == "math_divide"
        assert divide.method_name == "divide"
        assert divide.description == "Divide a by b."
        assert isinstance(divide.toolset, MathToolset)
        assert divide.output_schema == {"type": "number"}
        assert tools()["nothing"].output_schema is None
        assert divide.limits == Limits()
        assert not divide.is_async
        assert tools()["slow_add"].is_async

    def test_schemas_are_fresh_copies(self) -> None:
        divide = tools()["divide"]
        received = divide.parameters
        received["properties"]["a"]["type"] = "string"
        received["required"].clear()
        divide.schema["parameters"]["additionalProperties"] = True
        assert divide.parameters["properties"]["a"] == {"type": "integer"}
        assert divide.dynamic_call({"a": 1}) == (
            "Error: Invalid arguments for tool 'math_divide': b: missing required argument"
        )
        json.dumps(divide.schema)


class TestDirectCall:
    def test_call_and_dunder_call(self) -> None:
        divide = tools()["divide"]
        assert divide.call(a=1, b=4) == 0.25
        assert divide(a=1, b=2) == 0.5

    def test_no_conversion_and_exceptions_propagate(self) -> None:
        divide = tools()["divide"]
        with pytest.raises(ZeroDivisionError):
            divide.call(a=1, b=0)
        # Direct calls are not validated: a float goes in as is.
        assert divide.call(a=1.5, b=1) == 1.5
        with pytest.raises(TypeError):
            divide.call(a="x", b=1)

    def test_direct_call_of_async_returns_a_coroutine(self) -> None:
        coroutine = tools()["slow_add"].call(a=1, b=2)
        assert asyncio.run(coroutine) == 3

    def test_call_has_the_method_s_signature(self) -> None:
        # It showed (*args, **kwargs), which tells a reader (or a framework) nothing.
        import inspect

        divide, add = tools()["divide"], tools()["slow_add"]
        assert inspect.signature(divide.call) == inspect.signature(MathToolset().divide)
        assert str(inspect.signature(add.call)) == (
            "(*, a: 'int', b: 'int', delay: 'float' = 0.0) -> 'int'"
        )
        typed = Toolset.proxy(MathToolset().divide)
        assert list(inspect.signature(typed.call).parameters) == ["a", "b"]


class TestModelFacingCall:
    def test_invoke_success(self) -> None:
        result = tools()["divide"].invoke({"a": 1, "b": 2})
        assert result == ToolResult(ok=True, value=0.5, error=None)

    def test_execution_error(self) -> None:
        divide = tools()["divide"]
        result = divide.invoke({"a": 1, "b": 0})
        assert result.error == ToolError(
            tool="math_divide",
            kind="execution",
            message="Tool 'math_divide' failed: ZeroDivisionError: division by zero",
            details=(),
        )
        assert divide.dynamic_call({"a": 1, "b": 0}) == (
            "Error: Tool 'math_divide' failed: ZeroDivisionError: division by zero"
        )

    def test_an_exception_whose_str_fails(self) -> None:
        assert tools()["broken"].dynamic_call(None) == "Error: Tool 'math_broken' failed: Failure"

    def test_dynamic_call_is_invoke_flattened(self) -> None:
        divide = tools()["divide"]
        for arguments in ({"a": 1, "b": 2}, {"a": 1, "b": 0}, {"a": "x"}, "[", None):
            result = divide.invoke(arguments)
            expected = result.value if result.ok else "Error: " + result.error.message  # type: ignore[union-attr]
            assert divide.dynamic_call(arguments) == expected

    def test_a_tool_returning_error_text_is_still_a_success(self) -> None:
        result = tools()["returns_error_text"].invoke(None)
        assert result.ok
        assert result.value == "Error: this is the tool's own text"

    def test_none_is_a_value(self) -> None:
        assert tools()["nothing"].invoke(None) == ToolResult(ok=True, value=None)

    def test_to_dict_envelope(self) -> None:
        result = tools()["divide"].invoke({"a": "x", "b": 1})
        assert result.error is not None
        assert result.error.to_dict() == {
            "error": {
                "kind": "arguments",
                "tool": "math_divide",
                "message": "Invalid arguments for tool 'math_divide': a: 'x' is not of type 'integer'",
                "details": [{"path": "$.a", "message": "'x' is not of type 'integer'"}],
            }
        }

    def test_keyboard_interrupt_propagates(self) -> None:
        class InterruptToolset(Toolset):
            @tool
            def stop(self) -> None:
                raise KeyboardInterrupt

            @tool
            def leave(self) -> None:
                raise SystemExit(3)

        stop, leave = InterruptToolset.to_tools()
        with pytest.raises(KeyboardInterrupt):
            stop.dynamic_call(None)
        with pytest.raises(SystemExit):
            leave.invoke(None)


class TestCheck:
    """`check`: the verdict `invoke` would give the arguments before running the method."""

    @pytest.mark.parametrize(
        "arguments",
        [
            {"a": "x", "b": 1},
            {"a": 1},
            {"a": 1, "b": 2, "c": 3},
            '{"a": 1, "a": 2, "b": 3}',  # a repeated key
            "[",
            "[1]",
            {"a": 1.5, "b": 1},
            {"a": float("nan"), "b": 1},
            '{"a": 1, "b": ' + "[" * 40 + "]" * 40 + "}",  # past Limits.max_depth
            "x" * 1_000_001,  # past Limits.max_argument_bytes
            object(),
        ],
    )
    def test_refused_arguments_get_the_error_invoke_gives(self, arguments: Any) -> None:
        math = MathToolset()
        divide = {t.method_name: t for t in math.to_tools()}["divide"]
        error = divide.check(arguments)
        assert error is not None
        assert error == divide.invoke(arguments).error
        assert math.calls == []

    @pytest.mark.parametrize("arguments", [{"a": 1, "b": 0}, '{"a": 1, "b": 0}', b'{"b":0,"a":1}'])
    def test_accepted_arguments_are_none_and_the_method_does_not_run(self, arguments: Any) -> None:
        math = MathToolset()
        divide = {t.method_name: t for t in math.to_tools()}["divide"]
        assert divide.check(arguments) is None
        assert math.calls == []
        # Accepted, even though running the method would fail: check is not the call.
        assert divide.invoke(arguments).error.kind == "execution"  # type: ignore[union-attr]

    def test_an_async_tool_is_checked_without_being_awaited(self) -> None:
        slow_add = tools()["slow_add"]
        assert slow_add.check({"a": 1, "b": 2, "delay": 30}) is None
        error = slow_add.check({"a": 1})
        assert error is not None
        assert (
            error.message
            == "Invalid arguments for tool 'math_slow_add': b: missing required argument"
        )

    def test_the_limit_kind_is_kept(self) -> None:
        error = tools()["divide"].check("x" * 1_000_001)
        assert error is not None
        assert error.kind == "limit"


class TestAsync:
    def test_async_forms_on_an_async_tool(self) -> None:
        slow_add = tools()["slow_add"]

        async def main() -> tuple[Any, ...]:
            return (
                await slow_add.acall(a=1, b=2),
                await slow_add.adynamic_call({"a": 2, "b": 3}),
                await slow_add.ainvoke('{"a": 3, "b": 4}'),
                await slow_add.adynamic_call({"a": "x", "b": 1}),
            )

        direct, dynamic, invoked, bad = asyncio.run(main())
        assert direct == 3
        assert dynamic == 5
        assert invoked == ToolResult(ok=True, value=7)
        assert (
            bad
            == "Error: Invalid arguments for tool 'math_slow_add': a: 'x' is not of type 'integer'"
        )

    def test_async_forms_run_sync_tools_in_a_worker_thread(self) -> None:
        seen: list[str] = []

        class ThreadToolset(Toolset):
            @tool
            def where(self) -> str:
                seen.append(threading.current_thread().name)
                return "done"

        (where,) = ThreadToolset.to_tools()

        async def main() -> tuple[Any, Any]:
            return await where.adynamic_call(None), await where.acall()

        assert asyncio.run(main()) == ("done", "done")
        assert all(name != threading.main_thread().name for name in seen)

    def test_acall_of_a_sync_tool_raises_what_it_raised(self) -> None:
        class Raising(Toolset):
            @tool
            def first(self, *, items: list[int]) -> int:
                return next(iter(items))  # StopIteration on []

            @tool
            def divide(self, *, a: int) -> float:
                return 1 / a

        first, divide = Raising.to_tools()

        async def main(call: Any) -> Any:
            return await asyncio.wait_for(call, 5)  # it never ended: a StopIteration in a future

        with pytest.raises(ZeroDivisionError):
            asyncio.run(main(divide.acall(a=0)))
        # A coroutine cannot raise StopIteration: Python's RuntimeError, caused by it.
        with pytest.raises(RuntimeError, match="raised StopIteration") as info:
            asyncio.run(main(first.acall(items=[])))
        assert isinstance(info.value.__cause__, StopIteration)
        assert asyncio.run(main(first.acall(items=[4]))) == 4

    def test_sync_form_runs_an_async_tool_without_a_loop(self) -> None:
        assert tools()["slow_add"].dynamic_call({"a": 1, "b": 1}) == 2

    def test_sync_form_of_an_async_tool_leaves_the_current_event_loop(self) -> None:
        # asyncio.run ends by setting none: get_event_loop() then raised in the caller.
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            assert tools()["slow_add"].dynamic_call({"a": 1, "b": 1}) == 2
            assert asyncio.get_event_loop() is loop
        finally:
            asyncio.set_event_loop(None)
            loop.close()

    def test_sync_form_inside_a_running_loop_is_an_error(self) -> None:
        slow_add = tools()["slow_add"]

        async def main() -> ToolResult:
            return slow_add.invoke({"a": 1, "b": 1})

        result = asyncio.run(main())
        assert result.error is not None
        assert result.error.kind == "execution"
        assert "ainvoke" in result.error.message
        assert "adynamic_call" in result.error.message
        # Who calls through typed_toolsets.export holds no proxy: its async forms are named.
        assert "export: adispatch, arespond, amcp_call" in result.error.message

    @pytest.mark.skipif(sys.version_info < (3, 11), reason="asyncio.TaskGroup is Python 3.11+")
    def test_a_task_group_failing_after_its_body_is_the_tool_s_failure(self) -> None:
        # Python 3.11 and 3.12 leave the group's own cancel request counted on the task (3.13
        # takes it back): it was taken for the caller's cancellation, and CancelledError raised.
        class Grouped(Toolset):
            @tool
            async def run(self, *, wrap: bool = False) -> int:
                async def child() -> None:
                    await asyncio.sleep(0)
                    raise KeyError("k")

                try:
                    async with asyncio.TaskGroup() as group:
                        group.create_task(child())
                except Exception as exc:  # the group
                    if wrap:
                        raise ValueError("wrapped") from exc
                    raise
                return 1

        (run,) = Grouped.to_tools()

        async def main() -> tuple[list[str], int]:
            messages = [await run.adynamic_call({}), await run.adynamic_call({"wrap": True})]
            task = asyncio.current_task()
            assert task is not None
            return messages, task.cancelling()

        messages, cancelling = asyncio.run(main())
        grouped = (
            "Error: Tool 'grouped_run' failed: ExceptionGroup: unhandled errors in a TaskGroup "
            "(1 sub-exception): KeyError: 'k'"
        )
        assert messages == [grouped, "Error: Tool 'grouped_run' failed: ValueError: wrapped"]
        assert cancelling == 0

    @pytest.mark.skipif(sys.version_info < (3, 11), reason="asyncio.TaskGroup is Python 3.11+")
    def test_a_task_group_stopped_by_the_caller_s_cancellation_cancels_the_caller(self) -> None:
        # Its child turns the cancellation into an error: the group is raised as the caller's
        # cancellation reaches the block. Taken for the group's own request, the cancellation
        # was dropped: the timeout ran on for the rest of its block.
        class Working(Toolset):
            @tool
            async def work(self) -> int:
                async def child() -> None:
                    try:
                        await asyncio.sleep(10)
                    except asyncio.CancelledError:
                        raise ValueError("unhandled error") from None

                async with asyncio.TaskGroup() as group:
                    group.create_task(child())
                    await asyncio.sleep(10)
                return 1

        (work,) = Working.to_tools()

        async def main() -> int:
            async with asyncio.timeout(0.1):
                await work.adynamic_call({})
                await asyncio.sleep(2)
            return 0

        started = time.monotonic()
        with pytest.raises(TimeoutError):
            asyncio.run(main())
        assert time.monotonic() - started < 1.5

    @pytest.mark.skipif(sys.version_info < (3, 11), reason="Task.cancelling is Python 3.11+")
    def test_a_cancellation_while_a_group_is_handled_is_counted_as_asyncio_counts_it(self) -> None:
        class Handling(Toolset):
            @tool
            async def handle(self) -> int:
                try:
                    raise ExceptionGroup("g", [ValueError("v")])  # noqa: F821 - 3.11+
                except Exception:
                    await asyncio.sleep(10)
                return 1

        (handle,) = Handling.to_tools()

        async def main() -> int:
            inner = asyncio.ensure_future(handle.ainvoke({}))
            await asyncio.sleep(0.05)
            inner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await inner
            return inner.cancelling() if hasattr(inner, "cancelling") else -1

        # The request is still counted once, as plain asyncio leaves it (it was taken back).
        assert asyncio.run(main()) == 1

    @pytest.mark.skipif(sys.version_info < (3, 11), reason="Task.cancelling is Python 3.11+")
    def test_a_cancellation_the_tool_turns_into_an_error_cancels_the_caller(self) -> None:
        class Swallowing(Toolset):
            @tool
            async def wait(self) -> int:
                try:
                    await asyncio.sleep(10)
                except asyncio.CancelledError:
                    raise RuntimeError("stopped") from None
                return 1

        (wait,) = Swallowing.to_tools()

        async def main() -> None:
            async with asyncio.timeout(0.05):
                await wait.adynamic_call({})

        started = time.monotonic()
        with pytest.raises(TimeoutError):
            asyncio.run(main())
        assert time.monotonic() - started < 5

    @pytest.mark.skipif(sys.version_info < (3, 11), reason="Task.cancelling is Python 3.11+")
    @pytest.mark.parametrize("left_by", ["a caller's task group", "a handled cancellation"])
    def test_a_request_left_counted_before_the_call_is_not_the_call_s_cancellation(
        self, left_by: str
    ) -> None:
        # The caller's task kept a request counted from before the call (3.11 and 3.12 leave a
        # group's own one when a child fails after the body; code that handles a cancellation
        # and goes on leaves its own): an async or inline tool's error was taken for the
        # caller's cancellation, and CancelledError raised where the sync forms say the error.
        class Failing(Toolset):
            @tool
            async def later(self) -> int:
                raise ZeroDivisionError("division by zero")

            @tool(inline=True)
            def now(self) -> int:
                raise ZeroDivisionError("division by zero")

            @tool
            async def deadline(self) -> int:
                # Its own deadline: the cancellation it requests becomes a TimeoutError.
                await asyncio.wait_for(asyncio.sleep(10), 0.01)
                return 1

            @tool
            async def waits(self) -> int:
                try:
                    await asyncio.sleep(10)
                except asyncio.CancelledError:
                    raise RuntimeError("stopped") from None
                return 1

        later, now, deadline, waits = Failing.to_tools()

        async def leave_a_request() -> None:
            task = asyncio.current_task()
            assert task is not None
            if left_by == "a handled cancellation":
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.sleep(1)
                return

            async def child() -> None:
                await asyncio.sleep(0.01)
                raise KeyError("k")

            with contextlib.suppress(Exception):
                async with asyncio.TaskGroup() as group:
                    group.create_task(child())

        async def main() -> tuple[list[str], int]:
            await leave_a_request()
            task = asyncio.current_task()
            assert task is not None
            left = task.cancelling()
            messages = [await later.adynamic_call({}), await now.adynamic_call({})]
            messages.append((await later.ainvoke({})).error.message)  # type: ignore[union-attr]
            messages.append(await deadline.adynamic_call({}))
            # A request made during the call, on top of the one left, is the caller's: the
            # tool turned it into an error, and the caller is cancelled all the same.
            with pytest.raises(TimeoutError):
                async with asyncio.timeout(0.05):
                    await waits.adynamic_call({})
            return messages, left

        messages, left = asyncio.run(main())
        if sys.version_info < (3, 13) or left_by == "a handled cancellation":
            assert left == 1  # the case this is about
        failed = "Tool 'failing_{}' failed: ZeroDivisionError: division by zero"
        assert messages == [
            "Error: " + failed.format("later"),
            "Error: " + failed.format("now"),
            failed.format("later"),
            "Error: Tool 'failing_deadline' failed: TimeoutError",
        ]

    def test_cancellation_propagates(self) -> None:
        slow_add = tools()["slow_add"]

        async def main() -> None:
            task = asyncio.ensure_future(slow_add.ainvoke({"a": 1, "b": 1, "delay": 10}))
            await asyncio.sleep(0.05)
            task.cancel()
            await task

        started = time.monotonic()
        with pytest.raises(asyncio.CancelledError):
            asyncio.run(main())
        assert time.monotonic() - started < 5


class TestPickling:
    """A proxy pickles as its toolset and name (its compiled code and locks never could)."""

    def test_a_pickled_proxy_is_the_tool_of_the_pickled_toolset(self) -> None:
        import pickle

        divide = MathToolset(calls=["before"]).to_tools()[0]
        again = pickle.loads(pickle.dumps(divide))  # noqa: S301 - our own object
        assert (again.name, again.method_name, again.schema) == (
            divide.name,
            divide.method_name,
            divide.schema,
        )
        assert again.dynamic_call({"a": 6, "b": 3}) == 2.0
        assert again.toolset.calls == ["before", "divide"]  # its own copy of the toolset
        assert divide.toolset.calls == ["before"]

    def test_loading_the_tools_of_a_toolset_builds_each_once(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        import pickle

        from typed_toolsets.call import proxy as proxy_module

        every = MathToolset().to_tools()
        data = pickle.dumps(every)
        built: list[str] = []
        make = proxy_module.make_proxies

        def counted(exports: list[Any], instance: Toolset) -> list[Any]:
            built.extend(e.name for e in exports)
            return make(exports, instance)

        monkeypatch.setattr(proxy_module, "make_proxies", counted)
        again = pickle.loads(data)  # noqa: S301 - our own object
        assert [p.name for p in again] == [p.name for p in every]
        assert len({id(p.toolset) for p in again}) == 1
        # Each proxy loaded built every tool of its toolset: N proxies cost N * N.
        assert sorted(built) == sorted(p.name for p in every)

    def test_a_copy_is_bound_to_the_same_toolset_and_a_deep_copy_to_a_copy_of_it(self) -> None:
        import copy

        divide = MathToolset().to_tools()[0]
        assert copy.copy(divide).toolset is divide.toolset
        deep = copy.deepcopy(divide)
        assert deep.toolset is not divide.toolset
        assert deep.toolset == divide.toolset
        assert deep.dynamic_call('{"a": 1, "b": 4}') == 0.25

    def test_a_renamed_proxy_is_found_by_its_method(self) -> None:
        import copy
        import pickle

        renamed = attrs.evolve(MathToolset().to_tools()[0], name="divide_numbers")
        again = pickle.loads(pickle.dumps(renamed))  # noqa: S301 - our own object
        # A copy or a pickle came back under the old name.
        assert (again.method_name, again.name) == ("divide", "divide_numbers")
        assert copy.copy(renamed).name == "divide_numbers"
        assert again.dynamic_call({"a": 1}).startswith("Error: Invalid arguments for tool 'divide_")

    def test_a_proxy_with_its_own_description_keeps_it_in_copies_and_pickles(self) -> None:
        import copy
        import pickle

        # The class's description came back.
        described = attrs.evolve(MathToolset().to_tools()[0], description="Divide two numbers.")
        again = pickle.loads(pickle.dumps(described))  # noqa: S301 - our own object
        assert (again.name, again.description) == (described.name, "Divide two numbers.")
        assert copy.copy(described).description == "Divide two numbers."
        # A pickle of an earlier version, without one, keeps the class's.
        rebuild, stored = described.__reduce__()
        assert rebuild(*stored[:3]).description == MathToolset().to_tools()[0].description

    def test_it_runs_in_a_process_pool(self) -> None:
        import concurrent.futures
        import multiprocessing

        divide = MathToolset().to_tools()[0]
        # A fresh interpreter (spawn) imports this module to load the toolset's class.
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
            answers = list(pool.map(divide.dynamic_call, [{"a": 1, "b": 2}, {"a": 1}], timeout=120))
        assert answers[0] == 0.5
        assert answers[1] == (
            "Error: Invalid arguments for tool 'math_divide': b: missing required argument"
        )


def test_a_renamed_proxy_names_its_new_name_in_every_message() -> None:
    # attrs.evolve(proxy, name=...) kept the old name in every refusal and error.
    divide, add = (attrs.evolve(tools()[m], name=f"renamed_{m}") for m in ("divide", "slow_add"))
    assert divide.dynamic_call({"a": 1}) == (
        "Error: Invalid arguments for tool 'renamed_divide': b: missing required argument"
    )
    failed = divide.invoke({"a": 1, "b": 0}).error
    assert failed is not None
    assert (failed.tool, failed.kind) == ("renamed_divide", "execution")
    assert "'renamed_divide'" in failed.message
    checked = divide.check({"a": "x"})
    assert checked is not None
    assert checked.tool == "renamed_divide"
    refused = asyncio.run(add.ainvoke({"a": 1})).error
    assert refused is not None
    assert refused.tool == "renamed_slow_add"
    assert "'math_" not in divide.dynamic_call("not json")
    assert divide.schema["name"] == "renamed_divide"
    assert divide.dynamic_call({"a": 6, "b": 3}) == 2.0
    # Renamed back, or not renamed at all, it is the tool as built.
    assert (
        attrs.evolve(divide, name="math_divide")
        .dynamic_call({"a": 1})
        .startswith("Error: Invalid arguments for tool 'math_divide'")
    )


def test_a_proxy_moved_to_another_toolset_calls_that_toolset() -> None:
    first, second = MathToolset(), MathToolset()
    divide = first.to_tools()[0]
    moved = attrs.evolve(divide, toolset=second)
    # It showed the new toolset but called the old one's method.
    assert moved.dynamic_call({"a": 1, "b": 2}) == 0.5
    assert moved(a=1, b=4) == 0.25
    assert asyncio.run(moved.ainvoke({"a": 1, "b": 2})).value == 0.5
    assert (first.calls, second.calls) == ([], ["divide", "divide", "divide"])
    assert moved.call.__self__ is second  # type: ignore[attr-defined]
    # Renamed and described at once, it keeps both.
    both = attrs.evolve(divide, toolset=first, name="halve", description="Halve.")
    assert (both.name, both.description, both.toolset) == ("halve", "Halve.", first)
    assert both.dynamic_call({"a": 1}).startswith("Error: Invalid arguments for tool 'halve'")
    assert both.dynamic_call({"a": 1, "b": 2}) == 0.5
    assert first.calls == ["divide"]


def test_a_proxy_moved_to_a_subclass_calls_its_override() -> None:
    class Doubling(MathToolset):
        @tool
        def divide(self, *, a: int, b: int) -> float:
            return 2 * a / b

    moved = attrs.evolve(MathToolset().to_tools()[0], toolset=Doubling())
    assert moved.dynamic_call({"a": 1, "b": 2}) == 1.0


def test_a_proxy_moved_to_a_toolset_of_another_class_is_refused() -> None:
    class Other(Toolset):
        toolset_name = "other"

        @tool
        def divide(self, *, a: int) -> int:
            return a

    divide = MathToolset().to_tools()[0]
    # A method of the same name in an unrelated class was bound, under the old description.
    for other in (Other(), object()):
        with pytest.raises(TypeError, match=r"takes a toolset of the tool's class, MathToolset"):
            attrs.evolve(divide, toolset=other)


def test_a_renamed_proxy_moved_or_copied_keeps_its_method() -> None:
    import copy
    import pickle

    first, second = MathToolset(), MathToolset()
    # Renamed to the name of another tool of the class: moved, copied or pickled, it was
    # found by that name, so it called the other method.
    renamed = attrs.evolve(first.to_tools()[0], name="math_nothing")
    for again in (
        attrs.evolve(renamed, toolset=second),
        copy.copy(renamed),
        pickle.loads(pickle.dumps(renamed)),  # noqa: S301 - our own object
    ):
        assert (again.name, again.method_name) == ("math_nothing", "divide")
        assert again.dynamic_call({"a": 1, "b": 2}) == 0.5


def test_a_method_replaced_on_the_instance_is_not_a_move() -> None:
    @attrs.define
    class Helper:
        seen: list[str] = attrs.Factory(list)

        def divide(self, *, a: int, b: int) -> float:
            self.seen.append("helper")
            return a * b

    math, helper = MathToolset(), Helper()
    math.__dict__["divide"] = helper.divide  # the instance's own attribute
    # Its __self__ is not the toolset: taken for a move, it was rebuilt for ever.
    (divide,) = [p for p in math.to_tools() if p.method_name == "divide"]
    assert divide.dynamic_call({"a": 2, "b": 3}) == 6
    assert helper.seen == ["helper"]


def test_a_move_is_seen_whatever_the_instance_binds() -> None:
    import functools

    @attrs.define
    class Cached(MathToolset):
        def __attrs_post_init__(self) -> None:
            self.__dict__["divide"] = functools.lru_cache(self.divide)

    first, second = Cached(), Cached()
    (divide,) = [p for p in first.to_tools() if p.method_name == "divide"]
    moved = attrs.evolve(divide, toolset=second)
    assert moved.dynamic_call({"a": 1, "b": 2}) == 0.5
    assert (first.calls, second.calls) == ([], ["divide"])


def test_a_result_s_repr_shows_a_large_value_cut_short() -> None:
    from typed_toolsets import StrictArguments

    large = ToolResult.success("x" * 10_000_000)
    assert len(repr(large)) < 400  # a log line, not ten megabytes
    assert repr(ToolResult.success([1, "a"])) == "ToolResult(ok=True, value=[1, 'a'], error=None)"
    assert len(repr(StrictArguments({"text": "y" * 100_000}))) < 400
    assert large == ToolResult.success("x" * 10_000_000)  # the value itself is whole
    # A dict keeps its own order (reprlib alone sorts the keys).
    ordered = ToolResult.success({"zeta": 1, "alpha": [2, 1]})
    assert repr(ordered) == "ToolResult(ok=True, value={'zeta': 1, 'alpha': [2, 1]}, error=None)"
