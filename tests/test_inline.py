"""``tool(..., inline=True)``: a sync tool the async call forms run on the event loop's thread."""

from __future__ import annotations

import asyncio
import threading

import attrs
import pytest

from typed_toolsets import Limits, Toolset, ToolsetDefinitionError, tool
from typed_toolsets.definition.declarations import ToolSpec


def _thread() -> int:
    return threading.get_ident()


class Clock(Toolset):
    toolset_name = "clock"
    exports = (tool("declared", inline=True),)

    @tool(inline=True)
    def here(self, *, x: int) -> int:
        return _thread()

    @tool
    def there(self, *, x: int) -> int:
        return _thread()

    def declared(self) -> int:
        return _thread()

    @tool(inline=True)
    def broken(self) -> int:
        raise ValueError("no")


def test_inline_is_declared_on_the_proxy_and_spec() -> None:
    tools = {proxy.method_name: proxy.inline for proxy in Clock.to_tools()}
    assert tools == {"declared": True, "here": True, "there": False, "broken": True}
    assert tool("f", inline=True) == ToolSpec("f", inline=True)
    assert tool("f").inline is False


def test_an_inline_sync_tool_runs_on_the_loops_thread_and_a_default_one_does_not() -> None:
    tools = {proxy.method_name: proxy for proxy in Clock.to_tools()}

    async def main() -> dict[str, tuple[bool, bool, bool, bool]]:
        loop_thread = _thread()
        seen: dict[str, tuple[bool, bool, bool, bool]] = {}
        for name in ("here", "there"):
            proxy = tools[name]
            result = await proxy.ainvoke({"x": 1})
            seen[name] = (
                result.value == loop_thread,
                await proxy.adynamic_call('{"x": 1}') == loop_thread,
                await proxy.acall(x=1) == loop_thread,
                proxy.dynamic_call({"x": 1}) == loop_thread,  # the sync form: this thread
            )
        return seen

    seen = asyncio.run(main())
    assert seen["here"] == (True, True, True, True)
    assert seen["there"] == (False, False, False, True)


def test_an_inline_tool_keeps_the_model_facing_contract() -> None:
    tools = {proxy.method_name: proxy for proxy in Clock.to_tools()}

    async def main() -> tuple[object, object, object]:
        return (
            await tools["broken"].adynamic_call(None),
            await tools["here"].adynamic_call({"x": "1"}),
            await tools["declared"].adynamic_call(None),
        )

    broken, refused, declared = asyncio.run(main())
    assert broken == "Error: Tool 'clock_broken' failed: ValueError: no"
    assert (
        refused == "Error: Invalid arguments for tool 'clock_here': x: '1' is not of type "
        "'integer'; 1 is wanted, without quotes"
    )
    assert isinstance(declared, int)


def _define(body: dict[str, object], base: type[Toolset] = Toolset) -> type[Toolset]:
    return type("Sample", (base,), {"__qualname__": "Sample", **body})


def _problems(body: dict[str, object], base: type[Toolset] = Toolset) -> list[str]:
    with pytest.raises(ToolsetDefinitionError) as info:
        _define(body, base)
    return [str(found) for found in info.value.problems]


def test_an_async_inline_tool_is_a_definition_problem() -> None:
    async def fetch(self: object) -> int:
        return 1

    assert _problems({"fetch": tool(inline=True)(fetch)}) == [
        (
            "Sample.fetch: 'fetch' is an async def, which always runs on the event loop; "
            "inline=True is only for sync methods, remove it [toolset-inline]"
        )
    ]


def _quick(self: object) -> int:
    return 1


def test_an_inline_tool_with_a_timeout_is_a_definition_problem() -> None:
    expected = (
        "Sample.quick: inline=True runs 'quick' on the event loop, where it cannot be stopped "
        "at a deadline, but its limits set timeout={}; remove inline=True (it then runs in a "
        "worker thread), or give the tool limits without one "
        "(tool(..., limits=attrs.evolve(Sample.limits, timeout=None))) [toolset-inline]"
    )
    # The toolset's timeout applies to the tool...
    from_class = {"limits": Limits(timeout=5), "exports": (tool("quick", inline=True),)}
    assert _problems({**from_class, "quick": _quick}) == [expected.format(5)]
    # ...its own replaces it, either way.
    own = {"exports": (tool("quick", inline=True, limits=Limits(timeout=2.5)),)}
    assert _problems({**own, "quick": _quick}) == [expected.format(2.5)]
    freed = tool("quick", inline=True, limits=attrs.evolve(Limits(timeout=5), timeout=None))
    cls = _define({"limits": Limits(timeout=5), "exports": (freed,), "quick": _quick})
    assert [proxy.inline for proxy in cls.to_tools()] == [True]


def test_a_subclass_that_adds_a_timeout_is_refused() -> None:
    base = _define({"exports": (tool("quick", inline=True),), "quick": _quick})
    assert [p.inline for p in base.to_tools()] == [True]
    problems = _problems({"limits": Limits(timeout=1)}, base)
    assert len(problems) == 1
    assert "but its limits set timeout=1;" in problems[0]


def test_inline_must_be_a_bool_and_uses_the_options_form() -> None:
    with pytest.raises(ToolsetDefinitionError) as info:
        tool("quick", inline=1)  # type: ignore[arg-type]  # the wrong type is the point
    assert str(info.value.problems[0]) == (
        "tool(): `inline` must be True or False (got 1) [toolset-signature]"
    )
    with pytest.raises(ToolsetDefinitionError, match="pass options as @tool"):
        tool(_quick, inline=True)  # type: ignore[call-overload]  # the misuse is the point


def test_inline_false_and_async_or_timeout_are_fine() -> None:
    async def fetch(self: object) -> int:
        return 1

    cls = _define(
        {
            "limits": Limits(timeout=5),
            "exports": (tool("quick", inline=False), tool("fetch", inline=False)),
            "quick": _quick,
            "fetch": fetch,
        }
    )
    assert [p.inline for p in cls.to_tools()] == [False, False]


def test_the_readme_example_runs_inline() -> None:
    import re
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "inline=True" in b]
    namespace: dict[str, object] = {"Toolset": Toolset, "tool": tool}
    exec(block, namespace)  # noqa: S102 - our README
    units = namespace["Units"]
    assert isinstance(units, type)
    assert issubclass(units, Toolset)
    (proxy,) = units.to_tools()
    assert proxy.inline
    assert asyncio.run(proxy.adynamic_call({"fahrenheit": 212})) == 100.0
