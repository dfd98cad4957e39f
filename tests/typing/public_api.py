# pyright: strict
"""The public API's types, pinned with ``assert_type``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from typing_extensions import assert_type

from typed_toolsets import (
    ArgumentProblem,
    Arguments,
    ErrorKind,
    Limits,
    Problem,
    ToolError,
    ToolProxy,
    ToolResult,
    Toolset,
    ToolsetDefinitionError,
    ToolSpec,
    tool,
)

from .bases import ConfiguredToolset, TaskToolset


class StatsToolset(Toolset):
    toolset_name = "stats"
    exports = (tool("word_count", description="Count words"),)

    def word_count(self, *, text: str) -> int:
        return len(text.split())

    @tool
    def line_count(self, *, text: str) -> int:
        return len(text.splitlines())

    @tool(tool_name="stats_chars", limits=Limits(timeout=1.0))
    def char_count(self, *, text: str, strip: bool = False) -> int:
        return len(text.strip() if strip else text)

    @tool(description="Async tools keep their coroutine type")
    async def later(self, *, text: str) -> str:
        return text


def class_access() -> None:
    assert_type(StatsToolset.to_tools(), list[ToolProxy])
    assert_type(TaskToolset.to_tools(), list[ToolProxy])
    assert_type(ConfiguredToolset.to_tools(), list[ToolProxy])
    assert_type(StatsToolset.to_tools, Callable[[], list[ToolProxy]])


def instance_access(toolset: ConfiguredToolset) -> None:
    assert_type(toolset.to_tools(), list[ToolProxy])
    assert_type(ConfiguredToolset(retries=5).to_tools(), list[ToolProxy])
    assert_type(toolset.base_url, str)


class TextCounter(Protocol):
    def __call__(self, *, text: str) -> int: ...


async def decorators_keep_method_types(stats: StatsToolset) -> None:
    assert_type(stats.word_count(text="a b"), int)
    assert_type(stats.line_count(text="a"), int)
    assert_type(stats.char_count(text="a", strip=True), int)
    # The decorated methods keep their keyword-only signatures.
    counter: TextCounter = stats.line_count
    counter = stats.char_count
    assert_type(counter(text="a"), int)
    assert_type(await stats.later(text="x"), str)


def declarations() -> None:
    spec = tool("word_count", tool_name="count", description="Count", limits=Limits())
    assert_type(spec, ToolSpec)
    assert_type(spec.method_name, str)
    assert_type(spec.tool_name, str | None)
    assert_type(StatsToolset.exports, tuple[ToolSpec, ...])
    assert_type(StatsToolset.toolset_name, str)
    assert_type(StatsToolset.limits, Limits)


def proxies(proxy: ToolProxy) -> None:
    assert_type(proxy.name, str)
    assert_type(proxy.description, str)
    assert_type(proxy.method_name, str)
    assert_type(proxy.toolset, Toolset)
    assert_type(proxy.parameters, dict[str, Any])
    assert_type(proxy.schema, dict[str, Any])
    assert_type(proxy.output_schema, dict[str, Any] | None)
    # A bare ToolProxy (what to_tools() lists) is dynamic: any arguments, Any back.
    assert_type(proxy.invoke({"text": "a"}), ToolResult[Any])
    assert_type(proxy.invoke('{"text": "a"}'), ToolResult[Any])
    assert_type(proxy.call(text="a"), Any)
    assert_type(proxy.dynamic_call({"text": "a"}), Any)
    # ...and what it returns fits a bare ToolResult, whose value is an object.
    kept: ToolResult = proxy.invoke(None)
    assert_type(kept.value, object | None)


def results(result: ToolResult) -> None:
    assert_type(result.ok, bool)
    assert_type(result.value, object | None)
    assert_type(result.error, ToolError | None)
    if result.error is not None:
        assert_type(result.error.tool, str)
        assert_type(result.error.kind, ErrorKind)
        assert_type(result.error.message, str)
        assert_type(result.error.details, tuple[ArgumentProblem, ...])
    kinds: list[ErrorKind] = ["arguments", "execution", "timeout", "limit"]
    assert_type(kinds, list[ErrorKind])


def forward(proxy: ToolProxy, arguments: Arguments) -> ToolResult:
    """A wrapper passes the model's arguments on as they came: the alias types them."""
    if isinstance(arguments, bytes):
        arguments = arguments.decode()
    return proxy.invoke(arguments)


def errors(exc: ToolsetDefinitionError) -> None:
    assert_type(exc.problems, tuple[Problem, ...])
    for problem in exc.problems:
        assert_type(problem.code, str)
        assert_type(problem.toolset, str | None)
        assert_type(problem.method, str | None)
        assert_type(problem.parameter, str | None)
        assert_type(str(problem), str)
    assert isinstance(exc, TypeError)
