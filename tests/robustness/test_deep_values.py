"""Deep values at the edges of the stack: the caller's depth and a tool's own deep value.

- arguments within ``MAX_NESTING`` are judged the same from a caller hundreds of frames deep as
  from a shallow one (they were refused there: ``"limit"`` naming ``Limits.max_depth``, or an
  ``"arguments"`` refusal quoting ``RecursionError``);
- a value a tool returns nested too deeply for the MCP result's structured content is the
  tool's failure, said in words, never a `RecursionError` raised out of ``mcp_call`` (nor a
  valid value reported as one its annotation does not admit).
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, TypeVar

import attrs
import pytest
from typing_extensions import NotRequired, TypedDict

from typed_toolsets import Limits, Toolset, tool
from typed_toolsets.call.jsonin import MAX_NESTING
from typed_toolsets.export import amcp_call, mcp_call

_T = TypeVar("_T")


class Link(TypedDict):
    next: NotRequired[Link | None]


@attrs.define
class Node:
    children: list[Node] = attrs.Factory(list)


class Chains(Toolset):
    toolset_name = "chains"
    limits = Limits(max_depth=5000)

    @tool
    def link(self, *, head: Link) -> int:
        return 1

    @tool
    def node(self, *, root: Node) -> int:
        return 1

    @tool
    def make_links(self, *, n: int) -> Link:
        value: Link = {}
        for _ in range(n):
            value = {"next": value}
        return value

    @tool
    def make_nodes(self, *, n: int) -> Node:
        value = Node()
        for _ in range(n):
            value = Node([value])
        return value


@pytest.fixture(autouse=True)
def default_recursion_limit() -> Iterator[None]:
    """Python's default limit (mypy's API, run in process by other tests, raises it)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def _stack_depth() -> int:
    frame: FrameType | None = sys._getframe()
    depth = 0
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


def _near_the_limit(call: Callable[[], _T], headroom: int) -> _T:
    """*call()* from a stack *headroom* frames short of the recursion limit."""

    def down(frames: int) -> _T:
        return call() if frames <= 0 else down(frames - 1)

    return down(sys.getrecursionlimit() - _stack_depth() - headroom)


def links(levels: int) -> dict[str, Any]:
    """A ``link`` call *levels* JSON levels deep (the arguments object is level 1)."""
    head: dict[str, Any] = {}
    for _ in range(levels - 2):
        head = {"next": head}
    return {"head": head}


def nodes(levels: int) -> dict[str, Any]:
    root: dict[str, Any] = {"children": []}
    for _ in range((levels - 2) // 2 - 1):
        root = {"children": [root]}
    return {"root": root}


@pytest.mark.parametrize(("name", "arguments"), [("link", links), ("node", nodes)])
def test_the_verdict_does_not_depend_on_the_callers_stack(
    name: str, arguments: Callable[[int], dict[str, Any]]
) -> None:
    # From 200 frames short of the default limit, a valid call 127 levels deep was refused:
    # "nested too deeply to validate (Limits.max_depth=5000)" for the chain, and "n.children[0]:
    # {...} is not accepted: RecursionError: maximum recursion depth exceeded" for the tree.
    proxy = {t.method_name: t for t in Chains.to_tools()}[name]
    value = arguments(MAX_NESTING - 1)
    text = json.dumps(value)
    for sent in (value, text):
        assert proxy.invoke(sent).value == 1
        result = _near_the_limit(lambda: proxy.invoke(sent), headroom=200)  # noqa: B023
        assert result.error is None
        assert result.value == 1


@pytest.mark.parametrize(("name", "levels"), [("make_links", 1000), ("make_nodes", 1000)])
def test_a_value_too_deep_for_structured_content_is_the_tools_failure(
    name: str, levels: int
) -> None:
    # Checking a chain 600 links deep against the outputSchema raised RecursionError out of
    # mcp_call and amcp_call; a tree 300 nodes deep was "a value its return annotation does not
    # admit: ...: a Node has no JSON form: maximum recursion depth exceeded". How deep is too
    # deep is the interpreter's: 3.12 and later spend fewer frames a level (a tree 300 deep is
    # written there), so the depths here are too deep for every supported Python. A value the
    # interpreter can write is refused past what MCP clients read (MCP_RESULT_DEPTH), with its
    # depth; one it cannot, as too deep to write.
    tools = Chains.to_tools()
    tool_name = f"chains_{name}"
    said = re.compile(
        f"Tool '{tool_name}' returned a value nested (too deeply to write as JSON|"
        rf"{levels + 1} levels deep, deeper than MCP clients read \(128 levels\))"
    )
    for answer in (
        mcp_call(tools, tool_name, {"n": levels}),
        asyncio.run(amcp_call(tools, tool_name, {"n": levels})),
    ):
        assert answer["isError"] is True
        assert "structuredContent" not in answer
        text = answer["content"][0]["text"]
        assert said.search(text), text
        assert "Recursion" not in text
    assert mcp_call(tools, tool_name, {"n": 50})["isError"] is False
