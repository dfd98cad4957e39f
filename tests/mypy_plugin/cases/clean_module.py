# clean: cross-module inheritance, attrs subclasses, decorators, forward references.
from __future__ import annotations

from typing import ClassVar, Protocol, overload

import attrs
from typing_extensions import assert_type

from typed_toolsets import Limits, Toolset, ToolSpec, tool

from remote_base import RemoteBase, RemoteMid
from remote_decorators import logged, loose, timed


class Helpers:
    """A mixin that is not a Toolset: its methods can still be exported."""

    def shout(self, *, text: str) -> str:
        return text.upper()


@attrs.define
class Catalog(RemoteMid):
    base_url: str = "https://example.invalid"
    exports = RemoteBase.exports + (tool("search", description="Search the catalog"),)

    @tool(tool_name="catalog_lookup")
    def lookup(self, *, item: Item, limit: int = 10) -> list[Item]:
        return [item] * limit

    @tool
    @logged
    def logged_call(self, *, value: int) -> int:
        return value

    @loose
    @tool
    def loose_call(self, *, value: int) -> int:
        return value

    @tool
    @timed
    async def later(self, *, seconds: float) -> None:
        pass

    @overload
    def convert(self, *, value: int) -> int: ...
    @overload
    def convert(self, *, value: str) -> str: ...
    @tool
    def convert(self, *, value: int | str) -> int | str:
        return value

    @tool
    def _hidden_name_is_fine(self, *, flag: bool = False) -> bool:
        return flag


@attrs.frozen
class Narrower(Catalog):
    # Fewer exports than the parent: mypy would infer a different tuple length without the plugin.
    exports = (tool("assign"),)
    timeout: float = 1.0


class Explicit(Toolset):
    toolset_name = "explicit"
    limits = Limits(timeout=5.0)
    exports: ClassVar[tuple[ToolSpec, ...]] = (tool("go"), tool("stop"), tool("pause"))

    def go(self) -> None: ...
    def stop(self) -> None: ...
    def pause(self) -> None: ...


class InheritsName(Explicit):
    exports = (tool("go"),)


class WithMixin(Helpers, Toolset):
    exports = (tool("shout"),)


class Both(Catalog, WithMixin):
    pass


@attrs.define
class Item:
    """Defined after the toolset that uses it."""

    name: str
    tags: list[str] = attrs.Factory(list)


def factory() -> type[Toolset]:
    class Local(Toolset):
        @tool
        def run(self, *, item: Item) -> str:
            return item.name

    return Local


Catalog.to_tools()
Narrower.to_tools()
# The plugin declares `exports` as the base does (python/mypy#14760).
assert_type(Narrower.exports, tuple[ToolSpec, ...])


class HasNote(Protocol):
    """A protocol whose attribute defaults to None: the plugin's records add it no member."""

    note: str | None = None


class Noted:
    note: str | None = None
    other: int | None = None


def read_note(item: HasNote) -> str | None:
    return item.note


read_note(Noted())
