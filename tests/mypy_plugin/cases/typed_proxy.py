# Toolset.proxy(instance.method): the method must be one the class exports, as at run time.
import functools

from typed_toolsets import ToolResult, Toolset, tool

from remote_base import RemoteMid
from unchecked import Helper


class Catalog(Toolset):
    exports = (tool("search"),)

    def search(self, *, query: str) -> list[str]:
        return [query]

    find = search

    @tool
    async def fetch(self, *, item: str) -> int:
        return len(item)

    def helper(self) -> None: ...


class Child(Catalog):
    def extra(self) -> None: ...


def hold(catalog: Catalog, child: Child, remote: RemoteMid, dynamic: Helper) -> None:
    search = Toolset.proxy(catalog.search)
    found: list[str] = search.call(query="lamp")
    result: ToolResult[list[str]] = search.invoke({"query": "lamp"})
    fetched: ToolResult[int] = Toolset.proxy(catalog.fetch).invoke({"item": "x"})
    Toolset.proxy(catalog.find)  # an alias of an exported method is that method
    Toolset.proxy(catalog.helper)  # E: Catalog.helper: 'helper' is not exported as a tool; declare it with tool('helper') in `exports` or with @tool, or hold a method that is exported  [toolset-unknown-method]
    Child.proxy(child.search)
    Toolset.proxy(child.extra)  # E: Child.extra: 'extra' is not exported as a tool; declare it with tool('extra') in `exports` or with @tool, or hold a method that is exported  [toolset-unknown-method]
    Toolset.proxy(remote.assign)
    Toolset.proxy(remote.search)  # E: RemoteMid.search: 'search' is not exported as a tool; declare it with tool('search') in `exports` or with @tool, or hold a method that is exported  [toolset-unknown-method]
    # Helper's exports hold a call mypy cannot read: any of its methods may be exported.
    Toolset.proxy(dynamic.lookup)
    del found, result, fetched


class Tools(Toolset):
    @tool
    def search(self, *, query: str) -> list[str]:
        return [query]

    find = search

    @staticmethod
    def helper() -> None: ...


class MoreTools(Tools):
    @functools.lru_cache  # noqa: B019 - the class attribute is the cache's wrapper
    def cached(self) -> int:
        return 1


def from_the_class(kind: type[Tools]) -> None:
    Toolset.proxy(Tools.search)  # E: Tools.search: Toolset.proxy() takes a method of a toolset instance, not the class's function: make an instance and pass its method, as in Toolset.proxy(Tools().search)  [toolset-not-a-method]
    Tools.proxy(Tools.find)  # E: Tools.search: Toolset.proxy() takes a method of a toolset instance, not the class's function: make an instance and pass its method, as in Toolset.proxy(Tools().search)  [toolset-not-a-method]
    Toolset.proxy(kind.search)  # E: Tools.search: Toolset.proxy() takes a method of a toolset instance, not the class's function: make an instance and pass its method, as in Toolset.proxy(Tools().search)  [toolset-not-a-method]
    Toolset.proxy(Tools().search)
    Toolset.proxy(MoreTools.search)  # E: Tools.search: Toolset.proxy() takes a method of a toolset instance, not the class's function: make an instance and pass its method, as in Toolset.proxy(Tools().search)  [toolset-not-a-method]
    Toolset.proxy(MoreTools.cached)  # a wrapper: the run time judges it
    Toolset.proxy(Tools.helper)  # a staticmethod: no instance to make
