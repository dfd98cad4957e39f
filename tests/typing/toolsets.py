# pyright: strict
"""A realistic module that both checkers (mypy with the plugin) must accept without a word."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ClassVar, ParamSpec, TypeVar

import attrs

from typed_toolsets import Limits, ToolSpec, tool

from .bases import ConfiguredToolset, TaskToolset

P = ParamSpec("P")
R = TypeVar("R")


def audited(func: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        return func(*args, **kwargs)

    return wrapper


@attrs.frozen
class Filter:
    field: str
    value: str | None = None


@attrs.define
class CatalogToolset(ConfiguredToolset):
    """Inherits `assign` and `close` from another module and adds its own exports."""

    exports = (tool("search", tool_name="catalog_search"), tool("lookup"))
    region: str = "eu"

    def lookup(self, *, item: Item, filters: list[Filter] | None = None) -> list[str]:
        return [item.name, *(f.field for f in filters or [])]

    @tool(description="Audited export")
    @audited
    def audited_export(self, *, reason: str) -> str:
        return reason


class ReadOnlyToolset(TaskToolset):
    toolset_name = "readonly"
    limits = Limits(timeout=2.0)
    exports: ClassVar[tuple[ToolSpec, ...]] = (tool("search"),)


class ConvertToolset(TaskToolset):
    """Inline tools: sync, and without a timeout (the toolset's limits set none)."""

    toolset_name = "convert"
    exports = (tool("to_celsius", inline=True, limits=Limits(timeout=None)),)

    def to_celsius(self, *, fahrenheit: float) -> float:
        return (fahrenheit - 32) * 5 / 9

    @tool(inline=True)
    def to_fahrenheit(self, *, celsius: float) -> float:
        return celsius * 9 / 5 + 32


@attrs.frozen
class Item:
    """Used above before its definition."""

    name: str
    tags: tuple[str, ...] = ()


def build() -> int:
    return (
        len(CatalogToolset.to_tools())
        + len(ReadOnlyToolset.to_tools())
        + sum(proxy.inline for proxy in ConvertToolset.to_tools())
    )
