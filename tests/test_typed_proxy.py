"""`Toolset.proxy`: one exported method held as a typed `ToolProxy` (its typing is pinned in
``tests/typing/typed_access.py``)."""

from __future__ import annotations

import asyncio

import attrs
import pytest

from typed_toolsets import ToolProxy, Toolset, ToolsetDefinitionError, tool


@attrs.define
class Catalog(Toolset):
    prefix: str = "item"
    exports = (tool("search"), tool("find"))

    def search(self, *, query: str, limit: int = 2) -> list[str]:
        return [f"{self.prefix}:{query}"] * limit

    find = search

    @tool(tool_name="catalog_fetch")
    async def fetch(self, *, item: str) -> int:
        return len(item)

    @tool
    def remove(self, item: str) -> str:
        return item

    def helper(self) -> None: ...


def test_the_proxy_is_the_export_bound_to_the_instance() -> None:
    catalog = Catalog(prefix="shop")
    search = Toolset.proxy(catalog.search)
    assert isinstance(search, ToolProxy)
    listed = {t.name: t for t in catalog.to_tools()}
    assert search.name == "catalog_search"
    assert search.schema == listed["catalog_search"].schema
    assert search.toolset is catalog
    assert search.call(query="lamp") == ["shop:lamp", "shop:lamp"]
    assert search(query="lamp", limit=1) == ["shop:lamp"]
    result = search.invoke({"query": "lamp", "limit": 1})
    assert (result.ok, result.value) == (True, ["shop:lamp"])
    failed = search.invoke({"query": 3})
    assert not failed.ok
    assert failed.error is not None
    assert failed.error.kind == "arguments"
    assert search.dynamic_call('{"query": "x", "limit": 0}') == []


def test_a_direct_call_may_pass_positional_or_keyword_parameters_positionally() -> None:
    remove = Toolset.proxy(Catalog().remove)
    assert remove.call("lamp") == "lamp"
    assert remove.call(item="lamp") == "lamp"
    assert remove.invoke({"item": "lamp"}).value == "lamp"


def test_async_methods() -> None:
    fetch = Toolset.proxy(Catalog().fetch)
    assert fetch.name == "catalog_fetch"
    assert fetch.invoke({"item": "abc"}).value == 3  # run to completion: no loop is running

    async def main() -> tuple[int, int, int]:
        result = await fetch.ainvoke({"item": "abcd"})
        assert result.value is not None
        search = Toolset.proxy(Catalog().search)
        found = await search.acall(query="x", limit=3)
        return await fetch.acall(item="ab"), result.value, len(found)

    assert asyncio.run(main()) == (2, 4, 3)


def test_a_method_exported_under_two_names_is_held_by_its_own_name() -> None:
    # `find = search`: the bound methods are the same function; its own name decides.
    assert Toolset.proxy(Catalog().find).name == "catalog_search"


def test_a_method_that_is_not_exported_is_a_definition_error() -> None:
    with pytest.raises(ToolsetDefinitionError) as caught:
        Toolset.proxy(Catalog().helper)
    (problem,) = caught.value.problems
    assert (problem.kind, problem.code, problem.toolset, problem.method) == (
        "not-exported",
        "toolset-unknown-method",
        "Catalog",
        "helper",
    )
    assert str(problem) == (
        "Catalog.helper: 'helper' is not exported as a tool; declare it with tool('helper') in "
        "`exports` or with @tool, or hold a method that is exported [toolset-unknown-method]"
    )


class Vault(Toolset):
    @tool
    def __open(self, *, code: str) -> str:
        return code

    def __peek(self) -> None: ...

    def held(self) -> tuple[ToolProxy[..., object], ...]:
        return (Toolset.proxy(self.__open),)

    def peeked(self) -> None:
        Toolset.proxy(self.__peek)


def test_a_private_method_is_named_as_its_class_stores_it() -> None:
    # `def __peek` in `Vault` is the attribute `_Vault__peek`: the advice named tool('__peek'),
    # which names no method.
    (opened,) = Vault().held()
    assert opened.name == "vault__Vault__open"
    with pytest.raises(ToolsetDefinitionError) as caught:
        Vault().peeked()
    assert str(caught.value.problems[0]) == (
        "Vault._Vault__peek: '_Vault__peek' is not exported as a tool; declare it with "
        "tool('_Vault__peek') in `exports` or with @tool, or hold a method that is exported "
        "[toolset-unknown-method]"
    )


class Shelf(Catalog):
    @staticmethod
    def label() -> str:
        return "shelf"

    shortcut = lambda self: None  # noqa: E731


class Plain:
    def search(self) -> None: ...


@pytest.mark.parametrize(
    "method", [len, lambda: None, "search", Shelf.label, Shelf.shortcut, Plain.search]
)
def test_only_a_method_of_a_toolset_instance(method: object) -> None:
    with pytest.raises(TypeError, match=r"takes a method of a toolset instance") as caught:
        Toolset.proxy(method)  # type: ignore[arg-type]  # what the check refuses
    assert not isinstance(caught.value, ToolsetDefinitionError)  # no instance would do


@pytest.mark.parametrize("method", [Catalog.search, Shelf.search, Catalog.fetch])
def test_a_toolset_s_function_read_from_its_class_says_to_make_an_instance(
    method: object,
) -> None:
    with pytest.raises(ToolsetDefinitionError) as caught:
        Toolset.proxy(method)  # type: ignore[arg-type]  # what the check refuses
    (problem,) = caught.value.problems
    name = method.__name__  # type: ignore[attr-defined]
    assert (problem.kind, problem.toolset, problem.method) == ("proxy-of-class", "Catalog", name)
    assert f"as in Toolset.proxy(Catalog().{name})" in str(problem)


def test_the_function_of_a_class_defined_in_a_function_says_to_make_an_instance() -> None:
    # Not reachable from its module: found among the toolset classes alive, by its name.
    def make() -> type[Toolset]:
        class Local(Toolset):
            @tool
            def search(self, *, query: str) -> str:
                return query

        return Local

    local = make()
    with pytest.raises(ToolsetDefinitionError) as caught:
        Toolset.proxy(local.search)  # type: ignore[attr-defined]  # what the check refuses
    (problem,) = caught.value.problems
    assert (problem.kind, problem.toolset, problem.method) == ("proxy-of-class", "Local", "search")
    assert "as in Toolset.proxy(Local().search)" in str(problem)


def test_a_function_of_a_class_its_module_no_longer_names_says_to_make_an_instance() -> None:
    namespace: dict[str, object] = {}
    exec(  # noqa: S102 - a module-level class, its name then bound to another class
        "from typed_toolsets import Toolset, tool\n"
        "class Again(Toolset):\n"
        "    @tool\n"
        "    def go(self) -> None: ...\n"
        "first = Again\n"
        "class Again(Toolset):\n"
        "    @tool\n"
        "    def go(self) -> None: ...\n",
        namespace,
    )
    first = namespace["first"]
    assert isinstance(first, type)
    with pytest.raises(ToolsetDefinitionError) as caught:
        Toolset.proxy(vars(first)["go"])
    assert caught.value.problems[0].kind == "proxy-of-class"


def test_problems_found_when_the_tools_are_built_are_raised() -> None:
    namespace: dict[str, object] = {}
    exec(  # noqa: S102 - a class whose annotation names something never defined
        "from typed_toolsets import Toolset, tool\n"
        "class Later(Toolset):\n"
        "    @tool\n"
        "    def go(self, *, item: 'Missing') -> None: ...\n",
        namespace,
    )
    later = namespace["Later"]
    assert isinstance(later, type)
    with pytest.raises(ToolsetDefinitionError, match="names 'Missing'"):
        Toolset.proxy(later().go)


def test_proxy_is_part_of_the_toolset_api() -> None:
    with pytest.raises(ToolsetDefinitionError, match="'proxy' is part of the Toolset API"):

        class Exporter(Toolset):
            exports = (tool("proxy"),)
