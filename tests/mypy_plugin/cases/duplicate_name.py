from typing import Final

from typed_toolsets import Toolset, tool

from remote_base import RemoteBase

FIND: Final = "find"


class Names(Toolset):
    exports = (
        tool("search", tool_name="find"),
        tool("lookup", tool_name=FIND),  # E: Names.lookup: the tool name 'find' is already exported by the method 'search'  [toolset-duplicate-name]
        tool("other", tool_name="names_search"),
    )

    def search(self, *, query: str) -> str:
        return query

    def lookup(self, *, query: str) -> str:
        return query

    @tool  # E: Names.other: the method 'other' is declared twice in this class  [toolset-duplicate-name]
    def other(self, *, query: str) -> str:
        return query


class Twice(Toolset):
    exports = (tool("go"), tool("go", tool_name="go_again"))  # E: Twice.go: the method 'go' is declared twice in this class  [toolset-duplicate-name]

    def go(self) -> None:
        pass


class AgainstInherited(RemoteBase):
    exports = (tool("search", tool_name="remote_assign"),)  # E: AgainstInherited.search: the tool name 'remote_assign' is already exported by the method 'assign'  [toolset-duplicate-name]


class Override(RemoteBase):
    # Declaring an inherited method again replaces its declaration: not a clash.
    exports = (tool("assign", description="Assign a task"),)


class ToolsetNameClash(RemoteBase):
    toolset_name = "other"
    exports = (tool("search", tool_name="other_assign"),)  # E: ToolsetNameClash.search: the tool name 'other_assign' is already exported by the method 'assign'  [toolset-duplicate-name]


class Prefixed(Toolset):
    exports = (tool("search"), tool("lookup", tool_name="prefixed_search"))  # E: Prefixed.lookup: the tool name 'prefixed_search' is already exported by the method 'search'  [toolset-duplicate-name]

    def search(self, *, query: str) -> str:
        return query

    def lookup(self, *, query: str) -> str:
        return query


class Left(Toolset):
    @tool(tool_name="shared")
    def left(self) -> None: ...


class Right(Toolset):
    @tool(tool_name="shared")
    def right(self) -> None: ...


class BothParents(Left, Right):  # E: BothParents.left: the tool name 'shared' is already exported by the method 'right'  [toolset-duplicate-name]  # N: BothParents inherits the declaration of 'left' from Left (line 60 of duplicate_name)
    pass


class Stacked(Toolset):
    @tool(tool_name="stacked_outer")
    @tool(tool_name="stacked_inner")  # E: Stacked.go: the method 'go' is declared twice in this class  [toolset-duplicate-name]
    def go(self) -> None:
        pass


class DeclaresTwice(Toolset):
    exports = (tool("one"), tool("one"))  # E: DeclaresTwice.one: the method 'one' is declared twice in this class  [toolset-duplicate-name]

    def one(self) -> None: ...


class RepeatsTwice(DeclaresTwice):
    # The base's own repeat, which the run time reports on the base (it never creates this
    # class): not reported again here, as no other problem of a repeated declaration is.
    exports = DeclaresTwice.exports + (tool("two"),)

    def two(self) -> None: ...


class Once(Toolset):
    exports = (tool("one"),)

    def one(self) -> None: ...


class OwnThenRepeated(Once):
    exports = (tool("one"),) + Once.exports  # E: OwnThenRepeated.one: the method 'one' is declared twice in this class  [toolset-duplicate-name]


class RepeatedTwice(Once):
    exports = Once.exports + Once.exports  # E: RepeatedTwice.one: the method 'one' is declared twice in this class  [toolset-duplicate-name]


class RepeatedByCount(Once):
    exports = Once.exports * 2  # E: RepeatedByCount.one: the method 'one' is declared twice in this class  [toolset-duplicate-name]


ONCE_TWICE: Final = Once.exports + Once.exports


class RepeatedByConstant(Once):
    exports = ONCE_TWICE  # E: RepeatedByConstant.one: the method 'one' is declared twice in this class  [toolset-duplicate-name]


class RepeatedOnItsLine(Once):
    exports = (
        *Once.exports,
        *Once.exports,  # E: RepeatedOnItsLine.one: the method 'one' is declared twice in this class  [toolset-duplicate-name]
    )


class RepeatedByDecorator(Once):
    exports = Once.exports

    @tool  # E: RepeatedByDecorator.one: the method 'one' is declared twice in this class  [toolset-duplicate-name]
    def one(self) -> None: ...


class RedefinedInARow(Toolset):
    # Python keeps the last `def`; each marked one it replaces in a row declares it again.
    @tool
    def go(self) -> None: ...

    @tool(description="Again")  # type: ignore[no-redef]  # E: RedefinedInARow.go: the method 'go' is declared twice in this class  [toolset-duplicate-name]  # N: Error code "toolset-duplicate-name" not covered by "type: ignore[no-redef]" comment
    def go(self) -> None: ...


class RedefinedThreeTimes(Toolset):
    @tool
    def go(self) -> None: ...

    @tool  # type: ignore[no-redef]  # E: RedefinedThreeTimes.go: the method 'go' is declared twice in this class  [toolset-duplicate-name]  # N: Error code "toolset-duplicate-name" not covered by "type: ignore[no-redef]" comment
    def go(self) -> None: ...

    @tool  # type: ignore[no-redef]  # E: RedefinedThreeTimes.go: the method 'go' is declared twice in this class  [toolset-duplicate-name]  # N: Error code "toolset-duplicate-name" not covered by "type: ignore[no-redef]" comment
    def go(self) -> None: ...


class RedefinedApart(Toolset):
    @tool
    def go(self) -> None: ...

    limit = 3

    @tool  # type: ignore[no-redef]  # E: RedefinedApart.go: the method 'go' is declared twice in this class  [toolset-duplicate-name]  # N: Error code "toolset-duplicate-name" not covered by "type: ignore[no-redef]" comment
    def go(self) -> None: ...


class RedefinedPlainBetween(Toolset):
    # The plain `def` replaced the first: only the last declares it.
    @tool
    def go(self) -> None: ...

    def go(self) -> None: ...  # type: ignore[no-redef]

    @tool  # type: ignore[no-redef]
    def go(self) -> None: ...


class RedefinedUnmarked(Toolset):
    # The class keeps the plain `def`: nothing is declared.
    @tool
    def go(self) -> None: ...

    def go(self) -> None: ...  # type: ignore[no-redef]


class RedefinedStaticBetween(Toolset):
    # A decorated `def` not marked replaces the marked one too: the last repeats its own only.
    @tool
    def go(self) -> None: ...

    @staticmethod  # type: ignore[no-redef]
    def go() -> None: ...

    @tool  # type: ignore[no-redef]
    @tool  # E: RedefinedStaticBetween.go: the method 'go' is declared twice in this class  [toolset-duplicate-name]
    def go(self) -> None: ...


class RedefinedPlainApart(Toolset):
    # A plain `def` between, not in a row: it replaced the first all the same.
    @tool
    def go(self) -> None: ...

    limit = 3

    def go(self) -> None: ...  # type: ignore[no-redef]

    size = 4

    @tool  # type: ignore[no-redef]
    def go(self) -> None: ...
