# pyright: strict, reportAny=true, reportExplicitAny=true
# mypy: disallow-any-expr
"""Typed access to one tool: ``Toolset.proxy(instance.method)`` is a ``ToolProxy[P, R]``.

Its `call` has the method's own signature and its `invoke` returns ``ToolResult[R]`` (the
awaited value's type for an ``async def``), so a strict codebase holds a tool with no ``Any``:
mypy with ``disallow_any_expr`` and basedpyright with ``reportAny`` accept this file. (The
toolset is defined in `catalog`: ``@tool``'s own overloads mention ``Callable[..., Any]``.)
"""

from __future__ import annotations

from typing_extensions import assert_type

from typed_toolsets import ToolProxy, ToolResult, Toolset

from .catalog import CatalogToolset


def typed(catalog: CatalogToolset) -> list[str]:
    search = Toolset.proxy(catalog.search)
    assert_type(search.call(query="lamp"), list[str])
    assert_type(search(query="lamp", limit=3), list[str])
    result = search.invoke({"query": "lamp"})
    assert_type(result, ToolResult[list[str]])
    assert_type(result.value, list[str] | None)
    # The dynamic_call form of a result: its value or the error's text (was `object`).
    assert_type(result.dynamic(), list[str] | str)
    assert_type(search.name, str)
    remove = Toolset.proxy(catalog.remove)
    assert_type(remove.call("lamp"), None)
    assert_type(remove.invoke('{"item": "lamp"}'), ToolResult[None])
    # A typed proxy is still a ToolProxy (what to_tools() lists).
    held: list[ToolProxy] = [search, remove]
    del held
    if result.ok and result.value is not None:
        return result.value
    return []


async def typed_async(catalog: CatalogToolset) -> int:
    fetch = Toolset.proxy(catalog.fetch)
    assert_type(await fetch.acall(item="x"), int)
    assert_type(fetch.invoke({"item": "x"}), ToolResult[int])
    assert_type(await fetch.ainvoke({"item": "x"}), ToolResult[int])
    search = Toolset.proxy(catalog.search)
    # A sync method from async code: same value types.
    assert_type(await search.acall(query="x"), list[str])
    assert_type(await search.ainvoke({"query": "x"}), ToolResult[list[str]])
    count = Toolset.proxy(catalog.count)
    assert_type(count.invoke({"item": "x"}), ToolResult[int])
    assert_type(await count.ainvoke({"item": "x"}), ToolResult[int])
    assert_type(await count.acall(item="x"), int)
    result = await fetch.ainvoke({"item": "x"})
    return result.value if result.value is not None else 0
